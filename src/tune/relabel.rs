//! `ugine relabel`: the positions of `datagen` data scored again by a deeper search.
//! Each line keeps its position, side and result; the score becomes that of a search of
//! `nodes` nodes with fresh tables (so a line's new score depends only on the line and
//! the settings). Lines labelled exactly by a solver (`| exact`) and comments are kept
//! as they are: a search does not improve on an exact value.

use anyhow::{Context, bail};

use super::datagen::format_line;
use crate::core::Outcome;
use crate::engine::{Session, search_nodes};

/// The line with its score replaced by a `nodes`-node search of its position.
pub fn relabel_line(session: &mut dyn Session, line: &str, nodes: u64) -> anyhow::Result<String> {
    if line.starts_with('#') {
        if line.trim_start_matches('#').trim_start().starts_with("option ") {
            bail!("'{line}': give rule options with --option (a file's own options are not read)");
        }
        return Ok(line.to_string());
    }
    let fields: Vec<&str> = line.split(" | ").collect();
    let (fen, side, result) = match fields[..] {
        [_, _, _, _, exact] if exact.trim() == "exact" => return Ok(line.to_string()),
        [fen, side, _score, result] => (fen, side.trim(), result.trim()),
        _ => bail!("expected 'position | side | score | result'"),
    };
    let result = Outcome::parse(result).with_context(|| format!("unknown result '{result}'"))?;
    session.new_game();
    session.set_position(Some(fen), &[]).map_err(anyhow::Error::msg)?;
    let to_move = session.side_to_move().as_str();
    if side != to_move {
        bail!("the line says {side} to move, its position {to_move}");
    }
    if session.outcome().is_some() {
        bail!("the game is over in this position");
    }
    let (_, score) = search_nodes(session, nodes)?;
    let score = score.context("the search reported no score")?;
    Ok(format_line(fen, session.side_to_move(), score, result))
}
