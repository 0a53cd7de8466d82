//! `ugine ratings`: maximum-likelihood rating lists of the engines in some games.

use std::path::PathBuf;

use clap::Args;

use super::emit;
use crate::runner::records::input::read_results;
use crate::runner::stats::ratings::{fit, format_ratings};

/// `ugine ratings`: a rating list of every engine in some games.
#[derive(Args, Debug)]
pub struct RatingsArgs {
    /// Record files or PGN files (any PGN with White, Black and Result tags).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The engine whose rating is fixed (default: the first engine in the games).
    #[arg(long)]
    pub anchor: Option<String>,
    /// The anchor's rating.
    #[arg(long, default_value_t = 0.0)]
    pub anchor_elo: f64,
    /// Virtual draws between every two engines that met (keeps the ratings of engines
    /// that won or lost every game finite).
    #[arg(long, default_value_t = 0.0)]
    pub prior: f64,
}

/// Runs `ugine ratings`.
pub fn run(args: &RatingsArgs) -> anyhow::Result<()> {
    let mut games = Vec::new();
    for f in &args.files {
        games.extend(read_results(f)?);
    }
    let r = fit(&games, args.anchor.as_deref(), args.anchor_elo, args.prior)
        .map_err(anyhow::Error::msg)?;
    let anchor = args.anchor.clone().unwrap_or_else(|| games[0].0.clone());
    let mut note = format!("{anchor} anchored at {}", args.anchor_elo);
    if args.prior > 0.0 {
        note.push_str(&format!("; prior {} draws per pair", args.prior));
    }
    emit(&format!("{} games\n{}", games.len(), format_ratings(&r, &note)))
}
