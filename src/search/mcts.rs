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
//!   reward as its value. A policy with a learned evaluation ([`Policy::leaf_value`])
//!   backs up its value of the leaf instead of a playout's reward, or blended with it.
//! - **Limits.** `go nodes` counts simulations of all threads, `go depth N` stands for
//!   N·1000 of them; under a clock the search stops at the soft budget. A timed search
//!   with a single root move runs only [`SINGLE_MOVE_SIMULATIONS`] (enough for a score)
//!   and saves the clock for the moves that have a choice.
//! - **Memory.** `Hash` MB bound the tree (nodes of 40 bytes with Mabula's moves). When
//!   an expansion finds it full, the threads stop, the tree is garbage-collected
//!   ([`Tree::collect`]: the children of the least visited nodes are dropped, freeing
//!   half of it) and the threads start again with new seeds.
//! - **Threads.** Tree parallelism (Chaslot et al. 2008; lock-free as in Fuego,
//!   Enzenberger and Müller 2009): all threads grow one tree. Node statistics are relaxed
//!   atomics (the f64 reward as its bit pattern) added by atomic read-modify-writes; a
//!   leaf is expanded by the one thread that claims it (the others meanwhile simulate
//!   from it as a leaf) and its children are published once, in a block of their own; a
//!   simulation adds a virtual loss to every node of its path on the way down (the
//!   selection counts each simulation in progress through a child as a visit with
//!   reward −1, so the threads spread over the tree) and takes it back when it backs up.
//!   Each thread has its own random generator (seeded from the position's hash and the
//!   thread's number). Two things keep the threads off the cache lines the other cores
//!   write: a child's AMAF statistics stop growing at [`AMAF_CAP`] simulations (near the
//!   root every simulation would otherwise update most children's), and simulations are
//!   claimed from the shared count [`SIMULATIONS_PER_CLAIM`] at a time. With one thread
//!   there is no virtual loss, no cap and statistics are plain loads and stores:
//!   `Threads 1` searches exactly as it did before the threads shared a tree, and with a
//!   node limit it is deterministic.
//! - **Move played.** A root move whose position is over and
//!   won first, else the most visited move (then the best mean).
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
//! - **Priors**, when the policy has them ([`Policy::prior`]): a new child's AMAF
//!   statistics start at the prior's value and weight, so the blend above orders the
//!   untried moves by it (instead of trying each once) until their own visits take over.
//! - **Tree reuse.** The tree is kept after a search; the next search whose position
//!   is one or two plies below the kept root (found by hash, with children for exactly
//!   its root moves) starts from that subtree; otherwise, or after [`MonteCarlo::clear`],
//!   from an empty tree. Searching the same position again starts afresh, so `Threads 1`
//!   with a node limit stays deterministic for a given sequence of searches.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use super::{Reporter, Score, SearchControl, SearchInfo};
use crate::core::{Game, Outcome, Rng, Side};

/// Simulations of a timed search with a single root move: the move is forced, so only
/// enough to report a score.
const SINGLE_MOVE_SIMULATIONS: u64 = 256;

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

    /// A learned value of the leaf `pos` (not over), e.g. a network of
    /// [`crate::search::nnue`]: backed up instead of a playout's reward at weight 1, else
    /// blended with it. `None`, the default: a playout alone decides.
    fn leaf_value(&self, _pos: &G) -> Option<LeafValue> {
        None
    }

    /// The move's key for RAVE (below `AMAF_KEYS`): moves with the same key count as
    /// the same move in the all-moves-as-first statistics. `None` (the default, for every
    /// move) leaves RAVE off; a move without a key gets no AMAF statistics.
    fn amaf_key(&self, _mv: G::Move) -> Option<u16> {
        None
    }

    /// Prior knowledge of the move `mv` in `pos` before the tree tries it (Gelly and
    /// Silver 2007), e.g. a network's value of the position after it: the new child's
    /// all-moves-as-first statistics start at [`Prior::visits`] simulations of mean
    /// [`Prior::value`], so the RAVE blend orders untried moves by it and its weight
    /// fades as the child gathers visits of its own. `None` (the default): no prior, and
    /// an untried child is tried before the others.
    fn prior(&self, _pos: &G, _mv: G::Move) -> Option<Prior> {
        None
    }
}

/// A move's prior knowledge ([`Policy::prior`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    /// For the move's player, in the rewards' range −1..=1.
    pub value: f64,
    /// How many simulations it counts as, at least 1.
    pub visits: u32,
}

/// A leaf's learned value ([`Policy::leaf_value`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafValue {
    /// For the leaf's side to move, in the rewards' range −1..=1.
    pub value: f64,
    /// Its share of the backed-up reward, 0..=1; the rest is a playout's reward (at 1
    /// no playout is played).
    pub weight: f64,
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

/// The garbage collection of a full tree, shared by the Monte Carlo searches
/// ([`MonteCarlo`] and Mobius's): given the visits and number of children of every
/// expanded node below the root (`expanded`, reordered here), the visits a node needs to
/// keep its children so that the nodes kept (the root, its `root_children` and the
/// children of the most visited nodes) fill at most half of `capacity`. 0 keeps all.
pub fn collection_threshold(
    expanded: &mut [(u32, usize)],
    root_children: usize,
    capacity: usize,
) -> u32 {
    expanded.sort_unstable_by_key(|&(visits, _)| std::cmp::Reverse(visits));
    let budget = capacity / 2;
    let mut kept = 1 + root_children;
    for &(visits, children) in expanded.iter() {
        if kept + children > budget {
            return visits + 1;
        }
        kept += children;
    }
    0
}

/// The bit pattern of [`Node::terminal`] for a position that is not over (a NaN, which
/// no reward is).
const NOT_OVER: u32 = u32::MAX;

/// The [`Node::children`] of a node without children.
const NO_CHILDREN: u32 = 0;
/// The [`Node::children`] of a node being expanded by one thread.
const CLAIMED: u32 = u32::MAX;

