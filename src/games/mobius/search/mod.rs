//! Monte Carlo tree search for Mobius: UCT with RAVE (all-moves-as-first) values, on one
//! or more threads.
//!
//! CITE: Gelly & Silver, "Monte-Carlo tree search and rapid action value estimation in
//! computer Go", Artificial Intelligence 175 (2011): a child's value blends its own mean
//! with its AMAF mean, weight β = ñ / (n + ñ + 4b²·n·ñ) (their minimum-MSE schedule).
//!
//! - Playouts fill every empty cell at random (alternating colours) and, under the
//!   DEFAULT rule, decide the winner once at the end with one win test on bitboards
//!   (`playout`, `flood`): exactly one player qualifies on a full board, and since
//!   networks only grow, that player is the one who would have qualified first. Under
//!   the other rules the fill is played stone by stone with the incremental win test.
//! - Expansion knows immediate wins and forced blocks: if the side to move can win at
//!   once the node gets that one child; else if the opponent threatens to win on some
//!   cells, the only children are those cells (any other move loses at once).
//! - The tree is kept between moves: when the next position descends from the previous
//!   root, its subtree becomes the new root. A full tree is garbage-collected (the
//!   children of its least visited nodes are dropped, see `Tree::collect`), so long
//!   searches keep expanding.
//! - Threads: tree parallelism with virtual loss (`shared`; CITE: Chaslot, Winands & van
//!   den Herik, "Parallel Monte-Carlo Tree Search", CG 2008; Enzenberger & Müller 2009):
//!   with N > 1 threads all grow one tree of atomic statistics, each from its own seed;
//!   a node's visit counts when a thread descends into it, its result when the playout
//!   is backed up. When the tree fills, thread 0 pauses the others between two
//!   iterations and collects it as one thread would. One thread keeps the plain columns
//!   (vectorized, deterministic). Thread 0 reports and picks the move.
//! - Limits: `nodes` = playouts over all threads; `depth` N = N·1000 playouts; time from
//!   the control. With one thread the search is deterministic for a position and limit:
//!   the random generator is seeded from the position's hash.
//! - Score: w = the best move's mean result for the side to move; reported as
//!   `cp = round(400·log10(w / (1 − w)))`, w clamped to [0.001, 0.999] (±1200);
//!   an immediate win is `mate 1`, a root where the opponent holds two winning cells
//!   `mate -1` (both with an `info string solved: …` note).
//! - `MultiPV k`: the k most visited root moves, each with its win rate and variation.
//!   `go searchmoves`: the root gets only those children.

mod shared;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use super::board::Mobius;
use super::notation::MobiusMove;
use crate::core::{Game, Limits, OptionKind, OptionSpec, OptionValue};
use crate::search::{Reporter, Score, SearchControl, SearchInfo, Searcher};
use tree::{NODE_BYTES, NodesRef, Store, Tree, Worker, collect_shared, line_after, root_children};

/// The tunable constants of the search, in one table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// 4b² of the RAVE schedule: the smaller, the longer AMAF values are trusted.
    pub rave_bias: f32,
    /// UCT exploration constant on top of the blended value.
    pub exploration: f32,
    /// A leaf is expanded once it has been visited this many times (the root always).
    pub expand_after: u32,
    /// Mixed into the position hash to seed the playouts.
    pub seed: u64,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams { rave_bias: 0.002, exploration: 0.0, expand_after: 8, seed: 0x5EED_2008 }
    }
}

/// The option setting [`MctsParams::exploration`], in thousandths.
pub const EXPLORATION: &str = "Mobius Search Exploration";
/// The option setting [`MctsParams::rave_bias`], in millionths.
pub const RAVE_BIAS: &str = "Mobius Search RAVE Bias";
/// The option setting [`MctsParams::expand_after`].
pub const EXPAND_AFTER: &str = "Mobius Search Expand After";

/// A real parameter as a `spin` value in units of `1/scale`.
fn scaled(x: f32, scale: f64) -> i64 {
    (f64::from(x) * scale).round() as i64
}

