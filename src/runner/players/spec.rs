//! How to run one engine of a match: its program or built-in baseline, options and
//! its own limits, from config-file keys or command-line `key=value` tokens.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::core::words::{
    format_duration, parse_duration, parse_num, parse_option, parse_positive,
};
use crate::runner::players::process::EngineCommand;

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
    /// This engine's settings that decide its games, as `key=value` words joined by `;`
    /// in the spelling of `--engine` (`proto=uci;arg=-x;option.Hash=16;depth=3`), without
    /// the program and directory, which may differ between the machines of a cluster.
    /// Empty for an engine with none.
    pub fn settings_words(&self) -> String {
        let mut words = Vec::new();
        if self.uci {
            words.push("proto=uci".to_string());
        }
        words.extend(self.args.iter().map(|a| format!("arg={a}")));
        words.extend(self.options.iter().map(|(k, v)| format!("option.{k}={v}")));
        if let Some(s) = self.seed {
            words.push(format!("seed={s}"));
        }
        if let Some(d) = self.depth {
            words.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            words.push(format!("nodes={n}"));
        }
        if let Some(t) = self.movetime {
            words.push(format!("movetime={}", format_duration(t)));
        }
        words.join(";")
    }

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
            "depth" => self.depth = Some(parse_positive(key, value)?),
            "nodes" => self.nodes = Some(parse_positive(key, value)?),
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

    /// Completes an engine read key by key: a built-in baseline by its name, the name
    /// from the program when missing, and a check of the name.
    pub fn finish(mut self) -> Result<EngineSpec, String> {
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
