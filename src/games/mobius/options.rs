//! The rule options of Mobius.

use super::network::WinRule;
use crate::core::{OptionKind, OptionSpec, OptionValue, RuleOptions};

/// The rule options of a Mobius game. `Default` is the spec's DEFAULT: network rule,
/// odd loops only, no swap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MobiusOptions {
    /// The win test.
    pub rule: WinRule,
    /// OPTION: Blue may answer Red's first stone with `swap`.
    pub swap: bool,
}

impl MobiusOptions {
    /// True under the spec's DEFAULT win test, where a full board always has exactly one
    /// qualifying player (so a random fill decides a playout with one test at the end).
    pub fn full_board_decides(&self) -> bool {
        self.rule == WinRule::default()
    }
}

const WIN: &str = "Mobius Win Rule";
const LOOPS: &str = "Mobius Loops";
const SWAP: &str = "Mobius Swap";

impl RuleOptions for MobiusOptions {
    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: WIN,
                kind: OptionKind::Combo { default: "network", vars: &["network", "literal"] },
            },
            OptionSpec {
                name: LOOPS,
                kind: OptionKind::Combo { default: "odd", vars: &["odd", "any"] },
            },
            OptionSpec { name: SWAP, kind: OptionKind::Check { default: false } },
        ]
    }

    fn set(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (WIN, OptionValue::Text(t)) => self.rule.zones_are_nodes = t != "literal",
            (LOOPS, OptionValue::Text(t)) => self.rule.any_winding = t == "any",
            (SWAP, OptionValue::Bool(b)) => self.swap = *b,
            _ => return Err(format!("unknown Mobius option '{name}'")),
        }
        Ok(())
    }
}
