//! The one alpha-beta search of the engine, generic over games: iterative deepening,
//! principal-variation search with aspiration windows, a transposition table shared by
//! every thread (Lazy SMP), quiescence, killer and history ordering, late-move
//! reductions, mate scores, repetition along the search path, and `MultiPV`.
//!
//! A game opts into what it needs through [`Evaluate`]: check extensions and evasions
//! ([`Evaluate::in_check`]), null move with its own zugzwang guard
//! ([`Evaluate::play_null`]), moves that cost no depth ([`Evaluate::costs_depth`]), exact
//! solving once every line provably reaches the end ([`Evaluate::depth_to_end`]), the
//! quiescence policy ([`Evaluate::QUIESCENCE`]) and ordering terms; its tuned constants
//! are one [`SearchParams`] table ([`Evaluate::PARAMS`]), also set by options
//! ([`super::params`]). A game's search may also hand
//! it an [`Oracle`] (endgame databases): probed at every node, it replaces the search of
//! the positions it covers, and its move is played at the root. And a network
//! ([`AlphaBeta::set_network`], a [`NetEval`] of a game with network features): each
//! thread keeps the accumulators along its path ([`AccumulatorStack`]), records the
//! features every move turns on and off as it makes it, and evaluates with the network
//! (or a blend of the network and the game's evaluation); without one the search is
//! the same, node for node.
//!
//! Threads: the main thread iterates and reports; each helper runs the same iterative
//! deepening on its own copy of the position with its own history and killers, odd
//! helpers one ply deeper, sharing the table, so they fill it with results the main
//! thread then reads, and a table of the positions being searched: at a node of depth
//! [`DEFER_MIN_DEPTH`] or more, a move (not the first) whose position another thread is
//! searching is deferred until the node's other moves are searched, so the threads
//! split the work instead of searching the same subtree at once (simplified ABDADA).
//! The main thread alone decides `bestmove`; it stops the helpers when it finishes. One
//! thread has no such table and is deterministic.
//!
//! CITE: PVS and iterative deepening as in Marsland & Campbell (1982); killer moves
//! (Akl & Newborn 1977); history heuristic (Schaeffer 1989); LMR as in Fruit/Stockfish
//! (steps, or Stockfish's logarithmic table);
//! null move (Beal 1989, Donninger 1993, R = 2 + depth/4 as in Stockfish); Lazy SMP as
//! in Stockfish 7+ and Ethereal (shared table, diversified helper depths); deferral as
//! in ABDADA (Weill 1996), simplified by Kerrigan (2020), see [`super::abdada`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::Searcher;
use super::abdada::Searching;
use super::control::SearchControl;
use super::nnue::{AccumulatorStack, NetEval};
use super::oracle::{Oracle, Verdict};
use super::params;
use super::report::{NullReporter, Reporter, Score, SearchInfo};
use super::score::{MATE, MATE_BOUND, score_from_tt, score_to_tt};
use super::tt::{Bound, MAX_DEPTH, PackedMove, TranspositionTable};
use crate::core::{Limits, OptionSpec, OptionValue, Outcome, Reversible, Side};

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;
/// Check the clock, the stop flag and the node limit every this many nodes (a power of
/// two minus one): often enough to stop within a millisecond in the slowest game.
const POLL_MASK: u64 = 63;
/// Iterations scored by the evaluation before a search straight to the end
/// ([`SearchParams::solve_within`]): they fill the table with moves to try first.
const SOLVE_WARMUP: i32 = 1;
/// With several threads, moves at nodes of at least this depth are deferred while
/// another thread searches their position ([`Searching`]); below it a duplicated search
/// costs less than the table's traffic.
const DEFER_MIN_DEPTH: i32 = 3;
/// Sets of four keys in the table of positions being searched.
const SEARCHING_SETS: usize = 8192;

/// The tuned constants of the search. Each game gives its own ([`Evaluate::PARAMS`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window (0: always a full window).
    pub aspiration: i32,
    /// Minimum depth at which late quiet moves are reduced.
    pub lmr_min_depth: i32,
    /// Moves searched before reductions start (`usize::MAX`: no reductions).
    pub lmr_min_move: usize,
    /// Whether moves are also reduced at PV nodes.
    pub lmr_in_pv: bool,
    /// From this move on (counted from 0 in search order) a reduced move is reduced one
    /// ply more.
    pub lmr_late_move: usize,
    /// From this depth on, late moves at non-PV nodes are reduced one ply more.
    pub lmr_deep_depth: i32,
    /// Logarithmic reductions: a reduced move loses `1 + ⌊lmr_log · ln(depth) ·
    /// ln(move index)⌋` plies (one less at PV nodes, never below depth 1), as in
    /// Stockfish, instead of the steps of [`SearchParams::lmr_late_move`] and
    /// [`SearchParams::lmr_deep_depth`] (0: off, the steps).
    pub lmr_log: f64,
    /// Whether null-move pruning is tried (in games that implement [`Evaluate::play_null`]).
    pub null_move: bool,
    /// Minimum depth for null-move pruning.
    pub null_min_depth: i32,
    /// Null-move reduction `R = null_base + depth / null_divisor`.
    pub null_base: i32,
    /// See [`SearchParams::null_base`] (at least 1).
    pub null_divisor: i32,
    /// Cap of a history score.
    pub history_max: i32,
    /// Check extensions stop beyond this ply (keeps check sequences finite).
    pub max_extend_ply: usize,
    /// Stop deepening once this fraction of the soft time budget is used (clock only).
    pub soft_fraction: f64,
    /// Contempt: a draw scores this much below 0 for the side the search plays for (the
    /// side to move at the root) and as much above 0 for its opponent, so an engine that
    /// expects to outplay its opponent keeps the game going rather than settle for a draw.
    pub contempt: i32,
    /// Reverse futility pruning (static null move): at a non-PV node of depth at most
    /// [`SearchParams::rfp_max_depth`], not in check, whose static evaluation beats beta by
    /// `rfp_margin · depth`, the evaluation is returned without a search (0: off).
    pub rfp_margin: i32,
    /// See [`SearchParams::rfp_margin`].
    pub rfp_max_depth: i32,
    /// Late move pruning: at a non-PV node of depth at most [`SearchParams::lmp_max_depth`],
    /// not in check, quiet moves after the first `lmp_base + depth²` are not searched
    /// (`usize::MAX`: off).
    pub lmp_base: usize,
    /// See [`SearchParams::lmp_base`].
    pub lmp_max_depth: i32,
    /// Futility pruning: at a non-PV node of depth at most
    /// [`SearchParams::futility_max_depth`], not in check, whose static evaluation plus
    /// `futility_margin · depth` does not reach alpha, quiet moves after the first that
    /// give no check and cost depth are not searched (0: off).
    pub futility_margin: i32,
    /// See [`SearchParams::futility_margin`].
    pub futility_max_depth: i32,
    /// With [`Evaluate::depth_to_end`] at most this far, iterative deepening searches
    /// straight to the end after `SOLVE_WARMUP` iterations (when no depth limit stops
    /// it earlier): the iterations that stop short of the end, scored by the evaluation,
    /// can cost several times the exact one, whose win, draw and loss scores cut most of
    /// the tree (0: never).
    pub solve_within: i32,
    /// A network's evaluation is rounded to a multiple of this (1: as it is). A hand
    /// evaluation moves in steps (a man, a circle, a capture) and ties cut the tree
    /// often; a network's scores are all different, so without a grain the same depth
    /// costs more nodes (Morris's bench: 0.63× the nodes at 16).
    pub net_grain: i32,
}

