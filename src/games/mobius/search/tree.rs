//! A search tree: selection by RAVE-blended values, expansion with immediate wins and
//! forced blocks, random playouts, backup with AMAF updates. Its nodes are the columns of
//! [`Nodes`] when one thread grows it, or the atomic [`SharedNodes`] when several do
//! (tree parallelism); one iteration ([`Worker::iterate`]) is written once for both,
//! through [`Store`] and [`Grow`].

use std::ops::Range;

use super::MctsParams;
use super::shared::SharedNodes;
use crate::core::{Game, Outcome, Rng, Side};
use crate::games::mobius::board::{Mobius, colour};
use crate::games::mobius::flood::Cells;
use crate::games::mobius::geometry::CELLS;
use crate::games::mobius::notation::MobiusMove;
use crate::games::mobius::playout::{fast_below, fill_and_decide};

/// A root child's move and statistics (from the point of view of the player who made
/// the move), for reports and the choice of the move.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootChild {
    pub mv: MobiusMove,
    pub visits: u32,
    pub wins: f32,
}

/// One node's fields (see [`Nodes`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub mv: MobiusMove,
    pub children: u8,
    pub first_child: u32,
    pub visits: u32,
    pub wins: f32,
    pub amaf_visits: u32,
    pub amaf_wins: f32,
}

impl Node {
    /// A node reached by `mv`, without statistics.
    pub fn fresh(mv: MobiusMove) -> Node {
        Node {
            mv,
            children: 0,
            first_child: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }
}

/// Reading a tree's nodes (node 0 is the root).
pub(super) trait Store {
    /// Number of nodes in use.
    fn len(&self) -> usize;
    /// All fields of node `i`.
    fn node(&self, i: usize) -> Node;
    fn mv(&self, i: usize) -> MobiusMove;
    fn visits(&self, i: usize) -> u32;
    fn wins(&self, i: usize) -> f32;
    /// The range of node `i`'s children (empty for a leaf, and for a leaf another thread
    /// is expanding).
    fn child_range(&self, i: usize) -> Range<usize>;
    /// The visits leaf `i` needs to be expanded again after a collection dropped its
    /// children (0: never collected).
    fn regrow_at(&self, i: usize) -> u32;
    /// Writes the RAVE-blended values ([`value`]) of the children `range` (not empty) to
    /// the front of `scratch.values` and returns the greatest.
    fn values(&self, range: Range<usize>, bias: f32, scratch: &mut Scratch) -> f32;
}

/// Growing a tree during iterations.
pub(super) trait Grow: Store {
    /// Reserves leaf `i` for this thread's expansion; false when another thread has it or
    /// the tree is full.
    fn claim(&mut self, i: usize) -> bool;
    /// Gives the claimed leaf `node` the children `moves`; false (and the claim released)
    /// when they do not fit, unless `always` and the store can exceed its capacity.
    fn add_children(&mut self, node: usize, moves: &[MobiusMove], always: bool) -> bool;
    /// A thread descends into node `i`: with several threads, its visit counts at once
    /// (the virtual loss, until [`Grow::visit`] adds the result).
    fn descend(&mut self, i: usize);
    /// Node `i`'s own visit with `result` for the player to move at it (the opponent of
    /// the player who made its move).
    fn visit(&mut self, i: usize, result: f32);
    /// AMAF update of the children `range` of a node whose player to move has `result`:
    /// each child whose cell that player holds at the end (`hit` of the child's cell, 1 or
    /// 0) gets an AMAF visit and `result`.
    fn amaf(
        &mut self,
        range: Range<usize>,
        hit: &[u8; HIT_LEN],
        result: f32,
        scratch: &mut Scratch,
    );
}

impl<T: Store> Store for &T {
    fn len(&self) -> usize {
        (**self).len()
    }
    fn node(&self, i: usize) -> Node {
        (**self).node(i)
    }
    #[inline]
    fn mv(&self, i: usize) -> MobiusMove {
        (**self).mv(i)
    }
    #[inline]
    fn visits(&self, i: usize) -> u32 {
        (**self).visits(i)
    }
    #[inline]
    fn wins(&self, i: usize) -> f32 {
        (**self).wins(i)
    }
    #[inline]
    fn child_range(&self, i: usize) -> Range<usize> {
        (**self).child_range(i)
    }
    #[inline]
    fn regrow_at(&self, i: usize) -> u32 {
        (**self).regrow_at(i)
    }
    #[inline]
    fn values(&self, range: Range<usize>, bias: f32, scratch: &mut Scratch) -> f32 {
        (**self).values(range, bias, scratch)
    }
}

/// The tree's nodes, one column per field (a node is an index into every column), so that
/// selection, which computes the value of every child of each node on the path, streams
/// through contiguous arrays and is vectorized. Statistics are from the point of view of
/// the player who made `mv`. Grown by one thread.
pub(super) struct Nodes {
    /// Maximum number of nodes during a search (the root's expansion may exceed it).
    capacity: usize,
    mv: Vec<MobiusMove>,
    /// Number of children (0 until expanded: every expansion gives at least one).
    children: Vec<u8>,
    /// The first child's index once expanded; before, the visits the node needs to be
    /// expanded again after a collection dropped its children (0: never collected).
    first_child: Vec<u32>,
    visits: Vec<u32>,
    wins: Vec<f32>,
    amaf_visits: Vec<u32>,
    amaf_wins: Vec<f32>,
}

impl Nodes {
    pub(super) fn with_capacity(n: usize) -> Nodes {
        Nodes {
            capacity: n,
            mv: Vec::with_capacity(n),
            children: Vec::with_capacity(n),
            first_child: Vec::with_capacity(n),
            visits: Vec::with_capacity(n),
            wins: Vec::with_capacity(n),
            amaf_visits: Vec::with_capacity(n),
            amaf_wins: Vec::with_capacity(n),
        }
    }

