//! `ugine datagen`: self-play training data ([`crate::tune::datagen`] plays the games and
//! formats the lines); games run `--concurrency` at a time and are written whole and in
//! order. Progress goes to stderr.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;

use crate::engine::Session;
use crate::runner::records::opening::{default_plies, generate_openings};
use crate::runner::referee::Referee;
use crate::tune::datagen::play;

/// `ugine datagen`: self-play data for tuning (format in `docs/tuning.md`).
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random plies of each opening: from the start position (default 8), or from a
    /// random setup in games that have them (Mabula; default 0, the setup alone).
    #[arg(long, value_name = "K")]
    pub plies: Option<usize>,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Engine moves after which a game is stopped and counted a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Hash table per game in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Rule options "Name=value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
    /// Options of the search "Name=value", as `setoption` sets them; repeatable. With a
    /// network ("Mabula EvalFile=gen1.nnue") the games are the next generation's data
    /// (bootstrapping, `docs/tuning.md`).
    #[arg(long = "setoption", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub setoption: Vec<(String, String)>,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `ugine datagen`.
pub fn run(args: &DatagenArgs) -> anyhow::Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut options = vec![("Game".to_string(), args.game.clone())];
    options.extend(args.option.iter().cloned());
    let referee = Referee::new(&args.game, &options)?;
    if let Some((name, _)) = args.option.iter().find(|(name, _)| !referee.is_rule_option(name)) {
        bail!(
            "'{name}' is not a rule option of {} (its rule options: {}; search options go \
             to --setoption)",
            args.game,
            referee.rule_option_names().join(", ")
        );
    }
    let mut session = referee.session()?;
    // Checked once before any game: a bad name, value or file stops the run here.
    set_search_options(session.as_mut(), &args.setoption)?;
    let plies = args.plies.unwrap_or_else(|| default_plies(session.as_ref(), 8));
    let openings = generate_openings(session.as_mut(), args.games, plies, None, args.seed);
    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = channel::<(usize, anyhow::Result<Vec<String>>)>();
    let start = Instant::now();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.concurrency.clamp(1, args.games) {
            let tx = tx.clone();
            let (next, failed, openings, referee) = (&next, &failed, &openings, &referee);
            scope.spawn(move || {
                let mut session = match referee.session() {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = tx.send((0, Err(e)));
                        return;
                    }
                };
                if let Err(e) = set_search_options(session.as_mut(), &args.setoption) {
                    let _ = tx.send((0, Err(e)));
                    return;
                }
                session.set_hash_mb(args.hash);
                while !failed.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= openings.len() {
                        break;
                    }
                    let lines = play(session.as_mut(), &openings[i], args.nodes, args.max_plies);
                    if tx.send((i, lines)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish in any order; they are written in order.
        let mut pending = BTreeMap::new();
        let (mut written, mut positions) = (0, 0);
        for (i, lines) in rx {
            let lines = match lines {
                Ok(l) => l,
                Err(e) => {
                    failed.store(true, Ordering::SeqCst);
                    return Err(e.context(format!("game {}", i + 1)));
                }
            };
            pending.insert(i, lines);
            while let Some(lines) = pending.remove(&written) {
                for l in &lines {
                    writeln!(out, "{l}").context("cannot write the data")?;
                }
                written += 1;
                positions += lines.len();
            }
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            // Progress only: a closed stderr must not stop the run.
            let _ = writeln!(
                std::io::stderr().lock(),
                "[{written}/{}] games written, {positions} positions, {:.1} positions/s",
                args.games,
                positions as f64 / secs
            );
        }
        out.flush().context("cannot write the data")
    })
}

/// Applies `--setoption`'s options to `session`.
fn set_search_options(
    session: &mut dyn Session,
    options: &[(String, String)],
) -> anyhow::Result<()> {
    for (name, value) in options {
        session.set_search_option_text(name, value).map_err(anyhow::Error::msg)?;
    }
    Ok(())
}
