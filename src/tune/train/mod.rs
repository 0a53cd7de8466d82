//! `ugine train`: trains a game's network ([`crate::search::nnue`]) on `ugine datagen`
//! data, in f32 with Adam on the machine's cores, and writes it quantised
//! (`docs/tuning.md`).
//!
//! Each mini-batch is cut into [`SHARDS`] fixed slices; threads take whole slices, each
//! slice's gradient is summed into its own buffer, and the buffers are added in slice
//! order. So the network depends only on the data, the settings and `--seed` (which
//! seeds the initial weights and each epoch's shuffle), never on `--threads`.

pub mod data;
pub mod model;

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;

use crate::core::{Rng, Side};
use crate::games::mabula::Mabula;
use crate::games::morris::Morris;
use crate::search::nnue::{Accumulator, Features, Network};
use data::{Data, Samples, Targets};
use model::{Adam, Model};

/// Slices of a mini-batch whose gradients are summed in a fixed order.
pub const SHARDS: usize = 16;

/// `ugine train`: a network for a game's evaluation.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// The game (one with network features: mabula).
    #[arg(long)]
    pub game: String,
    /// Data files from `ugine datagen` (or solver labels, `docs/tuning.md`).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Accumulator size per perspective.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
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
    /// stored in the network (its output × scale is an evaluation in `cp`).
    #[arg(long, default_value_t = 100.0)]
    pub scale: f32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Rule options of the data "Name=value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
}

/// The settings of one training run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    pub seed: u64,
    pub threads: usize,
}

/// Runs `ugine train`.
pub fn run_train(args: &TrainArgs) -> anyhow::Result<()> {
    match args.game.to_ascii_lowercase().as_str() {
        "mabula" => train_game::<Mabula>(args),
        "morris" => train_game::<Morris>(args),
        g => bail!("game '{g}' has no network features yet (mabula and morris have)"),
    }
}

