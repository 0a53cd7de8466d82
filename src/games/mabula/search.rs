//! The Mabula search: iterative-deepening principal-variation alpha-beta with a
//! transposition table, killer and history move ordering, that plays the end exactly.
//!
//! Depth counts pushes; a forced pass costs no depth. Every push takes a border marble
//! off the border for good, so a subtree searched to a depth of at least the number of
//! border marbles ([`Mabula::border_marbles`]) reaches the end of the game in every
//! line: its score is exact and is stored in the table as solved. Once the iteration
//! depth reaches that bound at the root the position is solved and the search stops. Scores: a win `n` plies away is `MATE - n`, a draw 0, a loss `-(MATE - n)`; in
//! between, the evaluation ([`super::eval`]) predicts the score difference in hundredths.
//!
//! CITE: PVS and iterative deepening as in Marsland & Campbell (1982); killer moves
//! (Akl & Newborn 1977); history heuristic (Schaeffer 1989).

use super::board::Mabula;
use super::eval::evaluate;
use super::geometry::neighbours;
use super::notation::MabulaMove;
use crate::core::{Game, Limits, Outcome, Reversible};
use crate::search::{
    Bound, MATE, MATE_BOUND, Reporter, Score, SearchControl, SearchInfo, Searcher,
    TranspositionTable, score_from_tt, score_to_tt,
};

/// Tuned constants of the search, in one place.
mod params {
    /// Poll the clock and the stop flag every this many nodes (a power of two minus one).
    pub const POLL_MASK: u64 = 1023;
    /// Stop deepening once this fraction of the soft time budget is used.
    pub const SOFT_FRACTION: f64 = 0.5;
    /// Ordering bonus per own marble next to the landing square of a push.
    pub const LANDING_NEIGHBOUR: i32 = 64;
}

const INF: i32 = MATE + 1;
/// The table depth of an exact (solved) score.
const SOLVED: i32 = 100;
/// A game has at most 24 pushes and as many passes.
const MAX_PLY: usize = 64;

/// Search state kept between moves of a game (hash table, history).
pub struct MabulaSearch {
    tt: TranspositionTable<MabulaMove>,
    history: Vec<i32>,
    killers: [[Option<MabulaMove>; 2]; MAX_PLY + 1],
    pv: Vec<Vec<MabulaMove>>,
    /// One reusable move list per ply.
    lists: Vec<Vec<MabulaMove>>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
}

/// The result of a search: best move, score (side to move's view), and whether it is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: MabulaMove,
    /// Its score: `MATE - n` for a win in `n` plies, 0 for a draw, else the evaluation.
    pub score: i32,
    /// True when the score is exact: the search read every line to the end of the game.
    pub solved: bool,
}

fn history_index(mv: MabulaMove) -> usize {
    if mv.is_pass() { 0 } else { mv.from as usize * 64 + mv.to as usize }
}

