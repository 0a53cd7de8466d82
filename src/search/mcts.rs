//! Monte Carlo tree search generic over games ([`MonteCarlo`]), for games whose goal a
//! static evaluation at shallow depth judges badly (Mabula's largest group) while playouts
//! to the end judge it well. A game plugs in through a [`Policy`]: the reward of a
//! finished game and the move a playout plays. (Mobius has its own specialised MCTS with
//! RAVE in `games::mobius::search`.)
//!
//! - **Simulation.** From the root, step to the child with the highest UCT value
//!   `mean + c·√(ln N / n)` (an unvisited child first, in the random order of expansion)
//!   until a leaf; a leaf visited [`MctsParams::expand_after`] times is expanded (one child
//!   per legal move, shuffled) and stepped into. The position reached is scored by the
//!   policy's reward of the game's end, reached by playout moves of the policy. Every
//!   node on the path gets one visit and the reward from the point of view of the player
//!   who made the move leading to it. A child whose position is over keeps its exact
//!   reward as its value.
//! - **Limits.** `go nodes` counts simulations of all threads, `go depth N` stands for
//!   N·1000 of them; under a clock the search stops at the soft budget.
//! - **Memory.** `Hash` MB bound the trees (shared equally by the threads); a full tree
//!   stops expanding and keeps simulating from its leaves.
//! - **Threads.** Root parallelism: each thread grows its own tree (own seed) and the
//!   root moves' visits and rewards are summed over the trees. `Threads 1` with a node
//!   limit is deterministic (the random moves are seeded from the position's hash).
//! - **Move played.** A root move whose position is over and
//!   won first, else the most visited move of the sum (then the best mean).
//! - **Reports.** `nodes` counts simulations of all threads; `depth` is the length of
//!   the principal variation (most visited children, each visited at least twice),
//!   `seldepth` the deepest path; `score cp` is 100 × the move's mean reward. One `info`
//!   line per line of `MultiPV` at the end and about every second in between.
//!
//! - **RAVE**, when the policy gives moves keys ([`Policy::amaf_key`]): every child also
//!   keeps all-moves-as-first statistics (the simulations through its parent in which its
//!   player played its key later on), and its value is the blend
//!   `(1 − β)·mean + β·amaf_mean`, β = ñ / (n + ñ + b·n·ñ) ([`MctsParams::rave_bias`]),
//!   plus `c·√(ln N / (n + 1))`; a child without any statistics is tried first.
//! - **Tree reuse.** The trees are kept after a search; the next search whose position
//!   is one or two plies below the kept root (found by hash, with children for exactly
//!   its root moves) starts from that subtree; otherwise, or after [`MonteCarlo::clear`],
//!   from an empty tree. Searching the same position again starts afresh, so `Threads 1`
//!   with a node limit stays deterministic for a given sequence of searches.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::{Reporter, Score, SearchControl, SearchInfo};
use crate::core::{Game, Outcome, Rng, Side};

/// What a game adds to the generic search: how a playout plays and what a finished game
/// is worth. Shared by the threads, so it is read-only during a search.
pub trait Policy<G: Game>: Clone + Send + Sync + 'static {
    /// The reward of the finished game `pos` (its outcome `outcome`) for `side`, in
    /// −1..=1: positive for a win, 0 for a draw, negative for a loss. The default: 1 for
    /// a win, −1 for a loss.
    fn reward(&self, _pos: &G, outcome: Outcome, side: Side) -> f64 {
        result_for(outcome, side)
    }

    /// The move a playout plays in `pos` among `moves` (its legal moves, not empty).
    /// The default: uniformly random.
    fn playout_move(&self, _pos: &G, moves: &[G::Move], rng: &mut Rng) -> G::Move {
        *rng.choose(moves)
    }

    /// Plays a playout from `pos` to the end of the game: the finished position and its
    /// outcome. Each move that has an AMAF key ([`Policy::amaf_key`]) is appended to
    /// `played` with its player. The default: [`playout_by_moves`]; a game overrides it
    /// to play the same moves faster.
    fn playout(
        &self,
        pos: G,
        rng: &mut Rng,
        moves: &mut Vec<G::Move>,
        played: &mut Vec<(u16, Side)>,
    ) -> (G, Outcome) {
        playout_by_moves(self, pos, rng, moves, played)
    }

    /// The move's key for RAVE (below [`AMAF_KEYS`]): moves with the same key count as
    /// the same move in the all-moves-as-first statistics. `None` (the default, for every
    /// move) leaves RAVE off; a move without a key gets no AMAF statistics.
    fn amaf_key(&self, _mv: G::Move) -> Option<u16> {
        None
    }
}

