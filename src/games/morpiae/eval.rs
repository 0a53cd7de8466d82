//! Evaluation of Morpiae positions for the generic alpha-beta search.
//!
//! Why alpha-beta: a capture needs four directions to meet at one circle, so the game
//! is decided by short tactical sequences (completing a third direction hands the
//! opponent the fourth). A full-width search sees who draws the last stroke at each
//! circle; the branching factor (about 20–40 lines) suits alpha-beta, and the drawing
//! only grows, so there are no repetitions to handle.
//!
//! No quiescence: capturing lines rarely remove other captures, so a capture-only
//! search does not settle; from a 5D middle game it did not finish depth 1 in 30 s.
//! Capturing lines are "noisy" only for move ordering (searched first, never reduced;
//! `QUIESCENCE = false` keeps them out of the horizon); the static evaluation counts the
//! best capture the side to move can make at once (feature `best capture`), a one-ply
//! look at the horizon that costs one pass over the legal lines.
//!
//! Measured (throwaway harness, 40 games per match, 2 random opening plies, colours
//! alternated; W-D-L for the first named): threat term vs material only, both depth 4:
//! 15-18-7 (5T), 16-16-8 (5D); this evaluation vs material + quiescence at 20,000
//! nodes per move, 5T: 10-21-9 (equal, and it no longer explodes in 5D). Ordering
//! capturing lines first (`is_noisy`) vs no ordering, `scripts/regression.sh` at depth 4
//! (5T): +21.7 ± 17.1 Elo, SPRT(0, 30) passed after 531 games.
//!
//! The evaluation is a sum of weighted features ([`LinearEval`]), the weights in one
//! generated table (`weights.rs`, written by `ugine tune --game morpiae`), from the side
//! to move's point of view:
//! - material: circles coloured by the side to move minus the opponent's (fixed at 100:
//!   the `cp` scale);
//! - the best capture the side to move can make now (circles), the second best (another
//!   line: what is left after the best), and the number of capturing lines;
//! - circles that can still be captured: uncoloured circles crossed in three directions
//!   (the next stroke through them in the fourth takes them) and in two;
//! - the legal lines (shared by both players), and a tempo.
//!
//! Score (`info score cp`): 100 per circle of colour difference, plus the other terms; a
//! won or lost end is a mate score.

use super::notation::MorpiaeMove;
use super::position::Morpiae;
use super::weights::WEIGHTS;
use crate::core::{Game, LinearEval, Terms};
use crate::search::{Evaluate, SearchParams};

/// Feature indices.
mod f {
    pub const CIRCLE: usize = 0;
    pub const THREAT: usize = 1;
    pub const SECOND_THREAT: usize = 2;
    pub const CAPTURING_LINES: usize = 3;
    pub const OPEN_3: usize = 4;
    pub const OPEN_2: usize = 5;
    pub const LINES: usize = 6;
    pub const TEMPO: usize = 7;
    pub const COUNT: usize = 8;
}

/// Feature names, in index order.
const NAMES: [&str; f::COUNT] = [
    "circle",
    "best capture",
    "second capture",
    "capturing line",
    "circle crossed 3 ways",
    "circle crossed 2 ways",
    "legal line",
    "tempo",
];

impl LinearEval for Morpiae {
    const FEATURES: &'static [&'static str] = &NAMES;
    const FIXED: &'static [usize] = &[f::CIRCLE];
    const WEIGHTS_FILE: &'static str = "src/games/morpiae/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn terms<T: Terms>(&self, t: &mut T) {
        let me = self.side_to_move();
        t.add(f::CIRCLE, self.colours(me) as i32 - self.colours(me.opponent()) as i32);
        let captures = self.captures();
        t.add(f::THREAT, captures.best as i32);
        t.add(f::SECOND_THREAT, captures.second as i32);
        t.add(f::CAPTURING_LINES, captures.lines as i32);
        t.add(f::OPEN_3, self.open_circles(3) as i32);
        t.add(f::OPEN_2, self.open_circles(2) as i32);
        t.add(f::LINES, self.legal_moves().len() as i32);
        t.add(f::TEMPO, 1);
    }
}

