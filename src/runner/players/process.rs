//! An engine running as a child process, spoken to over its stdin/stdout.
//!
//! A reader thread forwards every stdout line into a channel; every wait is a
//! `recv_timeout` against a deadline, so a silent engine can never hang the runner. An
//! engine that fails is killed and reaped, and started again for the next game.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::core::Limits;
use crate::runner::players::wire;
use crate::runner::players::wire::Reply;
use crate::runner::players::{EndQuery, MoveReply, Player, PlayerError};
use crate::runner::records::opening::Opening;
use crate::runner::schedule::GameId;

/// How to start an engine and what to tell it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (the runner's when `None`).
    pub dir: Option<PathBuf>,
    /// `setoption` values sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Speak UCI's handshake words (`uci`/`uciok`, `ucinewgame`) instead of UGI's.
    pub uci: bool,
    /// Fixed depth per move for this engine, replacing the match's.
    pub depth: Option<u32>,
    /// Fixed nodes per move for this engine, replacing the match's.
    pub nodes: Option<u64>,
    /// Time per move for this engine, replacing the match's.
    pub movetime: Option<Duration>,
}

/// Deadlines of the waits that are not moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// From start to `ugiok`, and for `readyok` after the options.
    pub startup: Duration,
    /// For `readyok` before each game.
    pub ready: Duration,
    /// For each `response` to an end-of-game query.
    pub query: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            startup: Duration::from_secs(10),
            ready: Duration::from_secs(10),
            query: Duration::from_secs(5),
        }
    }
}

/// A watcher outside the play loop (the GUI): sees every line the engine prints while
/// the player waits, and can make a thinking engine move now.
pub struct Monitor {
    /// Called with every line read from the engine.
    pub on_line: Box<dyn FnMut(&str) + Send>,
    /// When raised during a wait, `stop` is sent to the engine (once) and the flag
    /// lowered; the wait then goes on for the `bestmove` that answers it.
    pub stop: Arc<AtomicBool>,
    /// When raised, every wait ends at once with [`PlayerError::Disconnected`]: the
    /// watcher has gone, and resets or drops the player (which ends the process).
    pub abandon: Arc<AtomicBool>,
}

/// How often a monitored wait looks at [`Monitor::stop`].
const STOP_POLL: Duration = Duration::from_millis(20);

/// One line from the engine, or the end of its output.
enum Line {
    Text(String),
    Closed,
}

/// A started engine process.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
}

