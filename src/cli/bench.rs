//! `ugine bench`: fixed positions searched to fixed limits; the node count is the
//! search's signature.

use clap::Args;

#[derive(Args)]
pub struct BenchArgs {
    /// Only this game (default: every implemented game).
    #[arg(long)]
    pub game: Option<String>,
}

/// Runs `ugine bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    crate::bench::run(args.game.as_deref(), &mut std::io::stdout())
}
