//! The match runner behind `ugine match`, `ugine genfens`, `ugine replay` and
//! `ugine datagen` ([`datagen`]: self-play data): plays
//! engines against each other as referee, records every game, and computes the
//! statistics (see `docs/runner.md`).
//!
//! - [`stats`]: W/D/L, pentanomial counts, Elo, LOS, SPRT.
//! - [`opening`]: opening files and their generation.
//! - [`record`]: the game-record file.
//! - [`player`]: the [`player::Player`] trait and the built-in random mover;
//!   [`uct`], [`uct_player`]: the built-in plain MCTS baseline;
//!   [`process`]: engine processes; [`wire`]: the protocol lines the runner speaks.
//! - [`play`]: the referee's game loop; [`tournament`]: the whole match.
//! - [`shard`]: splitting a match (`--shard K/N`), the match header of record files,
//!   the shared record directory; [`merge`]: `ugine merge`.
//! - [`pgn`]: PGN export and reading; [`input`]: games from record or PGN files;
//!   [`ratings`]: `ugine ratings` (maximum-likelihood rating lists).
//! - [`spsa`]: `ugine spsa` (SPSA tuning of an engine's spin options).

pub mod cli;
pub mod config;
pub mod datagen;
pub mod input;
pub mod merge;
pub mod opening;
pub mod pgn;
pub mod play;
pub mod player;
pub mod process;
pub mod ratings;
pub mod record;
pub mod replay;
pub mod report;
pub mod shard;
pub mod spsa;
pub mod stats;
pub mod tournament;
pub mod uct;
pub mod uct_player;
pub mod wire;
