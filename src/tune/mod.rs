//! `ugine tune`: fits a game's evaluation weights to self-play results (Texel tuning,
//! [`texel`]) and writes the game's weight table (`docs/tuning.md`).

pub mod texel;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use crate::core::{Game, LinearEval, OptionSpec, RuleOptions, Side, Trace};
use crate::games::mabula::Mabula;
use crate::games::moebius_chess::MoebiusChess;
use crate::games::morpiae::Morpiae;
use crate::games::morris::Morris;
use crate::search::Evaluate;
use texel::Sample;

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
    /// Rule options of the data "Name=value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
    /// Where to write the weight table (default: the game's own, from the repository
    /// root); `-` prints it instead.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `ugine tune`: the report on stdout, the table to its file.
pub fn run_tune(args: &TuneArgs) -> anyhow::Result<()> {
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

/// The rule options of the data.
fn rule_options<G: Game>(args: &TuneArgs) -> anyhow::Result<G::Options> {
    let mut opts = G::Options::default();
    let specs: Vec<OptionSpec> = G::Options::specs();
    for o in &args.option {
        let (k, v) =
            o.split_once('=').with_context(|| format!("--option '{o}': expected NAME=VALUE"))?;
        let spec = specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(k.trim()))
            .with_context(|| format!("'{k}' is not a rule option of {}", G::NAME))?;
        let value = spec.parse_value(v).map_err(anyhow::Error::msg)?;
        opts.set(spec.name, &value).map_err(anyhow::Error::msg)?;
    }
    Ok(opts)
}

/// What reading the data kept and dropped.
#[derive(Debug, Default)]
struct Loaded {
    samples: Vec<Sample>,
    forced: usize,
    /// Positions dropped as not quiet.
    not_quiet: usize,
}

/// Reads `datagen` lines into samples. Positions with a forced result (`#N` scores) or
/// not quiet ([`Evaluate::is_quiet`]: the static evaluation misjudges them) are dropped.
fn load<G: LinearEval + Evaluate>(path: &Path, opts: &G::Options) -> anyhow::Result<Loaded> {
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
        let result = match result.trim() {
            "p1win" => 1.0,
            "p2win" => 0.0,
            "draw" => 0.5,
            r => bail!("{}: unknown result '{r}'", at()),
        };
        let sign = if pos.side_to_move() == Side::P1 { 1.0 } else { -1.0 };
        let mut trace = Trace::default();
        pos.terms(&mut trace);
        let features = trace.0.iter().map(|&(f, c)| (f, sign * f64::from(c))).collect();
        out.samples.push(Sample { features, result });
    }
    if out.samples.is_empty() {
        bail!("{}: no quiet positions to tune on", path.display());
    }
    Ok(out)
}

/// The weight table's source text.
fn table<G: LinearEval>(weights: &[i32], provenance: &str) -> String {
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

fn tune<G: LinearEval + Evaluate>(args: &TuneArgs) -> anyhow::Result<()> {
    let opts = rule_options::<G>(args)?;
    let data = load::<G>(&args.data, &opts)?;
    let samples = &data.samples;
    let start: Vec<f64> = G::weights().iter().map(|&w| f64::from(w)).collect();
    let k = texel::fit_k(samples, &start);
    let before = texel::loss(samples, &start, k);
    let fitted = texel::fit_weights(samples, &start, G::FIXED, k, args.epochs, args.rate);
    let rounded: Vec<i32> = fitted.iter().map(|w| w.round() as i32).collect();
    let after = texel::loss(samples, &rounded.iter().map(|&w| f64::from(w)).collect::<Vec<_>>(), k);
    let mut report = format!(
        "data {}: {} quiet positions ({} with a forced result and {} not quiet dropped)\n\
         K {k:.4}\nloss {before:.6} -> {after:.6} ({} epochs, rate {})\n",
        args.data.display(),
        samples.len(),
        data.forced,
        data.not_quiet,
        args.epochs,
        args.rate
    );
    for ((name, old), new) in G::FEATURES.iter().zip(G::weights()).zip(&rounded) {
        let _ = writeln!(report, "  {name:<28} {old:>6} -> {new:>6}");
    }
    print!("{report}");
    let provenance = format!(
        "ugine tune --game {} --data {} --epochs {} --rate {}{}\n{} quiet positions, K {k:.4}, loss {before:.6} -> {after:.6}",
        G::NAME,
        args.data.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned()),
        args.epochs,
        args.rate,
        args.option.iter().map(|o| format!(" --option '{o}'")).collect::<String>(),
        samples.len()
    );
    let text = table::<G>(&rounded, &provenance);
    let path = args.output.clone().unwrap_or_else(|| PathBuf::from(G::WEIGHTS_FILE));
    if path == Path::new("-") {
        print!("{text}");
        return Ok(());
    }
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    println!("weights written to {}", path.display());
    Ok(())
}