/// Legal lines from which a position with equal colours is no more drawish than any
/// other ([`Evaluate::drawishness`]).
const OPEN_GAME_LINES: i32 = 32;

/// Side of the window of points the history table distinguishes.
const HISTORY_SPAN: i32 = 64;

impl Evaluate for Morpiae {
    const QUIESCENCE: bool = false;

    const HISTORY_SIZE: usize = (HISTORY_SPAN * HISTORY_SPAN * 20) as usize;
    const SEARCH_PREFIX: &'static str = "Morpiae";
    /// Contempt 30: the opening has no circle to win, and an engine
    /// indifferent to the end let both players strike out lines until the game stopped
    /// at 0-0 (22 of 31 draws against `uct`); with the contempt and
    /// [`Evaluate::drawishness`] it keeps lines open (docs/tuning.md). Logarithmic
    /// reductions: factor 0.5 +19.7 ± 12.0 Elo at 1+0.01 against the steps, 0.75 +19.6
    /// ± 12.1 against 0.5. Reverse futility pruning (half a circle per ply) with late
    /// move pruning (`3 + depth²` quiet lines): +28.0 ± 14.7 against neither, where each
    /// alone gave a few Elo (docs/strength.md).
    const PARAMS: SearchParams = SearchParams {
        contempt: 30,
        lmr_log: 0.75,
        rfp_margin: 50,
        lmp_base: 3,
        ..SearchParams::DEFAULT
    };

    fn evaluate(&self) -> i32 {
        self.linear_eval()
    }

    /// A drawn end is two equal colour counts when the lines run out, so the fewer legal
    /// lines are left while the counts are equal, the more drawish: none at
    /// `OPEN_GAME_LINES` or more, linearly up to all at none left.
    fn drawishness(&self) -> i32 {
        let me = self.side_to_move();
        if self.colours(me) != self.colours(me.opponent()) {
            return 0;
        }
        let lines = (self.legal_moves().len() as i32).min(OPEN_GAME_LINES);
        1000 * (OPEN_GAME_LINES - lines) / OPEN_GAME_LINES
    }

    /// Every position: the search has no quiescence, so the evaluation stands at the
    /// horizon with captures pending, and `ugine tune` fits it there too.
    fn is_quiet(&self) -> bool {
        true
    }

    /// Capturing lines are ordered first and never reduced; there is no quiescence
    /// (`QUIESCENCE = false`): in 5D the capture-only search at the horizon explodes.
    fn is_noisy(&self, mv: MorpiaeMove) -> bool {
        self.captures_of(mv) > 0
    }

    fn history_index(&self, mv: MorpiaeMove) -> usize {
        let x = (mv.x + HISTORY_SPAN / 2 - 5).rem_euclid(HISTORY_SPAN);
        let y = (mv.y + HISTORY_SPAN / 2 - 5).rem_euclid(HISTORY_SPAN);
        (((y * HISTORY_SPAN + x) * 4 + mv.dir as i32) * 5 + mv.k as i32) as usize
    }

    fn expected_moves_left(&self) -> u32 {
        (self.legal_moves().len() as u32 / 2).clamp(5, 30)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Reversible, Rng, Side, Trace};
    use crate::games::morpiae::{MorpiaeOptions, Variant};

    /// Green to move can colour (3,2) and (5,2) at once with 4,2,H,2 (a reference game).
    const DOUBLE: &str = "g cross 9,7,V,4;2,2,A,2;7,9,H,4;3,4,V,4;0,2,V,0;10,3,H,4;5,6,H,0;\
        7,2,D,2;7,0,H,4;6,-1,V,0;6,5,V,0;4,3,H,4;3,10,V,4;7,7,A,2;2,7,D,2;4,1,A,2;5,8,A,2;\
        4,5,D,2;5,4,A,3;4,6,H,3;2,1,D,0;5,2,A,2;5,1,H,3;2,-1,D,0;8,4,D,3;2,0,V,1;5,3,V,3 - -";

    fn trace(p: &Morpiae) -> Vec<i32> {
        let mut t = Trace::default();
        p.terms(&mut t);
        let mut counts = vec![0; f::COUNT];
        for (feature, c) in t.0 {
            counts[feature as usize] = c;
        }
        counts
    }

