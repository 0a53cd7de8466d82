//! `ugine relabel`: the positions of `datagen` data scored again by a deeper search.
//! Each line keeps its position, side and result; the score becomes that of a search of
//! `nodes` nodes with fresh tables (so a line's new score depends only on the line and
//! the settings). Lines labelled exactly by a solver (`| exact`) and comments are kept
//! as they are: a search does not improve on an exact value.

use anyhow::{Context, bail};

use super::datagen::format_line;
use crate::core::Outcome;
use crate::engine::{Session, search_nodes};
use crate::search::Score;

/// One line after [`relabel_line`].
#[derive(Debug, PartialEq, Eq)]
pub struct Relabelled {
    /// The line to write.
    pub line: String,
    /// True when its position was searched again (not a comment, not an exact line).
    pub searched: bool,
    /// The score before and after, when both are scores rather than mates.
    pub cp_scores: Option<(i32, i32)>,
}

/// The line with its score replaced by a `nodes`-node search of its position.
pub fn relabel_line(
    session: &mut dyn Session,
    line: &str,
    nodes: u64,
) -> anyhow::Result<Relabelled> {
    let kept = || Relabelled { line: line.to_string(), searched: false, cp_scores: None };
    if line.starts_with('#') {
        if line.trim_start_matches('#').trim_start().starts_with("option ") {
            bail!("'{line}': give rule options with --option (a file's own options are not read)");
        }
        return Ok(kept());
    }
    let fields: Vec<&str> = line.split(" | ").collect();
    let (fen, side, old, result) = match fields[..] {
        [_, _, _, _, exact] if exact.trim() == "exact" => return Ok(kept()),
        [fen, side, score, result] => (fen, side.trim(), score.trim(), result.trim()),
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
    let cp_scores = match (old.parse::<i32>(), score) {
        (Ok(old), Score::Cp(new)) => Some((old, new)),
        _ => None,
    };
    let line = format_line(fen, session.side_to_move(), score, result);
    Ok(Relabelled { line, searched: true, cp_scores })
}

/// What a relabelling changed, summed line by line ([`ChangeSummary::add`]).
#[derive(Debug, Default)]
pub struct ChangeSummary {
    searched: usize,
    kept: usize,
    compared: usize,
    total_change: u64,
    moved_100: usize,
    sign_changes: usize,
}

impl ChangeSummary {
    /// Counts one line.
    pub fn add(&mut self, r: &Relabelled) {
        if !r.searched {
            self.kept += 1;
            return;
        }
        self.searched += 1;
        if let Some((old, new)) = r.cp_scores {
            self.compared += 1;
            self.total_change += old.abs_diff(new) as u64;
            self.moved_100 += usize::from(old.abs_diff(new) >= 100);
            self.sign_changes += usize::from((old > 30 && new < -30) || (old < -30 && new > 30));
        }
    }
}

/// One line for the end of a run, e.g. `50 positions searched again, 0 lines kept as
/// they were; of 50 scores, the mean change 9.2, 0 moved by 100 or more, 0 changed sign
/// beyond ±30` (mates are not compared).
impl std::fmt::Display for ChangeSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} positions searched again, {} lines kept as they were",
            self.searched, self.kept
        )?;
        if self.compared > 0 {
            write!(
                f,
                "; of {} scores, the mean change {:.1}, {} moved by 100 or more, {} changed sign beyond ±30",
                self.compared,
                self.total_change as f64 / self.compared as f64,
                self.moved_100,
                self.sign_changes
            )?;
        }
        Ok(())
    }
}