/// Playouts of one thread between checks of the clock and progress reports (`stop` and
/// the end of thread 0's search are seen after every playout).
const CHECK_EVERY: u64 = 16;
/// Time between progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(500);
/// Mixed into the seed of each helper thread's playouts.
const HELPER_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// A root child's statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RootStat {
    mv: MobiusMove,
    visits: u64,
    wins: f64,
}

/// A value alone on its cache lines, so that the threads' writes to it, at every
/// playout, do not slow their reads of its neighbours.
#[repr(align(128))]
struct Padded<T>(T);

/// State shared by the threads of one search.
struct Shared {
    /// Playouts started by all threads (all completed once the threads have returned).
    playouts: Padded<AtomicU64>,
    /// Raised by thread 0 when the search ends.
    done: AtomicBool,
    /// Playout budget over all threads, if any.
    budget: Option<u64>,
    /// Deepest path of any thread.
    seldepth: AtomicU32,
    /// Raised by thread 0 to have the helpers wait between iterations (while it collects
    /// the full shared tree).
    pause: AtomicBool,
    /// Helpers waiting for the end of a pause.
    parked: AtomicUsize,
    /// Helpers still searching.
    running: AtomicUsize,
}

impl Shared {
    /// Counts the start of a playout; false when the budget is spent.
    fn start_playout(&self) -> bool {
        match self.budget {
            None => {
                self.playouts.0.fetch_add(1, Ordering::Relaxed);
                true
            }
            Some(b) => self
                .playouts
                .0
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n < b).then_some(n + 1))
                .is_ok(),
        }
    }

    /// Thread 0: runs `f` while every helper waits between two iterations.
    fn exclusive(&self, f: impl FnOnce()) {
        self.pause.store(true, Ordering::SeqCst);
        while self.parked.load(Ordering::SeqCst) < self.running.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        f();
        self.pause.store(false, Ordering::SeqCst);
        // Every helper leaves the pause before another can begin.
        while self.parked.load(Ordering::SeqCst) > 0 {
            std::thread::yield_now();
        }
    }

    /// A helper between two iterations: waits while thread 0 has paused the helpers.
    fn wait_if_paused(&self) {
        if self.pause.load(Ordering::SeqCst) {
            self.parked.fetch_add(1, Ordering::SeqCst);
            while self.pause.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            self.parked.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The MCTS searcher of Mobius.
pub struct Mcts {
    params: MctsParams,
    hash_mb: usize,
    /// Root moves reported (`MultiPV`).
    multipv: usize,
    threads: usize,
    tree: Tree,
}

impl Mcts {
    /// A one-thread search whose tree uses about `hash_mb` megabytes at most.
    pub fn new(hash_mb: usize, params: MctsParams) -> Mcts {
        let mut m = Mcts { params, hash_mb, multipv: 1, threads: 1, tree: Tree::new(1, params, 1) };
        m.rebuild();
        m
    }

    /// Recreates an empty tree.
    fn rebuild(&mut self) {
        let capacity = ((self.hash_mb.max(1) << 20) / NODE_BYTES).max(CELLS_PLUS_ROOT);
        self.tree = Tree::new(capacity, self.params, self.threads);
    }

    /// Number of nodes in the search tree (kept between moves of one game).
    pub fn tree_nodes(&self) -> usize {
        self.tree.len()
    }

    /// Nodes created by expansions in the last search, over all threads.
    pub fn expanded_nodes(&self) -> u64 {
        self.tree.workers().iter().map(|w| w.expanded).sum()
    }

    /// Runs the search on `pos` (not over) and returns the best move and its score.
    pub fn run(
        &mut self,
        pos: &Mobius,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> (MobiusMove, Score) {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        self.run_among(pos, &moves, ctl, reporter)
    }

    /// Runs the search on `pos` (not over) considering only `root_moves` (legal, not
    /// empty) at the root, and returns the best move and its score.
    pub fn run_among(
        &mut self,
        pos: &Mobius,
        root_moves: &[MobiusMove],
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> (MobiusMove, Score) {
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        let only = (root_moves.len() < legal.len()).then_some(root_moves);
        self.tree.prepare(pos, self.params.seed ^ pos.hash(), HELPER_SEED, only);
        let shared = Shared {
            playouts: Padded(AtomicU64::new(0)),
            done: AtomicBool::new(false),
            budget: ctl.max_nodes().or(ctl.max_depth().map(|d| u64::from(d) * 1000)),
            seldepth: AtomicU32::new(0),
            pause: AtomicBool::new(false),
            parked: AtomicUsize::new(0),
            running: AtomicUsize::new(self.threads - 1),
        };
        let out = Output { lines: self.multipv, solved: solved(pos, only.is_some()) };
        let capacity = self.tree.capacity();
        // A single child is an immediate win, the one forced block or the one move asked.
        if let [child] = &root_children(&self.tree.nodes())[..] {
            let mv = child.mv;
            out.report(self.tree.nodes(), capacity, &shared, ctl, reporter);
            return (mv, out.score(&stats(self.tree.nodes()), mv));
        }
        let mut last_report = ctl.elapsed();
        let mut check = |nodes: NodesRef| {
            if ctl.soft_expired(1.0) {
                return true;
            }
            if ctl.elapsed() - last_report >= REPORT_EVERY {
                last_report = ctl.elapsed();
                out.report(nodes, capacity, &shared, ctl, reporter);
            }
            false
        };
        let params = self.params;
        let tree = &mut self.tree;
        match tree.shared() {
            None => work(tree, ctl, &shared, |t| t.iterate_alone(pos), |t| check(t.nodes())),
            Some((nodes, workers)) => {
                let (main, helpers) = workers.split_first_mut().expect("a worker per thread");
                let shared = &shared;
                std::thread::scope(|s| {
                    for worker in helpers {
                        s.spawn(move || {
                            let step = |w: &mut Worker| {
                                shared.wait_if_paused();
                                w.iterate(&mut &*nodes, &params, pos);
                                w.seldepth
                            };
                            work(worker, ctl, shared, step, |_| false);
                            shared.running.fetch_sub(1, Ordering::SeqCst);
                        });
                    }
                    let step = |w: &mut Worker| {
                        if nodes.is_full() {
                            shared.exclusive(|| collect_shared(nodes));
                        }
                        w.iterate(&mut &*nodes, &params, pos);
                        w.seldepth
                    };
                    work(main, ctl, shared, step, |_| check(NodesRef::Shared(nodes)));
                    shared.done.store(true, Ordering::Relaxed);
                });
            }
        }
        let stats = stats(self.tree.nodes());
        let mv = ranked(&stats)[0].mv;
        out.report(self.tree.nodes(), capacity, &shared, ctl, reporter);
        (mv, out.score(&stats, mv))
    }
}

/// Enough nodes for a root and all its children, whatever `Hash` says.
const CELLS_PLUS_ROOT: usize = super::geometry::CELLS + 2;

/// The search loop of one thread: playouts until the budget, `stop`, the clock or the end
/// of thread 0's search. `step` runs one iteration on `state` and returns the thread's
/// deepest path so far; `check` runs every [`CHECK_EVERY`] playouts and ends the loop by
/// returning true.
fn work<T>(
    state: &mut T,
    ctl: &SearchControl,
    shared: &Shared,
    mut step: impl FnMut(&mut T) -> u32,
    mut check: impl FnMut(&T) -> bool,
) {
    let mut local = 0u64;
    let mut seldepth = 0;
    loop {
        if shared.done.load(Ordering::Relaxed) || ctl.stop_requested() {
            break;
        }
        if local.is_multiple_of(CHECK_EVERY)
            && local > 0
            && (ctl.must_stop(shared.playouts.0.load(Ordering::Relaxed)) || check(state))
        {
            break;
        }
        if !shared.start_playout() {
            break;
        }
        let depth = step(state);
        if depth > seldepth {
            seldepth = depth;
            shared.seldepth.fetch_max(depth, Ordering::Relaxed);
        }
        local += 1;
    }
}

/// The root children's statistics.
fn stats(nodes: NodesRef) -> Vec<RootStat> {
    root_children(&nodes)
        .iter()
        .map(|c| RootStat { mv: c.mv, visits: u64::from(c.visits), wins: f64::from(c.wins) })
        .collect()
}

/// The root children, most visited first (the first of equals first).
fn ranked(stats: &[RootStat]) -> Vec<RootStat> {
    let mut order: Vec<usize> = (0..stats.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(stats[i].visits), i));
    order.into_iter().map(|i| stats[i]).collect()
}

/// The mean result of a root move for the side to move, mapped to `cp` (module doc).
fn win_rate_score(s: &RootStat) -> Score {
    if s.visits == 0 {
        return Score::Cp(0);
    }
    let w = (s.wins / s.visits as f64).clamp(0.001, 0.999);
    Score::Cp((400.0 * (w / (1.0 - w)).log10()).round() as i32)
}

/// A root the rules decide at once: the side to move wins with one move, or the opponent
/// holds two or more winning cells (one stone cannot take both, and no stone of ours
/// changes the opponent's network), so every move loses.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Solved {
    Win,
    Loss(usize),
}

/// What the rules say of the root `pos` before any search (a restricted root is not
/// judged: its moves were chosen by the user).
fn solved(pos: &Mobius, restricted: bool) -> Option<Solved> {
    if restricted {
        return None;
    }
    let stm = pos.side_to_move();
    if !tree::winning_cells(pos, stm).is_empty() {
        return Some(Solved::Win);
    }
    let threats = tree::winning_cells(pos, stm.opponent()).len();
    (threats >= 2).then_some(Solved::Loss(threats))
}

/// How a search reports: the lines asked for and what the rules decided.
struct Output {
    lines: usize,
    solved: Option<Solved>,
}

impl Output {
    /// The score of root move `mv`: exact when the root is solved, else its win rate.
    fn score(&self, stats: &[RootStat], mv: MobiusMove) -> Score {
        match self.solved {
            Some(Solved::Win) => Score::Mate(1),
            Some(Solved::Loss(_)) => Score::Mate(-1),
            None => stats.iter().find(|s| s.mv == mv).map_or(Score::Cp(0), win_rate_score),
        }
    }

    /// Reports the search state of `nodes` (a tree of at most `capacity` nodes): the
    /// `lines` most visited root moves (one line each, best first, with the tree's
    /// variation after the move), playouts and the deepest path over all threads; and a
    /// note when the root is solved.
    fn report(
        &self,
        nodes: NodesRef,
        capacity: usize,
        shared: &Shared,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) {
        match self.solved {
            Some(Solved::Win) => reporter.note("solved: win (the side to move wins at once)"),
            Some(Solved::Loss(n)) => reporter.note(&format!(
                "solved: loss (the opponent has {n} winning cells and wins next move)"
            )),
            None => {}
        }
        let stats = stats(nodes);
        let used = nodes.len();
        let seldepth = shared.seldepth.load(Ordering::Relaxed);
        let ranked = ranked(&stats);
        let lines = self.lines.min(ranked.len());
        for (k, stat) in ranked[..lines].iter().enumerate() {
            // Only the best line gets the solved score: the others are not proven.
            let score = if k == 0 { self.score(&stats, stat.mv) } else { win_rate_score(stat) };
            let pv: Vec<String> = std::iter::once(stat.mv)
                .chain(line_after(&nodes, stat.mv))
                .map(|m| m.to_string())
                .collect();
            reporter.info(&SearchInfo {
                depth: pv.len() as u32,
                seldepth,
                multipv: (self.lines > 1).then_some(k as u32 + 1),
                score,
                nodes: shared.playouts.0.load(Ordering::Relaxed),
                time: ctl.elapsed(),
                hashfull: Some((used as u64 * 1000 / capacity.max(1) as u64) as u32),
                pv,
            });
        }
    }
}

impl Searcher<Mobius> for Mcts {
    fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.rebuild();
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.rebuild();
    }

    fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// The tunable constants ([`MctsParams`] but the seed), defaults from
    /// [`MctsParams::default`].
    fn option_specs(&self) -> Vec<OptionSpec> {
        let d = MctsParams::default();
        let spin = |name, default, min, max| OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
        };
        vec![
            spin(EXPLORATION, scaled(d.exploration, 1e3), 0, 10_000),
            spin(RAVE_BIAS, scaled(d.rave_bias, 1e6), 0, 1_000_000),
            spin(EXPAND_AFTER, d.expand_after.into(), 1, 10_000),
        ]
    }

    /// Sets one constant; the trees are emptied, since their values were computed with
    /// the old ones.
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        let &OptionValue::Int(v) = value else {
            return Err(format!("option '{name}' takes an integer"));
        };
        match name {
            EXPLORATION => self.params.exploration = (v as f64 / 1e3) as f32,
            RAVE_BIAS => self.params.rave_bias = (v as f64 / 1e6) as f32,
            // Within the spec's range, so it fits.
            EXPAND_AFTER => self.params.expand_after = v as u32,
            _ => return Err(format!("unknown option '{name}'")),
        }
        self.rebuild();
        Ok(())
    }

    fn new_game(&mut self) {
        self.tree.clear();
    }

    fn expected_moves_left(&self, pos: &Mobius) -> u32 {
        ((super::geometry::CELLS - pos.stones()) as u32 / 3).clamp(5, 40)
    }

    fn search(
        &mut self,
        pos: &Mobius,
        root_moves: &[MobiusMove],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MobiusMove {
        self.run_among(pos, root_moves, ctl, reporter).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mobius::MobiusOptions;
    use crate::search::NullReporter;

    /// Searches the start position with `threads` threads, `hash_mb` and `playouts`.
    fn searched(threads: usize, hash_mb: usize, playouts: u64) -> Mcts {
        let pos = Mobius::startpos(&MobiusOptions::default());
        let mut m = Mcts::new(hash_mb, MctsParams::default());
        m.set_threads(threads);
        m.run(&pos, &SearchControl::fixed(None, Some(playouts)), &mut NullReporter);
        m
    }

    /// Every visit of a node was backed up along one path of one playout: a node's
    /// visits are at least its children's, the rest are the playouts that ended at it
    /// (before its expansion, or while another thread expanded it, or at most `slack`),
    /// and these add up to `playouts`. Its wins are at most its visits.
    fn assert_visits_add_up(nodes: NodesRef, playouts: u64, slack: u32) {
        let mut ended = 0u64;
        for i in 0..nodes.len() {
            let n = nodes.node(i);
            assert!(n.wins <= n.visits as f32, "node {i}: {n:?}");
            let below: u32 = nodes.child_range(i).map(|c| nodes.visits(c)).sum();
            assert!(below <= n.visits, "node {i}: {below} below {n:?}");
            if below > 0 {
                assert!(n.visits - below <= slack, "node {i}: {below} below {n:?}");
            }
            ended += u64::from(n.visits - below);
        }
        assert_eq!(ended, playouts);
    }

    #[test]
    fn two_threads_grow_one_tree_whose_visits_add_up() {
        let m = searched(2, 16, 40_000);
        let nodes = m.tree.nodes();
        assert!(matches!(nodes, NodesRef::Shared(_)));
        // The root's visits are exactly the playouts of both threads.
        assert_eq!(nodes.visits(0), 40_000);
        let root: u32 = root_children(&nodes).iter().map(|c| c.visits).sum();
        assert_eq!(root, 40_000);
        // A thread expanding a leaf may be descheduled while the other plays out from it.
        assert_visits_add_up(nodes, 40_000, u32::MAX);
        // Both threads expanded nodes of the one tree (the root's by thread 0).
        assert!(m.tree.workers().iter().all(|w| w.expanded > 0));
        assert_eq!(m.expanded_nodes() + 1, m.tree_nodes() as u64);
    }

    #[test]
    fn one_thread_visits_add_up_too() {
        let m = searched(1, 16, 20_000);
        let nodes = m.tree.nodes();
        assert!(matches!(nodes, NodesRef::One(_)));
        assert_eq!(nodes.visits(0), 20_000);
        assert_visits_add_up(nodes, 20_000, MctsParams::default().expand_after);
    }

    #[test]
    fn two_threads_collect_a_full_tree_during_the_search() {
        let m = searched(2, 1, 30_000);
        // More nodes were created than the tree holds: it filled and was collected.
        assert!(m.expanded_nodes() > m.tree.capacity() as u64, "{}", m.expanded_nodes());
        assert!(m.tree_nodes() <= m.tree.capacity());
        let nodes = m.tree.nodes();
        assert_eq!(nodes.visits(0), 30_000);
        let root: u32 = root_children(&nodes).iter().map(|c| c.visits).sum();
        assert_eq!(root, 30_000);
    }
}
