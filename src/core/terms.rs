//! Evaluations linear in their weights, written once for two uses: the engine sums the
//! weights ([`WeightSum`]), the tuner records which features occur ([`Trace`]).
//!
//! A game's evaluation is `Σ weight[f] × count(f)` over its features `f`; phase-dependent
//! weights are separate features (the game picks the feature of the current phase).

use super::game::Game;

/// What an evaluation reports: feature `feature` occurs `count` times (negative counts
/// for the opponent's features).
pub trait Terms {
    fn add(&mut self, feature: usize, count: i32);
}

/// The evaluation itself: the weighted sum of the features.
pub struct WeightSum<'a> {
    weights: &'a [i32],
    /// The sum so far.
    pub total: i32,
}

impl<'a> WeightSum<'a> {
    /// A zero sum over `weights` (indexed by feature).
    pub fn new(weights: &'a [i32]) -> WeightSum<'a> {
        WeightSum { weights, total: 0 }
    }
}

impl Terms for WeightSum<'_> {
    #[inline]
    fn add(&mut self, feature: usize, count: i32) {
        self.total += self.weights[feature] * count;
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
        let mut sum = WeightSum::new(Self::weights());
        self.terms(&mut sum);
        sum.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_and_trace_agree() {
        let weights = [3, -2, 7];
        let report = |t: &mut dyn FnMut(usize, i32)| {
            t(0, 2);
            t(2, 1);
            t(0, -1);
            t(1, 0);
        };
        let mut sum = WeightSum::new(&weights);
        report(&mut |f, c| sum.add(f, c));
        let mut trace = Trace::default();
        report(&mut |f, c| trace.add(f, c));
        assert_eq!(trace.0, vec![(0, 1), (2, 1)]);
        let from_trace: i32 = trace.0.iter().map(|&(f, c)| weights[f as usize] * c).sum();
        assert_eq!(sum.total, from_trace);
        assert_eq!(sum.total, 10);
    }
}
