//! Statistics of the match runner against reference values.
//!
//! The expected values were computed independently with a pure-Python script (math.erf
//! for LOS; for the SPRT, the constrained maximum-likelihood distributions were found by
//! Newton's method on the Lagrange (KKT) conditions with a numerical Jacobian, not by the
//! fixed-point iteration the runner uses, and each was checked to be a maximum by random
//! feasible perturbations). Pentanomial counts are `[LL, LD, DD+WL, WD, WW]`.

use ugine::runner::stats::elo::{Penta, Wdl, elo_from_score, erf};

use ugine::runner::stats::sprt::{Sprt, SprtVerdict};

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: got {a}, expected {b}");
}

/// (counts, Elo, 95% half-width, LOS, nElo, nElo half-width)
const PENTA: [([u64; 5], f64, f64, f64, f64, f64); 3] = [
    ([5, 12, 40, 15, 8], 19.5639029282, 37.8548371084, 0.8459296095, 27.9926695306, 53.8347124882),
    ([0, 3, 20, 10, 2], 55.0532028946, 41.9951126683, 0.9956839259, 109.0605792592, 81.3904349408),
    (
        [100, 400, 1000, 450, 120],
        7.5541376641,
        6.8377752419,
        0.9848544508,
        11.6972912039,
        10.5833270911,
    ),
];

#[test]
fn pentanomial_elo_interval_los_and_nelo() {
    for (counts, elo, err, los, nelo, nerr) in PENTA {
        let p = Penta { counts };
        let e = p.elo().expect("pairs");
        close(e.elo, elo, 1e-6, "elo");
        close(e.error, err, 1e-6, "elo error");
        close(p.los().expect("pairs"), los, 1e-6, "los");
        let (n, ne) = p.nelo().expect("variance");
        close(n, nelo, 1e-6, "nelo");
        close(ne, nerr, 1e-6, "nelo error");
    }
}

/// (counts, elo0, elo1, LLR)
const LLR: [([u64; 5], f64, f64, f64); 9] = [
    ([5, 12, 40, 15, 8], 0.0, 5.0, 0.16789614),
    ([5, 12, 40, 15, 8], -3.0, 1.0, 0.15275225),
    ([5, 12, 40, 15, 8], 0.0, 10.0, 0.30287126),
    ([0, 3, 20, 10, 2], 0.0, 5.0, 0.27648985),
    ([0, 3, 20, 10, 2], -3.0, 1.0, 0.22766872),
    ([0, 3, 20, 10, 2], 0.0, 10.0, 0.54167512),
    ([100, 400, 1000, 450, 120], 0.0, 5.0, 1.57491082),
    ([100, 400, 1000, 450, 120], -3.0, 1.0, 1.73951254),
    ([100, 400, 1000, 450, 120], 0.0, 10.0, 2.29357557),
];

#[test]
fn pentanomial_normalized_llr() {
    for (counts, elo0, elo1, llr) in LLR {
        let s = Sprt::new(elo0, elo1, 0.05, 0.05).expect("valid");
        close(s.llr(&Penta { counts }), llr, 1e-5, &format!("llr {counts:?} {elo0} {elo1}"));
    }
}

#[test]
fn sprt_bounds_and_verdicts() {
    let s = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
    let (lo, hi) = s.bounds();
    close(lo, -2.9444389791664403, 1e-12, "lower bound");
    close(hi, 2.9444389791664403, 1e-12, "upper bound");
    assert_eq!(s.verdict(0.0), SprtVerdict::Continue);
    assert_eq!(s.verdict(3.0), SprtVerdict::H1);
    assert_eq!(s.verdict(-3.0), SprtVerdict::H0);
    assert_eq!(s.llr(&Penta::default()), 0.0, "no pairs, no evidence");
    // A strong, consistent winner crosses the upper bound; a consistent loser the lower.
    assert_eq!(s.verdict(s.llr(&Penta { counts: [0, 0, 0, 0, 400] })), SprtVerdict::H1);
    assert_eq!(s.verdict(s.llr(&Penta { counts: [400, 0, 0, 0, 0] })), SprtVerdict::H0);
    assert_eq!(s.verdict(s.llr(&Penta { counts: [0, 0, 40, 0, 0] })), SprtVerdict::Continue);
    assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
}

/// (W, D, L, Elo, 95% half-width, LOS)
const WDL: [(u64, u64, u64, f64, f64, f64); 3] = [
    (30, 40, 20, 38.7640052032, 54.0119129116, 0.9213503965),
    (7, 0, 3, 147.1907141178, 387.3903957112, 0.8970483946),
    (120, 300, 100, 13.3695021948, 19.4387154743, 0.9112350738),
];

#[test]
fn trinomial_elo_interval_and_los() {
    for (wins, draws, losses, elo, err, los) in WDL {
        let w = Wdl { wins, draws, losses };
        let e = w.elo().expect("games");
        close(e.elo, elo, 1e-6, "elo");
        close(e.error, err, 1e-6, "elo error");
        close(w.los().expect("decisive games"), los, 1e-6, "los");
    }
}

#[test]
fn helpers() {
    close(elo_from_score(0.5), 0.0, 1e-12, "even score");
    close(elo_from_score(0.75), 190.84850188786498, 1e-9, "75%");
    for (x, v) in [
        (0.0, 0.0),
        (0.5, 0.5204998778130465),
        (-1.0, -0.8427007929497149),
        (2.0, 0.9953222650189527),
    ] {
        close(erf(x), v, 2e-7, "erf");
    }
    let mut p = Penta::default();
    p.add_pair(2, 2);
    p.add_pair(0, 1);
    p.add_pair(1, 1);
    p.add_pair(2, 0);
    assert_eq!(p.counts, [0, 1, 2, 0, 1]);
    assert_eq!(Penta::default().elo(), None);
    assert_eq!(Wdl::default().los(), None);
}

#[test]
fn few_or_alike_games_support_no_elo_interval() {
    let sound = |wins, draws, losses| Wdl { wins, draws, losses }.sound();
    assert!(sound(7, 0, 3), "10 games, mixed");
    assert!(!sound(6, 0, 3), "9 games: too few");
    for (w, d, l) in [(10, 0, 0), (0, 12, 0), (0, 0, 20)] {
        assert!(!sound(w, d, l), "{w}-{d}-{l}: all alike, no variance");
    }
}
