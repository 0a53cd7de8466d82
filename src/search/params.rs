//! The tunable constants of the alpha-beta search ([`SearchParams`]) as engine options, so
//! they can be changed without a rebuild (experiments, `ugine spsa`). Every alpha-beta
//! game announces one option per [`Param`], named `<Game> Search <param>` (names must be
//! unique engine-wide, and each game has its own defaults: its [`Evaluate::PARAMS`]), e.g.
//! `Morris Search Aspiration`. The names come from `search_option_names!`, so they are
//! `'static` and written once.
//!
//! Thresholds that can be off (`LMR Min Move`, `LMR Deep Depth`, `LMP Base`) use [`NEVER`] for "never";
//! the fraction of the soft time budget is in thousandths.
//!
//! [`Evaluate::PARAMS`]: super::Evaluate::PARAMS

use super::SearchParams;
use crate::core::{OptionKind, OptionSpec, OptionValue};

/// The value of the threshold options that means "never" (the table holds the type's
/// maximum then).
pub const NEVER: i64 = 256;

/// One tunable field of [`SearchParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Aspiration,
    LmrMinDepth,
    LmrMinMove,
    LmrLateMove,
    LmrInPv,
    LmrDeepDepth,
    NullMove,
    NullMinDepth,
    NullBase,
    NullDivisor,
    HistoryMax,
    MaxExtendPly,
    SoftFraction,
    Contempt,
    RfpMargin,
    RfpMaxDepth,
    LmpBase,
    LmpMaxDepth,
}

/// How many [`Param`]s there are.
pub const PARAM_COUNT: usize = 18;