    /// Appends fresh nodes reached by `moves`.
    fn extend(&mut self, moves: &[MobiusMove]) {
        let n = self.len() + moves.len();
        self.mv.extend_from_slice(moves);
        self.children.resize(n, 0);
        self.first_child.resize(n, 0);
        self.visits.resize(n, 0);
        self.wins.resize(n, 0.0);
        self.amaf_visits.resize(n, 0);
        self.amaf_wins.resize(n, 0.0);
    }

    /// Appends node `n`.
    fn push(&mut self, n: Node) {
        self.mv.push(n.mv);
        self.children.push(n.children);
        self.first_child.push(n.first_child);
        self.visits.push(n.visits);
        self.wins.push(n.wins);
        self.amaf_visits.push(n.amaf_visits);
        self.amaf_wins.push(n.amaf_wins);
    }

    /// The range of node `i`'s children (empty before it is expanded).
    #[inline]
    fn child_range(&self, i: usize) -> std::ops::Range<usize> {
        let first = self.first_child[i] as usize;
        first..first + self.children[i] as usize
    }

    /// Node `i`'s own visit with `result` for the player to move at it (the opponent of
    /// the player who made its move).
    #[inline]
    fn visit(&mut self, i: usize, result: f32) {
        self.visits[i] += 1;
        self.wins[i] += 1.0 - result;
    }

    /// AMAF update of the children `range` of a node whose player to move has `result`:
    /// each child whose cell that player holds at the end (`hit` of the child's cell, 1 or
    /// 0) gets an AMAF visit and `result`. Branch-free over the children, vectorized (8
    /// at a time on a processor with AVX2, else 4): a child missed gets 0 added.
    /// `scratch` holds the children's hits.
    #[inline]
    fn amaf(
        &mut self,
        range: std::ops::Range<usize>,
        hit: &[u8; HIT_LEN],
        result: f32,
        scratch: &mut [u32; 256],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            return unsafe { self.amaf_avx2(range, hit, result, scratch) };
        }
        self.amaf_here(range, hit, result, scratch);
    }

    /// [`Nodes::amaf`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn amaf_avx2(
        &mut self,
        range: std::ops::Range<usize>,
        hit: &[u8; HIT_LEN],
        result: f32,
        scratch: &mut [u32; 256],
    ) {
        self.amaf_here(range, hit, result, scratch);
    }

    /// [`Nodes::amaf`] for the instruction set of the caller.
    #[inline(always)]
    fn amaf_here(
        &mut self,
        range: std::ops::Range<usize>,
        hit: &[u8; HIT_LEN],
        result: f32,
        scratch: &mut [u32; 256],
    ) {
        let k = range.len();
        let hits = &mut scratch[..k];
        for (h, mv) in hits.iter_mut().zip(&self.mv[range.clone()]) {
            *h = u32::from(hit[mv.0 as usize]);
        }
        let amaf_visits = &mut self.amaf_visits[range.clone()];
        let amaf_wins = &mut self.amaf_wins[range];
        let (amaf_visits, amaf_wins) = (&mut amaf_visits[..k], &mut amaf_wins[..k]);
        for i in 0..k {
            amaf_visits[i] += hits[i];
            // Exact: hit·result is 0 or result, and adding +0 changes no sum.
            amaf_wins[i] += hits[i] as i32 as f32 * result;
        }
    }

    /// Writes the RAVE-blended values ([`value`]) of the children `range` (not empty) to
    /// the front of `out` and returns the greatest, vectorized: 8 at a time on a
    /// processor with AVX2 (the same operations on each lane, so the same values), else 4.
    #[inline]
    fn values(&self, range: std::ops::Range<usize>, bias: f32, out: &mut [f32; 256]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            return unsafe { self.values_avx2(range, bias, out) };
        }
        self.values_here(range, bias, out)
    }

    /// [`Nodes::values`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn values_avx2(&self, range: std::ops::Range<usize>, bias: f32, out: &mut [f32; 256]) -> f32 {
        self.values_here(range, bias, out)
    }

    /// [`Nodes::values`] for the instruction set of the caller.
    #[inline(always)]
    fn values_here(&self, range: std::ops::Range<usize>, bias: f32, out: &mut [f32; 256]) -> f32 {
        let k = range.len();
        let visits = &self.visits[range.clone()];
        let wins = &self.wins[range.clone()];
        let amaf_visits = &self.amaf_visits[range.clone()];
        let amaf_wins = &self.amaf_wins[range];
        let (visits, wins, amaf_visits, amaf_wins, out) =
            (&visits[..k], &wins[..k], &amaf_visits[..k], &amaf_wins[..k], &mut out[..k]);
        for i in 0..k {
            out[i] = value(visits[i], wins[i], amaf_visits[i], amaf_wins[i], bias);
        }
        max_of(out)
    }
}

