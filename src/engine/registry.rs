//! The list of games the engine knows, in the order of the `Game` option.

use super::session::{GameSession, Session};
use crate::core::{Game, Limits};
use crate::games::mabula::{Mabula, MabulaSearch};
use crate::games::mobius::{MCTS_PARAMS, Mcts, Mobius};
use crate::games::moebius_chess::{self, MoebiusChess};
use crate::games::morpiae::{self, Morpiae};
use crate::games::morris::{Morris, MorrisSearch};
use crate::search::NetAlphaBeta;

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

/// The one list of games, in the order of the `Game` option: for each, its type, how
/// to make its session, and its bench limit. [`registry`], [`visit_game`] and
/// [`GAME_NAMES`] are all generated from it. Adding a game: one line here
/// (ARCHITECTURE.md, "Adding a game").
macro_rules! games {
    ($($game:ident in $module:ident => make: $make:expr, bench: $limits:expr;)*) => {
        /// The `Game` option's values (each game's [`Game::NAME`]), in registry order.
        pub const GAME_NAMES: &[&str] = &[$(<$game as Game>::NAME),*];

        /// Every game of the engine.
        pub fn registry() -> Vec<GameEntry> {
            vec![$(GameEntry {
                name: <$game as Game>::NAME,
                make: $make,
                bench_positions: &crate::games::$module::BENCH_POSITIONS,
                bench_limits: $limits,
            }),*]
        }

        /// Calls `v.visit::<G>()` for the game called `name` (case-insensitive), `None`
        /// for an unknown game.
        pub fn visit_game<V: GameVisitor>(name: &str, v: V) -> Option<V::Output> {
            $(if name.eq_ignore_ascii_case(<$game as Game>::NAME) {
                return Some(v.visit::<$game>());
            })*
            None
        }
    };
}

games! {
    Morris in morris =>
        make: |mb| Box::new(GameSession::<Morris, _>::new(MorrisSearch::new(mb))),
        bench: || Limits::depth(9);
    MoebiusChess in moebius_chess =>
        make: |mb| Box::new(GameSession::<MoebiusChess, _>::new(NetAlphaBeta::new(
            mb,
            moebius_chess::NETWORK_OPTIONS,
        ))),
        bench: || Limits::depth(7);
    Mobius in mobius =>
        make: |mb| Box::new(GameSession::<Mobius, _>::new(Mcts::new(mb, MCTS_PARAMS))),
        bench: || Limits::nodes(20_000);
    Mabula in mabula =>
        make: |mb| Box::new(GameSession::<Mabula, _>::new(MabulaSearch::new(mb))),
        bench: || Limits::depth(5);
    Morpiae in morpiae =>
        make: |mb| Box::new(GameSession::<Morpiae, _>::new(NetAlphaBeta::new(mb, morpiae::NETWORK_OPTIONS))),
        bench: || Limits::depth(8);
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
