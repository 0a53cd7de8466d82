//! The sequential probability ratio test (SPRT) on the normalized-Elo model: the only
//! place where a match's test decides (`Sprt::decide`).
//!
//! CITE: Michel Van den Bergh, "Comments on Normalized Elo"
//! (<https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>), section 4.1, for the
//! maximum-likelihood distribution behind the normalized-Elo log-likelihood ratio; the
//! formulas match fastchess (`elo_pentanomial.cpp`, `sprt.cpp`).

use std::f64::consts::{LN_10, SQRT_2};

use super::elo::{PAIR_SCORES, Penta};

/// The verdict of an SPRT so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Neither bound crossed.
    Continue,
    /// Lower bound crossed: H0 (`elo ≤ elo0`) accepted, the test fails.
    H0,
    /// Upper bound crossed: H1 (`elo ≥ elo1`) accepted, the test passes.
    H1,
}

impl SprtVerdict {
    /// How summaries print the verdict.
    pub fn words(self) -> &'static str {
        match self {
            SprtVerdict::H1 => "H1 accepted (pass)",
            SprtVerdict::H0 => "H0 accepted (fail)",
            SprtVerdict::Continue => "no decision",
        }
    }
}

/// A sequential probability ratio test of H0: nElo = `elo0` against H1: nElo = `elo1`
/// on pentanomial counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `alpha` and `beta` in `(0, 1)` with
    /// `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(format!("SPRT {name} must be between 0 and 1 (got {v})"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err("SPRT needs alpha + beta < 1".to_string());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Lower and upper bounds of the log-likelihood ratio: `ln(β/(1−α))`, `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the counts (0 without pairs).
    pub fn llr(&self, penta: &Penta) -> f64 {
        llr_normalized_penta(penta, self.elo0, self.elo1)
    }

    /// The verdict on pentanomial counts: the one place where the test decides.
    pub fn decide(&self, penta: &Penta) -> SprtVerdict {
        self.verdict(self.llr(penta))
    }

    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; alpha and beta default
    /// to 0.05), as [`Sprt::words`] writes it.
    pub fn parse<'a>(words: impl Iterator<Item = &'a str>) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for w in words {
            let (k, v) =
                w.split_once('=').ok_or_else(|| format!("SPRT setting '{w}' is not key=value"))?;
            let x: f64 = v.trim().parse().map_err(|_| format!("{k} takes a number, not '{v}'"))?;
            match k {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                _ => return Err(format!("unknown SPRT setting '{k}'")),
            }
        }
        match (elo0, elo1) {
            (Some(a), Some(b)) => Sprt::new(a, b, alpha, beta),
            _ => Err("SPRT needs elo0 and elo1".to_string()),
        }
    }

    /// `elo0=… elo1=… alpha=… beta=…`, as [`Sprt::parse`] reads it.
    pub fn words(&self) -> String {
        format!("elo0={} elo1={} alpha={} beta={}", self.elo0, self.elo1, self.alpha, self.beta)
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::H1
        } else if llr <= lo {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// Log-likelihood ratio of nElo = `elo1` against nElo = `elo0` for pentanomial counts.
/// Empty cells are regularized to 1e-3 pairs as fastchess does, so the ratio is defined
/// from the first pair on. (The `WL` and `DD` cells are both score ½ and are merged.)
pub fn llr_normalized_penta(penta: &Penta, elo0: f64, elo1: f64) -> f64 {
    if penta.pairs() == 0 {
        return 0.0;
    }
    let reg = |c: u64| if c == 0 { 1e-3 } else { c as f64 };
    let counts = penta.counts.map(reg);
    let total: f64 = counts.iter().sum();
    let probs = counts.map(|c| c / total);
    // t = (μ − ½)/σ_pair; nElo = t · 800/ln10 / √2.
    let scale = SQRT_2 / (800.0 / LN_10);
    let p0 = mle_normalized(&probs, 0.5, elo0 * scale);
    let p1 = mle_normalized(&probs, 0.5, elo1 * scale);
    let mean_lpr: f64 = (0..5).map(|i| probs[i] * (p1[i].ln() - p0[i].ln())).sum();
    total * mean_lpr
}

/// The distribution closest (maximum likelihood) to the empirical `probs` among those
/// with `(μ − mu_ref)/σ = t_star` (Van den Bergh, section 4.1: fixed-point iteration on
/// `p_i = p̂_i / (1 + θ φ_i)`, θ the root of `Σ p̂_i φ_i / (1 + θ φ_i) = 0`).
fn mle_normalized(probs: &[f64; 5], mu_ref: f64, t_star: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..1000 {
        let mu: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (PAIR_SCORES[i] - mu).powi(2)).sum();
        let sigma = var.sqrt();
        let phi = PAIR_SCORES
            .map(|a| a - mu_ref - 0.5 * t_star * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
        let (u, v) = phi.iter().fold((f64::MAX, f64::MIN), |(u, v), &x| (u.min(x), v.max(x)));
        // θ lies in (−1/v, −1/u), where every 1 + θφ_i > 0; the function is decreasing.
        let f = |theta: f64| -> f64 {
            (0..5).map(|i| probs[i] * phi[i] / (1.0 + theta * phi[i])).sum()
        };
        let theta = bisect_decreasing(f, -1.0 / v, -1.0 / u);
        let mut max_diff: f64 = 0.0;
        for i in 0..5 {
            let next = probs[i] / (1.0 + theta * phi[i]);
            max_diff = max_diff.max((next - p[i]).abs());
            p[i] = next;
        }
        if max_diff < 1e-9 {
            break;
        }
    }
    p
}

/// The root of a decreasing function on the open interval `(a, b)`, by bisection.
fn bisect_decreasing(f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (a, b);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}