/// One tree node, shared by the threads that grow the tree: its statistics are relaxed
/// atomics (see [`add_visit`]), its children are created once, by the thread that
/// expands it. 40 bytes with Mabula's moves, as before the threads shared a tree, so
/// `Hash` holds as many nodes. `reward` is summed from the point of view of `mover`, the
/// player who made `mv` (for the root, the player to move).
struct Node<M> {
    mv: Option<M>,
    mover: Side,
    visits: AtomicU32,
    /// The f64 bit pattern of the summed reward.
    reward: AtomicU64,
    /// Simulations in progress through this node (virtual loss: the selection counts
    /// each as a visit with reward −1, so that other threads try other moves). Only when
    /// several threads grow the tree; 0 after a search.
    pending: AtomicU32,
    /// The f32 bit pattern of the exact reward for `mover` when the position after `mv`
    /// is over, else [`NOT_OVER`].
    terminal: AtomicU32,
    /// All-moves-as-first statistics (RAVE): the simulations through the parent in which
    /// `mover` played `mv`'s key later (low 32 bits), and the f32 bit pattern of their
    /// summed reward for `mover` (high 32 bits).
    amaf: AtomicU64,
    /// The block of [`Blocks`] that holds the children, [`NO_CHILDREN`] before the
    /// node is expanded, [`CLAIMED`] while one thread expands it (the others meanwhile
    /// simulate from it as a leaf).
    children: AtomicU32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Side) -> Node<M> {
        Node {
            mv,
            mover,
            visits: AtomicU32::new(0),
            reward: AtomicU64::new(0.0f64.to_bits()),
            pending: AtomicU32::new(0),
            terminal: AtomicU32::new(NOT_OVER),
            amaf: AtomicU64::new(0),
            children: AtomicU32::new(NO_CHILDREN),
        }
    }

    fn visits(&self) -> u32 {
        self.visits.load(Ordering::Relaxed)
    }

    fn reward(&self) -> f64 {
        f64::from_bits(self.reward.load(Ordering::Relaxed))
    }

    fn terminal(&self) -> Option<f32> {
        let bits = self.terminal.load(Ordering::Relaxed);
        (bits != NOT_OVER).then(|| f32::from_bits(bits))
    }

    /// The AMAF visits and summed reward.
    fn amaf(&self) -> (u32, f32) {
        unpack_amaf(self.amaf.load(Ordering::Relaxed))
    }

    fn mean(&self) -> f64 {
        match self.terminal() {
            Some(r) => f64::from(r),
            None if self.visits() == 0 => 0.0,
            None => self.reward() / f64::from(self.visits()),
        }
    }
}

/// AMAF statistics as [`Node::amaf`] holds them: the visits in the low 32 bits, the
/// summed reward's f32 bits in the high ones.
fn pack_amaf(visits: u32, sum: f32) -> u64 {
    (u64::from(sum.to_bits()) << 32) | u64::from(visits)
}

/// The visits and summed reward of [`pack_amaf`]'s word.
fn unpack_amaf(a: u64) -> (u32, f32) {
    (a as u32, f32::from_bits((a >> 32) as u32))
}

/// With several threads, a child's AMAF statistics stop growing at this many
/// simulations: near the root every simulation would otherwise write the AMAF counts of
/// most children, cache lines that the other cores read and write too. By then the
/// RAVE blend weighs them little (β ≈ 1 / (`rave_bias` · visits) once a child has a
/// few hundred visits of its own), and an estimate from this many simulations is close.
const AMAF_CAP: u32 = 256;
/// With several threads, simulations claimed at once from the shared count.
const SIMULATIONS_PER_CLAIM: u64 = 16;

/// Slots per chunk of [`Blocks`].
const CHUNK: usize = 4096;

/// [`CHUNK`] slots of [`Blocks`], each a block of children once set.
type Chunk<M> = Box<[OnceLock<Box<[Node<M>]>>]>;

/// The children of the expanded nodes of a tree, one block per node, each created once
/// (block `b`, numbered from 1, is slot `b − 1`). The slots come in chunks allocated
/// when first needed; a tree of `capacity` nodes has at most `capacity` blocks.
struct Blocks<M> {
    chunks: Box<[OnceLock<Chunk<M>>]>,
    /// Blocks handed out.
    used: AtomicU32,
}

impl<M> Blocks<M> {
    fn new(capacity: usize) -> Self {
        Blocks {
            chunks: (0..capacity / CHUNK + 1).map(|_| OnceLock::new()).collect(),
            used: AtomicU32::new(0),
        }
    }

    /// The children of `node`, none before it is expanded.
    fn children(&self, node: &Node<M>) -> &[Node<M>] {
        match node.children.load(Ordering::Acquire) {
            NO_CHILDREN | CLAIMED => &[],
            b => {
                let slot = b as usize - 1;
                let chunk = self.chunks[slot / CHUNK].get();
                chunk.and_then(|c| c[slot % CHUNK].get()).map_or(&[], |c| c)
            }
        }
    }

    /// Stores `children` in a new block: its number. `shared`: other threads add blocks
    /// too.
    fn add(&self, children: Box<[Node<M>]>, shared: bool) -> u32 {
        let slot = increment(&self.used, shared) as usize;
        let chunk =
            self.chunks[slot / CHUNK].get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        assert!(chunk[slot % CHUNK].set(children).is_ok(), "a block is stored once");
        slot as u32 + 1
    }

    /// The nodes of the subtree of `node`.
    fn count(&self, node: &Node<M>) -> usize {
        1 + self.children(node).iter().map(|c| self.count(c)).sum::<usize>()
    }

    /// Takes block `b` out.
    fn take(&mut self, b: u32) -> Option<Box<[Node<M>]>> {
        let slot = (b as usize).checked_sub(1)?;
        self.chunks.get_mut(slot / CHUNK)?.get_mut()?.get_mut(slot % CHUNK)?.take()
    }

