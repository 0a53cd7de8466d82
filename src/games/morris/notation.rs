//! Morris moves and their notation: `d6`, `d6xa1`, `a4-a7`, `a4-a7xd2`.

use std::fmt;

use crate::core::MoveError;

/// Number of points.
pub const POINTS: usize = 24;

/// Point names in index order (reading order: top rank first, left to right).
pub const NAMES: [&str; POINTS] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// "No point": the `from` of a placement, the `capture` of a move without removal.
pub const NONE: u8 = POINTS as u8;

/// One turn: a placement or step, and the enemy man it removes if it closes a mill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MorrisMove {
    /// Origin of a step or flight, `NONE` for a placement.
    pub from: u8,
    /// Destination point.
    pub to: u8,
    /// The enemy man removed, `NONE` if none.
    pub capture: u8,
}

impl MorrisMove {
    /// True for a placement from hand.
    pub fn is_placement(self) -> bool {
        self.from == NONE
    }

    /// The removed point, if the move removes a man.
    pub fn captured(self) -> Option<usize> {
        (self.capture != NONE).then_some(self.capture as usize)
    }
}

impl fmt::Display for MorrisMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from != NONE {
            write!(f, "{}-", NAMES[self.from as usize])?;
        }
        write!(f, "{}", NAMES[self.to as usize])?;
        if self.capture != NONE {
            write!(f, "x{}", NAMES[self.capture as usize])?;
        }
        Ok(())
    }
}

/// The index of a point name (`a1` … `g7`), if it is one.
pub fn point(name: &str) -> Option<u8> {
    let &[file @ b'a'..=b'g', rank @ b'1'..=b'7'] = name.as_bytes() else {
        return None;
    };
    let (file, rank) = (file as char, rank as char);
    NAMES.iter().position(|n| n.starts_with(file) && n.ends_with(rank)).map(|i| i as u8)
}

/// Reads the syntax of a move token (not its legality).
pub fn parse_syntax(s: &str) -> Result<MorrisMove, MoveError> {
    let bad =
        || MoveError::Syntax(format!("'{s}' is not a Morris move (d6, d6xa1, a4-a7, a4-a7xd2)"));
    let (body, capture) = match s.split_once('x') {
        Some((b, c)) => (b, point(c).ok_or_else(bad)?),
        None => (s, NONE),
    };
    let (from, to) = match body.split_once('-') {
        Some((f, t)) => (point(f).ok_or_else(bad)?, point(t).ok_or_else(bad)?),
        None => (NONE, point(body).ok_or_else(bad)?),
    };
    Ok(MorrisMove { from, to, capture })
}

impl crate::search::PackedMove for MorrisMove {
    fn pack(self) -> Option<u32> {
        Some(u32::from_le_bytes([self.from, self.to, self.capture, 0]))
    }

    fn unpack(bits: u32) -> MorrisMove {
        let [from, to, capture, _] = bits.to_le_bytes();
        MorrisMove { from, to, capture }
    }
}
