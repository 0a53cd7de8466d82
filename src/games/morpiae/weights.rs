//! The weights of the morpiae evaluation, one per feature of `eval.rs`, written by
//! `ugine tune` and reviewed before commit.
//!
//! Hand weights (the evaluation before tuning).

/// Weight per feature, in `cp`.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 8] = [
    100, // circle
    60, // best capture
    0, // second capture
    0, // capturing line
    0, // circle crossed 3 ways
    0, // circle crossed 2 ways
    0, // legal line
    0, // tempo
];
