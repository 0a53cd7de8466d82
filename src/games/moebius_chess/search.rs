//! The Moebius Chess search: iterative-deepening PVS with aspiration windows, a
//! transposition table, optional null-move pruning, late-move reductions, check extension,
//! killer and history ordering, quiescence on captures and promotions (all moves when
//! in check, so phasing mates are seen), mate scores and repetition draws.
//!
//! CITE: PVS and iterative deepening (Marsland & Campbell 1982); null move (Beal 1989,
//! Donninger 1993, R = 2 + depth/4 as in Stockfish); killers (Akl & Newborn 1977);
//! history (Schaeffer 1989); LMR as in Fruit/Stockfish; MVV-LVA capture ordering.

use super::board::{KING, PAWN, code_type};
use super::eval::{evaluate, piece_value};
use super::movegen::MoveList;
use super::moves::ChessMove;
use super::position::MoebiusChess;
use crate::core::{Game, Limits, Reversible};
use crate::search::{
    Bound, MATE, MATE_BOUND, Reporter, Score, SearchControl, SearchInfo, Searcher,
    TranspositionTable, score_from_tt, score_to_tt,
};

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;

/// Tuned constants of the search, in one place.
mod params {
    /// Minimum depth at which late quiet moves are reduced.
    pub const LMR_MIN_DEPTH: i32 = 3;
    /// Moves searched at full depth before reductions start.
    pub const LMR_MIN_MOVE: usize = 3;
    /// Minimum depth for null-move pruning.
    pub const NULL_MIN_DEPTH: i32 = 3;
    /// Poll the clock and the stop flag every this many nodes (a power of two minus one).
    pub const POLL_MASK: u64 = 1023;
    /// Stop deepening once this fraction of the soft time budget is used.
    pub const SOFT_FRACTION: f64 = 0.5;
    /// Half-width of the first aspiration window.
    pub const ASPIRATION: i32 = 30;
    /// Extensions stop beyond this ply (keeps check sequences finite).
    pub const MAX_EXTEND_PLY: usize = 64;
}

/// Ordering keys: hash move, then captures and promotions by MVV-LVA, then killers,
/// then quiet moves by history.
mod order {
    pub const HASH_MOVE: i32 = 1 << 30;
    pub const NOISY: i32 = 1 << 24;
    pub const KILLER: i32 = 1 << 22;
}

/// Alpha-beta search state kept between moves of a game.
pub struct MoebiusSearch {
    tt: TranspositionTable<ChessMove>,
    /// History scores indexed by side·16384 + from·128 + to.
    history: Vec<i32>,
    killers: [[Option<ChessMove>; 2]; MAX_PLY + 1],
    pv: Vec<Vec<ChessMove>>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Null-move pruning. Off by default: at equal node budgets it did not gain
    /// (21 wins, 4 draws, 25 losses against the same search without it, 50 games at
    /// 30k and 100k nodes per move); phasing threats are everywhere on this board.
    pub use_null_move: bool,
}

