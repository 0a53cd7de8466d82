//! Monte Carlo tree search for Mobius: UCT with RAVE (all-moves-as-first) values.
//!
//! CITE: Gelly & Silver, "Monte-Carlo tree search and rapid action value estimation in
//! computer Go", Artificial Intelligence 175 (2011): a child's value blends its own mean
//! with its AMAF mean, weight β = ñ / (n + ñ + 4b²·n·ñ) (their minimum-MSE schedule).
//!
//! - Playouts fill every empty cell at random (alternating colours) and, under the
//!   DEFAULT rule, decide the winner once at the end with one union-find pass: exactly one
//!   player qualifies on a full board, and since networks only grow, that player is the
//!   one who would have qualified first. Under the other rules the fill is played stone
//!   by stone with the incremental win test.
//! - Expansion knows immediate wins and forced blocks: if the side to move can win at
//!   once the node gets that one child; else if the opponent threatens to win on some
//!   cells, the only children are those cells (any other move loses at once).
//! - The tree is kept between moves: when the next position descends from the previous
//!   root, its subtree becomes the new root.
//! - Limits: `nodes` = playouts; `depth` N = N·1000 playouts; time from the control. One
//!   thread (the `Threads` option is ignored). Deterministic for a position and limit:
//!   the random generator is seeded from the position's hash.
//! - Score: w = the best move's mean result for the side to move; reported as
//!   `cp = round(400·log10(w / (1 − w)))`, w clamped to [0.001, 0.999] (±1200);
//!   an immediate win is `mate 1`.

use std::time::Duration;

use super::board::{Mobius, colour};
use super::geometry::CELLS;
use super::network::default_rule_qualifies;
use super::notation::MobiusMove;
use crate::core::{Game, Limits, Outcome, Rng, Side};
use crate::search::{Reporter, Score, SearchControl, SearchInfo, Searcher};

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

/// A tree node; statistics are from the point of view of the player who made `mv`.
#[derive(Clone, Copy, Debug)]
struct Node {
    mv: MobiusMove,
    expanded: bool,
    children: u8,
    first_child: u32,
    visits: u32,
    wins: f32,
    amaf_visits: u32,
    amaf_wins: f32,
    /// The RAVE-blended value, refreshed whenever the statistics change (selection
    /// reads it for every child at every step, so it is cached).
    value: f32,
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
            value: FIRST_PLAY_URGENCY,
        }
    }

    /// Recomputes `value` = (1 − β)·w/n + β·w̃/ñ with β = ñ / (n + ñ + bias·n·ñ), which
    /// simplifies to (w·(1 + bias·ñ) + w̃) / (n + ñ + bias·n·ñ): one division.
    fn refresh(&mut self, bias: f32) {
        let (n, an) = (self.visits as f32, self.amaf_visits as f32);
        let den = n + an + bias * n * an;
        if den > 0.0 {
            self.value = (self.wins * (1.0 + bias * an) + self.amaf_wins) / den;
        }
    }
}

/// The value of a child without any statistics: above every real value, so each child
/// is tried (or gets AMAF statistics) before any is tried twice.
const FIRST_PLAY_URGENCY: f32 = 1.1;

/// The move stored at the root (never read).
const NO_MOVE: MobiusMove = MobiusMove(0);

/// Playouts between progress reports' clock checks.
const CHECK_EVERY: u64 = 256;
/// Time between progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(500);

/// The MCTS searcher of Mobius.
pub struct Mcts {
    params: MctsParams,
    nodes: Vec<Node>,
    /// Maximum number of tree nodes (from the hash size).
    capacity: usize,
    /// The position at `nodes[0]`, if the tree is kept.
    root: Option<Mobius>,
    rng: Rng,
    /// Scratch: the path of the current iteration (node indices).
    path: Vec<u32>,
    /// Scratch: the empty cells of a playout.
    empties: Vec<u8>,
    playouts: u64,
    seldepth: u32,
}

impl Mcts {
    /// A search whose tree uses about `hash_mb` megabytes at most.
    pub fn new(hash_mb: usize, params: MctsParams) -> Mcts {
        let mut m = Mcts {
            params,
            nodes: Vec::new(),
            capacity: 0,
            root: None,
            rng: Rng::new(params.seed),
            path: Vec::new(),
            empties: Vec::new(),
            playouts: 0,
            seldepth: 0,
        };
        m.set_hash_mb(hash_mb);
        m
    }

