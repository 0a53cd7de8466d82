//! The match runner behind `ugine match`, `ugine merge`, `ugine replay`, `ugine ratings`
//! and `ugine genfens`: plays engines against each other as referee, records every game,
//! and computes the statistics (see `docs/runner.md`). Folders, bottom-up:
//!
//! - [`stats`]: W/D/L, pentanomial counts, Elo and LOS ([`stats::elo`]); the SPRT and the
//!   one place where it decides ([`stats::sprt`]); standings and summaries
//!   ([`stats::report`]); `ugine ratings` ([`stats::ratings`]); `ugine merge`
//!   ([`stats::merge`]).
//! - [`records`]: what a match reads and writes: openings ([`records::opening`]), game
//!   records ([`records::record`]), the match header of a record file
//!   ([`records::header`]), the shared record directory of shards ([`records::peers`]),
//!   PGN ([`records::pgn`]), games from either ([`records::input`]) and their
//!   re-validation ([`records::replay`]).
//! - [`players`]: the [`players::Player`] trait and the built-in random mover; engine
//!   processes ([`players::process`]) and the protocol lines the runner speaks
//!   ([`players::wire`]); the built-in plain MCTS baseline ([`players::uct`],
//!   [`players::uct_player`]).
//! - [`tournament`]: the match as a whole ([`tournament::Match`]): its settings
//!   ([`tournament::config`]), who plays whom and which shard plays what
//!   ([`tournament::schedule`]), the rules' referee ([`tournament::referee`]) and one
//!   refereed game ([`tournament::game`]).
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
