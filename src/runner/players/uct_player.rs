//! The built-in `uct` player: the [`crate::runner::players::uct::Uct`] search run in-process on the
//! match's rules, for whichever game the match plays.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::core::{Game, Limits};
use crate::engine::{GameSession, GameVisitor, Session, visit_game};
use crate::runner::players::spec::EngineSpec;
use crate::runner::players::uct::Uct;
use crate::runner::players::{EndQuery, MoveReply, Player, PlayerError, answer_query};
use crate::runner::records::opening::Opening;
use crate::runner::referee::Referee;
use crate::runner::schedule::GameId;
use crate::search::NullReporter;

/// Makes a session of the visited game searched by [`Uct`].
struct MakeUct {
    seed: u64,
}

impl GameVisitor for MakeUct {
    type Output = Box<dyn Session>;
    fn visit<G: Game>(self) -> Box<dyn Session> {
        Box::new(GameSession::<G, _>::new(Uct::<G>::new(self.seed)))
    }
}

/// The `uct` baseline as a match player. Its own `nodes` (simulations) and `movetime`
/// replace the match's; other time limits come from the match.
pub struct UctPlayer {
    name: String,
    session: Box<dyn Session>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
}

impl UctPlayer {
    /// The player of engine `spec` for `game` under the referee's rules.
    pub fn new(
        spec: &EngineSpec,
        game: &str,
        referee: &Referee,
        seed: u64,
    ) -> anyhow::Result<UctPlayer> {
        let mut session =
            visit_game(game, MakeUct { seed }).with_context(|| format!("unknown game '{game}'"))?;
        referee.apply_rules(session.as_mut())?;
        Ok(UctPlayer {
            name: spec.name.clone(),
            session,
            nodes: spec.nodes,
            movetime: spec.movetime,
        })
    }

    fn set(&mut self, position: &Opening) -> Result<(), PlayerError> {
        let moves: Vec<&str> = position.moves.iter().map(String::as_str).collect();
        self.session.set_position(position.fen.as_deref(), &moves).map_err(PlayerError::Protocol)
    }
}

impl Player for UctPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn own_movetime(&self) -> Option<Duration> {
        self.movetime
    }

    fn new_game(&mut self, _id: GameId) -> Result<(), PlayerError> {
        self.session.new_game();
        Ok(())
    }

    fn go(
        &mut self,
        position: &Opening,
        limits: &Limits,
        _deadline: Duration,
    ) -> Result<MoveReply, PlayerError> {
        self.set(position)?;
        let start = Instant::now();
        let mut limits = limits.clone();
        limits.nodes = self.nodes.or(limits.nodes);
        limits.movetime = self.movetime.or(limits.movetime);
        let (tx, rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let done = Box::new(move |mv: String| {
            let _ = tx.send(mv);
        });
        let handle = self
            .session
            .start_search(limits, Duration::ZERO, stop, Box::new(NullReporter), done)
            .map_err(PlayerError::Protocol)?;
        let best = rx.recv().map_err(|_| PlayerError::Disconnected("uct search ended".into()));
        let _ = handle.join();
        Ok(MoveReply { tokens: vec![best?], elapsed: start.elapsed(), eval: None })
    }

    fn query(&mut self, position: &Opening, query: EndQuery) -> Result<String, PlayerError> {
        self.set(position)?;
        Ok(answer_query(self.session.as_ref(), query))
    }

    fn reset(&mut self) {}
}