impl SearchParams {
    /// The defaults, which a game's table starts from.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration: 50,
        lmr_min_depth: 3,
        lmr_min_move: 3,
        lmr_in_pv: false,
        lmr_late_move: 8,
        lmr_deep_depth: i32::MAX,
        lmr_log: 0.0,
        null_move: false,
        null_min_depth: 3,
        null_base: 2,
        null_divisor: 4,
        history_max: 1 << 24,
        max_extend_ply: 64,
        soft_fraction: 0.5,
        contempt: 0,
        rfp_margin: 0,
        rfp_max_depth: 6,
        lmp_base: usize::MAX,
        lmp_max_depth: 4,
        futility_margin: 0,
        futility_max_depth: 3,
        solve_within: 0,
        net_grain: 1,
    };
}

/// What a game provides to be searched by [`AlphaBeta`]. Only the first five items are
/// required; the rest are hooks with neutral defaults.
pub trait Evaluate: Reversible<Move: PackedMove> {
    /// Size of the history table: [`Evaluate::history_index`] is below it.
    const HISTORY_SIZE: usize;
    /// The first word of the options that set [`Evaluate::PARAMS`] (as the game's rule
    /// options start): `"Morris"` gives `Morris Search Aspiration`, … (see [`params`]).
    const SEARCH_PREFIX: &'static str;
    /// Whether the horizon is extended by a search of the noisy moves (quiescence).
    /// Games whose noisy moves are too many for that keep them only for move ordering.
    const QUIESCENCE: bool = true;
    /// The search constants of this game ([`AlphaBeta::with_params`] overrides them).
    const PARAMS: SearchParams = SearchParams::DEFAULT;

    /// Static evaluation from the side to move's point of view, in the game's `cp` units.
    /// Called only on positions that are not over.
    fn evaluate(&self) -> i32;
    /// How likely the game is to end drawn from here, in thousandths (0: not at all,
    /// 1000: surely), for positions that are not over. The search moves the static
    /// evaluation by this share of the contempt ([`SearchParams::contempt`]), so a side
    /// with contempt steers away from drawish positions before the drawn end is in
    /// sight. The default: 0 (only drawn ends carry the contempt).
    fn drawishness(&self) -> i32 {
        0
    }
    /// True for moves that change the material balance (captures): searched first, not
    /// reduced, and at the horizon searched by quiescence (see [`Evaluate::QUIESCENCE`]).
    fn is_noisy(&self, mv: Self::Move) -> bool;
    /// A small index identifying the move for the history heuristic (e.g. from-to).
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Order among noisy moves, higher first (e.g. MVV-LVA).
    fn noisy_order(&self, _mv: Self::Move) -> i32 {
        0
    }
    /// A static bonus added to the history score of a quiet move.
    fn quiet_order(&self, _mv: Self::Move) -> i32 {
        0
    }
    /// How many more moves of its own the side to move is expected to play.
    fn expected_moves_left(&self) -> u32 {
        30
    }
    /// True when the side to move must answer a threat (chess: in check): the move that
    /// made it is extended, and quiescence searches every reply without standing pat.
    fn in_check(&self) -> bool {
        false
    }
    /// True when the static evaluation may stand for the position's value (no capture
    /// or threat pending): `ugine tune` fits only such positions. The default: the side
    /// to move has no noisy move.
    fn is_quiet(&self) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        !moves.iter().any(|&m| self.is_noisy(m))
    }
    /// The outcome, as far as it is known without generating moves. The default is
    /// [`crate::core::Game::outcome`], for games where that is cheap; a game whose end is
    /// "no legal move" (mate) returns only its draws here, and the search learns the rest
    /// from an empty move list. May also call a repetition of an earlier position of the
    /// game a draw, since the side that repeated could repeat again.
    fn outcome_before_moves(&self) -> Option<Outcome> {
        self.outcome()
    }
    /// False for a move that costs no depth (a forced pass).
    fn costs_depth(&self, _mv: Self::Move) -> bool {
        true
    }
    /// A depth from which every line provably reaches the end of the game, if the game
    /// knows one. It must drop by at least one with every move that costs depth, so a
    /// subtree searched that deep without reductions is exact (solved).
    fn depth_to_end(&self) -> Option<i32> {
        None
    }
    /// Passes the turn for null-move pruning, or `None` where that is unsound here
    /// (zugzwang) or the game has no null move (the default).
    fn play_null(&mut self) -> Option<Self::Undo> {
        None
    }
    /// Takes back [`Evaluate::play_null`].
    fn unplay_null(&mut self, _undo: Self::Undo) {}
}

