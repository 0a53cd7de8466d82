//! Cross-check against plain search: a full-width minimax over the game's own rules
//! (moves, play and unplay, outcome), independent of the database's indexing, symmetries,
//! unmoves and layers. To depth `D` it proves exactly the wins and losses within `D`
//! plies and nothing else, so on every position it must give the database's value when
//! the distance is at most `D`, and nothing for draws and longer distances.

use super::super::board::Morris;
use super::index::{Class, FULL};
use super::moves::db_options;
use super::probe::MorrisDb;
use super::value::DbValue;
use crate::core::{Game, Outcome, Reversible, Rng, Side};

/// The value of `pos` if the game ends within `depth` plies of best play, by full-width
/// minimax (repetition and move-limit draws must be off in `pos`'s options).
pub fn minimax(pos: &mut Morris, depth: u32) -> Option<DbValue> {
    match pos.outcome() {
        Some(Outcome::Win(s)) if s != pos.side_to_move() => return Some(DbValue::Loss(0)),
        Some(o) => panic!("{o:?} with {} to move: not a database outcome", pos.to_fen()),
        None => {}
    }
    if depth == 0 {
        return None;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let (mut win, mut loss, mut all_won) = (None::<u16>, 0, true);
    for mv in moves {
        let undo = pos.play_reversible(mv);
        let v = minimax(pos, depth - 1).map(DbValue::before);
        pos.unplay(mv, undo);
        match v {
            Some(DbValue::Win(d)) => win = Some(win.map_or(d, |w| w.min(d))),
            Some(DbValue::Loss(d)) => loss = loss.max(d),
            _ => all_won = false,
        }
    }
    match win {
        Some(d) => Some(DbValue::Win(d)),
        None if all_won => Some(DbValue::Loss(loss)),
        None => None,
    }
}

/// What [`crosscheck_class`] found.
#[derive(Debug, Default)]
pub struct CrossCheck {
    /// Positions compared.
    pub checked: u64,
    /// Of those, positions the search decided (distance within the depth).
    pub decided: u64,
    /// Disagreements, described.
    pub mismatches: Vec<String>,
}

/// A random set of `n` points outside `taken`.
fn random_men(rng: &mut Rng, n: usize, taken: u32) -> u32 {
    let mut m = 0u32;
    while m.count_ones() < n as u32 {
        m |= 1 << rng.below(24) & !taken & FULL;
    }
    m
}

/// Compares the database with [`minimax`] to `depth` on `samples` random positions of
/// `class` (either colour to move), seeded by `seed`.
pub fn crosscheck_class(
    db: &MorrisDb,
    class: Class,
    samples: u64,
    depth: u32,
    seed: u64,
) -> CrossCheck {
    let opts = db_options(db.rules());
    let mut rng = Rng::new(seed);
    let mut report = CrossCheck::default();
    for _ in 0..samples {
        let own = random_men(&mut rng, class.own, 0);
        let opp = random_men(&mut rng, class.opp, own);
        let mut pos = if rng.below(2) == 0 {
            Morris::from_men(&opts, [own, opp], Side::P1)
        } else {
            Morris::from_men(&opts, [opp, own], Side::P2)
        };
        let stored = db.probe(&pos).expect("the class is held");
        let searched = minimax(&mut pos, depth);
        let expected = match stored {
            DbValue::Win(d) | DbValue::Loss(d) if d as u32 <= depth => Some(stored),
            _ => None,
        };
        report.checked += 1;
        report.decided += searched.is_some() as u64;
        if searched != expected {
            report.mismatches.push(format!(
                "{}: database {stored}, search to depth {depth} {searched:?}",
                pos.to_fen()
            ));
        }
    }
    report
}
