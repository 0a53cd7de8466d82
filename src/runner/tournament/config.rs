//! The settings of a match, from a config file and the command line (the same keys).
//!
//! The config file is line-based: `key value`, `#` starts a comment line, blank lines are
//! ignored. Match settings come first; `engine <name>` starts an engine block, and the
//! lines after it (`cmd`, `arg`, `dir`, `proto`, `seed`, `option`) describe that engine
//! until the next `engine` line. See `docs/runner.md` and `scripts/match.example.conf`.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::core::words::{
    parse_bool, parse_duration, parse_num, parse_option, parse_positive, parse_tc,
};
use crate::runner::players::process::Deadlines;
use crate::runner::players::spec::EngineSpec;
use crate::runner::schedule::{Format, Order, Shard};
use crate::runner::stats::sprt::Sprt;
use crate::runner::tournament::game::TimeControl;

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
    /// Keep the live file `<records>.live` (the games in progress) beside the record
    /// file, for `ugine gui --watch`.
    pub live: bool,
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
    /// Stop the match with an error when one engine disconnects (crashes, closes its
    /// pipes, fails to start) in this many of its games in a row; 0: never stop.
    pub disconnect_limit: usize,
    /// True when `stall` was given: a match without any limit per move is then meant
    /// (engines think until the stall deadline) rather than refused.
    pub stall_given: bool,
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
            live: true,
            resume: false,
            shard: Shard::WHOLE,
            record_dir: None,
            pgn: None,
            sprt: None,
            max_plies: None,
            quiet: false,
            disconnect_limit: 3,
            stall_given: false,
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
            "rounds" => self.rounds = parse_positive(key, value)?,
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
            "depth" => self.tc.depth = Some(parse_positive(key, value)?),
            "nodes" => self.tc.nodes = Some(parse_positive(key, value)?),
            "margin" => self.tc.margin = parse_duration(value)?,
            "stall" => {
                self.tc.stall = parse_duration(value)?;
                self.stall_given = true;
            }
            "startup" => self.deadlines.startup = parse_duration(value)?,
            "ready" => self.deadlines.ready = parse_duration(value)?,
            "query" => self.deadlines.query = parse_duration(value)?,
            "concurrency" => self.concurrency = parse_positive(key, value)?,
            "records" => self.records = Some(PathBuf::from(value)),
            "live" => self.live = parse_bool(value)?,
            "resume" => self.resume = parse_bool(value)?,
            "shard" => self.shard = Shard::parse(value)?,
            "record-dir" => self.record_dir = Some(PathBuf::from(value)),
            "pgn" => self.pgn = Some(PathBuf::from(value)),
            "sprt" => self.sprt = Some(Sprt::parse(value.split_whitespace())?),
            "max-plies" => self.max_plies = Some(parse_positive(key, value)?),
            "quiet" => self.quiet = parse_bool(value)?,
            "disconnect-limit" => self.disconnect_limit = parse_num(key, value)?,
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
