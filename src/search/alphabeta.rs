//! Iterative-deepening principal-variation search (negamax alpha-beta) with a
//! transposition table, quiescence on noisy moves, killer and history move ordering,
//! late-move reductions, repetition detection along the search path and mate scores.
//! Generic over any game that can evaluate and unmake its moves.
//!
//! CITE: PVS and iterative deepening as in Marsland & Campbell (1982); killer moves
//! (Akl & Newborn 1977); history heuristic (Schaeffer 1989); LMR as in Fruit/Stockfish.

use super::Searcher;
use super::control::SearchControl;
use super::report::{Reporter, Score, SearchInfo};
use super::score::{MATE, MATE_BOUND, score_from_tt, score_to_tt};
use super::tt::{Bound, TranspositionTable};
use crate::core::{Limits, Outcome, Reversible};

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;

/// What a game provides to be searched by [`AlphaBeta`].
pub trait Evaluate: Reversible {
    /// Size of the history table: [`Evaluate::history_index`] is below it.
    const HISTORY_SIZE: usize;
    /// Whether the horizon is extended by a search of the noisy moves (quiescence).
    /// Games whose noisy moves are too many for that keep them only for move ordering.
    const QUIESCENCE: bool = true;
    /// Static evaluation from the side to move's point of view, in the game's `cp` units.
    /// Called only on positions that are not over.
    fn evaluate(&self) -> i32;
    /// True for moves that change the material balance (captures): searched first, not
    /// reduced, and at the horizon searched by quiescence (see [`Evaluate::QUIESCENCE`]).
    fn is_noisy(&self, mv: Self::Move) -> bool;
    /// A small index identifying the move for the history heuristic (e.g. from-to).
    fn history_index(&self, mv: Self::Move) -> usize;
    /// How many more moves of its own the side to move is expected to play.
    fn expected_moves_left(&self) -> u32 {
        30
    }
}

/// Tuned constants of the search, in one place.
mod params {
    /// Minimum depth at which late quiet moves are reduced.
    pub const LMR_MIN_DEPTH: i32 = 3;
    /// Moves searched before reductions start.
    pub const LMR_MIN_MOVE: usize = 3;
    /// Poll the clock and the stop flag every this many nodes (a power of two minus one).
    pub const POLL_MASK: u64 = 1023;
    /// Stop deepening once this fraction of the soft time budget is used.
    pub const SOFT_FRACTION: f64 = 0.5;
    /// Half-width of the first aspiration window.
    pub const ASPIRATION: i32 = 50;
}

/// Alpha-beta search state kept between moves of a game (hash table, history).
pub struct AlphaBeta<G: Evaluate> {
    tt: TranspositionTable<G::Move>,
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    pv: Vec<Vec<G::Move>>,
    /// One reusable move list per ply (no allocation in the search).
    move_lists: Vec<Vec<(i64, G::Move)>>,
    path: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
}

impl<G: Evaluate> AlphaBeta<G> {
    /// A search with a hash table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta {
            tt: TranspositionTable::new(hash_mb),
            history: vec![0; G::HISTORY_SIZE],
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            move_lists: vec![Vec::new(); MAX_PLY + 2],
            path: Vec::with_capacity(MAX_PLY + 1),
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

    /// The ordering key of a move: hash move, noisy moves, killers, then history.
    fn order_key(&self, pos: &G, mv: G::Move, tt_move: Option<G::Move>, ply: usize) -> i64 {
        let killers = self.killers[ply];
        if Some(mv) == tt_move {
            1 << 40
        } else if pos.is_noisy(mv) {
            1 << 35
        } else if killers[0] == Some(mv) {
            1 << 31
        } else if killers[1] == Some(mv) {
            (1 << 31) - 1
        } else {
            self.history[pos.history_index(mv)] as i64
        }
    }

    /// The legal moves of `pos` (filtered by `keep`), best-ordered first, in the reusable
    /// list of `ply` (hand it back with [`Self::give_back`]).
    fn ordered_moves(
        &mut self,
        pos: &G,
        tt_move: Option<G::Move>,
        ply: usize,
        keep: impl Fn(G::Move) -> bool,
    ) -> Vec<(i64, G::Move)> {
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        let mut moves = Vec::with_capacity(64);
        pos.generate_moves(&mut moves);
        for mv in moves {
            if keep(mv) {
                list.push((self.order_key(pos, mv, tt_move, ply), mv));
            }
        }
        list.sort_unstable_by_key(|&(k, _)| std::cmp::Reverse(k));
        list
    }

    fn give_back(&mut self, ply: usize, list: Vec<(i64, G::Move)>) {
        self.move_lists[ply] = list;
    }

