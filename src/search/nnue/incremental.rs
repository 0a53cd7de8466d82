//! The network inside an alpha-beta search: the accumulators of the positions along the
//! search path, updated from the features each move turns on and off (as NNUE does),
//! lazily: a move only records its [`FeatureDelta`]; an evaluation applies the deltas
//! from the nearest computed ancestor, or refreshes when a move's delta is unknown.
//!
//! The search is generic over games that may have no features, so it holds the network
//! as a [`NetEval`] trait object (implemented by [`Network`] for every game with
//! [`Features`]), as it holds an oracle.

use std::sync::Arc;

use super::Features;
use super::accumulator::Accumulator;
use super::network::Network;
use crate::core::{Game, Side};

/// The most features one move may turn on (or off) for one perspective.
pub const MAX_DELTA: usize = 32;

/// The features a move turns on and off, per perspective (indexed by [`Side::index`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureDelta {
    added: [[u32; MAX_DELTA]; 2],
    removed: [[u32; MAX_DELTA]; 2],
    lens: [[u8; 2]; 2],
}

impl FeatureDelta {
    /// No change.
    pub fn clear(&mut self) {
        self.lens = [[0; 2]; 2];
    }

    /// Feature `f` turns on for `perspective`.
    ///
    /// # Panics
    /// With more than [`MAX_DELTA`] features turned on for one perspective.
    pub fn add(&mut self, perspective: Side, f: u32) {
        let n = &mut self.lens[perspective.index()][0];
        self.added[perspective.index()][usize::from(*n)] = f;
        *n += 1;
    }

    /// Feature `f` turns off for `perspective`.
    ///
    /// # Panics
    /// With more than [`MAX_DELTA`] features turned off for one perspective.
    pub fn remove(&mut self, perspective: Side, f: u32) {
        let n = &mut self.lens[perspective.index()][1];
        self.removed[perspective.index()][usize::from(*n)] = f;
        *n += 1;
    }

    /// The features turned on for `perspective`.
    pub fn added(&self, perspective: Side) -> &[u32] {
        let p = perspective.index();
        &self.added[p][..usize::from(self.lens[p][0])]
    }

    /// The features turned off for `perspective`.
    pub fn removed(&self, perspective: Side) -> &[u32] {
        let p = perspective.index();
        &self.removed[p][..usize::from(self.lens[p][1])]
    }
}

/// A network as [`AccumulatorStack`] uses it, for positions of `G` (object safe, so a
/// search over any game can hold one).
pub trait NetEval<G: Game>: Send + Sync {
    /// An accumulator of the network's size.
    fn accumulator(&self) -> Accumulator;
    /// Recomputes `acc` from `pos`.
    fn refresh(&self, pos: &G, acc: &mut Accumulator, scratch: &mut Vec<u32>);
    /// The delta of `mv` (legal in `pos`, not played yet), false when the game does not
    /// know it.
    fn move_delta(&self, pos: &G, mv: G::Move, delta: &mut FeatureDelta) -> bool;
    /// `child` = `parent` with `delta` applied.
    fn apply(&self, parent: &Accumulator, delta: &FeatureDelta, child: &mut Accumulator);
    /// The evaluation in the game's `cp` for `stm` to move (`logit × scale`).
    fn evaluate(&self, acc: &Accumulator, stm: Side) -> i32;
    /// Whether the evaluation is a correction added to the hand evaluation.
    fn on_hand(&self) -> bool;
}

/// The largest evaluation a network gives (`cp`), far from the search's mate scores.
pub const MAX_EVAL: i32 = 10_000;

impl<G: Features> NetEval<G> for Network {
    fn accumulator(&self) -> Accumulator {
        Accumulator::new(self)
    }

    fn refresh(&self, pos: &G, acc: &mut Accumulator, scratch: &mut Vec<u32>) {
        acc.refresh(self, pos, scratch);
    }

    fn move_delta(&self, pos: &G, mv: G::Move, delta: &mut FeatureDelta) -> bool {
        pos.move_delta(mv, delta)
    }

    fn apply(&self, parent: &Accumulator, delta: &FeatureDelta, child: &mut Accumulator) {
        let sides = [Side::P1, Side::P2];
        child.update_from(
            self,
            parent,
            sides.map(|s| delta.removed(s)),
            sides.map(|s| delta.added(s)),
        );
    }

