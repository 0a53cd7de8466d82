//! `ugine perft`: leaf counts of the legal game tree (rules check and move-generator
//! speed).

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use crate::engine::find_game;

#[derive(Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, default_value = "morris")]
    pub game: String,
    /// Position string (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position first (words up to the next `--` option, so moves
    /// may start with '-').
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
    /// Rule options as "Name=Value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
}

/// Runs `ugine perft`.
pub fn run(args: &PerftArgs) -> Result<()> {
    let entry = find_game(&args.game).with_context(|| format!("unknown game '{}'", args.game))?;
    let make = entry.make;
    let mut session = make(1);
    for (name, value) in &args.option {
        let spec = session
            .rule_option_specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .with_context(|| format!("unknown option '{name}' for {}", args.game))?;
        let value = spec.parse_value(value).map_err(anyhow::Error::msg)?;
        session.set_rule_option(spec.name, &value).map_err(anyhow::Error::msg)?;
    }
    let moves: Vec<&str> = args.moves.iter().map(String::as_str).collect();
    session.set_position(args.fen.as_deref(), &moves).map_err(anyhow::Error::msg)?;
    // A closed stdout (e.g. piped into `head`) ends the command with an error, not a panic.
    let mut out = std::io::stdout().lock();
    let start = std::time::Instant::now();
    let total = if args.divide {
        let divide = session.perft_divide(args.depth);
        for (mv, n) in &divide {
            writeln!(out, "{mv}: {n}")?;
        }
        divide.iter().map(|(_, n)| n).sum()
    } else {
        session.perft(args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "Time: {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9))?;
    Ok(())
}
