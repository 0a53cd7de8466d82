//! `ugine ratings`: maximum-likelihood ratings of every engine of a set of games (round
//! robin, gauntlet, or any mix), as Ordo computes them: the logistic Elo model
//! `P(p1 scores) = 1/(1 + 10^(−(R₁ − R₂ + A)/400))` with a draw counted as half a win
//! and half a loss, a first-mover advantage `A` fitted with the ratings (Ordo's `-W`),
//! one engine anchored at a given rating. The 95% intervals come from the inverse of the
//! observed Fisher information (relative to the anchor).
//!
//! An engine that won (or lost) every game has no finite maximum; `prior` virtual draws
//! between every two engines that met (BayesElo's prior) keep the ratings finite.

use std::fmt::Write as _;

use crate::core::{Outcome, Side};

use crate::runner::stats::elo::Z95;

/// Elo per natural-log unit of the logistic model: `400 / ln 10`.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// One engine's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub name: String,
    pub elo: f64,
    /// Half-width of the 95% interval (0 for the anchor).
    pub error: f64,
    pub games: u64,
    /// Points (a draw is half a point).
    pub points: f64,
}

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Best first.
    pub engines: Vec<Rating>,
    /// First-mover advantage in Elo and its 95% half-width.
    pub advantage: (f64, f64),
}

/// One game (or virtual game) for the fit: engine indices of p1 and p2, p1's score,
/// weight, and whether the first-mover advantage applies.
struct Obs {
    p1: usize,
    p2: usize,
    score: f64,
    weight: f64,
    seated: bool,
}

/// Fits the ratings of the games `(p1, p2, outcome)`. `anchor` (default: the first
/// engine met) gets rating `anchor_elo`. Fails when an engine is unknown, when the
/// games do not connect every engine, or when the maximum is not finite.
pub fn fit(
    games: &[(String, String, Outcome)],
    anchor: Option<&str>,
    anchor_elo: f64,
    prior: f64,
) -> Result<Ratings, String> {
    let mut names: Vec<String> = Vec::new();
    let mut index = |n: &str| match names.iter().position(|x| x == n) {
        Some(i) => i,
        None => {
            names.push(n.to_string());
            names.len() - 1
        }
    };
    let mut obs = Vec::new();
    for (a, b, o) in games {
        let (p1, p2) = (index(a), index(b));
        if p1 == p2 {
            return Err(format!("a game of {a} against itself"));
        }
        let score = o.points(Side::P1);
        obs.push(Obs { p1, p2, score, weight: 1.0, seated: true });
    }
    let n = names.len();
    if n < 2 {
        return Err("ratings need games between at least two engines".to_string());
    }
    let anchor = match anchor {
        Some(a) => names
            .iter()
            .position(|x| x == a)
            .ok_or_else(|| format!("no engine '{a}' in the games"))?,
        None => 0,
    };
    if prior > 0.0 {
        let mut met = std::collections::HashSet::new();
        for o in &obs {
            met.insert((o.p1.min(o.p2), o.p1.max(o.p2)));
        }
        for (i, j) in met {
            obs.push(Obs { p1: i, p2: j, score: 0.5, weight: prior, seated: false });
        }
    }
    // Parameters: the ratings (in natural-log units) of every engine but the anchor,
    // then the advantage. Newton's method on the concave log-likelihood from 0.
    let param =
        |e: usize| -> Option<usize> { (e != anchor).then(|| if e < anchor { e } else { e - 1 }) };
    let dim = n;
    let adv = n - 1;
    let mut theta = vec![0.0; dim];
    let rating = |theta: &[f64], e: usize| param(e).map_or(0.0, |k| theta[k]);
    let mut converged = false;
    let mut hessian = vec![vec![0.0; dim]; dim];
    for _ in 0..100 {
        let mut grad = vec![0.0; dim];
        hessian = vec![vec![0.0; dim]; dim];
        for o in &obs {
            let a = if o.seated { theta[adv] } else { 0.0 };
            let x = rating(&theta, o.p1) - rating(&theta, o.p2) + a;
            let p = 1.0 / (1.0 + (-x).exp());
            let g = o.weight * (o.score - p);
            let h = o.weight * p * (1.0 - p);
            let mut v: Vec<(usize, f64)> = Vec::with_capacity(3);
            if let Some(k) = param(o.p1) {
                v.push((k, 1.0));
            }
            if let Some(k) = param(o.p2) {
                v.push((k, -1.0));
            }
            if o.seated {
                v.push((adv, 1.0));
            }
            for &(k, s) in &v {
                grad[k] += g * s;
                for &(l, t) in &v {
                    hessian[k][l] += h * s * t;
                }
            }
        }
        let step = solve(&hessian, &grad)
            .ok_or("the games do not connect every engine (or every game has the same mover winning): no ratings")?;
        let biggest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        for (t, s) in theta.iter_mut().zip(&step) {
            *t += s;
        }
        if theta.iter().any(|t| t.abs() * SCALE > 4000.0) {
            break;
        }
        if biggest < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(
            "no finite maximum: an engine (or group of engines) won or lost all its games; add virtual draws with --prior 1".to_string(),
        );
    }
    let cov = invert(&hessian).ok_or("singular information matrix: no intervals")?;
    let mut engines: Vec<Rating> = (0..n)
        .map(|e| {
            let mut games = 0;
            let mut points = 0.0;
            for o in obs.iter().filter(|o| o.seated) {
                if o.p1 == e {
                    games += 1;
                    points += o.score;
                } else if o.p2 == e {
                    games += 1;
                    points += 1.0 - o.score;
                }
            }
            Rating {
                name: names[e].clone(),
                elo: anchor_elo + SCALE * rating(&theta, e),
                error: param(e).map_or(0.0, |k| Z95 * SCALE * cov[k][k].max(0.0).sqrt()),
                games,
                points,
            }
        })
        .collect();
    engines.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ok(Ratings {
        engines,
        advantage: (SCALE * theta[adv], Z95 * SCALE * cov[adv][adv].max(0.0).sqrt()),
    })
}

