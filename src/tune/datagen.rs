//! `ugine datagen`: self-play training data. ugine plays itself from random openings
//! (as `ugine genfens` makes them) at a fixed node count per move, and every position it
//! searched becomes one line of text:
//!
//! ```text
//! <position string> | <side to move: p1|p2> | <score> | <result: p1win|p2win|draw>
//! ```
//!
//! `score` is the search's score from the side to move's point of view in the game's
//! `cp` units, or `#N` / `#-N` for a forced win / loss in N moves; `result` is how the
//! game ended (a game still going after `max_plies` engine moves counts as a draw).
//! Games are written whole and in order, so the output depends only on the settings and
//! the seed, not on `--concurrency` (`crate::cli::datagen` runs the games and writes them).

use crate::core::{Outcome, Side};
use crate::engine::{Session, search_nodes};
use crate::runner::records::opening::Opening;
use crate::search::Score;

/// One searched position of a game, before the result is known.
struct Sample {
    fen: String,
    side: Side,
    score: Score,
}

/// The data line of one position (see the module doc).
pub fn format_line(fen: &str, side: Side, score: Score, result: Outcome) -> String {
    let score = match score {
        Score::Cp(cp) => cp.to_string(),
        Score::Mate(n) => format!("#{n}"),
    };
    format!("{fen} | {} | {score} | {}", side.as_str(), result.as_str())
}

/// Plays one self-play game from `opening`, searching `nodes` per move and counting a
/// game still going after `max_plies` engine moves a draw; returns its data lines.
pub fn play(
    session: &mut dyn Session,
    opening: &Opening,
    nodes: u64,
    max_plies: usize,
) -> anyhow::Result<Vec<String>> {
    session.new_game();
    let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    session.set_position(opening.fen.as_deref(), &moves).map_err(anyhow::Error::msg)?;
    let mut samples = Vec::new();
    let mut result = Outcome::Draw;
    for _ in 0..max_plies {
        if let Some(o) = session.outcome() {
            result = o;
            break;
        }
        let (mv, score) = search_nodes(session, nodes)?;
        if let Some(score) = score {
            samples.push(Sample { fen: session.fen(), side: session.side_to_move(), score });
        }
        session.play_move(&mv).map_err(anyhow::Error::msg)?;
    }
    if let Some(o) = session.outcome() {
        result = o;
    }
    Ok(samples.iter().map(|s| format_line(&s.fen, s.side, s.score, result)).collect())
}
