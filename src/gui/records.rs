//! Game records of `ugine match` (`src/runner/record.rs`) in the GUI: a record file read
//! for replay, with the position string of every ply computed by the game's own rules;
//! and a game played in the GUI written as a record line.

use serde_json::{Value, json};

use crate::core::Outcome;
use crate::engine::{Session, find_game};
use crate::runner::records::opening::Opening;
use crate::runner::records::record::{GameRecord, Termination};
use crate::runner::schedule::GameId;

/// Applies rule options (`name`, value text) to `session`. Options that are not rule
/// options of its game (`Hash`, another game's options) are refused when `strict`, else
/// skipped: a match's record lists every option the engines were sent.
pub fn apply_rule_options(
    session: &mut dyn Session,
    options: &[(String, String)],
    strict: bool,
) -> Result<(), String> {
    let specs = session.rule_option_specs();
    for (name, value) in options {
        match specs.iter().find(|s| s.name.eq_ignore_ascii_case(name)) {
            Some(spec) => {
                let v = spec.parse_value(value)?;
                session.set_rule_option(spec.name, &v)?;
            }
            None if strict => {
                return Err(format!("'{name}' is not a rule option of {}", session.game_name()));
            }
            None => {}
        }
    }
    Ok(())
}

/// The positions of a game: the position string before every move and after the last,
/// and the side (0 or 1) that played each move.
#[derive(Debug, Default)]
pub struct Positions {
    pub fens: Vec<String>,
    pub movers: Vec<usize>,
}

/// The positions of `moves` from `fen` (the start position when `None`). Stops at the
/// first move that is not legal, with its error.
pub fn positions(
    session: &mut dyn Session,
    fen: Option<&str>,
    moves: &[String],
) -> (Positions, Option<String>) {
    let mut p = Positions::default();
    if let Err(e) = session.set_position(fen, &[]) {
        return (p, Some(e));
    }
    p.fens.push(session.fen());
    for (i, mv) in moves.iter().enumerate() {
        let side = session.side_to_move().index();
        if let Err(e) = session.play_move(mv) {
            return (p, Some(format!("move {} '{mv}': {e}", i + 1)));
        }
        p.fens.push(session.fen());
        p.movers.push(side);
    }
    (p, None)
}

/// A game as the page replays it: players, result, every move and the position string
/// before and after each, the side that played each.
pub fn replay_game(rec: &GameRecord) -> Result<Value, String> {
    let entry = find_game(&rec.game).ok_or_else(|| format!("unknown game '{}'", rec.game))?;
    let mut session = (entry.make)(1);
    apply_rule_options(session.as_mut(), &rec.options, false)?;
    let all: Vec<String> = rec.opening.moves.iter().chain(&rec.moves).cloned().collect();
    let (p, error) = positions(session.as_mut(), rec.opening.fen.as_deref(), &all);
    if let Some(e) = error {
        return Err(e);
    }
    let options: Vec<[&str; 2]> =
        rec.options.iter().map(|(k, v)| [k.as_str(), v.as_str()]).collect();
    Ok(json!({
        "id": rec.id.to_string(),
        "game": entry.name,
        "options": options,
        "players": rec.engines,
        "result": rec.result.as_str(),
        "termination": rec.termination.as_str(),
        "detail": rec.detail,
        "opening_plies": rec.opening.moves.len(),
        "moves": all,
        "movers": p.movers,
        "fens": p.fens,
    }))
}

/// The `replay` message for the text of a record file: every game that can be read and
/// replayed, and an error line for each that cannot.
pub fn replay_json(text: &str) -> Value {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for (n, line) in text.lines().enumerate() {
        // `#` lines are comments, such as the match header of `ugine match` files.
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match GameRecord::parse(line).and_then(|r| replay_game(&r)) {
            Ok(g) => games.push(g),
            Err(e) => errors.push(format!("line {}: {e}", n + 1)),
        }
    }
    json!({ "type": "replay", "games": games, "errors": errors })
}

/// A finished game of the GUI as a record line (id `0.0.0`; a person is called `human`).
pub struct Finished<'a> {
    pub game: &'a str,
    pub options: &'a [(String, String)],
    pub players: [String; 2],
    /// The position string it started from (`None`: the start position).
    pub fen: Option<String>,
    pub moves: &'a [String],
    pub times_ms: &'a [u64],
    pub result: Outcome,
    pub termination: Termination,
    pub detail: String,
}

impl Finished<'_> {
    /// The record line, as `ugine match` writes it.
    pub fn to_line(&self) -> String {
        GameRecord {
            id: GameId { pairing: 0, round: 0, seat: 0 },
            game: self.game.to_string(),
            options: self.options.to_vec(),
            engines: self.players.clone(),
            opening: Opening { fen: self.fen.clone(), moves: Vec::new() },
            moves: self.moves.to_vec(),
            times_ms: self.times_ms.to_vec(),
            evals: vec![None; self.moves.len()],
            result: self.result,
            termination: self.termination,
            detail: self.detail.clone(),
        }
        .to_line()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_game_replays_with_a_position_per_ply() {
        let moves: Vec<String> = ["d1", "d7", "g1", "a7", "a1xa7"].map(String::from).to_vec();
        let line = Finished {
            game: "morris",
            options: &[("Morris Rules".to_string(), "standard".to_string())],
            players: ["human".to_string(), "ugine".to_string()],
            fen: None,
            moves: &moves,
            times_ms: &[1, 2, 3, 4, 5],
            result: Outcome::Win(crate::core::Side::P1),
            termination: Termination::Adjudication,
            detail: "Black resigned".to_string(),
        }
        .to_line();
        let r = replay_json(&format!("#ugine-match shard=1/1\n{line}\nnot a record\n"));
        assert_eq!(r["errors"].as_array().unwrap().len(), 1);
        let g = &r["games"][0];
        assert_eq!(g["moves"].as_array().unwrap().len(), 5);
        assert_eq!(g["fens"][5], "1B1/3/3/6/3/3/WWW b 6 7 0");
        assert_eq!(g["result"], "p1win");
        assert_eq!(g["movers"], json!([0, 1, 0, 1, 0]));
    }

    #[test]
    fn an_illegal_move_in_a_record_is_reported() {
        let mut s = (find_game("morris").unwrap().make)(1);
        let (p, err) = positions(s.as_mut(), None, &["d1".to_string(), "d1".to_string()]);
        assert_eq!(p.fens.len(), 2);
        assert_eq!(p.movers, [0]);
        assert!(err.unwrap().starts_with("move 2 'd1'"));
    }
}
