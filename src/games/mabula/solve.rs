//! Exact values of Mabula positions and of each of their moves, by the alpha-beta of
//! `super::search` searched to the end of the game (every line ends within as many
//! pushes as there are border marbles). For labels and the yardstick
//! (`tests/data/mabula-yardstick.txt`).

use std::fmt;

use super::board::Mabula;
use super::notation::MabulaMove;
use crate::core::{Game, Outcome, Side};
use crate::search::{AlphaBeta, Evaluate, SearchParams};

/// A game-theoretic value, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    /// The same value seen by the opponent.
    pub fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    /// The value of a finished game for `side`.
    pub fn of_outcome(outcome: Outcome, side: Side) -> Value {
        match outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win(w) if w == side => Value::Win,
            Outcome::Win(_) => Value::Loss,
        }
    }

    /// The value of a solved alpha-beta score (wins positive, draws 0).
    fn of_score(score: i32) -> Value {
        match score.signum() {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }

    /// Reads `win`, `draw` or `loss`.
    pub fn parse(s: &str) -> Option<Value> {
        match s {
            "win" => Some(Value::Win),
            "draw" => Some(Value::Draw),
            "loss" => Some(Value::Loss),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        })
    }
}

/// Solves positions to the end; its table is kept from one position to the next.
pub struct Solver {
    search: AlphaBeta<Mabula>,
}

impl Solver {
    /// A solver with a table of about `hash_mb` megabytes. It searches straight to the
    /// end after depth 1 whatever the border marbles (the engine does from 12 down),
    /// with the window around a draw (which scores 0: no contempt), so that it proves
    /// the value instead of looking for the quickest win: 1.5× faster at 13 border
    /// marbles, 1.3× at 12.
    pub fn new(hash_mb: usize) -> Solver {
        let params = SearchParams { contempt: 0, ..Mabula::PARAMS };
        Solver { search: AlphaBeta::with_params(hash_mb, params) }
    }

    /// The exact value of `pos` for the side to move.
    pub fn value(&mut self, pos: &Mabula) -> Value {
        if let Some(outcome) = pos.outcome() {
            return Value::of_outcome(outcome, pos.side_to_move());
        }
        // Around a draw: any win found cuts, where the quickest would be searched for.
        Value::of_score(self.search.search_to_end(pos, -1, 1))
    }

    /// Every legal move of `pos` (not over) with the exact value it leaves the mover.
    pub fn move_values(&mut self, pos: &Mabula) -> Vec<(MabulaMove, Value)> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let mut child = *pos;
                child.play(mv);
                (mv, self.value(&child).flip())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::games::mabula::MabulaOptions;

    #[test]
    fn the_value_is_the_best_move_value_and_a_full_search_agrees() {
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(8);
        let mut solver = Solver::new(4);
        let mut moves = Vec::new();
        for _ in 0..6 {
            let mut pos = Mabula::random(&opts, &mut rng);
            while pos.border_marbles() > 7 {
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(*rng.choose(&moves));
            }
            let values = solver.move_values(&pos);
            let best = values.iter().map(|&(_, v)| v).max().unwrap();
            assert_eq!(solver.value(&pos), best, "{}", pos.to_fen());
            assert_eq!(negamax(&pos), best, "{}", pos.to_fen());
        }
    }

    /// The value by plain negamax over every line, without the alpha-beta.
    fn negamax(pos: &Mabula) -> Value {
        if let Some(o) = pos.outcome() {
            return Value::of_outcome(o, pos.side_to_move());
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut child = *pos;
                child.play(mv);
                negamax(&child).flip()
            })
            .max()
            .unwrap()
    }
}
