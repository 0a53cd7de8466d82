//! Why a finished game ended: the typed reason each game's rules give with its outcome
//! ([`crate::core::Game::ending`]). The match runner records its text, the PGN and the
//! browser front end show it, so every reason reads as a short phrase a person
//! understands ("3-fold repetition", "no push left, largest group 7-5").

use std::fmt::{self, Display};

use super::side::Outcome;

/// A finished game: who won, and why the rules say so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: EndReason,
}

/// How a Mabula score was counted, for the text of the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// Mabula: the size of each player's largest group.
    LargestGroup,
    /// Mabula: the product of each player's group sizes.
    GroupProduct,
}

impl ScoreKind {
    fn words(self) -> &'static str {
        match self {
            ScoreKind::LargestGroup => "largest group",
            ScoreKind::GroupProduct => "group product",
        }
    }
}

/// Why the rules ended a game. Scores are always given player 1 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Moebius Chess: the side to move is in check and has no legal move.
    Checkmate,
    /// Moebius Chess: the side to move is not in check and has no legal move.
    Stalemate,
    /// Morris, Moebius Chess: the same position occurred for the `n`-th time.
    Repetition(u32),
    /// Moebius Chess: 100 plies without a capture or a pawn move.
    FiftyMoves,
    /// Moebius Chess: kings alone, or kings and one knight or bishop in total.
    InsufficientMaterial,
    /// Morris: the loser has two men or fewer on the board and in hand.
    TwoMenLeft,
    /// Morris: the loser is to move, has no men in hand and no man can step.
    Blocked,
    /// Morris: `n` plies in a row without a capture once both hands are empty.
    NoCapture(u32),
    /// Mobius: the winner's three zones are joined; `group` under the literal rule
    /// (one group of stones touches all three).
    ThreeZones { group: bool },
    /// Mobius: two of the winner's zones are joined and their network winds round the
    /// strip; `group` under the literal rule (one group does both).
    TwoZonesAndLoop { group: bool },
    /// Mobius (literal rule): every cell is filled and nobody qualifies.
    BoardFull,
    /// Mabula: neither player can push. `groups` holds each player's group sizes,
    /// largest first, when equal scores were decided by them (`Mabula Ties` `break`).
    NoPushLeft { kind: ScoreKind, scores: [u32; 2], groups: Option<[Vec<u32>; 2]> },
    /// Morpiae: no line can be drawn (for either player) after `lines` lines.
    NoLineLeft { lines: u32, circles: [u32; 2] },
}

impl Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let zones = |f: &mut fmt::Formatter<'_>, group: bool, what: &str| {
            if group {
                write!(f, "one group touches {what}")
            } else {
                write!(f, "{what} connected")
            }
        };
        match self {
            EndReason::Checkmate => f.write_str("checkmate"),
            EndReason::Stalemate => f.write_str("stalemate"),
            EndReason::Repetition(n) => write!(f, "{n}-fold repetition"),
            // cutechess's words for chess's 50-move rule and dead material.
            EndReason::FiftyMoves => f.write_str("fifty moves rule"),
            EndReason::InsufficientMaterial => f.write_str("insufficient mating material"),
            EndReason::TwoMenLeft => f.write_str("reduced to two men"),
            EndReason::Blocked => f.write_str("blocked"),
            EndReason::NoCapture(n) => write!(f, "{n} plies without a capture"),
            EndReason::ThreeZones { group } => zones(f, *group, "three zones"),
            EndReason::TwoZonesAndLoop { group } => {
                zones(f, *group, "two zones")?;
                f.write_str(" and a loop round the strip")
            }
            EndReason::BoardFull => f.write_str("board full without a winner"),
            EndReason::NoPushLeft { kind, scores, groups } => {
                write!(f, "no push left, {} {}-{}", kind.words(), scores[0], scores[1])?;
                if let Some([a, b]) = groups {
                    let list =
                        |g: &[u32]| g.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
                    write!(f, ", tie broken by groups {} against {}", list(a), list(b))?;
                }
                Ok(())
            }
            EndReason::NoLineLeft { lines, circles } => {
                write!(f, "no line left after {lines} lines, circles {}-{}", circles[0], circles[1])
            }
        }
    }
}

/// The kind of a reason's text: the words before the first comma ("no push left" of
/// "no push left, largest group 7-5"), for counting endings by kind.
pub fn reason_kind(text: &str) -> &str {
    let head = text.split([',', ';']).next().unwrap_or("");
    head.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_as_phrases() {
        assert_eq!(EndReason::Repetition(3).to_string(), "3-fold repetition");
        assert_eq!(EndReason::NoCapture(100).to_string(), "100 plies without a capture");
        assert_eq!(
            EndReason::TwoZonesAndLoop { group: true }.to_string(),
            "one group touches two zones and a loop round the strip"
        );
        let tie = EndReason::NoPushLeft {
            kind: ScoreKind::LargestGroup,
            scores: [6, 6],
            groups: Some([vec![6, 4, 2], vec![6, 3, 3]]),
        };
        assert_eq!(
            tie.to_string(),
            "no push left, largest group 6-6, tie broken by groups 6 4 2 against 6 3 3"
        );
        assert_eq!(reason_kind(&tie.to_string()), "no push left");
        assert_eq!(reason_kind("checkmate; p1 (x) says result 'draw'"), "checkmate");
    }
}
