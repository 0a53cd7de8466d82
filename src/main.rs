//! The `ugine` binary: logging to stderr, then the command line ([`ugine::cli`]).

use std::process::ExitCode;

/// Runs the command line; an error is one line on stderr (`Error: ` and its causes,
/// joined by `: `) and exit status 1, with no backtrace even when `RUST_BACKTRACE` is
/// set: a refused setting is the user's to fix, not a crash.
fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match ugine::cli::main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
