//! The runner's side of the protocol text: the lines it sends and the replies it reads.

use super::player::EndQuery;
use crate::core::Limits;

/// The replies the runner waits for; everything else is `Other`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `ugiok` or `uciok`.
    HandshakeOk,
    ReadyOk,
    /// The tokens after `bestmove`.
    BestMove(Vec<String>),
    /// The word after `response`.
    Response(String),
    Other,
}

/// Reads one engine line.
pub fn parse_reply(line: &str) -> Reply {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("ugiok" | "uciok") => Reply::HandshakeOk,
        Some("readyok") => Reply::ReadyOk,
        Some("bestmove") => Reply::BestMove(words.map(String::from).collect()),
        Some("response") => Reply::Response(words.collect::<Vec<_>>().join(" ")),
        _ => Reply::Other,
    }
}

/// `setoption name <name> value <value>`.
pub fn setoption(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

/// The `go` line for `limits`.
pub fn go(limits: &Limits) -> String {
    let mut s = String::from("go");
    let names = [("p1time", "p2time"), ("p1inc", "p2inc")];
    for (vals, (a, b)) in [limits.time, limits.inc].iter().zip(names) {
        for (v, n) in vals.iter().zip([a, b]) {
            if let Some(d) = v {
                s.push_str(&format!(" {n} {}", d.as_millis()));
            }
        }
    }
    if let Some(m) = limits.movetime {
        s.push_str(&format!(" movetime {}", m.as_millis()));
    }
    if let Some(d) = limits.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    s
}

/// The query line.
pub fn query(q: EndQuery) -> &'static str {
    match q {
        EndQuery::GameOver => "query gameover",
        EndQuery::Result => "query result",
    }
}
