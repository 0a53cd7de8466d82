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
//! - Priors (`Mobius EvalFile`, none by default): with a network, each new child starts
//!   with the network's value of the position after its move as `Mobius EvalFile Prior`
//!   AMAF playouts (`tree::NetPrior`).
//! - The tree is kept between moves: when the next position descends from the previous
//!   root, its subtree becomes the new root. A full tree is garbage-collected (the
//!   children of its least visited nodes are dropped, see `Tree::collect`), so long
//!   searches keep expanding.
//! - Threads: each thread grows its own tree (`Hash` shared out equally) from its own
//!   seed, first over all root moves (root parallelism, CITE: Chaslot, Winands & van den
//!   Herik, "Parallel Monte-Carlo Tree Search", CG 2008), then, after [`SPLIT_AFTER`]
//!   playouts, over a share of them dealt out by the root moves' visits summed over the
//!   trees (`search::root_split`); of the shares' candidates the best mean is played.
//!   Thread 0 reports.
//! - Limits: `nodes` = playouts over all threads; `depth` N = N·1000 playouts; time from
//!   the control. With one thread the search is deterministic for a position and limit:
//!   the random generator is seeded from the position's hash.
//! - Score: w = the best move's mean result for the side to move; reported as
//!   `cp = round(400·log10(w / (1 − w)))`, w clamped to [0.001, 0.999] (±1200);
//!   an immediate win is `mate 1`, a root where the opponent holds two winning cells
//!   `mate -1` (both with an `info string solved: …` note).
//! - `MultiPV k`: the k most visited root moves (with several threads, the move to be
//!   played first), each with its win rate and variation.
//!   `go searchmoves`: the root gets only those children.

mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use super::board::Mobius;
use super::notation::MobiusMove;
use crate::core::{Game, Limits, OptionKind, OptionSpec, OptionValue};
use crate::search::nnue::{Network, load_eval_file};
use crate::search::root_split::{self, SPLIT_AFTER};
use crate::search::tunables::{self, Tunable};
use crate::search::{MctsParams, Reporter, Score, SearchControl, SearchInfo, Searcher};
use crate::tunable;
use tree::{NODE_BYTES, NetPrior, Tree};

/// Mobius's constants of the Monte Carlo search (the shared [`MctsParams`]; the RAVE
/// bias `b` of β = ñ / (n + ñ + b·n·ñ) as the generic search reads it).
pub const PARAMS: MctsParams = MctsParams { exploration: 0.0, expand_after: 8, rave_bias: 0.002 };

/// Mixed into the position hash to seed the playouts.
const PLAYOUT_SEED: u64 = 0x5EED_2008;

/// The tunable constants (all of [`MctsParams`]): the exploration in
/// thousandths, the RAVE bias in millionths, the visits before expansion.
const TUNABLES: [Tunable<MctsParams>; 3] = [
    tunable!(MctsParams, "Mobius Search Exploration", exploration, permille, 0, 10_000, 50),
    tunable!(MctsParams, "Mobius Search RAVE Bias", rave_bias, per_million, 0, 1_000_000, 200),
    tunable!(MctsParams, "Mobius Search Expand After", expand_after, uint, 1, 10_000, 1),
];

/// The option naming a network whose values are the priors of new children.
const EVAL_FILE: &str = "Mobius EvalFile";
/// The value of `Mobius EvalFile` for no network.
const NO_NETWORK: &str = "<empty>";
/// The option setting what a prior is worth, in simulations.
const PRIOR: &str = "Mobius EvalFile Prior";
/// Its default.
const PRIOR_DEFAULT: u32 = 20;

/// Playouts of one thread between checks of the clock and progress reports (`stop` and
/// the end of thread 0's search are seen after every playout).
const CHECK_EVERY: u64 = 16;
/// Time between progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(500);
/// Mixed into the seed of each helper thread's playouts.
const HELPER_SEED: u64 = 0x9E37_79B9_7F4A_7C15;
/// The thread that searches each root move once the threads have split them.
type Partition = Vec<(MobiusMove, usize)>;

/// A root child's statistics, summed over threads.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RootStat {
    mv: MobiusMove,
    visits: u64,
    wins: f64,
}

