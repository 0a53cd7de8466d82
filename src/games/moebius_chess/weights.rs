//! The weights of the moebius-chess evaluation, one per feature of `eval.rs`, written by
//! `ugine tune` and reviewed before commit.
//!
//! Data: `ugine datagen --game moebius-chess --nodes 5000 --max-plies 300` with `--seed 11`
//! (925 games) and `--seed 12` (1883 games, stopped), concatenated as all.data.
//! ugine tune --game moebius-chess --data all.data --epochs 300 --rate 1 --reg 0 --lambda 0.5 --fix 'pawn'
//! 176513 positions fitted, 19512 held out (every 10th block of 1000 lines), K 0.5101, player-1 offset 20 -> 22 cp
//! loss fitted 0.015806 -> 0.014271, held out (results) 0.069642 -> 0.064419
//! Kept after an SPRT against the hand weights (`ugine match`, 100 ms/move, margin 1 s,
//! openings `genfens moebius-chess 500 --seed 1`, order random, concurrency 2, elo0=0
//! elo1=10): 427 games, W-L-D 228-147-52, Elo +66.0 ± 23.0, LLR 3.04, H1 accepted.

/// Weight per feature, in `cp`.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 41] = [
    100, // pawn value
    295, // knight value
    323, // bishop value
    589, // rook value
    1054, // queen value
    -3, // knight mobility
    4, // bishop mobility
    -2, // rook mobility
    2, // queen mobility
    -7, // king mobility
    -59, // knight row 0 from edge
    -34, // knight row 1 from edge
    -8, // knight row 2 from edge
    -5, // knight row 3 from edge
    -27, // bishop row 0 from edge
    -19, // bishop row 1 from edge
    -23, // bishop row 2 from edge
    -15, // bishop row 3 from edge
    58, // rook row 0 from edge
    18, // rook row 1 from edge
    26, // rook row 2 from edge
    2, // rook row 3 from edge
    29, // queen row 0 from edge
    45, // queen row 1 from edge
    23, // queen row 2 from edge
    35, // queen row 3 from edge
    -24, // king row 0 from edge
    26, // king row 1 from edge
    3, // king row 2 from edge
    -25, // king row 3 from edge
    0, // pawn rank 2
    5, // pawn rank 3
    12, // pawn rank 4
    25, // pawn rank 5
    45, // pawn rank 6
    80, // pawn rank 7
    -15, // doubled pawn
    8, // supported pawn
    5, // king zone attack
    10, // king twin threat
    3, // tempo
];
