//! The `ugine` binary: logging to stderr, then the command line ([`ugine::cli`]).

fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    ugine::cli::main()
}
