//! [`Game`] for Morpiae: the trait's methods over the position of `position.rs`, with its
//! position strings (`fen.rs`) and its drawing (`render.rs`).

use super::board::greek_cross;
use super::notation::{MorpiaeMove, parse_syntax};
use super::options::MorpiaeOptions;
use super::position::Morpiae;
use super::{fen, render};
use crate::core::{EndReason, Ending, Game, MoveError, Outcome, PositionError, Reversible, Side};

impl Game for Morpiae {
    type Move = MorpiaeMove;
    type Options = MorpiaeOptions;

    const NAME: &'static str = "morpiae";

    fn startpos(opts: &MorpiaeOptions) -> Morpiae {
        let mut pos = Morpiae::with_circles(&greek_cross(), opts);
        pos.refresh_moves();
        pos
    }

    fn from_fen(s: &str, opts: &MorpiaeOptions) -> Result<Morpiae, PositionError> {
        fen::read(s, opts)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn side_to_move(&self) -> Side {
        self.stm
    }

    fn generate_moves(&self, out: &mut Vec<MorpiaeMove>) {
        out.extend_from_slice(&self.moves);
    }

    fn parse_move(&self, s: &str) -> Result<MorpiaeMove, MoveError> {
        let mv = parse_syntax(s.trim())?;
        if self.moves.contains(&mv) {
            Ok(mv)
        } else if self.moves.is_empty() {
            Err(MoveError::Illegal(format!("{s}: the game is over, no line can be drawn")))
        } else {
            Err(MoveError::Illegal(format!(
                "{s}: not a line that can be drawn here (the new point must be empty, the \
                 four others circles, and the line must not overlap a line of its direction)"
            )))
        }
    }

    fn play(&mut self, mv: MorpiaeMove) {
        self.draw(mv);
        // Not to be taken back: the removed moves are dropped at once.
        let height = self.removed.len();
        self.drawing.update_moves(&mut self.moves, mv, &mut self.removed);
        self.removed.truncate(height);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.moves.is_empty() {
            return None;
        }
        let [r, g] = self.colours;
        Some(match r.cmp(&g) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::P1),
            std::cmp::Ordering::Less => Outcome::Win(Side::P2),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn ending(&self) -> Option<Ending> {
        let outcome = self.outcome()?;
        let reason =
            EndReason::NoLineLeft { lines: self.lines().len() as u32, circles: self.colours };
        Some(Ending { outcome, reason })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn render(&self) -> String {
        render::render(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        fn go(pos: &mut Morpiae, depth: u32) -> u64 {
            if depth == 1 {
                return pos.moves.len() as u64;
            }
            let moves = pos.moves.clone();
            let mut n = 0;
            for mv in moves {
                let undo = pos.play_reversible(mv);
                n += go(pos, depth - 1);
                pos.unplay(mv, undo);
            }
            n
        }
        if depth == 0 {
            return 1;
        }
        go(&mut self.clone(), depth)
    }
}