fn train_game<G: Features>(args: &TrainArgs) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be within 0..=1");
    }
    if !(args.scale.is_finite() && args.scale > 0.0) {
        bail!("--scale must be positive");
    }
    if !(1..=crate::search::nnue::format::MAX_HIDDEN).contains(&args.hidden) || args.batch == 0 {
        bail!("--hidden must be within 1..=4096 and --batch positive");
    }
    let opts = super::rule_options::<G>(&args.option)?;
    let targets = Targets { lambda: args.lambda, scale: args.scale };
    let data = data::load::<G>(&args.data, &opts, targets)?;
    println!(
        "{} positions: {} training, {} held out (every {}th block of {} lines), {} exact",
        data.train.len() + data.held_out.len(),
        data.train.len(),
        data.held_out.len(),
        data::HOLDOUT_EVERY,
        data::HOLDOUT_BLOCK,
        data.exact,
    );
    let settings = Settings {
        hidden: args.hidden,
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        seed: args.seed,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
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
    let net = model.quantise(G::NAME, args.scale);
    if !data.held_out.is_empty() {
        println!("quantised held-out loss {:.6}", quantised_loss(&net, &data.held_out));
    }
    std::fs::write(&args.output, net.to_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("network written to {}", args.output.display());
    Ok(())
}

/// Trains a model on `data`; `progress` gets a line about every half second, `epoch_done`
/// one line per epoch with the losses.
pub fn train<G: Features>(
    data: &Data,
    s: &Settings,
    progress: &mut dyn FnMut(&str),
    epoch_done: &mut dyn FnMut(&str),
) -> anyhow::Result<Model> {
    let mut rng = Rng::new(s.seed);
    let samples = &data.train;
    let active = samples.features(0).0.len() as f32;
    let mut model = Model::random(G::FEATURE_COUNT, s.hidden, active, &mut rng);
    let mut adam = Adam::new(&model, s.rate);
    let mut grads: Vec<Model> =
        (0..SHARDS).map(|_| Model::zeros(G::FEATURE_COUNT, s.hidden)).collect();
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let started = Instant::now();
    let mut last_report = Instant::now();
    let batches = samples.len().div_ceil(s.batch);
    for epoch in 1..=s.epochs {
        rng.shuffle(&mut order);
        let mut error = 0.0;
        for (b, batch) in order.chunks(s.batch).enumerate() {
            error += batch_gradient(&model, samples, batch, &mut grads, s.threads);
            let (first, rest) = grads.split_first_mut().expect("SHARDS > 0");
            for g in rest.iter() {
                first.params.iter_mut().zip(&g.params).for_each(|(a, x)| *a += x);
            }
            adam.step(&mut model, first, batch.len());
            if last_report.elapsed().as_millis() >= 500 {
                last_report = Instant::now();
                progress(&format!(
                    "epoch {epoch}/{} batch {}/{batches}  {:.0} positions/s",
                    s.epochs,
                    b + 1,
                    ((epoch - 1) * samples.len() + (b + 1) * s.batch) as f64
                        / started.elapsed().as_secs_f64().max(1e-9),
                ));
            }
        }
        let held = if data.held_out.is_empty() {
            "none".to_string()
        } else {
            format!("{:.6}", model.loss(&data.held_out))
        };
        epoch_done(&format!(
            "epoch {epoch}/{}: training loss {:.6}, held-out loss {held}, {:.1} s",
            s.epochs,
            error / samples.len() as f64,
            started.elapsed().as_secs_f64()
        ));
    }
    Ok(model)
}

/// Fills `grads` with the gradients of the batch's [`SHARDS`] slices (threads take
/// whole slices) and returns the batch's summed error.
fn batch_gradient(
    model: &Model,
    samples: &Samples,
    batch: &[u32],
    grads: &mut [Model],
    threads: usize,
) -> f64 {
    let per_shard = batch.len().div_ceil(SHARDS);
    let mut slices: Vec<(&[u32], &mut Model)> = Vec::with_capacity(SHARDS);
    for (k, g) in grads.iter_mut().enumerate() {
        g.params.iter_mut().for_each(|x| *x = 0.0);
        let lo = (k * per_shard).min(batch.len());
        let hi = ((k + 1) * per_shard).min(batch.len());
        slices.push((&batch[lo..hi], g));
    }
    let per_thread = SHARDS.div_ceil(threads.min(SHARDS));
    let mut errors = [0.0f64; SHARDS];
    std::thread::scope(|scope| {
        for (work, errs) in slices.chunks_mut(per_thread).zip(errors.chunks_mut(per_thread)) {
            scope.spawn(move || {
                for ((indices, grad), e) in work.iter_mut().zip(errs) {
                    *e = model.add_gradient(samples, indices, grad);
                }
            });
        }
    });
    errors.iter().sum()
}

/// The loss of the quantised network, evaluated as the engine evaluates.
pub fn quantised_loss(net: &Network, samples: &Samples) -> f64 {
    let total: f64 = (0..samples.len())
        .map(|i| {
            let (own, theirs) = samples.features(i);
            // The side to move's features go to its perspective (P1 here), the others' to
            // the opponent's.
            let mut acc = Accumulator::new(net);
            own.iter().for_each(|&f| acc.add(net, Side::P1, u32::from(f)));
            theirs.iter().for_each(|&f| acc.add(net, Side::P2, u32::from(f)));
            let p = net.win_probability(&acc, Side::P1);
            f64::from(p - samples.targets[i]).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::mabula::MabulaOptions;

    /// Positions of random Mabula games; the target is 1 when the side to move has a
    /// marble on d4, else 0 (something a network can learn exactly).
    fn d4_data(games: usize, seed: u64) -> Samples {
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(seed);
        let (mut samples, mut scratch, mut moves) = (Samples::default(), Vec::new(), Vec::new());
        for _ in 0..games {
            let mut pos = Mabula::random(&opts, &mut rng);
            while pos.outcome().is_none() {
                let d4 = pos.men(pos.side_to_move()) >> 27 & 1;
                samples.push(&pos, d4 as f32, &mut scratch);
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(*rng.choose(&moves));
            }
        }
        samples
    }

    fn settings(threads: usize) -> Settings {
        Settings { hidden: 8, epochs: 4, batch: 64, rate: 0.01, seed: 3, threads }
    }

    fn quiet_train(data: &Data, s: &Settings) -> Model {
        train::<Mabula>(data, s, &mut |_| {}, &mut |_| {}).expect("trains")
    }

    #[test]
    fn training_learns_a_learnable_target_and_quantising_keeps_it() {
        let data = Data { train: d4_data(40, 1), held_out: d4_data(10, 2), exact: 0 };
        let untrained = Settings { epochs: 0, ..settings(2) };
        let before = quiet_train(&data, &untrained).loss(&data.held_out);
        let model = quiet_train(&data, &Settings { epochs: 12, ..settings(2) });
        let after = model.loss(&data.held_out);
        assert!(after < before / 4.0, "held-out loss {before} -> {after}");
        let net = model.quantise(Mabula::NAME, 100.0);
        let quantised = quantised_loss(&net, &data.held_out);
        assert!((quantised - after).abs() < 0.01, "float {after}, quantised {quantised}");
    }

    #[test]
    fn training_depends_on_the_seed_and_not_on_the_threads() {
        let data = Data { train: d4_data(10, 4), held_out: Samples::default(), exact: 0 };
        let one = quiet_train(&data, &settings(1));
        assert_eq!(one, quiet_train(&data, &settings(3)));
        assert_eq!(one, quiet_train(&data, &settings(16)));
        assert_ne!(one, quiet_train(&data, &Settings { seed: 4, ..settings(1) }));
    }
}
