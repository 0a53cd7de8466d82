//! The two players and how a finished game ended between them.

/// One of the two players. Player 1 moves first from the standard start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    P1,
    P2,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::P1 => Side::P2,
            Side::P2 => Side::P1,
        }
    }

    /// 0 for player 1, 1 for player 2: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl Outcome {
    /// The protocol word for this outcome: `p1win`, `p2win` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win(Side::P1) => "p1win",
            Outcome::Win(Side::P2) => "p2win",
            Outcome::Draw => "draw",
        }
    }
}
