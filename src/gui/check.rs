//! The king in check, marked on the board: asked of the game's own rules (Moebius Chess
//! is the one game with kings), never worked out by the page.

use crate::core::Game;
use crate::games::moebius_chess::{MoebiusChess, MoebiusOptions, square_name};

/// The squares of a king in check in position `fen` of `game` (none for other games or a
/// position string that cannot be read).
pub fn checked_kings(game: &str, fen: &str) -> Vec<String> {
    if game != "moebius-chess" {
        return Vec::new();
    }
    match MoebiusChess::from_fen(fen, &MoebiusOptions::default()) {
        Ok(p) if p.in_check() => {
            let b = p.board();
            vec![square_name(b.king_sq(b.stm))]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::moebius_chess::STARTPOS;

    #[test]
    fn the_king_in_check_is_named_and_no_other() {
        assert!(checked_kings("moebius-chess", STARTPOS).is_empty());
        // A black rook on a8' attacks e1 along the row (f1, g1, h1 empty).
        assert_eq!(
            checked_kings("moebius-chess", "4k11/16/16/16/16/16/16/4K3r7 w - - 0 1"),
            ["e1"]
        );
        assert!(checked_kings("morris", "3/3/3/6/3/3/3 w 9 9 0").is_empty());
    }
}
