//! The engine-wide options, common to every game.

use crate::core::{OptionKind, OptionSpec};

use crate::engine::GAME_NAMES;

pub const GAME: &str = "Game";
pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const MULTI_PV: &str = "MultiPV";

/// Default hash table size in megabytes.
pub const DEFAULT_HASH_MB: i64 = 16;
/// Default safety margin per move in milliseconds.
pub const DEFAULT_OVERHEAD_MS: i64 = 30;

/// The engine-wide options, announced before the games' rule options.
pub fn engine_option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: GAME,
            kind: OptionKind::Combo { default: GAME_NAMES[0], vars: GAME_NAMES },
        },
        OptionSpec {
            name: HASH,
            kind: OptionKind::Spin { default: DEFAULT_HASH_MB, min: 1, max: 16384 },
        },
        OptionSpec { name: THREADS, kind: OptionKind::Spin { default: 1, min: 1, max: 64 } },
        OptionSpec { name: MULTI_PV, kind: OptionKind::Spin { default: 1, min: 1, max: 256 } },
        OptionSpec {
            name: MOVE_OVERHEAD,
            kind: OptionKind::Spin { default: DEFAULT_OVERHEAD_MS, min: 0, max: 5000 },
        },
    ]
}

/// The `option name … type …` text of a spec (after the word `option`).
pub fn describe(spec: &OptionSpec) -> String {
    let kind = match &spec.kind {
        OptionKind::Check { default } => format!("type check default {default}"),
        OptionKind::Spin { default, min, max } => {
            format!("type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, vars } => {
            let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
            format!("type combo default {default} {}", vars.join(" "))
        }
        OptionKind::Str { default } => format!("type string default {default}"),
    };
    format!("name {} {kind}", spec.name)
}
