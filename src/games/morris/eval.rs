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

use super::board::{Morris, bits};
use super::notation::POINTS;
use super::notation::{MorrisMove, NONE};
use super::weights::WEIGHTS;
use crate::core::{Game, LinearEval, Side, Terms};
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

/// Ordering bonus of a quiet move per enemy step it takes away (history scores grow by
/// depth² per cutoff).
const RESTRICT_ORDER: i32 = 64;

/// The points with four neighbours (b4, d2, d6, f4).
const JUNCTIONS: u32 = 1 << 4 | 1 << 10 | 1 << 13 | 1 << 19;

/// The 16 mills seen from a set of points: bit `16·k + m` is set when the `k`-th point
/// (in index order) of mill `m` (in [`Morris::mills`] order) is in the set. Three such
/// 16-bit masks answer for every mill at once which of its points a side holds.
type MillSlots = u64;

/// Low 16 bits: one per mill.
const MILL_BITS: u64 = 0xffff;

/// The geometry [`mill_slots`] and the mill terms read, built from the board's mills.
struct MillTables {
    /// [`MillSlots`] of every 8-point slice of the board, by the slice's bits.
    slots: [[MillSlots; 256]; 3],
    /// Per mill and point `k` of it: the neighbours of that point outside the mill (the
    /// men that can step in to close it when it is the mill's only gap).
    outside: [[u32; 3]; 16],
}

static MILL_TABLES: LazyLock<MillTables> = LazyLock::new(|| {
    let mills = Morris::mills();
    assert_eq!(mills.len(), 16, "a u16 per mill slot");
    let mut slots = [[0; 256]; 3];
    let mut outside = [[0; 3]; 16];
    for (m, &mill) in mills.iter().enumerate() {
        for (k, p) in bits(mill).enumerate() {
            outside[m][k] = Morris::adjacent(p) & !mill;
            for (byte, s) in slots[p / 8].iter_mut().enumerate() {
                if byte & 1 << (p % 8) != 0 {
                    *s |= 1 << (16 * k + m);
                }
            }
        }
    }
    MillTables { slots, outside }
});

/// The [`MillSlots`] of the points of `mask`.
fn mill_slots(mask: u32) -> MillSlots {
    let t = &MILL_TABLES.slots;
    t[0][(mask & 0xff) as usize] | t[1][(mask >> 8 & 0xff) as usize] | t[2][(mask >> 16) as usize]
}

/// The mills whose `k`-th point is in the set of `slots`.
fn slot(slots: MillSlots, k: usize) -> u32 {
    (slots >> (16 * k) & MILL_BITS) as u32
}

/// Per side, the empty points in regions of empty points whose occupied border holds
/// only that side's men. A region touches a side's men exactly when it lies in the
/// closure (over empty points) of the empty points next to them, so one flood per side
/// from all those points at once finds them all.
fn territory(men: [u32; 2], empty: u32) -> [u32; 2] {
    let mut reach = men.map(|m| Morris::neighbours(m) & empty);
    loop {
        let next = reach.map(|r| r | Morris::neighbours(r) & empty);
        if next == reach {
            break;
        }
        reach = next;
    }
    [(reach[0] & !reach[1]).count_ones(), (reach[1] & !reach[0]).count_ones()]
}

