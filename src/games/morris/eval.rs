//! Static evaluation of Morris positions for the alpha-beta search: a sum of weighted
//! features ([`LinearEval`]), the weights in one generated table (`weights.rs`, written
//! by `ugine tune --game morris`).
//!
//! Each side's features are counted in that side's phase: **placing** while it has men
//! in hand, **moving** after; every feature has a weight per phase. From the side to
//! move's point of view (own features minus the opponent's; one man = 100):
//! - material (board + hand), closed mills, two in a row with the third point empty,
//!   "closable" mills (a two in a row a man can complete next turn: from hand, by
//!   flying, or by a neighbour outside the mill);
//! - double mills: a man of a closed mill that can step to a neighbouring point closing
//!   another mill (and step back to close the first again);
//! - blockade terms for a side that does not fly: mobility (steps its men would have),
//!   blocked men (no empty neighbour), frozen men (blocked, and so is every neighbour:
//!   nothing near them can move to free them), indicators for 0, 1 and 2 steps left (a
//!   blockade about to close), territory (empty points in regions whose border holds
//!   only its men, where the opponent can never step), men on the four junctions;
//! - flying (three men under the standard rules), and a tempo for the side to move.

use std::sync::LazyLock;

use super::board::{Morris, POINTS, bits};
use super::notation::{MorrisMove, NONE};
use super::weights::WEIGHTS;
use crate::core::{Game, LinearEval, Side, Terms};
use crate::search::params::SearchOptionNames;
use crate::search::{Evaluate, SearchParams};

/// Feature indices of the placing phase; the moving phase's are `PHASE + f`.
mod f {
    pub const MAN: usize = 0;
    pub const CLOSED_MILL: usize = 1;
    pub const TWO_IN_ROW: usize = 2;
    pub const CLOSABLE_MILL: usize = 3;
    pub const DOUBLE_MILL: usize = 4;
    pub const MOBILITY: usize = 5;
    pub const BLOCKED_MAN: usize = 6;
    pub const FROZEN_MAN: usize = 7;
    pub const STUCK_0: usize = 8;
    pub const STUCK_1: usize = 9;
    pub const STUCK_2: usize = 10;
    pub const TERRITORY: usize = 11;
    pub const JUNCTION: usize = 12;
    pub const FLYING: usize = 13;
    pub const TEMPO: usize = 14;
    /// Features per phase.
    pub const PHASE: usize = 15;
}

/// Feature names per phase, in index order.
const NAMES: [&str; 2 * f::PHASE] = [
    "placing man",
    "placing closed mill",
    "placing two in a row",
    "placing closable mill",
    "placing double mill",
    "placing mobility",
    "placing blocked man",
    "placing frozen man",
    "placing 0 steps",
    "placing 1 step",
    "placing 2 steps",
    "placing territory",
    "placing junction",
    "placing flying",
    "placing tempo",
    "moving man",
    "moving closed mill",
    "moving two in a row",
    "moving closable mill",
    "moving double mill",
    "moving mobility",
    "moving blocked man",
    "moving frozen man",
    "moving 0 steps",
    "moving 1 step",
    "moving 2 steps",
    "moving territory",
    "moving junction",
    "moving flying",
    "moving tempo",
];

/// The points with four neighbours (b4, d2, d6, f4).
const JUNCTIONS: u32 = 1 << 4 | 1 << 10 | 1 << 13 | 1 << 19;

/// The neighbours of every 8-point slice of the board, by the slice's bits.
static NEIGHBOURS: LazyLock<[[u32; 256]; 3]> = LazyLock::new(|| {
    let mut t = [[0; 256]; 3];
    for (slice, table) in t.iter_mut().enumerate() {
        for (byte, n) in table.iter_mut().enumerate() {
            *n = bits((byte as u32) << (8 * slice)).fold(0, |acc, p| acc | Morris::adjacent(p));
        }
    }
    t
});

/// All points adjacent to some point of `mask`.
fn neighbours(mask: u32) -> u32 {
    let t = &*NEIGHBOURS;
    t[0][(mask & 0xff) as usize] | t[1][(mask >> 8 & 0xff) as usize] | t[2][(mask >> 16) as usize]
}

