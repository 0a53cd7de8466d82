//! Analysis mode: an engine analyses the position the page shows, again and again until
//! the page shows another, reporting several best lines (`MultiPV`). Its reports go to
//! the page as `analysis` messages (the page draws them as arrows with their scores and
//! as points of the evaluation graph).

use std::sync::mpsc::Sender;
use std::time::Duration;

use super::seat::{Seat, SeatEvent};
use crate::core::Limits;
use crate::runner::players::spec::EngineSpec;
use crate::runner::records::opening::Opening;

/// The seat index of the analysing engine in its [`SeatEvent`]s (0 and 1 are the players).
pub const SIDE: usize = 2;
/// The most lines a page may ask for.
pub const MAX_LINES: u32 = 8;
/// One search; when it ends the same position is searched again (the engine keeps its
/// hash table, so the next search goes deeper).
const SEARCH: Duration = Duration::from_secs(30);
/// How long past `SEARCH` the engine may stay silent.
const GRACE: Duration = Duration::from_secs(5);

/// What the page asked to be analysed, and by whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub engine: String,
    pub lines: u32,
    /// The position: after this many moves of the table's game.
    pub ply: usize,
}

/// A running analysis.
pub struct Analyst {
    seat: Seat,
    request: Request,
    ticket: u64,
}

impl Analyst {
    /// Starts engine `spec` with `MultiPV` = `request.lines` on the rule options of
    /// `game`; events go to `events`, wrapped by `wrap`.
    pub fn new<E: Send + 'static>(
        spec: &EngineSpec,
        request: Request,
        game: &str,
        options: &[(String, String)],
        events: Sender<E>,
        wrap: fn(SeatEvent) -> E,
    ) -> Analyst {
        let mut spec = spec.clone();
        spec.options.push(("MultiPV".to_string(), request.lines.to_string()));
        let seat = Seat::new(&spec, SIDE, game, options, events, wrap);
        Analyst { seat, request, ticket: 0 }
    }

    /// True when this analyst serves `request` (engine and lines; the position may move).
    pub fn serves(&self, request: &Request) -> bool {
        self.request.engine == request.engine && self.request.lines == request.lines
    }

    /// The position analysed: after this many moves.
    pub fn ply(&self) -> usize {
        self.request.ply
    }

    /// Analyses `position` (after `ply` moves), leaving the search before at once.
    pub fn go(&mut self, ply: usize, position: Opening) {
        self.seat.interrupt();
        self.request.ply = ply;
        self.ticket += 1;
        self.seat.go(self.ticket, position, Limits::movetime(SEARCH), SEARCH + GRACE);
    }

    /// True when `ticket` answers the current search.
    pub fn is_current(&self, ticket: u64) -> bool {
        ticket == self.ticket
    }
}
