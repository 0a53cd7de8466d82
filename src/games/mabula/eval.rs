//! Static evaluation of unfinished Mabula positions: the predicted final score difference
//! from the side to move's point of view, in hundredths of a score point; a sum of
//! weighted features ([`LinearEval`]) whose weights are one generated table
//! (`weights.rs`, written by `ugine tune --game mabula`).
//!
//! Largest-group scoring (the DEFAULT), per phase (**early** while more than
//! [`LATE_BORDER`] marbles of both colours are on the border, **late** after), each
//! side's features minus the opponent's:
//! - the size of its largest group (fixed at 100: the `cp` scale) and of its second;
//! - mergeable marbles: marbles of its other groups that share an empty neighbouring
//!   field square with the largest group (a marble landing there joins them);
//! - its border marbles that can still be pushed: "connectable" when one of its pushes
//!   lands next to the largest group, "live" otherwise; and dead ones (no push left: they
//!   stay on the border, counted only by their group);
//! - mobility (its pushes), singletons (groups of one marble);
//! - and a tempo for the side to move.
//!
//! Product scoring: each side's groups by size (a group of `k` marbles is worth about
//! `100·log2 k`, so the sum predicts log2 of the product), its live border marbles, and
//! the tempo.

use super::board::Mabula;
use super::geometry::{BORDER, FIELD, TABLES, bits, flood, neighbours};
use super::options::Scoring;
use super::weights::WEIGHTS;
use crate::core::{Game, LinearEval, Side, Terms};

/// Border marbles (both colours) above which a position is in the early phase.
pub const LATE_BORDER: u32 = 12;

/// Feature indices of the largest-group scoring in the early phase; the late phase's are
/// `PHASE + f`; the product scoring's follow both.
mod f {
    pub const LARGEST: usize = 0;
    pub const SECOND: usize = 1;
    pub const MERGEABLE: usize = 2;
    pub const CONNECTABLE: usize = 3;
    pub const LIVE: usize = 4;
    pub const DEAD: usize = 5;
    pub const MOBILITY: usize = 6;
    pub const SINGLETON: usize = 7;
    pub const TEMPO: usize = 8;
    /// Features per phase.
    pub const PHASE: usize = 9;
    /// Product scoring: a group of `k` marbles is feature `PRODUCT_GROUP + k - 1`.
    pub const PRODUCT_GROUP: usize = 2 * PHASE;
    pub const PRODUCT_LIVE: usize = PRODUCT_GROUP + 12;
    pub const PRODUCT_TEMPO: usize = PRODUCT_LIVE + 1;
    /// All features.
    pub const COUNT: usize = PRODUCT_TEMPO + 1;
}

/// Feature names, in index order.
const NAMES: [&str; f::COUNT] = [
    "early largest group",
    "early second group",
    "early mergeable marble",
    "early connectable border marble",
    "early live border marble",
    "early dead border marble",
    "early mobility",
    "early singleton",
    "early tempo",
    "late largest group",
    "late second group",
    "late mergeable marble",
    "late connectable border marble",
    "late live border marble",
    "late dead border marble",
    "late mobility",
    "late singleton",
    "late tempo",
    "product group of 1",
    "product group of 2",
    "product group of 3",
    "product group of 4",
    "product group of 5",
    "product group of 6",
    "product group of 7",
    "product group of 8",
    "product group of 9",
    "product group of 10",
    "product group of 11",
    "product group of 12",
    "product live border marble",
    "product tempo",
];

/// The groups of `men`, at most 12 (a side has 12 marbles), in no particular order.
struct Groups {
    sets: [u64; 12],
    len: usize,
}

impl Groups {
    fn of(men: u64) -> Groups {
        let mut g = Groups { sets: [0; 12], len: 0 };
        let mut rest = men;
        while rest != 0 && g.len < 12 {
            let group = flood(rest & rest.wrapping_neg(), rest);
            g.sets[g.len] = group;
            g.len += 1;
            rest &= !group;
        }
        g
    }

    fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.sets[..self.len].iter().copied()
    }
}

/// Adds the largest-scoring features of `side` with sign `sign` (+1 own, −1 opponent's)
/// to the features of phase `base`.
fn largest_terms<T: Terms>(pos: &Mabula, side: Side, sign: i32, base: usize, t: &mut T) {
    let mut add = |feature: usize, count: u32| t.add(base + feature, sign * count as i32);
    let men = pos.men(side);
    let groups = Groups::of(men);
    let (mut best, mut best_size, mut second, mut singletons) = (0u64, 0, 0, 0);
    for g in groups.iter() {
        let size = g.count_ones();
        singletons += u32::from(size == 1);
        if size > best_size {
            (second, best, best_size) = (best_size, g, size);
        } else {
            second = second.max(size);
        }
    }
    add(f::LARGEST, best_size);
    add(f::SECOND, second);
    add(f::SINGLETON, singletons);
    let near = neighbours(best);
    let gaps = near & FIELD & !pos.occupied();
    // The groups are disjoint: one count of their union.
    let mergeable =
        groups.iter().filter(|&g| g != best && neighbours(g) & gaps != 0).fold(0, |u, g| u | g);
    add(f::MERGEABLE, mergeable.count_ones());
    let landing = &TABLES.line_mask;
    let (mut connectable, mut live, mut dead, mut mobility) = (0, 0, 0, 0);
    for b in bits(men & BORDER) {
        let reach = pos.max_push(b);
        mobility += reach;
        if reach == 0 {
            dead += 1;
        } else if landing[b as usize][reach as usize] & near != 0 {
            connectable += 1;
        } else {
            live += 1;
        }
    }
    add(f::CONNECTABLE, connectable);
    add(f::LIVE, live);
    add(f::DEAD, dead);
    add(f::MOBILITY, mobility);
}