/// Per side, the empty points in regions of empty points whose occupied border holds
/// only that side's men.
fn territory(men: [u32; 2], empty: u32) -> [u32; 2] {
    let mut left = empty;
    let mut total = [0; 2];
    while left != 0 {
        let mut region = left & left.wrapping_neg();
        let mut frontier = region;
        while frontier != 0 {
            frontier = neighbours(frontier) & empty & !region;
            region |= frontier;
        }
        left &= !region;
        let border = neighbours(region) & !empty;
        for side in 0..2 {
            if border != 0 && border & !men[side] == 0 {
                total[side] += region.count_ones();
            }
        }
    }
    total
}

/// Adds the features of `side` with sign `sign` (+1 own, −1 opponent's).
fn side_terms<T: Terms>(pos: &Morris, side: Side, sign: i32, territory: u32, t: &mut T) {
    let own = pos.men(side);
    let enemy = pos.men(side.opponent());
    let empty = !(own | enemy) & ((1 << POINTS) - 1);
    let hand = pos.in_hand(side);
    let flying = pos.can_fly(side);
    let base = if hand > 0 { 0 } else { f::PHASE };
    let mut add = |feature: usize, count: u32| t.add(base + feature, sign * count as i32);
    add(f::MAN, own.count_ones() + hand);
    let (mut closed, mut two, mut closable) = (0, 0, 0);
    for &mill in Morris::mills() {
        // Men of the mill counted without a popcount (a mill has three points).
        let mine = own & mill;
        if mine == mill {
            closed += 1;
        } else if mine & mine.wrapping_sub(1) != 0 && enemy & mill == 0 {
            two += 1;
            let gap = (mill & empty).trailing_zeros() as usize;
            if hand > 0 || flying || Morris::adjacent(gap) & own & !mill != 0 {
                closable += 1;
            }
        }
    }
    add(f::CLOSED_MILL, closed);
    add(f::TWO_IN_ROW, two);
    add(f::CLOSABLE_MILL, closable);
    add(f::JUNCTION, (own & JUNCTIONS).count_ones());
    if flying {
        add(f::FLYING, 1);
        return;
    }
    let mut double = 0;
    for p in bits(own).filter(|&p| pos.in_mill(own, p)) {
        let after = own & !(1 << p);
        double +=
            bits(Morris::adjacent(p) & empty).filter(|&q| pos.in_mill(after | 1 << q, q)).count();
    }
    add(f::DOUBLE_MILL, double as u32);
    let mobility: u32 = bits(own).map(|p| (Morris::adjacent(p) & empty).count_ones()).sum();
    add(f::MOBILITY, mobility);
    let blocked_all = (own | enemy) & !neighbours(empty);
    let blocked = own & blocked_all;
    add(f::BLOCKED_MAN, blocked.count_ones());
    add(
        f::FROZEN_MAN,
        bits(blocked).filter(|&p| Morris::adjacent(p) & !blocked_all == 0).count() as u32,
    );
    match mobility {
        0 => add(f::STUCK_0, 1),
        1 => add(f::STUCK_1, 1),
        2 => add(f::STUCK_2, 1),
        _ => {}
    }
    add(f::TERRITORY, territory);
}

impl LinearEval for Morris {
    const FEATURES: &'static [&'static str] = &NAMES;
    const FIXED: &'static [usize] = &[f::MAN, f::PHASE + f::MAN];
    const WEIGHTS_FILE: &'static str = "src/games/morris/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn terms<T: Terms>(&self, t: &mut T) {
        let me = self.side_to_move();
        let men = [self.men(me), self.men(me.opponent())];
        let [mine, theirs] = territory(men, !(men[0] | men[1]) & ((1 << POINTS) - 1));
        side_terms(self, me, 1, mine, t);
        side_terms(self, me.opponent(), -1, theirs, t);
        let base = if self.in_hand(me) > 0 { 0 } else { f::PHASE };
        t.add(base + f::TEMPO, 1);
    }
}

impl Evaluate for Morris {
    const HISTORY_SIZE: usize = 25 * 24;
    const SEARCH_OPTIONS: SearchOptionNames = crate::search_option_names!("Morris");
    /// Tuned by `ugine spsa` (docs/tuning.md): a slightly wider first window, and
    /// reductions from the third move on at every depth from 2. Reverse futility pruning
    /// (25 cp per ply) and late move pruning (`3 + depth²` quiet moves) passed an SPRT
    /// against the build without them (+14.5 ± 10.1 Elo, 2415 games at 100 ms per move).
    const PARAMS: SearchParams = SearchParams {
        aspiration: 54,
        lmr_min_depth: 2,
        lmr_min_move: 2,
        rfp_margin: 25,
        lmp_base: 3,
        ..SearchParams::DEFAULT
    };

