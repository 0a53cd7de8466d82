//! The runner's side of the protocol: the lines it sends are [`Command`]s written by
//! their `Display`, the lines it reads go through [`parse_engine_line`].

use crate::core::Limits;
use crate::runner::players::EndQuery;
use crate::runner::records::opening::Opening;
use crate::ugi::{Command, EngineLine, GoCommand, Query, parse_engine_line};

/// The replies the runner waits for; everything else is `Other`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `ugiok` or `uciok`.
    HandshakeOk,
    ReadyOk,
    /// The tokens after `bestmove` (empty for a bare `bestmove`).
    BestMove(Vec<String>),
    /// The word after `response`.
    Response(String),
    /// `option …`: the text after `option` (announced during the handshake).
    Option(String),
    Other,
}

/// Reads one engine line.
pub fn parse_reply(line: &str) -> Reply {
    match parse_engine_line(line) {
        EngineLine::UgiOk | EngineLine::UciOk => Reply::HandshakeOk,
        EngineLine::ReadyOk => Reply::ReadyOk,
        EngineLine::BestMove { mv, extra } => {
            Reply::BestMove(std::iter::once(mv).chain(extra).collect())
        }
        EngineLine::Response(w) => Reply::Response(w),
        EngineLine::Option(text) => Reply::Option(text),
        // A bare `bestmove` is still the end of the search: the referee rejects it.
        EngineLine::Other(t) if t.split_whitespace().eq(["bestmove"]) => {
            Reply::BestMove(Vec::new())
        }
        _ => Reply::Other,
    }
}

/// `setoption name <name> value <value>`.
pub fn setoption(name: &str, value: &str) -> String {
    Command::SetOption { name: name.to_string(), value: Some(value.to_string()) }.to_string()
}

/// `position startpos|fen … [moves …]`.
pub fn position(pos: &Opening) -> String {
    Command::Position { fen: pos.fen.clone(), moves: pos.moves.clone() }.to_string()
}

/// The `go` line for `limits`.
pub fn go(limits: &Limits) -> String {
    Command::Go(GoCommand { limits: limits.clone(), perft: None }).to_string()
}

/// The query line.
pub fn query(q: EndQuery) -> String {
    Command::Query(match q {
        EndQuery::GameOver => Query::GameOver,
        EndQuery::Result => Query::Result,
    })
    .to_string()
}
