//! One search tree, grown by one thread: selection by RAVE-blended values, expansion with
//! immediate wins and forced blocks, random playouts, backup with AMAF updates.

use super::MctsParams;
use crate::core::{Game, Outcome, Rng, Side};
use crate::games::mobius::board::{Mobius, colour};
use crate::games::mobius::flood::Cells;
use crate::games::mobius::geometry::CELLS;
use crate::games::mobius::notation::MobiusMove;
use crate::games::mobius::playout::{fast_below, fill_and_decide};

/// A tree node; statistics are from the point of view of the player who made `mv`. Its
/// RAVE-blended value is kept apart, in `Tree::values`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub mv: MobiusMove,
    pub expanded: bool,
    pub children: u8,
    /// The first child's index once expanded; before, the visits the node needs to be
    /// expanded again after a collection dropped its children (0: never collected).
    pub first_child: u32,
    pub visits: u32,
    pub wins: f32,
    pub amaf_visits: u32,
    pub amaf_wins: f32,
}

impl Node {
    /// A fresh node reached by `mv`.
    fn new(mv: MobiusMove) -> Node {
        Node {
            mv,
            expanded: false,
            children: 0,
            first_child: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }

    /// Writes into `value` the blend (1 − β)·w/n + β·w̃/ñ with β = ñ / (n + ñ + bias·n·ñ),
    /// which simplifies to (w·(1 + bias·ñ) + w̃) / (n + ñ + bias·n·ñ): one division. Left
    /// as it is while the node has no statistics.
    #[inline]
    fn refresh(&self, bias: f32, value: &mut f32) {
        let (n, an) = (self.visits as f32, self.amaf_visits as f32);
        let den = n + an + bias * n * an;
        if den > 0.0 {
            *value = (self.wins * (1.0 + bias * an) + self.amaf_wins) / den;
        }
    }
}

/// Bytes per tree node (what `Hash` buys): the node and its value.
pub(super) const NODE_BYTES: usize = std::mem::size_of::<Node>() + std::mem::size_of::<f32>();

/// The value of a child without any statistics: above every real value, so each child
/// is tried (or gets AMAF statistics) before any is tried twice.
const FIRST_PLAY_URGENCY: f32 = 1.1;

/// The move stored at the root (never read).
const NO_MOVE: MobiusMove = MobiusMove(0);

/// The tree of one search thread, kept between moves.
pub(super) struct Tree {
    params: MctsParams,
    nodes: Vec<Node>,
    /// The RAVE-blended value of each node (same index), refreshed whenever its
    /// statistics change: selection reads it for every child at every step, so it is
    /// cached, and kept contiguous so that the scan for the best child is vectorized.
    values: Vec<f32>,
    /// Maximum number of nodes.
    capacity: usize,
    /// The position at `nodes[0]`, if the tree is kept.
    root: Option<Mobius>,
    rng: Rng,
    /// Scratch: the path of the current iteration (node indices).
    path: Vec<u32>,
    /// Scratch: the empty cells of a playout.
    empties: Vec<u8>,
    /// Deepest path of the current search.
    pub seldepth: u32,
    /// An expansion found the tree full: collect before the next iteration.
    full: bool,
    /// Nodes created by expansions in the current search.
    pub expanded: u64,
}

impl Tree {
    /// An empty tree of at most `capacity` nodes.
    pub fn new(capacity: usize, params: MctsParams) -> Tree {
        let mut t = Tree {
            params,
            // Reserved once (the pages are touched only as the tree grows), so the tree
            // never reallocates beyond its budget.
            nodes: Vec::with_capacity(capacity),
            values: Vec::with_capacity(capacity),
            capacity,
            root: None,
            rng: Rng::new(params.seed),
            path: Vec::new(),
            empties: Vec::new(),
            seldepth: 0,
            full: false,
            expanded: 0,
        };
        t.clear();
        t
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(NO_MOVE));
        self.values.clear();
        self.values.push(FIRST_PLAY_URGENCY);
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
        if let Some(moves) = only {
            self.clear();
            self.add_children(0, moves);
            return;
        }
        self.reuse_or_reset(pos);
        if !self.nodes[0].expanded {
            self.expand(0, pos);
        }
    }

    /// The root's children (in their fixed order).
    pub fn root_children(&self) -> &[Node] {
        self.children(0)
    }

