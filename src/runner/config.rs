//! The settings of a match, from a config file and the command line (the same keys).
//!
//! The config file is line-based: `key value`, `#` starts a comment line, blank lines are
//! ignored. Match settings come first; `engine <name>` starts an engine block, and the
//! lines after it (`cmd`, `arg`, `dir`, `proto`, `seed`, `option`) describe that engine
//! until the next `engine` line. See `docs/runner.md` and `scripts/match.example.conf`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use super::play::TimeControl;
use super::process::{Deadlines, EngineCommand};
use super::shard::Shard;
use super::stats::Sprt;

/// The built-in uniform random mover's program name.
pub const RANDOM: &str = "random";
/// The built-in plain Monte Carlo tree search's program name (see [`super::uct`]).
pub const UCT: &str = "uct";

/// How to run one engine of the match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// Unique name in the match (records and statistics use it).
    pub name: String,
    /// Program to run, or [`RANDOM`] or [`UCT`] for a built-in baseline.
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `setoption` values for this engine only (after the match-wide ones).
    pub options: Vec<(String, String)>,
    /// Speak UCI's handshake words instead of UGI's.
    pub uci: bool,
    /// Seed of the random mover (the match seed when `None`).
    pub seed: Option<u64>,
    /// This engine's own fixed depth per move, replacing the match's (a shallow baseline).
    pub depth: Option<u32>,
    /// This engine's own fixed nodes per move, replacing the match's.
    pub nodes: Option<u64>,
    /// This engine's own time per move, replacing the match's (time odds).
    pub movetime: Option<Duration>,
}

impl EngineSpec {
    /// True for the built-in random mover.
    pub fn is_random(&self) -> bool {
        self.cmd == RANDOM
    }

    /// True for the built-in `uct` baseline.
    pub fn is_uct(&self) -> bool {
        self.cmd == UCT
    }

    /// How to start this engine (a program, not a built-in baseline): the match-wide
    /// options `before` its own, then `after` (e.g. the values under test of a tuner).
    pub fn command(
        &self,
        before: &[(String, String)],
        after: &[(String, String)],
    ) -> EngineCommand {
        let mut options = before.to_vec();
        options.extend(self.options.iter().cloned());
        options.extend(after.iter().cloned());
        EngineCommand {
            program: self.cmd.clone(),
            args: self.args.clone(),
            dir: self.dir.clone(),
            options,
            uci: self.uci,
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
        }
    }

    /// Applies one engine key (`cmd`, `arg`, `dir`, `proto`, `seed`, `option`, `depth`,
    /// `nodes`, `movetime`).
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "name" => self.name = value.to_string(),
            "cmd" => self.cmd = value.to_string(),
            "arg" => self.args.push(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "proto" => {
                self.uci = match value {
                    "ugi" => false,
                    "uci" => true,
                    _ => return Err(format!("proto must be ugi or uci, not '{value}'")),
                }
            }
            "seed" => self.seed = Some(parse_num(key, value)?),
            "depth" => self.depth = Some(parse_num(key, value)?),
            "nodes" => self.nodes = Some(parse_num(key, value)?),
            "movetime" => self.movetime = Some(parse_duration(value)?),
            "option" => self.options.push(parse_option(value)?),
            _ => return Err(format!("unknown engine key '{key}'")),
        }
        Ok(())
    }

    /// Reads an engine from command-line tokens `key=value` (`name=…`, `cmd=…`,
    /// `arg=…`, `dir=…`, `proto=…`, `seed=…`, `option.<Name>=<value>`). An engine
    /// without `cmd` named `random` or `uct` is that built-in baseline; without `name`,
    /// the name is the program's file name.
    pub fn from_tokens(tokens: &[String]) -> Result<EngineSpec, String> {
        let mut e = EngineSpec::default();
        for t in tokens {
            let Some((k, v)) = t.split_once('=') else {
                return Err(format!("engine setting '{t}' is not key=value"));
            };
            match k.strip_prefix("option.") {
                Some(name) => e.options.push((name.trim().to_string(), v.trim().to_string())),
                None => e.apply(k, v)?,
            }
        }
        e.finish()
    }

    fn finish(mut self) -> Result<EngineSpec, String> {
        if self.cmd.is_empty() {
            if self.name == RANDOM || self.name == UCT {
                self.cmd = self.name.clone();
            } else {
                return Err(format!("engine '{}' has no cmd", self.name));
            }
        }
        if self.name.is_empty() {
            self.name = Path::new(&self.cmd)
                .file_name()
                .map_or(self.cmd.clone(), |f| f.to_string_lossy().into_owned());
        }
        if self.name.contains(['\t', ';', '=']) || self.name.trim() != self.name {
            return Err(format!("engine name '{}' must not contain tabs, ';' or '='", self.name));
        }
        Ok(self)
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Exactly two engines.
    HeadToHead,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

impl Format {
    /// The word of the `format` setting.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::HeadToHead => "headtohead",
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "roundrobin",
        }
    }

    /// Reads a `format` word.
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "headtohead" | "h2h" | "match" => Ok(Format::HeadToHead),
            "gauntlet" => Ok(Format::Gauntlet),
            "roundrobin" | "rr" => Ok(Format::RoundRobin),
            _ => Err(format!("unknown format '{s}'")),
        }
    }
}

