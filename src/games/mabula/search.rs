//! How the generic alpha-beta ([`crate::search::AlphaBeta`]) searches Mabula so that it
//! plays the end exactly.
//!
//! Depth counts pushes; a forced pass costs no depth. Every push takes a border marble
//! off the border for good, so a subtree searched to a depth of at least the number of
//! border marbles ([`Mabula::border_marbles`]) reaches the end of the game in every line:
//! its score is exact and is stored in the table as solved, and once the iteration depth
//! reaches that bound at the root the position is solved (`info string solved: …`) and
//! the search stops. Scores: a win `n` plies away is `MATE - n`, a draw 0, a loss
//! `-(MATE - n)`; in between, the evaluation ([`super::eval`]) predicts the score
//! difference in hundredths. No quiescence, no reductions (every push is searched to full
//! depth, which keeps the solving exact), no aspiration windows.

use super::board::Mabula;
use super::geometry::{BORDER, bits, neighbours};
use super::notation::MabulaMove;
use crate::core::{Game, LinearEval};
use crate::search::params::SearchOptionNames;
use crate::search::{Evaluate, SearchParams};

/// Ordering bonus per own marble next to the landing square of a push.
const LANDING_NEIGHBOUR: i32 = 64;

impl Evaluate for Mabula {
    /// Indexed by from·64 + to (the pass: 0).
    const HISTORY_SIZE: usize = 64 * 64;
    const SEARCH_OPTIONS: SearchOptionNames = crate::search_option_names!("Mabula");
    const QUIESCENCE: bool = false;
    const PARAMS: SearchParams = SearchParams {
        aspiration: 0,
        lmr_min_move: usize::MAX,
        history_max: 1 << 20,
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
