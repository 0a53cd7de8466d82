//! The weights of the moebius-chess evaluation, one per feature of `eval.rs`, written by
//! `ugine tune` and reviewed before commit.
//!
//! Hand weights (the constants of the evaluation before the weight table), not tuned:
//! tuned tables have not yet won an SPRT (docs/tuning.md).

/// Weight per feature, in `cp`.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 41] = [
    100, // pawn value
    320, // knight value
    350, // bishop value
    520, // rook value
    1000, // queen value
    4, // knight mobility
    4, // bishop mobility
    2, // rook mobility
    1, // queen mobility
    0, // king mobility
    -25, // knight row 0 from edge
    -5, // knight row 1 from edge
    5, // knight row 2 from edge
    12, // knight row 3 from edge
    -10, // bishop row 0 from edge
    0, // bishop row 1 from edge
    5, // bishop row 2 from edge
    8, // bishop row 3 from edge
    0, // rook row 0 from edge
    0, // rook row 1 from edge
    0, // rook row 2 from edge
    0, // rook row 3 from edge
    -5, // queen row 0 from edge
    0, // queen row 1 from edge
    3, // queen row 2 from edge
    5, // queen row 3 from edge
    10, // king row 0 from edge
    -5, // king row 1 from edge
    -15, // king row 2 from edge
    -25, // king row 3 from edge
    0, // pawn rank 2
    5, // pawn rank 3
    12, // pawn rank 4
    25, // pawn rank 5
    45, // pawn rank 6
    80, // pawn rank 7
    -15, // doubled pawn
    8, // supported pawn
    8, // king zone attack
    25, // king twin threat
    10, // tempo
];