/// Search state kept between moves of a game: the shared table and one worker per thread.
pub struct AlphaBeta<G: Evaluate> {
    tt: TranspositionTable,
    params: SearchParams,
    workers: Vec<Worker<G>>,
    /// The positions the threads are searching (with more than one thread).
    searching: Option<Searching>,
    multipv: usize,
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// The network that evaluates instead of [`Evaluate::evaluate`], and its weight.
    network: Option<(Arc<dyn NetEval<G>>, i32)>,
}

/// One line of the result: a root move, its score and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    pub mv: M,
    pub score: i32,
    pub pv: Vec<M>,
}

/// What a search found: the lines, best first, and whether the first score is exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    pub lines: Vec<Line<M>>,
    /// The depth of the last completed iteration (0 if none).
    pub depth: u32,
    /// True when the position is solved: the first line's score is its exact value.
    pub solved: bool,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

impl<M: Copy> SearchResult<M> {
    /// The move to play.
    pub fn best(&self) -> M {
        self.lines[0].mv
    }
    /// Its score.
    pub fn score(&self) -> i32 {
        self.lines[0].score
    }
}

/// What every thread of one search shares.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    params: &'a SearchParams,
    ctl: &'a SearchControl,
    /// Nodes of all threads (each adds its count as it polls).
    nodes: &'a AtomicU64,
    /// Raised by the main thread when it is done: the helpers stop.
    done: &'a AtomicBool,
    /// The positions being searched, with several threads (deferral).
    searching: Option<&'a Searching>,
}

/// The state of one search thread.
struct Worker<G: Evaluate> {
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    pv: Vec<Vec<G::Move>>,
    /// One reusable move list and its ordering keys per ply (no allocation in the search).
    lists: Vec<(Vec<G::Move>, Vec<i64>)>,
    /// Hashes of the positions from the root to the current node.
    path: Vec<u64>,
    /// The root moves the current iteration may search.
    root_moves: Vec<G::Move>,
    /// True when [`Worker::root_moves`] are all the legal moves: only then is the root's
    /// result the position's value, to be stored in the table.
    root_is_full: bool,
    /// Nodes of this search, and how many of them are already in [`Shared::nodes`].
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    stopped: bool,
    /// The search's oracle (every worker holds it).
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// The side to move at the root: the side [`SearchParams::contempt`] plays for.
    root_side: Side,
    /// The accumulators of the network along the path, and the network's weight in
    /// thousandths (1000: the network alone), when the search has a network.
    net: Option<(AccumulatorStack<G>, i32)>,
    /// The network corrects the hand evaluation ([`NetEval::on_hand`]): its evaluation,
    /// times its weight, is added to the game's.
    net_on_hand: bool,
}

impl<G: Evaluate> Worker<G> {
    fn new(history_size: usize) -> Self {
        Worker {
            history: vec![0; history_size],
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| (Vec::new(), Vec::new())).collect(),
            path: Vec::with_capacity(MAX_PLY + 1),
            root_moves: Vec::new(),
            root_is_full: true,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            oracle: None,
            root_side: Side::P1,
            net: None,
            net_on_hand: false,
        }
    }

    /// Takes the search's network (or none): a fresh stack of accumulators.
    fn set_network(&mut self, network: &Option<(Arc<dyn NetEval<G>>, i32)>) {
        self.net = network
            .as_ref()
            .map(|(net, weight)| (AccumulatorStack::new(Arc::clone(net), MAX_PLY + 1), *weight));
        self.net_on_hand = network.as_ref().is_some_and(|(net, _)| net.on_hand());
    }

    /// Plays `mv` in `pos` at `ply`, recording its features for the network.
    fn make(&mut self, pos: &mut G, mv: G::Move, ply: usize) -> G::Undo {
        if let Some((stack, _)) = &mut self.net {
            stack.make(ply, pos, mv);
        }
        pos.play_reversible(mv)
    }

    /// The oracle's score of `pos` at `ply`, when it covers `pos`.
    fn oracle_score(&self, pos: &G, ply: usize) -> Option<i32> {
        Some(self.oracle.as_ref()?.probe(pos)?.score(ply))
    }

    /// Prepares for a new search: fresh killers, aged history, no accumulator.
    fn start(&mut self) {
        if let Some((stack, _)) = &mut self.net {
            stack.reset();
        }
        self.nodes = 0;
        self.flushed = 0;
        self.stopped = false;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    /// Counts a node; every [`POLL_MASK`] + 1 nodes publishes the count and asks whether
    /// to stop. Returns true once the search must stop.
    fn visit(&mut self, ply: usize, shared: &Shared) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if !self.stopped && self.nodes & POLL_MASK == 0 {
            let total = shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
                + (self.nodes - self.flushed);
            self.flushed = self.nodes;
            self.stopped = shared.ctl.must_stop(total) || shared.done.load(Ordering::Relaxed);
        }
        self.stopped
    }

    /// Publishes the nodes not yet counted in [`Shared::nodes`].
    fn flush(&mut self, shared: &Shared) {
        shared.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Makes `mv` followed by the child's variation the variation of `ply`.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The score of a draw for the side to move of `pos`: ∓ the contempt
    /// ([`SearchParams::contempt`]) as it is or is not the root's side to move.
    fn draw(&self, pos: &G, shared: &Shared) -> i32 {
        let c = shared.params.contempt;
        if pos.side_to_move() == self.root_side { -c } else { c }
    }

    /// The static evaluation of `pos` (at `ply`) for its side to move: the game's, or the
    /// network's blended with it by the network's weight (a network on the hand
    /// evaluation: the game's plus the network's times the weight); with the contempt's
    /// share for its [`Evaluate::drawishness`].
    fn leaf(&mut self, pos: &G, ply: usize, shared: &Shared) -> i32 {
        let on_hand = self.net_on_hand;
        let eval = match &mut self.net {
            None => pos.evaluate(),
            Some((stack, weight)) if on_hand => {
                pos.evaluate() + stack.evaluate(ply, pos) * *weight / 1000
            }
            Some((stack, 1000)) => stack.evaluate(ply, pos),
            Some((stack, weight)) => {
                let (net, own) = (stack.evaluate(ply, pos), pos.evaluate());
                own + (net - own) * *weight / 1000
            }
        };
        let grain = shared.params.net_grain;
        let eval = if self.net.is_some() && grain > 1 {
            (eval + grain / 2).div_euclid(grain) * grain
        } else {
            eval
        };
        if shared.params.contempt == 0 {
            return eval;
        }
        eval + self.draw(pos, shared) * pos.drawishness() / 1000
    }

    /// True when the position repeats one earlier on the search path with the same side
    /// to move: scored as a draw, since the side that repeats could repeat again.
    fn repeats_on_path(&self, key: u64) -> bool {
        let n = self.path.len();
        (2..=n).step_by(2).any(|back| self.path[n - back] == key)
    }
}