/// One option name per [`Param`], in the order of [`Param::ALL`].
pub type SearchOptionNames = [&'static str; PARAM_COUNT];

/// The option names of a game whose options start with `$game` (as its rule options do):
/// `search_option_names!("Morris")` gives `"Morris Search Aspiration"`, … in the order
/// of [`Param::ALL`] (a test checks each name against [`Param::suffix`]).
#[macro_export]
macro_rules! search_option_names {
    ($game:literal) => {
        [
            concat!($game, " Search Aspiration"),
            concat!($game, " Search LMR Min Depth"),
            concat!($game, " Search LMR Min Move"),
            concat!($game, " Search LMR Late Move"),
            concat!($game, " Search LMR In PV"),
            concat!($game, " Search LMR Deep Depth"),
            concat!($game, " Search Null Move"),
            concat!($game, " Search Null Min Depth"),
            concat!($game, " Search Null Base"),
            concat!($game, " Search Null Divisor"),
            concat!($game, " Search History Max"),
            concat!($game, " Search Max Extend Ply"),
            concat!($game, " Search Soft Fraction"),
            concat!($game, " Search Contempt"),
            concat!($game, " Search RFP Margin"),
            concat!($game, " Search RFP Max Depth"),
            concat!($game, " Search LMP Base"),
            concat!($game, " Search LMP Max Depth"),
        ]
    };
}

/// A threshold of the table as an option value: its maximum is [`NEVER`].
fn threshold(v: i64) -> i64 {
    v.min(NEVER)
}

impl Param {
    /// Every parameter, in the order of the option names.
    pub const ALL: [Param; PARAM_COUNT] = [
        Param::Aspiration,
        Param::LmrMinDepth,
        Param::LmrMinMove,
        Param::LmrLateMove,
        Param::LmrInPv,
        Param::LmrDeepDepth,
        Param::NullMove,
        Param::NullMinDepth,
        Param::NullBase,
        Param::NullDivisor,
        Param::HistoryMax,
        Param::MaxExtendPly,
        Param::SoftFraction,
        Param::Contempt,
        Param::RfpMargin,
        Param::RfpMaxDepth,
        Param::LmpBase,
        Param::LmpMaxDepth,
    ];

    /// The end of the option's name, after `<Game> Search `.
    pub fn suffix(self) -> &'static str {
        match self {
            Param::Aspiration => "Aspiration",
            Param::LmrMinDepth => "LMR Min Depth",
            Param::LmrMinMove => "LMR Min Move",
            Param::LmrLateMove => "LMR Late Move",
            Param::LmrInPv => "LMR In PV",
            Param::LmrDeepDepth => "LMR Deep Depth",
            Param::NullMove => "Null Move",
            Param::NullMinDepth => "Null Min Depth",
            Param::NullBase => "Null Base",
            Param::NullDivisor => "Null Divisor",
            Param::HistoryMax => "History Max",
            Param::MaxExtendPly => "Max Extend Ply",
            Param::SoftFraction => "Soft Fraction",
            Param::Contempt => "Contempt",
            Param::RfpMargin => "RFP Margin",
            Param::RfpMaxDepth => "RFP Max Depth",
            Param::LmpBase => "LMP Base",
            Param::LmpMaxDepth => "LMP Max Depth",
        }
    }

    /// The range of a `spin` parameter; `None` for the switches (`check` options).
    fn range(self) -> Option<(i64, i64)> {
        Some(match self {
            Param::Aspiration => (0, 10_000),
            Param::LmrMinDepth | Param::NullMinDepth => (1, 64),
            Param::LmrMinMove | Param::LmrLateMove | Param::LmrDeepDepth => (1, NEVER),
            Param::NullBase => (0, 16),
            Param::NullDivisor => (1, 64),
            Param::HistoryMax => (1, 1 << 30),
            Param::MaxExtendPly => (0, 128),
            Param::SoftFraction => (1, 3000),
            Param::Contempt => (0, 1000),
            Param::RfpMargin => (0, 10_000),
            Param::RfpMaxDepth | Param::LmpMaxDepth => (0, 64),
            Param::LmpBase => (0, NEVER),
            Param::LmrInPv | Param::NullMove => return None,
        })
    }

    /// The parameter's value in `p` as an option value (switches: 0 or 1).
    fn get(self, p: &SearchParams) -> i64 {
        match self {
            Param::Aspiration => p.aspiration.into(),
            Param::LmrMinDepth => p.lmr_min_depth.into(),
            Param::LmrMinMove => threshold(p.lmr_min_move.try_into().unwrap_or(i64::MAX)),
            Param::LmrLateMove => threshold(p.lmr_late_move.try_into().unwrap_or(i64::MAX)),
            Param::LmrInPv => p.lmr_in_pv.into(),
            Param::LmrDeepDepth => threshold(p.lmr_deep_depth.into()),
            Param::NullMove => p.null_move.into(),
            Param::NullMinDepth => p.null_min_depth.into(),
            Param::NullBase => p.null_base.into(),
            Param::NullDivisor => p.null_divisor.into(),
            Param::HistoryMax => p.history_max.into(),
            Param::MaxExtendPly => p.max_extend_ply as i64,
            Param::SoftFraction => (p.soft_fraction * 1000.0).round() as i64,
            Param::Contempt => p.contempt.into(),
            Param::RfpMargin => p.rfp_margin.into(),
            Param::RfpMaxDepth => p.rfp_max_depth.into(),
            Param::LmpBase => threshold(p.lmp_base.try_into().unwrap_or(i64::MAX)),
            Param::LmpMaxDepth => p.lmp_max_depth.into(),
        }
    }

    /// Stores option value `v` (within [`Param::range`]) into `p`.
    fn set(self, p: &mut SearchParams, v: i64) {
        // In range, so every conversion below is exact.
        let int = v as i32;
        let count = if v == NEVER { usize::MAX } else { v as usize };
        match self {
            Param::Aspiration => p.aspiration = int,
            Param::LmrMinDepth => p.lmr_min_depth = int,
            Param::LmrMinMove => p.lmr_min_move = count,
            Param::LmrLateMove => p.lmr_late_move = count,
            Param::LmrInPv => p.lmr_in_pv = v != 0,
            Param::LmrDeepDepth => p.lmr_deep_depth = if v == NEVER { i32::MAX } else { int },
            Param::NullMove => p.null_move = v != 0,
            Param::NullMinDepth => p.null_min_depth = int,
            Param::NullBase => p.null_base = int,
            Param::NullDivisor => p.null_divisor = int,
            Param::HistoryMax => p.history_max = int,
            Param::MaxExtendPly => p.max_extend_ply = v as usize,
            Param::SoftFraction => p.soft_fraction = v as f64 / 1000.0,
            Param::Contempt => p.contempt = int,
            Param::RfpMargin => p.rfp_margin = int,
            Param::RfpMaxDepth => p.rfp_max_depth = int,
            Param::LmpBase => p.lmp_base = count,
            Param::LmpMaxDepth => p.lmp_max_depth = int,
        }
    }

    /// The option's type, with the value in `defaults` as its default.
    fn kind(self, defaults: &SearchParams) -> OptionKind {
        let default = self.get(defaults);
        match self.range() {
            Some((min, max)) => OptionKind::Spin { default, min, max },
            None => OptionKind::Check { default: default != 0 },
        }
    }
}

