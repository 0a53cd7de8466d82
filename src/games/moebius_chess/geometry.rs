//! The 16×8 cylinder as 128-bit bitboards: square numbering, twins, precomputed rays,
//! leaper and pawn tables, slider attacks and Zobrist keys.
//!
//! Square `sq = 16·y + x` (row `y` from the top of the picture, column `x`), so bit `sq`
//! of a `u128` is that square and each row is one 16-bit lane. Twins are `sq ^ 0x78`
//! (`x ^ 8`, `7 − y`), and the twin of a whole bitboard is its byte reversal.
//! Along every non-horizontal ray the square index is monotonic (each step changes `y`),
//! so the classic "ray xor ray-beyond-the-first-blocker" trick works with wrapping
//! diagonals; rows wrap on themselves and are handled as rotated 16-bit lanes.

use std::sync::LazyLock;

/// A set of squares, bit `sq` for square `sq`.
pub type Bb = u128;

/// Number of squares.
pub const SQUARES: usize = 128;
/// "No square" (empty en-passant field, no push).
pub const NO_SQ: u8 = 255;

/// `BITS[sq]` is the set holding only `sq` (a load is cheaper than a variable 128-bit
/// shift, which compiles to two shifts and a select).
static BITS: [Bb; SQUARES] = {
    let mut b = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        b[sq] = 1 << sq;
        sq += 1;
    }
    b
};

/// The set holding only `sq` (`sq < 128`).
#[inline(always)]
pub fn bit(sq: usize) -> Bb {
    BITS[sq & (SQUARES - 1)]
}

/// The twin square: same name, prime toggled (`e4` ↔ `e4'`).
#[inline(always)]
pub const fn twin(sq: usize) -> usize {
    sq ^ 0x78
}

/// The twins of every square of `bb` (byte reversal: rows reversed, halves swapped).
#[inline(always)]
pub const fn twin_bb(bb: Bb) -> Bb {
    bb.swap_bytes()
}

/// Column 0..16 of a square.
#[inline(always)]
pub const fn col(sq: usize) -> usize {
    sq & 15
}

/// Row 0..8 of a square (0 = top of the picture).
#[inline(always)]
pub const fn row(sq: usize) -> usize {
    sq >> 4
}

/// The square at column `x` (taken modulo 16) and row `y`.
#[inline(always)]
pub const fn square(x: usize, y: usize) -> usize {
    y * 16 + (x & 15)
}

/// The left (unprimed) half: columns 0–7.
pub const LEFT_HALF: Bb = {
    let mut b = 0u128;
    let mut y = 0;
    while y < 8 {
        b |= 0xFFu128 << (16 * y);
        y += 1;
    }
    b
};

/// Squares of `set`, lowest first.
#[inline(always)]
pub fn squares(set: Bb) -> Squares {
    Squares { low: set as u64, high: (set >> 64) as u64 }
}

/// The iterator of [`squares`]: the two 64-bit halves of the set one after the other
/// (taking the lowest square of a half is two instructions; of a 128-bit set, with its
/// carry between halves, about ten).
pub struct Squares {
    low: u64,
    high: u64,
}

impl Iterator for Squares {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.low != 0 {
            let sq = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            Some(sq)
        } else if self.high != 0 {
            let sq = 64 + self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            Some(sq)
        } else {
            None
        }
    }
}

/// The six non-horizontal ray directions: `(dx, dy)`; the first three go up (indices fall).
pub const RAY_DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (-1, -1), (0, 1), (1, 1), (-1, 1)];
/// Index of the vertical rays in [`RAY_DIRS`].
pub const N: usize = 0;
/// Index of the downward vertical ray.
pub const S: usize = 3;