    fn children(&self, node: usize) -> &[Node] {
        let n = self.nodes[node];
        &self.nodes[n.first_child as usize..n.first_child as usize + n.children as usize]
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
        let n = self.nodes[node as usize];
        for child in n.first_child..n.first_child + n.children as u32 {
            let mut next = at.clone();
            next.play(self.nodes[child as usize].mv);
            // Every stone of `next` must stand in `target` with the same colour.
            let consistent =
                next.cells().iter().zip(target.cells()).all(|(&a, &b)| a == 0 || a == b);
            if consistent
                && next.outcome().is_none()
                && let Some(found) = self.find_descendant(child, &next, target, plies - 1)
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
        let mut by_visits: Vec<(u32, usize)> = self.nodes[1..]
            .iter()
            .filter(|n| n.expanded)
            .map(|n| (n.visits, n.children as usize))
            .collect();
        by_visits.sort_unstable_by_key(|&(visits, _)| std::cmp::Reverse(visits));
        let budget = self.capacity / 2;
        let mut kept = 1 + self.nodes[0].children as usize;
        let mut threshold = 0;
        for &(visits, children) in &by_visits {
            if kept + children > budget {
                threshold = visits + 1;
                break;
            }
            kept += children;
        }
        self.compact(0, threshold);
    }

    /// Copies the subtree of `idx` to the front of a fresh node array, breadth first, as
    /// the new root; below it, nodes with fewer than `threshold` visits lose their
    /// children.
    fn compact(&mut self, idx: u32, threshold: u32) {
        let old = std::mem::replace(&mut self.nodes, Vec::with_capacity(self.capacity));
        let old_values = std::mem::replace(&mut self.values, Vec::with_capacity(self.capacity));
        let mut root = old[idx as usize];
        root.mv = NO_MOVE;
        self.nodes.push(root);
        self.values.push(old_values[idx as usize]);
        let mut queue = vec![(idx, 0u32)];
        let mut head = 0;
        while head < queue.len() {
            let (from, to) = queue[head];
            head += 1;
            let n = old[from as usize];
            if n.children == 0 {
                continue;
            }
            if to != 0 && n.visits < threshold {
                // Expanded again only once it has doubled its visits, so that the
                // collected statistics are not rebuilt for a node the search left.
                let pruned = &mut self.nodes[to as usize];
                pruned.expanded = false;
                pruned.children = 0;
                pruned.first_child = n.visits.saturating_mul(2);
                continue;
            }
            let start = self.nodes.len() as u32;
            self.nodes[to as usize].first_child = start;
            for k in 0..n.children as u32 {
                self.nodes.push(old[(n.first_child + k) as usize]);
                self.values.push(old_values[(n.first_child + k) as usize]);
                queue.push((n.first_child + k, start + k));
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
            if !self.nodes[node].expanded {
                let n = self.nodes[node];
                let ready = node == 0 || n.visits >= self.params.expand_after.max(n.first_child);
                if !ready || !self.expand(node, &pos) {
                    break;
                }
            }
            node = self.select(node);
            pos.play(self.nodes[node].mv);
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
        let mut moves = Vec::with_capacity(CELLS + 1);
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
        if self.nodes.len() + moves.len() > self.capacity && node != 0 {
            self.full = true;
            return false;
        }
        self.add_children(node, &moves);
        true
    }

    /// Gives `node` the children `moves`.
    fn add_children(&mut self, node: usize, moves: &[MobiusMove]) {
        self.expanded += moves.len() as u64;
        let first = self.nodes.len() as u32;
        self.nodes.extend(moves.iter().map(|&mv| Node::new(mv)));
        self.values.resize(self.nodes.len(), FIRST_PLAY_URGENCY);
        let n = &mut self.nodes[node];
        n.expanded = true;
        n.first_child = first;
        n.children = moves.len() as u8;
    }

    /// The child of `node` with the best RAVE-blended value plus exploration.
    fn select(&mut self, node: usize) -> usize {
        let n = self.nodes[node];
        let c = self.params.exploration;
        let k = n.children as usize;
        // Start at a random child so that ties among fresh children break at random.
        let offset = fast_below(&mut self.rng, k);
        let first = n.first_child as usize;
        let values = &self.values[first..first + k];
        if c <= 0.0 {
            return first + first_max(values, offset);
        }
        let log_n = (n.visits.max(1) as f32).ln();
        let mut best = (f32::NEG_INFINITY, 0usize);
        for i in (offset..k).chain(0..offset) {
            let value =
                values[i] + c * (log_n / (self.nodes[first + i].visits as f32 + 1.0)).sqrt();
            if value > best.0 {
                best = (value, first + i);
            }
        }
        best.1
    }

    /// Fills the board of `pos` at random and returns the result for Red (1, 0 or ½ for a
    /// draw under the literal rule) and the final stones (Red's, Blue's).
    fn playout(&mut self, pos: &mut Mobius) -> (f32, [Cells; 2]) {
        self.empties.clear();
        let stones = pos.stone_sets();
        let mut empty = stones[0].or(stones[1]).complement();
        while let Some(c) = empty.pop() {
            self.empties.push(c as u8);
        }
        if pos.options().full_board_decides() {
            let first = colour(pos.side_to_move());
            let (red, red_wins) = fill_and_decide(stones, &mut self.empties, first, &mut self.rng);
            return (if red_wins { 1.0 } else { 0.0 }, [red, red.complement()]);
        }
        let n = self.empties.len();
        for i in (1..n).rev() {
            let j = fast_below(&mut self.rng, i + 1);
            self.empties.swap(i, j);
        }
        for &c in &self.empties {
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
        let bias = self.params.rave_bias;
        let mut side = root_stm;
        for i in 0..self.path.len() {
            let idx = self.path[i] as usize;
            let result = if side == Side::P1 { red_result } else { 1.0 - red_result };
            // The node's own statistics belong to the player who moved into it.
            let n = &mut self.nodes[idx];
            n.visits += 1;
            n.wins += 1.0 - result;
            n.refresh(bias, &mut self.values[idx]);
            let n = *n;
            if n.expanded {
                let mine = stones[side.index()];
                let children = n.first_child as usize..n.first_child as usize + n.children as usize;
                let values = &mut self.values[children.clone()];
                for (ch, value) in self.nodes[children].iter_mut().zip(values) {
                    // The swap (cell index CELLS) is never in a set of stones.
                    if mine.has(ch.mv.0 as usize) {
                        ch.amaf_visits += 1;
                        ch.amaf_wins += result;
                        ch.refresh(bias, value);
                    }
                }
            }
            side = side.opponent();
        }
    }

    /// The most visited child of `node` (the first of equals), if it has children.
    fn best_child(&self, node: usize) -> Option<usize> {
        let n = self.nodes[node];
        let range = n.first_child as usize..n.first_child as usize + n.children as usize;
        range.max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(c)))
    }

    /// The variation after the root move `mv`: most visited children while they have
    /// been visited (empty when `mv` is not a root child of this tree).
    pub fn line_after(&self, mv: MobiusMove) -> Vec<MobiusMove> {
        let first = self.nodes[0].first_child as usize;
        let Some(k) = self.root_children().iter().position(|c| c.mv == mv) else {
            return Vec::new();
        };
        let mut line = Vec::new();
        let mut node = first + k;
        while let Some(c) = self.best_child(node) {
            if self.nodes[c].visits == 0 {
                break;
            }
            line.push(self.nodes[c].mv);
            node = c;
        }
        line
    }
}

/// The index of the first greatest of `values` (not empty, no NaN) in the order
/// `offset..`, then `..offset`: what a scan with a strict `>` from `offset` round to
/// `offset − 1` finds, in two passes that the compiler vectorizes (maximum, then first
/// equal).
fn first_max(values: &[f32], offset: usize) -> usize {
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
    match values[offset..].iter().position(|&v| v == max) {
        Some(i) => offset + i,
        None => values[..offset].iter().position(|&v| v == max).unwrap_or(0),
    }
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
    use super::first_max;
    use crate::core::Rng;

    /// The scan `first_max` replaces: strict `>` from `offset` round to `offset − 1`.
    fn scan(values: &[f32], offset: usize) -> usize {
        let k = values.len();
        let mut best = (f32::NEG_INFINITY, 0);
        for i in (offset..k).chain(0..offset) {
            if values[i] > best.0 {
                best = (values[i], i);
            }
        }
        best.1
    }

    #[test]
    fn first_max_finds_what_the_rotated_scan_finds_ties_included() {
        let mut rng = Rng::new(3);
        for k in 1..=40 {
            for _ in 0..50 {
                // Few distinct values, so that ties are common.
                let values: Vec<f32> = (0..k).map(|_| (rng.next_u64() % 4) as f32 * 0.25).collect();
                let offset = (rng.next_u64() % k as u64) as usize;
                assert_eq!(
                    first_max(&values, offset),
                    scan(&values, offset),
                    "{values:?} {offset}"
                );
            }
        }
    }
}
