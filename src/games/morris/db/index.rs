//! Indexing of a class: every position with `own` men of the side to move and `opp` men
//! of the other side, both hands empty, gets a slot number, the same for all 16
//! symmetric images.
//!
//! A slot is `rep * C(24 - own, opp) + r`: `rep` numbers the sets of the side to move's
//! men that are the smallest (as a point mask) of their symmetry orbit, and `r` is the
//! combinatorial (colex) rank of the other side's men among the `24 - own` free points.
//! A position is first mapped by the symmetry that makes its own men minimal; when several
//! do (symmetric own men), the one giving the smallest `r` is taken. Slots `(rep, r)` that
//! are not the image so chosen of their own position are *unused* (never probed); they
//! are few (own-men sets with a symmetry are rare).

use std::sync::OnceLock;

use super::super::board::bits;
use super::super::notation::POINTS;
use super::symmetry::{SYMMETRIES, map_mask};

/// Mask of all 24 points.
pub const FULL: u32 = (1 << POINTS) - 1;

/// Most men a side can have on the board.
pub const MAX_MEN: usize = 9;

/// `BINOM[n][k]` = n choose k, for n, k ≤ 24 (0 when k > n).
const BINOM: [[u64; POINTS + 1]; POINTS + 1] = {
    let mut c = [[0u64; POINTS + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    c
};

/// n choose k.
#[inline]
pub fn binom(n: usize, k: usize) -> u64 {
    BINOM[n][k]
}

/// The colex rank of the set `mask` among the sets of its size: sets of equal size sort
/// in colex order exactly as their masks sort as numbers.
fn colex_rank(mask: u32) -> u64 {
    bits(mask).enumerate().map(|(i, p)| binom(p, i + 1)).sum()
}

/// The colex rank of `mask` (a subset of `free`) among the subsets of `free` of its size,
/// counting the points of `free` in order.
fn rank_within(mask: u32, free: u32) -> u64 {
    bits(mask)
        .enumerate()
        .map(|(i, p)| binom((free & ((1 << p) - 1)).count_ones() as usize, i + 1))
        .sum()
}

/// The `k`-subset of `free` of colex rank `rank` (inverse of [`rank_within`]).
fn unrank_within(mut rank: u64, k: usize, free: u32) -> u32 {
    let points: Vec<usize> = bits(free).collect();
    let mut mask = 0;
    let mut top = points.len();
    for i in (1..=k).rev() {
        let mut c = top - 1;
        while binom(c, i) > rank {
            c -= 1;
        }
        rank -= binom(c, i);
        mask |= 1 << points[c];
        top = c;
    }
    mask
}

/// The symmetry orbits of the sets of `k` points.
struct OwnSets {
    /// The orbit representatives (smallest mask of each orbit), increasing.
    reps: Vec<u32>,
    /// For every set of `k` points, by colex rank: the index of its representative and
    /// the symmetries mapping it there (a bit per symmetry).
    canon: Vec<(u32, u16)>,
}

impl OwnSets {
    fn new(k: usize) -> OwnSets {
        let count = binom(POINTS, k) as usize;
        let mut reps = Vec::new();
        let mut canon: Vec<(u32, u16)> = Vec::with_capacity(count);
        let mut mask: u32 = (1 << k) - 1;
        for _ in 0..count {
            let images: [u32; SYMMETRIES] = std::array::from_fn(|s| map_mask(s, mask));
            let min = *images.iter().min().expect("16 images");
            let syms = (0..SYMMETRIES).filter(|&s| images[s] == min).fold(0u16, |a, s| a | 1 << s);
            let rep = if min == mask {
                reps.push(mask);
                reps.len() as u32 - 1
            } else {
                // The representative is smaller, so it was numbered already.
                canon[colex_rank(min) as usize].0
            };
            canon.push((rep, syms));
            // Next mask with the same number of bits (Gosper's hack): colex order.
            if k > 0 {
                let c = mask & mask.wrapping_neg();
                let r = mask + c;
                mask = (((r ^ mask) >> 2) / c) | r;
            }
        }
        OwnSets { reps, canon }
    }

    /// The orbit tables of `k`-sets, built on first use.
    fn of(k: usize) -> &'static OwnSets {
        static SETS: [OnceLock<OwnSets>; MAX_MEN + 1] = [const { OnceLock::new() }; MAX_MEN + 1];
        SETS[k].get_or_init(|| OwnSets::new(k))
    }
}

/// A class: `own` men of the side to move against `opp` men, both hands empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Class {
    pub own: usize,
    pub opp: usize,
}

