//! How the generic alpha-beta ([`crate::search::AlphaBeta`]) searches Mabula so that it
//! plays the end exactly.
//!
//! Depth counts pushes; a forced pass costs no depth. Every push takes a border marble
//! off the border for good, so a subtree searched to a depth of at least the number of
//! border marbles ([`Mabula::border_marbles`]) reaches the end of the game in every line:
//! its score is exact and is stored in the table as solved, and once the iteration depth
//! reaches that bound at the root the position is solved (`info string solved: …`) and
//! the search stops. With at most 12 border marbles the iterations jump to that bound
//! after depth 1 ([`crate::search::SearchParams::solve_within`]). Scores: a win `n`
//! plies away is `MATE - n`, a draw 0, a loss `-(MATE - n)`; in between, the evaluation
//! ([`super::eval`]) predicts the score difference in hundredths. No quiescence, no
//! reductions (every push is searched to full depth, which keeps the solving exact), no
//! aspiration windows.

use super::board::Mabula;
use super::geometry::{BORDER, bits, neighbours};
use super::notation::MabulaMove;
use crate::core::{Game, LinearEval};
use crate::search::{Evaluate, SearchParams};

/// Ordering bonus per own marble next to the landing square of a push.
const LANDING_NEIGHBOUR: i32 = 64;

impl Evaluate for Mabula {
    /// Indexed by from·64 + to (the pass: 0).
    const HISTORY_SIZE: usize = 64 * 64;
    const SEARCH_PREFIX: &'static str = "Mabula";
    const QUIESCENCE: bool = false;
    const PARAMS: SearchParams = SearchParams {
        aspiration: 0,
        lmr_min_move: usize::MAX,
        history_max: 1 << 20,
        // To solve 20 positions of self-play, straight to the end after depth 1 searched
        // 3 887 076 nodes where depth by depth searched 15 567 176 (11 border marbles),
        // and 24 726 863 against 69 934 106 (12 border marbles).
        solve_within: 12,
        ..SearchParams::DEFAULT
    };

    fn evaluate(&self) -> i32 {
        self.linear_eval()
    }

    fn is_noisy(&self, _mv: MabulaMove) -> bool {
        false
    }

    fn history_index(&self, mv: MabulaMove) -> usize {
        if mv.is_pass() { 0 } else { mv.from as usize * 64 + mv.to as usize }
    }

    /// Pushes that land next to own marbles first (they grow groups).
    fn quiet_order(&self, mv: MabulaMove) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let own = self.men(self.side_to_move());
        let near = (neighbours(1 << mv.to) & own & !(1 << mv.from)).count_ones() as i32;
        near * LANDING_NEIGHBOUR
    }

    fn expected_moves_left(&self) -> u32 {
        let own = self.men(self.side_to_move()) & BORDER;
        bits(own).filter(|&b| self.max_push(b) > 0).count().max(1) as u32
    }

    fn costs_depth(&self, mv: MabulaMove) -> bool {
        !mv.is_pass()
    }

    fn depth_to_end(&self) -> Option<i32> {
        Some(self.border_marbles() as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::games::mabula::MabulaOptions;
    use crate::search::{
        AlphaBeta, MATE, NullReporter, Reporter, SearchControl, SearchInfo, SearchParams,
    };

    /// The depth of every iteration the search reports.
    #[derive(Default)]
    struct Depths(Vec<u32>);

    impl Reporter for Depths {
        fn info(&mut self, info: &SearchInfo) {
            self.0.push(info.depth);
        }
    }

    /// Positions of random games with `border` border marbles left.
    fn positions(border: u32, n: usize) -> Vec<Mabula> {
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(17);
        let mut found = Vec::new();
        let mut moves = Vec::new();
        while found.len() < n {
            let mut pos = Mabula::random(&opts, &mut rng);
            while pos.border_marbles() > border && pos.outcome().is_none() {
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(*rng.choose(&moves));
            }
            if pos.border_marbles() == border && pos.outcome().is_none() {
                found.push(pos);
            }
        }
        found
    }

    #[test]
    fn straight_to_the_end_solves_to_the_same_score_as_depth_by_depth() {
        for pos in positions(8, 12) {
            let solve = |solve_within| {
                let params = SearchParams { solve_within, ..Mabula::PARAMS };
                let mut search = AlphaBeta::<Mabula>::with_params(4, params);
                let mut depths = Depths::default();
                let result = search.run(&pos, &SearchControl::unlimited(), &mut depths);
                assert!(result.solved, "{}", pos.to_fen());
                (result.score(), depths.0)
            };
            let (straight, straight_depths) = solve(12);
            let (stepwise, stepwise_depths) = solve(0);
            assert_eq!(straight, stepwise, "{}", pos.to_fen());
            assert_eq!(straight_depths, [1, 8], "{}", pos.to_fen());
            assert_eq!(stepwise_depths, (1..=8).collect::<Vec<_>>(), "{}", pos.to_fen());
        }
    }

    #[test]
    fn a_search_to_the_end_is_exact_in_its_window_and_bounds_outside_it() {
        for pos in positions(9, 6) {
            let exact = AlphaBeta::<Mabula>::new(4)
                .run(&pos, &SearchControl::unlimited(), &mut NullReporter)
                .score();
            let full = AlphaBeta::<Mabula>::new(4).search_to_end(&pos, -MATE - 1, MATE + 1);
            assert_eq!(full, exact, "{}", pos.to_fen());
            // Around a draw: the sign of the value, a bound of it when it is not a draw.
            let sign = AlphaBeta::<Mabula>::new(4).search_to_end(&pos, -1, 1);
            assert_eq!(sign.signum(), exact.signum(), "{}", pos.to_fen());
            assert!(if exact > 0 { sign <= exact } else { sign >= exact }, "{}", pos.to_fen());
        }
    }
}
