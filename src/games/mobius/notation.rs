//! Mobius moves and their notation: a cell name (`f7`) or `swap`.

use std::fmt;

use super::geometry::{CELLS, GEOMETRY, parse_cell};
use crate::core::MoveError;

/// One move: a stone on a cell (index `0..138`, reading order) or the swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MobiusMove(pub u8);

impl MobiusMove {
    /// The swap (OPTION): Red's only stone becomes Blue's.
    pub const SWAP: MobiusMove = MobiusMove(CELLS as u8);

    /// The cell of a placement, `None` for the swap.
    pub fn cell(self) -> Option<usize> {
        ((self.0 as usize) < CELLS).then_some(self.0 as usize)
    }
}

impl fmt::Display for MobiusMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cell() {
            Some(c) => f.write_str(&GEOMETRY.names[c]),
            None => f.write_str("swap"),
        }
    }
}

/// Reads the syntax of a move token (not its legality).
pub fn parse_syntax(s: &str) -> Result<MobiusMove, MoveError> {
    if s == "swap" {
        return Ok(MobiusMove::SWAP);
    }
    parse_cell(s).map(|c| MobiusMove(c as u8)).ok_or_else(|| {
        MoveError::Syntax(format!(
            "'{s}' is not a Mobius move (a cell a1..l1, a2..k2, …, a12..k12, or swap)"
        ))
    })
}
