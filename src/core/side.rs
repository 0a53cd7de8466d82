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

    /// The protocol word for this player: `p1` or `p2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::P1 => "p1",
            Side::P2 => "p2",
        }
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

    /// The outcome a protocol word names (the reverse of [`Outcome::as_str`]).
    pub fn parse(word: &str) -> Option<Outcome> {
        match word {
            "p1win" => Some(Outcome::Win(Side::P1)),
            "p2win" => Some(Outcome::Win(Side::P2)),
            "draw" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The points `side` scores: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self, side: Side) -> f64 {
        match self {
            Outcome::Win(w) if w == side => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}