/// Precomputed tables.
pub struct Tables {
    /// `rays[d][sq]`: squares from `sq` (exclusive) in direction `RAY_DIRS[d]` to the edge.
    pub rays: [[Bb; SQUARES]; 6],
    /// Row and column of each square (where a rook or queen could attack it from).
    pub rook_lines: [Bb; SQUARES],
    /// The four diagonals through each square.
    pub bishop_lines: [Bb; SQUARES],
    /// Knight steps from each square (wrapping round the rows).
    pub knight: [Bb; SQUARES],
    /// King steps from each square (wrapping round the rows).
    pub king: [Bb; SQUARES],
    /// `pawn_attacks[c][sq]`: the squares a pawn of colour `c` on `sq` captures on.
    pub pawn_attacks: [[Bb; SQUARES]; 2],
    /// `pawn_from[c][sq]`: the squares from which a pawn of colour `c` captures on `sq`.
    pub pawn_from: [[Bb; SQUARES]; 2],
    /// `push[c][sq]`: the square one step forward for a pawn of colour `c`.
    pub push: [[u8; SQUARES]; 2],
    /// Squares where a pawn of colour `c` promotes (ranks 8/8' for White, 1/1' for Black).
    pub promo: [Bb; 2],
    /// Zobrist keys of a piece code (1..=12) on a square.
    pub z_piece: [[u64; SQUARES]; 13],
    /// Zobrist keys of each set of castling rights.
    pub z_castle: [u64; 16],
    /// Zobrist keys of the en-passant square.
    pub z_ep: [u64; SQUARES],
    /// Zobrist key of Black to move.
    pub z_black: u64,
}

/// The forward row step of a pawn of colour `c` (0 White, 1 Black) on column `x`:
/// ranks grow upward on the left half and downward on the right half.
pub const fn pawn_dy(c: usize, x: usize) -> i32 {
    let up = (x < 8) == (c == 0);
    if up { -1 } else { 1 }
}

fn offset(sq: usize, dx: i32, dy: i32) -> Option<usize> {
    let y = row(sq) as i32 + dy;
    if !(0..8).contains(&y) {
        return None;
    }
    let x = (col(sq) as i32 + dx).rem_euclid(16);
    Some(square(x as usize, y as usize))
}

/// The tables, built on first use.
pub static TABLES: LazyLock<Box<Tables>> = LazyLock::new(|| {
    let mut t = Box::new(Tables {
        rays: [[0; SQUARES]; 6],
        rook_lines: [0; SQUARES],
        bishop_lines: [0; SQUARES],
        knight: [0; SQUARES],
        king: [0; SQUARES],
        pawn_attacks: [[0; SQUARES]; 2],
        pawn_from: [[0; SQUARES]; 2],
        push: [[NO_SQ; SQUARES]; 2],
        promo: [0; 2],
        z_piece: [[0; SQUARES]; 13],
        z_castle: [0; 16],
        z_ep: [0; SQUARES],
        z_black: 0,
    });
    for sq in 0..SQUARES {
        for (d, &(dx, dy)) in RAY_DIRS.iter().enumerate() {
            let mut cur = sq;
            while let Some(next) = offset(cur, dx, dy) {
                t.rays[d][sq] |= bit(next);
                cur = next;
            }
        }
        t.rook_lines[sq] = t.rays[N][sq] | t.rays[S][sq] | (0xFFFFu128 << (16 * row(sq)));
        t.bishop_lines[sq] = t.rays[1][sq] | t.rays[2][sq] | t.rays[4][sq] | t.rays[5][sq];
        for (dx, dy) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
            if let Some(to) = offset(sq, dx, dy) {
                t.knight[sq] |= bit(to);
            }
        }
        for dx in -1..=1 {
            for dy in -1..=1 {
                if (dx, dy) != (0, 0)
                    && let Some(to) = offset(sq, dx, dy)
                {
                    t.king[sq] |= bit(to);
                }
            }
        }
        for c in 0..2 {
            let dy = pawn_dy(c, col(sq));
            if let Some(to) = offset(sq, 0, dy) {
                t.push[c][sq] = to as u8;
            }
            for dx in [-1, 1] {
                if let Some(to) = offset(sq, dx, dy) {
                    t.pawn_attacks[c][sq] |= bit(to);
                    t.pawn_from[c][to] |= bit(sq);
                }
            }
        }
    }
    // White promotes on rank 8 (left, y = 0) and 8' (right, y = 7); Black on 1 and 1'.
    t.promo[0] = (0xFFu128) | (0xFF00u128 << 112);
    t.promo[1] = (0xFFu128 << 112) | 0xFF00u128;
    // Fixed keys from the project's seeded RNG: identical on every run.
    let mut rng = crate::core::Rng::new(0x3C6E_F372_FE94_F82Bu64);
    let mut next = move || rng.next_u64();
    for code in 1..13 {
        t.z_piece[code].iter_mut().for_each(|k| *k = next());
    }
    t.z_castle.iter_mut().for_each(|k| *k = next());
    t.z_ep.iter_mut().for_each(|k| *k = next());
    t.z_black = next();
    t
});

