//! `ugine tune`: fits a game's evaluation weights to self-play results (Texel tuning,
//! [`crate::tune::texel`]) and writes the game's weight table (docs/tuning.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use crate::core::{LinearEval, RuleOptions};
use crate::games::mabula::Mabula;
use crate::games::moebius_chess::MoebiusChess;
use crate::games::morpiae::Morpiae;
use crate::games::morris::Morris;
use crate::search::Evaluate;
use crate::tune::{HOLDOUT_BLOCK, HOLDOUT_EVERY, load, table, texel};

/// `ugine tune`: Texel tuning of a game's evaluation weights.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game (one with a linear evaluation: morris, moebius-chess, mabula, morpiae).
    #[arg(long)]
    pub game: String,
    /// Data from `ugine datagen` (one line per position).
    #[arg(long)]
    pub data: PathBuf,
    /// Gradient-descent steps over the whole data.
    #[arg(long, default_value_t = 1500)]
    pub epochs: usize,
    /// Adam step size, in weight units.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// L2 pull of every weight towards its current value: the loss grows by this much per
    /// (100 cp)² a weight moves (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub reg: f64,
    /// Leaves every weight whose name contains this text at its current value;
    /// repeatable (e.g. `--fix value` keeps the material).
    #[arg(long = "fix", value_name = "TEXT")]
    pub fix: Vec<String>,
    /// Weight of the game result in each position's target; the rest is the search score's
    /// predicted result, `σ(K·score)` (1: results only).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Rule options of the data "Name=value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
    /// Where to write the weight table (default: the game's own, from the repository
    /// root); `-` prints it instead.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `ugine tune`: the report on stdout, the table to its file.
pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    match args.game.to_ascii_lowercase().as_str() {
        "morris" => tune::<Morris>(args),
        "moebius-chess" => tune::<MoebiusChess>(args),
        "mabula" => tune::<Mabula>(args),
        "morpiae" => tune::<Morpiae>(args),
        g => bail!(
            "game '{g}' has no linear evaluation to tune (morris, moebius-chess, mabula, \
             morpiae have)"
        ),
    }
}

fn tune<G: LinearEval + Evaluate>(args: &TuneArgs) -> anyhow::Result<()> {
    let opts = G::Options::from_pairs(&args.option, G::NAME).map_err(anyhow::Error::msg)?;
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be within 0..=1");
    }
    let mut data = load::<G>(&args.data, &opts)?;
    let n = G::FEATURES.len();
    let mut start: Vec<f64> = G::weights().iter().map(|&w| f64::from(w)).collect();
    start.push(0.0);
    let k = texel::fit_k(&data.samples, &start);
    let lambda = args.lambda;
    for (s, &score) in data.samples.iter_mut().zip(&data.scores) {
        s.result = lambda * s.result + (1.0 - lambda) * texel::sigmoid(k, score);
    }
    let samples = &data.samples;
    let mut fixed: Vec<usize> = G::FIXED.to_vec();
    for text in &args.fix {
        let matched: Vec<usize> =
            (0..n).filter(|&i| G::FEATURES[i].contains(text.as_str())).collect();
        if matched.is_empty() {
            bail!("--fix '{text}': no feature of {} has it in its name", G::NAME);
        }
        fixed.extend(matched);
    }
    // The baseline: the current weights with only the player-1 offset fitted.
    let all_but_offset: Vec<usize> = (0..n).collect();
    let fit = texel::Fit {
        fixed: &all_but_offset,
        k,
        epochs: 200,
        rate: 1.0,
        reg: args.reg,
        anchored: n,
    };
    let base = texel::fit_weights(samples, &start, &fit);
    let fit = texel::Fit { fixed: &fixed, epochs: args.epochs, rate: args.rate, ..fit };
    let mut fitted = texel::fit_weights(samples, &base, &fit);
    let offset = fitted.pop().unwrap_or(0.0);
    let rounded: Vec<i32> = fitted.iter().map(|w| w.round() as i32).collect();
    let mut after: Vec<f64> = rounded.iter().map(|&w| f64::from(w)).collect();
    after.push(offset);
    let losses = |w: &[f64]| (texel::loss(samples, w, k), texel::loss(&data.held_out, w, k));
    let ((train0, held0), (train1, held1)) = (losses(&base), losses(&after));
    let options: String = args.option.iter().map(|(k, v)| format!(" --option '{k}={v}'")).collect();
    let fixes: String = args.fix.iter().map(|f| format!(" --fix '{f}'")).collect();
    let command = format!(
        "ugine tune --game {} --data {} --epochs {} --rate {} --reg {} --lambda {}{fixes}{options}",
        G::NAME,
        args.data.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned()),
        args.epochs,
        args.rate,
        args.reg,
        lambda,
    );
    let summary = format!(
        "{} positions fitted, {} held out (every {HOLDOUT_EVERY}th block of {HOLDOUT_BLOCK} \
         lines), K {k:.4}, player-1 offset {:.0} -> {offset:.0} cp\n\
         loss fitted {train0:.6} -> {train1:.6}, held out (results) {held0:.6} -> {held1:.6}",
        samples.len(),
        data.held_out.len(),
        base[n],
    );
    let mut report = format!(
        "data {}: {} quiet positions ({} with a forced result and {} not quiet dropped)\n\
         {summary}\n",
        args.data.display(),
        samples.len() + data.held_out.len(),
        data.forced,
        data.not_quiet,
    );
    for ((name, old), new) in G::FEATURES.iter().zip(G::weights()).zip(&rounded) {
        let _ = writeln!(report, "  {name:<28} {old:>6} -> {new:>6}");
    }
    print!("{report}");
    let text = table::<G>(&rounded, &format!("{command}\n{summary}"));
    let path = args.output.clone().unwrap_or_else(|| PathBuf::from(G::WEIGHTS_FILE));
    if path == Path::new("-") {
        print!("{text}");
        return Ok(());
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    println!("weights written to {}", path.display());
    Ok(())
}
