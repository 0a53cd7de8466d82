//! The protocol event loop: one [`Engine`] per process, fed one input line at a time.
//!
//! Searches run on their own thread, so `isready` and `stop` are answered at once, even
//! mid-search. Commands that would change the position or the options while a search
//! runs are refused with an error (send `stop` first); nothing else is ever refused
//! silently, and a refused command changes nothing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::command::{Command, GoCommand, Query, parse_command, truncate};
use super::engine_line::{EngineLine, Info};
use super::options::{
    self, GAME, HASH, MOVE_OVERHEAD, MULTI_PV, THREADS, describe, engine_option_specs,
};
use crate::core::{OptionSpec, OptionValue, Side};
use crate::engine::{Session, registry};
use crate::search::{Reporter, SearchInfo};

/// Where protocol lines go: a shared, line-buffered writer (stdout in the binary).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// An output writing to `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes it. A closed pipe is logged, never a panic.
    pub fn send(&self, line: &EngineLine) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = writeln!(w, "{line}").and_then(|_| w.flush()) {
            log::warn!("cannot write to the GUI: {e}");
        }
    }

    /// Writes free text (the `d` board drawing), line by line.
    fn send_text(&self, text: &str) {
        for line in text.lines() {
            self.send(&EngineLine::Other(line.trim_end().to_string()));
        }
    }
}

/// Whether the loop goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Turns search reports into `info` lines.
struct InfoReporter(Output);

impl Reporter for InfoReporter {
    fn info(&mut self, i: &SearchInfo) {
        let ms = i.time.as_millis() as u64;
        let nps = i.nodes * 1000 / ms.max(1);
        self.0.send(&EngineLine::Info(Info {
            depth: Some(i.depth),
            seldepth: Some(i.seldepth),
            multipv: i.multipv,
            score: Some(i.score),
            nodes: Some(i.nodes),
            nps: Some(nps),
            hashfull: i.hashfull,
            time: Some(ms),
            pv: i.pv.clone(),
            string: None,
        }));
    }

    fn note(&mut self, text: &str) {
        self.0.send(&EngineLine::note(text));
    }
}

/// A search in progress on its own thread.
struct RunningSearch {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// Cleared by the search thread just before it prints `bestmove`.
    active: Arc<AtomicBool>,
}

/// The engine behind the protocol: every game's session, the engine-wide options and
/// the search in progress.
pub struct Engine {
    out: Output,
    /// One session per game of the registry, in registry order.
    sessions: Vec<Box<dyn Session>>,
    current: usize,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    overhead: Duration,
    search: Option<RunningSearch>,
    /// Whether `ugi` lists the searches' tuning knobs.
    show_tuning: bool,
}

impl Engine {
    /// An engine playing the first game with default options, writing to `out`.
    pub fn new(out: Output) -> Engine {
        let hash_mb = options::DEFAULT_HASH_MB as usize;
        let sessions: Vec<Box<dyn Session>> = registry().iter().map(|g| (g.make)(1)).collect();
        let mut engine = Engine {
            out,
            sessions,
            current: 0,
            hash_mb,
            threads: 1,
            multipv: 1,
            overhead: Duration::from_millis(options::DEFAULT_OVERHEAD_MS as u64),
            search: None,
            show_tuning: false,
        };
        engine.session().set_hash_mb(hash_mb);
        engine
    }

    fn session(&mut self) -> &mut dyn Session {
        self.sessions[self.current].as_mut()
    }

    fn send(&self, line: EngineLine) {
        self.out.send(&line);
    }

