//! `ugine gui`: a local web server with a browser front end for people, to play, watch
//! and replay every game (see `docs/gui.md`).
//!
//! The page (HTML, CSS, JavaScript in [`assets`]) draws the boards and turns clicks into
//! moves, but every rule question is answered here, by the same game modules the engine
//! and the match runner's referee use: each browser tab holds a WebSocket to its own
//! [`table::Table`], which sends the legal moves, position strings and outcome of every
//! position. Engines are UGI processes driven by the match runner's
//! [`crate::runner::players::process::ProcessPlayer`] ([`seat`]); ugine itself is the default.
//!
//! - [`server`]: the HTTP server (axum on tokio): static files and one WebSocket per tab.
//! - [`access`]: the token and origin checks that keep other users and web sites out.
//! - [`messages`]: the JSON messages between page and server.
//! - [`table`]: one tab's game: players, moves, clocks, undo, result.
//! - [`seat`]: an engine playing one side, on its own thread.
//! - [`clock`]: the two players' clocks; [`time`]: the time settings, checked.
//! - [`names`]: the games' names for their sides.
//! - [`analysis`]: analysis mode, an engine on the position shown, with several lines.
//! - [`watch`]: the match of `--watch`: standings and games from its record files, games
//!   in progress from its live files.
//! - [`records`]: record files of `ugine match`, read for replay and written on save.
//! - [`assets`]: the embedded page.

pub mod access;
pub mod analysis;
pub mod assets;
pub mod clock;
pub mod messages;
pub mod names;
pub mod records;
pub mod seat;
pub mod server;
pub mod table;
pub mod time;
pub mod watch;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;

use crate::core::words::split_words;
use crate::runner::players::spec::EngineSpec;

/// The engines a page can choose from: ugine itself first, then the `--engine` ones.
#[derive(Clone, Debug)]
pub struct EngineList(pub Vec<EngineSpec>);

impl EngineList {
    /// `ugine` (this executable) followed by the engines described by `specs`, each
    /// `name=… cmd=… arg=… option.X=…` as for `ugine match --engine`.
    pub fn new(specs: &[String]) -> anyhow::Result<EngineList> {
        let exe = std::env::current_exe().context("cannot find the ugine executable")?;
        let mut list = vec![EngineSpec {
            name: "ugine".to_string(),
            cmd: exe.to_string_lossy().into_owned(),
            ..EngineSpec::default()
        }];
        for s in specs {
            let words = split_words(s).map_err(anyhow::Error::msg)?;
            let spec = EngineSpec::from_tokens(&words)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("--engine '{s}'"))?;
            if spec.is_random() {
                anyhow::bail!(
                    "--engine '{s}': the built-in random mover is not offered in the GUI"
                );
            }
            if list.iter().any(|e| e.name == spec.name) {
                anyhow::bail!("--engine '{s}': two engines are called '{}'", spec.name);
            }
            list.push(spec);
        }
        Ok(EngineList(list))
    }

    /// The engine called `name`.
    pub fn find(&self, name: &str) -> Option<&EngineSpec> {
        self.0.iter().find(|e| e.name == name)
    }
}

/// Binds `addr`, prints the page's URL (with the access token) on stdout and serves until
/// killed.
pub fn run(
    addr: SocketAddr,
    engines: EngineList,
    watch: Option<std::path::PathBuf>,
) -> anyhow::Result<()> {
    let token = access::server_token().map_err(anyhow::Error::msg)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .build()
        .context("cannot start the server runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        println!(
            "ugine gui: open http://{local}/?token={token} in a browser (Ctrl-C stops the server)"
        );
        use std::io::Write;
        std::io::stdout().flush()?;
        server::serve(listener, Arc::new(server::Gui { engines: Arc::new(engines), token, watch }))
            .await
    })
}