impl Class {
    /// The class of a position with these men (side to move's, other side's).
    pub fn of(own: u32, opp: u32) -> Class {
        Class { own: own.count_ones() as usize, opp: opp.count_ones() as usize }
    }

    /// The class seen from the other side (after a move without capture).
    pub fn swapped(self) -> Class {
        Class { own: self.opp, opp: self.own }
    }

    /// Number of slots.
    pub fn slots(self) -> u64 {
        OwnSets::of(self.own).reps.len() as u64 * binom(POINTS - self.own, self.opp)
    }

    /// The slot of a position of this class (own men, other men), the same for all its
    /// symmetric images.
    #[inline]
    pub fn slot(self, own: u32, opp: u32) -> u64 {
        debug_assert_eq!(Class::of(own, opp), self);
        let sets = OwnSets::of(self.own);
        let (rep, syms) = sets.canon[colex_rank(own) as usize];
        let free = !sets.reps[rep as usize] & FULL;
        let r = bits(syms as u32)
            .map(|s| rank_within(map_mask(s, opp), free))
            .min()
            .expect("at least one symmetry");
        rep as u64 * binom(POINTS - self.own, self.opp) + r
    }

    /// The position a slot stands for (own men, other men). Unused slots give a position
    /// whose [`Class::slot`] is another slot.
    pub fn position(self, slot: u64) -> (u32, u32) {
        let per_rep = binom(POINTS - self.own, self.opp);
        let own = OwnSets::of(self.own).reps[(slot / per_rep) as usize];
        (own, unrank_within(slot % per_rep, self.opp, !own & FULL))
    }

    /// True when the slot is the one its position maps to (false for unused slots).
    pub fn is_used(self, slot: u64) -> bool {
        let (own, opp) = self.position(slot);
        self.slot(own, opp) == slot
    }

    /// Positions of the class without folding symmetries (side to move fixed).
    pub fn positions(self) -> u64 {
        binom(POINTS, self.own) * binom(POINTS - self.own, self.opp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::games::morris::db::symmetry::map_mask;

    fn random_set(rng: &mut Rng, k: usize, taken: u32) -> u32 {
        let mut m = 0u32;
        while m.count_ones() < k as u32 {
            let p = rng.below(POINTS);
            if (m | taken) & 1 << p == 0 {
                m |= 1 << p;
            }
        }
        m
    }

    #[test]
    fn ranks_and_unranks_are_inverse() {
        let free: u32 = 0b1011_0110_1110_1101_0111_1011;
        for k in 0..5 {
            let n = free.count_ones() as usize;
            for r in 0..binom(n, k) {
                let m = unrank_within(r, k, free);
                assert_eq!(m & !free, 0);
                assert_eq!(rank_within(m, free), r);
            }
        }
    }

    #[test]
    fn symmetric_positions_share_their_slot_and_slots_round_trip() {
        let mut rng = Rng::new(7);
        for (own_n, opp_n) in [(3, 3), (4, 3), (3, 5), (5, 5)] {
            let class = Class { own: own_n, opp: opp_n };
            for _ in 0..300 {
                let own = random_set(&mut rng, own_n, 0);
                let opp = random_set(&mut rng, opp_n, own);
                let slot = class.slot(own, opp);
                assert!(slot < class.slots());
                for s in 0..SYMMETRIES {
                    assert_eq!(class.slot(map_mask(s, own), map_mask(s, opp)), slot);
                }
                let (o, p) = class.position(slot);
                assert!(class.is_used(slot));
                assert!((0..SYMMETRIES).any(|s| map_mask(s, own) == o && map_mask(s, opp) == p));
            }
        }
    }

    #[test]
    fn the_three_men_orbits_number_as_burnside_says() {
        // Orbits of 3-sets under the 16 symmetries, by Burnside's lemma.
        let fixed: u64 = (0..SYMMETRIES)
            .map(|s| {
                let mut n = 0;
                let mut mask: u32 = 0b111;
                for _ in 0..binom(POINTS, 3) {
                    n += (map_mask(s, mask) == mask) as u64;
                    let c = mask & mask.wrapping_neg();
                    let r = mask + c;
                    mask = (((r ^ mask) >> 2) / c) | r;
                }
                n
            })
            .sum();
        assert_eq!(OwnSets::of(3).reps.len() as u64, fixed / SYMMETRIES as u64);
    }
}
