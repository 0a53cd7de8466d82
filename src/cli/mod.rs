//! The command line of the `ugine` binary, one file per subcommand (as KataGo's
//! `command/`): each file holds the subcommand's arguments and the function that runs
//! it. Without a subcommand the binary runs the UGI protocol loop ([`engine`]).

pub mod bench;
pub mod datagen;
pub mod engine;
pub mod genfens;
pub mod gui;
pub mod in_order;
pub mod r#match;
pub mod merge;
pub mod morpion;
pub mod morris_db;
pub mod perft;
pub mod ratings;
pub mod relabel;
pub mod replay;
pub mod search_setup;
pub mod spsa;
pub mod train;
pub mod tunables;
pub mod tune;

use std::ffi::OsString;
use std::io::Write;

use anyhow::Context;
use clap::{Parser, Subcommand};

/// A headless engine for five two-player abstract games, speaking UGI on stdin/stdout.
#[derive(Parser)]
#[command(name = "ugine", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    options: engine::EngineArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the leaf nodes of the legal game tree (rules check and move-generator speed).
    Perft(perft::PerftArgs),
    /// Search fixed positions to fixed limits; prints total nodes and nodes per second.
    Bench(bench::BenchArgs),
    /// Play engines against each other, refereed by ugine's rules (docs/runner.md).
    Match(Box<r#match::MatchArgs>),
    /// Write an opening file for a game.
    Genfens(genfens::GenfensArgs),
    /// Validate a game-record file with the rules and summarize it.
    Replay(replay::ReplayArgs),
    /// Self-play data for tuning: one line per searched position (docs/tuning.md).
    Datagen(datagen::DatagenArgs),
    /// Score the positions of data files again with a deeper search (docs/tuning.md).
    Relabel(relabel::RelabelArgs),
    /// Statistics of a match played in pieces (shards), as one run would print them.
    Merge(merge::MergeArgs),
    /// Maximum-likelihood ratings of the engines in record or PGN files.
    Ratings(ratings::RatingsArgs),
    /// Fit a game's evaluation weights to self-play data (docs/tuning.md).
    Tune(tune::TuneArgs),
    /// Train a game's evaluation network on self-play data (docs/tuning.md).
    Train(train::TrainArgs),
    /// Tune an engine's spin options (search parameters) by SPSA self-play (docs/tuning.md).
    Spsa(Box<spsa::SpsaArgs>),
    /// A game's tunable search parameters, as `ugine spsa --param` reads them.
    Tunables(tunables::TunablesArgs),
    /// One-player Morpion Solitaire: search for the longest game (NRPA).
    Morpion(morpion::MorpionArgs),
    /// Nine Men's Morris endgame databases: build, stats, probe, verify.
    MorrisDb(morris_db::MorrisDbArgs),
    /// Play, watch and replay games in a browser: starts a local web server (docs/gui.md).
    Gui(gui::GuiArgs),
}

/// Parses the command line (`std::env::args_os`) and runs what it asks for.
pub fn main() -> anyhow::Result<()> {
    let cli = Cli::parse_from(attach_move_values(std::env::args_os()));
    match cli.command {
        None => engine::run(&cli.options),
        Some(Cmd::Perft(args)) => perft::run(&args),
        Some(Cmd::Bench(args)) => bench::run(&args),
        Some(Cmd::Match(args)) => r#match::run(&args),
        Some(Cmd::Genfens(args)) => genfens::run(&args),
        Some(Cmd::Replay(args)) => replay::run(&args),
        Some(Cmd::Datagen(args)) => datagen::run(&args),
        Some(Cmd::Relabel(args)) => relabel::run(&args),
        Some(Cmd::Merge(args)) => merge::run(&args),
        Some(Cmd::Ratings(args)) => ratings::run(&args),
        Some(Cmd::Tune(args)) => tune::run(&args),
        Some(Cmd::Train(args)) => train::run(&args),
        Some(Cmd::Spsa(args)) => spsa::run(&args),
        Some(Cmd::Tunables(args)) => tunables::run(&args),
        Some(Cmd::Morpion(args)) => morpion::run(&args),
        Some(Cmd::MorrisDb(args)) => morris_db::run(&args),
        Some(Cmd::Gui(args)) => gui::run(&args),
    }
}

/// The words after `--moves` up to the next `--` option, each written `--moves=word`, so
/// that moves starting with '-' (Morpiae's negative coordinates: `-1,6,H,0`) are not
/// taken for options.
/// Arguments that are not Unicode are kept as they are, for clap to report.
fn attach_move_values(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut in_moves = false;
    for arg in args {
        if arg == "--moves" {
            in_moves = true;
        } else if arg.to_str().is_some_and(|a| a.starts_with("--")) {
            in_moves = false;
            out.push(arg);
        } else if in_moves {
            let mut attached = OsString::from("--moves=");
            attached.push(&arg);
            out.push(attached);
        } else {
            out.push(arg);
        }
    }
    out
}

/// Writes `text` to stdout; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write to stdout")
        }
        _ => Ok(()),
    }
}
