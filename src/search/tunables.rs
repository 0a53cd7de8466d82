//! Tunable parameters as engine options, declared once: each search lists its
//! parameters in one table of [`Tunable`] rows (option name, type and range, and the
//! field it reads and writes), from which its option specs, defaults and `setoption`
//! handling all come. Tables: the alpha-beta's [`super::params::ALPHA_BETA`], Mobius's
//! and Mabula's Monte Carlo constants in their search modules.
//!
//! Option values are integers (or switches); a row's conversion ([`conv`]) maps the
//! field to it: thousandths for fractions, [`conv::NEVER`] for a threshold that is off.

use crate::core::{OptionKind, OptionSpec, OptionValue};

/// One tunable parameter of a search of type `S`.
pub struct Tunable<S> {
    /// The option's name, or the end of it after a game's prefix (alpha-beta rows).
    pub name: &'static str,
    /// `Some((min, max))` for a `spin` option, `None` for a switch (`check`).
    pub range: Option<(i64, i64)>,
    /// The field as an option value.
    pub get: fn(&S) -> i64,
    /// Stores an option value (already within `range`) into the field.
    pub set: fn(&mut S, i64),
    /// SPSA's final perturbation `c_end` in option units (fishtest's column): about a
    /// twentieth of the range the value plausibly moves in; 0 for a switch, which SPSA
    /// does not tune.
    pub step: f64,
}

/// A table row: `tunable!(S, "Name", field.path, conversion, min, max, step)`, or
/// `tunable!(S, "Name", field.path, switch)` for a `check` option. The conversion is a
/// module of [`conv`] with `get` and `set`; `step` is [`Tunable::step`].
#[macro_export]
macro_rules! tunable {
    ($s:ty, $name:literal, $($field:ident).+, switch) => {
        $crate::search::tunables::Tunable::<$s> {
            name: $name,
            range: None,
            get: |s: &$s| i64::from(s.$($field).+),
            set: |s: &mut $s, v| s.$($field).+ = v != 0,
            step: 0.0,
        }
    };
    ($s:ty, $name:literal, $($field:ident).+, $conv:ident, $min:expr, $max:expr, $step:expr) => {
        $crate::search::tunables::Tunable::<$s> {
            name: $name,
            range: Some(($min, $max)),
            get: |s: &$s| $crate::search::tunables::conv::$conv::get(s.$($field).+),
            set: |s: &mut $s, v| s.$($field).+ = $crate::search::tunables::conv::$conv::set(v),
            step: $step as f64,
        }
    };
}

impl<S> Tunable<S> {
    /// Stores `value` into `target` if it fits the row's type and range.
    fn apply(&self, target: &mut S, name: &str, value: &OptionValue) -> Result<(), String> {
        let v = match (value, self.range) {
            (OptionValue::Int(v), Some((min, max))) if (min..=max).contains(v) => *v,
            (OptionValue::Bool(b), None) => (*b).into(),
            _ => return Err(format!("option '{name}' cannot take {value:?}")),
        };
        (self.set)(target, v);
        Ok(())
    }

    /// The option's type, with the value in `values` as its default.
    fn kind(&self, values: &S) -> OptionKind {
        let default = (self.get)(values);
        match self.range {
            Some((min, max)) => OptionKind::Spin { default, min, max },
            None => OptionKind::Check { default: default != 0 },
        }
    }
}