/// Moves the best remaining move (by key) to index `i`, keeping the others in their
/// order: among equal keys the move generated first comes first, so the game's
/// generation order breaks ties (a swap would shuffle them).
fn pick<M: Copy>(moves: &mut [M], keys: &mut [i64], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    // Shifted one by one: the lists are short, and `rotate_right` calls `memmove`.
    let (mv, key) = (moves[best], keys[best]);
    for j in (i..best).rev() {
        moves[j + 1] = moves[j];
        keys[j + 1] = keys[j];
    }
    moves[i] = mv;
    keys[i] = key;
}

/// The reduction of move `index` at `depth` under [`SearchParams::lmr_log`]: at least 1,
/// and never below depth 1 for the reduced search of `new_depth`.
fn log_reduction(factor: f64, depth: i32, index: usize, pv_node: bool, new_depth: i32) -> i32 {
    let log_product = f64::from(depth.max(1)).ln() * (index.max(1) as f64).ln();
    let r = 1 + (factor * log_product) as i32 - pv_node as i32;
    r.clamp(1, (new_depth - 1).max(1))
}

/// The score of a finished game for its side to move at `ply`.
fn terminal_score<G: Evaluate>(outcome: Outcome, pos: &G, ply: usize, draw: i32) -> i32 {
    match outcome {
        Outcome::Draw => draw,
        Outcome::Win(s) if s == pos.side_to_move() => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

/// The ordering key of a move: hash move, noisy moves, killers, then history.
fn order_key<G: Evaluate>(
    w: &Worker<G>,
    pos: &G,
    mv: G::Move,
    tt_move: Option<G::Move>,
    ply: usize,
) -> i64 {
    let killers = w.killers[ply];
    if Some(mv) == tt_move {
        1 << 40
    } else if pos.is_noisy(mv) {
        (1 << 35) + pos.noisy_order(mv) as i64
    } else if killers[0] == Some(mv) {
        1 << 31
    } else if killers[1] == Some(mv) {
        (1 << 31) - 1
    } else {
        w.history[pos.history_index(mv)] as i64 + pos.quiet_order(mv) as i64
    }
}

impl<G: Evaluate> Worker<G> {
    fn quiescence(
        &mut self,
        pos: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        shared: &Shared,
    ) -> i32 {
        if self.visit(ply, shared) {
            return 0;
        }
        if let Some(o) = pos.outcome_before_moves() {
            return terminal_score(o, pos, ply, self.draw(pos, shared));
        }
        if let Some(score) = self.oracle_score(pos, ply) {
            return score;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY || (!G::QUIESCENCE && !in_check) {
            return self.leaf(pos, ply, shared);
        }
        let mut best = -INF;
        if !in_check {
            best = self.leaf(pos, ply, shared);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let (mut moves, mut keys) = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            self.lists[ply] = (moves, keys);
            return pos
                .outcome()
                .map_or(best, |o| terminal_score(o, pos, ply, self.draw(pos, shared)));
        }
        moves.retain(|&m| in_check || pos.is_noisy(m));
        keys.clear();
        keys.extend(moves.iter().map(|&m| pos.noisy_order(m) as i64));
        for i in 0..moves.len() {
            pick(&mut moves, &mut keys, i);
            let mv = moves[i];
            let undo = self.make(pos, mv, ply);
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1, shared);
            pos.unplay(mv, undo);
            if self.stopped {
                break;
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
        self.lists[ply] = (moves, keys);
        if self.stopped { 0 } else { best }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        shared: &Shared,
        allow_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, shared);
        }
        if self.visit(ply, shared) {
            return 0;
        }
        let key = pos.hash();
        if ply > 0 {
            if let Some(o) = pos.outcome_before_moves() {
                return terminal_score(o, pos, ply, self.draw(pos, shared));
            }
            if self.repeats_on_path(key) {
                return self.draw(pos, shared);
            }
            if let Some(score) = self.oracle_score(pos, ply) {
                return score;
            }
            // Mate distance pruning: no line from here beats a mate found nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY {
            return self.leaf(pos, ply, shared);
        }
        let params = shared.params;
        // Deep enough to reach the end in every line: the result is exact (solved).
        let exact = pos.depth_to_end().is_some_and(|end| depth >= end);
        let table_depth = if exact { MAX_DEPTH } else { depth };
        let pv_node = beta - alpha > 1;
        let entry = shared.tt.probe::<G::Move>(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && ply > 0
            && e.depth >= table_depth
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
        let in_check = pos.in_check();
        // Pruning by the static evaluation, only where a wrong guess costs no proof.
        let prunable = !pv_node && !exact && !in_check && ply > 0 && beta.abs() < MATE_BOUND;
        let static_eval = if prunable
            && (params.rfp_margin > 0 || params.null_move || params.futility_margin > 0)
        {
            self.leaf(pos, ply, shared)
        } else {
            0
        };
        if prunable
            && params.rfp_margin > 0
            && depth <= params.rfp_max_depth
            && static_eval - params.rfp_margin * depth >= beta
        {
            return static_eval;
        }

        if params.null_move
            && allow_null
            && !pv_node
            && !exact
            && !in_check
            && depth >= params.null_min_depth
            && beta.abs() < MATE_BOUND
            && static_eval >= beta
            && let Some(undo) = pos.play_null()
        {
            let r = params.null_base + depth / params.null_divisor.max(1);
            if let Some((stack, _)) = &mut self.net {
                stack.make_null(ply);
            }
            self.path.push(key);
            let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, shared, false);
            self.path.pop();
            pos.unplay_null(undo);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }

        let (mut moves, mut keys) = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        if ply == 0 {
            moves.retain(|m| self.root_moves.contains(m));
        }
        if moves.is_empty() {
            self.lists[ply] = (moves, keys);
            return pos
                .outcome()
                .map_or(0, |o| terminal_score(o, pos, ply, self.draw(pos, shared)));
        }
        keys.clear();
        keys.extend(moves.iter().map(|&m| order_key(self, pos, m, tt_move, ply)));

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let late_moves = if prunable && depth <= params.lmp_max_depth {
            params.lmp_base.saturating_add((depth * depth) as usize)
        } else {
            usize::MAX
        };
        let futile_below =
            if prunable && params.futility_margin > 0 && depth <= params.futility_max_depth {
                static_eval + params.futility_margin * depth
            } else {
                INF
            };
        self.path.push(key);
        // Threads share the work near the root: a move whose position another thread is
        // searching waits until this node's other moves are searched (the first move
        // never waits). Deferred moves go to the end of the list, keyed below any other.
        let searching = shared.searching.filter(|_| depth >= DEFER_MIN_DEPTH);
        let mut deferred = 0;
        let mut i = 0;
        while i < moves.len() {
            pick(&mut moves, &mut keys, i);
            let mv = moves[i];
            let noisy = pos.is_noisy(mv);
            if i >= late_moves && !noisy && best > -MATE_BOUND {
                i += 1;
                continue;
            }
            let free = !pos.costs_depth(mv);
            let undo = self.make(pos, mv, ply);
            let gives_check = pos.in_check();
            if i > 0
                && futile_below <= alpha
                && !noisy
                && !free
                && !gives_check
                && best > -MATE_BOUND
            {
                pos.unplay(mv, undo);
                i += 1;
                continue;
            }
            let child = pos.hash();
            if let Some(s) = searching {
                if i > 0 && i < moves.len() - deferred && s.contains(child) {
                    pos.unplay(mv, undo);
                    moves[i..].rotate_left(1);
                    keys[i..].rotate_left(1);
                    *keys.last_mut().expect("a move") = i64::MIN;
                    deferred += 1;
                    continue;
                }
                s.start(child);
            }
            let extend = free || (gives_check && ply < params.max_extend_ply);
            let new_depth = depth - 1 + extend as i32;
            if new_depth > 0 {
                // The child probes the table first thing: start loading its entry now.
                shared.tt.prefetch(pos.hash());
            }
            let score = if i == 0 {
                -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, shared, true)
            } else {
                let reduction = if depth >= params.lmr_min_depth
                    && i >= params.lmr_min_move
                    && (params.lmr_in_pv || !pv_node)
                    && !exact
                    && !noisy
                    && !in_check
                    && !gives_check
                {
                    if params.lmr_log > 0.0 {
                        log_reduction(params.lmr_log, depth, i, pv_node, new_depth)
                    } else {
                        1 + (i >= params.lmr_late_move) as i32
                            + (!pv_node && depth >= params.lmr_deep_depth) as i32
                    }
                } else {
                    0
                };
                let mut s = -self.negamax(
                    pos,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    shared,
                    true,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, shared, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, shared, true);
                }
                s
            };
            if let Some(s) = searching {
                s.finish(child);
            }
            pos.unplay(mv, undo);
            i += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !noisy {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h = &mut self.history[pos.history_index(mv)];
                            *h = (*h + depth * depth).min(params.history_max);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.lists[ply] = (moves, keys);
        if self.stopped {
            return 0;
        }
        if ply > 0 || self.root_is_full {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            shared.tt.store(key, best_move, score_to_tt(best, ply), table_depth, bound);
        }
        best
    }

    /// Searches the root at `depth` over [`Worker::root_moves`] with an aspiration window
    /// around `prev` (the score of the previous iteration), widening until it holds.
    fn aspiration(&mut self, pos: &mut G, depth: i32, prev: i32, shared: &Shared) -> i32 {
        let width = shared.params.aspiration;
        let (mut lo, mut hi) =
            if width > 0 && depth >= 4 { (prev - width, prev + width) } else { (-INF, INF) };
        let mut delta = width;
        loop {
            self.seldepth = 0;
            self.path.clear();
            let s = self.negamax(pos, depth, lo, hi, 0, shared, false);
            if self.stopped {
                return s;
            }
            if s <= lo {
                lo = (lo - delta).max(-INF);
            } else if s >= hi {
                hi = (hi + delta).min(INF);
            } else {
                return s;
            }
            delta *= 2;
        }
    }
}

impl<G: Evaluate> AlphaBeta<G> {
    /// A search with a hash table of about `hash_mb` megabytes, one thread and the
    /// game's parameters.
    pub fn new(hash_mb: usize) -> Self {
        Self::with_params(hash_mb, G::PARAMS)
    }

    /// A search with other parameters than the game's (experiments, tuning).
    pub fn with_params(hash_mb: usize, params: SearchParams) -> Self {
        AlphaBeta {
            tt: TranspositionTable::new(hash_mb),
            params,
            workers: vec![Worker::new(G::HISTORY_SIZE)],
            searching: None,
            multipv: 1,
            oracle: None,
            network: None,
        }
    }

    /// Sets (or removes) the network that evaluates positions, with its weight in
    /// thousandths against [`Evaluate::evaluate`] (1000: the network alone; clamped to
    /// 0..=1000). Without a network the search is the same as before, node for node.
    pub fn set_network(&mut self, network: Option<Arc<dyn NetEval<G>>>, weight_permille: i32) {
        self.network = network.map(|n| (n, weight_permille.clamp(0, 1000)));
        self.workers.iter_mut().for_each(|w| w.set_network(&self.network));
    }

    /// Sets (or removes) the oracle probed at every node and asked at the root.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
        self.workers.iter_mut().for_each(|w| w.oracle.clone_from(&self.oracle));
    }

    /// The oracle's move at the root, reported, when the oracle covers `pos`.
    fn oracle_root(
        &self,
        pos: &G,
        root_moves: &[G::Move],
        reporter: &mut dyn Reporter,
    ) -> Option<SearchResult<G::Move>> {
        let oracle = self.oracle.as_ref()?;
        let (mv, verdict) = oracle.best_move(pos)?;
        if !root_moves.contains(&mv) {
            return None;
        }
        let score = verdict.score(0);
        reporter.note(&format!("{}: {verdict:?}, playing its move", oracle.describe(pos)));
        reporter.info(&SearchInfo {
            depth: 1,
            seldepth: 1,
            multipv: None,
            score: Score::from_internal(score),
            nodes: 0,
            time: std::time::Duration::ZERO,
            hashfull: Some(self.tt.hashfull()),
            pv: vec![mv.to_string()],
        });
        let solved = matches!(verdict, Verdict::Win(_) | Verdict::Loss(_) | Verdict::Draw);
        Some(SearchResult {
            lines: vec![Line { mv, score, pv: vec![mv] }],
            depth: 1,
            solved,
            nodes: 0,
        })
    }

    /// Runs iterative deepening on `pos` (not over) with every thread, and returns what
    /// the main thread found.
    pub fn run(
        &mut self,
        pos: &G,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> SearchResult<G::Move> {
        let mut root_moves = Vec::new();
        pos.generate_moves(&mut root_moves);
        self.run_restricted(pos, &root_moves, ctl, reporter)
    }

    /// [`AlphaBeta::run`] considering only `root_moves` (legal, not empty) at the root.
    pub fn run_restricted(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> SearchResult<G::Move> {
        assert!(!root_moves.is_empty(), "search called without root moves");
        if let Some(result) = self.oracle_root(pos, root_moves, reporter) {
            return result;
        }
        self.tt.new_search();
        let nodes = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let shared = Shared {
            tt: &self.tt,
            params: &self.params,
            ctl,
            nodes: &nodes,
            done: &done,
            searching: self.searching.as_ref(),
        };
        let multipv = self.multipv.min(root_moves.len());
        let (main, helpers) = self.workers.split_first_mut().expect("one worker at least");
        let result = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, helper)| {
                    let shared = &shared;
                    scope.spawn(move || {
                        // Every other helper searches one ply deeper than the main thread.
                        let offset = (i % 2 == 0) as i32;
                        helper.iterate(pos, root_moves, 1, offset, shared, &mut NullReporter)
                    })
                })
                .collect();
            let result = main.iterate(pos, root_moves, multipv, 0, &shared, reporter);
            done.store(true, Ordering::Relaxed);
            let helper_results: Vec<_> =
                handles.into_iter().filter_map(|h| h.join().ok()).collect();
            if multipv > 1 || result.solved || helper_results.is_empty() {
                return result;
            }
            let mut results = vec![result];
            results.extend(helper_results.into_iter().filter(|r| r.depth > 0));
            let chosen = vote(&results);
            if chosen > 0 {
                let r = &results[chosen];
                reporter.info(&SearchInfo {
                    depth: r.depth,
                    seldepth: r.depth,
                    multipv: None,
                    score: Score::from_internal(r.score()),
                    nodes: nodes.load(Ordering::Relaxed),
                    time: ctl.elapsed(),
                    hashfull: Some(self.tt.hashfull()),
                    pv: r.lines[0].pv.iter().map(|m| m.to_string()).collect(),
                });
            }
            results.swap_remove(chosen)
        });
        SearchResult { nodes: nodes.load(Ordering::Relaxed), ..result }
    }
}

