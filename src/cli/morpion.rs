//! `ugine morpion`: one-player Morpion Solitaire, the longest game found by NRPA.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::games::morpiae::Variant;
use crate::games::morpiae::solitaire::{
    DEFAULT_ITERATIONS, DEFAULT_LEVEL, game_text, search_solitaire,
};

/// Arguments of `ugine morpion`.
#[derive(clap::Args, Clone, Debug)]
pub struct MorpionArgs {
    /// Rule variant: 5T (touching) or 5D (disjoint).
    #[arg(long, default_value = "5T", value_parser = parse_variant)]
    pub variant: Variant,
    /// Search time in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub time: f64,
    /// Seed of the random playouts (of the first thread; the others derive theirs).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search threads (independent NRPA runs sharing the longest game).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// NRPA level of each restart (each level runs `--iterations` calls of the one below).
    #[arg(long, default_value_t = DEFAULT_LEVEL, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub level: u32,
    /// Calls of the level below per level call (Rosin's N).
    #[arg(long, default_value_t = DEFAULT_ITERATIONS, value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub iterations: u32,
    /// File the best game is written to (replayable UGI commands).
    #[arg(long, default_value = "morpion.txt")]
    pub out: PathBuf,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| format!("variant must be 5T or 5D, not '{s}'"))
}

/// `ugine morpion`: searches, prints the best line and its length to stdout (and each
/// improvement to stderr), and writes the game to `args.out`.
pub fn run(args: &MorpionArgs) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use std::io::Write as _;
    anyhow::ensure!(
        args.time.is_finite() && args.time > 0.0,
        "time must be a positive number of seconds"
    );
    let start = Instant::now();
    let report = |len: usize| {
        eprintln!("{:>8.1}s best {len}", start.elapsed().as_secs_f64());
    };
    let time = Duration::from_secs_f64(args.time);
    let threads = args.threads as usize;
    let iterations = args.iterations as usize;
    let found =
        search_solitaire(args.variant, time, args.seed, threads, args.level, iterations, &report);
    let text = game_text(args.variant, &found.moves).map_err(anyhow::Error::msg)?;
    std::fs::write(&args.out, &text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let list: Vec<String> = found.moves.iter().map(|m| m.to_string()).collect();
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "variant {} threads {} playouts {}",
        args.variant.name(),
        args.threads,
        found.playouts
    )?;
    writeln!(stdout, "line {}", list.join(" "))?;
    writeln!(stdout, "length {}", found.moves.len())?;
    Ok(())
}