/// The playout of [`Policy::playout`] by the book: while the game goes on, the legal
/// moves are listed in `moves` and [`Policy::playout_move`] plays one of them.
pub fn playout_by_moves<G: Game, P: Policy<G>>(
    policy: &P,
    mut pos: G,
    rng: &mut Rng,
    moves: &mut Vec<G::Move>,
    played: &mut Vec<(u16, Side)>,
) -> (G, Outcome) {
    loop {
        if let Some(o) = pos.outcome() {
            return (pos, o);
        }
        moves.clear();
        pos.generate_moves(moves);
        let mv = policy.playout_move(&pos, moves, rng);
        if let Some(key) = policy.amaf_key(mv) {
            played.push((key, pos.side_to_move()));
        }
        pos.play(mv);
    }
}

/// Bound on the keys of [`Policy::amaf_key`].
pub const AMAF_KEYS: usize = 4096;

/// The policy of plain MCTS: uniformly random playouts, ±1/0 rewards.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> Policy<G> for Uniform {}

/// The result of a finished game for `side`: +1, 0 or −1.
pub fn result_for(outcome: Outcome, side: Side) -> f64 {
    match outcome {
        Outcome::Draw => 0.0,
        Outcome::Win(w) if w == side => 1.0,
        Outcome::Win(_) => -1.0,
    }
}

/// The constants of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// The exploration constant `c` of the UCT value.
    pub exploration: f64,
    /// Visits of a leaf before it is expanded (at least 1).
    pub expand_after: u32,
    /// `b` of the RAVE weight β = ñ / (n + ñ + b·n·ñ) (Gelly and Silver's minimum-MSE
    /// schedule, `n` visits, `ñ` AMAF visits): the smaller, the longer the AMAF mean is
    /// trusted. Used only when the policy gives AMAF keys.
    pub rave_bias: f64,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams { exploration: 0.7, expand_after: 2, rave_bias: 0.01 }
    }
}

/// One tree node. `reward` is summed from the point of view of `mover`, the player who
/// made `mv` (for the root, the player to move).
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    mover: Side,
    visits: u32,
    reward: f64,
    /// The exact reward for `mover` when the position after `mv` is over.
    terminal: Option<f32>,
    /// All-moves-as-first statistics (RAVE): simulations through the parent in which
    /// `mover` played `mv`'s key later, and their summed reward for `mover`.
    amaf_visits: u32,
    amaf_reward: f32,
    /// Children are `first_child..first_child + children`; none yet when `children == 0`.
    first_child: u32,
    children: u32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Side) -> Node<M> {
        Node {
            mv,
            mover,
            visits: 0,
            reward: 0.0,
            terminal: None,
            amaf_visits: 0,
            amaf_reward: 0.0,
            first_child: 0,
            children: 0,
        }
    }

    fn mean(&self) -> f64 {
        match self.terminal {
            Some(r) => f64::from(r),
            None if self.visits == 0 => 0.0,
            None => self.reward / f64::from(self.visits),
        }
    }
}

/// One root move's statistics summed over the threads' trees.
#[derive(Clone, Debug)]
struct RootStat<M> {
    mv: M,
    visits: u64,
    reward: f64,
    terminal: Option<f32>,
    /// The principal variation below this move (from the tree that visited it most).
    pv: Vec<M>,
    pv_visits: u32,
}

impl<M> RootStat<M> {
    fn mean(&self) -> f64 {
        match self.terminal {
            Some(r) => f64::from(r),
            None if self.visits == 0 => 0.0,
            None => self.reward / self.visits as f64,
        }
    }

