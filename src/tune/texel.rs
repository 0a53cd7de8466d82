//! Texel tuning (CITE: Peter Österlund's method, as described on the Chess Programming
//! Wiki "Texel's Tuning Method"; gradient descent for linear evaluations as in Andrew
//! Grant, "Evaluation & Tuning in Chess Engines", 2020).
//!
//! Each position predicts player 1's score `σ(e) = 1 / (1 + 10^(−K·e/400))` from its
//! evaluation `e` for player 1; the loss is the mean squared error against the game's
//! result (1, ½, 0). `K` is fitted first with the current weights; then the weights,
//! with `K` fixed, by full-batch gradient descent (Adam), since `e` is linear in them.

/// One training position: its features (counts signed for player 1) and the result.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Vec<(u16, f64)>,
    /// Player 1's score: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
}

impl Sample {
    /// The evaluation for player 1 under `weights`.
    pub fn eval(&self, weights: &[f64]) -> f64 {
        self.features.iter().map(|&(f, c)| weights[f as usize] * c).sum()
    }
}

/// The predicted score of an evaluation `e`.
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The mean squared error of the predictions against the results.
pub fn loss(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    let total: f64 = samples.iter().map(|s| (s.result - sigmoid(k, s.eval(weights))).powi(2)).sum();
    total / samples.len().max(1) as f64
}

/// The `K` that minimises the loss with `weights` (golden-section search on log K).
pub fn fit_k(samples: &[Sample], weights: &[f64]) -> f64 {
    let f = |x: f64| loss(samples, weights, x.exp());
    let (mut a, mut b) = ((0.01f64).ln(), (10f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// How [`fit_weights`] fits.
#[derive(Clone, Debug)]
pub struct Fit<'a> {
    /// Weights left at their start values.
    pub fixed: &'a [usize],
    /// The scale of the sigmoid.
    pub k: f64,
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam step size, in weight units.
    pub rate: f64,
    /// L2 pull towards the start values: the loss grows by `reg` per (100 units)² that a
    /// weight moves. Applies to the first `anchored` weights only.
    pub reg: f64,
    pub anchored: usize,
}

/// Fits the weights not in `fit.fixed` by `fit.epochs` steps of Adam; returns the new
/// weights.
pub fn fit_weights(samples: &[Sample], start: &[f64], fit: &Fit) -> Vec<f64> {
    let n = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let scale = fit.k * std::f64::consts::LN_10 / 400.0;
    let mut grad = vec![0.0; n];
    for t in 1..=fit.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for s in samples {
            let p = sigmoid(fit.k, s.eval(&w));
            // d/dw of (r − σ)²: −2 (r − σ) σ (1 − σ) · K ln10 / 400 · count.
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
            for &(f, c) in &s.features {
                grad[f as usize] += common * c;
            }
        }
        for i in (0..n).filter(|i| !fit.fixed.contains(i)) {
            let mut g = grad[i] / samples.len() as f64;
            if i < fit.anchored {
                g += 2.0 * fit.reg * (w[i] - start[i]) / 1e4;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= fit.rate * mh / (vh.sqrt() + eps);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose results follow a known evaluation: the fit finds its weights.
    #[test]
    fn recovers_the_weights_that_made_the_results() {
        let truth = [100.0, 30.0];
        let mut samples = Vec::new();
        let mut rng = crate::core::Rng::new(5);
        for _ in 0..4000 {
            let a = rng.below(5) as f64 - 2.0;
            let b = rng.below(9) as f64 - 4.0;
            let features = vec![(0, a), (1, b)];
            let e: f64 = truth[0] * a + truth[1] * b;
            let p = sigmoid(1.0, e);
            // Expected results instead of sampled ones: an exact fit exists.
            samples.push(Sample { features, result: p });
        }
        let k = fit_k(&samples, &truth);
        assert!((k - 1.0).abs() < 0.01, "K {k}");
        let fit = Fit { fixed: &[0], k, epochs: 600, rate: 2.0, reg: 0.0, anchored: 2 };
        let w = fit_weights(&samples, &[100.0, 0.0], &fit);
        assert_eq!(w[0], 100.0, "fixed");
        assert!((w[1] - 30.0).abs() < 1.0, "{w:?}");
        assert!(loss(&samples, &w, k) < loss(&samples, &[100.0, 0.0], k));
        // A strong pull towards the start keeps the weight near it.
        let held = fit_weights(&samples, &[100.0, 0.0], &Fit { reg: 1.0, ..fit });
        assert!(held[1].abs() < 5.0, "{held:?}");
    }
}
