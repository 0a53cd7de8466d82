//! `ugine tune`: fits a game's evaluation weights to self-play results (Texel tuning,
//! [`texel`]) and writes the game's weight table (`docs/tuning.md`).

pub mod datagen;
pub mod relabel;
pub mod spsa;
pub mod texel;
pub mod train;

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, bail};

use crate::core::{LinearEval, Outcome, Side, Trace};
use crate::search::Evaluate;
use texel::Sample;

/// Lines per block of the data; every [`HOLDOUT_EVERY`]th block (the positions of a few
/// consecutive games) is held out of the fit to measure it.
pub const HOLDOUT_BLOCK: usize = 1000;
pub const HOLDOUT_EVERY: usize = 10;

/// What reading the data kept and dropped.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The positions fitted, with their search scores for player 1 (`cp`).
    pub samples: Vec<Sample>,
    pub scores: Vec<f64>,
    /// The positions held out (targets: results only).
    pub held_out: Vec<Sample>,
    pub forced: usize,
    /// Positions dropped as not quiet.
    pub not_quiet: usize,
}

/// Reads `datagen` lines into samples. Positions with a forced result (`#N` scores) or
/// not quiet ([`Evaluate::is_quiet`]: the static evaluation misjudges them) are dropped.
/// Every sample also counts 1 for feature `FEATURES.len()`, an offset for player 1 that
/// the fit absorbs the first player's advantage into (otherwise the weights of whatever
/// correlates with being player 1 grow instead); it is reported, not written.
pub fn load<G: LinearEval + Evaluate>(path: &Path, opts: &G::Options) -> anyhow::Result<Loaded> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Loaded::default();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), i + 1);
        let fields: Vec<&str> = line.split(" | ").collect();
        let [fen, _side, score, result] = fields[..] else {
            bail!("{}: expected 'position | side | score | result'", at());
        };
        if score.starts_with('#') {
            out.forced += 1;
            continue;
        }
        let pos = G::from_fen(fen, opts).with_context(at)?;
        if !pos.is_quiet() {
            out.not_quiet += 1;
            continue;
        }
        let result = match Outcome::parse(result.trim()) {
            Some(outcome) => outcome.points(Side::P1),
            None => bail!("{}: unknown result '{}'", at(), result.trim()),
        };
        let sign = if pos.side_to_move() == Side::P1 { 1.0 } else { -1.0 };
        let mut trace = Trace::default();
        pos.terms(&mut trace);
        let mut features: Vec<(u16, f64)> =
            trace.0.iter().map(|&(f, c)| (f, sign * f64::from(c))).collect();
        features.push((G::FEATURES.len() as u16, 1.0));
        let sample = Sample { features, result };
        if (i / HOLDOUT_BLOCK) % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 {
            out.held_out.push(sample);
        } else {
            let score: f64 =
                score.trim().parse().with_context(|| format!("{}: bad score", at()))?;
            out.scores.push(sign * score);
            out.samples.push(sample);
        }
    }
    if out.samples.is_empty() {
        bail!("{}: no quiet positions to tune on", path.display());
    }
    Ok(out)
}

/// The weight table's source text.
pub fn table<G: LinearEval>(weights: &[i32], provenance: &str) -> String {
    let mut s = format!(
        "//! The weights of the {} evaluation, one per feature of `eval.rs`, written by\n\
         //! `ugine tune` and reviewed before commit.\n//!\n",
        G::NAME
    );
    for line in provenance.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    let _ = writeln!(
        s,
        "\n/// Weight per feature, in `cp`.\n#[rustfmt::skip]\npub const WEIGHTS: [i32; {}] = [",
        weights.len()
    );
    for (w, name) in weights.iter().zip(G::FEATURES) {
        let _ = writeln!(s, "    {w}, // {name}");
    }
    s.push_str("];\n");
    s
}
