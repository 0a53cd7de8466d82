//! Match statistics as fastchess and OpenBench compute them: win/draw/loss counts,
//! pentanomial pair counts, Elo with a 95% interval and likelihood of superiority (LOS).
//! The SPRT on these counts is [`super::sprt`].

use std::f64::consts::{LN_10, SQRT_2};

/// z-score of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Scores of the five pair outcomes, from the point of view of the first engine:
/// 0 (lost both), 0.25, 0.5, 0.75, 1 (won both), as a fraction of the pair's 2 points.
pub(super) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Win, draw and loss counts of one engine against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game in `0..=1` (`None` without games).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Elo difference with the half-width of its 95% interval, from the trinomial model
    /// (each game independent). `None` without games.
    pub fn elo(&self) -> Option<Estimate> {
        let n = self.games() as f64;
        let s = self.score()?;
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        Some(Estimate::from_score(s, (var / n).sqrt()))
    }

    /// True when the games support an interval, as [`Penta::sound`] for pairs: at
    /// least 2·[`MIN_PAIRS`] games, and not all alike (a sweep or all draws has no
    /// variance: its "±0" would look like certainty).
    pub fn sound(&self) -> bool {
        let n = self.games();
        n >= 2 * MIN_PAIRS && ![self.wins, self.draws, self.losses].contains(&n)
    }

    /// Likelihood of superiority from wins and losses alone (draws carry no information):
    /// `Φ((W−L)/√(W+L))`. `None` without decisive games.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (self.wins as f64, self.losses as f64);
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }
}

/// Pentanomial counts of game pairs (the same opening played twice with seats swapped),
/// indexed by the first engine's points in the pair in half points: `counts[k]` is the
/// number of pairs it scored `k/2` points in (0 = lost both … 4 = won both).
/// The fewest complete pairs from which the summaries give an Elo interval (with fewer,
/// the normal approximation behind it means little).
pub const MIN_PAIRS: u64 = 5;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u64; 5],
}

impl Penta {
    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds one pair whose two games scored `a` and `b` half points (0, 1 or 2 each) for
    /// the first engine.
    pub fn add_pair(&mut self, a: u8, b: u8) {
        self.counts[usize::from(a + b).min(4)] += 1;
    }

    /// Mean pair score (fraction of the pair's 2 points) and its per-pair variance.
    fn mean_var(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let p = self.counts.map(|c| c as f64 / n);
        let mu: f64 = p.iter().zip(PAIR_SCORES).map(|(p, s)| p * s).sum();
        let var: f64 = p.iter().zip(PAIR_SCORES).map(|(p, s)| p * (s - mu).powi(2)).sum();
        Some((mu, var))
    }

    /// Elo difference with its 95% interval from the pair scores (fastchess's
    /// `EloPentanomial`). `None` without pairs.
    pub fn elo(&self) -> Option<Estimate> {
        let (mu, var) = self.mean_var()?;
        Some(Estimate::from_score(mu, (var / self.pairs() as f64).sqrt()))
    }

    /// Normalized Elo (`(μ−½)/√(2σ²) · 800/ln 10`, σ² the per-pair variance) with the
    /// half-width of its 95% interval. `None` without pairs or without variance.
    /// True when the pairs support an interval: at least [`MIN_PAIRS`] of them, and not
    /// all with the same score (a zero variance gives a zero-width interval, `± 0.0`,
    /// which would read as certainty).
    pub fn sound(&self) -> bool {
        self.pairs() >= MIN_PAIRS && self.mean_var().is_some_and(|(_, var)| var > 0.0)
    }

    pub fn nelo(&self) -> Option<(f64, f64)> {
        let (mu, var) = self.mean_var()?;
        if var <= 0.0 {
            return None;
        }
        let k = 800.0 / LN_10 / (2.0 * var).sqrt();
        let half = Z95 * (var / self.pairs() as f64).sqrt();
        Some(((mu - 0.5) * k, half * k))
    }

    /// Likelihood of superiority: `Φ((μ−½)/σ_mean)` with `σ_mean` the standard error of
    /// the mean pair score. `None` without pairs; ½ when every pair scored the same ½.
    pub fn los(&self) -> Option<f64> {
        let (mu, var) = self.mean_var()?;
        let se = (var / self.pairs() as f64).sqrt();
        if se == 0.0 {
            return Some(if mu > 0.5 {
                1.0
            } else if mu < 0.5 {
                0.0
            } else {
                0.5
            });
        }
        Some(0.5 * (1.0 + erf((mu - 0.5) / (SQRT_2 * se))))
    }
}

/// An Elo difference with its 95% interval, computed from a mean score and its standard
/// error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Elo difference of the mean score.
    pub elo: f64,
    /// Half the width of the 95% interval in Elo: `(elo(s+z·se) − elo(s−z·se)) / 2`.
    pub error: f64,
    /// The mean score.
    pub score: f64,
}

impl Estimate {
    fn from_score(score: f64, se: f64) -> Estimate {
        let lo = elo_from_score(score - Z95 * se);
        let hi = elo_from_score(score + Z95 * se);
        Estimate { elo: elo_from_score(score), error: (hi - lo) / 2.0, score }
    }
}

/// Logistic Elo difference of a mean score: `−400·log10(1/s − 1)`. Infinite at 0 and 1;
/// clamped into `(0, 1)` so intervals stay finite for display.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The error function, from the complementary error function approximation `erfcc` of
/// Numerical Recipes (fractional error below 1.2e-7 everywhere).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}
