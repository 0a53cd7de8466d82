//! `ugine` without a subcommand: the UGI protocol loop on stdin/stdout, with options
//! preselected from the command line.

use std::io::BufRead;

use anyhow::{Result, bail};
use clap::Args;

use crate::ugi::{Engine, EngineLine, Flow, Output};

/// Options preselected before the protocol loop starts (same as `setoption`).
#[derive(Args)]
pub struct EngineArgs {
    /// The game to play: morris, moebius-chess, mobius, mabula, morpiae.
    #[arg(long)]
    pub game: Option<String>,
    /// Hash table size in MB.
    #[arg(long)]
    pub hash: Option<u32>,
    /// Search threads.
    #[arg(long)]
    pub threads: Option<u32>,
    /// Safety margin per move in milliseconds.
    #[arg(long)]
    pub move_overhead: Option<u32>,
    /// Any other option, as "Name=Value" (e.g. "Morris Rules=standard"); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
    /// Announce the searches' tuning knobs (`<Game> Search …`, Monte Carlo constants)
    /// in answer to `ugi` too, for SPSA and scripts; they are settable either way.
    #[arg(long)]
    pub tuning_options: bool,
}

/// Runs the protocol loop until `quit` or the end of input.
pub fn run(args: &EngineArgs) -> Result<()> {
    let mut engine = Engine::new(Output::new(Box::new(std::io::stdout())));
    if args.tuning_options {
        engine.show_tuning_options();
    }
    let mut preset: Vec<(String, String)> = Vec::new();
    if let Some(g) = &args.game {
        preset.push(("Game".into(), g.clone()));
    }
    if let Some(h) = args.hash {
        preset.push(("Hash".into(), h.to_string()));
    }
    if let Some(t) = args.threads {
        preset.push(("Threads".into(), t.to_string()));
    }
    if let Some(m) = args.move_overhead {
        preset.push(("Move Overhead".into(), m.to_string()));
    }
    preset.extend(args.option.iter().cloned());
    // The game first, so that its rule options apply to the selected game's session.
    for (name, value) in &preset {
        if let Err(e) = engine.set_option(name, Some(value)) {
            bail!("{e}");
        }
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                // Not UTF-8: answer like any malformed line and go on.
                log::warn!("unreadable input line: {e}");
                Output::new(Box::new(std::io::stdout()))
                    .send(&EngineLine::error("input line is not valid UTF-8"));
                continue;
            }
        };
        if engine.handle_line(&line) == Flow::Quit {
            break;
        }
    }
    Ok(())
}
