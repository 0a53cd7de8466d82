//! `ugine datagen`: self-play training data ([`crate::tune::datagen`] plays the games and
//! formats the lines); games run `--concurrency` at a time and are written whole and in
//! order ([`super::in_order`]). Progress goes to stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;

use super::in_order::run_in_order;
use super::search_setup::{SearchSetup, output};
use crate::runner::records::opening::{default_plies, generate_openings};
use crate::tune::datagen::play;

/// `ugine datagen`: self-play data for tuning (format in `docs/tuning.md`).
#[derive(Args, Debug)]
pub struct DatagenArgs {
    #[command(flatten)]
    pub setup: SearchSetup,
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
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `ugine datagen`.
pub fn run(args: &DatagenArgs) -> anyhow::Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    // Checked once before any game: a bad name, value or file stops the run here.
    let (referee, mut session) = args.setup.check()?;
    let plies = args.plies.unwrap_or_else(|| default_plies(session.as_ref(), 8));
    let openings = generate_openings(session.as_mut(), args.games, plies, None, args.seed);
    let mut out = output(args.output.as_deref())?;
    let start = Instant::now();
    let mut positions = 0;
    run_in_order(
        openings.len(),
        args.concurrency,
        || args.setup.session(&referee),
        |session, i| {
            play(session.as_mut(), &openings[i], args.nodes, args.max_plies)
                .with_context(|| format!("game {}", i + 1))
        },
        |i, lines| {
            for l in &lines {
                writeln!(out, "{l}").context("cannot write the data")?;
            }
            positions += lines.len();
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            // Progress only: a closed stderr must not stop the run.
            let _ = writeln!(
                std::io::stderr().lock(),
                "[{}/{}] games written, {positions} positions, {:.1} positions/s",
                i + 1,
                args.games,
                positions as f64 / secs
            );
            Ok(())
        },
    )?;
    out.flush().context("cannot write the data")
}