    /// Moves the children of the subtree of `node` from `self` into `into`, except
    /// below the nodes with fewer than `threshold` visits, which lose their children
    /// (`node`'s own are always moved): the number of nodes moved.
    fn move_subtree(&mut self, node: &mut Node<M>, into: &Blocks<M>, threshold: u32) -> usize {
        let b = node.children.get_mut();
        let Some(mut block) = self.take(*b) else {
            *b = NO_CHILDREN;
            return 0;
        };
        let mut moved = block.len();
        for child in block.iter_mut() {
            if *child.visits.get_mut() >= threshold {
                moved += self.move_subtree(child, into, threshold);
            } else {
                *child.children.get_mut() = NO_CHILDREN;
            }
        }
        *node.children.get_mut() = into.add(block, false);
        moved
    }
}

/// `f` applied to `cell`: a plain load and store when one thread grows the tree
/// (`shared` false: nothing else writes it), an atomic read-modify-write when several do.
fn update(cell: &AtomicU64, shared: bool, f: impl Fn(u64) -> u64) {
    if shared {
        // The closure always gives a value, so the update always succeeds.
        let _ = cell.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |x| Some(f(x)));
    } else {
        cell.store(f(cell.load(Ordering::Relaxed)), Ordering::Relaxed);
    }
}

/// Adds 1 to `cell` and gives the value before, as [`update`] does: a plain load and
/// store when one thread grows the tree, an atomic read-modify-write when several do.
fn increment(cell: &AtomicU32, shared: bool) -> u32 {
    if shared {
        cell.fetch_add(1, Ordering::Relaxed)
    } else {
        let value = cell.load(Ordering::Relaxed);
        cell.store(value + 1, Ordering::Relaxed);
        value
    }
}

/// One visit of `node` with `reward` for its mover, taking back the virtual loss of
/// the simulation when `shared` (and `virtual_loss`: every node but the root has one).
fn add_visit<M>(node: &Node<M>, reward: f64, shared: bool, virtual_loss: bool) {
    increment(&node.visits, shared);
    if shared && virtual_loss {
        node.pending.fetch_sub(1, Ordering::Relaxed);
    }
    update(&node.reward, shared, |r| (f64::from_bits(r) + reward).to_bits());
}

/// One root move's statistics.
#[derive(Clone, Debug)]
struct RootStat<M> {
    mv: M,
    visits: u64,
    reward: f64,
    terminal: Option<f32>,
    /// The principal variation that starts with this move.
    pv: Vec<M>,
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

/// The tree, grown by every thread of a search.
struct Tree<G: Game, P> {
    /// The position of `root`.
    root_pos: G,
    root: Node<G::Move>,
    blocks: Blocks<G::Move>,
    /// Nodes in the tree, and their bound.
    size: AtomicUsize,
    capacity: usize,
    /// Set when an expansion found no room: the threads stop, the tree is collected
    /// ([`Tree::collect`]) and the search goes on.
    full: AtomicBool,
    params: MctsParams,
    policy: P,
    /// True when the policy gives AMAF keys (to a root move).
    rave: bool,
    /// More than one thread grows the tree: statistics are added by atomic
    /// read-modify-writes, a simulation puts a virtual loss on its path, a node is
    /// claimed by the thread that expands it.
    shared: bool,
    /// Deepest path from the root, in plies.
    seldepth: AtomicU32,
}

impl<G: Game, P: Policy<G>> Tree<G, P> {
    /// A tree of the root `root` (whose moves are `root_moves`, shuffled by `rng`).
    fn new(
        root: &G,
        root_moves: &[G::Move],
        capacity: usize,
        params: MctsParams,
        policy: P,
        rng: &mut Rng,
    ) -> Self {
        let rave = root_moves.iter().any(|&mv| policy.amaf_key(mv).is_some());
        let capacity = capacity.max(root_moves.len() + 1);
        let tree = Tree {
            root_pos: root.clone(),
            root: Node::new(None, root.side_to_move()),
            blocks: Blocks::new(capacity),
            size: AtomicUsize::new(1 + root_moves.len()),
            capacity,
            full: AtomicBool::new(false),
            params,
            policy,
            rave,
            shared: false,
            seldepth: AtomicU32::new(0),
        };
        tree.add_children(&tree.root, root, &mut root_moves.to_vec(), rng);
        tree
    }

    /// The subtree of the node one or two plies below the root whose position is `pos`
    /// (by hash), as a tree of its own rooted at `pos`, if that node has children for
    /// exactly `root_moves` and fits in `capacity` nodes. Its root's reward is reset
    /// (its `mover` becomes the side to move; no root reward is ever read).
    fn reroot(mut self, pos: &G, root_moves: &[G::Move], capacity: usize) -> Option<Self> {
        let target = pos.hash();
        let mut found = None;
        'search: for (c, child) in self.children(&self.root).iter().enumerate() {
            let mut p = self.root_pos.clone();
            p.play(child.mv.expect("children have moves"));
            if p.hash() == target {
                found = Some((c, None));
                break;
            }
            for (g, grandchild) in self.children(child).iter().enumerate() {
                let mut q = p.clone();
                q.play(grandchild.mv.expect("children have moves"));
                if q.hash() == target {
                    found = Some((c, Some(g)));
                    break 'search;
                }
            }
        }
        let (c, g) = found?;
        let child = &self.children(&self.root)[c];
        let top = g.map_or(child, |g| &self.children(child)[g]);
        let children = self.children(top);
        if children.len() != root_moves.len()
            || !children.iter().all(|c| root_moves.contains(&c.mv.expect("children have moves")))
        {
            return None;
        }
        let size = self.blocks.count(top);
        if size > capacity {
            return None;
        }
        // Move the subtree's blocks into new ones.
        let mut old = std::mem::replace(&mut self.blocks, Blocks::new(capacity));
        let mut block = old.take(*self.root.children.get_mut())?;
        let mut root = std::mem::replace(&mut block[c], Node::new(None, Side::P1));
        if let Some(g) = g {
            let mut block = old.take(*root.children.get_mut())?;
            root = std::mem::replace(&mut block[g], Node::new(None, Side::P1));
        }
        old.move_subtree(&mut root, &self.blocks, 0);
        root.mv = None;
        root.mover = pos.side_to_move();
        root.reward = AtomicU64::new(0.0f64.to_bits());
        self.root = root;
        self.root_pos = pos.clone();
        self.size = AtomicUsize::new(size);
        self.capacity = capacity;
        self.full = AtomicBool::new(false);
        self.seldepth = AtomicU32::new(0);
        Some(self)
    }