    #[test]
    fn the_weight_table_names_every_feature() {
        assert_eq!(WEIGHTS.len(), NAMES.len());
    }

    #[test]
    fn evaluation_is_the_weighted_trace() {
        for fen in crate::games::morpiae::BENCH_POSITIONS.iter().skip(1).chain([&DOUBLE]) {
            let p = Morpiae::from_fen(fen, &MorpiaeOptions::default()).unwrap();
            let from_trace: i32 = trace(&p).iter().zip(WEIGHTS).map(|(c, w)| c * w).sum();
            assert_eq!(p.evaluate(), from_trace, "{fen}");
        }
    }

    #[test]
    fn start_features() {
        let p = Morpiae::startpos(&MorpiaeOptions::default());
        let t = trace(&p);
        assert_eq!(t[f::LINES], 28);
        assert_eq!(t[f::TEMPO], 1);
        assert_eq!(t[f::OPEN_3] + t[f::OPEN_2] + t[f::THREAT] + t[f::CIRCLE], 0);
        assert_eq!(p.open_circles(0), 36);
    }

    #[test]
    fn drawishness_grows_as_the_lines_run_out_at_equal_colours() {
        let opts = MorpiaeOptions::default();
        let mut p = Morpiae::startpos(&opts);
        // 28 legal lines of 32.
        assert_eq!(p.drawishness(), 1000 * 4 / 32);
        let mut rng = Rng::new(3);
        while !p.legal_moves().is_empty() {
            let me = p.side_to_move();
            let lines = p.legal_moves().len() as i32;
            let expected = if p.colours(me) == p.colours(me.opponent()) {
                1000 * (OPEN_GAME_LINES - lines.min(OPEN_GAME_LINES)) / OPEN_GAME_LINES
            } else {
                0
            };
            assert_eq!(p.drawishness(), expected, "{}", p.to_fen());
            let mv = *rng.choose(p.legal_moves());
            p.play(mv);
        }
        // Green is ahead after the double capture: no draw in sight.
        let ahead = Morpiae::from_fen(DOUBLE, &opts).unwrap();
        let mut after = ahead.clone();
        after.play(after.parse_move("4,2,H,2").unwrap());
        assert_ne!(after.colours(Side::P1), after.colours(Side::P2));
        assert_eq!(after.drawishness(), 0);
    }

    #[test]
    fn capture_features() {
        let p = Morpiae::from_fen(DOUBLE, &MorpiaeOptions::default()).unwrap();
        let t = trace(&p);
        assert_eq!(t[f::THREAT], 2, "4,2,H,2 colours two circles");
        let capturing: Vec<_> = p.legal_moves().iter().filter(|&&m| p.captures_of(m) > 0).collect();
        assert_eq!(t[f::CAPTURING_LINES], capturing.len() as i32);
        // (3,2) and (5,2) wait for their horizontal stroke: crossed three ways.
        assert!(t[f::OPEN_3] >= 2, "{t:?}");
        assert_eq!(t[f::OPEN_3], p.drawing().open_histogram()[3] as i32);
        assert_eq!(t[f::OPEN_2], p.drawing().open_histogram()[2] as i32);
    }

    #[test]
    fn crossings_are_kept_up_to_date_through_play_and_unplay() {
        for variant in [Variant::Touching, Variant::Disjoint] {
            let opts = MorpiaeOptions { variant };
            let mut rng = Rng::new(7);
            for _ in 0..4 {
                let mut p = Morpiae::startpos(&opts);
                let mut played = Vec::new();
                while !p.legal_moves().is_empty() {
                    let mv = *rng.choose(p.legal_moves());
                    let before = p.clone();
                    let undo = p.play_reversible(mv);
                    assert_eq!(p.open, p.drawing().open_histogram(), "{variant:?} after {mv}");
                    p.unplay(mv, undo);
                    assert_eq!(p.open, before.open);
                    p.play(mv);
                    played.push(mv);
                }
                assert!(played.len() > 10);
                // The end: the position string read back has the same crossings.
                let again = Morpiae::from_fen(&p.to_fen(), &opts).unwrap();
                assert_eq!(again.open, p.open);
            }
        }
    }
}
