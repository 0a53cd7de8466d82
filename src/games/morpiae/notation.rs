//! Morpiae moves and their notation `x,y,D,k`: the new point, the line's direction and
//! the index of the new point on the line counted from the line's first point.

use std::fmt;

use crate::core::MoveError;

/// The four line directions, as steps `(dx, dy)`: `H` (+x), `V` (+y), `D` (+x+y),
/// `A` (+x−y). A line's first point is its end with the smaller x (for `V`, smaller y).
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The direction letters, in the order of [`DIRS`].
pub const DIR_LETTERS: [char; 4] = ['H', 'V', 'D', 'A'];

/// One turn: a new circle at `(x, y)` and the five-point line of direction `dir` that
/// holds it as its `k`-th point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MorpiaeMove {
    pub x: i32,
    pub y: i32,
    /// Index into [`DIRS`].
    pub dir: u8,
    /// 0…4: the new point's index on the line.
    pub k: u8,
}

impl MorpiaeMove {
    /// The `i`-th point of the line (i = 0…4).
    pub fn point(self, i: i32) -> (i32, i32) {
        let (dx, dy) = DIRS[self.dir as usize];
        let k = self.k as i32;
        (self.x + (i - k) * dx, self.y + (i - k) * dy)
    }

    /// The move drawing the line of direction `dir` from `(sx, sy)` whose point `k`
    /// (0…4) is the new one.
    #[inline]
    pub fn from_start((sx, sy): (i32, i32), dir: u8, k: i32) -> MorpiaeMove {
        let (dx, dy) = DIRS[dir as usize];
        MorpiaeMove { x: sx + k * dx, y: sy + k * dy, dir, k: k as u8 }
    }

    /// The line's first point.
    pub fn start(self) -> (i32, i32) {
        self.point(0)
    }
}

impl fmt::Display for MorpiaeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{},{}", self.x, self.y, DIR_LETTERS[self.dir as usize], self.k)
    }
}

/// The index of a direction letter (`H`, `V`, `D`, `A`, either case).
pub fn dir_index(c: &str) -> Option<u8> {
    let mut chars = c.chars();
    let (Some(ch), None) = (chars.next(), chars.next()) else {
        return None;
    };
    DIR_LETTERS.iter().position(|&l| l == ch.to_ascii_uppercase()).map(|d| d as u8)
}

/// Reads a lattice coordinate: a decimal integer, possibly negative.
pub fn coord(s: &str) -> Option<i32> {
    s.parse::<i32>().ok()
}

/// Reads the syntax of a move token (not its legality).
pub fn parse_syntax(s: &str) -> Result<MorpiaeMove, MoveError> {
    let bad = || MoveError::Syntax(format!("'{s}' is not a Morpiae move x,y,D,k (e.g. 4,3,H,4)"));
    let parts: Vec<&str> = s.split(',').collect();
    let [x, y, d, k] = parts[..] else {
        return Err(bad());
    };
    let (x, y) = (coord(x).ok_or_else(bad)?, coord(y).ok_or_else(bad)?);
    let dir = dir_index(d).ok_or_else(bad)?;
    let k = match k {
        "0" | "1" | "2" | "3" | "4" => k.as_bytes()[0] - b'0',
        _ => return Err(bad()),
    };
    Ok(MorpiaeMove { x, y, dir, k })
}

/// Packed moves keep 12 bits per coordinate: points within ±2047 of the origin.
const PACK_SPAN: i32 = 2048;

impl crate::search::PackedMove for MorpiaeMove {
    fn pack(self) -> Option<u32> {
        let (x, y) = (self.x + PACK_SPAN, self.y + PACK_SPAN);
        let fits = (0..2 * PACK_SPAN).contains(&x) && (0..2 * PACK_SPAN).contains(&y);
        fits.then_some(
            x as u32 | (y as u32) << 12 | (self.dir as u32) << 24 | (self.k as u32) << 26,
        )
    }

    fn unpack(bits: u32) -> MorpiaeMove {
        MorpiaeMove {
            x: (bits & 0xFFF) as i32 - PACK_SPAN,
            y: (bits >> 12 & 0xFFF) as i32 - PACK_SPAN,
            dir: (bits >> 24 & 3) as u8,
            k: (bits >> 26 & 7) as u8 % 5,
        }
    }
}
