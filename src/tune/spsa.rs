//! SPSA (simultaneous perturbation stochastic approximation), as fishtest runs it: the
//! algorithm alone; `ugine spsa` (`crate::cli::spsa`) plays its games with the runner.
//!
//! CITE: Spall, "Implementation of the simultaneous perturbation algorithm for stochastic
//! optimization", IEEE Trans. Aerospace and Electronic Systems 34 (1998): gain sequences
//! `a/(A + k)^α`, `c/k^γ` with α = 0.602, γ = 0.101 and A about 10 % of the iterations;
//! fishtest's SPSA: the parameters' `c_end` and `r_end`, and the update from the score of
//! the perturbed engines' games.
//!
//! Each parameter θᵢ has a range, a final perturbation `c_end` and a final learning rate
//! `r_end`. With N iterations and `A = a_ratio·N`:
//!
//! ```text
//! c = c_end·N^γ,   a = r_end·c_end²·(A + N)^α,   c_k = c/k^γ,   a_k = a/(A + k)^α.
//! ```
//!
//! Iteration k = 1…N draws signs Δᵢ = ±1 and plays θ⁺ = θ + c_k·Δ against θ⁻ = θ − c_k·Δ
//! (each clamped to its range, sent rounded to the nearest integer) for
//! `games_per_iteration` games: pairs with seats swapped, each pair on its own opening.
//! With r = wins − losses of θ⁺: `θᵢ ← clamp(θᵢ + a_k·r·Δᵢ / c_k)` (at k = N a step of
//! `r_end·c_end·r`).

use crate::core::Rng;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The engine option.
    pub name: String,
    /// The current value.
    pub theta: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (`a_end / c_end²`).
    pub r_end: f64,
}

impl SpsaParam {
    /// Reads `Name=start,min,max,c_end,r_end`.
    pub fn parse(s: &str) -> Result<SpsaParam, String> {
        let bad =
            |why: &str| format!("--param '{s}': {why} (expected Name=start,min,max,c_end,r_end)");
        let (name, values) = s.rsplit_once('=').ok_or_else(|| bad("no '='"))?;
        let nums: Vec<f64> = values
            .split(',')
            .map(|v| v.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("the values must be numbers"))?;
        let [theta, min, max, c_end, r_end] = nums[..] else {
            return Err(bad("five values are needed"));
        };
        if name.trim().is_empty() {
            return Err(bad("no option name"));
        }
        if !(min < max && (min..=max).contains(&theta)) {
            return Err(bad("min < max and min <= start <= max are needed"));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(bad("c_end and r_end must be positive"));
        }
        Ok(SpsaParam { name: name.trim().to_string(), theta, min, max, c_end, r_end })
    }

    fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }
}

/// The values one iteration plays, and what its update needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration, from 1.
    pub k: usize,
    /// Δᵢ = ±1.
    pub signs: Vec<f64>,
    /// θ⁺ and θ⁻, clamped to the ranges.
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// The state of an SPSA run: the parameters and the gain sequences.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub params: Vec<SpsaParam>,
    iterations: usize,
    big_a: f64,
    alpha: f64,
    gamma: f64,
}

impl Spsa {
    /// A run of `iterations` iterations with A = `a_ratio`·iterations.
    pub fn new(
        params: Vec<SpsaParam>,
        iterations: usize,
        a_ratio: f64,
        alpha: f64,
        gamma: f64,
    ) -> Spsa {
        Spsa { params, iterations, big_a: a_ratio * iterations as f64, alpha, gamma }
    }

    /// The perturbation c_k and step gain a_k of parameter `i` at iteration `k` (from 1).
    pub fn gains(&self, i: usize, k: usize) -> (f64, f64) {
        let p = &self.params[i];
        let n = self.iterations as f64;
        let c = p.c_end * n.powf(self.gamma);
        let a = p.r_end * p.c_end * p.c_end * (self.big_a + n).powf(self.alpha);
        (c / (k as f64).powf(self.gamma), a / (self.big_a + k as f64).powf(self.alpha))
    }

    /// Draws the signs of iteration `k` and the values it plays, around the current θ.
    pub fn perturb(&self, k: usize, rng: &mut Rng) -> Perturbation {
        let signs: Vec<f64> =
            self.params.iter().map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect();
        let shifted = |dir: f64| -> Vec<f64> {
            (0..self.params.len())
                .map(|i| {
                    self.params[i].clamp(self.params[i].theta + dir * self.gains(i, k).0 * signs[i])
                })
                .collect()
        };
        Perturbation { k, plus: shifted(1.0), minus: shifted(-1.0), signs }
    }

    /// Moves θ by the result `r` (wins − losses of θ⁺) of perturbation `p`.
    pub fn update(&mut self, p: &Perturbation, r: f64) {
        for i in 0..self.params.len() {
            let (c, a) = self.gains(i, p.k);
            let param = &mut self.params[i];
            param.theta = param.clamp(param.theta + a * r * p.signs[i] / c);
        }
    }