impl<G: Evaluate> AlphaBeta<G> {
    /// The score of `pos` (not over, [`Evaluate::depth_to_end`] known) searched to the
    /// end of the game with the root window (`alpha`, `beta`), on the main thread alone
    /// and without a time limit. Fail-soft: a score at or above `beta` (at or below
    /// `alpha`) only bounds the value, one inside is exact. A window around a draw
    /// tells win, draw and loss apart: any win found cuts, where [`AlphaBeta::run`]
    /// goes on looking for the quickest (solvers: `games::mabula::solve`).
    pub fn search_to_end(&mut self, pos: &G, alpha: i32, beta: i32) -> i32 {
        let end = pos.depth_to_end().expect("a game whose lines end within a known depth");
        let ctl = SearchControl::unlimited();
        let (nodes, done) = (AtomicU64::new(0), AtomicBool::new(false));
        let shared = Shared {
            tt: &self.tt,
            params: &self.params,
            ctl: &ctl,
            nodes: &nodes,
            done: &done,
            searching: None,
        };
        self.tt.new_search();
        let worker = &mut self.workers[0];
        worker.start();
        worker.root_side = pos.side_to_move();
        worker.root_moves.clear();
        pos.generate_moves(&mut worker.root_moves);
        worker.root_is_full = true;
        let mut work = pos.clone();
        let mut search = |depth| {
            worker.seldepth = 0;
            worker.path.clear();
            worker.negamax(&mut work, depth, alpha, beta, 0, &shared, false)
        };
        // The first iterations fill the table with moves to try first, as `run`'s do.
        for depth in 1..=SOLVE_WARMUP.min(end - 1) {
            search(depth);
        }
        search(end)
    }
}