impl Store for Nodes {
    fn len(&self) -> usize {
        self.mv.len()
    }

    fn node(&self, i: usize) -> Node {
        Node {
            mv: self.mv[i],
            children: self.children[i],
            first_child: self.first_child[i],
            visits: self.visits[i],
            wins: self.wins[i],
            amaf_visits: self.amaf_visits[i],
            amaf_wins: self.amaf_wins[i],
        }
    }

    #[inline]
    fn mv(&self, i: usize) -> MobiusMove {
        self.mv[i]
    }

    #[inline]
    fn visits(&self, i: usize) -> u32 {
        self.visits[i]
    }

    #[inline]
    fn wins(&self, i: usize) -> f32 {
        self.wins[i]
    }

    #[inline]
    fn child_range(&self, i: usize) -> Range<usize> {
        Nodes::child_range(self, i)
    }

    #[inline]
    fn regrow_at(&self, i: usize) -> u32 {
        self.first_child[i]
    }

    #[inline]
    fn values(&self, range: Range<usize>, bias: f32, scratch: &mut Scratch) -> f32 {
        Nodes::values(self, range, bias, &mut scratch.values)
    }
}

impl Grow for Nodes {
    #[inline]
    fn claim(&mut self, _: usize) -> bool {
        true
    }

    /// The root's children are added even beyond the capacity (`always`).
    fn add_children(&mut self, node: usize, moves: &[MobiusMove], always: bool) -> bool {
        if self.len() + moves.len() > self.capacity && !always {
            return false;
        }
        let first = self.len() as u32;
        self.extend(moves);
        self.first_child[node] = first;
        self.children[node] = moves.len() as u8;
        true
    }

    /// One thread: the visit is counted with its result.
    #[inline]
    fn descend(&mut self, _: usize) {}

    #[inline]
    fn visit(&mut self, i: usize, result: f32) {
        Nodes::visit(self, i, result);
    }

    #[inline]
    fn amaf(
        &mut self,
        range: Range<usize>,
        hit: &[u8; HIT_LEN],
        result: f32,
        scratch: &mut Scratch,
    ) {
        Nodes::amaf(self, range, hit, result, &mut scratch.hits);
    }
}

/// The blend (1 − β)·w/n + β·w̃/ñ with β = ñ / (n + ñ + bias·n·ñ), which simplifies to
/// (w·(1 + bias·ñ) + w̃) / (n + ñ + bias·n·ñ): one division. A child without statistics
/// has the first-play urgency. Counts below 2³¹, converted through `i32`, which
/// vectorizes.
#[inline(always)]
pub(super) fn value(visits: u32, wins: f32, amaf_visits: u32, amaf_wins: f32, bias: f32) -> f32 {
    let (n, an) = (visits as i32 as f32, amaf_visits as i32 as f32);
    let den = n + an + bias * n * an;
    // A child without statistics gets (0 + FPU·1) / (0 + 1). Otherwise `empty` is 0 and
    // adds nothing (exactly: no sum here is −0). No branch, so the blocks vectorize.
    let empty = f32::from(u8::from(den == 0.0));
    (wins * (1.0 + bias * an) + amaf_wins + FIRST_PLAY_URGENCY * empty) / (den + empty)
}

/// Length of a table of bytes indexed by a move (cells and the swap, [`CELLS`]): whole
/// bytes of a set of cells, each spread into 8.
pub(super) const HIT_LEN: usize = (CELLS + 1).div_ceil(8) * 8;

