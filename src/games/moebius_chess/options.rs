//! The rule options of Moebius Chess.

use crate::core::{OptionKind, OptionSpec, OptionValue, RuleOptions};

/// Which repair of "checkmate by phasing" is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckRule {
    /// Dekker: a move that mates with the moved piece on the twin of the enemy king is
    /// illegal (DEFAULT).
    Dekker,
    /// Nierse: no piece may ever move to the twin of the enemy king's square.
    Nierse,
    /// No restriction: the unrepaired game.
    None,
}

/// How pawns may phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PawnPhasing {
    /// To an empty twin or capturing on it, like every piece (DEFAULT).
    Full,
    /// Only to an empty twin: pawns never capture (nor attack) by phasing.
    EmptyOnly,
    /// Pawns do not phase at all.
    Never,
}

/// The rule options of a Moebius Chess game. `Default` is the spec's DEFAULT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoebiusOptions {
    pub check_rule: CheckRule,
    pub pawn_phasing: PawnPhasing,
}

impl Default for MoebiusOptions {
    fn default() -> Self {
        MoebiusOptions { check_rule: CheckRule::Dekker, pawn_phasing: PawnPhasing::Full }
    }
}

impl MoebiusOptions {
    /// True when a pawn attacks (may capture on) its twin square.
    pub fn pawn_phase_captures(&self) -> bool {
        self.pawn_phasing == PawnPhasing::Full
    }
}

const CHECK_RULE: &str = "Moebius Check Rule";
const PAWN_PHASING: &str = "Moebius Pawn Phasing";

impl RuleOptions for MoebiusOptions {
    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: CHECK_RULE,
                kind: OptionKind::Combo { default: "dekker", vars: &["dekker", "nierse", "none"] },
            },
            OptionSpec {
                name: PAWN_PHASING,
                kind: OptionKind::Combo { default: "full", vars: &["full", "empty", "none"] },
            },
        ]
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (CHECK_RULE, OptionValue::Text(t)) => {
                self.check_rule = match t.as_str() {
                    "dekker" => CheckRule::Dekker,
                    "nierse" => CheckRule::Nierse,
                    "none" => CheckRule::None,
                    _ => return Err(format!("{CHECK_RULE}: unknown value '{t}'")),
                }
            }
            (PAWN_PHASING, OptionValue::Text(t)) => {
                self.pawn_phasing = match t.as_str() {
                    "full" => PawnPhasing::Full,
                    "empty" => PawnPhasing::EmptyOnly,
                    "none" => PawnPhasing::Never,
                    _ => return Err(format!("{PAWN_PHASING}: unknown value '{t}'")),
                }
            }
            _ => return Err(format!("unknown Moebius Chess option '{name}'")),
        }
        Ok(())
    }
}
