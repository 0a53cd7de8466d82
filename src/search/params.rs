//! The tunable constants of the alpha-beta search ([`SearchParams`]) as engine options, so
//! they can be changed without a rebuild (experiments, `ugine spsa`): one table,
//! [`ALPHA_BETA`], one row per parameter (see [`super::tunables`]). Every alpha-beta game
//! has one option per row, named `<prefix> Search <row>` with the game's
//! [`Evaluate::SEARCH_PREFIX`] (names are unique engine-wide, and each game has its own
//! defaults: its [`Evaluate::PARAMS`]), e.g. `Morris Search Aspiration`.
//!
//! Thresholds that can be off (`LMR Min Move`, `LMR Deep Depth`, `LMP Base`) use [`NEVER`]
//! for "never"; the fraction of the soft time budget is in thousandths.
//!
//! [`Evaluate::PARAMS`]: super::Evaluate::PARAMS
//! [`Evaluate::SEARCH_PREFIX`]: super::Evaluate::SEARCH_PREFIX

use std::sync::Mutex;

use super::SearchParams;
use super::tunables::{self, Tunable};
use crate::core::{OptionSpec, OptionValue};
use crate::tunable;

use super::tunables::conv::NEVER;

/// The alpha-beta's tunable parameters, in the order of their options.
pub const ALPHA_BETA: [Tunable<SearchParams>; 22] = [
    tunable!(SearchParams, "Aspiration", aspiration, int, 0, 10_000, 5),
    tunable!(SearchParams, "LMR Min Depth", lmr_min_depth, int, 1, 64, 1),
    tunable!(SearchParams, "LMR Min Move", lmr_min_move, count, 1, NEVER, 1),
    tunable!(SearchParams, "LMR Late Move", lmr_late_move, count, 1, NEVER, 1),
    tunable!(SearchParams, "LMR In PV", lmr_in_pv, switch),
    tunable!(SearchParams, "LMR Deep Depth", lmr_deep_depth, depth, 1, NEVER, 1),
    tunable!(SearchParams, "LMR Log", lmr_log, permille, 0, 3000, 50),
    tunable!(SearchParams, "Null Move", null_move, switch),
    tunable!(SearchParams, "Null Min Depth", null_min_depth, int, 1, 64, 1),
    tunable!(SearchParams, "Null Base", null_base, int, 0, 16, 1),
    tunable!(SearchParams, "Null Divisor", null_divisor, int, 1, 64, 1),
    tunable!(SearchParams, "History Max", history_max, int, 1, 1 << 30, 1 << 18),
    tunable!(SearchParams, "Max Extend Ply", max_extend_ply, size, 0, 128, 4),
    tunable!(SearchParams, "Soft Fraction", soft_fraction, permille, 1, 3000, 50),
    tunable!(SearchParams, "Contempt", contempt, int, 0, 1000, 5),
    tunable!(SearchParams, "RFP Margin", rfp_margin, int, 0, 10_000, 5),
    tunable!(SearchParams, "RFP Max Depth", rfp_max_depth, int, 0, 64, 1),
    tunable!(SearchParams, "LMP Base", lmp_base, count, 0, NEVER, 1),
    tunable!(SearchParams, "LMP Max Depth", lmp_max_depth, int, 0, 64, 1),
    tunable!(SearchParams, "Futility Margin", futility_margin, int, 0, 10_000, 5),
    tunable!(SearchParams, "Futility Max Depth", futility_max_depth, int, 0, 64, 1),
    tunable!(SearchParams, "Net Grain", net_grain, int, 1, 256, 2),
];

/// The option names of a game whose options start with `prefix`: `"Morris"` gives
/// `"Morris Search Aspiration"`, … in the order of [`ALPHA_BETA`]. Made once per prefix
/// (options are named by `'static` strings) and kept for the life of the process.
pub fn option_names(prefix: &'static str) -> &'static [&'static str] {
    type Made = Vec<(&'static str, &'static [&'static str])>;
    static MADE: Mutex<Made> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, names)) = made.iter().find(|(p, _)| *p == prefix) {
        return names;
    }
    let names: Vec<&'static str> = ALPHA_BETA
        .iter()
        .map(|t| &*Box::leak(format!("{prefix} Search {}", t.name).into_boxed_str()))
        .collect();
    let names: &'static [&'static str] = Box::leak(names.into_boxed_slice());
    made.push((prefix, names));
    names
}

/// The options of a game's search, for option-name `prefix`, defaults from the game's
/// table.
pub fn option_specs(prefix: &'static str, defaults: &SearchParams) -> Vec<OptionSpec> {
    tunables::option_specs(&ALPHA_BETA, option_names(prefix), defaults)
}

/// The SPSA steps of a game's search options, for option-name `prefix`.
pub fn spsa_steps(prefix: &'static str) -> Vec<(&'static str, f64)> {
    tunables::spsa_steps(&ALPHA_BETA, option_names(prefix))
}

/// Applies option `name` (one of `prefix`'s; the value already checked against its
/// spec) to `params`.
pub fn set_option(
    prefix: &'static str,
    params: &mut SearchParams,
    name: &str,
    value: &OptionValue,
) -> Result<(), String> {
    match tunables::set_option(&ALPHA_BETA, option_names(prefix), params, name, value)? {
        true => Ok(()),
        false => Err(format!("unknown option '{name}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &str = "Test";

    #[test]
    fn names_follow_the_order_of_the_parameters() {
        let names = option_names(NAMES);
        assert_eq!(names.len(), ALPHA_BETA.len());
        for (row, name) in ALPHA_BETA.iter().zip(names) {
            assert_eq!(*name, format!("Test Search {}", row.name));
        }
        assert!(std::ptr::eq(names, option_names(NAMES)), "made once per prefix");
    }

    #[test]
    fn defaults_read_back_into_the_same_table() {
        // Setting every option to its announced default leaves any game's table as it is,
        // "never" thresholds included.
        let mut tables = vec![SearchParams::DEFAULT];
        let mut odd = SearchParams::DEFAULT;
        odd.lmr_min_move = usize::MAX;
        odd.lmr_deep_depth = 6;
        odd.soft_fraction = 0.375;
        tables.push(odd);
        for table in tables {
            let mut p = table;
            for spec in option_specs(NAMES, &table) {
                set_option(NAMES, &mut p, spec.name, &spec.default_value()).unwrap();
            }
            assert_eq!(p, table);
        }
    }

    #[test]
    fn options_set_their_field_and_refuse_what_does_not_fit() {
        let mut p = SearchParams::DEFAULT;
        set_option(NAMES, &mut p, "Test Search Null Base", &OptionValue::Int(3)).unwrap();
        set_option(NAMES, &mut p, "Test Search LMR Deep Depth", &OptionValue::Int(NEVER)).unwrap();
        set_option(NAMES, &mut p, "Test Search LMR In PV", &OptionValue::Bool(true)).unwrap();
        set_option(NAMES, &mut p, "Test Search Soft Fraction", &OptionValue::Int(250)).unwrap();
        assert_eq!((p.null_base, p.lmr_deep_depth, p.lmr_in_pv), (3, i32::MAX, true));
        assert_eq!(p.soft_fraction, 0.25);
        let before = p;
        for (name, v) in [
            ("Test Search Aspiration", OptionValue::Int(-1)),
            ("Test Search Null Move", OptionValue::Int(1)),
            ("Test Search Nothing", OptionValue::Int(1)),
        ] {
            assert!(set_option(NAMES, &mut p, name, &v).is_err(), "{name}");
        }
        assert_eq!(p, before);
    }
}
