//! ugine: a headless engine for five two-player abstract games, speaking UGI.
//!
//! Modules, bottom-up: each imports only modules listed before it. `ARCHITECTURE.md`
//! maps them file by file.
//! - [`core`]: game-independent vocabulary: the [`core::Game`] trait, sides, outcomes,
//!   search limits, rule options, generic perft, the seeded RNG. Imports nothing.
//! - [`search`]: searches generic over games (alpha-beta with Lazy SMP threads, Monte
//!   Carlo tree search); they never print, they report through [`search::Reporter`].
//!   Imports `core`.
//! - [`games`]: one folder per game: rules, notation, position string, evaluation, and
//!   its search built on [`search`]. Imports `search`, `core`.
//! - [`engine`]: the type-erased [`engine::Session`] (one game, its options, position
//!   and search) and the registry of games. Imports `games`, `search`, `core`.
//! - [`ugi`]: the only module that reads or writes protocol text, and the event loop.
//!   Imports `engine`, `search`, `core`.
//! - [`mod@bench`]: the fixed benchmark behind `ugine bench`. Imports `engine`, `search`,
//!   `core`.
//! - [`runner`]: the match runner (stats, referee and schedule, records, players,
//!   tournament). Imports `ugi`, `engine`, `search`, `core`.
//! - [`gui`]: `ugine gui`, the browser front end (web server and embedded page).
//!   Imports `runner`, `ugi`, `engine`, `search`, `core`.
//! - [`tune`]: the tuning algorithms behind `ugine tune` (Texel tuning of the
//!   evaluations linear in their weights), `datagen`, `train` and `spsa`. Imports
//!   `runner`, `engine`, `search`, `core`.
//! - [`cli`]: the command line, one file per subcommand. Imports all of the above; the
//!   binary (`src/main.rs`) only calls [`cli::main`].

pub mod bench;
pub mod cli;
pub mod core;
pub mod engine;
pub mod games;
pub mod gui;
pub mod runner;
pub mod search;
pub mod tune;
pub mod ugi;
