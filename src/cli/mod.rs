//! The command line.

pub mod runner_args;