    /// Garbage collection of a full tree, so that the search keeps growing where it goes
    /// now: the children of the least visited nodes are dropped (those nodes keep their
    /// own statistics and are expanded again when next reached), freeing at least half
    /// of the capacity. A parent has at least the visits of each child, so the nodes
    /// kept (those with at least the threshold's visits) form the top of the tree.
    fn collect(&mut self) {
        let mut expanded = Vec::new();
        for child in self.children(&self.root) {
            self.expanded_nodes(child, &mut expanded);
        }
        let threshold =
            collection_threshold(&mut expanded, self.children(&self.root).len(), self.capacity);
        let mut old = std::mem::replace(&mut self.blocks, Blocks::new(self.capacity));
        let moved = old.move_subtree(&mut self.root, &self.blocks, threshold);
        self.size = AtomicUsize::new(1 + moved);
        self.full = AtomicBool::new(false);
    }

    /// The visits and number of children of every expanded node of the subtree of `node`.
    fn expanded_nodes(&self, node: &Node<G::Move>, out: &mut Vec<(u32, usize)>) {
        let children = self.children(node);
        if !children.is_empty() {
            out.push((node.visits(), children.len()));
            for child in children {
                self.expanded_nodes(child, out);
            }
        }
    }

    /// The children of `node`, none before it is expanded.
    fn children<'a>(&'a self, node: &Node<G::Move>) -> &'a [Node<G::Move>] {
        self.blocks.children(node)
    }

    /// Gives `node` (position `pos`) one child per move of `moves`, shuffled by `rng`,
    /// each with the policy's prior ([`Policy::prior`]) as its first AMAF statistics.
    fn add_children(&self, node: &Node<G::Move>, pos: &G, moves: &mut [G::Move], rng: &mut Rng) {
        rng.shuffle(moves);
        let mover = pos.side_to_move();
        let children = moves
            .iter()
            .map(|&mv| {
                let child = Node::new(Some(mv), mover);
                if let Some(prior) = self.policy.prior(pos, mv) {
                    let sum = prior.visits as f32 * prior.value as f32;
                    child.amaf.store(pack_amaf(prior.visits, sum), Ordering::Relaxed);
                }
                child
            })
            .collect();
        node.children.store(self.blocks.add(children, self.shared), Ordering::Release);
    }

    /// Reserves room for `n` more nodes: false (and the tree marked full) when the
    /// tree is full.
    fn reserve(&self, n: usize) -> bool {
        if self.shared {
            let before = self.size.fetch_add(n, Ordering::Relaxed);
            if before + n > self.capacity {
                self.size.fetch_sub(n, Ordering::Relaxed);
                self.full.store(true, Ordering::Relaxed);
                return false;
            }
        } else {
            let size = self.size.load(Ordering::Relaxed);
            if size + n > self.capacity {
                self.full.store(true, Ordering::Relaxed);
                return false;
            }
            self.size.store(size + n, Ordering::Relaxed);
        }
        true
    }

    /// The index in `children` (those of `node`) of the child with the highest UCT
    /// value, each simulation in progress through a child counted as a lost visit (the
    /// first on ties).
    fn select(&self, node: &Node<G::Move>, children: &[Node<G::Move>]) -> usize {
        let parent_visits = node.visits() + node.pending.load(Ordering::Relaxed);
        let log_n = f64::from(parent_visits.max(1)).ln();
        let c = self.params.exploration;
        let b = self.params.rave_bias;
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (k, child) in children.iter().enumerate() {
            let v = match child.terminal() {
                Some(r) => f64::from(r),
                None => {
                    let (amaf_visits, amaf_reward) = child.amaf();
                    let (visits, pending) = (child.visits(), child.pending.load(Ordering::Relaxed));
                    if visits == 0 && pending == 0 && amaf_visits == 0 {
                        return k;
                    }
                    let (n, w) = match pending {
                        0 => (f64::from(visits), child.reward()),
                        p => (f64::from(visits + p), child.reward() - f64::from(p)),
                    };
                    if amaf_visits == 0 {
                        w / n + c * (log_n / n).sqrt()
                    } else {
                        // The RAVE blend (1 − β)·w/n + β·w̃/ñ, written with one division.
                        let an = f64::from(amaf_visits);
                        let den = n + an + b * n * an;
                        let blend = (w * (1.0 + b * an) + f64::from(amaf_reward)) / den;
                        blend + c * (log_n / (n + 1.0)).sqrt()
                    }
                }
            };
            if v > best_value {
                best = k;
                best_value = v;
            }
        }
        best
    }

    /// The most visited child of `node` (the best mean on ties), if it has children.
    fn best_child(&self, node: &Node<G::Move>) -> Option<&Node<G::Move>> {
        self.children(node).iter().max_by(|x, y| {
            (x.visits(), x.mean()).partial_cmp(&(y.visits(), y.mean())).expect("no NaN")
        })
    }

    /// The principal variation from `node` down: most visited children visited at
    /// least twice.
    fn pv_from<'a>(&'a self, mut node: &'a Node<G::Move>) -> Vec<G::Move> {
        let mut pv = Vec::new();
        while let Some(c) = self.best_child(node) {
            if c.visits() < 2 {
                break;
            }
            pv.push(c.mv.expect("children have moves"));
            node = c;
        }
        pv
    }

    /// The root children's statistics with their principal variations.
    fn root_stats(&self) -> Vec<RootStat<G::Move>> {
        self.children(&self.root)
            .iter()
            .map(|n| {
                let mv = n.mv.expect("children have moves");
                let mut pv = vec![mv];
                pv.extend(self.pv_from(n));
                RootStat {
                    mv,
                    visits: u64::from(n.visits()),
                    reward: n.reward(),
                    terminal: n.terminal(),
                    pv,
                }
            })
            .collect()
    }
}