/// The options of `table` named `names` (one per row, in order), defaults read from
/// `values` (the search as constructed).
pub fn option_specs<S>(
    table: &[Tunable<S>],
    names: &[&'static str],
    values: &S,
) -> Vec<OptionSpec> {
    table.iter().zip(names).map(|(t, &name)| OptionSpec { name, kind: t.kind(values) }).collect()
}

/// The options of a table whose rows carry their whole names.
pub fn named_option_specs<S>(table: &[Tunable<S>], values: &S) -> Vec<OptionSpec> {
    table.iter().map(|t| OptionSpec { name: t.name, kind: t.kind(values) }).collect()
}

/// The SPSA steps of `table`'s spin rows named `names` (one per row, in order).
pub fn spsa_steps<S>(table: &[Tunable<S>], names: &[&'static str]) -> Vec<(&'static str, f64)> {
    table.iter().zip(names).filter(|(t, _)| t.step > 0.0).map(|(t, &n)| (n, t.step)).collect()
}

/// [`spsa_steps`] for a table whose rows carry their whole names.
pub fn named_spsa_steps<S>(table: &[Tunable<S>]) -> Vec<(&'static str, f64)> {
    table.iter().filter(|t| t.step > 0.0).map(|t| (t.name, t.step)).collect()
}

/// Applies option `name` (the value already checked against its spec) to `target`;
/// `Ok(false)` when no row of the table is called `name` (nothing changes).
pub fn set_option<S>(
    table: &[Tunable<S>],
    names: &[&'static str],
    target: &mut S,
    name: &str,
    value: &OptionValue,
) -> Result<bool, String> {
    match table.iter().zip(names).find(|(_, n)| **n == name) {
        Some((row, _)) => row.apply(target, name, value).map(|()| true),
        None => Ok(false),
    }
}

/// [`set_option`] for a table whose rows carry their whole names.
pub fn set_named_option<S>(
    table: &[Tunable<S>],
    target: &mut S,
    name: &str,
    value: &OptionValue,
) -> Result<bool, String> {
    match table.iter().find(|t| t.name == name) {
        Some(row) => row.apply(target, name, value).map(|()| true),
        None => Ok(false),
    }
}

/// Field ↔ option value conversions of table rows.
pub mod conv {
    /// The value of threshold options that means "never" (the field holds its type's
    /// maximum then).
    pub const NEVER: i64 = 256;

    /// An `i32` field as it is.
    pub mod int {
        pub fn get(x: i32) -> i64 {
            x.into()
        }
        pub fn set(v: i64) -> i32 {
            v as i32
        }
    }

    /// A `u32` field as it is.
    pub mod uint {
        pub fn get(x: u32) -> i64 {
            x.into()
        }
        pub fn set(v: i64) -> u32 {
            v as u32
        }
    }

    /// A `usize` field as it is.
    pub mod size {
        pub fn get(x: usize) -> i64 {
            x as i64
        }
        pub fn set(v: i64) -> usize {
            v as usize
        }
    }

    /// A `usize` count whose maximum means "never": [`NEVER`] as an option.
    pub mod count {
        use super::NEVER;
        pub fn get(x: usize) -> i64 {
            i64::try_from(x).unwrap_or(i64::MAX).min(NEVER)
        }
        pub fn set(v: i64) -> usize {
            if v == NEVER { usize::MAX } else { v as usize }
        }
    }

    /// An `i32` depth whose maximum means "never": [`NEVER`] as an option.
    pub mod depth {
        use super::NEVER;
        pub fn get(x: i32) -> i64 {
            i64::from(x).min(NEVER)
        }
        pub fn set(v: i64) -> i32 {
            if v == NEVER { i32::MAX } else { v as i32 }
        }
    }

    /// An `f64` fraction in thousandths.
    pub mod permille {
        pub fn get(x: f64) -> i64 {
            (x * 1000.0).round() as i64
        }
        pub fn set(v: i64) -> f64 {
            v as f64 / 1000.0
        }
    }

    /// An `f64` in millionths.
    pub mod per_million {
        pub fn get(x: f64) -> i64 {
            (x * 1e6).round() as i64
        }
        pub fn set(v: i64) -> f64 {
            v as f64 / 1e6
        }
    }
}

#[cfg(test)]
mod tests {
    use super::conv::*;

    #[test]
    fn conversions_read_back_what_they_write() {
        for v in [0, 1, 7, 255, NEVER] {
            assert_eq!(count::get(count::set(v)), v);
            assert_eq!(depth::get(depth::set(v)), v);
        }
        assert_eq!((count::set(NEVER), depth::set(NEVER)), (usize::MAX, i32::MAX));
        for v in [0, 1, 250, 999, 3000, 10_000] {
            assert_eq!(permille::get(permille::set(v)), v);
        }
        for v in [0, 1, 2000, 999_999, 1_000_000] {
            assert_eq!(per_million::get(per_million::set(v)), v);
        }
    }
}