    /// The order of the root moves: a win first, then visits, then mean reward.
    fn key(&self) -> (bool, u64, f64) {
        (self.terminal.is_some_and(|r| r > 0.0), self.visits, self.mean())
    }
}

/// One thread's tree and random generator.
struct Tree<G: Game, P> {
    /// The position of node 0.
    root: G,
    nodes: Vec<Node<G::Move>>,
    capacity: usize,
    params: MctsParams,
    policy: P,
    rng: Rng,
    moves: Vec<G::Move>,
    path: Vec<usize>,
    /// Deepest path from the root, in plies.
    seldepth: u32,
    /// RAVE: the AMAF keys of the moves played in the current simulation, with their
    /// player, and a bit per key and player for those played below the node being
    /// backed up (empty when the policy gives no keys).
    played: Vec<(u16, Side)>,
    amaf: Vec<[u64; AMAF_KEYS / 64]>,
    /// True when the policy gives AMAF keys (to a root move).
    rave: bool,
}

impl<G: Game, P: Policy<G>> Tree<G, P> {
    fn new(
        root: &G,
        root_moves: &[G::Move],
        capacity: usize,
        params: MctsParams,
        policy: P,
        seed: u64,
    ) -> Self {
        let rave = root_moves.iter().any(|&mv| policy.amaf_key(mv).is_some());
        let mut tree = Tree {
            root: root.clone(),
            nodes: Vec::new(),
            capacity: capacity.max(root_moves.len() + 1),
            params,
            policy,
            rng: Rng::new(seed),
            moves: root_moves.to_vec(),
            path: Vec::new(),
            seldepth: 0,
            played: Vec::new(),
            amaf: vec![[0; AMAF_KEYS / 64]; 2],
            rave,
        };
        tree.nodes.push(Node::new(None, root.side_to_move()));
        let moves = std::mem::take(&mut tree.moves);
        tree.add_children(0, root, moves);
        tree
    }