/// The options of a game's search: `names` from `search_option_names!`, defaults from
/// the game's table.
pub fn option_specs(names: &SearchOptionNames, defaults: &SearchParams) -> Vec<OptionSpec> {
    Param::ALL
        .iter()
        .zip(names)
        .map(|(p, &name)| OptionSpec { name, kind: p.kind(defaults) })
        .collect()
}

/// Applies option `name` (one of `names`; the value already checked against its spec) to
/// `params`.
pub fn set_option(
    names: &SearchOptionNames,
    params: &mut SearchParams,
    name: &str,
    value: &OptionValue,
) -> Result<(), String> {
    let param = Param::ALL
        .iter()
        .zip(names)
        .find(|(_, n)| **n == name)
        .map(|(p, _)| *p)
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let v = match (value, param.range()) {
        (OptionValue::Int(v), Some((min, max))) if (min..=max).contains(v) => *v,
        (OptionValue::Bool(b), None) => (*b).into(),
        _ => return Err(format!("option '{name}' cannot take {value:?}")),
    };
    param.set(params, v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: SearchOptionNames = search_option_names!("Test");

    #[test]
    fn names_follow_the_order_of_the_parameters() {
        for (p, name) in Param::ALL.iter().zip(NAMES) {
            assert_eq!(name, format!("Test Search {}", p.suffix()));
        }
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
            for spec in option_specs(&NAMES, &table) {
                set_option(&NAMES, &mut p, spec.name, &spec.default_value()).unwrap();
            }
            assert_eq!(p, table);
        }
    }

    #[test]
    fn options_set_their_field_and_refuse_what_does_not_fit() {
        let mut p = SearchParams::DEFAULT;
        set_option(&NAMES, &mut p, "Test Search Null Base", &OptionValue::Int(3)).unwrap();
        set_option(&NAMES, &mut p, "Test Search LMR Deep Depth", &OptionValue::Int(NEVER)).unwrap();
        set_option(&NAMES, &mut p, "Test Search LMR In PV", &OptionValue::Bool(true)).unwrap();
        set_option(&NAMES, &mut p, "Test Search Soft Fraction", &OptionValue::Int(250)).unwrap();
        assert_eq!((p.null_base, p.lmr_deep_depth, p.lmr_in_pv), (3, i32::MAX, true));
        assert_eq!(p.soft_fraction, 0.25);
        let before = p;
        for (name, v) in [
            ("Test Search Aspiration", OptionValue::Int(-1)),
            ("Test Search Null Move", OptionValue::Int(1)),
            ("Test Search Nothing", OptionValue::Int(1)),
        ] {
            assert!(set_option(&NAMES, &mut p, name, &v).is_err(), "{name}");
        }
        assert_eq!(p, before);
    }
}