    fn terminal_score(outcome: Outcome, pos: &G, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == pos.side_to_move() => MATE - ply as i32,
            Outcome::Win(_) => -(MATE - ply as i32),
        }
    }

    /// True when the position repeats one earlier on the search path with the same side
    /// to move: scored as a draw, since the side that repeats could repeat again.
    fn repeats_on_path(&self, key: u64) -> bool {
        let n = self.path.len();
        (2..=n).step_by(2).any(|back| self.path[n - back] == key)
    }

    fn quiescence(
        &mut self,
        pos: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        ctl: &SearchControl,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.poll(ctl) {
            return 0;
        }
        if let Some(o) = pos.outcome() {
            return Self::terminal_score(o, pos, ply);
        }
        let stand_pat = pos.evaluate();
        if !G::QUIESCENCE || ply >= MAX_PLY || stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let moves = self.ordered_moves(pos, None, ply, |m| pos.is_noisy(m));
        for &(_, mv) in &moves {
            let undo = pos.play_reversible(mv);
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1, ctl);
            pos.unplay(mv, undo);
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        self.give_back(ply, moves);
        if self.stopped { 0 } else { alpha }
    }

    fn negamax(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        ctl: &SearchControl,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, ctl);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.poll(ctl) {
            return 0;
        }
        if let Some(o) = pos.outcome() {
            return Self::terminal_score(o, pos, ply);
        }
        let key = pos.hash();
        if ply > 0 && self.repeats_on_path(key) {
            return 0;
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        // Mate distance pruning: no line from here beats a mate found nearer the root.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && ply > 0
            && e.depth as i32 >= depth
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

        let moves = self.ordered_moves(pos, tt_move, ply, |_| true);

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        self.path.push(key);
        for (i, &(_, mv)) in moves.iter().enumerate() {
            let noisy = pos.is_noisy(mv);
            let undo = pos.play_reversible(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, ctl)
            } else {
                let reduction = if depth >= params::LMR_MIN_DEPTH
                    && i >= params::LMR_MIN_MOVE
                    && !noisy
                    && !pv_node
                {
                    1 + (i >= 8) as i32
                } else {
                    0
                };
                let mut s =
                    -self.negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, ctl);
                if s > alpha && reduction > 0 {
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, ctl);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, ctl);
                }
                s
            };
            pos.unplay(mv, undo);
            if self.stopped {
                break;
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
                        if !noisy {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h = &mut self.history[pos.history_index(mv)];
                            *h = (*h + depth * depth).min(1 << 24);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.give_back(ply, moves);
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    fn report(&self, depth: u32, score: i32, ctl: &SearchControl, reporter: &mut dyn Reporter) {
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

    /// Runs iterative deepening on `pos` and returns the best move and its score.
    /// `pos` must not be over.
    pub fn run(
        &mut self,
        pos: &G,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> (G::Move, i32) {
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        let mut root_moves = Vec::new();
        pos.generate_moves(&mut root_moves);
        assert!(!root_moves.is_empty(), "search called on a finished game");
        let mut best = (root_moves[0], 0);
        if let Some(mv) = self.tt.probe(pos.hash()).and_then(|e| e.mv)
            && root_moves.contains(&mv)
        {
            best.0 = mv;
        }
        let max_depth = ctl.max_depth().unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let mut work = pos.clone();
        let mut prev = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.path.clear();
            let (mut lo, mut hi) = if depth >= 4 {
                (prev - params::ASPIRATION, prev + params::ASPIRATION)
            } else {
                (-INF, INF)
            };
            let mut delta = params::ASPIRATION;
            let score = loop {
                let s = self.negamax(&mut work, depth as i32, lo, hi, 0, ctl);
                if self.stopped {
                    break s;
                }
                if s <= lo {
                    lo = (lo - delta).max(-INF);
                } else if s >= hi {
                    hi = (hi + delta).min(INF);
                } else {
                    break s;
                }
                delta *= 2;
            };
            if self.stopped {
                break;
            }
            if let Some(&mv) = self.pv[0].first() {
                best = (mv, score);
            }
            prev = score;
            self.report(depth, score, ctl, reporter);
            let decided = score.abs() >= MATE_BOUND && (MATE - score.abs()) <= depth as i32;
            if ctl.soft_expired(params::SOFT_FRACTION)
                || (root_moves.len() == 1 && !ctl.is_unbounded())
                || decided
            {
                break;
            }
        }
        (best.0, best.1)
    }
}

impl<G: Evaluate> Searcher<G> for AlphaBeta<G> {
    fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    fn expected_moves_left(&self, pos: &G) -> u32 {
        pos.expected_moves_left()
    }

    fn search(
        &mut self,
        pos: &G,
        _root_moves: &[G::Move],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> G::Move {
        self.run(pos, ctl, reporter).0
    }
}