/// For each byte value, the 8 bytes that hold its bits (bit i in byte i, 0 or 1).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut i = 0;
        while i < 8 {
            t[v] |= ((v as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        v += 1;
    }
    t
};

/// Writes 1 at `out[c]` for the cells `c` of `set` and 0 elsewhere: one table load per
/// 8 cells.
fn spread_bits(set: Cells, out: &mut [u8; HIT_LEN]) {
    for (k, chunk) in out.chunks_exact_mut(8).enumerate() {
        let byte = (set.0[k / 8] >> (8 * (k % 8))) & 0xFF;
        chunk.copy_from_slice(&SPREAD[byte as usize].to_le_bytes());
    }
}

/// Bytes per tree node that `Hash` buys. The columns take 22 (see [`Nodes`]); 28 is the
/// size of the former layout (a 24-byte node and its cached value), kept so that a given
/// `Hash` holds as many nodes as before and searches that fill the tree stay the same.
pub(super) const NODE_BYTES: usize = 28;

/// The value of a child without any statistics: above every real value, so each child
/// is tried (or gets AMAF statistics) before any is tried twice.
const FIRST_PLAY_URGENCY: f32 = 1.1;

/// The move stored at the root (never read).
const NO_MOVE: MobiusMove = MobiusMove(0);

/// Working space of selection and backup: the values of one node's children, their AMAF
/// hits, and their statistics copied from shared nodes.
pub(super) struct Scratch {
    pub values: [f32; 256],
    pub hits: [u32; 256],
    pub own: [u64; 256],
    pub amaf: [u64; 256],
}

/// The state of one searching thread: its random playouts and scratch space.
pub(super) struct Worker {
    rng: Rng,
    /// The path of the current iteration (node indices).
    path: Vec<u32>,
    /// The empty cells of a playout.
    empties: [u8; CELLS],
    /// The moves of an expansion.
    moves: Vec<MobiusMove>,
    /// Scratch of the AMAF backup: per side, 1 for the cells it holds at the end of the
    /// playout (0 for the swap's index [`CELLS`]).
    hit: Box<[[u8; HIT_LEN]; 2]>,
    scratch: Box<Scratch>,
    /// Deepest path of the current search.
    pub seldepth: u32,
    /// Nodes created by this thread's expansions in the current search.
    pub expanded: u64,
}

impl Worker {
    fn new(seed: u64) -> Worker {
        Worker {
            rng: Rng::new(seed),
            path: Vec::new(),
            empties: [0; CELLS],
            moves: Vec::with_capacity(CELLS + 1),
            hit: Box::new([[0; HIT_LEN]; 2]),
            scratch: Box::new(Scratch {
                values: [0.0; 256],
                hits: [0; 256],
                own: [0; 256],
                amaf: [0; 256],
            }),
            seldepth: 0,
            expanded: 0,
        }
    }

    /// One iteration from `root_pos` (the prepared root): select down the tree, expand,
    /// play out, back up. True when an expansion found the tree full.
    pub fn iterate<S: Grow>(
        &mut self,
        nodes: &mut S,
        params: &MctsParams,
        root_pos: &Mobius,
    ) -> bool {
        let mut full = false;
        let mut pos = root_pos.clone();
        self.path.clear();
        self.path.push(0);
        nodes.descend(0);
        let mut node = 0usize;
        while pos.outcome().is_none() {
            if nodes.child_range(node).is_empty() {
                let ready = node == 0
                    || nodes.visits(node) >= params.expand_after.max(nodes.regrow_at(node));
                if !ready || !nodes.claim(node) {
                    break;
                }
                if !self.expand(nodes, node, &pos) {
                    full = true;
                    break;
                }
            }
            node = self.select(nodes, params, node);
            nodes.descend(node);
            pos.play(nodes.mv(node));
            self.path.push(node as u32);
        }
        self.seldepth = self.seldepth.max(self.path.len() as u32 - 1);
        let (red_result, stones) = match pos.outcome() {
            Some(o) => (outcome_value(o), pos.stone_sets()),
            None => self.playout(&mut pos),
        };
        self.backup(nodes, root_pos.side_to_move(), stones, red_result);
        full
    }

    /// Creates the children of the claimed leaf `node` at `pos`; false when the tree is
    /// full.
    fn expand<S: Grow>(&mut self, nodes: &mut S, node: usize, pos: &Mobius) -> bool {
        let stm = pos.side_to_move();
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        let mine = winning_cells(pos, stm);
        if let Some(&win) = mine.first() {
            moves.push(MobiusMove(win));
        } else {
            let threats = winning_cells(pos, stm.opponent());
            if threats.is_empty() {
                pos.generate_moves(&mut moves);
            } else {
                moves.extend(threats.iter().map(|&c| MobiusMove(c)));
            }
        }
        let fits = nodes.add_children(node, &moves, node == 0);
        if fits {
            self.expanded += moves.len() as u64;
        }
        self.moves = moves;
        fits
    }

    /// The child of `node` with the best RAVE-blended value plus exploration.
    fn select<S: Store>(&mut self, nodes: &S, params: &MctsParams, node: usize) -> usize {
        let c = params.exploration;
        let range = nodes.child_range(node);
        let (first, k) = (range.start, range.len());
        // Start at a random child so that ties among fresh children break at random.
        let offset = fast_below(&mut self.rng, k);
        let max = nodes.values(range, params.rave_bias, &mut self.scratch);
        let values = &self.scratch.values[..k];
        if c <= 0.0 {
            return first + first_equal_from(values, max, offset);
        }
        let log_n = (nodes.visits(node).max(1) as f32).ln();
        let mut best = (f32::NEG_INFINITY, 0usize);
        for i in (offset..k).chain(0..offset) {
            let visits = nodes.visits(first + i);
            let value = values[i] + c * (log_n / (visits as f32 + 1.0)).sqrt();
            if value > best.0 {
                best = (value, first + i);
            }
        }
        best.1
    }

    /// Fills the board of `pos` at random and returns the result for Red (1, 0 or ½ for a
    /// draw under the literal rule) and the final stones (Red's, Blue's).
    fn playout(&mut self, pos: &mut Mobius) -> (f32, [Cells; 2]) {
        let stones = pos.stone_sets();
        let n = stones[0].or(stones[1]).complement().write_to(&mut self.empties);
        let empties = &mut self.empties[..n];
        if pos.options().full_board_decides() {
            let first = colour(pos.side_to_move());
            let (red, red_wins) = fill_and_decide(stones, empties, first, &mut self.rng);
            return (if red_wins { 1.0 } else { 0.0 }, [red, red.complement()]);
        }
        for i in (1..n).rev() {
            let j = fast_below(&mut self.rng, i + 1);
            empties.swap(i, j);
        }
        for &c in empties.iter() {
            pos.place(c as usize);
            if pos.outcome().is_some() {
                break;
            }
        }
        (pos.outcome().map_or(0.5, outcome_value), pos.stone_sets())
    }

    /// Backs up a result along `self.path`, with AMAF updates from the final stones
    /// (Red's, Blue's).
    fn backup<S: Grow>(
        &mut self,
        nodes: &mut S,
        root_stm: Side,
        stones: [Cells; 2],
        red_result: f32,
    ) {
        // The swap (cell index CELLS) is never in a set of stones.
        for (hit, set) in self.hit.iter_mut().zip(stones) {
            spread_bits(set, hit);
        }
        let mut side = root_stm;
        for &idx in &self.path {
            let idx = idx as usize;
            let result = if side == Side::P1 { red_result } else { 1.0 - red_result };
            // The node's own statistics belong to the player who moved into it.
            nodes.visit(idx, result);
            let children = nodes.child_range(idx);
            if !children.is_empty() {
                let hit = &self.hit[side.index()];
                nodes.amaf(children, hit, result, &mut self.scratch);
            }
            side = side.opponent();
        }
    }
}

/// The nodes of a tree: one thread's columns, or the atomic ones of several threads.
enum Columns {
    One(Nodes),
    Shared(SharedNodes),
}

/// Read access to either kind of nodes (for reports and the work between searches; not
/// for iterations, which are compiled for each kind).
#[derive(Clone, Copy)]
pub(super) enum NodesRef<'a> {
    One(&'a Nodes),
    Shared(&'a SharedNodes),
}

macro_rules! dispatch {
    ($self:ident, $n:ident => $e:expr) => {
        match $self {
            NodesRef::One($n) => $e,
            NodesRef::Shared($n) => $e,
        }
    };
}

impl Store for NodesRef<'_> {
    fn len(&self) -> usize {
        dispatch!(self, n => n.len())
    }
    fn node(&self, i: usize) -> Node {
        dispatch!(self, n => n.node(i))
    }
    fn mv(&self, i: usize) -> MobiusMove {
        dispatch!(self, n => n.mv(i))
    }
    fn visits(&self, i: usize) -> u32 {
        dispatch!(self, n => n.visits(i))
    }
    fn wins(&self, i: usize) -> f32 {
        dispatch!(self, n => n.wins(i))
    }
    fn child_range(&self, i: usize) -> Range<usize> {
        dispatch!(self, n => Store::child_range(*n, i))
    }
    fn regrow_at(&self, i: usize) -> u32 {
        dispatch!(self, n => n.regrow_at(i))
    }
    fn values(&self, range: Range<usize>, bias: f32, scratch: &mut Scratch) -> f32 {
        dispatch!(self, n => Store::values(*n, range, bias, scratch))
    }
}

/// The search tree, kept between moves, and the threads' [`Worker`]s.
pub(super) struct Tree {
    params: MctsParams,
    columns: Columns,
    /// Maximum number of nodes.
    capacity: usize,
    /// The position at node 0, if the tree is kept.
    root: Option<Mobius>,
    /// One per thread.
    workers: Vec<Worker>,
    /// One thread: an expansion found the tree full, collect before the next iteration.
    full: bool,
}

impl Tree {
    /// An empty tree of at most `capacity` nodes grown by `threads` threads.
    pub fn new(capacity: usize, params: MctsParams, threads: usize) -> Tree {
        let columns = if threads > 1 {
            Columns::Shared(SharedNodes::new(capacity))
        } else {
            // Reserved once (the pages are touched only as the tree grows), so the tree
            // never reallocates beyond its budget.
            Columns::One(Nodes::with_capacity(capacity))
        };
        let mut t = Tree {
            params,
            columns,
            capacity,
            root: None,
            workers: (0..threads).map(|_| Worker::new(params.seed)).collect(),
            full: false,
        };
        t.clear();
        t
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.set_nodes(&fresh_root(self.capacity));
        self.root = None;
    }

    /// Replaces the nodes by `nodes`.
    fn set_nodes(&mut self, nodes: &Nodes) {
        match &mut self.columns {
            Columns::One(n) => {
                let mut fresh = Nodes::with_capacity(self.capacity);
                (0..nodes.len()).for_each(|i| fresh.push(nodes.node(i)));
                *n = fresh;
            }
            Columns::Shared(s) => s.load(nodes),
        }
        self.full = false;
    }

    /// The nodes.
    pub fn nodes(&self) -> NodesRef<'_> {
        match &self.columns {
            Columns::One(n) => NodesRef::One(n),
            Columns::Shared(s) => NodesRef::Shared(s),
        }
    }

    /// Number of nodes in use.
    pub fn len(&self) -> usize {
        self.nodes().len()
    }

    /// Maximum number of nodes.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The threads' workers (thread 0's first).
    pub fn workers(&self) -> &[Worker] {
        &self.workers
    }

    /// The atomic nodes and the workers, when several threads grow the tree.
    pub fn shared(&mut self) -> Option<(&SharedNodes, &mut [Worker])> {
        match &self.columns {
            Columns::Shared(s) => Some((s, &mut self.workers)),
            Columns::One(_) => None,
        }
    }

    /// Readies the tree for a search of `pos` (not over): keeps the subtree of `pos` if
    /// it descends from the previous root, seeds thread i's playouts with `seed` mixed
    /// with `helper_seed`·i, and expands the root. With `only` (`go searchmoves`), the
    /// root is a fresh node whose children are those moves, and the tree is not kept for
    /// the next search. Several threads: a tree that filled in the last search is
    /// collected now.
    pub fn prepare(
        &mut self,
        pos: &Mobius,
        seed: u64,
        helper_seed: u64,
        only: Option<&[MobiusMove]>,
    ) {
        debug_assert!(pos.outcome().is_none());
        for (i, w) in self.workers.iter_mut().enumerate() {
            w.rng = Rng::new(seed ^ helper_seed.wrapping_mul(i as u64));
            w.seldepth = 0;
            w.expanded = 0;
        }
        if let Some(moves) = only {
            self.clear();
            let mut root = fresh_root(self.capacity);
            root.add_children(0, moves, true);
            self.set_nodes(&root);
            return;
        }
        self.reuse_or_reset(pos);
        if let Columns::Shared(s) = &self.columns
            && s.is_full()
        {
            self.collect();
        }
        let worker = &mut self.workers[0];
        match &mut self.columns {
            Columns::One(n) if n.child_range(0).is_empty() => worker.expand_root(n, pos),
            Columns::Shared(s) if s.child_range(0).is_empty() => worker.expand_root(&mut &*s, pos),
            _ => {}
        }
    }

    /// One iteration of thread 0 when it grows the tree alone (collecting a full tree
    /// first); returns the depth of its deepest path so far.
    pub fn iterate_alone(&mut self, pos: &Mobius) -> u32 {
        if self.full {
            self.collect();
        }
        let Columns::One(n) = &mut self.columns else { unreachable!("one thread") };
        self.full = self.workers[0].iterate(n, &self.params, pos);
        self.workers[0].seldepth
    }

    /// Keeps the subtree of `pos` if it descends from the stored root, else starts afresh.
    fn reuse_or_reset(&mut self, pos: &Mobius) {
        let found = match &self.root {
            Some(old) if old.options() == pos.options() && old.ply() <= pos.ply() => {
                find_descendant(&self.nodes(), 0, old, pos, pos.ply() - old.ply())
            }
            _ => None,
        };
        match found {
            Some(0) => {}
            Some(idx) => self.compact(idx, 0),
            None => self.clear(),
        }
        self.root = Some(pos.clone());
    }

    /// Garbage collection when the tree is full, so that the search keeps growing where
    /// it goes now: the children of the least visited nodes are dropped (those nodes keep
    /// their own statistics and are expanded again once their visits have doubled),
    /// freeing at least half of the capacity. A parent has more visits than each child,
    /// so the nodes kept (at least `threshold` visits) form the top of the tree.
    fn collect(&mut self) {
        let threshold = collection_threshold(&self.nodes(), self.capacity);
        self.compact(0, threshold);
    }

    /// Keeps the subtree of `idx` as the tree (see [`compact`]).
    fn compact(&mut self, idx: u32, threshold: u32) {
        let kept = compact(&self.nodes(), idx, threshold, self.capacity);
        match &mut self.columns {
            Columns::One(n) => *n = kept,
            Columns::Shared(s) => s.load(&kept),
        }
        self.full = false;
    }
}

