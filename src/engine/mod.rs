//! The type-erased seam between the protocol and the games: a [`Session`] holds one
//! game's rule options, current position and search, and speaks only in strings and
//! core types. The registry lists every game the engine knows.

mod fixed_search;
mod registry;
mod session;

pub use fixed_search::{search_nodes, self_play};
pub use registry::{GAME_NAMES, GameEntry, GameVisitor, find_game, registry, visit_game};
pub use session::{GameSession, SearchDone, Session};