/// What a helper thread last published for the reports of thread 0.
#[derive(Clone, Debug, Default)]
struct Snapshot {
    children: Vec<RootStat>,
    tree_nodes: usize,
    seldepth: u32,
}

impl Snapshot {
    fn of(t: &Tree) -> Snapshot {
        Snapshot { children: merged(t, &[]), tree_nodes: t.len(), seldepth: t.seldepth }
    }
}

/// State shared by the threads of one search.
struct Shared {
    /// Playouts completed by all threads.
    playouts: AtomicU64,
    /// Raised by thread 0 when the search ends.
    done: AtomicBool,
    /// Playout budget over all threads, if any.
    budget: Option<u64>,
    /// One per helper thread.
    snapshots: Vec<Mutex<Snapshot>>,
    /// Set by thread 0 when the threads split the root moves.
    partition: OnceLock<Partition>,
}

/// The MCTS searcher of Mobius.
pub struct Mcts {
    params: MctsParams,
    hash_mb: usize,
    /// Root moves reported (`MultiPV`).
    multipv: usize,
    /// One tree per thread; thread 0's tree first.
    trees: Vec<Tree>,
    /// The network of the priors (`Mobius EvalFile`), if any ...
    network: Option<Arc<Network>>,
    /// ... and what its prior is worth in simulations (`Mobius EvalFile Prior`).
    prior_visits: u32,
}

impl Mcts {
    /// A one-thread search whose trees use about `hash_mb` megabytes at most.
    pub fn new(hash_mb: usize, params: MctsParams) -> Mcts {
        let mut m = Mcts {
            params,
            hash_mb,
            multipv: 1,
            trees: Vec::new(),
            network: None,
            prior_visits: PRIOR_DEFAULT,
        };
        m.rebuild(1);
        m
    }

    /// Recreates `threads` empty trees sharing the hash budget.
    fn rebuild(&mut self, threads: usize) {
        let capacity = ((self.hash_mb.max(1) << 20) / NODE_BYTES / threads).max(CELLS_PLUS_ROOT);
        let prior = self
            .network
            .as_ref()
            .map(|net| NetPrior { net: Arc::clone(net), visits: self.prior_visits });
        self.trees =
            (0..threads).map(|_| Tree::new(capacity, self.params, prior.clone())).collect();
    }

    /// Number of nodes in the search trees (kept between moves of one game).
    pub fn tree_nodes(&self) -> usize {
        self.trees.iter().map(Tree::len).sum()
    }

    /// Nodes created by expansions in the last search, over all threads.
    pub fn expanded_nodes(&self) -> u64 {
        self.trees.iter().map(|t| t.expanded).sum()
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
        let seed = PLAYOUT_SEED ^ pos.hash();
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        let only = (root_moves.len() < legal.len()).then_some(root_moves);
        for (i, t) in self.trees.iter_mut().enumerate() {
            t.prepare(pos, seed ^ HELPER_SEED.wrapping_mul(i as u64), only);
        }
        let shared = Shared {
            playouts: AtomicU64::new(0),
            done: AtomicBool::new(false),
            budget: ctl.max_nodes().or(ctl.max_depth().map(|d| u64::from(d) * 1000)),
            snapshots: (1..self.trees.len()).map(|_| Mutex::default()).collect(),
            partition: OnceLock::new(),
        };
        let out = Output { lines: self.multipv, solved: solved(pos, only.is_some()) };
        let (main, helpers) = self.trees.split_first_mut().expect("at least one tree");
        // A single child is an immediate win, the one forced block or the one move asked.
        if let [child] = &main.root_children()[..] {
            let mv = child.mv;
            out.report(main, &[], &[main], &shared, ctl, reporter);
            return (mv, out.score(&merged(main, &[]), mv));
        }
        let threads = helpers.len() + 1;
        std::thread::scope(|s| {
            for (i, (tree, snapshot)) in helpers.iter_mut().zip(&shared.snapshots).enumerate() {
                let shared = &shared;
                let mut split = false;
                s.spawn(move || {
                    work(tree, pos, ctl, shared, |t| {
                        if !split && let Some(partition) = shared.partition.get() {
                            t.restrict_root(|mv| owner(partition, mv) == i + 1);
                            split = true;
                        }
                        *snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Snapshot::of(t);
                        false
                    })
                });
            }
            let mut last_report = ctl.elapsed();
            work(main, pos, ctl, &shared, |t| {
                if ctl.soft_expired(1.0) {
                    return true;
                }
                if threads > 1
                    && shared.partition.get().is_none()
                    && shared.playouts.load(Ordering::Relaxed) >= SPLIT_AFTER
                {
                    let partition = deal(&merged(t, &snapshots(&shared)), threads);
                    t.restrict_root(|mv| owner(&partition, mv) == 0);
                    // Only thread 0 sets it.
                    let _ = shared.partition.set(partition);
                }
                if ctl.elapsed() - last_report >= REPORT_EVERY {
                    last_report = ctl.elapsed();
                    out.report(t, &snapshots(&shared), &[t], &shared, ctl, reporter);
                }
                false
            });
            shared.done.store(true, Ordering::Relaxed);
        });
        // The helpers have finished: their trees are read directly.
        let snaps: Vec<Snapshot> = helpers.iter().map(Snapshot::of).collect();
        let stats = merged(main, &snaps);
        let mv = choose(&stats, shared.partition.get());
        let trees: Vec<&Tree> = std::iter::once(&*main).chain(helpers.iter()).collect();
        out.report(main, &snaps, &trees, &shared, ctl, reporter);
        (mv, out.score(&stats, mv))
    }
}

