//! Searches of a [`Session`] to a fixed node count, run to completion on the calling
//! thread's behalf: what self-play data, balanced openings and self-play judgements need.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;

use super::Session;
use crate::core::{Limits, Outcome, Side};
use crate::search::{Reporter, Score, SearchInfo};

/// Keeps the last score a search reported.
struct LastScore(Arc<Mutex<Option<Score>>>);

impl Reporter for LastScore {
    fn info(&mut self, info: &SearchInfo) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(info.score);
    }
}

/// Searches the session's position to `nodes` and returns the best move and the score.
pub fn search_nodes(
    session: &mut dyn Session,
    nodes: u64,
) -> anyhow::Result<(String, Option<Score>)> {
    let score = Arc::new(Mutex::new(None));
    let (tx, rx) = channel();
    let done = Box::new(move |mv: String| {
        let _ = tx.send(mv);
    });
    let handle = session
        .start_search(
            Limits::nodes(nodes),
            Duration::ZERO,
            Arc::new(AtomicBool::new(false)),
            Box::new(LastScore(Arc::clone(&score))),
            done,
        )
        .map_err(anyhow::Error::msg)?;
    let mv = rx.recv().context("the search ended without a move");
    let _ = handle.join();
    let score = *score.lock().unwrap_or_else(|e| e.into_inner());
    Ok((mv?, score))
}

/// Plays the current position of `session` to the end: `mover` searches `nodes[0]`
/// nodes per move, the other side `nodes[1]`, every search with cleared tables (so
/// neither side reuses the other's). The position is back where it was afterwards.
pub fn self_play(
    session: &mut dyn Session,
    mover: Side,
    nodes: [u64; 2],
) -> anyhow::Result<Outcome> {
    let start = session.fen();
    let mut moves: Vec<String> = Vec::new();
    let outcome = loop {
        if let Some(o) = session.outcome() {
            break o;
        }
        let limit = if session.side_to_move() == mover { nodes[0] } else { nodes[1] };
        session.new_game();
        let line: Vec<&str> = moves.iter().map(String::as_str).collect();
        session.set_position(Some(&start), &line).map_err(anyhow::Error::msg)?;
        let (mv, _) = search_nodes(session, limit)?;
        session.play_move(&mv).map_err(anyhow::Error::msg)?;
        moves.push(mv);
    };
    session.set_position(Some(&start), &[]).map_err(anyhow::Error::msg)?;
    Ok(outcome)
}
