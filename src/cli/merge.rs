//! `ugine merge`: the statistics of a match played in pieces (shards).

use std::path::PathBuf;

use clap::Args;

use super::emit;
use crate::runner::note;
use crate::runner::tournament::merge::merge;

/// `ugine merge`: the statistics of a match played in pieces.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The pieces' record files (or PGN files written by `ugine match --pgn`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs `ugine merge`: checks that the files are pieces of one match and prints the
/// summary `ugine match` prints for the whole match (stdout); which shards were found
/// goes to stderr.
pub fn run(args: &MergeArgs) -> anyhow::Result<()> {
    let (merged, warnings) = merge(&args.files)?;
    for w in warnings {
        note(&format!("warning: {w}"));
    }
    let count = merged.info.shard.count;
    let missing: Vec<String> =
        (1..=count).filter(|k| !merged.shards.contains(k)).map(|k| k.to_string()).collect();
    note(&format!(
        "merged {} files: {} games from {} of {count} shards{}",
        args.files.len(),
        merged.standings.games(),
        merged.shards.len(),
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        }
    ));
    emit(&merged.summary())
}
