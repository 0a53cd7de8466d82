//! The `uct` baseline: plain Monte Carlo tree search for any game, as general game-playing
//! systems field it. A yardstick, so it stays plain; its exact definition:
//!
//! CITE: OpenSpiel's `MCTSBot` (`open_spiel/python/algorithms/mcts.py`) with
//! `uct_c = 2`, `RandomRolloutEvaluator(n_rollouts = 1)` and `solve = False`:
//! - **Simulation.** From the root, while the current node has been visited before and
//!   its position is not over: expand it if it has no children yet (one child per legal
//!   move, in a random order), then step to the child with the highest UCT value (the
//!   first one on ties). The position reached is scored by its result if the game is
//!   over, else by **one** rollout of **uniformly random** moves to the end of the game.
//!   Every node on the path gets one visit and the result (+1 win, 0 draw, −1 loss) from
//!   the point of view of the player who made the move leading to it.
//! - **UCT value** of a child: its result if its position is over; `+∞` if it was never
//!   visited; else `total / visits + 2·√(ln(parent visits) / visits)`.
//! - **Move played**: the root child with the best key (result for the mover if its
//!   position is over, else 0; then visits; then total result): an immediate win first,
//!   else the most visited child.
//! - **Budget**: `nodes` = simulations; or the time of `movetime` or the clock's share
//!   (the soft budget of [`crate::search::TimeBudget`]); 1000 simulations when `go` gives
//!   neither. The tree is built afresh for every move. One thread. The random moves are
//!   seeded from the position's hash, so a node-limited search is reproducible.
//! - **Score** reported: `cp = round(100 · mean result)` of the move played (−100..100).

use std::marker::PhantomData;

use crate::core::{Game, Limits, Outcome, Rng, Side};
use crate::search::{
    Reporter, Score, SearchControl, SearchInfo, Searcher, Uniform, playout_by_moves, result_for,
};

/// The exploration constant `c` of the UCT value (OpenSpiel's `uct_c`).
pub const EXPLORATION: f64 = 2.0;
/// Simulations per move when `go` gives no node or time limit.
pub const DEFAULT_SIMULATIONS: u64 = 1000;

/// One tree node. `reward` is summed from the point of view of `mover`, the player who
/// made `mv` (for the root, the player to move).
struct Node<M> {
    mv: Option<M>,
    mover: Side,
    visits: u32,
    reward: f64,
    /// The result for `mover` when the position after `mv` is over.
    terminal: Option<f64>,
    /// Children are `first_child..first_child + children` in the arena; none yet when
    /// `children == 0` (a position that is over never gets any).
    first_child: u32,
    children: u32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Side) -> Node<M> {
        Node { mv, mover, visits: 0, reward: 0.0, terminal: None, first_child: 0, children: 0 }
    }

    fn uct_value(&self, parent_visits: u32) -> f64 {
        if let Some(r) = self.terminal {
            return r;
        }
        if self.visits == 0 {
            return f64::INFINITY;
        }
        let n = f64::from(self.visits);
        self.reward / n + EXPLORATION * (f64::from(parent_visits).ln() / n).sqrt()
    }

    /// The final choice's key: proven result, visits, total result.
    fn play_key(&self) -> (f64, u32, f64) {
        (self.terminal.unwrap_or(0.0), self.visits, self.reward)
    }
}

/// Plain UCT for game `G` (see the module doc). Keeps nothing between moves.
pub struct Uct<G: Game> {
    seed: u64,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> Uct<G> {
    /// A searcher whose random moves are seeded from `seed` and the position's hash.
    pub fn new(seed: u64) -> Uct<G> {
        Uct { seed, _game: PhantomData }
    }
}

/// One search's tree and random generator.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    rng: Rng,
    moves: Vec<G::Move>,
    /// The moves the root may play (`go searchmoves`, or all legal moves).
    root_moves: Vec<G::Move>,
    /// Deepest path from the root, in plies (reported as the depth).
    depth: u32,
}

impl<G: Game> Tree<G> {
    /// Expands node `i` (position `pos`, not over): one child per legal move (at the root,
    /// per root move), shuffled.
    fn expand(&mut self, i: usize, pos: &G) {
        self.moves.clear();
        if i == 0 {
            self.moves.extend_from_slice(&self.root_moves);
        } else {
            pos.generate_moves(&mut self.moves);
        }
        self.rng.shuffle(&mut self.moves);
        let mover = pos.side_to_move();
        self.nodes[i].first_child = self.nodes.len() as u32;
        self.nodes[i].children = self.moves.len() as u32;
        for &mv in &self.moves {
            self.nodes.push(Node::new(Some(mv), mover));
        }
    }

    /// The child of node `i` with the highest UCT value (the first on ties).
    fn select(&self, i: usize) -> usize {
        let node = &self.nodes[i];
        let first = node.first_child as usize;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for c in first..first + node.children as usize {
            let v = self.nodes[c].uct_value(node.visits);
            if v > best_value {
                best = c;
                best_value = v;
            }
        }
        best
    }

    /// Uniformly random moves from `pos` to the end of the game (the shared playout of
    /// [`playout_by_moves`] with the [`Uniform`] policy).
    fn rollout(&mut self, pos: G) -> Outcome {
        playout_by_moves(&Uniform, pos, &mut self.rng, &mut self.moves, &mut Vec::new()).1
    }