impl Worker {
    /// Expands the root (the tree is exclusive, and a root's children always fit).
    fn expand_root<S: Grow>(&mut self, nodes: &mut S, pos: &Mobius) {
        let claimed = nodes.claim(0);
        debug_assert!(claimed);
        self.expand(nodes, 0, pos);
    }
}

/// A tree holding only a root, in columns of `capacity` nodes.
fn fresh_root(capacity: usize) -> Nodes {
    let mut n = Nodes::with_capacity(capacity);
    n.extend(&[NO_MOVE]);
    n
}

/// The root's children of `nodes` (in their fixed order).
pub(super) fn root_children(nodes: &impl Store) -> Vec<RootChild> {
    nodes
        .child_range(0)
        .map(|c| RootChild { mv: nodes.mv(c), visits: nodes.visits(c), wins: nodes.wins(c) })
        .collect()
}

/// The node `plies` below `node` (at position `at`) whose position is `target`.
fn find_descendant(
    nodes: &impl Store,
    node: u32,
    at: &Mobius,
    target: &Mobius,
    plies: usize,
) -> Option<u32> {
    if plies == 0 {
        return (at == target).then_some(node);
    }
    for child in nodes.child_range(node as usize) {
        let mut next = at.clone();
        next.play(nodes.mv(child));
        // Every stone of `next` must stand in `target` with the same colour.
        let consistent = next.cells().iter().zip(target.cells()).all(|(&a, &b)| a == 0 || a == b);
        if consistent
            && next.outcome().is_none()
            && let Some(found) = find_descendant(nodes, child as u32, &next, target, plies - 1)
        {
            return Some(found);
        }
    }
    None
}

