//! Exact Mabula values from the solver (`ugine::games::mabula::solve`), for `datagen`
//! positions:
//! - `yardstick`: positions at the given border-marble counts whose moves do not all keep
//!   the value (some move loses it), with the value and the moves that keep it; the
//!   yardstick of `scripts/judge.sh` (`tests/data/mabula-yardstick.txt`). Every position
//!   of the data is taken in order, each only once, up to `--per-border` per count.
//! - `label`: every position with at most `--max-border` border marbles, as a `datagen`
//!   line whose result is its exact value (`| exact`, for `ugine train`). Positions with
//!   more border marbles are copied as they are unless `--only-exact`.
//! - `errors`: how well a network's value, the data's search score and the game's result
//!   predict the exact labels of `label`'s output (made from the same data, so aligned
//!   line by line), by border-marble count: the mean squared error of each against the
//!   exact expected score for the side to move (the search score read as
//!   `σ(score / scale)` with the network's scale), beside the spread of the exact scores
//!   (the error of always guessing their mean).
//!
//! ```sh
//! cargo run --release --example mabula_solve -- yardstick --data d.data \
//!     --border 13 14 15 16 --per-border 25 -o tests/data/mabula-yardstick.txt
//! cargo run --release --example mabula_solve -- label --data d.data --max-border 13 -o l.data
//! cargo run --release --example mabula_solve -- errors --net n.nnue --data d.data --labels l.data
//! ```
//!
//! Progress goes to stderr.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use ugine::core::{Game, Side};
use ugine::games::mabula::solve::{Solver, Value};
use ugine::games::mabula::{Mabula, MabulaOptions};
use ugine::search::nnue::{Features, Network};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
    /// Table size of the solver in MB.
    #[arg(long, global = true, default_value_t = 256)]
    hash: usize,
}

#[derive(Subcommand)]
enum Cmd {
    Yardstick {
        #[arg(long)]
        data: PathBuf,
        #[arg(long, num_args = 1.., required = true)]
        border: Vec<u32>,
        #[arg(long, default_value_t = 25)]
        per_border: usize,
        #[arg(short)]
        o: PathBuf,
    },
    Label {
        #[arg(long)]
        data: PathBuf,
        #[arg(long, default_value_t = 12)]
        max_border: u32,
        #[arg(long)]
        only_exact: bool,
        #[arg(short)]
        o: PathBuf,
    },
    Errors {
        #[arg(long)]
        net: PathBuf,
        #[arg(long)]
        data: PathBuf,
        #[arg(long)]
        labels: PathBuf,
    },
}