    fn evaluate(&self) -> i32 {
        self.linear_eval()
    }

    fn is_noisy(&self, mv: MorrisMove) -> bool {
        mv.capture != NONE
    }

    fn history_index(&self, mv: MorrisMove) -> usize {
        mv.from as usize * 24 + mv.to as usize
    }

    fn expected_moves_left(&self) -> u32 {
        self.in_hand(self.side_to_move()) + 20
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Trace;
    use crate::games::morris::MorrisOptions;

    fn pos(fen: &str) -> Morris {
        Morris::from_fen(fen, &MorrisOptions::default()).unwrap()
    }

    fn count(p: &Morris, feature: usize) -> i32 {
        Trace::of(p).count(feature)
    }

    #[test]
    fn the_weight_table_names_every_feature() {
        assert_eq!(WEIGHTS.len(), NAMES.len());
    }

    #[test]
    fn evaluation_is_the_weighted_trace() {
        for fen in crate::games::morris::BENCH_POSITIONS.iter().skip(1) {
            let p = pos(fen);
            assert_eq!(p.evaluate(), Trace::of(&p).weighted(&WEIGHTS), "{fen}");
        }
    }

    #[test]
    fn blockade_features() {
        // White a7 d7 g7 a4, black b6 d6 f6 g4 a1 d1 g1, white to move, hands empty.
        // White: a7 d7 g7 blocked, a4 steps to b4 only (1 step). Black: a1 and g1 blocked;
        // b6-b4, d6-d5, f6-f4, g4-f4, d1-d2 (5 steps). Nobody owns an empty region.
        let p = pos("WWW/BBB/3/W4B/3/3/BBB w 0 0 0");
        let moving = f::PHASE;
        assert_eq!(count(&p, moving + f::BLOCKED_MAN), 3 - 2);
        assert_eq!(count(&p, moving + f::FROZEN_MAN), 0);
        assert_eq!(count(&p, moving + f::MOBILITY), 1 - 5);
        assert_eq!(count(&p, moving + f::STUCK_1), 1);
        assert_eq!(count(&p, moving + f::CLOSED_MILL), 1 - 2);
        assert_eq!(count(&p, moving + f::DOUBLE_MILL), 0);
        assert_eq!(count(&p, moving + f::TERRITORY), 0);
        assert_eq!(count(&p, moving + f::TEMPO), 1);
    }

    #[test]
    fn double_mill_and_frozen_men() {
        // White mill a7 d7 g7 with b6 and f6: d7 steps to d6 closing b6 d6 f6, and back.
        let p = pos("WWW/W1W/3/6/3/3/BBB w 0 0 0");
        assert_eq!(count(&p, f::PHASE + f::DOUBLE_MILL), 1);
        assert_eq!(count(&p, f::PHASE + f::BLOCKED_MAN), 0);
        // White a7 is blocked by black d7 and a4, both blocked themselves: frozen. Black
        // d7 and a4 are blocked, but g7 and b4 next to them can move: not frozen.
        let p = pos("WBB/1W1/3/BW4/3/3/W2 w 0 0 0");
        assert_eq!(count(&p, f::PHASE + f::FROZEN_MAN), 1);
        assert_eq!(count(&p, f::PHASE + f::BLOCKED_MAN), 1 - 2);
        // Black a1 d1 g1 hemmed in by white a4 d2 g4: no step left.
        let p = pos("3/3/3/W4W/3/1W1/BBB w 0 0 0");
        assert_eq!(count(&p, f::PHASE + f::BLOCKED_MAN), -3);
        assert_eq!(count(&p, f::PHASE + f::STUCK_0), -1);
    }

    #[test]
    fn territory_counts_regions_only_one_side_borders() {
        // d7 empty between white a7, g7 and d6: a region of one point only white borders.
        let white = 1 << 0 | 1 << 2 | 1 << 4;
        let black = 1 << 9;
        let empty = ((1 << POINTS) - 1) & !white & !black;
        assert_eq!(territory([white, black], empty), [1, 0], "the big region has both");
    }
}
