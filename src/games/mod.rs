//! One folder per game: rules, notation, position string and evaluation.
//! Each game's module doc gives its rules source, its options and its coordinates.

pub mod mabula;
pub mod mobius;
pub mod moebius_chess;
pub mod morpiae;
pub mod morris;