/// Enough nodes for a root and all its children, whatever `Hash` says.
const CELLS_PLUS_ROOT: usize = super::geometry::CELLS + 2;

/// The search loop of one thread: playouts until the budget, `stop`, the clock or the end
/// of thread 0's search; `check` runs every [`CHECK_EVERY`] playouts and ends the loop by
/// returning true.
fn work(
    tree: &mut Tree,
    pos: &Mobius,
    ctl: &SearchControl,
    shared: &Shared,
    mut check: impl FnMut(&mut Tree) -> bool,
) {
    let mut local = 0u64;
    loop {
        let total = shared.playouts.load(Ordering::Relaxed);
        if shared.budget.is_some_and(|b| total >= b) {
            break;
        }
        if shared.done.load(Ordering::Relaxed) || ctl.stop_requested() {
            break;
        }
        if local.is_multiple_of(CHECK_EVERY) && local > 0 && (ctl.must_stop(total) || check(tree)) {
            break;
        }
        tree.iterate(pos);
        shared.playouts.fetch_add(1, Ordering::Relaxed);
        local += 1;
    }
}

/// The latest snapshots of the helper threads.
fn snapshots(shared: &Shared) -> Vec<Snapshot> {
    shared.snapshots.iter().map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).clone()).collect()
}

/// The root children of `main` with the statistics of every snapshot added (children
/// matched by move; all trees expand the root of one position identically).
fn merged(main: &Tree, snaps: &[Snapshot]) -> Vec<RootStat> {
    let mut stats: Vec<RootStat> = main
        .root_children()
        .iter()
        .map(|c| RootStat { mv: c.mv, visits: u64::from(c.visits), wins: f64::from(c.wins) })
        .collect();
    for snap in snaps {
        for theirs in &snap.children {
            if let Some(s) = stats.iter_mut().find(|s| s.mv == theirs.mv) {
                s.visits += theirs.visits;
                s.wins += theirs.wins;
            }
        }
    }
    stats
}

/// The root children, most visited first (the first of equals first).
fn ranked(stats: &[RootStat]) -> Vec<RootStat> {
    let mut order: Vec<usize> = (0..stats.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(stats[i].visits), i));
    order.into_iter().map(|i| stats[i]).collect()
}

/// The root moves of `stats` dealt out to `threads` threads ([`root_split::deal`]).
fn deal(stats: &[RootStat], threads: usize) -> Partition {
    let visits: Vec<u64> = stats.iter().map(|s| s.visits).collect();
    stats.iter().map(|s| s.mv).zip(root_split::deal(&visits, threads)).collect()
}

/// The thread that searches `mv` (thread 0 for a move the partition does not name).
fn owner(partition: &Partition, mv: MobiusMove) -> usize {
    partition.iter().find(|&&(m, _)| m == mv).map_or(0, |&(_, t)| t)
}