    /// The subtree of the node one or two plies below the root whose position is `pos`
    /// (by hash), as a tree of its own rooted at `pos`, if that node has children for
    /// exactly `root_moves` and fits in `capacity` nodes. Its root's reward is reset
    /// (its `mover` becomes the side to move; no root reward is ever read).
    fn reroot(mut self, pos: &G, root_moves: &[G::Move], capacity: usize) -> Option<Self> {
        let target = pos.hash();
        let child_range = |node: &Node<G::Move>| {
            node.first_child as usize..(node.first_child + node.children) as usize
        };
        let mut found = None;
        'search: for c in child_range(&self.nodes[0]) {
            let mut p = self.root.clone();
            p.play(self.nodes[c].mv.expect("children have moves"));
            if p.hash() == target {
                found = Some(c);
                break;
            }
            for g in child_range(&self.nodes[c]) {
                let mut q = p.clone();
                q.play(self.nodes[g].mv.expect("children have moves"));
                if q.hash() == target {
                    found = Some(g);
                    break 'search;
                }
            }
        }
        let top = found?;
        let children = &self.nodes[child_range(&self.nodes[top])];
        if children.len() != root_moves.len()
            || !children.iter().all(|c| root_moves.contains(&c.mv.expect("children have moves")))
        {
            return None;
        }
        // Copy the subtree breadth first: each node's children stay contiguous.
        let mut nodes =
            vec![Node { mv: None, mover: pos.side_to_move(), reward: 0.0, ..self.nodes[top] }];
        let mut next = 0;
        let mut old = vec![top];
        while next < nodes.len() {
            let range = child_range(&self.nodes[old[next]]);
            if nodes.len() + range.len() > capacity {
                return None;
            }
            nodes[next].first_child = nodes.len() as u32;
            for c in range {
                nodes.push(self.nodes[c]);
                old.push(c);
            }
            next += 1;
        }
        self.nodes = nodes;
        self.root = pos.clone();
        self.capacity = capacity;
        self.seldepth = 0;
        Some(self)
    }

    /// Gives node `i` (position `pos`) one child per move of `moves`, shuffled.
    fn add_children(&mut self, i: usize, pos: &G, mut moves: Vec<G::Move>) {
        self.rng.shuffle(&mut moves);
        let mover = pos.side_to_move();
        self.nodes[i].first_child = self.nodes.len() as u32;
        self.nodes[i].children = moves.len() as u32;
        for &mv in &moves {
            self.nodes.push(Node::new(Some(mv), mover));
        }
        moves.clear();
        self.moves = moves;
    }

    /// The child of node `i` with the highest UCT value (the first on ties).
    fn select(&self, i: usize) -> usize {
        let node = &self.nodes[i];
        let first = node.first_child as usize;
        let log_n = f64::from(node.visits.max(1)).ln();
        let c = self.params.exploration;
        let b = self.params.rave_bias;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for (k, child) in self.nodes[first..first + node.children as usize].iter().enumerate() {
            let v = match child.terminal {
                Some(r) => f64::from(r),
                None if child.visits == 0 && child.amaf_visits == 0 => return first + k,
                None if child.amaf_visits == 0 => {
                    let n = f64::from(child.visits);
                    child.reward / n + c * (log_n / n).sqrt()
                }
                None => {
                    // The RAVE blend (1 − β)·w/n + β·w̃/ñ, written with one division.
                    let (n, an) = (f64::from(child.visits), f64::from(child.amaf_visits));
                    let den = n + an + b * n * an;
                    let blend =
                        (child.reward * (1.0 + b * an) + f64::from(child.amaf_reward)) / den;
                    blend + c * (log_n / (n + 1.0)).sqrt()
                }
            };
            if v > best_value {
                best = first + k;
                best_value = v;
            }
        }
        best
    }

    /// Backs up the rewards `first`/`second` (of each side) along `path`. With RAVE,
    /// walking up, each node's children whose key their player played later in the
    /// simulation (`played` holds the playout's keys) get an AMAF update.
    fn back_up(&mut self, path: &[usize], first: f64, second: f64) {
        let rave = self.rave;
        let reward_of = |side: Side| if side == Side::P1 { first } else { second };
        if rave {
            for &(key, side) in &self.played {
                self.amaf[side.index()][key as usize / 64] |= 1 << (key % 64);
            }
        }
        for &n in path.iter().rev() {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += reward_of(node.mover);
            if !rave {
                continue;
            }
            let (start, len) = (node.first_child as usize, node.children as usize);
            for child in &mut self.nodes[start..start + len] {
                let key = self.policy.amaf_key(child.mv.expect("children have moves"));
                let Some(key) = key else { continue };
                let bits = &self.amaf[child.mover.index()];
                if bits[key as usize / 64] >> (key % 64) & 1 != 0 {
                    child.amaf_visits += 1;
                    child.amaf_reward += reward_of(child.mover) as f32;
                }
            }
            let node = &self.nodes[n];
            if let Some(key) = node.mv.and_then(|mv| self.policy.amaf_key(mv)) {
                self.amaf[node.mover.index()][key as usize / 64] |= 1 << (key % 64);
                self.played.push((key, node.mover));
            }
        }
        for &(key, side) in &self.played {
            self.amaf[side.index()][key as usize / 64] = 0;
        }
        self.played.clear();
    }

    /// One simulation from the root position `root`.
    fn simulate(&mut self, root: &G) {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(0);
        let mut pos = root.clone();
        let mut i = 0;
        let mut outcome = None;
        loop {
            let node = &self.nodes[i];
            if node.children == 0 {
                if node.visits < self.params.expand_after {
                    break;
                }
                let mut moves = std::mem::take(&mut self.moves);
                moves.clear();
                pos.generate_moves(&mut moves);
                if self.nodes.len() + moves.len() > self.capacity {
                    self.moves = moves;
                    break;
                }
                self.add_children(i, &pos, moves);
            }
            i = self.select(i);
            pos.play(self.nodes[i].mv.expect("only the root has no move"));
            path.push(i);
            outcome = pos.outcome();
            if let Some(o) = outcome {
                let mover = self.nodes[i].mover;
                self.nodes[i].terminal = Some(self.policy.reward(&pos, o, mover) as f32);
                break;
            }
        }
        self.seldepth = self.seldepth.max(path.len() as u32 - 1);
        let (end, outcome) = match outcome {
            Some(o) => (pos, o),
            None => self.policy.playout(pos, &mut self.rng, &mut self.moves, &mut self.played),
        };
        // The reward for each side, computed once.
        let first = self.policy.reward(&end, outcome, Side::P1);
        let second = self.policy.reward(&end, outcome, Side::P2);
        self.back_up(&path, first, second);
        self.path = path;
    }

    /// The most visited child of node `i` (the best mean on ties), if it has children.
    fn best_child(&self, i: usize) -> Option<usize> {
        let node = &self.nodes[i];
        let first = node.first_child as usize;
        (first..first + node.children as usize).max_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            (x.visits, x.mean()).partial_cmp(&(y.visits, y.mean())).expect("no NaN")
        })
    }

    /// The principal variation from node `i` down: most visited children visited at
    /// least twice.
    fn pv_from(&self, mut i: usize) -> Vec<G::Move> {
        let mut pv = Vec::new();
        while let Some(c) = self.best_child(i) {
            if self.nodes[c].visits < 2 {
                break;
            }
            pv.push(self.nodes[c].mv.expect("children have moves"));
            i = c;
        }
        pv
    }

    /// The root children's statistics with their principal variations.
    fn root_stats(&self) -> Vec<RootStat<G::Move>> {
        let root = &self.nodes[0];
        let first = root.first_child as usize;
        (first..first + root.children as usize)
            .map(|c| {
                let n = &self.nodes[c];
                let mv = n.mv.expect("children have moves");
                let mut pv = vec![mv];
                pv.extend(self.pv_from(c));
                RootStat {
                    mv,
                    visits: u64::from(n.visits),
                    reward: n.reward,
                    terminal: n.terminal,
                    pv,
                    pv_visits: n.visits,
                }
            })
            .collect()
    }
}

