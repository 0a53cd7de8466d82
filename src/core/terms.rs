//! Evaluations linear in their weights, written once for two uses: the engine sums the
//! weights ([`WeightSum`]), the tuner records which features occur ([`Trace`]).
//!
//! A game's evaluation is `Σ weight[f] × count(f)` over its features `f`; phase-dependent
//! weights are separate features (the game picks the feature of the current phase).

use std::marker::PhantomData;

use super::game::Game;

/// What an evaluation reports: feature `feature` occurs `count` times (negative counts
/// for the opponent's features).
pub trait Terms {
    fn add(&mut self, feature: usize, count: i32);
}

/// The evaluation itself: the weighted sum of the features of `E`. The weights are
/// `E`'s constant table, read in `add` rather than held as a slice, so that once the
/// game's `terms` is compiled for this sum each `add` of a fixed feature is a multiply
/// by a constant (no table pointer, no bounds test).
pub struct WeightSum<E> {
    /// The sum so far.
    pub total: i32,
    game: PhantomData<E>,
}

/// A zero sum.
impl<E> Default for WeightSum<E> {
    fn default() -> WeightSum<E> {
        WeightSum { total: 0, game: PhantomData }
    }
}

impl<E: LinearEval> Terms for WeightSum<E> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.total += E::weights()[feature] * count;
    }
}

/// The features of one position with their total counts (zero counts dropped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace(pub Vec<(u16, i32)>);

impl Terms for Trace {
    fn add(&mut self, feature: usize, count: i32) {
        if count == 0 {
            return;
        }
        match self.0.iter_mut().find(|(f, _)| *f as usize == feature) {
            Some((_, c)) => *c += count,
            None => self.0.push((feature as u16, count)),
        }
    }
}

/// What the games' evaluation tests check a position's features with.
#[cfg(test)]
impl Trace {
    /// The features of `pos`, counted as its evaluation counts them.
    pub fn of<E: LinearEval>(pos: &E) -> Trace {
        let mut t = Trace::default();
        pos.terms(&mut t);
        t
    }

    /// The count of `feature` (0 when it does not occur).
    pub fn count(&self, feature: usize) -> i32 {
        self.0.iter().find(|(f, _)| *f as usize == feature).map_or(0, |&(_, c)| c)
    }

    /// The sum of the counts times `weights`: what [`WeightSum`] adds up.
    pub fn weighted(&self, weights: &[i32]) -> i32 {
        self.0.iter().map(|&(f, c)| weights[f as usize] * c).sum()
    }
}

/// A game whose static evaluation is linear in one table of weights, so `ugine tune`
/// can fit the weights to game results.
pub trait LinearEval: Game {
    /// One name per feature, in weight-table order (the generated table uses them).
    const FEATURES: &'static [&'static str];
    /// Features the tuner leaves alone (e.g. the man or piece that fixes the `cp` scale).
    const FIXED: &'static [usize];
    /// The file of the weight table, from the repository root.
    const WEIGHTS_FILE: &'static str;
    /// The weights the engine plays with, one per feature.
    fn weights() -> &'static [i32];
    /// Reports the features of this position (not over), from the side to move's point
    /// of view.
    fn terms<T: Terms>(&self, t: &mut T);
    /// The evaluation with the engine's weights.
    fn linear_eval(&self) -> i32 {
        let mut sum = WeightSum::<Self>::default();
        self.terms(&mut sum);
        sum.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_merges_counts_and_drops_zeros() {
        let mut trace = Trace::default();
        trace.add(0, 2);
        trace.add(2, 1);
        trace.add(0, -1);
        trace.add(1, 0);
        assert_eq!(trace.0, vec![(0, 1), (2, 1)]);
        assert_eq!(trace.weighted(&[3, -2, 7]), 10);
    }
}
