//! The one seam between a search and the world: progress reports.

use std::time::Duration;

/// A search score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units (each game documents its scale in `protocol.md`).
    Cp(i32),
    /// A forced win in this many moves of the side to move (negative: a forced loss).
    Mate(i32),
}

/// One progress report of a search (an `info` line).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// The rank of this line among the best moves (1 = best) when the search reports
    /// several (`MultiPV`); `None` for a single line.
    pub multipv: Option<u32>,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the hash table in use, if the search has one.
    pub hashfull: Option<u32>,
    /// The principal variation in move notation.
    pub pv: Vec<String>,
}

/// Receives what a search has to say. Implemented by the protocol layer, which alone
/// decides how it is printed.
pub trait Reporter: Send {
    /// A new iteration finished (or a better move was found).
    fn info(&mut self, info: &SearchInfo);
    /// A free-form note for the user (`info string …`).
    fn note(&mut self, _text: &str) {}
}

/// A reporter that drops everything: for bench, tests and the match runner's players.
pub struct NullReporter;

impl Reporter for NullReporter {
    fn info(&mut self, _info: &SearchInfo) {}
}

/// What a reporter was told, in order: an `info` or a note.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    Info(SearchInfo),
    Note(String),
}

/// A reporter that keeps everything, to be passed on later ([`Recorder::replay`]): for a
/// search run beside another whose reports only count if its result is used.
#[derive(Default)]
pub struct Recorder {
    pub reports: Vec<Report>,
}

impl Recorder {
    /// Tells `reporter` everything recorded, in order.
    pub fn replay(&self, reporter: &mut dyn Reporter) {
        for report in &self.reports {
            match report {
                Report::Info(info) => reporter.info(info),
                Report::Note(text) => reporter.note(text),
            }
        }
    }
}

impl Reporter for Recorder {
    fn info(&mut self, info: &SearchInfo) {
        self.reports.push(Report::Info(info.clone()));
    }
    fn note(&mut self, text: &str) {
        self.reports.push(Report::Note(text.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorder_passes_on_what_it_was_told_in_order() {
        let info = SearchInfo {
            depth: 3,
            seldepth: 4,
            multipv: None,
            score: Score::Mate(2),
            nodes: 10,
            time: Duration::from_millis(1),
            hashfull: None,
            pv: vec!["a1".into()],
        };
        let mut first = Recorder::default();
        first.note("one");
        first.info(&info);
        first.note("two");
        let mut second = Recorder::default();
        first.replay(&mut second);
        assert_eq!(second.reports, first.reports);
        assert_eq!(first.reports.len(), 3);
        assert_eq!(first.reports[1], Report::Info(info));
    }
}
