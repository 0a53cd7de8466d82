//! The list of games the engine knows, in the order of the `Game` option.

use super::session::{GameSession, Session};
use crate::core::Limits;
use crate::games::mabula::Mabula;
use crate::games::mobius::{Mcts, MctsParams, Mobius};
use crate::games::moebius_chess::MoebiusChess;
use crate::games::morpiae::Morpiae;
use crate::games::morris::Morris;
use crate::search::AlphaBeta;

/// One game of the `Game` option.
pub struct GameEntry {
    /// Protocol name (`setoption name Game value <name>`).
    pub name: &'static str,
    /// Makes a fresh session with default rules and a hash table of `hash_mb` megabytes.
    pub make: fn(hash_mb: usize) -> Box<dyn Session>,
    /// Positions of `ugine bench` (`startpos` or position strings, default rules).
    pub bench_positions: &'static [&'static str],
    /// The fixed limit each bench position is searched to (depth or nodes, never time).
    pub bench_limits: fn() -> Limits,
}

/// Every game of the engine. Adding a game: one entry here (README, "Adding a game").
pub fn registry() -> Vec<GameEntry> {
    vec![
        GameEntry {
            name: "morris",
            make: |mb| Box::new(GameSession::<Morris, _>::new(AlphaBeta::new(mb))),
            bench_positions: &crate::games::morris::BENCH_POSITIONS,
            bench_limits: || Limits::depth(9),
        },
        GameEntry {
            name: "moebius-chess",
            make: |mb| Box::new(GameSession::<MoebiusChess, _>::new(AlphaBeta::new(mb))),
            bench_positions: &crate::games::moebius_chess::BENCH_POSITIONS,
            bench_limits: || Limits::depth(7),
        },
        GameEntry {
            name: "mobius",
            make: |mb| {
                Box::new(GameSession::<Mobius, _>::new(Mcts::new(mb, MctsParams::default())))
            },
            bench_positions: &crate::games::mobius::BENCH_POSITIONS,
            bench_limits: || Limits::nodes(20_000),
        },
        GameEntry {
            name: "mabula",
            make: |mb| Box::new(GameSession::<Mabula, _>::new(AlphaBeta::new(mb))),
            bench_positions: &crate::games::mabula::BENCH_POSITIONS,
            bench_limits: || Limits::depth(5),
        },
        GameEntry {
            name: "morpiae",
            make: |mb| Box::new(GameSession::<Morpiae, _>::new(AlphaBeta::new(mb))),
            bench_positions: &crate::games::morpiae::BENCH_POSITIONS,
            bench_limits: || Limits::depth(8),
        },
    ]
}

/// The entry of the game called `name` (case-insensitive).
pub fn find_game(name: &str) -> Option<GameEntry> {
    registry().into_iter().find(|g| g.name.eq_ignore_ascii_case(name))
}
