//! The weights of the morris evaluation, one per feature of `eval.rs`, written by
//! `ugine tune` and reviewed before commit.
//!
//! ugine tune --game morris --data morris-data.txt --epochs 1500 --rate 1
//! 59596 quiet positions, K 2.8023, loss 0.124995 -> 0.106050

/// Weight per feature, in `cp`.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 30] = [
    100, // placing man
    6, // placing closed mill
    16, // placing two in a row
    43, // placing closable mill
    0, // placing double mill
    16, // placing mobility
    -18, // placing blocked man
    -20, // placing frozen man
    -177, // placing 0 steps
    -3, // placing 1 step
    -38, // placing 2 steps
    -2, // placing territory
    2, // placing junction
    0, // placing flying
    46, // placing tempo
    100, // moving man
    36, // moving closed mill
    16, // moving two in a row
    65, // moving closable mill
    0, // moving double mill
    10, // moving mobility
    -12, // moving blocked man
    -29, // moving frozen man
    0, // moving 0 steps
    -68, // moving 1 step
    -25, // moving 2 steps
    7, // moving territory
    2, // moving junction
    0, // moving flying
    23, // moving tempo
];
