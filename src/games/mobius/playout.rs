//! Random playouts under the DEFAULT rule: the empty cells are filled at random, the
//! players alternating from the side to move, and the full board is decided by one win
//! test (exactly one player qualifies on a full board; networks only grow, so that player
//! is the one who would have qualified first).
//!
//! [`random_playouts`] is the entry point for benchmarks: N playouts from a position with
//! a seed, returning Red's wins (a checksum that the same seed reproduces).

use super::board::{Mobius, RED, colour};
use super::flood::{self, Cells};
use super::geometry::CELLS;
use crate::core::{Game, Rng};

/// A random number in `0..n` by multiply-shift (bias below 2⁻⁵⁶ for n ≤ 139, irrelevant
/// for playouts and cheaper than a division).
pub(super) fn fast_below(rng: &mut Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Fills the `empties` of a board whose Red stones are `red` at random, `first` (a stone
/// colour) placing first; returns Red's stones on the full board and whether Red
/// qualifies. `empties` is reordered.
pub(super) fn fill_and_decide(
    red: Cells,
    empties: &mut [u8],
    first: u8,
    rng: &mut Rng,
) -> (Cells, bool) {
    let n = empties.len();
    for i in (1..n).rev() {
        let j = fast_below(rng, i + 1);
        empties.swap(i, j);
    }
    // Red's new stones: the even places of the order if Red places first, else the odd.
    let mut red = red;
    for &c in empties.iter().skip(usize::from(first != RED)).step_by(2) {
        red.insert(c as usize);
    }
    (red, flood::qualifies(red, 0))
}

/// Plays `n` random playouts from `pos` (DEFAULT rule, game not over) with playout seed
/// `seed` and returns how many Red won. Deterministic for a position, `n` and seed.
pub fn random_playouts(pos: &Mobius, n: u64, seed: u64) -> u64 {
    assert!(pos.options().full_board_decides(), "random playouts need the DEFAULT win rule");
    assert!(pos.outcome().is_none(), "random playouts need a game in progress");
    let mut rng = Rng::new(seed);
    let empties: Vec<u8> = (0..CELLS as u8).filter(|&c| pos.cells()[c as usize] == 0).collect();
    let mut order = empties.clone();
    let red = flood::stones_of(pos.cells(), RED);
    let first = colour(pos.side_to_move());
    let mut red_wins = 0;
    for _ in 0..n {
        order.copy_from_slice(&empties);
        red_wins += u64::from(fill_and_decide(red, &mut order, first, &mut rng).1);
    }
    red_wins
}