    /// Number of nodes in the search tree (kept between moves of one game).
    pub fn tree_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Runs the search on `pos` (not over) and returns the best move and its score.
    pub fn run(
        &mut self,
        pos: &Mobius,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> (MobiusMove, Score) {
        debug_assert!(pos.outcome().is_none());
        self.reuse_or_reset(pos);
        self.rng = Rng::new(self.params.seed ^ pos.hash());
        self.playouts = 0;
        self.seldepth = 0;
        if !self.nodes[0].expanded {
            self.expand(0, pos);
        }
        let root = self.nodes[0];
        let first = root.first_child as usize;
        let only = self.nodes[first].mv;
        // A single child is an immediate win or the one forced block.
        if root.children == 1 {
            let mut next = pos.clone();
            next.play(only);
            let score = if next.outcome() == Some(Outcome::Win(pos.side_to_move())) {
                Score::Mate(1)
            } else {
                self.score()
            };
            self.report(ctl, reporter, score);
            return (only, score);
        }
        let budget = ctl.max_nodes().or(ctl.max_depth().map(|d| u64::from(d) * 1000));
        let mut last_report = ctl.elapsed();
        loop {
            if budget.is_some_and(|b| self.playouts >= b) {
                break;
            }
            if self.playouts.is_multiple_of(CHECK_EVERY) && self.playouts > 0 {
                if ctl.must_stop(self.playouts) || ctl.soft_expired(1.0) {
                    break;
                }
                if ctl.elapsed() - last_report >= REPORT_EVERY {
                    last_report = ctl.elapsed();
                    self.report(ctl, reporter, self.score());
                }
            }
            self.iterate(pos);
        }
        let score = self.score();
        self.report(ctl, reporter, score);
        (self.nodes[self.best_child(0)].mv, score)
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
            None => {
                self.nodes.clear();
                self.nodes.push(Node::new(NO_MOVE));
            }
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

    /// Makes `idx` the root, keeping only its subtree (copied to the front, breadth first).
    fn reroot(&mut self, idx: u32) {
        let old = std::mem::replace(&mut self.nodes, Vec::with_capacity(self.capacity));
        let mut root = old[idx as usize];
        root.mv = NO_MOVE;
        self.nodes.push(root);
        let mut queue = vec![(idx, 0u32)];
        let mut head = 0;
        while head < queue.len() {
            let (from, to) = queue[head];
            head += 1;
            let n = old[from as usize];
            if n.children == 0 {
                continue;
            }
            let start = self.nodes.len() as u32;
            self.nodes[to as usize].first_child = start;
            for k in 0..n.children as u32 {
                self.nodes.push(old[(n.first_child + k) as usize]);
                queue.push((n.first_child + k, start + k));
            }
        }
    }

    /// One iteration: select down the tree, expand, play out, back up.
    fn iterate(&mut self, root_pos: &Mobius) {
        let mut pos = root_pos.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        while pos.outcome().is_none() {
            if !self.nodes[node].expanded {
                let ready = node == 0 || self.nodes[node].visits >= self.params.expand_after;
                if !ready || !self.expand(node, &pos) {
                    break;
                }
            }
            node = self.select(node);
            pos.play(self.nodes[node].mv);
            self.path.push(node as u32);
        }
        self.seldepth = self.seldepth.max(self.path.len() as u32 - 1);
        let mut cells = *pos.cells();
        let red_result = match pos.outcome() {
            Some(Outcome::Win(s)) => red_value(s),
            Some(Outcome::Draw) => 0.5,
            None => self.playout(&mut pos, &mut cells),
        };
        self.backup(root_pos.side_to_move(), &cells, red_result);
        self.playouts += 1;
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
            return false;
        }
        let first = self.nodes.len() as u32;
        self.nodes.extend(moves.iter().map(|&mv| Node::new(mv)));
        let n = &mut self.nodes[node];
        n.expanded = true;
        n.first_child = first;
        n.children = moves.len() as u8;
        true
    }

    /// The child of `node` with the best RAVE-blended value plus exploration.
    fn select(&mut self, node: usize) -> usize {
        let n = self.nodes[node];
        let c = self.params.exploration;
        let log_n = (n.visits.max(1) as f32).ln();
        let k = n.children as usize;
        // Start at a random child so that ties among fresh children break at random.
        let offset = fast_below(&mut self.rng, k);
        let first = n.first_child as usize;
        let mut best = (f32::NEG_INFINITY, 0usize);
        for i in (offset..k).chain(0..offset) {
            let ch = &self.nodes[first + i];
            let mut value = ch.value;
            if c > 0.0 {
                value += c * (log_n / (ch.visits as f32 + 1.0)).sqrt();
            }
            if value > best.0 {
                best = (value, first + i);
            }
        }
        best.1
    }

    /// Fills the board of `pos` at random and returns the result for Red (1, 0 or ½ for a
    /// draw under the literal rule); `cells` receives the final board.
    fn playout(&mut self, pos: &mut Mobius, cells: &mut [u8; CELLS]) -> f32 {
        self.empties.clear();
        self.empties
            .extend(pos.cells().iter().enumerate().filter(|(_, v)| **v == 0).map(|(c, _)| c as u8));
        let n = self.empties.len();
        for i in (1..n).rev() {
            let j = fast_below(&mut self.rng, i + 1);
            self.empties.swap(i, j);
        }
        if pos.options().full_board_decides() {
            let (me, other) = (colour(pos.side_to_move()), colour(pos.side_to_move().opponent()));
            for (i, &c) in self.empties.iter().enumerate() {
                cells[c as usize] = if i % 2 == 0 { me } else { other };
            }
            let red_wins = default_rule_qualifies(cells, colour(Side::P1), 0);
            return if red_wins { 1.0 } else { 0.0 };
        }
        for &c in &self.empties {
            pos.place(c as usize);
            cells[c as usize] = pos.cells()[c as usize];
            match pos.outcome() {
                Some(Outcome::Win(s)) => return red_value(s),
                Some(Outcome::Draw) => return 0.5,
                None => {}
            }
        }
        0.5
    }

    /// Backs up a result along `self.path`, with AMAF updates from the final `cells`.
    fn backup(&mut self, root_stm: Side, cells: &[u8; CELLS], red_result: f32) {
        let bias = self.params.rave_bias;
        let mut side = root_stm;
        for i in 0..self.path.len() {
            let idx = self.path[i] as usize;
            let result = if side == Side::P1 { red_result } else { 1.0 - red_result };
            // The node's own statistics belong to the player who moved into it.
            let n = &mut self.nodes[idx];
            n.visits += 1;
            n.wins += 1.0 - result;
            n.refresh(bias);
            let n = *n;
            if n.expanded {
                let me = colour(side);
                let children = n.first_child as usize..n.first_child as usize + n.children as usize;
                for ch in &mut self.nodes[children] {
                    if ch.mv.cell().is_some_and(|c| cells[c] == me) {
                        ch.amaf_visits += 1;
                        ch.amaf_wins += result;
                        ch.refresh(bias);
                    }
                }
            }
            side = side.opponent();
        }
    }

    /// The most visited child of `node` (an immediate win first).
    fn best_child(&self, node: usize) -> usize {
        let n = self.nodes[node];
        let range = n.first_child as usize..n.first_child as usize + n.children as usize;
        range.max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(c))).unwrap_or(0)
    }

    /// The principal variation: the best root move, then most visited children while they
    /// have been visited.
    fn pv(&self) -> Vec<String> {
        let mut pv = Vec::new();
        let mut node = 0;
        while self.nodes[node].children > 0 {
            let c = self.best_child(node);
            // The root's best move is always shown, even before its first playout.
            if self.nodes[c].visits == 0 && node != 0 {
                break;
            }
            pv.push(self.nodes[c].mv.to_string());
            node = c;
        }
        pv
    }

    /// The score of the best root move (see the module doc for the mapping).
    fn score(&self) -> Score {
        let c = self.nodes[self.best_child(0)];
        if c.visits == 0 {
            return Score::Cp(0);
        }
        let w = f64::from(c.wins / c.visits as f32).clamp(0.001, 0.999);
        Score::Cp((400.0 * (w / (1.0 - w)).log10()).round() as i32)
    }

    fn report(&self, ctl: &SearchControl, reporter: &mut dyn Reporter, score: Score) {
        let pv = self.pv();
        reporter.info(&SearchInfo {
            depth: pv.len() as u32,
            seldepth: self.seldepth,
            multipv: None,
            score,
            nodes: self.playouts,
            time: ctl.elapsed(),
            hashfull: Some((self.nodes.len() as u64 * 1000 / self.capacity.max(1) as u64) as u32),
            pv,
        });
    }
}