/// In which order the openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    /// Shuffled with the match seed.
    Random,
}

/// Everything about a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game's protocol name.
    pub game: String,
    /// Match-wide `setoption` values: sent to every engine (after `Game`), and the rule
    /// options among them set the referee's rules.
    pub options: Vec<(String, String)>,
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    /// Opening rounds per pairing: each round is a pair of games with seats swapped.
    pub rounds: usize,
    pub openings: Option<PathBuf>,
    pub order: Order,
    pub seed: u64,
    pub tc: TimeControl,
    pub deadlines: Deadlines,
    pub concurrency: usize,
    pub records: Option<PathBuf>,
    pub resume: bool,
    /// The part of the match this run plays.
    pub shard: Shard,
    /// Shared record directory: this shard's records go to `shard-K-of-N.ugr` there, and
    /// an SPRT counts the other shards' files too.
    pub record_dir: Option<PathBuf>,
    /// PGN file every finished game is appended to.
    pub pgn: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub max_plies: Option<usize>,
    /// Print no per-game progress line.
    pub quiet: bool,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            game: String::new(),
            options: Vec::new(),
            engines: Vec::new(),
            format: Format::HeadToHead,
            rounds: 1,
            openings: None,
            order: Order::Sequential,
            seed: 1,
            tc: TimeControl::default(),
            deadlines: Deadlines::default(),
            concurrency: 1,
            records: None,
            resume: false,
            shard: Shard::WHOLE,
            record_dir: None,
            pgn: None,
            sprt: None,
            max_plies: None,
            quiet: false,
        }
    }
}

