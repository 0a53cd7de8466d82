//! `ugine replay`: re-plays every recorded game with the rules and checks that the
//! record is consistent (legal moves, a result that fits the termination, the reason the
//! rules give for the end).

use crate::core::{Outcome, Side};

use crate::runner::records::record::{GameRecord, Termination};
use crate::runner::referee::Referee;

/// Checks one record: the opening and every move are legal; a game ended by the rules
/// is over with the recorded result; any other game is not over, and its result fits its
/// termination (a draw for adjudication, a loss of the side to move otherwise). The
/// detail of a game ended by the rules must begin with the rules' reason; an empty detail
/// (records written before reasons were recorded) is accepted.
pub fn validate(r: &GameRecord) -> Result<(), String> {
    let referee = Referee::new(&r.game, &r.options).map_err(|e| e.to_string())?;
    let mut s = referee.session().map_err(|e| e.to_string())?;
    r.opening.check(s.as_mut()).map_err(|e| format!("opening: {e}"))?;
    for (i, m) in r.moves.iter().enumerate() {
        if s.outcome().is_some() {
            return Err(format!("move {} '{m}' after the end of the game", i + 1));
        }
        s.play_move(m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
    }
    let over = s.outcome();
    let loser_to_move = Outcome::Win(s.side_to_move().opponent());
    match (r.termination, over) {
        (t, Some(o)) if t.by_rules() => {
            if o != r.result {
                return Err(format!(
                    "the rules say {}, the record says {}",
                    o.as_str(),
                    r.result.as_str()
                ));
            }
            let reason = s.end_reason().unwrap_or_default();
            if r.detail.is_empty() || r.detail.starts_with(&reason) {
                Ok(())
            } else {
                Err(format!(
                    "the rules say the game ended by {reason}, the record says '{}'",
                    r.detail
                ))
            }
        }
        (t, None) if t.by_rules() => {
            Err("termination by the rules, but the game is not over".into())
        }
        (_, Some(o)) => Err(format!(
            "the game is over ({}) but the termination is {}",
            o.as_str(),
            r.termination
        )),
        (Termination::Adjudication, None) if r.result == Outcome::Draw => Ok(()),
        (Termination::Adjudication, None) => Err("adjudication must be a draw".into()),
        // A failure before the first move may be either player's (start-up failure).
        (Termination::Disconnect, None)
            if matches!(r.result, Outcome::Win(Side::P1 | Side::P2)) && r.moves.is_empty() =>
        {
            Ok(())
        }
        (_, None) if r.result == loser_to_move => Ok(()),
        (_, None) => Err(format!(
            "termination {} should be a loss of the side to move, but the result is {}",
            r.termination,
            r.result.as_str()
        )),
    }
}