/// Adds the features of `side` with sign `sign` (+1 own, −1 opponent's), given the
/// [`MillSlots`] of its men and of the empty points.
fn side_terms<T: Terms>(
    pos: &Morris,
    side: Side,
    sign: i32,
    [mine, gaps]: [MillSlots; 2],
    territory: u32,
    t: &mut T,
) {
    let own = pos.men(side);
    let enemy = pos.men(side.opponent());
    let empty = !(own | enemy) & ((1 << POINTS) - 1);
    let hand = pos.in_hand(side);
    let flying = pos.can_fly(side);
    let base = if hand > 0 { 0 } else { f::PHASE };
    let mut add = |feature: usize, count: u32| t.add(base + feature, sign * count as i32);
    add(f::MAN, own.count_ones() + hand);
    // Every mill at once: which of its three points hold own men, which are empty.
    let [m0, m1, m2] = [0, 1, 2].map(|k| slot(mine, k));
    let [g0, g1, g2] = [0, 1, 2].map(|k| slot(gaps, k));
    let closed = m0 & m1 & m2;
    // Two own men and the third point empty, by where the gap is.
    let two_with_gap = [g0 & m1 & m2, m0 & g1 & m2, m0 & m1 & g2];
    let two = two_with_gap.iter().fold(0, |a, &m| a | m);
    let closable = if hand > 0 || flying {
        two.count_ones()
    } else {
        let outside = &MILL_TABLES.outside;
        (0..3)
            .map(|k| bits(two_with_gap[k]).filter(|&m| outside[m][k] & own != 0).count() as u32)
            .sum()
    };
    add(f::CLOSED_MILL, closed.count_ones());
    add(f::TWO_IN_ROW, two.count_ones());
    add(f::CLOSABLE_MILL, closable);
    add(f::JUNCTION, (own & JUNCTIONS).count_ones());
    if flying {
        add(f::FLYING, 1);
        return;
    }
    let mut double = 0;
    let in_closed = bits(closed).fold(0, |a, m| a | Morris::mills()[m]);
    for p in bits(in_closed) {
        let after = own & !(1 << p);
        double +=
            bits(Morris::adjacent(p) & empty).filter(|&q| pos.in_mill(after | 1 << q, q)).count();
    }
    add(f::DOUBLE_MILL, double as u32);
    let mobility = Morris::steps(own, empty);
    add(f::MOBILITY, mobility);
    let blocked_all = (own | enemy) & !Morris::neighbours(empty);
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
        let empty = !(men[0] | men[1]) & ((1 << POINTS) - 1);
        let [mine, theirs] = territory(men, empty);
        let gaps = mill_slots(empty);
        side_terms(self, me, 1, [mill_slots(men[0]), gaps], mine, t);
        side_terms(self, me.opponent(), -1, [mill_slots(men[1]), gaps], theirs, t);
        let base = if self.in_hand(me) > 0 { 0 } else { f::PHASE };
        t.add(base + f::TEMPO, 1);
    }
}

impl Evaluate for Morris {
    const HISTORY_SIZE: usize = 25 * 24;
    const SEARCH_PREFIX: &'static str = "Morris";
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

    /// Moves that take steps from the opponent first: the enemy men next to the point
    /// filled lose a step, those next to the point left gain one (blockades win games).
    fn quiet_order(&self, mv: MorrisMove) -> i32 {
        let enemy = self.men(self.side_to_move().opponent());
        let taken = (Morris::adjacent(mv.to as usize) & enemy).count_ones() as i32;
        let given = if mv.from == NONE {
            0
        } else {
            (Morris::adjacent(mv.from as usize) & enemy).count_ones() as i32
        };
        (taken - given) * RESTRICT_ORDER
    }