    /// The current values, as `setoption` would send them.
    pub fn rounded(&self) -> Vec<(String, i64)> {
        self.params.iter().map(|p| (p.name.clone(), p.theta.round() as i64)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(theta: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam { name: "x".into(), theta, min: -100.0, max: 100.0, c_end, r_end }
    }

    #[test]
    fn params_read_and_refuse_bad_text() {
        let p = SpsaParam::parse("Morris Search Aspiration=50,10,200,8,0.002").unwrap();
        assert_eq!(p.name, "Morris Search Aspiration");
        assert_eq!((p.theta, p.min, p.max, p.c_end, p.r_end), (50.0, 10.0, 200.0, 8.0, 0.002));
        for bad in ["x=1,2,3", "x=5,10,20,1,1", "x=1,0,10,0,1", "=1,0,10,1,1", "x=a,0,10,1,1", "x"]
        {
            assert!(SpsaParam::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let s = Spsa::new(vec![param(0.0, 4.0, 0.002)], 1000, 0.1, 0.602, 0.101);
        let (c, a) = s.gains(0, 1000);
        assert!((c - 4.0).abs() < 1e-9, "{c}");
        assert!((a / (c * c) - 0.002).abs() < 1e-12, "{a}");
        let (c1, a1) = s.gains(0, 1);
        assert!(c1 > c && a1 > a, "gains decrease");
    }

    #[test]
    fn update_moves_along_the_signs_by_the_result() {
        let mut s =
            Spsa::new(vec![param(0.0, 2.0, 0.1), param(0.0, 2.0, 0.1)], 10, 0.1, 0.602, 0.101);
        let p = Perturbation {
            k: 10,
            signs: vec![1.0, -1.0],
            plus: vec![2.0, -2.0],
            minus: vec![-2.0, 2.0],
        };
        s.update(&p, 2.0);
        // At the last iteration the step is r_end·c_end·r = 0.1·2·2.
        assert!((s.params[0].theta - 0.4).abs() < 1e-9);
        assert!((s.params[1].theta + 0.4).abs() < 1e-9);
        s.update(&p, 0.0);
        assert!((s.params[0].theta - 0.4).abs() < 1e-9, "a drawn pair changes nothing");
    }

    /// A fake engine whose strength peaks at `best`: θ⁺ wins a game with the logistic
    /// probability of its advantage in −|θ − best|² (scaled), else loses or draws.
    fn fake_pair(best: &[f64], p: &Perturbation, rng: &mut Rng) -> f64 {
        let strength =
            |v: &[f64]| -> f64 { -v.iter().zip(best).map(|(x, b)| (x - b).powi(2)).sum::<f64>() };
        let d = (strength(&p.plus) - strength(&p.minus)) / 50.0;
        let win = 1.0 / (1.0 + (-d).exp());
        let mut r = 0.0;
        for _ in 0..2 {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            // A third of the games drawn, the rest decided by the win probability.
            if u < 1.0 / 3.0 {
                continue;
            }
            r += if (u - 1.0 / 3.0) * 1.5 < win { 1.0 } else { -1.0 };
        }
        r
    }

    #[test]
    fn spsa_moves_theta_toward_the_optimum_of_a_noisy_objective() {
        let best = [30.0, -20.0];
        let params = vec![param(0.0, 4.0, 0.02), param(10.0, 4.0, 0.02)];
        let mut s = Spsa::new(params, 2000, 0.1, 0.602, 0.101);
        let (mut signs, mut games) = (Rng::new(7), Rng::new(8));
        let distance = |s: &Spsa| -> f64 {
            s.params.iter().zip(best).map(|(p, b)| (p.theta - b).powi(2)).sum::<f64>().sqrt()
        };
        let start = distance(&s);
        for k in 1..=2000 {
            let p = s.perturb(k, &mut signs);
            let r = fake_pair(&best, &p, &mut games);
            s.update(&p, r);
        }
        let end = distance(&s);
        assert!(end < start / 4.0, "distance to the optimum {start:.1} -> {end:.1}");
    }

    #[test]
    fn perturbations_stay_in_range_and_are_symmetric_inside_it() {
        let mut p = param(99.0, 4.0, 0.01);
        p.max = 100.0;
        let s = Spsa::new(vec![p, param(0.0, 4.0, 0.01)], 100, 0.1, 0.602, 0.101);
        let mut rng = Rng::new(1);
        for k in 1..=100 {
            let q = s.perturb(k, &mut rng);
            assert!(q.plus[0] <= 100.0 && q.minus[0] <= 100.0);
            let c = s.gains(1, k).0;
            assert!((q.plus[1] - c * q.signs[1]).abs() < 1e-9);
            assert!((q.minus[1] + c * q.signs[1]).abs() < 1e-9);
        }
    }
}
