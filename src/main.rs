//! The `ugine` binary: the UGI protocol loop (no subcommand), perft, bench, the match
//! runner and the GUI server.

use std::ffi::OsString;
use std::io::{BufRead, Write};

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};

use ugine::engine::find_game;
use ugine::runner;
use ugine::ugi::{Engine, EngineLine, Flow, Output};

/// A headless engine for five two-player abstract games, speaking UGI on stdin/stdout.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    options: EngineArgs,
}

/// Options preselected before the protocol loop starts (same as `setoption`).
#[derive(Args)]
struct EngineArgs {
    /// The game to play: morris, moebius-chess, mobius, mabula, morpiae.
    #[arg(long)]
    game: Option<String>,
    /// Hash table size in MB.
    #[arg(long)]
    hash: Option<u32>,
    /// Search threads.
    #[arg(long)]
    threads: Option<u32>,
    /// Safety margin per move in milliseconds.
    #[arg(long)]
    move_overhead: Option<u32>,
    /// Any other option, as "Name=Value" (e.g. "Morris Rules=standard"); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    option: Vec<String>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the leaf nodes of the legal game tree (rules check and move-generator speed).
    Perft(PerftArgs),
    /// Search fixed positions to fixed limits; prints total nodes and nodes per second.
    Bench(BenchArgs),
    /// Play engines against each other, refereed by ugine's rules (docs/runner.md).
    Match(Box<runner::cli::MatchArgs>),
    /// Write an opening file for a game.
    Genfens(runner::cli::GenfensArgs),
    /// Validate a game-record file with the rules and summarize it.
    Replay(runner::cli::ReplayArgs),
    /// Self-play data for tuning: one line per searched position (docs/tuning.md).
    Datagen(runner::datagen::DatagenArgs),
    /// Statistics of a match played in pieces (shards), as one run would print them.
    Merge(runner::cli::MergeArgs),
    /// Maximum-likelihood ratings of the engines in record or PGN files.
    Ratings(runner::cli::RatingsArgs),
    /// Fit a game's evaluation weights to self-play data (docs/tuning.md).
    Tune(ugine::tune::TuneArgs),
    /// Train a game's evaluation network on self-play data (docs/tuning.md).
    Train(ugine::tune::train::TrainArgs),
    /// Tune an engine's spin options (search parameters) by SPSA self-play (docs/tuning.md).
    Spsa(Box<runner::spsa::SpsaArgs>),
    /// One-player Morpion Solitaire: search for the longest game (NRPA).
    Morpion(ugine::games::morpiae::solitaire::MorpionArgs),
    /// Nine Men's Morris endgame databases: build, stats, probe, verify.
    MorrisDb(ugine::games::morris::db::cli::MorrisDbArgs),
    /// Play, watch and replay games in a browser: starts a local web server (docs/gui.md).
    Gui(GuiArgs),
}

#[derive(Args)]
struct GuiArgs {
    /// TCP port (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// An engine the page offers besides ugine, as for `ugine match`:
    /// "name=… cmd=… [arg=…] [option.Name=value]…"; repeatable.
    #[arg(long = "engine", value_name = "SPEC")]
    engine: Vec<String>,
}

#[derive(Args)]
struct PerftArgs {
    /// The game.
    #[arg(long, default_value = "morris")]
    game: String,
    /// Position string (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from the position first (words up to the next `--` option, so moves
    /// may start with '-').
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Rule options as "Name=Value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    option: Vec<String>,
}

#[derive(Args)]
struct BenchArgs {
    /// Only this game (default: every implemented game).
    #[arg(long)]
    game: Option<String>,
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

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse_from(attach_move_values(std::env::args_os()));
    match cli.command {
        None => run_protocol(&cli.options),
        Some(Cmd::Perft(args)) => run_perft(&args),
        Some(Cmd::Bench(args)) => ugine::bench::run(args.game.as_deref(), &mut std::io::stdout()),
        Some(Cmd::Match(args)) => runner::cli::run_match(&args),
        Some(Cmd::Genfens(args)) => runner::cli::run_genfens(&args),
        Some(Cmd::Replay(args)) => runner::cli::run_replay(&args),
        Some(Cmd::Datagen(args)) => runner::datagen::run_datagen(&args),
        Some(Cmd::Merge(args)) => runner::cli::run_merge(&args),
        Some(Cmd::Ratings(args)) => runner::cli::run_ratings(&args),
        Some(Cmd::Tune(args)) => ugine::tune::run_tune(&args),
        Some(Cmd::Train(args)) => ugine::tune::train::run_train(&args),
        Some(Cmd::Spsa(args)) => runner::spsa::run_spsa(&args),
        Some(Cmd::Morpion(args)) => ugine::games::morpiae::solitaire::run(&args),
        Some(Cmd::MorrisDb(args)) => ugine::games::morris::db::cli::run(&args),
        Some(Cmd::Gui(args)) => ugine::gui::run(
            std::net::SocketAddr::new(args.bind, args.port),
            ugine::gui::EngineList::new(&args.engine)?,
        ),
    }
}

/// Splits "Name=Value".
fn name_value(s: &str) -> Result<(&str, &str)> {
    s.split_once('=').with_context(|| format!("--option '{s}': expected NAME=VALUE"))
}

fn run_protocol(args: &EngineArgs) -> Result<()> {
    let mut engine = Engine::new(Output::new(Box::new(std::io::stdout())));
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
    for o in &args.option {
        let (n, v) = name_value(o)?;
        preset.push((n.to_string(), v.to_string()));
    }
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

fn run_perft(args: &PerftArgs) -> Result<()> {
    let entry = find_game(&args.game).with_context(|| format!("unknown game '{}'", args.game))?;
    let make = entry.make;
    let mut session = make(1);
    for o in &args.option {
        let (name, value) = name_value(o)?;
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
