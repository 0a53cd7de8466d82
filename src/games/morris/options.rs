//! The rule options of Morris.

use crate::core::{OptionKind, OptionSpec, OptionValue, RuleOptions};

/// Which rule set decides flying and removals from mills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MorrisRules {
    /// The seed's rules: no flying; nothing is removed when every enemy man is in a mill.
    Seed,
    /// Tournament rules: flying with three men; removal from a mill when all are in mills.
    Standard,
}

/// The rule options of a Morris game. `Default` is the spec's DEFAULT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorrisOptions {
    pub rules: MorrisRules,
    /// The game is drawn on this occurrence of a position (0: never).
    pub repetition: u32,
    /// The game is drawn after this many plies without capture once both hands are
    /// empty (0: never).
    pub move_limit: u32,
}

impl Default for MorrisOptions {
    fn default() -> Self {
        MorrisOptions { rules: MorrisRules::Seed, repetition: 3, move_limit: 100 }
    }
}

impl MorrisOptions {
    /// True when a player with exactly three men and an empty hand may fly.
    pub fn flying(&self) -> bool {
        self.rules == MorrisRules::Standard
    }
}

const RULES: &str = "Morris Rules";
const REPETITION: &str = "Morris Repetition";
const MOVE_LIMIT: &str = "Morris Move Limit";

impl RuleOptions for MorrisOptions {
    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: RULES,
                kind: OptionKind::Combo { default: "seed", vars: &["seed", "standard"] },
            },
            OptionSpec {
                name: REPETITION,
                kind: OptionKind::Spin { default: 3, min: 0, max: 100 },
            },
            OptionSpec {
                name: MOVE_LIMIT,
                kind: OptionKind::Spin { default: 100, min: 0, max: 10_000 },
            },
        ]
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (RULES, OptionValue::Text(t)) => {
                self.rules =
                    if t == "standard" { MorrisRules::Standard } else { MorrisRules::Seed };
            }
            (REPETITION, OptionValue::Int(n)) if *n != 1 => self.repetition = *n as u32,
            (REPETITION, _) => return Err("Morris Repetition must be 0 (off) or at least 2".into()),
            (MOVE_LIMIT, OptionValue::Int(n)) => self.move_limit = *n as u32,
            _ => return Err(format!("unknown Morris option '{name}'")),
        }
        Ok(())
    }
}