impl MabulaSearch {
    /// A search with a hash table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> MabulaSearch {
        MabulaSearch {
            tt: TranspositionTable::new(hash_mb),
            history: vec![0; 64 * 64],
            killers: [[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stopped: false,
        }
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn poll(&mut self, ctl: &SearchControl) -> bool {
        if !self.stopped && self.nodes & params::POLL_MASK == 0 && ctl.must_stop(self.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    fn terminal_score(outcome: Outcome, pos: &Mabula, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == pos.side_to_move() => MATE - ply as i32,
            Outcome::Win(_) => -(MATE - ply as i32),
        }
    }

    /// Orders `moves`: hash move, killers, then history plus a bonus for landing next to
    /// own marbles.
    fn order(
        &self,
        pos: &Mabula,
        moves: &mut [MabulaMove],
        tt_move: Option<MabulaMove>,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        let own = pos.men(pos.side_to_move());
        moves.sort_by_cached_key(|&mv| {
            let key: i64 = if Some(mv) == tt_move {
                1 << 40
            } else if killers[0] == Some(mv) {
                1 << 35
            } else if killers[1] == Some(mv) {
                (1 << 35) - 1
            } else {
                let near = (neighbours(1 << mv.to) & own & !(1 << mv.from)).count_ones() as i32;
                (self.history[history_index(mv)] + near * params::LANDING_NEIGHBOUR) as i64
            };
            -key
        });
    }

    fn negamax(
        &mut self,
        pos: &mut Mabula,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &SearchControl,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.poll(ctl) {
            return 0;
        }
        if let Some(o) = pos.outcome() {
            return Self::terminal_score(o, pos, ply);
        }
        let exact = depth >= pos.border_marbles() as i32;
        if depth <= 0 || ply >= MAX_PLY {
            return evaluate(pos);
        }
        let need = if exact { SOLVED } else { depth };
        let key = pos.hash();
        let pv_node = beta - alpha > 1;
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && ply > 0
            && !pv_node
            && e.depth as i32 >= need
        {
            let s = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        if moves == [MabulaMove::PASS] {
            self.lists[ply] = moves;
            // A forced pass costs no depth.
            let undo = pos.play_reversible(MabulaMove::PASS);
            let score = -self.negamax(pos, depth, -beta, -alpha, ply + 1, ctl);
            pos.unplay(MabulaMove::PASS, undo);
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply].clear();
            head[ply].push(MabulaMove::PASS);
            head[ply].extend_from_slice(&tail[0]);
            return score;
        }
        self.order(pos, &mut moves, tt_move, ply);

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            let undo = pos.play_reversible(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, ctl)
            } else {
                let s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, ctl);
                if s > alpha && s < beta {
                    -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, ctl)
                } else {
                    s
                }
            };
            pos.unplay(mv, undo);
            if self.stopped {
                self.lists[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        let k = &mut self.killers[ply];
                        if k[0] != Some(mv) {
                            k[1] = k[0];
                            k[0] = Some(mv);
                        }
                        let h = &mut self.history[history_index(mv)];
                        *h = (*h + depth * depth).min(1 << 20);
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best, ply), need, bound);
        best
    }

    fn report(&mut self, depth: u32, score: i32, ctl: &SearchControl, reporter: &mut dyn Reporter) {
        let score = Score::from_internal(score);
        reporter.info(&SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            multipv: None,
            score,
            nodes: self.nodes,
            time: ctl.elapsed(),
            hashfull: Some(self.tt.hashfull()),
            pv: self.pv[0].iter().map(|m| m.to_string()).collect(),
        });
    }

    /// Runs iterative deepening on `pos` (not over) and returns the best move found.
    pub fn run(
        &mut self,
        pos: &Mabula,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        self.killers = [[None; 2]; MAX_PLY + 1];
        self.history.iter_mut().for_each(|h| *h /= 8);
        let mut root_moves = Vec::new();
        pos.generate_moves(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied().unwrap_or(MabulaMove::PASS),
            score: 0,
            solved: false,
        };
        if let Some(mv) = self.tt.probe(pos.hash()).and_then(|e| e.mv)
            && root_moves.contains(&mv)
        {
            result.best = mv;
        }
        let live = pos.border_marbles().max(1);
        let max_depth = ctl.max_depth().unwrap_or(u32::MAX).clamp(1, live);
        let mut work = *pos;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.negamax(&mut work, depth as i32, -INF, INF, 0, ctl);
            if self.stopped {
                break;
            }
            if let Some(&mv) = self.pv[0].first() {
                result.best = mv;
            }
            result.score = score;
            result.solved = depth >= live || score.abs() >= MATE_BOUND;
            self.report(depth, score, ctl, reporter);
            if result.solved {
                let verdict = match score {
                    s if s >= MATE_BOUND => "win",
                    s if s <= -MATE_BOUND => "loss",
                    _ => "draw",
                };
                reporter.note(&format!("solved: {verdict} for the side to move"));
                break;
            }
            if ctl.soft_expired(params::SOFT_FRACTION)
                || (root_moves.len() == 1 && !ctl.is_unbounded())
            {
                break;
            }
        }
        result
    }
}

impl Searcher<Mabula> for MabulaSearch {
    fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    fn expected_moves_left(&self, pos: &Mabula) -> u32 {
        let own = pos.men(pos.side_to_move()) & super::geometry::BORDER;
        super::geometry::bits(own).filter(|&b| pos.max_push(b) > 0).count().max(1) as u32
    }

    fn search(
        &mut self,
        pos: &Mabula,
        _root_moves: &[MabulaMove],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MabulaMove {
        self.run(pos, ctl, reporter).best
    }
}
