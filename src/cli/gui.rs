//! `ugine gui`: the browser front end's web server (docs/gui.md).

use clap::Args;

#[derive(Args)]
pub struct GuiArgs {
    /// TCP port (0: any free port; the URL is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// An engine the page offers besides ugine, as for `ugine match`:
    /// "name=… cmd=… [arg=…] [option.Name=value]…"; repeatable.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engine: Vec<String>,
    /// A match to watch: its record file (and the live file beside it), or a
    /// directory of record files (`*.ugr`, `*.records`) and live files (`*.live`).
    #[arg(long)]
    pub watch: Option<std::path::PathBuf>,
}

/// Runs `ugine gui` until interrupted.
pub fn run(args: &GuiArgs) -> anyhow::Result<()> {
    crate::gui::run(
        std::net::SocketAddr::new(args.bind, args.port),
        crate::gui::EngineList::new(&args.engine)?,
        args.watch.clone(),
    )
}