/// Collects a full shared tree ([`Tree::collect`]); only while no other thread uses it.
pub(super) fn collect_shared(nodes: &SharedNodes) {
    let capacity = nodes.capacity();
    nodes.load(&compact(nodes, 0, collection_threshold(nodes, capacity), capacity));
}

/// The fewest visits a node of `nodes` needs to keep its children in a collection that
/// leaves at most half of `capacity` in use ([`Tree::collect`]).
fn collection_threshold(nodes: &impl Store, capacity: usize) -> u32 {
    let mut by_visits: Vec<(u32, usize)> = (1..nodes.len())
        .map(|i| (nodes.visits(i), nodes.child_range(i).len()))
        .filter(|&(_, children)| children > 0)
        .collect();
    by_visits.sort_unstable_by_key(|&(visits, _)| std::cmp::Reverse(visits));
    let budget = capacity / 2;
    let mut kept = 1 + nodes.child_range(0).len();
    for &(visits, children) in &by_visits {
        if kept + children > budget {
            return visits + 1;
        }
        kept += children;
    }
    0
}

/// Copies the subtree of `idx` to the front of fresh columns of `capacity` nodes, breadth
/// first, as the new root; below it, nodes with fewer than `threshold` visits lose their
/// children.
fn compact(old: &impl Store, idx: u32, threshold: u32, capacity: usize) -> Nodes {
    let mut nodes = Nodes::with_capacity(capacity);
    nodes.push(Node { mv: NO_MOVE, ..old.node(idx as usize) });
    let mut queue = vec![(idx as usize, 0usize)];
    let mut head = 0;
    while head < queue.len() {
        let (from, to) = queue[head];
        head += 1;
        let children = old.child_range(from);
        if children.is_empty() {
            continue;
        }
        if to != 0 && old.visits(from) < threshold {
            // Expanded again only once it has doubled its visits, so that the
            // collected statistics are not rebuilt for a node the search left.
            nodes.children[to] = 0;
            nodes.first_child[to] = old.visits(from).saturating_mul(2);
            continue;
        }
        let start = nodes.len();
        nodes.first_child[to] = start as u32;
        for (k, c) in children.enumerate() {
            nodes.push(old.node(c));
            queue.push((c, start + k));
        }
    }
    nodes
}

