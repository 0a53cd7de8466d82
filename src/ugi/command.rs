//! What a GUI or tournament manager sends: text lines parsed (with nom) into typed
//! [`Command`]s, and written back by `Display` (the match runner sends them this way).
//!
//! Parsing only checks syntax; whether a move or position is valid is the game's job.

use std::fmt;
use std::time::Duration;

use nom::bytes::complete::take_till1;
use nom::character::complete::{i64 as signed, multispace0, u32 as unsigned};
use nom::combinator::all_consuming;
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::core::{Limits, Side};

/// A `query` subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
}

/// A `go` command: search limits, or a perft request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    pub limits: Limits,
    /// `go perft <n>`: count leaf nodes instead of searching.
    pub perft: Option<u32>,
}

/// One input line of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi`: identify, list options, answer `ugiok`.
    Ugi,
    /// `uci`: the same, answered with `uciok`.
    Uci,
    IsReady,
    /// `setoption name <name> [value <value>]`; names and values may contain spaces.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    /// `position startpos|fen <string> [moves …]`; `fen: None` is `startpos`.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoCommand),
    Stop,
    Query(Query),
    /// `d`: draw the position.
    Display,
    Quit,
}

/// A line that is not a valid command, with a message for `info string error: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// One whitespace-free token after optional whitespace.
fn token(input: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_till1(char::is_whitespace)).parse(input)
}

/// The whitespace-separated tokens of a line.
pub(crate) fn tokens(input: &str) -> Vec<&str> {
    match all_consuming((many0(token), multispace0)).parse(input) {
        Ok((_, (words, _))) => words,
        Err(_) => Vec::new(),
    }
}

fn parse_u32(word: &str, what: &str) -> Result<u32, ParseError> {
    all_consuming(unsigned).parse(word).map(|(_, n)| n).map_err(
        |_: nom::Err<nom::error::Error<&str>>| {
            ParseError(format!("{what} needs a non-negative integer, not '{word}'"))
        },
    )
}

/// Milliseconds; negative clock values (sent by some GUIs when a clock runs out) count as 0.
fn parse_ms(word: &str, what: &str) -> Result<Duration, ParseError> {
    all_consuming(signed).parse(word).map(|(_, n)| Duration::from_millis(n.max(0) as u64)).map_err(
        |_: nom::Err<nom::error::Error<&str>>| {
            ParseError(format!("{what} needs a number of milliseconds, not '{word}'"))
        },
    )
}

fn parse_u64(word: &str, what: &str) -> Result<u64, ParseError> {
    all_consuming(nom::character::complete::u64).parse(word).map(|(_, n)| n).map_err(
        |_: nom::Err<nom::error::Error<&str>>| {
            ParseError(format!("{what} needs a non-negative integer, not '{word}'"))
        },
    )
}

/// The `go` parameters that take a value, with their UCI synonyms.
enum GoField {
    Time(Side),
    Inc(Side),
    MovesToGo,
    MoveTime,
    Depth,
    Nodes,
    Perft,
}

fn go_field(word: &str) -> Option<GoField> {
    Some(match word {
        "p1time" | "wtime" => GoField::Time(Side::P1),
        "p2time" | "btime" => GoField::Time(Side::P2),
        "p1inc" | "winc" => GoField::Inc(Side::P1),
        "p2inc" | "binc" => GoField::Inc(Side::P2),
        "movestogo" => GoField::MovesToGo,
        "movetime" => GoField::MoveTime,
        "depth" => GoField::Depth,
        "nodes" => GoField::Nodes,
        "perft" => GoField::Perft,
        _ => return None,
    })
}

fn parse_go(args: &[&str]) -> Result<GoCommand, ParseError> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        if word == "infinite" {
            go.limits.infinite = true;
            i += 1;
            continue;
        }
        if word == "searchmoves" {
            // The moves run to the next `go` keyword (or the end of the line), as in UCI.
            let end = args[i + 1..]
                .iter()
                .position(|w| *w == "infinite" || go_field(w).is_some())
                .map_or(args.len(), |n| i + 1 + n);
            if end == i + 1 {
                return Err(ParseError("go: 'searchmoves' needs at least one move".into()));
            }
            go.limits.searchmoves = args[i + 1..end].iter().map(|m| m.to_string()).collect();
            i = end;
            continue;
        }
        let field =
            go_field(word).ok_or_else(|| ParseError(format!("go: unknown parameter '{word}'")))?;
        let value =
            args.get(i + 1).ok_or_else(|| ParseError(format!("go: '{word}' needs a value")))?;
        let what = format!("go {word}");
        let l = &mut go.limits;
        match field {
            GoField::Time(s) => l.time[s.index()] = Some(parse_ms(value, &what)?),
            GoField::Inc(s) => l.inc[s.index()] = Some(parse_ms(value, &what)?),
            GoField::MovesToGo => l.movestogo = Some(parse_u32(value, &what)?.max(1)),
            GoField::MoveTime => l.movetime = Some(parse_ms(value, &what)?),
            GoField::Depth => l.depth = Some(parse_u32(value, &what)?.max(1)),
            GoField::Nodes => l.nodes = Some(parse_u64(value, &what)?.max(1)),
            GoField::Perft => go.perft = Some(parse_u32(value, &what)?),
        }
        i += 2;
    }
    Ok(go)
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let split = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
    let (head, tail) = args.split_at(split);
    let moves: Vec<String> = tail.iter().skip(1).map(|m| m.to_string()).collect();
    let fen = match head {
        ["startpos"] => None,
        ["fen", rest @ ..] if !rest.is_empty() => Some(rest.join(" ")),
        ["fen"] => return Err(ParseError("position fen: the position string is missing".into())),
        [] => return Err(ParseError("position: expected 'startpos' or 'fen <string>'".into())),
        [other, ..] => {
            return Err(ParseError(format!(
                "position: expected 'startpos' or 'fen <string>', not '{other}'"
            )));
        }
    };
    Ok(Command::Position { fen, moves })
}

fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let ["name", rest @ ..] = args else {
        return Err(ParseError("setoption: expected 'setoption name <name> value <value>'".into()));
    };
    let split = rest.iter().position(|&w| w == "value").unwrap_or(rest.len());
    let name = rest[..split].join(" ");
    if name.is_empty() {
        return Err(ParseError("setoption: the option name is missing".into()));
    }
    let value = (split < rest.len()).then(|| rest[split + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn no_args(cmd: Command, word: &str, args: &[&str]) -> Result<Command, ParseError> {
    if args.is_empty() {
        Ok(cmd)
    } else {
        Err(ParseError(format!("'{word}' takes no arguments, got '{}'", args.join(" "))))
    }
}

/// Parses one input line. Empty lines are an error too (the caller may skip them).
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let words = tokens(line);
    let Some((&word, args)) = words.split_first() else {
        return Err(ParseError("empty line".into()));
    };
    match word {
        "ugi" => no_args(Command::Ugi, word, args),
        "uci" => no_args(Command::Uci, word, args),
        "isready" => no_args(Command::IsReady, word, args),
        "uginewgame" | "ucinewgame" => no_args(Command::NewGame, word, args),
        "stop" => no_args(Command::Stop, word, args),
        "quit" => no_args(Command::Quit, word, args),
        "d" => no_args(Command::Display, word, args),
        "setoption" => parse_setoption(args),
        "position" => parse_position(args),
        "go" => parse_go(args).map(Command::Go),
        "query" => match args {
            ["gameover"] => Ok(Command::Query(Query::GameOver)),
            ["p1turn"] => Ok(Command::Query(Query::P1Turn)),
            ["result"] => Ok(Command::Query(Query::Result)),
            _ => Err(ParseError(format!(
                "query: expected gameover, p1turn or result, not '{}'",
                args.join(" ")
            ))),
        },
        _ => Err(ParseError(format!("unknown command '{}'", truncate(word)))),
    }
}

/// At most 40 characters of untrusted input, for error messages.
pub fn truncate(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

impl fmt::Display for GoCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if let Some(n) = self.perft {
            return write!(f, " perft {n}");
        }
        let l = &self.limits;
        let ms = |d: Duration| d.as_millis();
        for (side, word) in [(Side::P1, "p1"), (Side::P2, "p2")] {
            if let Some(t) = l.time[side.index()] {
                write!(f, " {word}time {}", ms(t))?;
            }
        }
        for (side, word) in [(Side::P1, "p1"), (Side::P2, "p2")] {
            if let Some(t) = l.inc[side.index()] {
                write!(f, " {word}inc {}", ms(t))?;
            }
        }
        if let Some(n) = l.movestogo {
            write!(f, " movestogo {n}")?;
        }
        if let Some(t) = l.movetime {
            write!(f, " movetime {}", ms(t))?;
        }
        if let Some(d) = l.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = l.nodes {
            write!(f, " nodes {n}")?;
        }
        if l.infinite {
            f.write_str(" infinite")?;
        }
        if !l.searchmoves.is_empty() {
            write!(f, " searchmoves {}", l.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ugi => f.write_str("ugi"),
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value: Some(v) } => {
                write!(f, "setoption name {name} value {v}")
            }
            Command::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            Command::NewGame => f.write_str("uginewgame"),
            Command::Position { fen, moves } => {
                match fen {
                    None => f.write_str("position startpos")?,
                    Some(s) => write!(f, "position fen {s}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => go.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::Query(Query::GameOver) => f.write_str("query gameover"),
            Command::Query(Query::P1Turn) => f.write_str("query p1turn"),
            Command::Query(Query::Result) => f.write_str("query result"),
            Command::Display => f.write_str("d"),
            Command::Quit => f.write_str("quit"),
        }
    }
}