    fn error(&self, text: impl std::fmt::Display) {
        self.send(EngineLine::error(text));
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::debug!("<< {line}");
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match parse_command(line) {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                self.error(e);
                Flow::Continue
            }
        }
    }

    /// True while a search runs; reaps a finished search thread.
    fn searching(&mut self) -> bool {
        if let Some(s) = &self.search {
            if s.active.load(Ordering::Acquire) {
                return true;
            }
            if let Some(s) = self.search.take() {
                let _ = s.handle.join();
            }
        }
        false
    }

    /// Raises `stop` and waits until the search has printed its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::Relaxed);
            if s.handle.join().is_err() {
                log::error!("the search thread panicked");
            }
        }
    }

    /// Handles one parsed command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        let changes_state = matches!(
            cmd,
            Command::SetOption { .. }
                | Command::NewGame
                | Command::Position { .. }
                | Command::Go(_)
        );
        if changes_state && self.searching() {
            self.error(format!("'{cmd}' refused: a search is running (send stop first)"));
            return Flow::Continue;
        }
        match cmd {
            Command::Ugi => self.identify(EngineLine::UgiOk),
            Command::Uci => self.identify(EngineLine::UciOk),
            Command::IsReady => self.send(EngineLine::ReadyOk),
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    self.error(e);
                }
            }
            Command::NewGame => self.session().new_game(),
            Command::Position { fen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.session().set_position(fen.as_deref(), &moves) {
                    self.error(e);
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop_search(),
            Command::Query(q) => self.query(q),
            Command::Display => self.display(),
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn identify(&mut self, ok: EngineLine) {
        self.send(EngineLine::IdName(format!("ugine {}", env!("CARGO_PKG_VERSION"))));
        self.send(EngineLine::IdAuthor("the ugine developers".into()));
        for spec in self.option_specs(self.show_tuning) {
            self.send(EngineLine::Option(describe(&spec)));
        }
        self.send(ok);
    }

    /// Announces the searches' tuning knobs too from now on (`ugine --tuning-options`,
    /// for SPSA and scripts); without it `ugi` lists only the options a user sets.
    pub fn show_tuning_options(&mut self) {
        self.show_tuning = true;
    }

    /// The engine-wide options, every game's rule options and search options, then with
    /// `tuning` the searches' tuning knobs.
    fn option_specs(&self, tuning: bool) -> Vec<OptionSpec> {
        let mut specs = engine_option_specs();
        for s in &self.sessions {
            specs.extend(s.rule_option_specs());
        }
        for s in &self.sessions {
            specs.extend(s.search_option_specs());
        }
        if tuning {
            for s in &self.sessions {
                specs.extend(s.tuning_option_specs());
            }
        }
        specs
    }

    /// Sets an option by name (case-insensitive), as `setoption` does. On error nothing
    /// changes.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let spec = self
            .option_specs(true)
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown option '{}'", truncate(name)))?;
        let value = value.ok_or_else(|| format!("option '{}' needs a value", spec.name))?;
        let parsed = spec.parse_value(value)?;
        match (spec.name, &parsed) {
            (GAME, OptionValue::Text(game)) => self.select_game(game),
            (HASH, OptionValue::Int(mb)) => {
                self.hash_mb = *mb as usize;
                self.session().set_hash_mb(*mb as usize);
                Ok(())
            }
            (THREADS, OptionValue::Int(n)) => {
                self.threads = *n as usize;
                self.session().set_threads(*n as usize);
                Ok(())
            }
            (MULTI_PV, OptionValue::Int(n)) => {
                self.multipv = *n as usize;
                self.session().set_multipv(*n as usize);
                Ok(())
            }
            (MOVE_OVERHEAD, OptionValue::Int(ms)) => {
                self.overhead = Duration::from_millis(*ms as u64);
                Ok(())
            }
            (name, value) => {
                let owns = |specs: Vec<OptionSpec>| specs.iter().any(|o| o.name == name);
                let owner = self
                    .sessions
                    .iter_mut()
                    .find(|s| {
                        owns(s.rule_option_specs())
                            || owns(s.search_option_specs())
                            || owns(s.tuning_option_specs())
                    })
                    .ok_or_else(|| format!("unknown option '{name}'"))?;
                if owns(owner.rule_option_specs()) {
                    owner.set_rule_option(name, value)
                } else {
                    owner.set_search_option(name, value)
                }
            }
        }
    }

    fn select_game(&mut self, game: &str) -> Result<(), String> {
        let index = registry()
            .iter()
            .position(|g| g.name == game)
            .ok_or_else(|| format!("unknown game '{game}'"))?;
        if index != self.current {
            // Give the old game's memory back; the new one gets the configured table.
            self.session().set_hash_mb(1);
            self.current = index;
            let (mb, threads, multipv) = (self.hash_mb, self.threads, self.multipv);
            let s = self.session();
            s.set_hash_mb(mb);
            s.set_threads(threads);
            s.set_multipv(multipv);
            s.new_game();
        }
        Ok(())
    }

    fn go(&mut self, go: GoCommand) {
        if let Some(depth) = go.perft {
            let divide = self.session().perft_divide(depth);
            let mut total = 0;
            for (mv, n) in divide {
                self.send(EngineLine::Other(format!("{mv}: {n}")));
                total += n;
            }
            self.send(EngineLine::Other(format!("Nodes searched: {total}")));
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let active = Arc::new(AtomicBool::new(true));
        let out = self.out.clone();
        let done_active = Arc::clone(&active);
        let done = Box::new(move |mv: String| {
            done_active.store(false, Ordering::Release);
            out.send(&EngineLine::BestMove { mv, extra: Vec::new() });
        });
        let reporter = Box::new(InfoReporter(self.out.clone()));
        let overhead = self.overhead;
        match self.session().start_search(go.limits, overhead, Arc::clone(&stop), reporter, done) {
            Ok(handle) => self.search = Some(RunningSearch { handle, stop, active }),
            Err(e) => {
                self.error(e);
                self.send(EngineLine::BestMove { mv: "(none)".into(), extra: Vec::new() });
            }
        }
    }

    fn query(&mut self, q: Query) {
        let outcome = self.session().outcome();
        let answer = match q {
            Query::GameOver => outcome.is_some().to_string(),
            Query::P1Turn => (self.session().side_to_move() == Side::P1).to_string(),
            Query::Result => outcome.map_or("none", |o| o.as_str()).to_string(),
        };
        self.send(EngineLine::Response(answer));
    }

    fn display(&mut self) {
        let s = self.session();
        let board = s.render();
        let fen = s.fen();
        let side = s.side_to_move().as_str();
        let state = match s.outcome() {
            Some(o) => format!("over, {}", o.as_str()),
            None => format!("in progress, {} legal moves", s.legal_moves().len()),
        };
        let game = s.game_name();
        self.out.send_text(&board);
        self.send(EngineLine::Other(format!("Game: {game}")));
        self.send(EngineLine::Other(format!("Position: {fen}")));
        self.send(EngineLine::Other(format!("Side to move: {side}")));
        self.send(EngineLine::Other(format!("State: {state}")));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_search();
    }
}
