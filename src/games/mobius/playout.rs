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

/// A random number in `0..n` from 32 random bits, by multiply-shift (bias below 2⁻²⁴ for
/// n ≤ 139, irrelevant for playouts).
#[inline]
fn below_u32(bits: u32, n: usize) -> usize {
    ((u64::from(bits) * n as u64) >> 32) as usize
}

/// Fills the `empties` of a board whose stones are `stones` (Red's, Blue's) at random,
/// `first` (a stone colour) placing first; returns Red's stones on the full board and
/// whether Red qualifies. `empties` is reordered.
///
/// Of n empty cells the player placing second gets ⌊n/2⌋, a uniformly random subset: the
/// first ⌊n/2⌋ places of a partial Fisher–Yates shuffle (half the random numbers of a
/// full shuffle, each from 32 bits, two per call of the generator). The first player
/// gets the rest.
pub(super) fn fill_and_decide(
    stones: [Cells; 2],
    empties: &mut [u8],
    first: u8,
    rng: &mut Rng,
) -> (Cells, bool) {
    let n = empties.len();
    let k = n / 2;
    let mut i = 0;
    while i < k {
        let bits = rng.next_u64();
        empties.swap(i, i + below_u32(bits as u32, n - i));
        if i + 1 < k {
            empties.swap(i + 1, i + 1 + below_u32((bits >> 32) as u32, n - i - 1));
        }
        i += 2;
    }
    let second = Cells::from_list(&empties[..k]);
    let red = if first == RED { stones[1].or(second).complement() } else { stones[0].or(second) };
    (red, flood::qualifies(red, 0))
}

/// Plays `n` random playouts from `pos` (DEFAULT rule, game not over) with playout seed
/// `seed` and returns how many Red won. Deterministic for a position, `n` and seed.
pub fn random_playouts(pos: &Mobius, n: u64, seed: u64) -> u64 {
    assert!(pos.options().full_board_decides(), "random playouts need the DEFAULT win rule");
    assert!(pos.outcome().is_none(), "random playouts need a game in progress");
    let mut rng = Rng::new(seed);
    let [red, blue] = pos.stone_sets();
    let mut empties = [0u8; CELLS];
    let free = red.or(blue).complement().write_to(&mut empties);
    let empties = &empties[..free];
    let mut order = [0u8; CELLS];
    let order = &mut order[..free];
    let first = colour(pos.side_to_move());
    let mut red_wins = 0;
    for _ in 0..n {
        order.copy_from_slice(empties);
        red_wins += u64::from(fill_and_decide([red, blue], order, first, &mut rng).1);
    }
    red_wins
}
