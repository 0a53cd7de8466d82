//! The network's weights, quantised (its output from an accumulator: `accumulator.rs`).

/// Scale of the first layer's weights and biases: an accumulator value of `QA` is 1.0,
/// where the clipped ReLU saturates.
pub const QA: i32 = 255;
/// Scale of the output layer's weights; its bias is scaled by `QA · QB`.
pub const QB: i32 = 64;

/// A network in the engine: `features → 2 × hidden → 1` with int16 weights (module doc
/// of [`super`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The game it was trained for (`Game::NAME`).
    pub(super) game: String,
    pub(super) features: usize,
    pub(super) hidden: usize,
    /// Evaluation units (`cp`) per unit of the output logit.
    pub(super) scale: f32,
    /// The network's evaluation is added to the game's hand evaluation (it was trained
    /// as a correction of it: `ugine train --on-hand`) instead of replacing it.
    pub(super) on_hand: bool,
    /// Row `f` (`hidden` values) is feature `f`'s contribution to the accumulator.
    pub(super) l1_weights: Vec<i16>,
    pub(super) l1_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the opponent's.
    pub(super) l2_weights: Vec<i16>,
    pub(super) l2_bias: i32,
}

/// The float weights of a network before quantisation, laid out as in [`Network`].
#[derive(Clone, Debug)]
pub struct FloatWeights<'a> {
    pub l1_weights: &'a [f32],
    pub l1_bias: &'a [f32],
    pub l2_weights: &'a [f32],
    pub l2_bias: f32,
}

/// `x · q` rounded and clamped to the 16-bit range.
fn quantise(x: f32, q: i32) -> i16 {
    (x * q as f32).round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl Network {
    /// The quantised network of float weights (layout of [`FloatWeights`]); weights
    /// beyond the 16-bit range are clamped.
    ///
    /// # Panics
    /// When the slices do not have the sizes of `features` and `hidden`.
    pub fn from_float(
        game: &str,
        features: usize,
        hidden: usize,
        scale: f32,
        w: &FloatWeights,
    ) -> Network {
        assert_eq!(w.l1_weights.len(), features * hidden);
        assert_eq!(w.l1_bias.len(), hidden);
        assert_eq!(w.l2_weights.len(), 2 * hidden);
        Network {
            game: game.to_string(),
            features,
            hidden,
            scale,
            on_hand: false,
            l1_weights: w.l1_weights.iter().map(|&x| quantise(x, QA)).collect(),
            l1_bias: w.l1_bias.iter().map(|&x| quantise(x, QA)).collect(),
            l2_weights: w.l2_weights.iter().map(|&x| quantise(x, QB)).collect(),
            l2_bias: (w.l2_bias * (QA * QB) as f32).round() as i32,
        }
    }

    /// The weights as floats, in [`FloatWeights`]' order in one vector (first layer
    /// weights, first layer biases, output weights, output bias): what
    /// [`Network::from_float`] quantised, to within its rounding. Training starts from
    /// them to refine a network (`ugine train --init`).
    pub fn float_params(&self) -> Vec<f32> {
        let (qa, qb) = (QA as f32, QB as f32);
        let mut params: Vec<f32> = self.l1_weights.iter().map(|&w| f32::from(w) / qa).collect();
        params.extend(self.l1_bias.iter().map(|&w| f32::from(w) / qa));
        params.extend(self.l2_weights.iter().map(|&w| f32::from(w) / qb));
        params.push(self.l2_bias as f32 / (qa * qb));
        params
    }

    /// The game the network is for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Input features.
    pub fn features(&self) -> usize {
        self.features
    }

    /// Accumulator values per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Evaluation units per unit of the output logit.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Whether the network corrects the hand evaluation (its evaluation is added to it)
    /// rather than replacing it.
    pub fn on_hand(&self) -> bool {
        self.on_hand
    }

    /// The same weights, marked as a correction of the hand evaluation or not.
    pub fn with_on_hand(self, on_hand: bool) -> Network {
        Network { on_hand, ..self }
    }

    /// An accumulator unit whose sums could leave the 16-bit range of
    /// [`Accumulator`](super::Accumulator), with the lowest and highest sum of its bias
    /// and any set of its feature rows; `None` when every sum fits, whatever features
    /// are active (files that do not are refused: [`NetError::Overflow`](super::NetError::Overflow)).
    pub fn accumulator_overflow(&self) -> Option<(usize, i32, i32)> {
        (0..self.hidden).find_map(|unit| {
            let bias = i32::from(self.l1_bias[unit]);
            let (mut low, mut high) = (bias, bias);
            for w in self.l1_weights.iter().skip(unit).step_by(self.hidden) {
                let w = i32::from(*w);
                if w < 0 { low += w } else { high += w }
            }
            let fits = i32::from(i16::MIN) <= low && high <= i32::from(i16::MAX);
            (!fits).then_some((unit, low, high))
        })
    }

    /// Feature `f`'s row of the first layer.
    pub(super) fn row(&self, f: u32) -> &[i16] {
        let start = f as usize * self.hidden;
        &self.l1_weights[start..start + self.hidden]
    }
}

#[cfg(test)]
impl Network {
    /// A network of random weights in −1..=1 (before quantisation), for tests.
    pub(crate) fn random(game: &str, features: usize, hidden: usize, seed: u64) -> Network {
        Network::random_within(game, features, hidden, seed, 1.0)
    }

    /// A network of random weights in −`range`..=`range` (before quantisation), for
    /// tests: a small range keeps the sums of many features' rows within 16 bits.
    pub(crate) fn random_within(
        game: &str,
        features: usize,
        hidden: usize,
        seed: u64,
        range: f32,
    ) -> Network {
        let mut rng = crate::core::Rng::new(seed);
        let mut r = |n: usize| -> Vec<f32> {
            (0..n).map(|_| (rng.below(2001) as f32 - 1000.0) / 1000.0 * range).collect()
        };
        let (w1, b1, w2) = (r(features * hidden), r(hidden), r(2 * hidden));
        let w = FloatWeights { l1_weights: &w1, l1_bias: &b1, l2_weights: &w2, l2_bias: 0.25 };
        let net = Network::from_float(game, features, hidden, 150.0, &w);
        assert_eq!(net.accumulator_overflow(), None, "a random network fits 16 bits");
        net
    }
}