impl MatchConfig {
    /// Applies one match setting `key value` (the keys of the config file and of the
    /// command-line flags).
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        match key {
            "game" => self.game = value.to_string(),
            "option" => self.options.push(parse_option(value)?),
            "format" => self.format = Format::parse(value)?,
            "rounds" => self.rounds = parse_num(key, value)?,
            "openings" => self.openings = Some(PathBuf::from(value)),
            "order" => {
                self.order = match value {
                    "sequential" => Order::Sequential,
                    "random" => Order::Random,
                    _ => return Err(format!("order must be sequential or random, not '{value}'")),
                }
            }
            "seed" => self.seed = parse_num(key, value)?,
            "tc" => self.tc.clock = Some(parse_tc(value)?),
            "movetime" => self.tc.movetime = Some(parse_duration(value)?),
            "depth" => self.tc.depth = Some(parse_num(key, value)?),
            "nodes" => self.tc.nodes = Some(parse_num(key, value)?),
            "margin" => self.tc.margin = parse_duration(value)?,
            "stall" => self.tc.stall = parse_duration(value)?,
            "startup" => self.deadlines.startup = parse_duration(value)?,
            "ready" => self.deadlines.ready = parse_duration(value)?,
            "query" => self.deadlines.query = parse_duration(value)?,
            "concurrency" => self.concurrency = parse_num::<usize>(key, value)?.max(1),
            "records" => self.records = Some(PathBuf::from(value)),
            "resume" => self.resume = parse_bool(value)?,
            "shard" => self.shard = Shard::parse(value)?,
            "record-dir" => self.record_dir = Some(PathBuf::from(value)),
            "pgn" => self.pgn = Some(PathBuf::from(value)),
            "sprt" => self.sprt = Some(parse_sprt(value.split_whitespace())?),
            "max-plies" => self.max_plies = Some(parse_num(key, value)?),
            "quiet" => self.quiet = parse_bool(value)?,
            _ => return Err(format!("unknown match key '{key}'")),
        }
        Ok(())
    }

    /// Reads a config file into `self` (settings already present are overwritten or, for
    /// options and engines, extended).
    pub fn load_file(&mut self, path: &Path) -> anyhow::Result<()> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file {}", path.display()))?;
        let mut engine: Option<EngineSpec> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let value = value.trim();
            let at = || format!("{}:{}", path.display(), i + 1);
            let step = if key == "engine" {
                if let Some(e) = engine.take() {
                    self.engines.push(e.finish().map_err(anyhow::Error::msg).with_context(at)?);
                }
                engine = Some(EngineSpec { name: value.to_string(), ..EngineSpec::default() });
                Ok(())
            } else if let Some(e) = engine.as_mut() {
                e.apply(key, value).map_err(|m| {
                    if self.clone().apply(key, value).is_ok() {
                        format!("match setting '{key}' after an engine block: move it before the first 'engine' line")
                    } else {
                        m
                    }
                })
            } else {
                self.apply(key, value)
            };
            step.map_err(anyhow::Error::msg).with_context(at)?;
        }
        if let Some(e) = engine {
            self.engines.push(e.finish().map_err(anyhow::Error::msg)?);
        }
        Ok(())
    }
}

fn parse_num<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value.trim().parse().map_err(|_| format!("{key} takes a number, not '{value}'"))
}

fn parse_bool(value: &str) -> Result<bool, String> {
    match value {
        "" | "true" | "yes" | "on" => Ok(true),
        "false" | "no" | "off" => Ok(false),
        _ => Err(format!("expected true or false, not '{value}'")),
    }
}

/// `Name=value` (the name may contain spaces).
fn parse_option(s: &str) -> Result<(String, String), String> {
    let (k, v) = s.split_once('=').ok_or_else(|| format!("option '{s}' is not Name=value"))?;
    if k.trim().is_empty() {
        return Err(format!("option '{s}' has no name"));
    }
    Ok((k.trim().to_string(), v.trim().to_string()))
}

/// A duration: `250ms`, `2s`, `1.5` (seconds when there is no unit).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        (s, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(Duration::from_secs_f64(x * scale)),
        _ => Err(format!("bad duration '{s}' (examples: 250ms, 2s, 1.5)")),
    }
}

/// A clock `time+inc` (`10+0.1`, `5s+50ms`) or `time` alone.
pub fn parse_tc(s: &str) -> Result<(Duration, Duration), String> {
    match s.split_once('+') {
        Some((t, i)) => Ok((parse_duration(t)?, parse_duration(i)?)),
        None => Ok((parse_duration(s)?, Duration::ZERO)),
    }
}

/// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; alpha and beta default to 0.05).
pub fn parse_sprt<'a>(words: impl Iterator<Item = &'a str>) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for w in words {
        let (k, v) =
            w.split_once('=').ok_or_else(|| format!("SPRT setting '{w}' is not key=value"))?;
        let x: f64 = parse_num(k, v)?;
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => return Err(format!("unknown SPRT setting '{k}'")),
        }
    }
    match (elo0, elo1) {
        (Some(a), Some(b)) => Sprt::new(a, b, alpha, beta),
        _ => Err("SPRT needs elo0 and elo1".to_string()),
    }
}

/// Splits a line into words at blanks; single or double quotes group words with blanks
/// (`'option.Move Overhead=10'`), a backslash escapes the next character.
pub fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                cur.push(chars.next().ok_or("a backslash ends the line")?);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{s}'"));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}
