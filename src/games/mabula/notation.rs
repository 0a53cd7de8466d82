//! Mabula moves and their notation: a push `a3-d3` (the marble's border square and its
//! final square) or `pass`.

use std::fmt;

use super::geometry::{parse_square, square_name};
use crate::core::MoveError;

/// One turn: a push of the marble on border square `from` to field square `to`, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MabulaMove {
    /// The border square of the pushed marble ([`MabulaMove::PASS`]'s is 255).
    pub from: u8,
    /// The field square the marble stops on.
    pub to: u8,
}

impl MabulaMove {
    /// The pass, legal only when the side to move has no push.
    pub const PASS: MabulaMove = MabulaMove { from: 255, to: 255 };

    /// True for the pass.
    pub fn is_pass(self) -> bool {
        self == MabulaMove::PASS
    }
}

impl fmt::Display for MabulaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "{}-{}", square_name(self.from), square_name(self.to))
        }
    }
}

/// Reads the syntax of a move token (not its legality).
pub fn parse_syntax(s: &str) -> Result<MabulaMove, MoveError> {
    if s == "pass" {
        return Ok(MabulaMove::PASS);
    }
    let bad = || MoveError::Syntax(format!("'{s}' is not a Mabula move (a3-d3 or pass)"));
    let (from, to) = s.split_once('-').ok_or_else(bad)?;
    Ok(MabulaMove {
        from: parse_square(from).ok_or_else(bad)?,
        to: parse_square(to).ok_or_else(bad)?,
    })
}

impl crate::search::PackedMove for MabulaMove {
    fn pack(self) -> Option<u32> {
        Some(u32::from_le_bytes([self.from, self.to, 0, 0]))
    }

    fn unpack(bits: u32) -> MabulaMove {
        let [from, to, _, _] = bits.to_le_bytes();
        MabulaMove { from, to }
    }
}