/// The most visited child of `node` (the first of equals), if it has children.
fn best_child(nodes: &impl Store, node: usize) -> Option<usize> {
    nodes.child_range(node).max_by_key(|&c| (nodes.visits(c), std::cmp::Reverse(c)))
}

/// The variation after the root move `mv`: most visited children while they have been
/// visited (empty when `mv` is not a root child).
pub(super) fn line_after(nodes: &impl Store, mv: MobiusMove) -> Vec<MobiusMove> {
    let Some(mut node) = nodes.child_range(0).find(|&c| nodes.mv(c) == mv) else {
        return Vec::new();
    };
    let mut line = Vec::new();
    while let Some(c) = best_child(nodes, node) {
        if nodes.visits(c) == 0 {
            break;
        }
        line.push(nodes.mv(c));
        node = c;
    }
    line
}

/// The greatest of `values` (not empty, no NaN), vectorized.
#[inline(always)]
pub(super) fn max_of(values: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [f32::NEG_INFINITY; LANES];
    let chunks = values.chunks_exact(LANES);
    let mut max =
        chunks.remainder().iter().fold(f32::NEG_INFINITY, |m, &v| if v > m { v } else { m });
    for chunk in chunks {
        for (lane, &v) in lanes.iter_mut().zip(chunk) {
            *lane = if v > *lane { v } else { *lane };
        }
    }
    for lane in lanes {
        max = if lane > max { lane } else { max };
    }
    max
}

/// The index of the first of `values` equal to `max` in the order `offset..`, then
/// `..offset`. With `max` the greatest (no NaN), this is what a scan with a strict `>`
/// from `offset` round to `offset − 1` finds.
fn first_equal_from(values: &[f32], max: f32, offset: usize) -> usize {
    match first_equal(&values[offset..], max) {
        Some(i) => offset + i,
        None => first_equal(&values[..offset], max).unwrap_or(0),
    }
}

