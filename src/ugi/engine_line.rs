//! What an engine prints: typed [`EngineLine`]s, written by the engine through `Display`
//! and read back by the match runner through [`parse_engine_line`].

use std::fmt;

use super::command::tokens as words;
use crate::search::Score;

/// An `info` line. Every field is optional; `string` excludes the others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// `multipv k`: the rank of this line among the best moves (1 = best).
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    pub pv: Vec<String>,
    /// `info string <text>`: free text to the end of the line.
    pub string: Option<String>,
}

/// One output line of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    IdName(String),
    IdAuthor(String),
    /// `option name … type …`, the text after `option `.
    Option(String),
    UgiOk,
    UciOk,
    ReadyOk,
    /// `bestmove <move>`; `extra` holds any further tokens (`ponder x`), which UGI forbids.
    BestMove {
        mv: String,
        extra: Vec<String>,
    },
    Info(Info),
    /// `response <answer>`, the answer to a `query`.
    Response(String),
    /// Anything else (kept verbatim).
    Other(String),
}

impl EngineLine {
    /// `info string <text>`.
    pub fn note(text: impl Into<String>) -> EngineLine {
        EngineLine::Info(Info { string: Some(text.into()), ..Info::default() })
    }

    /// `info string error: <text>`: the answer to every bad input.
    pub fn error(text: impl fmt::Display) -> EngineLine {
        EngineLine::note(format!("error: {text}"))
    }
}

/// The text after the first `n` words of `line`, trimmed.
fn rest_after(line: &str, n: usize) -> String {
    let mut rest = line.trim_start();
    for _ in 0..n {
        rest = rest.trim_start();
        rest = rest.find(char::is_whitespace).map_or("", |i| &rest[i..]);
    }
    rest.trim().to_string()
}

fn parse_info(line: &str, args: &[&str]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    let num = |j: usize| args.get(j).and_then(|w| w.parse::<u64>().ok());
    while i < args.len() {
        match args[i] {
            "string" => {
                info.string = Some(rest_after(line, i + 2));
                break;
            }
            "pv" => {
                info.pv = args[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "score" => {
                let v = args.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                info.score = match (args.get(i + 1), v) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 3;
                continue;
            }
            "depth" => info.depth = num(i + 1).map(|n| n as u32),
            "seldepth" => info.seldepth = num(i + 1).map(|n| n as u32),
            "multipv" => info.multipv = num(i + 1).map(|n| n as u32),
            "nodes" => info.nodes = num(i + 1),
            "nps" => info.nps = num(i + 1),
            "hashfull" => info.hashfull = num(i + 1).map(|n| n as u32),
            "time" => info.time = num(i + 1),
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

/// Reads one engine output line; never fails (unknown lines are [`EngineLine::Other`]).
pub fn parse_engine_line(line: &str) -> EngineLine {
    let w = words(line);
    match w.as_slice() {
        ["ugiok"] => EngineLine::UgiOk,
        ["uciok"] => EngineLine::UciOk,
        ["readyok"] => EngineLine::ReadyOk,
        ["id", "name", ..] => EngineLine::IdName(rest_after(line, 2)),
        ["id", "author", ..] => EngineLine::IdAuthor(rest_after(line, 2)),
        ["option", ..] => EngineLine::Option(rest_after(line, 1)),
        ["bestmove", mv, extra @ ..] => EngineLine::BestMove {
            mv: mv.to_string(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
        },
        ["response", answer] => EngineLine::Response(answer.to_string()),
        ["info", args @ ..] => EngineLine::Info(parse_info(line, args)),
        _ => EngineLine::Other(line.trim_end().to_string()),
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(s) = &self.string {
            return write!(f, " string {s}");
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(d) = self.seldepth {
            write!(f, " seldepth {d}")?;
        }
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        match self.score {
            Some(Score::Cp(v)) => write!(f, " score cp {v}")?,
            Some(Score::Mate(v)) => write!(f, " score mate {v}")?,
            None => {}
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.nps {
            write!(f, " nps {n}")?;
        }
        if let Some(n) = self.hashfull {
            write!(f, " hashfull {n}")?;
        }
        if let Some(n) = self.time {
            write!(f, " time {n}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for EngineLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineLine::IdName(s) => write!(f, "id name {s}"),
            EngineLine::IdAuthor(s) => write!(f, "id author {s}"),
            EngineLine::Option(s) => write!(f, "option {s}"),
            EngineLine::UgiOk => f.write_str("ugiok"),
            EngineLine::UciOk => f.write_str("uciok"),
            EngineLine::ReadyOk => f.write_str("readyok"),
            EngineLine::BestMove { mv, extra } if extra.is_empty() => write!(f, "bestmove {mv}"),
            EngineLine::BestMove { mv, extra } => write!(f, "bestmove {mv} {}", extra.join(" ")),
            EngineLine::Info(info) => info.fmt(f),
            EngineLine::Response(s) => write!(f, "response {s}"),
            EngineLine::Other(s) => f.write_str(s),
        }
    }
}
