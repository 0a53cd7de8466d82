//! The weights of the mabula evaluation, one per feature of `eval.rs`, written by
//! `ugine tune` and reviewed before commit.
//!
//! Hand weights (the evaluation before tuning); product groups: 100·log2(size).

/// Weight per feature, in `cp`.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 32] = [
    100, // early largest group
    25, // early second group
    0, // early mergeable marble
    45, // early connectable border marble
    15, // early live border marble
    0, // early dead border marble
    0, // early mobility
    0, // early singleton
    10, // early tempo
    100, // late largest group
    25, // late second group
    0, // late mergeable marble
    45, // late connectable border marble
    15, // late live border marble
    0, // late dead border marble
    0, // late mobility
    0, // late singleton
    10, // late tempo
    0, // product group of 1
    100, // product group of 2
    158, // product group of 3
    200, // product group of 4
    232, // product group of 5
    258, // product group of 6
    281, // product group of 7
    300, // product group of 8
    317, // product group of 9
    332, // product group of 10
    346, // product group of 11
    358, // product group of 12
    15, // product live border marble
    10, // product tempo
];