/// Adds `more` (one tree's root statistics) into `sum`, by move.
fn merge<M: Copy + Eq>(sum: &mut Vec<RootStat<M>>, more: Vec<RootStat<M>>) {
    for s in more {
        match sum.iter_mut().find(|t| t.mv == s.mv) {
            Some(t) => {
                t.visits += s.visits;
                t.reward += s.reward;
                t.terminal = t.terminal.or(s.terminal);
                if s.pv_visits > t.pv_visits {
                    t.pv = s.pv;
                    t.pv_visits = s.pv_visits;
                }
            }
            None => sum.push(s),
        }
    }
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct MctsResult<M> {
    /// Root moves, best first, with their principal variations.
    pub lines: Vec<(M, f64, Vec<M>)>,
    /// Simulations of all threads.
    pub nodes: u64,
}

impl<M: Copy> MctsResult<M> {
    /// The move to play.
    pub fn best(&self) -> M {
        self.lines[0].0
    }
}

/// Monte Carlo tree search for game `G` with policy `P` (see the module doc).
pub struct MonteCarlo<G: Game, P: Policy<G>> {
    pub params: MctsParams,
    pub policy: P,
    threads: usize,
    multipv: usize,
    hash_mb: usize,
    seed: u64,
    /// The threads' trees of the last search, reused by the next one when its position
    /// is one or two plies further (see [`MonteCarlo::clear`]).
    kept: Vec<Tree<G, P>>,
}

impl<G: Game, P: Policy<G>> MonteCarlo<G, P> {
    /// A search bounded by about `hash_mb` megabytes of tree, one thread.
    pub fn new(hash_mb: usize, params: MctsParams, policy: P) -> Self {
        MonteCarlo {
            params,
            policy,
            threads: 1,
            multipv: 1,
            hash_mb,
            seed: 0x5eed_6a0d_u64,
            kept: Vec::new(),
        }
    }

    /// Forgets the kept trees (a new game): the next search starts afresh.
    pub fn clear(&mut self) {
        self.kept.clear();
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// Searches `pos` (not over) among `root_moves` (not empty) until `ctl` says stop
    /// (under a clock: at the soft budget), reporting to `reporter`.
    pub fn run(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MctsResult<G::Move> {
        assert!(!root_moves.is_empty(), "search called without root moves");
        let capacity =
            (self.hash_mb.max(1) << 20) / std::mem::size_of::<Node<G::Move>>() / self.threads;
        // `go depth N` stands for N·1000 simulations.
        let max_sims = ctl.max_nodes().or(ctl.max_depth().map(|d| u64::from(d) * 1000));
        let nodes = AtomicU64::new(0);
        let seed = self.seed ^ pos.hash();
        let mut kept = std::mem::take(&mut self.kept).into_iter();
        let trees: Vec<Tree<G, P>> = (0..self.threads)
            .map(|thread| {
                let thread_seed = seed ^ (thread as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                match kept.next().and_then(|t| t.reroot(pos, root_moves, capacity)) {
                    Some(mut tree) => {
                        tree.params = self.params;
                        tree.policy = self.policy.clone();
                        tree.rng = Rng::new(thread_seed);
                        tree.rave = root_moves.iter().any(|&mv| tree.policy.amaf_key(mv).is_some());
                        tree
                    }
                    None => Tree::new(
                        pos,
                        root_moves,
                        capacity,
                        self.params,
                        self.policy.clone(),
                        thread_seed,
                    ),
                }
            })
            .collect();
        let nodes_ref = &nodes;
        let grow = move |mut tree: Tree<G, P>, report: Option<&mut dyn Reporter>| {
            let mut next_report = Duration::from_secs(1);
            let mut report = report;
            let mut sims = 0u64;
            loop {
                let total = nodes_ref.load(Ordering::Relaxed);
                let done = max_sims.is_some_and(|m| total >= m);
                if sims > 0 && (done || ctl.must_stop(total) || ctl.soft_expired(1.0)) {
                    break;
                }
                tree.simulate(pos);
                sims += 1;
                nodes_ref.fetch_add(1, Ordering::Relaxed);
                if let Some(r) = report.as_deref_mut()
                    && ctl.elapsed() >= next_report
                {
                    next_report += Duration::from_secs(1);
                    let mut stats = tree.root_stats();
                    stats.sort_by(|a, b| b.key().partial_cmp(&a.key()).expect("no NaN"));
                    let total = nodes_ref.load(Ordering::Relaxed);
                    report_lines(&stats[..1], tree.seldepth, total, ctl, r);
                }
            }
            tree
        };
        let mut trees = trees.into_iter();
        let main_tree = trees.next().expect("at least one thread");
        let kept = std::thread::scope(|scope| {
            let handles: Vec<_> = trees.map(|t| scope.spawn(move || grow(t, None))).collect();
            let mut kept = vec![grow(main_tree, Some(&mut *reporter))];
            kept.extend(handles.into_iter().filter_map(|h| h.join().ok()));
            kept
        });
        let mut stats = kept[0].root_stats();
        let mut seldepth = kept[0].seldepth;
        for tree in &kept[1..] {
            merge(&mut stats, tree.root_stats());
            seldepth = seldepth.max(tree.seldepth);
        }
        self.kept = kept;
        stats.sort_by(|a, b| b.key().partial_cmp(&a.key()).expect("no NaN"));
        let total = nodes.load(Ordering::Relaxed);
        let shown = self.multipv.min(stats.len());
        report_lines(&stats[..shown], seldepth, total, ctl, reporter);
        MctsResult {
            lines: stats.into_iter().map(|s| (s.mv, s.mean(), s.pv)).collect(),
            nodes: total,
        }
    }
}

/// One `info` line per statistic of `stats` (best first; numbered when more than one).
fn report_lines<M: Copy + ToString>(
    stats: &[RootStat<M>],
    seldepth: u32,
    nodes: u64,
    ctl: &SearchControl,
    reporter: &mut dyn Reporter,
) {
    for (k, s) in stats.iter().enumerate() {
        reporter.info(&SearchInfo {
            depth: s.pv.len() as u32,
            seldepth: seldepth.max(s.pv.len() as u32),
            multipv: (stats.len() > 1).then_some(k as u32 + 1),
            score: Score::Cp((100.0 * s.mean()).round() as i32),
            nodes,
            time: ctl.elapsed(),
            hashfull: None,
            pv: s.pv.iter().map(|m| m.to_string()).collect(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::{Morris, MorrisOptions};
    use crate::search::NullReporter;

    fn search(pos: &Morris, sims: u64, threads: usize) -> MctsResult<<Morris as Game>::Move> {
        let mut mcts = MonteCarlo::<Morris, Uniform>::new(16, MctsParams::default(), Uniform);
        mcts.set_threads(threads);
        let ctl = SearchControl::fixed(None, Some(sims));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        mcts.run(pos, &moves, &ctl, &mut NullReporter)
    }

    #[test]
    fn one_thread_with_a_node_limit_is_deterministic_and_respects_the_limit() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let a = search(&pos, 500, 1);
        let b = search(&pos, 500, 1);
        assert_eq!(a.nodes, 500);
        assert_eq!(
            a.lines.iter().map(|l| l.0).collect::<Vec<_>>(),
            b.lines.iter().map(|l| l.0).collect::<Vec<_>>()
        );
        assert_eq!(a.lines[0].1, b.lines[0].1);
        assert!(pos.parse_move(&a.best().to_string()).is_ok());
    }

    #[test]
    fn threads_merge_every_root_move() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let r = search(&pos, 400, 2);
        assert!(r.nodes >= 400);
        assert_eq!(r.lines.len(), pos.count_moves() as usize);
    }

    #[test]
    fn a_tree_is_rerooted_two_plies_down_and_not_elsewhere() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let grown = || {
            let mut tree = Tree::<Morris, Uniform>::new(
                &pos,
                &moves,
                1 << 20,
                MctsParams::default(),
                Uniform,
                5,
            );
            for _ in 0..3000 {
                tree.simulate(&pos);
            }
            tree
        };
        // The start position is not below itself.
        assert!(grown().reroot(&pos, &moves, 1 << 20).is_none());
        let tree = grown();
        let c = tree.best_child(0).unwrap();
        let g = tree.best_child(c).unwrap();
        let (visits, grandchildren) = (tree.nodes[g].visits, tree.nodes[g].children);
        let mut next = pos.clone();
        next.play(tree.nodes[c].mv.unwrap());
        next.play(tree.nodes[g].mv.unwrap());
        let mut moves = Vec::new();
        next.generate_moves(&mut moves);
        let sub = tree.reroot(&next, &moves, 1 << 20).expect("the subtree is kept");
        assert_eq!(sub.nodes[0].visits, visits);
        assert_eq!(sub.nodes[0].children, grandchildren);
        assert_eq!(sub.nodes[0].mover, next.side_to_move());
        let root_moves: Vec<_> = (1..=moves.len()).map(|k| sub.nodes[k].mv.unwrap()).collect();
        assert!(moves.iter().all(|m| root_moves.contains(m)));
        // Every kept node's children lie inside the new arena.
        assert!(sub.nodes.iter().all(|n| (n.first_child + n.children) as usize <= sub.nodes.len()));
    }

    #[test]
    fn plays_an_immediate_win() {
        // The first positions of seeded random games where the side to move has a move
        // that wins at once: the search must play a winning move.
        let mut pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        let mut rng = Rng::new(3);
        let mut found = 0;
        for _ in 0..20_000 {
            moves.clear();
            pos.generate_moves(&mut moves);
            let wins = |m: &<Morris as Game>::Move| {
                let mut p = pos.clone();
                p.play(*m);
                p.outcome() == Some(Outcome::Win(pos.side_to_move()))
            };
            if moves.iter().any(wins) {
                let played = search(&pos, 300, 1).best();
                assert!(wins(&played), "{} missed the win in {}", played, pos.to_fen());
                found += 1;
                if found == 5 {
                    return;
                }
            }
            pos.play(*rng.choose(&moves));
            if pos.outcome().is_some() {
                pos = Morris::startpos(&MorrisOptions::default());
            }
        }
        panic!("too few positions with a winning move found");
    }
}
