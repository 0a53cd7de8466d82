//! Cross-check against plain search: a depth-limited proof search over the game's own
//! rules (moves, play and unplay, outcome), independent of the database's indexing,
//! symmetries, unmoves and layers. To depth `D` it proves exactly the wins and losses
//! within `D` plies, with their distances, and nothing else, so on every position it must
//! give the database's value when the distance is at most `D`, and nothing for draws and
//! longer distances.

use super::super::board::Morris;
use super::index::{Class, FULL};
use super::moves::db_options;
use super::probe::MorrisDb;
use super::value::DbValue;
use crate::core::{Game, Outcome, Reversible, Rng, Side};

/// The outcome of `pos` for its side to move: `Some(true)` lost (the game is over and
/// the other side won), `None` while the game goes on. Panics on any other outcome, which
/// the database positions never have.
fn lost(pos: &Morris) -> Option<bool> {
    match pos.outcome() {
        Some(Outcome::Win(s)) if s != pos.side_to_move() => Some(true),
        Some(o) => panic!("{o:?} with {} to move: not a database outcome", pos.to_fen()),
        None => None,
    }
}

/// True when the side to move of `pos` can force the end of the game, won, within
/// `plies` plies (odd: the winner moves last). Stops at the first winning move.
fn wins_within(pos: &mut Morris, plies: u32) -> bool {
    if plies == 0 || lost(pos).is_some() {
        return false;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    // Captures first: they end games soonest.
    moves.sort_by_key(|m| m.captured().is_none());
    moves.into_iter().any(|mv| {
        let undo = pos.play_reversible(mv);
        let won = loses_within(pos, plies - 1);
        pos.unplay(mv, undo);
        won
    })
}

/// True when the side to move of `pos` loses within `plies` plies whatever it plays.
/// Stops at the first move that escapes.
fn loses_within(pos: &mut Morris, plies: u32) -> bool {
    if lost(pos).is_some() {
        return true;
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.into_iter().all(|mv| {
        let undo = pos.play_reversible(mv);
        let won = wins_within(pos, plies - 1);
        pos.unplay(mv, undo);
        won
    })
}

/// The value of `pos` if the game ends within `depth` plies of best play, with its exact
/// distance; `None` for draws and longer games (repetition and move-limit draws must be
/// off in `pos`'s options). A depth-first proof search over the game's own moves:
/// the distance is the least number of plies in which the win (or the loss) is forced,
/// found by trying each bound from 0 up.
pub fn solve_within(pos: &mut Morris, depth: u32) -> Option<DbValue> {
    (0..=depth).find_map(|d| {
        if d % 2 == 1 {
            wins_within(pos, d).then_some(DbValue::Win(d as u16))
        } else {
            loses_within(pos, d).then_some(DbValue::Loss(d as u16))
        }
    })
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

/// Compares the database with [`solve_within`] to `depth` on `samples` random positions of
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
        let searched = solve_within(&mut pos, depth);
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
