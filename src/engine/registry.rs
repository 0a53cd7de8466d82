//! The list of games the engine knows, in the order of the `Game` option.

use super::session::{GameSession, Session};
use crate::core::{Game, Limits};
use crate::games::mabula::{Mabula, MabulaSearch};
use crate::games::mobius::{Mcts, MctsParams, Mobius};
use crate::games::moebius_chess::MoebiusChess;
use crate::games::morpiae::Morpiae;
use crate::games::morris::{Morris, MorrisSearch};
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
            make: |mb| Box::new(GameSession::<Morris, _>::new(MorrisSearch::new(mb))),
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
            make: |mb| Box::new(GameSession::<Mabula, _>::new(MabulaSearch::new(mb))),
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

/// Code generic over [`Game`] run for a game chosen by name at run time (the runner's
/// built-in baselines, self-play): [`visit_game`] calls [`GameVisitor::visit`] with the
/// game's type.
pub trait GameVisitor {
    type Output;
    /// Runs with `G`, the type of the game asked for.
    fn visit<G: Game>(self) -> Self::Output;
}

/// Calls `v.visit::<G>()` for the game called `name` (case-insensitive), `None` for an
/// unknown game. Lists the same games as [`registry`].
pub fn visit_game<V: GameVisitor>(name: &str, v: V) -> Option<V::Output> {
    Some(match name.to_ascii_lowercase().as_str() {
        "morris" => v.visit::<Morris>(),
        "moebius-chess" => v.visit::<MoebiusChess>(),
        "mobius" => v.visit::<Mobius>(),
        "mabula" => v.visit::<Mabula>(),
        "morpiae" => v.visit::<Morpiae>(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;

    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn every_registered_game_is_visited_with_its_own_type() {
        for entry in registry() {
            assert_eq!(visit_game(entry.name, Name), Some(entry.name));
        }
        assert_eq!(visit_game("chess", Name), None);
    }
}
