//! The rule options of Mabula: how the final position is scored and how ties end.

use crate::core::{OptionKind, OptionSpec, OptionValue, RuleOptions};

/// How a player's score is counted at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// DEFAULT: the size of the player's largest group.
    Largest,
    /// OPTION: the product of the sizes of all the player's groups.
    Product,
}

/// What happens when both scores are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// DEFAULT: equal scores draw.
    Draw,
    /// OPTION: compare the group sizes sorted from largest down; a draw only if identical.
    Break,
}

/// The rule options of a Mabula game. `Default` is the spec's DEFAULT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MabulaOptions {
    pub scoring: Scoring,
    pub ties: Ties,
}

impl Default for MabulaOptions {
    fn default() -> Self {
        MabulaOptions { scoring: Scoring::Largest, ties: Ties::Draw }
    }
}

const SCORING: &str = "Mabula Scoring";
const TIES: &str = "Mabula Ties";

impl RuleOptions for MabulaOptions {
    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: SCORING,
                kind: OptionKind::Combo { default: "largest", vars: &["largest", "product"] },
            },
            OptionSpec {
                name: TIES,
                kind: OptionKind::Combo { default: "draw", vars: &["draw", "break"] },
            },
        ]
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (SCORING, OptionValue::Text(t)) => {
                self.scoring = if t == "product" { Scoring::Product } else { Scoring::Largest };
            }
            (TIES, OptionValue::Text(t)) => {
                self.ties = if t == "break" { Ties::Break } else { Ties::Draw };
            }
            _ => return Err(format!("unknown Mabula option '{name}'")),
        }
        Ok(())
    }
}
