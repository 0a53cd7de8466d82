//! ugine: a headless engine for five two-player abstract games, speaking UGI.
//!
//! Modules, bottom-up (dependencies point one way):
//! - [`core`]: game-independent vocabulary: the [`core::Game`] trait, sides, outcomes,
//!   search limits, rule options, generic perft, the seeded RNG.
//! - [`games`]: one folder per game (rules, notation, position string, evaluation) and
//!   the registry that lists them.
//! - [`search`]: searches generic over games; they never print, they report through
//!   [`search::Reporter`].
//! - [`ugi`]: the only module that reads or writes protocol text.
//! - [`gui`]: `ugine gui`, the browser front end (web server and embedded page).
//! - [`mod@bench`]: the fixed benchmark behind `ugine bench`.
//! - [`tune`]: `ugine tune`, Texel tuning of the evaluations linear in their weights.

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