impl Running {
    fn kill(mut self) {
        // Errors here mean the process is already gone; wait() reaps it either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An engine process as a [`Player`].
pub struct ProcessPlayer {
    name: String,
    command: EngineCommand,
    deadlines: Deadlines,
    running: Option<Running>,
    monitor: Option<Monitor>,
    /// The `option …` lines of the last handshake (the text after `option`).
    announced: Vec<String>,
    /// While starting: every line the engine printed, for the error of a failed start.
    transcript: Option<Vec<String>>,
}

/// How many of an engine's first lines a failed start quotes.
const TRANSCRIPT_LINES: usize = 8;

impl EngineCommand {
    /// The command line as a person would type it (arguments with blanks quoted).
    pub fn command_line(&self) -> String {
        let quote = |a: &String| {
            if a.is_empty() || a.contains(char::is_whitespace) {
                format!("'{a}'")
            } else {
                a.clone()
            }
        };
        std::iter::once(&self.program).chain(&self.args).map(quote).collect::<Vec<_>>().join(" ")
    }
}

impl ProcessPlayer {
    /// A player that starts `command` when its first game begins.
    pub fn new(name: &str, command: EngineCommand, deadlines: Deadlines) -> ProcessPlayer {
        ProcessPlayer {
            name: name.to_string(),
            command,
            deadlines,
            running: None,
            monitor: None,
            announced: Vec::new(),
            transcript: None,
        }
    }

    /// Starts the engine now and completes its handshake (`ugi` … `ugiok` or `uci` …
    /// `uciok`, the options, `isready` … `readyok`) within the start deadline, as a match
    /// does for every engine before its first game. The error names the engine, its
    /// command line, what went wrong and the first lines the engine printed.
    pub fn check_start(&mut self) -> Result<(), String> {
        self.transcript = Some(Vec::new());
        let started = self.start();
        let printed = self.transcript.take().unwrap_or_default();
        started.map_err(|e| {
            self.reset();
            let printed = if printed.is_empty() {
                "nothing".to_string()
            } else {
                printed.iter().map(|l| format!("\n    {l}")).collect::<String>()
            };
            format!(
                "engine '{}' did not start: {e}\n  command: {}\n  it printed: {printed}",
                self.name,
                self.command.command_line()
            )
        })
    }

    /// The options the engine announced when it last started (`name … type …`).
    pub fn announced_options(&self) -> &[String] {
        &self.announced
    }

    /// The names of the options the engine announced when it last started.
    pub fn announced_names(&self) -> Vec<String> {
        let name = |t: &String| {
            let rest = t.strip_prefix("name ")?;
            Some(rest.split_once(" type ").map_or(rest, |(n, _)| n).trim().to_string())
        };
        self.announced.iter().filter_map(name).collect()
    }

    /// Lets `monitor` watch every wait from now on.
    pub fn set_monitor(&mut self, monitor: Monitor) {
        self.monitor = Some(monitor);
    }

    fn spawn(&self) -> Result<Running, PlayerError> {
        let c = &self.command;
        let mut cmd = Command::new(&c.program);
        cmd.args(&c.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(d) = &c.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| PlayerError::Disconnected(format!("cannot start '{}': {e}", c.program)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(PlayerError::Disconnected("no pipes to the engine".to_string()));
        };
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("engine-{}", self.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(Line::Text(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Line::Closed);
            })
            .map_err(|e| PlayerError::Disconnected(format!("cannot start a reader thread: {e}")))?;
        Ok(Running { child, stdin, lines: rx })
    }

    fn start(&mut self) -> Result<(), PlayerError> {
        let running = self.spawn()?;
        self.running = Some(running);
        let hello = if self.command.uci { "uci" } else { "ugi" };
        self.send(hello)?;
        let deadline = Instant::now() + self.deadlines.startup;
        let mut announced = Vec::new();
        self.wait_for(deadline, &format!("{hello}ok"), |r| match r {
            Reply::Option(text) => {
                announced.push(text.clone());
                false
            }
            r => matches!(r, Reply::HandshakeOk),
        })?;
        self.announced = announced;
        for (k, v) in self.command.options.clone() {
            self.send(&wire::setoption(&k, &v))?;
        }
        self.send("isready")?;
        let deadline = Instant::now() + self.deadlines.startup;
        self.wait_for(deadline, "readyok", |r| matches!(r, Reply::ReadyOk))?;
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let Some(r) = self.running.as_mut() else {
            return Err(PlayerError::Disconnected("the engine is not running".to_string()));
        };
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        r.stdin
            .write_all(text.as_bytes())
            .and_then(|_| r.stdin.flush())
            .map_err(|e| PlayerError::Disconnected(format!("cannot write to the engine: {e}")))
    }

    /// Reads lines until one satisfies `want`, the deadline passes or the output ends.
    fn wait_for(
        &mut self,
        deadline: Instant,
        what: &str,
        mut want: impl FnMut(&Reply) -> bool,
    ) -> Result<Reply, PlayerError> {
        let Some(r) = self.running.as_mut() else {
            return Err(PlayerError::Disconnected("the engine is not running".to_string()));
        };
        loop {
            if self.monitor.as_ref().is_some_and(|m| m.abandon.load(Ordering::SeqCst)) {
                return Err(PlayerError::Disconnected(format!(
                    "abandoned while waiting for '{what}'"
                )));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = if self.monitor.is_some() { left.min(STOP_POLL) } else { left };
            match r.lines.recv_timeout(slice) {
                Ok(Line::Text(t)) => {
                    if let Some(lines) = self.transcript.as_mut()
                        && lines.len() < TRANSCRIPT_LINES
                    {
                        lines.push(t.clone());
                    }
                    if let Some(m) = self.monitor.as_mut() {
                        (m.on_line)(&t);
                    }
                    let reply = wire::parse_reply(&t);
                    if want(&reply) {
                        return Ok(reply);
                    }
                }
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(PlayerError::Disconnected(format!(
                        "the engine closed its output while the runner waited for '{what}'"
                    )));
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    if self.monitor.as_ref().is_some_and(|m| m.stop.swap(false, Ordering::SeqCst)) {
                        // A failed write shows up as a closed output on the next read.
                        let _ = r.stdin.write_all(b"stop\n").and_then(|_| r.stdin.flush());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(PlayerError::Timeout(format!("waited for '{what}'")));
                }
            }
        }
    }

    /// Drops lines left over from earlier commands (late `info`, …).
    fn drain(&mut self) {
        if let Some(r) = self.running.as_mut() {
            while let Ok(Line::Text(_)) = r.lines.try_recv() {}
        }
    }
}

impl Player for ProcessPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn own_movetime(&self) -> Option<Duration> {
        self.command.movetime
    }

    fn new_game(&mut self, _id: GameId) -> Result<(), PlayerError> {
        if self.running.is_none() {
            self.start()?;
        }
        self.drain();
        self.send(if self.command.uci { "ucinewgame" } else { "uginewgame" })?;
        self.send("isready")?;
        let deadline = Instant::now() + self.deadlines.ready;
        self.wait_for(deadline, "readyok", |r| matches!(r, Reply::ReadyOk)).map(|_| ())
    }

    fn go(
        &mut self,
        position: &Opening,
        limits: &Limits,
        deadline: Duration,
    ) -> Result<MoveReply, PlayerError> {
        self.drain();
        self.send(&wire::position(position))?;
        let mut limits = limits.clone();
        limits.depth = self.command.depth.or(limits.depth);
        limits.nodes = self.command.nodes.or(limits.nodes);
        limits.movetime = self.command.movetime.or(limits.movetime);
        let go = wire::go(&limits);
        let start = Instant::now();
        self.send(&go)?;
        let mut eval = None;
        let reply = self.wait_for(start + deadline, "bestmove", |r| {
            if let Reply::Info(e) = r {
                eval = Some(*e);
            }
            matches!(r, Reply::BestMove(_))
        })?;
        let elapsed = start.elapsed();
        match reply {
            Reply::BestMove(tokens) => Ok(MoveReply { tokens, elapsed, eval }),
            _ => Err(PlayerError::Protocol("unexpected reply".to_string())),
        }
    }

    fn query(&mut self, position: &Opening, query: EndQuery) -> Result<String, PlayerError> {
        self.drain();
        self.send(&wire::position(position))?;
        self.send(&wire::query(query))?;
        let deadline = Instant::now() + self.deadlines.query;
        match self.wait_for(deadline, "response", |r| matches!(r, Reply::Response(_)))? {
            Reply::Response(word) => Ok(word),
            _ => Err(PlayerError::Protocol("unexpected reply".to_string())),
        }
    }

    fn reset(&mut self) {
        if let Some(r) = self.running.take() {
            r.kill();
        }
    }
}

impl Drop for ProcessPlayer {
    /// Asks the engine to quit, gives it a moment, then kills and reaps it.
    fn drop(&mut self) {
        if self.running.is_some() && self.send("quit").is_ok() {
            let deadline = Instant::now() + Duration::from_millis(500);
            if let Some(r) = self.running.as_mut() {
                while Instant::now() < deadline {
                    if matches!(r.child.try_wait(), Ok(Some(_))) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
        self.reset();
    }
}