/// The squares a rook on `sq` reaches along its row, both ways round, given `occ`.
#[inline(always)]
pub fn row_attacks(sq: usize, occ: Bb) -> Bb {
    let (x, y) = (col(sq) as u32, row(sq) as u32);
    let lane = (occ >> (16 * y)) as u16;
    // Rotate so the slider sits on bit 0; bits then count squares to its right.
    let r = lane.rotate_right(x) & !1;
    let att: u16 = if r == 0 {
        0xFFFE
    } else {
        let first_right = r.trailing_zeros();
        let first_left = 15 - r.leading_zeros();
        let right = ((1u32 << (first_right + 1)) - 2) as u16;
        let left = (0xFFFFu32 << first_left) as u16;
        right | left
    };
    (att.rotate_left(x) as Bb) << (16 * y)
}

/// Attacks along ray `d` from `sq`, stopping at (and including) the first blocker.
#[inline(always)]
pub fn ray_attacks(t: &Tables, d: usize, sq: usize, occ: Bb) -> Bb {
    let ray = t.rays[d][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    ray ^ t.rays[d][nearest(d, blockers)]
}

/// The blocker of `blockers` (on ray `d`) nearest the ray's origin.
#[inline(always)]
pub fn nearest(d: usize, blockers: Bb) -> usize {
    if d < 3 { 127 - blockers.leading_zeros() as usize } else { blockers.trailing_zeros() as usize }
}

/// Rook attacks from `sq` (row both ways round, column), given `occ`.
#[inline(always)]
pub fn rook_attacks(t: &Tables, sq: usize, occ: Bb) -> Bb {
    row_attacks(sq, occ) | ray_attacks(t, N, sq, occ) | ray_attacks(t, S, sq, occ)
}

/// Bishop attacks from `sq` (four wrapping diagonals), given `occ`.
#[inline(always)]
pub fn bishop_attacks(t: &Tables, sq: usize, occ: Bb) -> Bb {
    ray_attacks(t, 1, sq, occ)
        | ray_attacks(t, 2, sq, occ)
        | ray_attacks(t, 4, sq, occ)
        | ray_attacks(t, 5, sq, occ)
}

/// The name of a square: `e4` or `e4'`.
pub fn square_name(sq: usize) -> String {
    let (x, y) = (col(sq), row(sq));
    if x < 8 {
        format!("{}{}", (b'a' + x as u8) as char, 8 - y)
    } else {
        format!("{}{}'", (b'a' + (x - 8) as u8) as char, y + 1)
    }
}

/// The square of a name written by [`square_name`], or its apostrophe-free alias (files
/// `i`…`p` for `a'`…`h'`). Returns the square and the number of bytes read.
pub fn parse_square(s: &[u8]) -> Option<(usize, usize)> {
    let (&f, &r) = (s.first()?, s.get(1)?);
    if !(b'1'..=b'8').contains(&r) {
        return None;
    }
    let rank = (r - b'1') as usize; // 0-based
    match f {
        b'a'..=b'h' => {
            let file = (f - b'a') as usize;
            if s.get(2) == Some(&b'\'') {
                Some((square(file + 8, rank), 3))
            } else {
                Some((square(file, 7 - rank), 2))
            }
        }
        b'i'..=b'p' => Some((square((f - b'i') as usize + 8, rank), 2)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_and_names() {
        for sq in 0..SQUARES {
            assert_eq!(twin_bb(bit(sq)), bit(twin(sq)));
            let name = square_name(sq);
            assert_eq!(parse_square(name.as_bytes()), Some((sq, name.len())));
            let tn = square_name(twin(sq));
            assert_eq!(tn.trim_end_matches('\''), name.trim_end_matches('\''));
        }
        assert_eq!(square_name(square(0, 0)), "a8");
        assert_eq!(square_name(square(8, 0)), "a1'");
        assert_eq!(square_name(square(15, 7)), "h8'");
        assert_eq!(parse_square(b"m8"), Some((square(12, 7), 2)));
    }

    #[test]
    fn row_attacks_wrap() {
        let a1 = square(0, 7);
        assert_eq!(row_attacks(a1, bit(a1)).count_ones(), 15);
        // a blocker on h1 stops the rightward slide; the leftward one wraps to h8'..b8'.
        let occ = bit(a1) | bit(square(7, 7)) | bit(square(9, 7));
        let att = row_attacks(a1, occ);
        assert_eq!(att, (0xFEu128 << 112) | (0xFE00u128 << 112));
    }
}
