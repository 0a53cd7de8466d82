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

use std::time::Instant;

use crate::core::{Rng, Side};
use crate::search::nnue::{Accumulator, Features, Network};
use data::{Data, Samples};
use model::{Adam, Model};

/// Slices of a mini-batch whose gradients are summed in a fixed order.
pub const SHARDS: usize = 16;

/// The settings of one training run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    pub seed: u64,
    pub threads: usize,
    /// The network training starts from (its weights refined: `--init`), instead of
    /// random weights; its size must be `hidden`.
    pub init: Option<Network>,
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
    let mut model = match &s.init {
        Some(net) => {
            if (net.features(), net.hidden()) != (G::FEATURE_COUNT, s.hidden) {
                anyhow::bail!(
                    "the initial network has {} inputs and {} hidden units, not {} and {}",
                    net.features(),
                    net.hidden(),
                    G::FEATURE_COUNT,
                    s.hidden
                );
            }
            Model::from_network(net)
        }
        None => Model::random(G::FEATURE_COUNT, s.hidden, active, &mut rng),
    };
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

/// The loss of the quantised network, evaluated as the engine evaluates (its output
/// plus each position's base).
pub fn quantised_loss(net: &Network, samples: &Samples) -> f64 {
    let total: f64 = (0..samples.len())
        .map(|i| {
            let (own, theirs) = samples.features(i);
            // The side to move's features go to its perspective (P1 here), the others' to
            // the opponent's.
            let mut acc = Accumulator::new(net);
            own.iter().for_each(|&f| acc.add(net, Side::P1, u32::from(f)));
            theirs.iter().for_each(|&f| acc.add(net, Side::P2, u32::from(f)));
            let logit = net.logit(&acc, Side::P1) + samples.base(i);
            let p = 1.0 / (1.0 + (-logit).exp());
            f64::from(p - samples.targets[i]).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::mabula::{Mabula, MabulaOptions};

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
        Settings { hidden: 8, epochs: 4, batch: 64, rate: 0.01, seed: 3, threads, init: None }
    }

    fn quiet_train(data: &Data, s: &Settings) -> Model {
        train::<Mabula>(data, s, &mut |_| {}, &mut |_| {}).expect("trains")
    }

    #[test]
    fn training_learns_a_learnable_target_and_quantising_keeps_it() {
        let data = Data { train: d4_data(40, 1), held_out: d4_data(10, 2), exact: 0, skipped: 0 };
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
        let data =
            Data { train: d4_data(10, 4), held_out: Samples::default(), exact: 0, skipped: 0 };
        let one = quiet_train(&data, &settings(1));
        assert_eq!(one, quiet_train(&data, &settings(3)));
        assert_eq!(one, quiet_train(&data, &settings(16)));
        assert_ne!(one, quiet_train(&data, &Settings { seed: 4, ..settings(1) }));
    }

    #[test]
    fn training_from_a_network_starts_from_its_weights() {
        let data = Data { train: d4_data(20, 5), held_out: d4_data(10, 6), exact: 0, skipped: 0 };
        let net = quiet_train(&data, &settings(1)).quantise(Mabula::NAME, 100.0);
        // No epoch: the network comes back unchanged through the float weights.
        let init = Settings { epochs: 0, init: Some(net.clone()), ..settings(1) };
        assert_eq!(quiet_train(&data, &init).quantise(Mabula::NAME, 100.0), net);
        // More epochs from it refine it: lower held-out loss than it had.
        let refined = Settings { epochs: 4, init: Some(net.clone()), ..settings(1) };
        let after = quiet_train(&data, &refined).quantise(Mabula::NAME, 100.0);
        let (before, after) =
            (quantised_loss(&net, &data.held_out), quantised_loss(&after, &data.held_out));
        assert!(after < before, "held-out loss {before} -> {after}");
        let wrong = Settings { hidden: 16, init: Some(net), ..settings(1) };
        let e = train::<Mabula>(&data, &wrong, &mut |_| {}, &mut |_| {}).expect_err("size");
        assert!(e.to_string().contains("8 hidden units, not 128 and 16"), "{e}");
    }
}