    /// One simulation from the root position `root`.
    fn simulate(&mut self, root: &G, path: &mut Vec<usize>) {
        path.clear();
        path.push(0);
        let mut pos = root.clone();
        let mut i = 0;
        let mut outcome = pos.outcome();
        while outcome.is_none() && self.nodes[i].visits > 0 {
            if self.nodes[i].children == 0 {
                self.expand(i, &pos);
            }
            i = self.select(i);
            pos.play(self.nodes[i].mv.expect("only the root has no move"));
            path.push(i);
            outcome = pos.outcome();
            if let Some(o) = outcome {
                let mover = self.nodes[i].mover;
                self.nodes[i].terminal = Some(result_for(o, mover));
            }
        }
        self.depth = self.depth.max(path.len() as u32 - 1);
        let outcome = outcome.unwrap_or_else(|| self.rollout(pos));
        for &n in path.iter() {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += result_for(outcome, node.mover);
        }
    }
}

impl<G: Game> Searcher<G> for Uct<G> {
    fn set_hash_mb(&mut self, _mb: usize) {}

    fn new_game(&mut self) {}

    fn search(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> G::Move {
        let side = pos.side_to_move();
        let timed = limits.movetime.is_some() || limits.has_clock(side);
        let max_sims = match limits.nodes {
            Some(n) => n,
            None if timed || limits.infinite => u64::MAX,
            None => DEFAULT_SIMULATIONS,
        };
        let mut tree = Tree::<G> {
            nodes: vec![Node::new(None, side)],
            rng: Rng::new(self.seed ^ pos.hash()),
            moves: Vec::new(),
            root_moves: root_moves.to_vec(),
            depth: 0,
        };
        let mut path = Vec::new();
        let mut sims = 0;
        // The first simulation only visits the root; the second expands it, so every
        // search has children to choose from.
        while sims < 2 || (sims < max_sims && !ctl.must_stop(sims) && !ctl.soft_expired(1.0)) {
            tree.simulate(pos, &mut path);
            sims += 1;
        }
        let root = &tree.nodes[0];
        let first = root.first_child as usize;
        let children = &tree.nodes[first..first + root.children as usize];
        let best = children
            .iter()
            .reduce(|a, b| if b.play_key() > a.play_key() { b } else { a })
            .expect("a position that is not over has a legal move");
        let mv = best.mv.expect("children have moves");
        let mean = if best.visits == 0 { 0.0 } else { best.reward / f64::from(best.visits) };
        reporter.info(&SearchInfo {
            depth: tree.depth,
            seldepth: tree.depth,
            multipv: None,
            score: Score::Cp((100.0 * best.terminal.unwrap_or(mean)).round() as i32),
            nodes: sims,
            time: ctl.elapsed(),
            hashfull: None,
            pv: vec![mv.to_string()],
        });
        mv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::{Morris, MorrisOptions};
    use crate::search::NullReporter;

    fn search(pos: &Morris, sims: u64, seed: u64) -> String {
        let mut uct = Uct::<Morris>::new(seed);
        let limits = Limits::nodes(sims);
        let ctl = SearchControl::fixed(None, Some(sims));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        uct.search(pos, &moves, &limits, &ctl, &mut NullReporter).to_string()
    }

    #[test]
    fn node_limited_search_is_reproducible_and_legal() {
        let pos = Morris::startpos(&MorrisOptions::default());
        let a = search(&pos, 300, 7);
        assert_eq!(a, search(&pos, 300, 7));
        assert!(pos.parse_move(&a).is_ok());
    }

    #[test]
    fn plays_an_immediate_win() {
        // The first position of seeded random games where the side to move has a move
        // that wins at once: the search must play a winning move.
        let mut pos = Morris::startpos(&MorrisOptions::default());
        let mut moves = Vec::new();
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            moves.clear();
            pos.generate_moves(&mut moves);
            let winning: Vec<_> = moves
                .iter()
                .filter(|&&m| {
                    let mut p = pos.clone();
                    p.play(m);
                    p.outcome() == Some(Outcome::Win(pos.side_to_move()))
                })
                .collect();
            if !winning.is_empty() {
                let played = search(&pos, 2000, 1);
                let mut p = pos.clone();
                p.play(p.parse_move(&played).unwrap());
                assert_eq!(p.outcome(), Some(Outcome::Win(pos.side_to_move())));
                return;
            }
            pos.play(*rng.choose(&moves));
            if pos.outcome().is_some() {
                pos = Morris::startpos(&MorrisOptions::default());
            }
        }
        panic!("no position with a winning move found");
    }

    #[test]
    fn uct_value_follows_the_formula() {
        let mut n = Node::<u8>::new(Some(0), Side::P1);
        assert_eq!(n.uct_value(10), f64::INFINITY);
        n.visits = 4;
        n.reward = 2.0;
        let expected = 0.5 + 2.0 * (10f64.ln() / 4.0).sqrt();
        assert!((n.uct_value(10) - expected).abs() < 1e-12);
        n.terminal = Some(-1.0);
        assert_eq!(n.uct_value(10), -1.0);
    }
}
