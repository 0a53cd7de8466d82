//! The network in f32 for training: forward pass, gradient of the squared error, Adam.
//! Same layout as the engine's [`Network`], which [`Model::quantise`] makes.

use super::data::Samples;
use crate::core::Rng;
use crate::search::nnue::{FloatWeights, Network, QA, QB};

/// The clamp of the first layer's weights and biases and of the output weights, so that
/// quantising never clips them ([`QA`], [`QB`] in 16 bits).
const L1_LIMIT: f32 = (i16::MAX as i32 / QA) as f32;
const L2_LIMIT: f32 = (i16::MAX as i32 / QB) as f32;

/// Parameters (or their gradients, or Adam's moments): all weights in one vector,
/// first layer weights, first layer biases, output weights, output bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub features: usize,
    pub hidden: usize,
    pub params: Vec<f32>,
}

impl Model {
    /// Zero parameters.
    pub fn zeros(features: usize, hidden: usize) -> Model {
        Model { features, hidden, params: vec![0.0; features * hidden + 3 * hidden + 1] }
    }

    /// Random first layer (uniform within ±1/√`active`, `active` the usual number of
    /// active features per perspective) and output layer (within ±1/√(2·hidden)).
    pub fn random(features: usize, hidden: usize, active: f32, rng: &mut Rng) -> Model {
        let mut m = Model::zeros(features, hidden);
        let mut uniform =
            |a: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
        let (a1, a2) = (1.0 / active.max(1.0).sqrt(), 1.0 / (2.0 * hidden as f32).sqrt());
        let (l1, rest) = m.params.split_at_mut(features * hidden);
        l1.iter_mut().for_each(|w| *w = uniform(a1));
        rest[hidden..3 * hidden].iter_mut().for_each(|w| *w = uniform(a2));
        m
    }

    /// The weights of a quantised network (to refine it: `ugine train --init`).
    pub fn from_network(net: &Network) -> Model {
        Model { features: net.features(), hidden: net.hidden(), params: net.float_params() }
    }

    fn split(&self) -> (&[f32], &[f32], &[f32], f32) {
        let (l1, rest) = self.params.split_at(self.features * self.hidden);
        let (b1, rest) = rest.split_at(self.hidden);
        let (l2, b2) = rest.split_at(2 * self.hidden);
        (l1, b1, l2, b2[0])
    }

    /// The first layer's sums of one perspective's features into `acc`.
    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let (l1, b1, _, _) = self.split();
        acc.copy_from_slice(b1);
        for &f in features {
            let row = &l1[usize::from(f) * self.hidden..][..self.hidden];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }

    /// The output logit of position `i` (with its base: [`Samples::base`]); `acc` holds
    /// the two perspectives' sums after.
    fn forward(&self, samples: &Samples, i: usize, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        let (own, theirs) = samples.features(i);
        let (a_own, a_theirs) = acc.split_at_mut(h);
        self.accumulate(own, a_own);
        self.accumulate(theirs, a_theirs);
        let (_, _, l2, b2) = self.split();
        acc.iter().zip(l2).map(|(&a, &w)| a.clamp(0.0, 1.0) * w).sum::<f32>() + b2 + samples.base(i)
    }

    /// The mean squared error of the predictions `σ(output)` on `samples`.
    pub fn loss(&self, samples: &Samples) -> f64 {
        let mut acc = vec![0.0; 2 * self.hidden];
        let total: f64 = (0..samples.len())
            .map(|i| {
                let p = sigmoid(self.forward(samples, i, &mut acc));
                f64::from(p - samples.targets[i]).powi(2)
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    /// Adds the gradient of the squared error of each of `indices` to `grad`; returns
    /// their summed error.
    pub fn add_gradient(&self, samples: &Samples, indices: &[u32], grad: &mut Model) -> f64 {
        let h = self.hidden;
        let mut acc = vec![0.0; 2 * h];
        let mut error = 0.0;
        for &i in indices {
            let i = i as usize;
            let p = sigmoid(self.forward(samples, i, &mut acc));
            let diff = p - samples.targets[i];
            error += f64::from(diff * diff);
            let g = 2.0 * diff * p * (1.0 - p);
            let (_, _, l2, _) = self.split();
            let (own, theirs) = samples.features(i);
            let (g_l1, rest) = grad.params.split_at_mut(self.features * h);
            let (g_b1, rest) = rest.split_at_mut(h);
            let (g_l2, g_b2) = rest.split_at_mut(2 * h);
            g_b2[0] += g;
            for (half, features) in [(0, own), (1, theirs)] {
                for j in 0..h {
                    let k = half * h + j;
                    let a = acc[k];
                    g_l2[k] += g * a.clamp(0.0, 1.0);
                    // The clipped ReLU passes the gradient only between its bends.
                    if a > 0.0 && a < 1.0 {
                        let d = g * l2[k];
                        g_b1[j] += d;
                        for &f in features {
                            g_l1[usize::from(f) * h + j] += d;
                        }
                    }
                }
            }
        }
        error
    }

    /// The engine's quantised network of these weights.
    pub fn quantise(&self, game: &str, scale: f32) -> Network {
        let (l1, b1, l2, b2) = self.split();
        let w = FloatWeights { l1_weights: l1, l1_bias: b1, l2_weights: l2, l2_bias: b2 };
        Network::from_float(game, self.features, self.hidden, scale, &w)
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam (Kingma and Ba, 2015) over a model's parameters.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    pub rate: f32,
}

impl Adam {
    pub fn new(model: &Model, rate: f32) -> Adam {
        Adam { m: vec![0.0; model.params.len()], v: vec![0.0; model.params.len()], t: 0, rate }
    }

    /// One step against the mean gradient `grad` (summed over `n` positions); weights
    /// stay within what quantisation keeps.
    pub fn step(&mut self, model: &mut Model, grad: &Model, n: usize) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.t += 1;
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        let l2_start = model.features * model.hidden + model.hidden;
        let l2_end = l2_start + 2 * model.hidden;
        let inv = 1.0 / n as f32;
        for (k, w) in model.params.iter_mut().enumerate() {
            let g = grad.params[k] * inv;
            self.m[k] = b1 * self.m[k] + (1.0 - b1) * g;
            self.v[k] = b2 * self.v[k] + (1.0 - b2) * g * g;
            *w -= self.rate * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + eps);
            let limit = if (l2_start..l2_end).contains(&k) { L2_LIMIT } else { L1_LIMIT };
            if k < l2_end {
                *w = w.clamp(-limit, limit);
            }
        }
    }
}