/// One thread's part of a search: its random generator and buffers.
struct Worker<'t, G: Game, P> {
    tree: &'t Tree<G, P>,
    rng: Rng,
    moves: Vec<G::Move>,
    path: Vec<&'t Node<G::Move>>,
    /// RAVE: the AMAF keys of the moves played in the current simulation, with their
    /// player, and a bit per key and player for those played below the node being
    /// backed up (unused when the policy gives no keys).
    played: Vec<(u16, Side)>,
    amaf: Vec<[u64; AMAF_KEYS / 64]>,
}

impl<'t, G: Game, P: Policy<G>> Worker<'t, G, P> {
    fn new(tree: &'t Tree<G, P>, rng: Rng) -> Self {
        Worker {
            tree,
            rng,
            moves: Vec::new(),
            path: Vec::new(),
            played: Vec::new(),
            amaf: vec![[0; AMAF_KEYS / 64]; 2],
        }
    }

    /// Expands the leaf `node` (position `pos`) unless the tree is full or, when shared,
    /// another thread expands it: true when it has children now.
    fn expand(&mut self, node: &Node<G::Move>, pos: &G) -> bool {
        let tree = self.tree;
        if tree.shared
            && node
                .children
                .compare_exchange(NO_CHILDREN, CLAIMED, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return false;
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        pos.generate_moves(&mut moves);
        let expanded = tree.reserve(moves.len());
        if expanded {
            tree.add_children(node, pos, &mut moves, &mut self.rng);
        } else if tree.shared {
            node.children.store(NO_CHILDREN, Ordering::Relaxed);
        }
        moves.clear();
        self.moves = moves;
        expanded
    }

    /// One simulation from the root position `root`.
    fn simulate(&mut self, root: &G) {
        let tree = self.tree;
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(&tree.root);
        let mut pos = root.clone();
        let mut node = &tree.root;
        let mut outcome = None;
        loop {
            let mut children = tree.children(node);
            if children.is_empty() {
                if node.visits() < tree.params.expand_after || !self.expand(node, &pos) {
                    break;
                }
                children = tree.children(node);
            }
            let child = &children[tree.select(node, children)];
            if tree.shared {
                child.pending.fetch_add(1, Ordering::Relaxed);
            }
            pos.play(child.mv.expect("only the root has no move"));
            path.push(child);
            node = child;
            outcome = pos.outcome();
            if let Some(o) = outcome {
                let reward = tree.policy.reward(&pos, o, child.mover) as f32;
                child.terminal.store(reward.to_bits(), Ordering::Relaxed);
                break;
            }
        }
        let depth = path.len() as u32 - 1;
        if depth > tree.seldepth.load(Ordering::Relaxed) {
            tree.seldepth.fetch_max(depth, Ordering::Relaxed);
        }
        let leaf = if outcome.is_none() { tree.policy.leaf_value(&pos) } else { None };
        // The learned value for player 1, if any.
        let learned = leaf.map(|l| if pos.side_to_move() == Side::P1 { l.value } else { -l.value });
        let (first, second) = match (leaf, learned) {
            (Some(l), Some(v)) if l.weight >= 1.0 => (v, -v),
            _ => {
                let (end, outcome) = match outcome {
                    Some(o) => (pos, o),
                    None => {
                        tree.policy.playout(pos, &mut self.rng, &mut self.moves, &mut self.played)
                    }
                };
                // The reward for each side, computed once.
                let first = tree.policy.reward(&end, outcome, Side::P1);
                let second = tree.policy.reward(&end, outcome, Side::P2);
                match (leaf, learned) {
                    (Some(l), Some(v)) => {
                        let w = l.weight;
                        (w * v + (1.0 - w) * first, -w * v + (1.0 - w) * second)
                    }
                    _ => (first, second),
                }
            }
        };
        self.back_up(&path, first, second);
        self.path = path;
    }

    /// Backs up the rewards `first`/`second` (of each side) along `path`, taking back
    /// its virtual loss. With RAVE, walking up, each node's children whose key their
    /// player played later in the simulation (`played` holds the playout's keys) get an
    /// AMAF update.
    fn back_up(&mut self, path: &[&Node<G::Move>], first: f64, second: f64) {
        let tree = self.tree;
        let (rave, shared) = (tree.rave, tree.shared);
        let reward_of = |side: Side| if side == Side::P1 { first } else { second };
        if rave {
            for &(key, side) in &self.played {
                self.amaf[side.index()][key as usize / 64] |= 1 << (key % 64);
            }
        }
        for (depth, &node) in path.iter().enumerate().rev() {
            add_visit(node, reward_of(node.mover), shared, depth > 0);
            if !rave {
                continue;
            }
            for child in tree.children(node) {
                let key = tree.policy.amaf_key(child.mv.expect("children have moves"));
                let Some(key) = key else { continue };
                let bits = &self.amaf[child.mover.index()];
                if bits[key as usize / 64] >> (key % 64) & 1 != 0
                    && !(shared && child.amaf().0 >= AMAF_CAP)
                {
                    let r = reward_of(child.mover) as f32;
                    update(&child.amaf, shared, |a| {
                        let (visits, sum) = unpack_amaf(a);
                        pack_amaf(visits + 1, sum + r)
                    });
                }
            }
            if let Some(key) = node.mv.and_then(|mv| tree.policy.amaf_key(mv)) {
                self.amaf[node.mover.index()][key as usize / 64] |= 1 << (key % 64);
                self.played.push((key, node.mover));
            }
        }
        for &(key, side) in &self.played {
            self.amaf[side.index()][key as usize / 64] = 0;
        }
        self.played.clear();
    }
}

/// Grows `tree` (rooted at `pos`) with `threads` threads until `ctl` says stop, `max_sims`
/// simulations of all threads are done (counted in `nodes`) or the tree is full. The
/// calling thread is the first, with `rng`, and reports to `reporter` about every
/// second (of the whole search); the others are seeded by `thread_seed`.
#[allow(clippy::too_many_arguments)]
fn grow<G: Game, P: Policy<G>>(
    tree: &Tree<G, P>,
    pos: &G,
    threads: usize,
    rng: Rng,
    thread_seed: impl Fn(usize) -> u64,
    max_sims: Option<u64>,
    nodes: &AtomicU64,
    ctl: &SearchControl,
    reporter: &mut dyn Reporter,
) {
    // Several threads claim simulations in batches: one shared counter written by
    // every simulation of every thread would move its cache line between the cores.
    let batch = if threads > 1 { SIMULATIONS_PER_CLAIM } else { 1 };
    let work = |mut worker: Worker<G, P>, mut report: Option<&mut dyn Reporter>| {
        let mut next_report = Duration::from_secs(ctl.elapsed().as_secs() + 1);
        // The first thread simulates at least once (its limit permitting).
        let mut first = report.is_some();
        // Simulations claimed in `nodes` and not yet run.
        let mut claimed = 0;
        loop {
            // The node limit is kept by `claim` alone: `nodes` also counts the
            // simulations other threads have claimed and not yet run.
            if !first && (ctl.interrupted() || ctl.soft_expired(1.0)) {
                break;
            }
            first = false;
            if tree.full.load(Ordering::Relaxed) {
                break;
            }
            if claimed == 0 {
                claimed = claim(nodes, max_sims, batch);
                if claimed == 0 {
                    break;
                }
            }
            claimed -= 1;
            worker.simulate(pos);
            if let Some(r) = report.as_deref_mut()
                && ctl.elapsed() >= next_report
            {
                next_report += Duration::from_secs(1);
                let mut stats = tree.root_stats();
                stats.sort_by(|a, b| b.key().partial_cmp(&a.key()).expect("no NaN"));
                let (total, seldepth) =
                    (nodes.load(Ordering::Relaxed), tree.seldepth.load(Ordering::Relaxed));
                report_lines(&stats[..1], seldepth, total, ctl, r);
            }
        }
        nodes.fetch_sub(claimed, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        for thread in 1..threads {
            let worker = Worker::new(tree, Rng::new(thread_seed(thread)));
            scope.spawn(move || work(worker, None));
        }
        work(Worker::new(tree, rng), Some(reporter));
    });
}

/// [`grow`], collecting the tree ([`Tree::collect`]) whenever it is full, until `ctl`
/// says stop or `max_sims` simulations are done. After each collection the threads
/// start again with new seeds.
#[allow(clippy::too_many_arguments)]
fn grow_collecting<G: Game, P: Policy<G>>(
    tree: &mut Tree<G, P>,
    pos: &G,
    threads: usize,
    rng: Rng,
    thread_seed: impl Fn(usize) -> u64,
    max_sims: Option<u64>,
    nodes: &AtomicU64,
    ctl: &SearchControl,
    reporter: &mut dyn Reporter,
) {
    let mut first_rng = Some(rng);
    for restart in 0.. {
        let seed_of = |thread: usize| thread_seed(thread + restart * threads);
        let rng = first_rng.take().unwrap_or_else(|| Rng::new(seed_of(0)));
        grow(tree, pos, threads, rng, seed_of, max_sims, nodes, ctl, reporter);
        let limit_reached = max_sims.is_some_and(|m| nodes.load(Ordering::Relaxed) >= m);
        if !tree.full.load(Ordering::Relaxed)
            || limit_reached
            || ctl.interrupted()
            || ctl.soft_expired(1.0)
        {
            break;
        }
        tree.collect();
    }
}

/// Claims up to `batch` simulations in `nodes` (the simulations of all threads, claimed
/// before they are run), within `max_sims`: how many it got, 0 once the limit is reached.
fn claim(nodes: &AtomicU64, max_sims: Option<u64>, batch: u64) -> u64 {
    let limit = max_sims.unwrap_or(u64::MAX);
    let before = nodes.fetch_add(batch, Ordering::Relaxed);
    let granted = batch.min(limit.saturating_sub(before));
    if granted < batch {
        nodes.fetch_sub(batch - granted, Ordering::Relaxed);
    }
    granted
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
    /// The tree of the last search, reused by the next one when its position is one or
    /// two plies further (see [`MonteCarlo::clear`]).
    kept: Option<Tree<G, P>>,
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
            kept: None,
        }
    }

    /// Forgets the kept tree (a new game): the next search starts afresh.
    pub fn clear(&mut self) {
        self.kept = None;
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
        let capacity = (self.hash_mb.max(1) << 20) / std::mem::size_of::<Node<G::Move>>();
        // `go depth N` stands for N·1000 simulations.
        let mut max_sims = ctl.max_nodes().or(ctl.max_depth().map(|d| u64::from(d) * 1000));
        if root_moves.len() == 1 && ctl.is_timed() {
            max_sims =
                Some(max_sims.map_or(SINGLE_MOVE_SIMULATIONS, |m| m.min(SINGLE_MOVE_SIMULATIONS)));
        }
        let seed = self.seed ^ pos.hash();
        let thread_seed =
            |thread: usize| seed ^ (thread as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = Rng::new(thread_seed(0));
        let mut tree = match self.kept.take().and_then(|t| t.reroot(pos, root_moves, capacity)) {
            Some(mut tree) => {
                tree.params = self.params;
                tree.policy = self.policy.clone();
                tree.rave = root_moves.iter().any(|&mv| tree.policy.amaf_key(mv).is_some());
                tree
            }
            None => {
                Tree::new(pos, root_moves, capacity, self.params, self.policy.clone(), &mut rng)
            }
        };
        tree.shared = self.threads > 1;
        let nodes = AtomicU64::new(0);
        grow_collecting(
            &mut tree,
            pos,
            self.threads,
            rng,
            thread_seed,
            max_sims,
            &nodes,
            ctl,
            reporter,
        );
        let mut stats = tree.root_stats();
        let seldepth = tree.seldepth.load(Ordering::Relaxed);
        self.kept = Some(tree);
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
    use crate::search::{NullReporter, TimeBudget};

    type MorrisMcts = MonteCarlo<Morris, Uniform>;

    fn searcher(threads: usize) -> MorrisMcts {
        let mut mcts = MonteCarlo::new(16, MctsParams::default(), Uniform);
        mcts.set_threads(threads);
        mcts
    }

    fn run(mcts: &mut MorrisMcts, pos: &Morris, sims: u64) -> MctsResult<<Morris as Game>::Move> {
        let ctl = SearchControl::fixed(None, Some(sims));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        mcts.run(pos, &moves, &ctl, &mut NullReporter)
    }

    fn search(pos: &Morris, sims: u64, threads: usize) -> MctsResult<<Morris as Game>::Move> {
        run(&mut searcher(threads), pos, sims)
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

    /// Checks the statistics of the subtree of `node` after a search by `threads`
    /// threads: no virtual loss left, and each expanded node's visits are its
    /// children's plus the simulations that ended at it before it was expanded: with one
    /// thread at most `expand_after`; with several, the other threads simulate from
    /// a leaf as often as they reach it while its expansion is in progress, which has
    /// no bound when the expanding thread is preempted (a bound of one per thread
    /// failed on a clean CI run), so only the sum is checked then.
    fn check_visits(
        tree: &Tree<Morris, Uniform>,
        node: &Node<<Morris as Game>::Move>,
        threads: u32,
    ) {
        assert_eq!(node.pending.load(Ordering::Relaxed), 0);
        let children = tree.children(node);
        if children.is_empty() {
            return;
        }
        let below: u32 = children.iter().map(Node::visits).sum();
        let ended = node.visits().checked_sub(below).expect("no more visits below than at a node");
        if threads == 1 {
            assert!(ended <= MctsParams::default().expand_after, "{ended} ended at a node");
        }
        for child in children {
            check_visits(tree, child, threads);
        }
    }

    #[test]
    fn threads_grow_one_tree_to_the_node_limit_and_take_back_their_virtual_loss() {
        let pos = Morris::startpos(&MorrisOptions::default());
        for threads in [1, 2, 3] {
            let mut mcts = searcher(threads);
            let r = run(&mut mcts, &pos, 3000);
            assert_eq!(r.nodes, 3000);
            assert_eq!(r.lines.len(), pos.count_moves() as usize);
            let tree = mcts.kept.as_ref().expect("the tree is kept");
            assert_eq!(tree.root.visits(), 3000);
            let root_visits: u32 = tree.children(&tree.root).iter().map(Node::visits).sum();
            assert_eq!(root_visits, 3000);
            assert_eq!(tree.size.load(Ordering::Relaxed), tree.blocks.count(&tree.root));
            check_visits(tree, &tree.root, threads as u32);
        }
    }

    /// Morris moves keyed by their destination, for RAVE.
    #[derive(Clone)]
    struct ByDestination;

    impl Policy<Morris> for ByDestination {
        fn amaf_key(&self, mv: <Morris as Game>::Move) -> Option<u16> {
            Some(u16::from(mv.to))
        }
    }

    /// The largest AMAF count of a child in the subtree of `node`.
    fn max_amaf<P: Policy<Morris>>(
        tree: &Tree<Morris, P>,
        node: &Node<<Morris as Game>::Move>,
    ) -> u32 {
        let children = tree.children(node);
        let own = children.iter().map(|c| c.amaf().0).max().unwrap_or(0);
        children.iter().map(|c| max_amaf(tree, c)).max().unwrap_or(0).max(own)
    }

    #[test]
    fn amaf_counts_stop_at_their_cap_with_threads_and_not_with_one() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for threads in [1, 2] {
            let mut mcts = MonteCarlo::new(16, MctsParams::default(), ByDestination);
            mcts.set_threads(threads);
            let ctl = SearchControl::fixed(None, Some(20_000));
            mcts.run(&pos, &moves, &ctl, &mut NullReporter);
            let tree = mcts.kept.as_ref().expect("the tree is kept");
            let most = max_amaf(tree, &tree.root);
            if threads == 1 {
                assert!(most > 4 * AMAF_CAP, "{most} AMAF simulations at most with one thread");
            } else {
                // Two threads may both pass the test below the cap before either adds.
                assert!((AMAF_CAP..=AMAF_CAP + 1).contains(&most), "{most} with {threads} threads");
            }
        }
    }

    /// A prior that likes one Morris move (value 1) and none of the others (−1).
    #[derive(Clone)]
    struct Likes(<Morris as Game>::Move, u32);

    impl Policy<Morris> for Likes {
        fn prior(&self, _pos: &Morris, mv: <Morris as Game>::Move) -> Option<Prior> {
            Some(Prior { value: if mv == self.0 { 1.0 } else { -1.0 }, visits: self.1 })
        }
    }

    /// The root's children's visits after `sims` simulations with the prior of `policy`.
    fn root_visits<P: Policy<Morris>>(pos: &Morris, policy: P, sims: u64) -> Vec<(u32, String)> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut mcts = MonteCarlo::new(16, MctsParams::default(), policy);
        mcts.run(pos, &moves, &SearchControl::fixed(None, Some(sims)), &mut NullReporter);
        let tree = mcts.kept.as_ref().expect("the tree is kept");
        let mut visits: Vec<_> = tree
            .children(&tree.root)
            .iter()
            .map(|c| (c.visits(), c.mv.unwrap().to_string()))
            .collect();
        visits.sort_unstable_by(|a, b| b.cmp(a));
        visits
    }

    #[test]
    fn a_prior_orders_the_untried_moves_and_its_weight_fades_with_visits() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let liked = moves[5];
        // Without a prior every one of the 24 placements is tried; none takes a third.
        let uniform = root_visits(&pos, Uniform, 480);
        assert_eq!(uniform.len(), 24);
        assert!(uniform.iter().all(|&(n, _)| (1..160).contains(&n)), "{uniform:?}");
        // With one, the liked move takes most simulations, the others what exploration
        // gives them ...
        let liked_most = root_visits(&pos, Likes(liked, 50), 480);
        assert_eq!(liked_most[0].1, liked.to_string());
        assert!(liked_most[0].0 > 400, "{liked_most:?}");
        assert!(liked_most[1..].iter().all(|&(n, _)| n <= 3), "{liked_most:?}");
        // ... and a prior worth one simulation gives way to the move's own mean sooner.
        let weak = root_visits(&pos, Likes(liked, 1), 480);
        let weak_liked = weak.iter().find(|(_, m)| *m == liked.to_string()).unwrap().0;
        assert!(weak_liked < liked_most[0].0, "{weak:?}");
    }

    /// A tree of at most 500 nodes for the start of Morris, grown by `threads` threads
    /// to `sims` simulations, collected whenever full (`collect`) or only until it is
    /// full.
    fn small_tree(threads: usize, sims: u64, collect: bool) -> Tree<Morris, Uniform> {
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut rng = Rng::new(9);
        let params = MctsParams::default();
        let mut tree = Tree::<Morris, Uniform>::new(&pos, &moves, 500, params, Uniform, &mut rng);
        tree.shared = threads > 1;
        let nodes = AtomicU64::new(0);
        let ctl = SearchControl::fixed(None, Some(sims));
        let seeds = |t: usize| t as u64;
        if collect {
            let r = &mut NullReporter;
            grow_collecting(&mut tree, &pos, threads, rng, seeds, Some(sims), &nodes, &ctl, r);
        } else {
            grow(&tree, &pos, threads, rng, seeds, Some(sims), &nodes, &ctl, &mut NullReporter);
        }
        tree
    }

    /// The lines of moves from the root to every expanded node.
    fn expanded_lines(tree: &Tree<Morris, Uniform>) -> Vec<Vec<String>> {
        fn walk(
            t: &Tree<Morris, Uniform>,
            n: &Node<<Morris as Game>::Move>,
            line: &mut Vec<String>,
            out: &mut Vec<Vec<String>>,
        ) {
            if t.children(n).is_empty() {
                return;
            }
            out.push(line.clone());
            for child in t.children(n) {
                line.push(child.mv.expect("children have moves").to_string());
                walk(t, child, line, out);
                line.pop();
            }
        }
        let mut out = Vec::new();
        walk(tree, &tree.root, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn a_full_tree_is_collected_and_grows_on_to_the_node_limit() {
        for threads in [1, 2] {
            let filled = small_tree(threads, 20_000, false);
            assert!(filled.full.load(Ordering::Relaxed));
            assert!(filled.root.visits() < 20_000, "grow stops when the tree is full");
            let tree = small_tree(threads, 20_000, true);
            assert_eq!(tree.root.visits(), 20_000);
            let size = tree.blocks.count(&tree.root);
            assert_eq!(tree.size.load(Ordering::Relaxed), size);
            assert!(size <= 500, "{size} nodes");
            // Nodes expanded again after a collection have fewer visits below them than
            // they had: only the sums are checked, as with threads.
            check_visits(&tree, &tree.root, 2);

            // It grew after it was first full: it has nodes that the full tree had not.
            let before = expanded_lines(&filled);
            let new = expanded_lines(&tree).into_iter().filter(|l| !before.contains(l)).count();
            assert!(new > 0, "{threads} threads: no node expanded after the first collection");
        }
    }

    #[test]
    fn a_tree_is_rerooted_two_plies_down_and_not_elsewhere() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let grown = || {
            let mut rng = Rng::new(5);
            let tree = Tree::<Morris, Uniform>::new(
                &pos,
                &moves,
                1 << 20,
                MctsParams::default(),
                Uniform,
                &mut rng,
            );
            let mut worker = Worker::new(&tree, rng);
            for _ in 0..3000 {
                worker.simulate(&pos);
            }
            drop(worker);
            tree
        };
        // The start position is not below itself.
        assert!(grown().reroot(&pos, &moves, 1 << 20).is_none());
        let tree = grown();
        let c = tree.best_child(&tree.root).unwrap();
        let g = tree.best_child(c).unwrap();
        let (visits, grandchildren) = (g.visits(), tree.children(g).len());
        let size = tree.blocks.count(g);
        let mut next = pos.clone();
        next.play(c.mv.unwrap());
        next.play(g.mv.unwrap());
        let mut moves = Vec::new();
        next.generate_moves(&mut moves);
        // Not when the subtree does not fit.
        assert!(grown().reroot(&next, &moves, size - 1).is_none());
        let sub = tree.reroot(&next, &moves, 1 << 20).expect("the subtree is kept");
        assert_eq!(sub.root.visits(), visits);
        assert_eq!(sub.children(&sub.root).len(), grandchildren);
        assert_eq!(sub.root.mover, next.side_to_move());
        assert_eq!(sub.size.load(Ordering::Relaxed), size);
        let root_moves: Vec<_> = sub.children(&sub.root).iter().map(|n| n.mv.unwrap()).collect();
        assert!(moves.iter().all(|m| root_moves.contains(m)));
        assert_eq!(sub.blocks.count(&sub.root), size);
    }

    #[test]
    fn a_timed_search_with_one_root_move_runs_only_enough_for_a_score() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let one = &moves[..1];
        let budget = TimeBudget { soft: None, hard: Duration::from_secs(60) };
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let timed = SearchControl::new(stop, Some(budget), None, None);
        let result = searcher(1).run(&pos, one, &timed, &mut NullReporter);
        assert_eq!((result.best(), result.nodes), (one[0], SINGLE_MOVE_SIMULATIONS));
        // Without a clock the node limit is kept, forced move or not.
        let fixed = SearchControl::fixed(None, Some(1000));
        assert_eq!(searcher(1).run(&pos, one, &fixed, &mut NullReporter).nodes, 1000);
    }

    #[test]
    fn plays_an_immediate_win() {
        // The first positions of seeded random games where the side to move has a move
        // that wins at once: the search must play a winning move, with one thread or two.
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
                for threads in [1, 2] {
                    let played = search(&pos, 300, threads).best();
                    assert!(wins(&played), "{} missed the win in {}", played, pos.to_fen());
                }
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