    /// A blockade about to close, under the standard rules: the side to move (stepping,
    /// not flying) has one step left. The move that made it is extended and quiescence
    /// plays the forced step, so the search sees a blockade close one move past its
    /// horizon. Measured at 20 000 nodes per move: +2.8 ± 2.2 Elo under the standard
    /// rules, −1.9 ± 3.4 under the seed rules, which therefore keep the plain search.
    /// ([`Morris::mobility`] is 0 with men in hand and at least 3 when flying.)
    fn in_check(&self) -> bool {
        self.options().flying() && self.mobility(self.side_to_move()) == 1
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
    use crate::games::morris::{MorrisOptions, MorrisRules};

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
    fn one_step_left_is_a_threat_to_answer() {
        let standard = |fen| {
            let opts = MorrisOptions { rules: MorrisRules::Standard, ..Default::default() };
            Morris::from_fen(fen, &opts).unwrap()
        };
        // White (to move) has one step left, a4-b4; Black has five.
        assert!(standard("WWW/BBB/3/W4B/3/3/BBB w 0 0 0").in_check());
        assert!(!standard("WWW/BBB/3/W4B/3/3/BBB b 0 0 0").in_check());
        // With b4 taken White has no step at all: lost, not a threat.
        assert!(!standard("WWW/BBB/3/WB3B/3/3/BBB w 0 0 0").in_check());
        // Men in hand are no blockade.
        assert!(!standard("WWW/BBB/3/W4B/3/3/BBB w 1 0 0").in_check());
        // The seed rules keep the plain search.
        assert!(!pos("WWW/BBB/3/W4B/3/3/BBB w 0 0 0").in_check());
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

    /// The mill features of `side` counted mill by mill and man by man: closed, two in
    /// a row with the gap empty, closable, double.
    fn mill_counts_one_by_one(pos: &Morris, side: Side) -> [i32; 4] {
        let own = pos.men(side);
        let enemy = pos.men(side.opponent());
        let empty = !(own | enemy) & ((1 << POINTS) - 1);
        let mobile = pos.in_hand(side) > 0 || pos.can_fly(side);
        let mut counts = [0; 4];
        for &mill in Morris::mills() {
            match ((own & mill).count_ones(), (empty & mill).count_ones()) {
                (3, _) => counts[0] += 1,
                (2, 1) => {
                    counts[1] += 1;
                    let gap = (mill & empty).trailing_zeros() as usize;
                    counts[2] += (mobile || Morris::adjacent(gap) & own & !mill != 0) as i32;
                }
                _ => {}
            }
        }
        if !pos.can_fly(side) {
            for p in bits(own).filter(|&p| pos.in_mill(own, p)) {
                let after = own & !(1 << p);
                let steps = bits(Morris::adjacent(p) & empty);
                counts[3] += steps.filter(|&q| pos.in_mill(after | 1 << q, q)).count() as i32;
            }
        }
        counts
    }

    #[test]
    fn mill_features_match_a_count_mill_by_mill() {
        let features = [f::CLOSED_MILL, f::TWO_IN_ROW, f::CLOSABLE_MILL, f::DOUBLE_MILL];
        let mut rng = crate::core::Rng::new(11);
        let mut moves = Vec::new();
        let mut checked = 0;
        for rules in [MorrisRules::Seed, MorrisRules::Standard] {
            let opts = MorrisOptions { rules, ..MorrisOptions::default() };
            for _ in 0..200 {
                let mut p = Morris::startpos(&opts);
                loop {
                    moves.clear();
                    p.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mut expected = [0; 2 * f::PHASE];
                    for (side, sign) in [(p.side_to_move(), 1), (p.side_to_move().opponent(), -1)] {
                        let base = if p.in_hand(side) > 0 { 0 } else { f::PHASE };
                        let counts = mill_counts_one_by_one(&p, side);
                        for (&feature, count) in features.iter().zip(counts) {
                            expected[base + feature] += sign * count;
                        }
                    }
                    for base in [0, f::PHASE] {
                        for feature in features {
                            let i = base + feature;
                            assert_eq!(count(&p, i), expected[i], "{} in {}", NAMES[i], p.to_fen());
                        }
                    }
                    checked += 1;
                    p.play(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 10_000, "{checked} positions");
    }

    #[test]
    fn territory_counts_regions_only_one_side_borders() {
        // d7 empty between white a7, g7 and d6: a region of one point only white borders.
        let white = 1 << 0 | 1 << 2 | 1 << 4;
        let black = 1 << 9;
        let empty = ((1 << POINTS) - 1) & !white & !black;
        assert_eq!(territory([white, black], empty), [1, 0], "the big region has both");
    }

    /// [`territory`] region by region: flood each region of empty points, then look at
    /// who borders it.
    fn territory_region_by_region(men: [u32; 2], empty: u32) -> [u32; 2] {
        let mut left = empty;
        let mut total = [0; 2];
        while left != 0 {
            let mut region = left & left.wrapping_neg();
            loop {
                let grown = region | Morris::neighbours(region) & empty;
                if grown == region {
                    break;
                }
                region = grown;
            }
            left &= !region;
            let border = Morris::neighbours(region) & !empty;
            for side in 0..2 {
                if border != 0 && border & !men[side] == 0 {
                    total[side] += region.count_ones();
                }
            }
        }
        total
    }

    #[test]
    fn territory_matches_a_count_region_by_region() {
        let mut rng = crate::core::Rng::new(5);
        let all = (1u32 << POINTS) - 1;
        let mut owned = 0;
        for _ in 0..20_000 {
            let (a, b) = (rng.next_u64() as u32 & all, rng.next_u64() as u32 & all);
            // Sparse and dense boards alike: each point empty with probability 1/2 or 3/4.
            let occupied = if rng.below(2) == 0 { a } else { a & b };
            let white = occupied & (rng.next_u64() as u32);
            let men = [white, occupied & !white];
            let empty = all & !occupied;
            let expected = territory_region_by_region(men, empty);
            assert_eq!(territory(men, empty), expected, "{men:?}");
            owned += expected[0] + expected[1];
        }
        assert!(owned > 1000, "some regions belong to one side: {owned}");
    }
}