/// The move to play: without a split the most visited root move, with one the best
/// candidate of the shares ([`root_split::choose`]).
fn choose(stats: &[RootStat], partition: Option<&Partition>) -> MobiusMove {
    let Some(partition) = partition else {
        return ranked(stats)[0].mv;
    };
    let visits: Vec<u64> = stats.iter().map(|s| s.visits).collect();
    let means: Vec<f64> = stats.iter().map(|s| s.wins / s.visits.max(1) as f64).collect();
    let owners: Vec<usize> = stats.iter().map(|s| owner(partition, s.mv)).collect();
    stats[root_split::choose(&visits, &means, &owners)].mv
}

/// The root children in the order reported: the move [`choose`] plays first, then the
/// others most visited first.
fn reported_order(stats: &[RootStat], partition: Option<&Partition>) -> Vec<RootStat> {
    let best = choose(stats, partition);
    let mut order = ranked(stats);
    if let Some(k) = order.iter().position(|s| s.mv == best) {
        let chosen = order.remove(k);
        order.insert(0, chosen);
    }
    order
}

/// The mean result of a root move for the side to move, mapped to `cp` (module doc).
fn win_rate_score(s: &RootStat) -> Score {
    if s.visits == 0 {
        return Score::Cp(0);
    }
    let w = (s.wins / s.visits as f64).clamp(0.001, 0.999);
    Score::Cp((400.0 * (w / (1.0 - w)).log10()).round() as i32)
}

