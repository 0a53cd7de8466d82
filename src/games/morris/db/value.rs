//! The value of a database position, and its two encodings: the solver's working code
//! (one `u16` per slot) and the stored form (2 bits of win/draw/loss plus a byte of
//! distance in moves).

use std::fmt;

/// The game-theoretic value of a movement-phase position for the side to move, ignoring
/// the repetition and move-limit draws (a cycle is a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbValue {
    /// The side to move wins; the game ends after this many plies (odd) of best play.
    Win(u16),
    /// The side to move loses after this many plies (even) of best play.
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

impl DbValue {
    /// The value from a position's point of view whose move leads to a position of
    /// value `self` (one ply further from the end).
    pub fn before(self) -> DbValue {
        match self {
            DbValue::Win(d) => DbValue::Loss(d + 1),
            DbValue::Loss(d) => DbValue::Win(d + 1),
            DbValue::Draw => DbValue::Draw,
        }
    }

    /// A total order by desirability for the side to move: quick wins first, then draws,
    /// then slow losses.
    pub fn preference(self) -> i32 {
        match self {
            DbValue::Win(d) => 100_000 - d as i32,
            DbValue::Draw => 0,
            DbValue::Loss(d) => -100_000 + d as i32,
        }
    }
}

impl fmt::Display for DbValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbValue::Win(d) => write!(f, "win in {d} plies"),
            DbValue::Loss(d) => write!(f, "loss in {d} plies"),
            DbValue::Draw => write!(f, "draw"),
        }
    }
}

/// Working code of the solver: not yet known.
pub const UNKNOWN: u16 = 0;
/// Working code of the solver: an unused slot (see [`super::index`]).
pub const UNUSED: u16 = u16::MAX;

/// The solver's code of a decided position: the distance in plies plus one. Wins have odd
/// distances and losses even ones (the loser is to move at the end), so the parity tells
/// which.
pub fn code(d: u16) -> u16 {
    d + 1
}

/// The value of a decided working code (neither [`UNKNOWN`] nor [`UNUSED`]).
pub fn decode(code: u16) -> DbValue {
    let d = code - 1;
    if d % 2 == 1 { DbValue::Win(d) } else { DbValue::Loss(d) }
}

/// Stored win/draw/loss field (2 bits).
const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const SKIP: u8 = 3;

/// A solved class in its stored form: 2 bits per slot (draw, win, loss, unused) and a
/// byte per slot of distance in moves (`(plies + 1) / 2`, which the parity restores).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub wdl: Vec<u8>,
    pub moves: Vec<u8>,
}

impl Packed {
    /// Packs working codes (every slot decided or unused; unknown means draw).
    /// Fails when a distance does not fit a byte of moves.
    pub fn from_codes(codes: &[u16]) -> Result<Packed, String> {
        let mut wdl = vec![0u8; codes.len().div_ceil(4)];
        let mut moves = vec![0u8; codes.len()];
        for (i, &c) in codes.iter().enumerate() {
            let (w, m) = match c {
                UNKNOWN => (DRAW, 0),
                UNUSED => (SKIP, 0),
                c => match decode(c) {
                    DbValue::Win(d) => (WIN, d.div_ceil(2)),
                    DbValue::Loss(d) => (LOSS, d / 2),
                    DbValue::Draw => unreachable!("decode never gives a draw"),
                },
            };
            moves[i] = u8::try_from(m).map_err(|_| format!("distance of {m} moves > 255"))?;
            wdl[i / 4] |= w << (2 * (i % 4));
        }
        Ok(Packed { wdl, moves })
    }

    /// The value of a slot, `None` for an unused one.
    #[inline]
    pub fn get(&self, slot: u64) -> Option<DbValue> {
        let i = slot as usize;
        let m = self.moves[i] as u16;
        match self.wdl[i / 4] >> (2 * (i % 4)) & 3 {
            DRAW => Some(DbValue::Draw),
            WIN => Some(DbValue::Win(2 * m - 1)),
            LOSS => Some(DbValue::Loss(2 * m)),
            _ => None,
        }
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        self.moves.len() as u64
    }

    /// True when the class has no slot.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_every_value() {
        let values = [
            DbValue::Win(1),
            DbValue::Loss(0),
            DbValue::Draw,
            DbValue::Win(509),
            DbValue::Loss(510),
        ];
        let mut codes: Vec<u16> = values
            .iter()
            .map(|v| match *v {
                DbValue::Win(d) | DbValue::Loss(d) => code(d),
                DbValue::Draw => UNKNOWN,
            })
            .collect();
        codes.push(UNUSED);
        let p = Packed::from_codes(&codes).unwrap();
        for (i, v) in values.iter().enumerate() {
            assert_eq!(p.get(i as u64), Some(*v));
        }
        assert_eq!(p.get(values.len() as u64), None);
        assert!(Packed::from_codes(&[code(512)]).is_err());
    }
}
