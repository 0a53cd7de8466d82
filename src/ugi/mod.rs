//! The UGI protocol: the only module that reads or writes protocol text.
//!
//! - [`command`]: GUI → engine lines, parsed with nom into [`Command`];
//! - [`engine_line`]: engine → GUI lines, [`EngineLine`], written and parsed;
//! - [`options`]: the engine's own options (`Game`, `Hash`, `Threads`, `Move Overhead`);
//! - [`engine`]: the event loop that ties a line to a [`crate::engine::Session`].

pub mod command;
pub mod engine;
pub mod engine_line;
pub mod options;

pub use command::{Command, GoCommand, ParseError, Query, parse_command};
pub use engine::{Engine, Flow, Output};
pub use engine_line::{EngineLine, Info, parse_engine_line};
