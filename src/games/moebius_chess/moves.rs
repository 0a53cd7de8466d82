//! Moebius Chess moves and their notation: `e2e4`, `a1e8'`, `e8e8'` (a phase),
//! `e7e8q`, `e1g1` (castling is the king's move). On input the apostrophe-free alias
//! (files `i`…`p` for `a'`…`h'`) is accepted too: `a1m8` ≡ `a1e8'`.

use std::fmt;

use super::geometry::{parse_square, square_name};
use crate::core::MoveError;

/// What kind of move, beyond its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// Any move or capture (phases included).
    Normal = 0,
    /// A pawn's double step.
    Double = 1,
    /// An en-passant capture (the victim is not on the target square).
    EnPassant = 2,
    /// Castling, written as the king's move.
    Castle = 3,
    PromoKnight = 4,
    PromoBishop = 5,
    PromoRook = 6,
    PromoQueen = 7,
}

/// One move, packed: from (7 bits), to (7 bits), kind (3 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ChessMove(u32);

impl ChessMove {
    /// A move of `kind` from `from` to `to`.
    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: Kind) -> ChessMove {
        ChessMove(from as u32 | (to as u32) << 7 | (kind as u32) << 14)
    }

    /// The origin square.
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 127) as usize
    }

    /// The destination square (the king's for castling).
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 7 & 127) as usize
    }

    /// The move's kind (a match that the compiler reduces to the bits themselves, as the
    /// discriminants are the codes; a table look-up cost a load at each of the several
    /// questions make and unmake ask).
    #[inline(always)]
    pub fn kind(self) -> Kind {
        match (self.0 >> 14) & 7 {
            0 => Kind::Normal,
            1 => Kind::Double,
            2 => Kind::EnPassant,
            3 => Kind::Castle,
            4 => Kind::PromoKnight,
            5 => Kind::PromoBishop,
            6 => Kind::PromoRook,
            _ => Kind::PromoQueen,
        }
    }

    /// The promotion piece type (1 knight … 4 queen), if this is a promotion.
    #[inline(always)]
    pub fn promotion(self) -> Option<usize> {
        let k = self.0 >> 14;
        (k >= 4).then(|| k as usize - 3)
    }

    /// A small dense index (from·128 + to) for history tables.
    pub fn index(self) -> usize {
        (self.0 & 0x3FFF) as usize
    }
}

impl fmt::Display for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", square_name(self.from()), square_name(self.to()))?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", ['n', 'b', 'r', 'q'][p - 1])?;
        }
        Ok(())
    }
}

/// The syntax of a move token: from, to and the promotion piece type (1..=4) if given.
pub fn parse_syntax(s: &str) -> Result<(usize, usize, Option<usize>), MoveError> {
    let bad = || {
        MoveError::Syntax(format!(
            "'{s}' is not a Moebius Chess move (from and to squares like e2e4, a1e8', e7e8q)"
        ))
    };
    let b = s.as_bytes();
    let (from, n1) = parse_square(b).ok_or_else(bad)?;
    let (to, n2) = parse_square(&b[n1..]).ok_or_else(bad)?;
    let promo = match &b[n1 + n2..] {
        [] => None,
        [c] => Some(match c {
            b'n' => 1,
            b'b' => 2,
            b'r' => 3,
            b'q' => 4,
            _ => return Err(bad()),
        }),
        _ => return Err(bad()),
    };
    Ok((from, to, promo))
}

impl crate::search::PackedMove for ChessMove {
    fn pack(self) -> Option<u32> {
        Some(self.0)
    }

    fn unpack(bits: u32) -> ChessMove {
        ChessMove(bits)
    }
}
