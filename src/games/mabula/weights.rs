//! The weights of the mabula evaluation, one per feature of `eval.rs`, written by
//! `ugine tune` and reviewed before commit.
//!
//! ugine datagen --game mabula --games 1500 --nodes 3000 --concurrency 2 --seed 5 -o mabula.data
//! ugine tune --game mabula --data mabula.data --epochs 1500 --rate 1
//! 27832 quiet positions, K 0.2867, loss 0.203559 -> 0.176792

/// Weight per feature, in `cp`.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 32] = [
    100, // early largest group
    54, // early second group
    82, // early mergeable marble
    799, // early connectable border marble
    718, // early live border marble
    1055, // early dead border marble
    14, // early mobility
    -38, // early singleton
    -317, // early tempo
    100, // late largest group
    -27, // late second group
    89, // late mergeable marble
    579, // late connectable border marble
    413, // late live border marble
    391, // late dead border marble
    57, // late mobility
    -57, // late singleton
    -253, // late tempo
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