/// The positions of `datagen` lines, each with its line.
fn positions(path: &PathBuf) -> anyhow::Result<Vec<(Mabula, String)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let opts = MabulaOptions::default();
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let fen = line.split(" | ").next().unwrap_or("");
            let pos = Mabula::from_fen(fen, &opts)
                .with_context(|| format!("{}:{}", path.display(), i + 1))?;
            Ok((pos, line.to_string()))
        })
        .collect()
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let command: Vec<String> = std::env::args().skip(1).collect();
    let mut solver = Solver::new(cli.hash);
    let started = Instant::now();
    match cli.command {
        Cmd::Yardstick { data, border, per_border, o } => {
            let mut out = format!(
                "# Mabula yardstick: positions of self-play at {border:?} border marbles whose\n\
                 # moves do not all keep the exact value; per line: position | border marbles |\n\
                 # value for the side to move | the moves that keep it (all others lose it).\n\
                 # Made by: cargo run --release --example mabula_solve -- {}\n",
                command.join(" ")
            );
            let mut seen = HashSet::new();
            let mut count = vec![0; border.len()];
            for (pos, _) in positions(&data)? {
                let b = pos.border_marbles();
                let Some(k) = border.iter().position(|&x| x == b) else { continue };
                if count[k] >= per_border || pos.outcome().is_some() || !seen.insert(pos.to_fen()) {
                    continue;
                }
                let t = Instant::now();
                // Lost whatever the mover pushes: every move keeps the value.
                if solver.value(&pos) == Value::Loss {
                    eprintln!("{b} border: loss, {:.1} s", t.elapsed().as_secs_f64());
                    continue;
                }
                let values = solver.move_values(&pos);
                let best = values.iter().map(|&(_, v)| v).max().expect("a legal move");
                let keep: Vec<String> = values
                    .iter()
                    .filter(|&&(_, v)| v == best)
                    .map(|(m, _)| m.to_string())
                    .collect();
                eprintln!(
                    "{b} border: {best}, {} of {} moves keep it, {:.1} s ({:.0} s in all)",
                    keep.len(),
                    values.len(),
                    t.elapsed().as_secs_f64(),
                    started.elapsed().as_secs_f64()
                );
                if keep.len() == values.len() {
                    continue;
                }
                count[k] += 1;
                out.push_str(&format!("{} | {b} | {best} | {}\n", pos.to_fen(), keep.join(" ")));
                std::fs::write(&o, &out)?;
            }
            if count.iter().any(|&c| c < per_border) {
                bail!("only {count:?} positions found for {border:?}");
            }
        }
        Cmd::Label { data, max_border, only_exact, o } => {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&o)?);
            let (mut labelled, mut copied) = (0, 0);
            for (pos, line) in positions(&data)? {
                if pos.border_marbles() > max_border || pos.outcome().is_some() {
                    if !only_exact {
                        writeln!(out, "{line}")?;
                        copied += 1;
                    }
                    continue;
                }
                let value = solver.value(&pos);
                let stm = pos.side_to_move();
                let result = match (value, stm) {
                    (Value::Draw, _) => "draw",
                    (Value::Win, Side::P1) | (Value::Loss, Side::P2) => "p1win",
                    _ => "p2win",
                };
                let side = if stm == Side::P1 { "p1" } else { "p2" };
                writeln!(out, "{} | {side} | 0 | {result} | exact", pos.to_fen())?;
                labelled += 1;
                if labelled % 100 == 0 {
                    eprint!(
                        "\r{labelled} labelled, {copied} copied, {:.0} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            out.flush()?;
            eprintln!(
                "\r{labelled} labelled, {copied} copied, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
        Cmd::Errors { net, data, labels } => errors(&net, &data, &labels)?,
    }
    Ok(())
}

/// The side to move's expected score of a `datagen` line's result (`p1win`, `p2win`,
/// `draw`).
fn expected_score(result: &str, stm: Side) -> anyhow::Result<f64> {
    let p1 = match result {
        "p1win" => 1.0,
        "p2win" => 0.0,
        "draw" => 0.5,
        _ => bail!("unknown result '{result}'"),
    };
    Ok(if stm == Side::P1 { p1 } else { 1.0 - p1 })
}

/// The `errors` command: squared errors against the exact labels, by border count.
fn errors(net: &PathBuf, data: &PathBuf, labels: &PathBuf) -> anyhow::Result<()> {
    let bytes = std::fs::read(net).with_context(|| format!("{}", net.display()))?;
    let net = Network::from_bytes(&bytes, Mabula::NAME, Mabula::FEATURE_COUNT)?;
    let (data, labels) = (positions(data)?, positions(labels)?);
    if data.len() != labels.len() {
        bail!("{} data lines but {} label lines", data.len(), labels.len());
    }
    // Per border count: positions, exact score sum and sum of squares, and the squared
    // errors of the network, the search score and the game result.
    let mut rows: BTreeMap<u32, [f64; 6]> = BTreeMap::new();
    for ((pos, line), (labelled, label)) in data.iter().zip(&labels) {
        let fields: Vec<&str> = line.split(" | ").collect();
        let label_fields: Vec<&str> = label.split(" | ").collect();
        if label_fields.last() != Some(&"exact") || fields.len() < 4 || fields[2].starts_with('#') {
            continue;
        }
        if pos != labelled {
            bail!("the labels are not of this data: {line} against {label}");
        }
        let stm = pos.side_to_move();
        let exact = expected_score(label_fields[3], stm)?;
        let score: f64 = fields[2].parse().with_context(|| format!("score in {line}"))?;
        let searched = 1.0 / (1.0 + (-score / f64::from(net.scale())).exp());
        let networked = f64::from(net.win_probability_of(pos));
        let played = expected_score(fields[3], stm)?;
        let row = rows.entry(pos.border_marbles()).or_default();
        row[0] += 1.0;
        row[1] += exact;
        row[2] += exact * exact;
        row[3] += (networked - exact).powi(2);
        row[4] += (searched - exact).powi(2);
        row[5] += (played - exact).powi(2);
    }
    // `spread`: the variance of the exact scores, the error of always guessing their mean.
    println!("border  positions  mean exact  spread  network  search  game");
    for (border, [n, exact, squares, net, search, game]) in rows {
        let mean = exact / n;
        println!(
            "{border:6}  {n:9}  {mean:10.3}  {:6.4}  {:7.4}  {:6.4}  {:.4}",
            squares / n - mean * mean,
            net / n,
            search / n,
            game / n
        );
    }
    Ok(())
}
