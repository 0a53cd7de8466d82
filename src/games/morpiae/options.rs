//! The rule options of Morpiae: the overlap rule (`Morpiae Variant`).

use crate::core::{OptionKind, OptionSpec, OptionValue, RuleOptions};

/// Which circles a new line may not reuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 5T (touching, DEFAULT): two lines of one direction share no unit segment but
    /// may meet end to end; a circle is crossed in a direction when a stroke passes
    /// right through it.
    Touching,
    /// 5D (disjoint, OPTION): two lines of one direction share no circle; every circle
    /// of a line is crossed in its direction, ends included.
    Disjoint,
}

impl Variant {
    /// The option value naming this variant: `5T` or `5D`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Touching => "5T",
            Variant::Disjoint => "5D",
        }
    }

    /// The variant named `5T` or `5D` (case-insensitive).
    pub fn from_name(s: &str) -> Option<Variant> {
        match s.to_ascii_uppercase().as_str() {
            "5T" => Some(Variant::Touching),
            "5D" => Some(Variant::Disjoint),
            _ => None,
        }
    }
}

/// The rule options of a Morpiae game. `Default` is the spec's DEFAULT (5T).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorpiaeOptions {
    pub variant: Variant,
}

impl Default for MorpiaeOptions {
    fn default() -> Self {
        MorpiaeOptions { variant: Variant::Touching }
    }
}

const VARIANT: &str = "Morpiae Variant";

impl RuleOptions for MorpiaeOptions {
    fn specs() -> Vec<OptionSpec> {
        vec![OptionSpec {
            name: VARIANT,
            kind: OptionKind::Combo { default: "5T", vars: &["5T", "5D"] },
        }]
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (VARIANT, OptionValue::Text(t)) => {
                self.variant = Variant::from_name(t)
                    .ok_or_else(|| format!("Morpiae Variant takes 5T or 5D, not '{t}'"))?;
                Ok(())
            }
            _ => Err(format!("unknown Morpiae option '{name}'")),
        }
    }
}