/// The variation after root move `mv` in whichever of `trees` visited it most.
fn variation(trees: &[&Tree], mv: MobiusMove) -> Vec<MobiusMove> {
    trees.iter().max_by_key(|t| t.root_visits(mv)).map_or_else(Vec::new, |t| t.line_after(mv))
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

    /// Reports the merged search state: the `lines` best root moves (one line each, best
    /// first, in [`reported_order`]), each with its variation in whichever tree of
    /// `lines_from` visited it most (thread 0's alone while the helpers run), playouts
    /// and tree sizes over all threads; and a note when the root is solved.
    fn report(
        &self,
        main: &Tree,
        snaps: &[Snapshot],
        lines_from: &[&Tree],
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
        let stats = merged(main, snaps);
        let used = main.len() + snaps.iter().map(|s| s.tree_nodes).sum::<usize>();
        let capacity = main.capacity() * (snaps.len() + 1);
        let seldepth = snaps.iter().map(|s| s.seldepth).fold(main.seldepth, u32::max);
        let ranked = reported_order(&stats, shared.partition.get());
        let lines = self.lines.min(ranked.len());
        for (k, stat) in ranked[..lines].iter().enumerate() {
            // Only the best line gets the solved score: the others are not proven.
            let score = if k == 0 { self.score(&stats, stat.mv) } else { win_rate_score(stat) };
            let pv: Vec<String> = std::iter::once(stat.mv)
                .chain(variation(lines_from, stat.mv))
                .map(|m| m.to_string())
                .collect();
            reporter.info(&SearchInfo {
                depth: pv.len() as u32,
                seldepth,
                multipv: (self.lines > 1).then_some(k as u32 + 1),
                score,
                nodes: shared.playouts.load(Ordering::Relaxed),
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
        self.rebuild(self.trees.len());
    }

    fn set_threads(&mut self, threads: usize) {
        self.rebuild(threads.max(1));
    }

    fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// The tunable constants (`TUNABLES`), defaults from [`PARAMS`], and what a prior
    /// of the network is worth (`Mobius EvalFile Prior`).
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        let mut specs = tunables::named_option_specs(&TUNABLES, &PARAMS);
        specs.push(OptionSpec {
            name: PRIOR,
            kind: OptionKind::Spin { default: i64::from(PRIOR_DEFAULT), min: 0, max: 1000 },
        });
        specs
    }

    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        tunables::named_spsa_steps(&TUNABLES)
    }

    /// `Mobius EvalFile`: a network for the priors of new children.
    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![OptionSpec { name: EVAL_FILE, kind: OptionKind::Str { default: NO_NETWORK } }]
    }

    /// Sets the network, its prior's worth or one constant; the trees are emptied, since
    /// their values were computed with the old ones. A network that cannot be loaded
    /// changes nothing.
    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (EVAL_FILE, OptionValue::Text(path)) => {
                self.network = load_eval_file::<Mobius>(EVAL_FILE, path)?;
            }
            (PRIOR, &OptionValue::Int(v)) if (0..=1000).contains(&v) => {
                self.prior_visits = v as u32;
            }
            (PRIOR, v) => return Err(format!("option '{PRIOR}' cannot take {v:?}")),
            _ => {
                if !tunables::set_named_option(&TUNABLES, &mut self.params, name, value)? {
                    return Err(format!("unknown option '{name}'"));
                }
            }
        }
        self.rebuild(self.trees.len());
        Ok(())
    }

    fn new_game(&mut self) {
        self.trees.iter_mut().for_each(Tree::clear);
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
    use super::{MobiusMove, RootStat, deal, reported_order};

    #[test]
    fn the_move_to_play_is_reported_first_and_shares_are_keyed_by_move() {
        let stat = |cell, visits, wins| RootStat { mv: MobiusMove(cell), visits, wins };
        let stats =
            [stat(7, 900, 540.0), stat(9, 1000, 580.0), stat(4, 50, 45.0), stat(5, 10, 1.0)];
        let partition = deal(&stats, 2);
        assert_eq!(
            partition,
            [(MobiusMove(7), 1), (MobiusMove(9), 0), (MobiusMove(4), 0), (MobiusMove(5), 1)]
        );
        let order = |p| reported_order(&stats, p).iter().map(|s| s.mv.0).collect::<Vec<u8>>();
        // Cell 7's mean (0.6) beats cell 9's (0.58): played, and reported first.
        assert_eq!(order(Some(&partition)), [7, 9, 4, 5]);
        // Without a split, the most visited.
        assert_eq!(order(None), [9, 7, 4, 5]);
    }

    #[test]
    fn eval_file_loads_a_network_for_the_priors_and_a_bad_file_keeps_the_current_one() {
        use super::{EVAL_FILE, Mcts, PARAMS, PRIOR};
        use crate::core::{Game, Limits, OptionValue};
        use crate::games::mobius::{Mobius, MobiusOptions};
        use crate::search::nnue::{Features, Network};
        use crate::search::{NullReporter, SearchControl, Searcher};
        let net = Network::random_within("mobius", Mobius::FEATURE_COUNT, 16, 8, 0.2);
        let dir = std::env::temp_dir().join(format!("ugine-mobius-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (good, bad) = (dir.join("good.nnue"), dir.join("bad.nnue"));
        std::fs::write(&good, net.to_bytes()).unwrap();
        std::fs::write(&bad, &net.to_bytes()[..100]).unwrap();
        let text = |p: &std::path::Path| OptionValue::Text(p.display().to_string());

        let pos = Mobius::startpos(&MobiusOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let run = |m: &mut Mcts| {
            m.new_game();
            let ctl = SearchControl::fixed(None, Some(3000));
            m.search(&pos, &moves, &Limits::nodes(3000), &ctl, &mut NullReporter);
            m.trees[0].root_children().iter().map(|c| c.visits).collect::<Vec<_>>()
        };
        let mut m = Mcts::new(8, PARAMS);
        let without = run(&mut m);
        m.set_option(EVAL_FILE, &text(&good)).unwrap();
        assert_eq!(m.network.as_deref(), Some(&net));
        let with = run(&mut m);
        assert_ne!(with, without, "the priors change the search");
        assert_eq!(run(&mut m), with, "deterministic with one thread");
        let err = m.set_option(EVAL_FILE, &text(&bad)).unwrap_err();
        assert!(err.contains("bad.nnue") && err.contains("unchanged"), "{err}");
        assert_eq!(m.network.as_deref(), Some(&net), "kept");
        assert!(m.set_option(PRIOR, &OptionValue::Int(1001)).is_err());
        m.set_option(PRIOR, &OptionValue::Int(0)).unwrap();
        assert_eq!(run(&mut m), without, "a prior worth nothing");
        m.set_option(EVAL_FILE, &OptionValue::Text("<empty>".into())).unwrap();
        assert!(m.network.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