/// 1 when Red wins, 0 when Blue does.
fn red_value(winner: Side) -> f32 {
    if winner == Side::P1 { 1.0 } else { 0.0 }
}

/// A random number in `0..n` by multiply-shift (bias below 2⁻⁵⁶ for n ≤ 139, irrelevant
/// for playouts and cheaper than a division).
fn fast_below(rng: &mut Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// The empty cells where a stone of `side` would win at once.
fn winning_cells(pos: &Mobius, side: Side) -> Vec<u8> {
    // A win needs at least 10 stones (spec): skip the test before.
    let own = pos.cells().iter().filter(|&&v| v == colour(side)).count();
    if own < 9 {
        return Vec::new();
    }
    (0..CELLS).filter(|&c| pos.cells()[c] == 0 && pos.wins_with(side, c)).map(|c| c as u8).collect()
}

impl Searcher<Mobius> for Mcts {
    fn set_hash_mb(&mut self, mb: usize) {
        self.capacity = (mb.max(1) << 20) / std::mem::size_of::<Node>();
        // Reserved once (the pages are touched only as the tree grows), so the tree never
        // reallocates beyond its budget.
        self.nodes = Vec::with_capacity(self.capacity);
        self.new_game();
    }

    fn new_game(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(NO_MOVE));
        self.root = None;
    }

    fn expected_moves_left(&self, pos: &Mobius) -> u32 {
        ((CELLS - pos.stones()) as u32 / 3).clamp(5, 40)
    }

    fn search(
        &mut self,
        pos: &Mobius,
        _root_moves: &[MobiusMove],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MobiusMove {
        self.run(pos, ctl, reporter).0
    }
}
