//! `ugine train`: trains a game's evaluation network ([`crate::tune::train`]) on data
//! files and writes it (docs/tuning.md).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args;

use crate::core::RuleOptions;
use crate::games::mabula::Mabula;
use crate::games::mobius::Mobius;
use crate::games::moebius_chess::MoebiusChess;
use crate::games::morpiae::Morpiae;
use crate::games::morris::Morris;
use crate::search::nnue::{Features, Network};
use crate::tune::train::data::{self, Hand, Targets};
use crate::tune::train::{Settings, quantised_loss, train};

/// `ugine train`: a network for a game's evaluation.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// The game (one with network features: mabula, morris, morpiae, moebius-chess,
    /// mobius).
    #[arg(long)]
    pub game: String,
    /// Data files from `ugine datagen` (or solver labels, `docs/tuning.md`).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Accumulator size per perspective (default 64; with `--init`, the network's).
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Adam step size.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// Weight of the search score in each target; the rest is the game result's (exact
    /// labels and forced results are taken as they are).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Score units per unit of the logit: the search score `s` predicts `σ(s/scale)`;
    /// stored in the network (its output × scale is an evaluation in `cp`). Default 100;
    /// with `--init`, the network's.
    #[arg(long)]
    pub scale: Option<f32>,
    /// Start from this network's weights instead of random ones, to refine it on new
    /// data (fine-tuning; a lower `--rate` keeps more of it). It must be a network of
    /// the game, of the size `--hidden` asks and the scale `--scale` asks (when given),
    /// and a correction of the hand evaluation exactly when `--on-hand` is given.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Train a correction of the game's hand evaluation instead of a whole evaluation:
    /// each position's hand evaluation (over the scale) is added to the network's output
    /// in training, and the engine adds the network's evaluation to the hand evaluation.
    /// For alpha-beta searches (not Mabula's Monte Carlo leaves).
    #[arg(long)]
    pub on_hand: bool,
    /// Train only on quiet positions (no capture or threat pending: those whose static
    /// evaluation may stand for their value, as `ugine tune` fits).
    #[arg(long)]
    pub quiet_only: bool,
    /// Rule options of the data "Name=value"; repeatable (a file's `# option Name=value`
    /// lines add to them for the rest of that file).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
}

/// Runs `ugine train`.
pub fn run(args: &TrainArgs) -> anyhow::Result<()> {
    match args.game.to_ascii_lowercase().as_str() {
        "mabula" => train_game::<Mabula>(args, Some(Hand::of())),
        "morris" => train_game::<Morris>(args, Some(Hand::of())),
        "morpiae" => train_game::<Morpiae>(args, Some(Hand::of())),
        "moebius-chess" => train_game::<MoebiusChess>(args, Some(Hand::of())),
        "mobius" => train_game::<Mobius>(args, None),
        g => bail!(
            "game '{g}' has no network features (mabula, morris, morpiae, moebius-chess and \
             mobius have)"
        ),
    }
}

/// Trains a network of `G`; `hand`: its hand evaluation, for `--on-hand` and
/// `--quiet-only` (Mobius has none).
fn train_game<G: Features>(args: &TrainArgs, hand: Option<Hand<G>>) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be within 0..=1");
    }
    let init = match &args.init {
        Some(path) => Some(initial_network::<G>(path, args)?),
        None => None,
    };
    let hidden = args.hidden.or(init.as_ref().map(Network::hidden)).unwrap_or(64);
    let scale = args.scale.or(init.as_ref().map(Network::scale)).unwrap_or(100.0);
    if !(scale.is_finite() && scale > 0.0) {
        bail!("--scale must be positive");
    }
    if !(1..=crate::search::nnue::format::MAX_HIDDEN).contains(&hidden) || args.batch == 0 {
        bail!("--hidden must be within 1..=4096 and --batch positive");
    }
    let opts = G::Options::from_pairs(&args.option, G::NAME).map_err(anyhow::Error::msg)?;
    let targets =
        Targets { lambda: args.lambda, scale, on_hand: args.on_hand, quiet_only: args.quiet_only };
    let data = data::load::<G>(&args.data, &opts, targets, hand)?;
    println!(
        "{} positions: {} training, {} held out (every {}th block of {} lines), {} exact, \
         {} left out as not quiet",
        data.train.len() + data.held_out.len(),
        data.train.len(),
        data.held_out.len(),
        data::HOLDOUT_EVERY,
        data::HOLDOUT_BLOCK,
        data.exact,
        data.skipped,
    );
    let settings = Settings {
        hidden,
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        seed: args.seed,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        init,
    };
    let model = train::<G>(
        &data,
        &settings,
        &mut |line| {
            eprint!("\r{line}\x1b[K");
            let _ = std::io::stderr().flush();
        },
        &mut |line| println!("{line}"),
    )?;
    eprintln!();
    let net = model.quantise(G::NAME, scale).with_on_hand(args.on_hand);
    if let Some((unit, low, high)) = net.accumulator_overflow() {
        bail!(
            "not written: accumulator unit {unit} of the trained network can sum to \
             {low}..={high}, beyond the engine's 16-bit accumulator; train with fewer epochs \
             or a lower --rate"
        );
    }
    if !data.held_out.is_empty() {
        println!("quantised held-out loss {:.6}", quantised_loss(&net, &data.held_out));
    }
    std::fs::write(&args.output, net.to_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("network written to {}", args.output.display());
    Ok(())
}

/// The network of `--init`, checked against the run's settings before any data is read.
fn initial_network<G: Features>(path: &Path, args: &TrainArgs) -> anyhow::Result<Network> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let net = Network::from_bytes(&bytes, G::NAME, G::FEATURE_COUNT)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if let Some(hidden) = args.hidden.filter(|&h| h != net.hidden()) {
        bail!("{} has {} hidden units, not --hidden {hidden}", path.display(), net.hidden());
    }
    if let Some(scale) = args.scale.filter(|&s| s != net.scale()) {
        bail!("{} has scale {}, not --scale {scale}", path.display(), net.scale());
    }
    if net.on_hand() != args.on_hand {
        let what = if net.on_hand() { "a correction of" } else { "not a correction of" };
        bail!(
            "{} is {what} the hand evaluation: give --on-hand exactly when it is",
            path.display()
        );
    }
    Ok(net)
}
