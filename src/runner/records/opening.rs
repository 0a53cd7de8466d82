//! Openings: start positions or short opening lines a match plays from, read from a file
//! (one per line) or written by `ugine genfens`.
//!
//! A line is one of
//! - `startpos` or `startpos moves m1 m2 …`
//! - `fen <position string>` or `fen <position string> moves m1 m2 …`
//! - a bare position string (optionally followed by `moves …`)
//!
//! Blank lines and lines whose first non-blank character is `#` are ignored.

use std::fmt;
use std::path::Path;

use anyhow::{Context, bail};

use crate::core::Rng;
use crate::engine::Session;

/// One start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The position string, `None` for the game's start position.
    pub fen: Option<String>,
    /// Moves from that position, in notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The game's start position with no moves.
    pub fn startpos() -> Opening {
        Opening { fen: None, moves: Vec::new() }
    }

    /// Reads one opening line (see the module doc). Errors on an empty line or an empty
    /// position string; legality is checked separately by [`Opening::check`].
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        let (head, moves) = match line.find(" moves") {
            Some(i) if line[i + 6..].is_empty() || line[i + 6..].starts_with(' ') => {
                (line[..i].trim(), line[i + 6..].split_whitespace().map(String::from).collect())
            }
            _ => (line, Vec::new()),
        };
        let head = head.trim();
        let fen = if head == "startpos" {
            None
        } else if let Some(rest) = head.strip_prefix("fen ") {
            Some(rest.trim().to_string())
        } else if head.is_empty() || head == "fen" {
            return Err(format!("no position in opening line '{line}'"));
        } else {
            Some(head.to_string())
        };
        Ok(Opening { fen, moves })
    }

    /// Sets `referee` to this opening, checking the position string and every move with
    /// the game's rules, and that the game is not already over.
    pub fn check(&self, referee: &mut dyn Session) -> Result<(), String> {
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        referee.set_position(self.fen.as_deref(), &moves)?;
        if let Some(o) = referee.outcome() {
            return Err(format!("the game is already over ({})", o.as_str()));
        }
        Ok(())
    }

    /// This opening followed by `extra` moves: the whole game so far.
    pub fn extended(&self, extra: &[String]) -> Opening {
        let mut moves = self.moves.clone();
        moves.extend(extra.iter().cloned());
        Opening { fen: self.fen.clone(), moves }
    }

    /// The `position …` arguments for this opening followed by `extra` moves:
    /// `startpos moves …` or `fen <string> moves …`.
    pub fn position_args(&self, extra: &[String]) -> String {
        let mut s = match &self.fen {
            None => "startpos".to_string(),
            Some(f) => format!("fen {f}"),
        };
        if !self.moves.is_empty() || !extra.is_empty() {
            s.push_str(" moves");
            for m in self.moves.iter().chain(extra) {
                s.push(' ');
                s.push_str(m);
            }
        }
        s
    }
}

impl fmt::Display for Opening {
    /// The opening as a line of an opening file (reads back with [`Opening::parse`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_args(&[]))
    }
}

/// Reads an opening file; errors name the line.
pub fn load_openings(path: &Path) -> anyhow::Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read opening file {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let o = Opening::parse(t)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{}:{}: bad opening line", path.display(), i + 1))?;
        out.push(o);
    }
    if out.is_empty() {
        bail!("opening file {} has no openings", path.display());
    }
    Ok(out)
}

/// `n` distinct openings for the game of `session` (best effort: after many failed
/// tries duplicates are allowed). With `endgame_men`, random endgame positions with that
/// many men per side (see [`Session::random_endgame_fen`]; the caller checks that the
/// game has them); otherwise `plies` random moves, never ending the game, from a random
/// setup in games that have them (Mabula) and from the start position in the others.
pub fn generate_openings(
    session: &mut dyn Session,
    n: usize,
    plies: usize,
    endgame_men: Option<usize>,
    seed: u64,
) -> Vec<Opening> {
    generate_openings_where(session, n, plies, endgame_men, seed, usize::MAX, |_, _| true)
}

/// The random plies of an opening when the user gives none: `fixed_start` for games with
/// one start position, 0 for games with random setups (the setup is the opening).
pub fn default_plies(session: &dyn Session, fixed_start: usize) -> usize {
    if session.random_setup_fen(&mut Rng::new(0)).is_some() { 0 } else { fixed_start }
}

/// [`generate_openings`] keeping only the candidates for which `keep(session, opening)`
/// is true (the same candidates in the same order, so an always-true `keep` gives the
/// same openings). Gives up after `max_candidates` candidates, returning fewer than `n`.
pub fn generate_openings_where(
    session: &mut dyn Session,
    n: usize,
    plies: usize,
    endgame_men: Option<usize>,
    seed: u64,
    max_candidates: usize,
    mut keep: impl FnMut(&mut dyn Session, &Opening) -> bool,
) -> Vec<Opening> {
    let mut rng = Rng::new(seed);
    let mut out: Vec<Opening> = Vec::with_capacity(n);
    let mut seen = std::collections::HashSet::new();
    let mut tries = 0usize;
    while out.len() < n && tries < max_candidates {
        tries += 1;
        let o = match endgame_men {
            Some(men) => session
                .random_endgame_fen(men, &mut rng)
                .map(|fen| Opening { fen: Some(fen), moves: Vec::new() }),
            None => random_opening(session, plies, &mut rng),
        };
        let Some(o) = o else { continue };
        if (seen.insert(o.clone()) || tries > 100 * n + 1000) && keep(session, &o) {
            out.push(o);
        }
    }
    out
}

/// One random opening, or `None` when the random line ended the game.
fn random_opening(session: &mut dyn Session, plies: usize, rng: &mut Rng) -> Option<Opening> {
    let fen = session.random_setup_fen(rng);
    session.set_position(fen.as_deref(), &[]).ok()?;
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = session.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let mv = rng.choose(&legal).clone();
        session.play_move(&mv).ok()?;
        moves.push(mv);
    }
    session.outcome().is_none().then_some(Opening { fen, moves })
}