/// Adds the product-scoring features of `side` with sign `sign`.
fn product_terms<T: Terms>(pos: &Mabula, side: Side, sign: i32, t: &mut T) {
    let men = pos.men(side);
    for g in Groups::of(men).iter() {
        t.add(f::PRODUCT_GROUP + g.count_ones() as usize - 1, sign);
    }
    let live = bits(men & BORDER).filter(|&b| pos.max_push(b) > 0).count() as i32;
    t.add(f::PRODUCT_LIVE, sign * live);
}

impl LinearEval for Mabula {
    const FEATURES: &'static [&'static str] = &NAMES;
    const FIXED: &'static [usize] = &[f::LARGEST, f::PHASE + f::LARGEST, f::PRODUCT_GROUP + 1];
    const WEIGHTS_FILE: &'static str = "src/games/mabula/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn terms<T: Terms>(&self, t: &mut T) {
        let me = self.side_to_move();
        match self.options().scoring {
            Scoring::Largest => {
                let base = if self.border_marbles() > LATE_BORDER { 0 } else { f::PHASE };
                largest_terms(self, me, 1, base, t);
                largest_terms(self, me.opponent(), -1, base, t);
                t.add(base + f::TEMPO, 1);
            }
            Scoring::Product => {
                product_terms(self, me, 1, t);
                product_terms(self, me.opponent(), -1, t);
                t.add(f::PRODUCT_TEMPO, 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Trace;
    use crate::games::mabula::MabulaOptions;
    use crate::search::Evaluate;

    fn pos(fen: &str) -> Mabula {
        Mabula::from_fen(fen, &MabulaOptions::default()).unwrap()
    }

    fn count(p: &Mabula, feature: usize) -> i32 {
        Trace::of(p).count(feature)
    }

    #[test]
    fn the_weight_table_names_every_feature() {
        assert_eq!(WEIGHTS.len(), NAMES.len());
    }

    #[test]
    fn evaluation_is_the_weighted_trace() {
        for fen in crate::games::mabula::BENCH_POSITIONS.iter().skip(1) {
            let p = pos(fen);
            assert_eq!(p.evaluate(), Trace::of(&p).weighted(&WEIGHTS), "{fen}");
        }
    }

    #[test]
    fn start_features_are_balanced_but_the_tempo() {
        // The standard start: each side has six pairs on the border and 72 pushes. Which
        // pair is a side's "largest" (the first found) decides which border marbles can
        // land next to it, so only connectable + live balances.
        let p = Mabula::startpos(&MabulaOptions::default());
        for feature in [f::LARGEST, f::SECOND, f::MERGEABLE, f::DEAD, f::MOBILITY, f::SINGLETON] {
            assert_eq!(count(&p, feature), 0, "{}", NAMES[feature]);
        }
        assert_eq!(count(&p, f::CONNECTABLE) + count(&p, f::LIVE), 0);
        assert_eq!(count(&p, f::TEMPO), 1);
        assert_eq!(count(&p, f::PHASE + f::TEMPO), 0);
    }

    #[test]
    fn group_mergeable_and_border_features() {
        // Standard setup. Black: c3 c4 c5 (largest), e4 (shares the empty d4 with c4:
        // mergeable), e6 (alone, not mergeable), a4 a5 (share b4, b5: mergeable), b8 c8,
        // f8 g8, h5 on the border. White: its twelve border marbles, six pairs (d1 e1 is
        // its largest: the first found). 19 border marbles: early phase.
        let p = pos("BBWWBBWWBBWWBBWWBBWWBBWW \
             1BBWWBB1/W6W/W3B2W/B1B4B/B1B1B3/W1B4W/W6W/3WW3 b");
        assert!(p.border_marbles() > LATE_BORDER);
        assert_eq!(count(&p, f::LARGEST), 3 - 2);
        assert_eq!(count(&p, f::SECOND), 0);
        assert_eq!(count(&p, f::SINGLETON), 3);
        assert_eq!(count(&p, f::MERGEABLE), 3);
        // Black: h5 a5 a4 b8 c8 can land next to c3-c5, f8 g8 cannot. White: d1 e1 h2 a2
        // d8 can land on d2 or e2.
        assert_eq!(count(&p, f::CONNECTABLE), 5 - 5);
        assert_eq!(count(&p, f::LIVE), 2 - 7);
        assert_eq!(count(&p, f::DEAD), 0);
        assert_eq!(count(&p, f::MOBILITY), 35 - 64);
        assert_eq!(count(&p, f::TEMPO), 1);
        assert_eq!(count(&p, f::PHASE + f::LARGEST), 0);
    }

    #[test]
    fn late_phase_and_product_features() {
        // The last bench position has 3 border marbles: late phase.
        let fen = crate::games::mabula::BENCH_POSITIONS[5];
        let p = pos(fen);
        assert!(p.border_marbles() <= LATE_BORDER);
        assert_eq!(count(&p, f::TEMPO), 0);
        assert_eq!(count(&p, f::PHASE + f::TEMPO), 1);
        // Product scoring counts each side's groups by size.
        let product = MabulaOptions { scoring: Scoring::Product, ..MabulaOptions::default() };
        let p = Mabula::from_fen(fen, &product).unwrap();
        let me = p.side_to_move();
        let sizes = |s: Side| crate::games::mabula::group_sizes(p.men(s));
        for k in 1..=12 {
            let n = |s: Side| sizes(s).iter().filter(|&&g| g == k).count() as i32;
            assert_eq!(count(&p, f::PRODUCT_GROUP + k as usize - 1), n(me) - n(me.opponent()));
        }
        assert_eq!(count(&p, f::PHASE + f::TEMPO), 0);
        assert_eq!(count(&p, f::PRODUCT_TEMPO), 1);
    }
}
