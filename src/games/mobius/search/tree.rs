//! One search tree, grown by one thread: selection by RAVE-blended values, expansion with
//! immediate wins and forced blocks, random playouts, backup with AMAF updates.

use std::sync::Arc;

use super::PLAYOUT_SEED;
use crate::core::{Game, Outcome, Rng, Side};
use crate::games::mobius::board::{Mobius, colour};
use crate::games::mobius::flood::Cells;
use crate::games::mobius::geometry::CELLS;
use crate::games::mobius::notation::MobiusMove;
use crate::games::mobius::playout::{fast_below, fill_and_decide};
use crate::search::nnue::{Accumulator, FeatureDelta, Features, Network};
use crate::search::{MctsParams, collection_threshold};

/// A network whose value of the position after a move is the move's prior (Gelly and
/// Silver's prior knowledge): a new child starts with `visits` all-moves-as-first
/// simulations of that value, so selection tries first the moves the network likes, and
/// the prior fades as the child gathers statistics of its own.
#[derive(Clone)]
pub(super) struct NetPrior {
    pub net: Arc<Network>,
    pub visits: u32,
}

/// The scratch of [`NetPrior`]: the accumulators of the expanded position and of one
/// child, and one move's feature changes.
struct PriorScratch {
    parent: Accumulator,
    child: Accumulator,
    features: Vec<u32>,
    delta: FeatureDelta,
}

/// A root child's move and statistics (from the point of view of the player who made
/// the move), for reports and the choice of the move.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootChild {
    pub mv: MobiusMove,
    pub visits: u32,
    pub wins: f32,
}

/// The tree's nodes, one column per field (a node is an index into every column), so that
/// selection, which computes the value of every child of each node on the path, streams
/// through contiguous arrays and is vectorized. Statistics are from the point of view of
/// the player who made `mv`.
#[derive(Default)]
struct Nodes {
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
    fn with_capacity(n: usize) -> Nodes {
        Nodes {
            mv: Vec::with_capacity(n),
            children: Vec::with_capacity(n),
            first_child: Vec::with_capacity(n),
            visits: Vec::with_capacity(n),
            wins: Vec::with_capacity(n),
            amaf_visits: Vec::with_capacity(n),
            amaf_wins: Vec::with_capacity(n),
        }
    }

    fn len(&self) -> usize {
        self.mv.len()
    }