impl MoebiusSearch {
    /// A search with a hash table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> MoebiusSearch {
        MoebiusSearch {
            tt: TranspositionTable::new(hash_mb),
            history: vec![0; 2 * 16384],
            killers: [[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            use_null_move: false,
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

    fn is_noisy(pos: &MoebiusChess, mv: ChessMove) -> bool {
        pos.board().is_capture(mv) || mv.promotion().is_some()
    }

    /// Ordering keys of `moves`, parallel to it.
    fn score_moves(
        &self,
        pos: &MoebiusChess,
        moves: &[ChessMove],
        tt_move: Option<ChessMove>,
        ply: usize,
        keys: &mut [i32],
    ) {
        let b = pos.board();
        let side = b.stm * 16384;
        for (k, &mv) in keys.iter_mut().zip(moves) {
            *k = if Some(mv) == tt_move {
                order::HASH_MOVE
            } else if Self::is_noisy(pos, mv) {
                let victim = match b.mailbox[mv.to()] {
                    0 => PAWN,
                    c => code_type(c),
                };
                let attacker = code_type(b.mailbox[mv.from()]);
                let promo = mv.promotion().map_or(0, piece_value);
                order::NOISY + 10 * (piece_value(victim) + promo) - piece_value(attacker) / 10
            } else if self.killers[ply][0] == Some(mv) {
                order::KILLER + 1
            } else if self.killers[ply][1] == Some(mv) {
                order::KILLER
            } else {
                self.history[side + mv.index()]
            };
        }
    }

    /// Moves the best remaining move (by key) to position `i`.
    fn pick(moves: &mut [ChessMove], keys: &mut [i32], i: usize) {
        let mut best = i;
        for j in i + 1..moves.len() {
            if keys[j] > keys[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        keys.swap(i, best);
    }

    fn quiescence(
        &mut self,
        pos: &mut MoebiusChess,
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
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let in_check = pos.in_check();
        if list.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        if pos.board().insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos.board());
        }
        if !in_check {
            let stand_pat = evaluate(pos.board());
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let mut moves: Vec<ChessMove> = list
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| in_check || Self::is_noisy(pos, m))
            .collect();
        let mut keys = vec![0; moves.len()];
        self.score_moves(pos, &moves, None, ply, &mut keys);
        let mut best = if in_check { -INF } else { alpha };
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut keys, i);
            let mv = moves[i];
            let undo = pos.play_reversible(mv);
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1, ctl);
            pos.unplay(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// True when the side to move has pieces other than pawns and king (null move is
    /// unsafe in pawn endings: zugzwang).
    fn has_pieces(pos: &MoebiusChess) -> bool {
        let b = pos.board();
        let us = b.colors[b.stm];
        us & !(b.pieces[PAWN] | b.pieces[KING]) != 0
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut MoebiusChess,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        ctl: &SearchControl,
        allow_null: bool,
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
        let in_check = pos.in_check();
        if ply > 0 {
            if pos.repeated() || pos.board().insufficient_material() {
                return 0;
            }
            // Mate distance pruning: no line from here beats a mate found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        if ply > 0 && pos.board().halfmove >= 100 {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos.board());
        }
        let key = pos.hash();
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

        if self.use_null_move
            && allow_null
            && !pv_node
            && !in_check
            && depth >= params::NULL_MIN_DEPTH
            && beta.abs() < MATE_BOUND
            && Self::has_pieces(pos)
            && evaluate(pos.board()) >= beta
        {
            let r = 2 + depth / 4;
            let undo = pos.play_null();
            let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, ctl, false);
            pos.unplay_null(undo);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }

        let moves = list.as_mut_slice();
        let mut keys = vec![0; moves.len()];
        self.score_moves(pos, moves, tt_move, ply, &mut keys);

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            Self::pick(moves, &mut keys, i);
            let mv = moves[i];
            let noisy = Self::is_noisy(pos, mv);
            let undo = pos.play_reversible(mv);
            let gives_check = pos.in_check();
            let ext = (gives_check && ply < params::MAX_EXTEND_PLY) as i32;
            let new_depth = depth - 1 + ext;
            let score = if i == 0 {
                -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, ctl, true)
            } else {
                let reduction = if depth >= params::LMR_MIN_DEPTH
                    && i >= params::LMR_MIN_MOVE
                    && !noisy
                    && !in_check
                    && !gives_check
                {
                    1 + (i >= 8) as i32 + (!pv_node && depth >= 6) as i32
                } else {
                    0
                };
                let mut s = -self.negamax(
                    pos,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    ctl,
                    true,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, ctl, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, ctl, true);
                }
                s
            };
            pos.unplay(mv, undo);
            if self.stopped {
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
                        if !noisy {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h = &mut self.history[pos.board().stm * 16384 + mv.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
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

    /// Runs iterative deepening on `pos` (not over) and returns the best move and score.
    pub fn run(
        &mut self,
        pos: &MoebiusChess,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> (ChessMove, i32) {
        self.nodes = 0;
        self.stopped = false;
        self.tt.new_search();
        self.killers = [[None; 2]; MAX_PLY + 1];
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
            let (mut lo, mut hi) = if depth >= 4 {
                (prev - params::ASPIRATION, prev + params::ASPIRATION)
            } else {
                (-INF, INF)
            };
            let mut delta = params::ASPIRATION;
            let score = loop {
                let s = self.negamax(&mut work, depth as i32, lo, hi, 0, ctl, false);
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
        best
    }
}

impl Searcher<MoebiusChess> for MoebiusSearch {
    fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    fn expected_moves_left(&self, pos: &MoebiusChess) -> u32 {
        (45u32.saturating_sub(pos.board().fullmove / 2)).max(15)
    }

    fn search(
        &mut self,
        pos: &MoebiusChess,
        _root_moves: &[ChessMove],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> ChessMove {
        self.run(pos, ctl, reporter).0
    }
}
