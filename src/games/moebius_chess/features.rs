//! Moebius Chess's network inputs ([`Features`]): every piece by owner, type and square,
//! seen by one player (the *perspective*), 2 × 6 × 128 = 1536 of them (as the first
//! NNUE networks of chess engines, without the king buckets).
//!
//! Feature `(relative colour · 6 + type) · 128 + square`: relative colour 0 for the
//! perspective's pieces, 1 for the opponent's; types as in `board` (pawn … king). Black
//! sees the board turned upside down (row `y` as `7 − y`, files kept), which maps
//! Black's pawn directions, back ranks and castling squares to White's and commutes with
//! the twin map (`(x, y) ↔ (x ^ 8, 7 − y)`): a position and its colour-swapped mirror
//! give the same features. Castling rights, en passant and the clocks are not inputs.
//!
//! A move changes at most four squares (castling: king and rook), so each move gives its
//! delta ([`Features::move_delta`]) and the alpha-beta updates the accumulators.

use super::board::{Board, WHITE, code, code_color, code_type};
use super::geometry::squares;
use super::moves::{ChessMove, Kind};
use super::position::MoebiusChess;
use crate::core::Side;
use crate::search::nnue::{FeatureDelta, Features};

/// Squares of the board.
const SQUARES: u32 = 128;
/// Features per relative colour.
const PER_COLOUR: u32 = 6 * SQUARES;

/// The feature of the piece `code` on `sq` seen by `perspective`.
fn feature(perspective: Side, code: u8, sq: usize) -> u32 {
    let colour = code_color(code);
    let viewer = perspective.index();
    let relative = u32::from(colour != viewer);
    // Square 16·y + x; Black reads row y as 7 − y.
    let seen = if viewer == WHITE { sq } else { sq ^ 0x70 };
    relative * PER_COLOUR + code_type(code) as u32 * SQUARES + seen as u32
}

impl Features for MoebiusChess {
    const FEATURE_COUNT: usize = (2 * PER_COLOUR) as usize;

    fn active_features(&self, perspective: Side, out: &mut Vec<u32>) {
        let b = self.board();
        for sq in squares(b.occupied()) {
            out.push(feature(perspective, b.mailbox[sq], sq));
        }
    }

    fn move_delta(&self, mv: ChessMove, delta: &mut FeatureDelta) -> bool {
        delta.clear();
        let b = self.board();
        let (from, to) = (mv.from(), mv.to());
        let piece = b.mailbox[from];
        let mut change = |code: u8, sq: usize, on: bool| {
            for side in [Side::P1, Side::P2] {
                let f = feature(side, code, sq);
                if on { delta.add(side, f) } else { delta.remove(side, f) }
            }
        };
        change(piece, from, false);
        match mv.kind() {
            Kind::Castle => {
                change(piece, to, true);
                let (rook_from, rook_to) = Board::castle_rook(to);
                change(b.mailbox[rook_from], rook_from, false);
                change(b.mailbox[rook_from], rook_to, true);
            }
            Kind::EnPassant => {
                let victim = Board::ep_victim(to);
                change(b.mailbox[victim], victim, false);
                change(piece, to, true);
            }
            _ => {
                if b.mailbox[to] != 0 {
                    change(b.mailbox[to], to, false);
                }
                let placed = mv.promotion().map_or(piece, |typ| code(b.stm, typ));
                change(placed, to, true);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Rng};
    use crate::games::moebius_chess::{BENCH_POSITIONS, MoebiusOptions};
    use crate::search::nnue::check_move_delta;

    /// Sorted active features of `side`.
    fn active(pos: &MoebiusChess, side: Side) -> Vec<u32> {
        let mut v = Vec::new();
        pos.active_features(side, &mut v);
        v.sort_unstable();
        v
    }

    #[test]
    fn the_start_is_the_same_for_both_players() {
        let pos = MoebiusChess::startpos(&MoebiusOptions::default());
        let white = active(&pos, Side::P1);
        assert_eq!(white.len(), 32);
        assert_eq!(white, active(&pos, Side::P2));
        // White's king on e1 (x 4, y 7): own king, square 16·7 + 4.
        assert!(white.contains(&(5 * SQUARES + 16 * 7 + 4)));
        assert!(white.iter().all(|&f| (f as usize) < MoebiusChess::FEATURE_COUNT));
    }

    #[test]
    fn the_perspectives_mirror_the_colours() {
        let opts = MoebiusOptions::default();
        let pos = MoebiusChess::from_fen(BENCH_POSITIONS[2], &opts).unwrap();
        // The same position with the colours swapped and the rows turned over.
        let (placement, rest) = BENCH_POSITIONS[2].split_once(' ').unwrap();
        let rows: Vec<String> = placement
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        assert!(rest.starts_with("w - -"));
        let fen = format!("{} b{}", rows.join("/"), &rest[1..]);
        let mirrored = MoebiusChess::from_fen(&fen, &opts).unwrap();
        assert_eq!(active(&pos, Side::P1), active(&mirrored, Side::P2));
        assert_eq!(active(&pos, Side::P2), active(&mirrored, Side::P1));
    }

    /// Every legal move of positions along random games (castling, en passant, phasing
    /// and promotions among them): the delta turns off exactly the features active
    /// before and not after, and on those active after and not before.
    #[test]
    fn a_moves_delta_is_the_difference_of_the_feature_sets() {
        let mut rng = Rng::new(23);
        let opts = MoebiusOptions::default();
        let mut moves = Vec::new();
        let mut kinds = [0usize; 8];
        for _ in 0..12 {
            let mut pos = MoebiusChess::startpos(&opts);
            for _ in 0..300 {
                if pos.outcome().is_some() {
                    break;
                }
                moves.clear();
                pos.generate_moves(&mut moves);
                for &mv in &moves {
                    kinds[mv.kind() as usize] += 1;
                    check_move_delta(&mut pos, mv).unwrap_or_else(|e| panic!("{e}"));
                }
                pos.play(*rng.choose(&moves));
            }
        }
        // Every kind of move was checked.
        assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
    }
}
