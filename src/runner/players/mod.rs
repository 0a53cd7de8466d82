//! The players of a match, behind one trait so the play loop can be tested with fakes:
//! engine processes ([`process::ProcessPlayer`]), the built-in uniform random mover
//! ([`RandomPlayer`]) and the built-in plain MCTS ([`uct_player::UctPlayer`]).

pub mod process;
pub mod spec;
pub mod uct;
pub mod uct_player;
pub mod wire;

use std::fmt;
use std::time::Duration;

use crate::core::{Limits, Rng};
use crate::engine::Session;
use crate::runner::records::opening::Opening;
use crate::runner::records::record::Eval;
use crate::runner::schedule::GameId;

/// What went wrong with a player. After any error the play loop calls
/// [`Player::reset`], so the next game starts from a fresh engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The engine exited, closed its pipes or could not be started.
    Disconnected(String),
    /// The engine did not answer before the deadline.
    Timeout(String),
    /// The engine answered something the runner cannot use.
    Protocol(String),
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Disconnected(s) => write!(f, "disconnected: {s}"),
            PlayerError::Timeout(s) => write!(f, "no answer in time: {s}"),
            PlayerError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

/// The answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReply {
    /// The tokens after `bestmove` (the move first; anything after it, such as
    /// `ponder x`, is kept so the referee can flag it). Empty for a bare `bestmove`.
    pub tokens: Vec<String>,
    /// Time from sending `go` to reading `bestmove`, as measured by the player.
    pub elapsed: Duration,
    /// The score and depth of the engine's last `info` line before the move, if any.
    pub eval: Option<Eval>,
}

/// The end-of-game questions the referee asks every engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndQuery {
    /// `query gameover`: expected `response true`.
    GameOver,
    /// `query result`: expected `response p1win|p2win|draw`.
    Result,
}

/// One side of a game. Positions are the whole game every ply: the start position
/// (`fen: None` for `startpos`) and every move since, as an [`Opening`] value.
pub trait Player: Send {
    /// The engine's name in the match.
    fn name(&self) -> &str;
    /// The engine's own time per move (`movetime=` of its spec), which [`Player::go`]
    /// sends in place of the match's and the referee checks instead; `None` (the
    /// default): the match's.
    fn own_movetime(&self) -> Option<Duration> {
        None
    }
    /// Gets ready for game `id`, starting (or restarting) the engine if needed.
    fn new_game(&mut self, id: GameId) -> Result<(), PlayerError>;
    /// Asks for a move in `position` under `limits`, waiting at most `deadline`.
    fn go(
        &mut self,
        position: &Opening,
        limits: &Limits,
        deadline: Duration,
    ) -> Result<MoveReply, PlayerError>;
    /// Sets `position` and asks `query`; returns the word after `response`.
    fn query(&mut self, position: &Opening, query: EndQuery) -> Result<String, PlayerError>;
    /// Forgets a player whose state is unknown after an error (kills an engine process;
    /// the next [`Player::new_game`] starts a new one).
    fn reset(&mut self);
}

/// The built-in baseline: a uniform random legal mover. Its move depends only on its
/// seed, the game's id and the position, so games are reproducible whatever the
/// scheduling, and differ from game to game.
pub struct RandomPlayer {
    name: String,
    session: Box<dyn Session>,
    seed: u64,
    /// Mixed into the seed: a hash of the current game's id.
    game: u64,
}

impl RandomPlayer {
    /// A random mover named `name` playing with the rules of `session` (already set to
    /// the match's rule options).
    pub fn new(name: &str, session: Box<dyn Session>, seed: u64) -> RandomPlayer {
        RandomPlayer { name: name.to_string(), session, seed, game: 0 }
    }

    fn set(&mut self, position: &Opening) -> Result<(), PlayerError> {
        let moves: Vec<&str> = position.moves.iter().map(String::as_str).collect();
        self.session.set_position(position.fen.as_deref(), &moves).map_err(PlayerError::Protocol)
    }
}

/// FNV-1a: a small stable hash (the standard library's hasher may change between
/// releases, which would change the random player's games).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, id: GameId) -> Result<(), PlayerError> {
        self.game = fnv1a(id.to_string().as_bytes());
        Ok(())
    }

    fn go(
        &mut self,
        position: &Opening,
        _: &Limits,
        _: Duration,
    ) -> Result<MoveReply, PlayerError> {
        self.set(position)?;
        let legal = self.session.legal_moves();
        if legal.is_empty() {
            return Ok(MoveReply { tokens: Vec::new(), elapsed: Duration::ZERO, eval: None });
        }
        let mut rng = Rng::new(self.seed ^ self.game ^ fnv1a(position.to_string().as_bytes()));
        let tokens = vec![rng.choose(&legal).clone()];
        Ok(MoveReply { tokens, elapsed: Duration::ZERO, eval: None })
    }

    fn query(&mut self, position: &Opening, query: EndQuery) -> Result<String, PlayerError> {
        self.set(position)?;
        Ok(answer_query(self.session.as_ref(), query))
    }

    fn reset(&mut self) {}
}

/// A built-in player's answer to `query` in the session's current position.
pub fn answer_query(session: &dyn Session, query: EndQuery) -> String {
    let outcome = session.outcome();
    match query {
        EndQuery::GameOver => outcome.is_some().to_string(),
        EndQuery::Result => outcome.map_or("none", |o| o.as_str()).to_string(),
    }
}