    fn evaluate(&self, acc: &Accumulator, stm: Side) -> i32 {
        let cp = self.output(acc, stm) as f32 * self.scale / (super::QA * super::QB) as f32;
        (cp.round() as i32).clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn on_hand(&self) -> bool {
        Network::on_hand(self)
    }
}

/// The accumulators of the positions along a search path, by ply (0: the root).
pub struct AccumulatorStack<G: Game> {
    net: Arc<dyn NetEval<G>>,
    accs: Vec<Accumulator>,
    /// `computed[p]`: `accs[p]` is the accumulator of the position at ply `p`.
    computed: Vec<bool>,
    /// `deltas[p]`: the move from ply `p` to `p + 1`, when `known[p]`.
    deltas: Vec<FeatureDelta>,
    known: Vec<bool>,
    scratch: Vec<u32>,
}

impl<G: Game> AccumulatorStack<G> {
    /// A stack for paths of up to `max_ply` plies.
    pub fn new(net: Arc<dyn NetEval<G>>, max_ply: usize) -> Self {
        let n = max_ply + 1;
        AccumulatorStack {
            accs: (0..n).map(|_| net.accumulator()).collect(),
            computed: vec![false; n],
            deltas: vec![FeatureDelta::default(); n],
            known: vec![false; n],
            scratch: Vec::with_capacity(64),
            net,
        }
    }

    /// A new root: nothing is computed.
    pub fn reset(&mut self) {
        self.computed.iter_mut().for_each(|c| *c = false);
    }

    /// `mv` is about to be played in `pos`, at `ply`.
    pub fn make(&mut self, ply: usize, pos: &G, mv: G::Move) {
        if ply + 1 < self.accs.len() {
            self.known[ply] = self.net.move_delta(pos, mv, &mut self.deltas[ply]);
            self.computed[ply + 1] = false;
        }
    }

    /// The side to move passes at `ply` (null move): the next accumulator is refreshed.
    pub fn make_null(&mut self, ply: usize) {
        if ply + 1 < self.accs.len() {
            self.known[ply] = false;
            self.computed[ply + 1] = false;
        }
    }

    /// The accumulator of `pos`, the position at `ply`.
    pub fn accumulator(&mut self, ply: usize, pos: &G) -> &Accumulator {
        if !self.computed[ply] {
            let mut from = ply;
            while from > 0 && !self.computed[from] && self.known[from - 1] {
                from -= 1;
            }
            if self.computed[from] {
                for p in from..ply {
                    let (parents, children) = self.accs.split_at_mut(p + 1);
                    self.net.apply(&parents[p], &self.deltas[p], &mut children[0]);
                    self.computed[p + 1] = true;
                }
            } else {
                self.net.refresh(pos, &mut self.accs[ply], &mut self.scratch);
                self.computed[ply] = true;
            }
        }
        &self.accs[ply]
    }

    /// The network's evaluation of `pos`, the position at `ply`, for its side to move.
    pub fn evaluate(&mut self, ply: usize, pos: &G) -> i32 {
        let stm = pos.side_to_move();
        self.accumulator(ply, pos);
        self.net.evaluate(&self.accs[ply], stm)
    }
}

/// The network of an `EvalFile` option's value for game `G`: none for an empty value or
/// `<empty>`; an error (the caller keeps its network) for a file that is missing or not
/// a network of `G`'s features.
pub fn load_eval_file<G: Features>(
    option: &str,
    path: &str,
) -> Result<Option<Arc<Network>>, String> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return Ok(None);
    }
    let keep = "the evaluation is unchanged";
    let bytes = std::fs::read(path).map_err(|e| format!("{option} '{path}': {e}; {keep}"))?;
    let net = Network::from_bytes(&bytes, G::NAME, G::FEATURE_COUNT)
        .map_err(|e| format!("{option} '{path}': {e}; {keep}"))?;
    Ok(Some(Arc::new(net)))
}

/// Checks `pos`'s delta of `mv` (legal, not played yet): for each perspective it must
/// turn off exactly the features active before the move and not after, and turn on
/// those active after and not before. `Err` names the position and the move.
pub fn check_move_delta<G: Features + crate::core::Reversible>(
    pos: &mut G,
    mv: G::Move,
) -> Result<(), String> {
    let active = |pos: &G, side: Side| {
        let mut v = Vec::new();
        pos.active_features(side, &mut v);
        v.sort_unstable();
        v
    };
    let mut delta = FeatureDelta::default();
    if !pos.move_delta(mv, &mut delta) {
        return Err(format!("{}: no delta for {mv}", pos.to_fen()));
    }
    let before = [Side::P1, Side::P2].map(|s| active(pos, s));
    let undo = pos.play_reversible(mv);
    let mut result = Ok(());
    for s in [Side::P1, Side::P2] {
        let (old, new) = (&before[s.index()], active(pos, s));
        let off: Vec<u32> = old.iter().copied().filter(|f| !new.contains(f)).collect();
        let on: Vec<u32> = new.iter().copied().filter(|f| !old.contains(f)).collect();
        let (mut removed, mut added) = (delta.removed(s).to_vec(), delta.added(s).to_vec());
        removed.sort_unstable();
        added.sort_unstable();
        if (&removed, &added) != (&off, &on) {
            result = Err(format!(
                "{} after {mv}: delta off {removed:?} on {added:?}, features off {off:?} on {on:?}",
                pos.to_fen()
            ));
        }
    }
    pos.unplay(mv, undo);
    result
}