/// Solves `m · x = b` by Gaussian elimination with partial pivoting (`None` when `m`
/// is singular).
fn solve(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(b)
        .map(|(r, &v)| {
            let mut r = r.clone();
            r.push(v);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (x, y) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * y;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// The inverse of `m` (`None` when singular).
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut cols = Vec::with_capacity(n);
    for c in 0..n {
        let e: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == c))).collect();
        cols.push(solve(m, &e)?);
    }
    Some((0..n).map(|r| (0..n).map(|c| cols[c][r]).collect()).collect())
}

/// The rating list as text.
pub fn format_ratings(r: &Ratings, anchor_note: &str) -> String {
    let mut out = format!("ratings: maximum likelihood, a draw is half a point; {anchor_note}\n");
    let width = r.engines.iter().map(|e| e.name.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "  {:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>7}",
        "rank", "name", "Elo", "±95%", "games", "score"
    );
    for (i, e) in r.engines.iter().enumerate() {
        let err = if e.error == 0.0 { "-".to_string() } else { format!("{:.1}", e.error) };
        let _ = writeln!(
            out,
            "  {:>4}  {:<width$}  {:>8.1}  {:>7}  {:>6}  {:>6.1}%",
            i + 1,
            e.name,
            e.elo,
            err,
            e.games,
            100.0 * e.points / e.games.max(1) as f64
        );
    }
    let _ =
        writeln!(out, "first-mover advantage: {:+.1} ± {:.1} Elo", r.advantage.0, r.advantage.1);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wins`, `losses` and `draws` of `a` against `b`, half of each with `a` as p1 (so
    /// the first-mover advantage is 0).
    fn games(
        a: &str,
        b: &str,
        wins: usize,
        losses: usize,
        draws: usize,
    ) -> Vec<(String, String, Outcome)> {
        let mut out = Vec::new();
        for (n, o) in [(wins, 2u8), (losses, 0), (draws, 1)] {
            for k in 0..n {
                let a_first = k % 2 == 0;
                let (p1, p2) = if a_first { (a, b) } else { (b, a) };
                let outcome = match (o, a_first) {
                    (1, _) => Outcome::Draw,
                    (2, true) | (0, false) => Outcome::Win(Side::P1),
                    _ => Outcome::Win(Side::P2),
                };
                out.push((p1.to_string(), p2.to_string(), outcome));
            }
        }
        out
    }

    fn elo(r: &Ratings, name: &str) -> Rating {
        r.engines.iter().find(|e| e.name == name).unwrap().clone()
    }

    #[test]
    fn two_engines_get_the_logistic_elo_of_the_score() {
        // W4 L2 D2: a scores 5 of 8, Elo = 400·log10((5/8)/(3/8)) = 88.74; the seats
        // are balanced, so the advantage is 0 and does not widen the interval:
        // sd = (400/ln 10)/√(n·p·(1−p)) with n = 8, p = 5/8.
        let g = games("a", "b", 4, 2, 2);
        let r = fit(&g, Some("b"), 0.0, 0.0).unwrap();
        let a = elo(&r, "a");
        assert!((a.elo - 400.0 * (5.0f64 / 3.0).log10()).abs() < 1e-6, "{r:?}");
        assert_eq!(elo(&r, "b").elo, 0.0);
        assert_eq!((a.games, a.points), (8, 5.0));
        let sd = SCALE / (8.0f64 * 5.0 / 8.0 * 3.0 / 8.0).sqrt();
        assert!((a.error - Z95 * sd).abs() < 1e-6, "{r:?}");
        assert!(r.advantage.0.abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn a_chain_of_three_engines() {
        // a–b 6:2 and b–c 6:2 (8 games each), a–c 18:2 (20 games), every result
        // split evenly between the seats: with a − b = b − c = 400·log10 3 and no
        // advantage, every engine's expected score equals its score (f = 3/4 and
        // 9/10), so that is the maximum.
        let g = [games("a", "b", 6, 2, 0), games("b", "c", 6, 2, 0), games("a", "c", 18, 2, 0)]
            .concat();
        let r = fit(&g, Some("c"), 1000.0, 0.0).unwrap();
        let d = 400.0 * 3f64.log10();
        assert!((elo(&r, "b").elo - (1000.0 + d)).abs() < 1e-6, "{r:?}");
        assert!((elo(&r, "a").elo - (1000.0 + 2.0 * d)).abs() < 1e-6, "{r:?}");
        assert_eq!(r.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!((elo(&r, "a").games, elo(&r, "a").points), (28, 24.0));
        assert!(r.advantage.0.abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn the_first_mover_advantage_is_fitted() {
        // Equal engines, but p1 scores 3 of 4 whoever it is: advantage 400·log10 3.
        let mut g = Vec::new();
        for (p1, p2) in [("a", "b"), ("b", "a")] {
            for o in [
                Outcome::Win(Side::P1),
                Outcome::Win(Side::P1),
                Outcome::Win(Side::P1),
                Outcome::Win(Side::P2),
            ] {
                g.push((p1.to_string(), p2.to_string(), o));
            }
        }
        let r = fit(&g, None, 0.0, 0.0).unwrap();
        assert!((r.advantage.0 - 400.0 * 3f64.log10()).abs() < 1e-6, "{r:?}");
        assert!(elo(&r, "b").elo.abs() < 1e-6);
    }

    #[test]
    fn perfect_scores_need_a_prior_and_unconnected_games_are_refused() {
        let g = games("a", "b", 4, 0, 0);
        assert!(fit(&g, None, 0.0, 0.0).unwrap_err().contains("--prior"));
        // One virtual draw between a and b: a scores 4.5 of 5 → 400·log10 9.
        let r = fit(&g, Some("b"), 0.0, 1.0).unwrap();
        assert!((elo(&r, "a").elo - 400.0 * 9f64.log10()).abs() < 1e-6, "{r:?}");
        assert_eq!(elo(&r, "a").games, 4, "virtual games are not counted");
        let apart = [games("a", "b", 1, 1, 0), games("c", "d", 1, 1, 0)].concat();
        assert!(fit(&apart, None, 0.0, 0.0).unwrap_err().contains("connect"));
        assert!(fit(&g, Some("zz"), 0.0, 0.0).is_err());
    }
}
