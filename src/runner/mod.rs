//! The match runner behind `ugine match`, `ugine merge`, `ugine replay`, `ugine ratings`
//! and `ugine genfens`: plays engines against each other as referee, records every game,
//! and computes the statistics (see `docs/runner.md`). Folders, bottom-up:
//!
//! - [`stats`]: the numbers alone: W/D/L, pentanomial counts, Elo and LOS
//!   ([`stats::elo`]), the SPRT ([`stats::sprt`], where the test decides), rating lists
//!   of `ugine ratings` ([`stats::ratings`]).
//! - [`referee`]: sessions of the match's game under its rules; [`schedule`]: who plays
//!   whom, the order of openings, which shard plays which game pair.
//! - [`records`]: what a match reads and writes: openings ([`records::opening`]) and
//!   balanced ones ([`records::balance`]), game records ([`records::record`]), the match
//!   header of a record file ([`records::header`]), PGN ([`records::pgn`]), games from
//!   either ([`records::input`]) and their re-validation ([`records::replay`]).
//! - [`players`]: the [`players::Player`] trait and the built-in random mover; how to run
//!   an engine ([`players::spec`]), engine processes ([`players::process`]) and the
//!   protocol lines the runner speaks ([`players::wire`]); the built-in plain MCTS
//!   baseline ([`players::uct`], [`players::uct_player`]).
//! - [`tournament`]: the match as a whole ([`tournament::Match`]): its settings
//!   ([`tournament::config`]), one refereed game ([`tournament::game`]), standings and
//!   summaries ([`tournament::standings`]), the shared record directory of shards
//!   ([`tournament::peers`]) and `ugine merge` ([`tournament::merge`]).
//!
//! Self-play data (`ugine datagen`) and SPSA (`ugine spsa`) use this runner from
//! [`crate::tune`]; the command-line front of each subcommand is in [`crate::cli`].

pub mod players;
pub mod records;
pub mod referee;
pub mod schedule;
pub mod stats;
pub mod tournament;

/// Writes a line to stderr (progress and warnings). A closed stderr must not stop the
/// match, so write errors are ignored.
pub fn note(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