/// The index of the first of `values` equal to `x`: blocks of 4 compared at once into a
/// mask, then the rest one by one.
fn first_equal(values: &[f32], x: f32) -> Option<usize> {
    let chunks = values.chunks_exact(4);
    let rest = chunks.remainder();
    for (b, chunk) in chunks.enumerate() {
        let mask = equal_mask([chunk[0], chunk[1], chunk[2], chunk[3]], x);
        if mask != 0 {
            return Some(b * 4 + mask.trailing_zeros() as usize);
        }
    }
    rest.iter().position(|&v| v == x).map(|i| values.len() - rest.len() + i)
}

/// Bit `j` set when `v[j] == x`: one SSE comparison and its sign mask on x86-64.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn equal_mask(v: [f32; 4], x: f32) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_ps, _mm_movemask_ps, _mm_set1_ps, _mm_setr_ps};
    // SAFETY: SSE is part of every x86-64 processor.
    unsafe {
        let v = _mm_setr_ps(v[0], v[1], v[2], v[3]);
        _mm_movemask_ps(_mm_cmpeq_ps(v, _mm_set1_ps(x))) as u32
    }
}

/// Bit `j` set when `v[j] == x`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn equal_mask(v: [f32; 4], x: f32) -> u32 {
    v.iter().enumerate().fold(0, |m, (j, &y)| m | u32::from(y == x) << j)
}

/// The result for Red of a finished game: 1 when Red wins, 0 when Blue does, ½ a draw.
fn outcome_value(o: Outcome) -> f32 {
    match o {
        Outcome::Win(Side::P1) => 1.0,
        Outcome::Win(Side::P2) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// The empty cells where a stone of `side` would win at once.
pub(super) fn winning_cells(pos: &Mobius, side: Side) -> Vec<u8> {
    // A win needs at least 10 stones (spec): skip the test before.
    let own = pos.cells().iter().filter(|&&v| v == colour(side)).count();
    if own < 9 {
        return Vec::new();
    }
    (0..CELLS).filter(|&c| pos.cells()[c] == 0 && pos.wins_with(side, c)).map(|c| c as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::{Cells, HIT_LEN, MobiusMove, Nodes, first_equal_from, spread_bits, value};
    use crate::core::Rng;
    use crate::games::mobius::geometry::CELLS;

    /// Nodes whose children `1..=k` have random statistics drawn from a small pool (so
    /// that equal and nearly equal values are common), some without statistics.
    fn random_children(rng: &mut Rng, k: usize) -> Nodes {
        let mut nodes = Nodes::with_capacity(k + 1);
        nodes.extend(&vec![MobiusMove(0); k + 1]);
        let pool: Vec<(u32, f32, u32, f32)> = (0..6)
            .map(|_| {
                let n = (rng.next_u64() % 3000) as u32;
                let an = (rng.next_u64() % 3000) as u32;
                let w = (rng.next_u64() % (u64::from(n) + 1)) as f32;
                let aw = (rng.next_u64() % (u64::from(an) + 1)) as f32;
                (n, w, an, aw)
            })
            .chain([(0, 0.0, 0, 0.0), (2000, 1000.0, 2000, 1000.0), (2001, 1000.5, 2000, 1000.0)])
            .collect();
        for c in 1..=k {
            let (n, w, an, aw) = pool[(rng.next_u64() % pool.len() as u64) as usize];
            (nodes.visits[c], nodes.wins[c], nodes.amaf_visits[c], nodes.amaf_wins[c]) =
                (n, w, an, aw);
        }
        nodes
    }

    #[test]
    fn selection_finds_the_first_greatest_value_from_the_offset() {
        let mut rng = Rng::new(3);
        let mut values = [0.0; 256];
        for k in 1..=140 {
            for _ in 0..30 {
                let nodes = random_children(&mut rng, k);
                let offset = (rng.next_u64() % k as u64) as usize;
                let bias = [0.0, 0.002, 0.5][(rng.next_u64() % 3) as usize];
                let max = nodes.values(1..k + 1, bias, &mut values);
                // The plain scan: strict `>` from `offset` round to `offset − 1`.
                let mut expected = (f32::NEG_INFINITY, 0);
                for i in (offset..k).chain(0..offset) {
                    let c = i + 1;
                    let n = &nodes;
                    let v = value(n.visits[c], n.wins[c], n.amaf_visits[c], n.amaf_wins[c], bias);
                    assert_eq!(values[i], v);
                    if v > expected.0 {
                        expected = (v, i);
                    }
                }
                assert_eq!(first_equal_from(&values[..k], max, offset), expected.1);
            }
        }
    }

    #[test]
    fn spread_bits_marks_exactly_the_cells_of_the_set() {
        let mut rng = Rng::new(5);
        let mut out = [7u8; HIT_LEN];
        for _ in 0..200 {
            let set = Cells([rng.next_u64(), rng.next_u64(), rng.next_u64() & ((1 << 10) - 1)]);
            spread_bits(set, &mut out);
            for (c, &h) in out.iter().enumerate() {
                let member = c < CELLS && set.0[c / 64] >> (c % 64) & 1 == 1;
                assert_eq!(h, u8::from(member), "cell {c}");
            }
        }
    }
}