/// Checks `stack` along random paths from `root`: `walks` times, up to `depth` moves
/// chosen by `choose` (an index below the number of legal moves) are played and taken
/// back in a random order of makes and unmakes, and at every position reached the
/// stack's accumulator must equal a full refresh. `Err` names the first position that
/// differs.
pub fn check_stack<G: crate::core::Reversible>(
    net: &Arc<dyn NetEval<G>>,
    root: &G,
    walks: usize,
    depth: usize,
    choose: &mut dyn FnMut(usize) -> usize,
) -> Result<usize, String> {
    let mut stack = AccumulatorStack::new(Arc::clone(net), depth + 1);
    let mut checked = 0;
    let mut scratch = Vec::new();
    let mut fresh = net.accumulator();
    for _ in 0..walks {
        let mut pos = root.clone();
        let mut path: Vec<(G::Move, G::Undo)> = Vec::new();
        stack.reset();
        let mut moves = Vec::new();
        for _ in 0..4 * depth {
            moves.clear();
            pos.generate_moves(&mut moves);
            // Deeper while there are moves and room, with a chance of going back up.
            let back = path.len() == depth || moves.is_empty() || choose(3) == 0;
            if back {
                let Some((mv, undo)) = path.pop() else { break };
                pos.unplay(mv, undo);
            } else {
                let mv = moves[choose(moves.len())];
                stack.make(path.len(), &pos, mv);
                path.push((mv, pos.play_reversible(mv)));
            }
            // Evaluate only some positions, so deltas are also applied several at once.
            if choose(2) == 0 {
                continue;
            }
            net.refresh(&pos, &mut fresh, &mut scratch);
            if stack.accumulator(path.len(), &pos) != &fresh {
                return Err(format!("ply {}: {}", path.len(), pos.to_fen()));
            }
            checked += 1;
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::games::morris::{Morris, MorrisMove, MorrisOptions, MorrisRules};

    /// A network whose delta of every capture is empty: a wrong delta.
    struct Forgetful(Network);

    impl NetEval<Morris> for Forgetful {
        fn accumulator(&self) -> Accumulator {
            Accumulator::new(&self.0)
        }
        fn refresh(&self, pos: &Morris, acc: &mut Accumulator, scratch: &mut Vec<u32>) {
            acc.refresh(&self.0, pos, scratch);
        }
        fn move_delta(&self, pos: &Morris, mv: MorrisMove, delta: &mut FeatureDelta) -> bool {
            pos.move_delta(mv, delta);
            if mv.captured().is_some() {
                delta.clear();
            }
            true
        }
        fn apply(&self, parent: &Accumulator, delta: &FeatureDelta, child: &mut Accumulator) {
            NetEval::<Morris>::apply(&self.0, parent, delta, child);
        }
        fn evaluate(&self, acc: &Accumulator, stm: Side) -> i32 {
            NetEval::<Morris>::evaluate(&self.0, acc, stm)
        }
        fn on_hand(&self) -> bool {
            false
        }
    }

    fn random_net(seed: u64) -> Network {
        Network::random(Morris::NAME, Morris::FEATURE_COUNT, 32, seed)
    }

    #[test]
    fn the_stack_equals_a_refresh_after_random_makes_and_unmakes() {
        let mut rng = Rng::new(41);
        for rules in [MorrisRules::Seed, MorrisRules::Standard] {
            let opts = MorrisOptions { rules, ..MorrisOptions::default() };
            let net: Arc<dyn NetEval<Morris>> = Arc::new(random_net(3));
            let mut roots = vec![Morris::startpos(&opts)];
            roots.extend(
                crate::games::morris::BENCH_POSITIONS[1..]
                    .iter()
                    .map(|f| Morris::from_fen(f, &opts).expect("bench position")),
            );
            for root in &roots {
                let checked = check_stack(&net, root, 40, 24, &mut |n| rng.below(n))
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(checked > 500, "{checked} positions checked");
            }
        }
    }

    #[test]
    fn the_check_fails_on_a_wrong_delta() {
        let mut rng = Rng::new(5);
        let net: Arc<dyn NetEval<Morris>> = Arc::new(Forgetful(random_net(4)));
        let root = Morris::startpos(&MorrisOptions::default());
        let found = check_stack(&net, &root, 40, 30, &mut |n| rng.below(n));
        assert!(found.is_err(), "a delta that forgets captures went unnoticed");
    }

    #[test]
    fn the_evaluation_is_the_output_times_the_scale() {
        let net = random_net(6);
        let pos = Morris::startpos(&MorrisOptions::default());
        let mut acc = Accumulator::new(&net);
        acc.refresh(&net, &pos, &mut Vec::new());
        let expected = (net.logit(&acc, Side::P1) * net.scale()).round() as i32;
        assert_eq!(NetEval::<Morris>::evaluate(&net, &acc, Side::P1), expected);
        let shared: Arc<dyn NetEval<Morris>> = Arc::new(net);
        let mut stack = AccumulatorStack::new(shared, 8);
        assert_eq!(stack.evaluate(0, &pos), expected);
    }
}