    fn clear(&mut self) {
        self.mv.clear();
        self.children.clear();
        self.first_child.clear();
        self.visits.clear();
        self.wins.clear();
        self.amaf_visits.clear();
        self.amaf_wins.clear();
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

    /// Appends a copy of node `i` of `from`.
    fn push_copy(&mut self, from: &Nodes, i: usize) {
        self.mv.push(from.mv[i]);
        self.children.push(from.children[i]);
        self.first_child.push(from.first_child[i]);
        self.visits.push(from.visits[i]);
        self.wins.push(from.wins[i]);
        self.amaf_visits.push(from.amaf_visits[i]);
        self.amaf_wins.push(from.amaf_wins[i]);
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

/// The blend (1 − β)·w/n + β·w̃/ñ with β = ñ / (n + ñ + bias·n·ñ), which simplifies to
/// (w·(1 + bias·ñ) + w̃) / (n + ñ + bias·n·ñ): one division. A child without statistics
/// has the first-play urgency. Counts below 2³¹, converted through `i32`, which
/// vectorizes.
#[inline(always)]
fn value(visits: u32, wins: f32, amaf_visits: u32, amaf_wins: f32, bias: f32) -> f32 {
    let (n, an) = (visits as i32 as f32, amaf_visits as i32 as f32);
    let den = n + an + bias * n * an;
    // A child without statistics gets (0 + FPU·1) / (0 + 1). Otherwise `empty` is 0 and
    // adds nothing (exactly: no sum here is −0). No branch, so the blocks vectorize.
    let empty = f32::from(u8::from(den == 0.0));
    (wins * (1.0 + bias * an) + amaf_wins + FIRST_PLAY_URGENCY * empty) / (den + empty)
}

/// Length of a table of bytes indexed by a move (cells and the swap, [`CELLS`]): whole
/// bytes of a set of cells, each spread into 8.
const HIT_LEN: usize = (CELLS + 1).div_ceil(8) * 8;

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

/// The tree of one search thread, kept between moves.
pub(super) struct Tree {
    params: MctsParams,
    nodes: Nodes,
    /// Maximum number of nodes.
    capacity: usize,
    /// The position at `nodes[0]`, if the tree is kept.
    root: Option<Mobius>,
    rng: Rng,
    /// Scratch: the path of the current iteration (node indices).
    path: Vec<u32>,
    /// Scratch: the empty cells of a playout.
    empties: [u8; CELLS],
    /// Scratch: the moves of an expansion.
    moves: Vec<MobiusMove>,
    /// Scratch of the AMAF backup: per side, 1 for the cells it holds at the end of the
    /// playout (0 for the swap's index [`CELLS`]); the hits of one node's children.
    hit: Box<[[u8; HIT_LEN]; 2]>,
    hits: Box<[u32; 256]>,
    /// Scratch of selection: the values of one node's children.
    values: Box<[f32; 256]>,
    /// Deepest path of the current search.
    pub seldepth: u32,
    /// An expansion found the tree full: collect before the next iteration.
    full: bool,
    /// Nodes created by expansions in the current search.
    pub expanded: u64,
    /// The root children this tree may select, by position among them (empty: all); set
    /// when the threads split the root moves ([`Tree::restrict_root`]).
    root_allowed: Vec<bool>,
    /// The children's priors, if any, and their scratch.
    prior: Option<(NetPrior, Box<PriorScratch>)>,
}

impl Tree {
    /// An empty tree of at most `capacity` nodes, whose new children get `prior`'s
    /// values if given.
    pub fn new(capacity: usize, params: MctsParams, prior: Option<NetPrior>) -> Tree {
        let prior = prior.map(|p| {
            let scratch = PriorScratch {
                parent: Accumulator::new(&p.net),
                child: Accumulator::new(&p.net),
                features: Vec::with_capacity(CELLS),
                delta: FeatureDelta::default(),
            };
            (p, Box::new(scratch))
        });
        let mut t = Tree {
            params,
            // Reserved once (the pages are touched only as the tree grows), so the tree
            // never reallocates beyond its budget.
            nodes: Nodes::with_capacity(capacity),
            capacity,
            root: None,
            rng: Rng::new(PLAYOUT_SEED),
            path: Vec::new(),
            empties: [0; CELLS],
            moves: Vec::with_capacity(CELLS + 1),
            hit: Box::new([[0; HIT_LEN]; 2]),
            hits: Box::new([0; 256]),
            values: Box::new([0.0; 256]),
            seldepth: 0,
            full: false,
            expanded: 0,
            root_allowed: Vec::new(),
            prior,
        };
        t.clear();
        t
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.nodes.extend(&[NO_MOVE]);
        self.root = None;
    }

    /// Number of nodes in use.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Maximum number of nodes.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Readies the tree for a search of `pos` (not over): keeps the subtree of `pos` if
    /// it descends from the previous root, seeds the playouts with `seed` and expands the
    /// root. With `only` (`go searchmoves`), the root is a fresh node whose children are
    /// those moves, and the tree is not kept for the next search.
    pub fn prepare(&mut self, pos: &Mobius, seed: u64, only: Option<&[MobiusMove]>) {
        debug_assert!(pos.outcome().is_none());
        self.rng = Rng::new(seed);
        self.seldepth = 0;
        self.expanded = 0;
        self.root_allowed.clear();
        if let Some(moves) = only {
            self.clear();
            self.add_children(0, moves);
            self.add_priors(0, pos);
            return;
        }
        self.reuse_or_reset(pos);
        if self.nodes.children[0] == 0 {
            self.expand(0, pos);
        }
    }

    /// The root's children (in their fixed order).
    pub fn root_children(&self) -> Vec<RootChild> {
        let n = &self.nodes;
        n.child_range(0)
            .map(|c| RootChild { mv: n.mv[c], visits: n.visits[c], wins: n.wins[c] })
            .collect()
    }

    /// From now until the next [`Tree::prepare`], selection at the root picks only the
    /// children whose move `allowed` accepts; if it accepts none (more threads than root
    /// moves), all of them, as before.
    pub fn restrict_root(&mut self, allowed: impl Fn(MobiusMove) -> bool) {
        let n = &self.nodes;
        let mask: Vec<bool> = n.child_range(0).map(|c| allowed(n.mv[c])).collect();
        self.root_allowed = if mask.contains(&true) { mask } else { Vec::new() };
    }

    /// The visits of the root child `mv` (0 when it is not one).
    pub fn root_visits(&self, mv: MobiusMove) -> u32 {
        let n = &self.nodes;
        n.child_range(0).find(|&c| n.mv[c] == mv).map_or(0, |c| n.visits[c])
    }

    /// Keeps the subtree of `pos` if it descends from the stored root, else starts afresh.
    fn reuse_or_reset(&mut self, pos: &Mobius) {
        let found = match &self.root {
            Some(old) if old.options() == pos.options() && old.ply() <= pos.ply() => {
                self.find_descendant(0, old, pos, pos.ply() - old.ply())
            }
            _ => None,
        };
        match found {
            Some(0) => {}
            Some(idx) => self.reroot(idx),
            None => self.clear(),
        }
        self.root = Some(pos.clone());
    }

    /// The node `plies` below `node` (at position `at`) whose position is `target`.
    fn find_descendant(
        &self,
        node: u32,
        at: &Mobius,
        target: &Mobius,
        plies: usize,
    ) -> Option<u32> {
        if plies == 0 {
            return (at == target).then_some(node);
        }
        for child in self.nodes.child_range(node as usize) {
            let mut next = at.clone();
            next.play(self.nodes.mv[child]);
            // Every stone of `next` must stand in `target` with the same colour.
            let consistent =
                next.cells().iter().zip(target.cells()).all(|(&a, &b)| a == 0 || a == b);
            if consistent
                && next.outcome().is_none()
                && let Some(found) = self.find_descendant(child as u32, &next, target, plies - 1)
            {
                return Some(found);
            }
        }
        None
    }

    /// Makes `idx` the root, keeping only its subtree.
    fn reroot(&mut self, idx: u32) {
        self.compact(idx, 0);
    }

    /// Garbage collection when the tree is full, so that the search keeps growing where
    /// it goes now: the children of the least visited nodes are dropped (those nodes keep
    /// their own statistics and are expanded again once their visits have doubled),
    /// freeing at least half of the capacity. A parent has more visits than each child, so the nodes kept
    /// (at least `threshold` visits) form the top of the tree.
    fn collect(&mut self) {
        let n = &self.nodes;
        let mut by_visits: Vec<(u32, usize)> = (1..n.len())
            .filter(|&i| n.children[i] > 0)
            .map(|i| (n.visits[i], n.children[i] as usize))
            .collect();
        let root_children = self.nodes.children[0] as usize;
        let threshold = collection_threshold(&mut by_visits, root_children, self.capacity);
        self.compact(0, threshold);
    }

    /// Copies the subtree of `idx` to the front of a fresh node array, breadth first, as
    /// the new root; below it, nodes with fewer than `threshold` visits lose their
    /// children.
    fn compact(&mut self, idx: u32, threshold: u32) {
        let old = std::mem::replace(&mut self.nodes, Nodes::with_capacity(self.capacity));
        let nodes = &mut self.nodes;
        nodes.push_copy(&old, idx as usize);
        nodes.mv[0] = NO_MOVE;
        let mut queue = vec![(idx as usize, 0usize)];
        let mut head = 0;
        while head < queue.len() {
            let (from, to) = queue[head];
            head += 1;
            if old.children[from] == 0 {
                continue;
            }
            if to != 0 && old.visits[from] < threshold {
                // Expanded again only once it has doubled its visits, so that the
                // collected statistics are not rebuilt for a node the search left.
                nodes.children[to] = 0;
                nodes.first_child[to] = old.visits[from].saturating_mul(2);
                continue;
            }
            let start = nodes.len();
            nodes.first_child[to] = start as u32;
            for (k, c) in old.child_range(from).enumerate() {
                nodes.push_copy(&old, c);
                queue.push((c, start + k));
            }
        }
    }

    /// One iteration from `root_pos` (the prepared root): select down the tree, expand,
    /// play out, back up.
    pub fn iterate(&mut self, root_pos: &Mobius) {
        if self.full {
            self.collect();
            self.full = false;
        }
        let mut pos = root_pos.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        while pos.outcome().is_none() {
            if self.nodes.children[node] == 0 {
                let n = &self.nodes;
                let ready = node == 0
                    || n.visits[node] >= self.params.expand_after.max(n.first_child[node]);
                if !ready || !self.expand(node, &pos) {
                    break;
                }
            }
            node = self.select(node);
            pos.play(self.nodes.mv[node]);
            self.path.push(node as u32);
        }
        self.seldepth = self.seldepth.max(self.path.len() as u32 - 1);
        let (red_result, stones) = match pos.outcome() {
            Some(o) => (outcome_value(o), pos.stone_sets()),
            None => self.playout(&mut pos),
        };
        self.backup(root_pos.side_to_move(), stones, red_result);
    }

    /// Creates the children of `node` at `pos`; false when the tree is full.
    fn expand(&mut self, node: usize, pos: &Mobius) -> bool {
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
        let fits = self.nodes.len() + moves.len() <= self.capacity || node == 0;
        if fits {
            self.add_children(node, &moves);
            self.add_priors(node, pos);
        } else {
            self.full = true;
        }
        self.moves = moves;
        fits
    }

    /// Gives `node` the children `moves`.
    fn add_children(&mut self, node: usize, moves: &[MobiusMove]) {
        self.expanded += moves.len() as u64;
        let first = self.nodes.len() as u32;
        self.nodes.extend(moves);
        self.nodes.first_child[node] = first;
        self.nodes.children[node] = moves.len() as u8;
    }

    /// Gives the new children of `node` (at `pos`) their priors, if the tree has a
    /// network: each placement's AMAF statistics start at the network's value for the
    /// mover of the position after it (the swap, and a node with one child, get none).
    fn add_priors(&mut self, node: usize, pos: &Mobius) {
        let Some((prior, scratch)) = self.prior.as_mut() else { return };
        let range = self.nodes.child_range(node);
        if range.len() < 2 || prior.visits == 0 {
            return;
        }
        let net = &*prior.net;
        let opponent = pos.side_to_move().opponent();
        scratch.parent.refresh(net, pos, &mut scratch.features);
        let visits = prior.visits as f32;
        for i in range {
            if !pos.move_delta(self.nodes.mv[i], &mut scratch.delta) {
                continue;
            }
            let d = &scratch.delta;
            scratch.child.update_from(
                net,
                &scratch.parent,
                [d.removed(Side::P1), d.removed(Side::P2)],
                [d.added(Side::P1), d.added(Side::P2)],
            );
            let theirs = net.win_probability(&scratch.child, opponent);
            self.nodes.amaf_visits[i] = prior.visits;
            self.nodes.amaf_wins[i] = visits * (1.0 - theirs);
        }
    }

    /// The child of `node` with the best RAVE-blended value plus exploration.
    fn select(&mut self, node: usize) -> usize {
        let c = self.params.exploration as f32;
        let range = self.nodes.child_range(node);
        let (first, k) = (range.start, range.len());
        // Start at a random child so that ties among fresh children break at random.
        let offset = fast_below(&mut self.rng, k);
        let mut max =
            self.nodes.values(range.clone(), self.params.rave_bias as f32, &mut self.values);
        if node == 0 && !self.root_allowed.is_empty() {
            for (v, &allowed) in self.values.iter_mut().zip(&self.root_allowed) {
                if !allowed {
                    *v = f32::NEG_INFINITY;
                }
            }
            max = max_of(&self.values[..k]);
        }
        let values = &self.values[..k];
        if c <= 0.0 {
            return first + first_equal_from(values, max, offset);
        }
        let visits = &self.nodes.visits[range];
        let log_n = (self.nodes.visits[node].max(1) as f32).ln();
        let mut best = (f32::NEG_INFINITY, 0usize);
        for i in (offset..k).chain(0..offset) {
            let value = values[i] + c * (log_n / (visits[i] as f32 + 1.0)).sqrt();
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
    fn backup(&mut self, root_stm: Side, stones: [Cells; 2], red_result: f32) {
        // The swap (cell index CELLS) is never in a set of stones.
        for (hit, set) in self.hit.iter_mut().zip(stones) {
            spread_bits(set, hit);
        }
        let mut side = root_stm;
        for &idx in &self.path {
            let idx = idx as usize;
            let result = if side == Side::P1 { red_result } else { 1.0 - red_result };
            // The node's own statistics belong to the player who moved into it.
            self.nodes.visit(idx, result);
            let children = self.nodes.child_range(idx);
            if !children.is_empty() {
                let hit = &self.hit[side.index()];
                self.nodes.amaf(children, hit, result, &mut self.hits);
            }
            side = side.opponent();
        }
    }

    /// The most visited child of `node` (the first of equals), if it has children.
    fn best_child(&self, node: usize) -> Option<usize> {
        let range = self.nodes.child_range(node);
        range.max_by_key(|&c| (self.nodes.visits[c], std::cmp::Reverse(c)))
    }

    /// The variation after the root move `mv`: most visited children while they have
    /// been visited (empty when `mv` is not a root child of this tree).
    pub fn line_after(&self, mv: MobiusMove) -> Vec<MobiusMove> {
        let Some(mut node) = self.nodes.child_range(0).find(|&c| self.nodes.mv[c] == mv) else {
            return Vec::new();
        };
        let mut line = Vec::new();
        while let Some(c) = self.best_child(node) {
            if self.nodes.visits[c] == 0 {
                break;
            }
            line.push(self.nodes.mv[c]);
            node = c;
        }
        line
    }
}

/// The greatest of `values` (not empty, no NaN), vectorized.
#[inline(always)]
fn max_of(values: &[f32]) -> f32 {
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
    o.points(Side::P1) as f32
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
    fn a_restricted_root_selects_only_the_allowed_moves_until_the_next_search() {
        use super::Tree;
        use crate::core::Game;
        use crate::games::mobius::search::PARAMS;
        use crate::games::mobius::{Mobius, MobiusOptions};
        let pos = Mobius::startpos(&MobiusOptions::default());
        let mut tree = Tree::new(1 << 16, PARAMS, None);
        tree.prepare(&pos, 1, None);
        let allowed = [MobiusMove(3), MobiusMove(40), MobiusMove(77)];
        tree.restrict_root(|mv| allowed.contains(&mv));
        for _ in 0..3000 {
            tree.iterate(&pos);
        }
        for child in tree.root_children() {
            assert_eq!(child.visits > 0, allowed.contains(&child.mv), "{}", child.mv);
        }
        // The next search (here of the same position, the tree kept) is free again.
        tree.prepare(&pos, 2, None);
        for _ in 0..3000 {
            tree.iterate(&pos);
        }
        let visited = tree.root_children().iter().filter(|c| c.visits > 0).count();
        assert!(visited > 3 * allowed.len(), "{visited} root moves visited");
        // A share without any root move (more threads than moves) leaves the root free:
        // the search is that of a tree never restricted.
        let [mut empty, mut free] = [0, 1].map(|_| Tree::new(1 << 16, PARAMS, None));
        for t in [&mut empty, &mut free] {
            t.prepare(&pos, 3, None);
        }
        empty.restrict_root(|_| false);
        for _ in 0..3000 {
            empty.iterate(&pos);
            free.iterate(&pos);
        }
        let visits = |t: &Tree| t.root_children().iter().map(|c| c.visits).collect::<Vec<_>>();
        assert_eq!(visits(&empty), visits(&free));
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

    #[test]
    fn new_children_start_with_the_network_value_after_their_move_as_amaf_statistics() {
        use super::{NetPrior, Tree};
        use crate::core::Game;
        use crate::games::mobius::search::PARAMS;
        use crate::games::mobius::{Mobius, MobiusOptions};
        use crate::search::nnue::{Features, Network};
        use std::sync::Arc;
        // Weights small enough that all 552 rows fit the 16-bit accumulator.
        let net = Arc::new(Network::random_within("mobius", Mobius::FEATURE_COUNT, 16, 3, 0.2));
        let mut pos = Mobius::startpos(&MobiusOptions { swap: true, ..MobiusOptions::default() });
        pos.play(MobiusMove(40));
        let mut tree = Tree::new(1 << 16, PARAMS, Some(NetPrior { net: net.clone(), visits: 25 }));
        tree.prepare(&pos, 1, None);
        let root = tree.nodes.child_range(0);
        assert_eq!(root.len(), CELLS, "137 cells and the swap");
        for i in root.clone() {
            let mv = tree.nodes.mv[i];
            if mv == MobiusMove::SWAP {
                assert_eq!((tree.nodes.amaf_visits[i], tree.nodes.amaf_wins[i]), (0, 0.0));
                continue;
            }
            let mut after = pos.clone();
            after.play(mv);
            // For Blue, who moves: one minus Red's expected score after the move.
            let expected = 25.0 * (1.0 - net.win_probability_of(&after));
            assert_eq!(tree.nodes.amaf_visits[i], 25);
            assert!((tree.nodes.amaf_wins[i] - expected).abs() < 1e-4, "{mv}");
        }
        // The priors differ, so the search goes first to the moves the network likes.
        let values: Vec<f32> = root.clone().map(|i| tree.nodes.amaf_wins[i]).collect();
        assert!(values.iter().any(|&v| (v - values[0]).abs() > 0.1));
        for _ in 0..100 {
            tree.iterate(&pos);
        }
        let liked = root
            .clone()
            .max_by(|&a, &b| tree.nodes.amaf_wins[a].total_cmp(&tree.nodes.amaf_wins[b]))
            .unwrap();
        assert!(tree.nodes.visits[liked] > 0, "the best prior is tried at once");
        // Prior 0: no statistics before the search.
        let mut plain = Tree::new(1 << 16, PARAMS, Some(NetPrior { net, visits: 0 }));
        plain.prepare(&pos, 1, None);
        assert!(plain.nodes.child_range(0).all(|i| plain.nodes.amaf_visits[i] == 0));
    }
}