/// The thread whose result to play (index into `results`, the main thread's first), by
/// Stockfish's vote: each thread votes for its best move with weight
/// `(score − lowest score + 14) · depth`, and the thread whose move has the most votes
/// wins; a proven win overrides the vote, the nearest one first. Deeper iterations of
/// the helpers thus count, and a move several threads agree on beats a lone outlier.
fn vote<M: Copy + PartialEq>(results: &[SearchResult<M>]) -> usize {
    let lowest = results.iter().map(|r| r.score()).min().unwrap_or(0);
    let votes = |mv: M| -> i64 {
        results
            .iter()
            .filter(|r| r.best() == mv)
            .map(|r| (r.score() - lowest + 14) as i64 * r.depth as i64)
            .sum()
    };
    let mut chosen = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        let best = &results[chosen];
        let better = if best.score() >= MATE_BOUND {
            r.score() > best.score()
        } else {
            r.score() >= MATE_BOUND
                || (r.score() > -MATE_BOUND && votes(r.best()) > votes(best.best()))
        };
        if better {
            chosen = i;
        }
    }
    chosen
}

impl<G: Evaluate> Worker<G> {
    /// Iterative deepening, `depth_offset` plies deeper than the main thread (helpers),
    /// reporting `multipv` lines after each iteration.
    fn iterate(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        multipv: usize,
        depth_offset: i32,
        shared: &Shared,
        reporter: &mut dyn Reporter,
    ) -> SearchResult<G::Move> {
        self.start();
        self.root_side = pos.side_to_move();
        let ctl = shared.ctl;
        let mut result = SearchResult {
            lines: vec![Line { mv: root_moves[0], score: 0, pv: vec![root_moves[0]] }],
            depth: 0,
            solved: false,
            nodes: 0,
        };
        if let Some(mv) = shared.tt.probe::<G::Move>(pos.hash()).and_then(|e| e.mv)
            && root_moves.contains(&mv)
        {
            result.lines[0] = Line { mv, score: 0, pv: vec![mv] };
        }
        let end = pos.depth_to_end().map_or(MAX_PLY as i32 - 1, |e| e.max(1));
        let max_depth = ctl.max_depth().map_or(MAX_PLY as i32 - 1, |d| d as i32).clamp(1, end);
        let legal = pos.count_moves() as usize;
        let mut work = pos.clone();
        let straight_to_end =
            max_depth == end && pos.depth_to_end().is_some_and(|e| e <= shared.params.solve_within);
        for depth in 1..=max_depth {
            // A helper's offset never takes it past the depth asked (`go depth`).
            let search_depth = if straight_to_end && depth > SOLVE_WARMUP {
                end
            } else {
                (depth + depth_offset).min(max_depth)
            };
            if search_depth as u32 == result.depth {
                continue;
            }
            let mut lines: Vec<Line<G::Move>> = Vec::with_capacity(multipv);
            for k in 0..multipv {
                self.root_moves.clear();
                self.root_moves.extend(
                    root_moves.iter().filter(|m| !lines.iter().any(|l| l.mv == **m)).copied(),
                );
                // A root restricted (searchmoves, later MultiPV lines) is not the position.
                self.root_is_full = self.root_moves.len() == legal;
                let prev = result.lines.get(k).map_or(0, |l| l.score);
                let score = self.aspiration(&mut work, search_depth, prev, shared);
                if self.stopped {
                    break;
                }
                let pv = self.pv[0].clone();
                if let Some(&mv) = pv.first() {
                    lines.push(Line { mv, score, pv });
                }
            }
            if self.stopped || lines.is_empty() {
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            result.lines = lines;
            result.depth = search_depth as u32;
            // Solved: every line reached the end, or a forced win or loss was found.
            let best = result.score();
            let decided = best.abs() >= MATE_BOUND && (MATE - best.abs()) <= search_depth;
            result.solved = decided || (search_depth >= end && pos.depth_to_end().is_some());
            self.flush(shared);
            self.report(&result, multipv > 1, shared, reporter);
            if result.solved {
                reporter.note(&solved_note(best));
                break;
            }
            if ctl.soft_expired(shared.params.soft_fraction)
                || (root_moves.len() == 1 && !ctl.is_unbounded())
            {
                break;
            }
        }
        self.flush(shared);
        result
    }

    fn report(
        &self,
        result: &SearchResult<G::Move>,
        numbered: bool,
        shared: &Shared,
        reporter: &mut dyn Reporter,
    ) {
        for (k, line) in result.lines.iter().enumerate() {
            reporter.info(&SearchInfo {
                depth: result.depth,
                seldepth: self.seldepth as u32,
                multipv: numbered.then_some(k as u32 + 1),
                score: Score::from_internal(line.score),
                nodes: shared.nodes.load(Ordering::Relaxed),
                time: shared.ctl.elapsed(),
                hashfull: Some(shared.tt.hashfull()),
                pv: line.pv.iter().map(|m| m.to_string()).collect(),
            });
        }
    }
}

/// The `info string` of a solved root: the exact verdict for the side to move.
fn solved_note(score: i32) -> String {
    let plies = |n: i32| if n == 1 { "1 ply".to_string() } else { format!("{n} plies") };
    match score {
        s if s >= MATE_BOUND => format!("solved: win in {}", plies(MATE - s)),
        s if s <= -MATE_BOUND => format!("solved: loss in {}", plies(MATE + s)),
        _ => "solved: draw".to_string(),
    }
}

impl<G: Evaluate> Searcher<G> for AlphaBeta<G> {
    fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    fn set_threads(&mut self, threads: usize) {
        self.workers.resize_with(threads.max(1), || Worker::new(G::HISTORY_SIZE));
        self.searching = (threads > 1).then(|| Searching::new(SEARCHING_SETS));
        self.workers.iter_mut().for_each(|w| w.oracle.clone_from(&self.oracle));
        let network = &self.network;
        self.workers.iter_mut().filter(|w| w.net.is_none()).for_each(|w| w.set_network(network));
    }

    fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// One option per tunable field of [`SearchParams`] (see [`params`]), defaults from
    /// the game's [`Evaluate::PARAMS`].
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        params::option_specs(G::SEARCH_PREFIX, &G::PARAMS)
    }

    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        params::spsa_steps(G::SEARCH_PREFIX)
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        params::set_option(G::SEARCH_PREFIX, &mut self.params, name, value)
    }

    fn new_game(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.history.iter_mut().for_each(|h| *h = 0);
        }
    }

    fn expected_moves_left(&self, pos: &G) -> u32 {
        pos.expected_moves_left()
    }

    fn search(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> G::Move {
        self.run_restricted(pos, root_moves, ctl, reporter).best()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::morpiae::{Morpiae, MorpiaeMove, MorpiaeOptions};

    #[test]
    fn log_reductions_grow_with_depth_and_move_and_keep_a_ply() {
        // 1 + ⌊0.5 · ln 10 · ln 10⌋ = 3 at a non-PV node, one less at a PV node.
        assert_eq!(log_reduction(0.5, 10, 10, false, 9), 3);
        assert_eq!(log_reduction(0.5, 10, 10, true, 9), 2);
        // Never below 1, and the reduced search keeps at least depth 1.
        assert_eq!(log_reduction(0.5, 2, 2, true, 1), 1);
        assert_eq!(log_reduction(3.0, 40, 60, false, 4), 3);
        let mut last = 0;
        for index in 1..64 {
            let r = log_reduction(0.5, 20, index, false, 19);
            assert!(r >= last && r >= 1, "move {index}: {r} after {last}");
            last = r;
        }
        assert!(last > log_reduction(0.5, 5, 63, false, 19), "deeper nodes reduce more");
    }

    fn result(mv: u8, score: i32, depth: u32) -> SearchResult<u8> {
        SearchResult {
            lines: vec![Line { mv, score, pv: vec![mv] }],
            depth,
            solved: false,
            nodes: 0,
        }
    }

    fn morpiae_position() -> Morpiae {
        let mut pos = Morpiae::startpos(&MorpiaeOptions::default());
        for mv in ["-1,3,H,0", "-1,6,H,0"] {
            pos.play(pos.parse_move(mv).unwrap());
        }
        pos
    }

    /// One thread's search of a Morpiae position's root at depth 3, with a fresh table
    /// (moves in generation order) while the positions of `busy` are marked as searched
    /// by another thread: the score, the best move, the nodes, and whether the search
    /// cleared every mark (it clears a position's mark when it has searched it).
    fn search_beside(busy: &[u64]) -> (i32, MorpiaeMove, u64, bool) {
        let mut pos = morpiae_position();
        let searching = Searching::new(SEARCHING_SETS);
        busy.iter().for_each(|&k| searching.start(k));
        let (tt, nodes, done) =
            (TranspositionTable::new(1), AtomicU64::new(0), AtomicBool::new(false));
        let ctl = SearchControl::unlimited();
        let params = Morpiae::PARAMS;
        let shared = Shared {
            tt: &tt,
            params: &params,
            ctl: &ctl,
            nodes: &nodes,
            done: &done,
            searching: Some(&searching),
        };
        let mut w = Worker::<Morpiae>::new(Morpiae::HISTORY_SIZE);
        pos.generate_moves(&mut w.root_moves);
        let score = w.negamax(&mut pos, 3, -INF, INF, 0, &shared, false);
        let cleared = busy.iter().all(|&k| !searching.contains(k));
        (score, w.pv[0][0], w.nodes, cleared)
    }

    /// The key of the position after `mv` in [`morpiae_position`].
    fn child(mv: MorpiaeMove) -> u64 {
        let mut pos = morpiae_position();
        pos.play(mv);
        pos.hash()
    }

    #[test]
    fn moves_another_thread_is_searching_are_deferred_not_skipped() {
        let alone = search_beside(&[]);
        let mut moves = Vec::new();
        morpiae_position().generate_moves(&mut moves);
        // Every root move busy: each but the first is deferred once, in order, then
        // searched where it was, so the search is the same as alone.
        let all: Vec<u64> = moves.iter().map(|&m| child(m)).collect();
        assert_eq!(search_beside(&all), alone);
        // The best move (not the first generated) busy: searched after the others, so
        // the search differs (here another move of the same value is found first), but
        // the move is searched and the value is the same (depth 3 reduces nothing).
        assert_ne!(moves[0], alone.1);
        let deferred = search_beside(&[child(alone.1)]);
        assert_eq!(deferred.0, alone.0);
        assert_ne!((deferred.1, deferred.2), (alone.1, alone.2), "the best move was not deferred");
        assert!(deferred.3, "the best move was not searched");
    }

    #[test]
    fn pick_keeps_the_generation_order_among_equal_keys() {
        let mut moves = ['a', 'b', 'c', 'd', 'e'];
        let mut keys = [0, 0, 5, 0, 5];
        let mut order = Vec::new();
        for i in 0..moves.len() {
            pick(&mut moves, &mut keys, i);
            order.push(moves[i]);
        }
        assert_eq!(order, ['c', 'e', 'a', 'b', 'd']);
    }

    #[test]
    fn the_vote_prefers_the_move_most_threads_agree_on() {
        // Main (depth 10) alone on move 1; two helpers (depth 10 and 11) on move 2.
        let results = [result(1, 30, 10), result(2, 20, 10), result(2, 25, 11)];
        assert_eq!(results[vote(&results)].best(), 2);
    }

    #[test]
    fn the_vote_keeps_the_main_thread_when_it_outweighs_the_helpers() {
        let results = [result(1, 100, 12), result(2, 10, 12)];
        assert_eq!(vote(&results), 0);
    }

    #[test]
    fn a_proven_win_overrides_the_vote_and_the_nearest_win_is_preferred() {
        let results = [result(1, 50, 12), result(2, MATE - 9, 8), result(3, MATE - 5, 7)];
        assert_eq!(vote(&results), 2);
    }
}
