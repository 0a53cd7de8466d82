//! Mobius playout speed against a Hex 11×11 fill-and-flood playout, measured in the same
//! run (rounds interleaved so machine load hits all three alike):
//!
//! ```sh
//! cargo run --release --example mobius_playouts [-- <rounds> <threads>]
//! ```
//!
//! Prints playouts per second of the anchor, of Mobius raw playouts (random fill + win
//! test, `mobius::playout::random_playouts`) and of the full MCTS (`go nodes` from the
//! start position), with their ratios to the anchor.

use std::time::Instant;

use ugine::core::{Game, Rng};
use ugine::games::mobius::{MCTS_PARAMS, Mcts, Mobius, MobiusOptions, playout};
use ugine::search::{NullReporter, SearchControl, Searcher};

/// Hex 11×11: cells `r·11 + c`; Red (first) joins the top and bottom rows.
const N: usize = 11;

/// One Hex playout: a random fill of the empty board, then one flood fill from Red's top
/// row. Returns whether Red connects.
fn hex_playout(rng: &mut Rng, cells: &mut [u8; N * N]) -> bool {
    for i in (1..N * N).rev() {
        let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
        cells.swap(i, j);
    }
    let mut red = 0u128;
    for &c in &cells[..N * N / 2 + 1] {
        red |= 1 << c;
    }
    let row = (1u128 << N) - 1;
    let col = |c: usize| (0..N).fold(0u128, |m, r| m | 1 << (r * N + c));
    let (not_first, not_last) = (!col(0), !col(N - 1));
    let bottom = row << (N * (N - 1));
    let mut flood = red & row;
    loop {
        // Hex neighbours: (r, c±1), (r−1, c), (r−1, c+1), (r+1, c), (r+1, c−1).
        let grown = flood
            | ((flood & not_last) << 1)
            | ((flood & not_first) >> 1)
            | (flood >> N)
            | ((flood & not_last) >> (N - 1))
            | (flood << N)
            | ((flood & not_first) << (N - 1));
        let grown = grown & red;
        if grown == flood {
            return flood & bottom != 0;
        }
        flood = grown;
    }
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let rounds = args.first().copied().unwrap_or(5);
    let threads = args.get(1).copied().unwrap_or(1);
    let start = Mobius::startpos(&MobiusOptions::default());
    let (hex_n, raw_n, mcts_n) = (300_000u64, 300_000u64, 100_000u64);
    let (mut hex_t, mut raw_t, mut mcts_t) = (0.0, 0.0, 0.0);
    let mut checksum = 0u64;
    for round in 0..rounds as u64 {
        let t = Instant::now();
        let mut rng = Rng::new(round);
        let mut cells: [u8; N * N] = std::array::from_fn(|i| i as u8);
        for _ in 0..hex_n {
            checksum += u64::from(hex_playout(&mut rng, &mut cells));
        }
        hex_t += t.elapsed().as_secs_f64();

        let t = Instant::now();
        checksum += playout::random_playouts(&start, raw_n, round);
        raw_t += t.elapsed().as_secs_f64();

        let t = Instant::now();
        let mut mcts = Mcts::new(256, MCTS_PARAMS);
        mcts.set_threads(threads);
        mcts.run(&start, &SearchControl::fixed(None, Some(mcts_n)), &mut NullReporter);
        mcts_t += t.elapsed().as_secs_f64();
    }
    let r = rounds as f64;
    let hex = hex_n as f64 * r / hex_t;
    let raw = raw_n as f64 * r / raw_t;
    let mcts = mcts_n as f64 * r / mcts_t;
    println!("hex 11x11 fill+flood  {hex:>10.0} playouts/s");
    println!("mobius raw playouts   {raw:>10.0} playouts/s  {:.2}x anchor", raw / hex);
    println!("mobius MCTS (T{threads}, 256MB) {mcts:>10.0} playouts/s  {:.2}x anchor", mcts / hex);
    eprintln!("checksum {checksum}");
}
