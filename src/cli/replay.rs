//! `ugine replay`: re-validates a record (or PGN) file with the rules and summarizes it.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::emit;
use crate::runner::records::input::{GamesFile, read_games};
use crate::runner::records::replay::validate;
use crate::runner::stats::sprt::SprtVerdict;
use crate::runner::tournament::standings::{Standings, format_summary};

/// `ugine replay`: validate a game-record file and summarize it.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file, or a PGN file written by `ugine match --pgn`.
    pub file: PathBuf,
}

/// Runs `ugine replay`: one line per invalid game, then the summary. Fails when any
/// record is unreadable or invalid.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let GamesFile { records, problems, .. } = read_games(&args.file)?;
    let mut bad = problems.len();
    let mut out = String::new();
    for p in &problems {
        out.push_str(&format!("unreadable: {p}\n"));
    }
    for r in &records {
        if let Err(e) = validate(r) {
            bad += 1;
            out.push_str(&format!("invalid game {}: {e}\n", r.id));
        }
    }
    let standings = Standings::from_records(&records);
    out.push_str(&format!(
        "{} games replayed, {} valid\n",
        records.len() + problems.len(),
        records.len() + problems.len() - bad
    ));
    out.push_str(&format_summary(&standings, None, SprtVerdict::Continue));
    emit(&out)?;
    if bad > 0 {
        bail!("{bad} invalid or unreadable records");
    }
    Ok(())
}
