//! Board geometry: square names, the border cycle, the push lines, groups and the
//! Zobrist keys. Squares are numbered `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56).

use std::sync::LazyLock;

/// A set of squares, bit `s` for square `s`.
pub type Bits = u64;

/// The 24 border squares in the cyclic order of the setup string.
pub const BORDER_ORDER: [u8; 24] = [
    1, 2, 3, 4, 5, 6, // b1 … g1
    15, 23, 31, 39, 47, 55, // h2 … h7
    62, 61, 60, 59, 58, 57, // g8 … b8
    48, 40, 32, 24, 16, 8, // a7 … a2
];

/// The four unused corners a1, h1, a8, h8.
pub const CORNERS: Bits = 1 | 1 << 7 | 1 << 56 | 1 << 63;
/// The 6×6 field b2–g7.
pub const FIELD: Bits = 0x007E_7E7E_7E7E_7E00;
/// The 24 border squares.
pub const BORDER: Bits = !FIELD & !CORNERS;

const FILE_A: Bits = 0x0101_0101_0101_0101;
const FILE_H: Bits = FILE_A << 7;

/// The name of a square, `a1` … `h8`.
pub fn square_name(sq: u8) -> String {
    let file = (b'a' + sq % 8) as char;
    let rank = (b'1' + sq / 8) as char;
    format!("{file}{rank}")
}

/// The square named `s`, if `s` is a square name.
pub fn parse_square(s: &str) -> Option<u8> {
    match s.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (f - b'a')),
        _ => None,
    }
}

/// The orthogonal neighbours of every square of `x` (no wrap between files a and h).
pub fn neighbours(x: Bits) -> Bits {
    (x << 8) | (x >> 8) | ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H)
}

/// The orthogonally connected group of `men` that contains the squares of `seed`.
pub fn flood(seed: Bits, men: Bits) -> Bits {
    let mut group = seed & men;
    loop {
        let next = (group | neighbours(group)) & men;
        if next == group {
            return group;
        }
        group = next;
    }
}

/// The size of the largest group of `men`.
pub fn largest_group(men: Bits) -> u32 {
    let mut rest = men;
    let mut best = 0;
    while rest.count_ones() > best {
        let g = flood(rest & rest.wrapping_neg(), rest);
        best = best.max(g.count_ones());
        rest &= !g;
    }
    best
}

/// The sizes of the groups of `men`, largest first.
pub fn group_sizes(men: Bits) -> Vec<u32> {
    let mut rest = men;
    let mut sizes = Vec::new();
    while rest != 0 {
        let g = flood(rest & rest.wrapping_neg(), rest);
        sizes.push(g.count_ones());
        rest &= !g;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// Per border square: the six field squares of its push line, nearest first.
pub struct Tables {
    /// `lines[s]`: the field squares in front of border square `s` (zero elsewhere).
    pub lines: [[u8; 6]; 64],
    /// `line_mask[s][k]`: the first `k` of those squares as a set (`k` = 6: all of them;
    /// `k` = [`crate::games::mabula::Mabula::max_push`]: where the marble may land).
    pub line_mask: [[Bits; 7]; 64],
    /// Zobrist keys per colour and square, and the key of White to move.
    pub z_men: [[u64; 64]; 2],
    pub z_white: u64,
}

/// The geometry tables, built once.
pub static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut lines = [[0u8; 6]; 64];
    let mut line_mask = [[0; 7]; 64];
    for &b in &BORDER_ORDER {
        let (file, rank) = (b % 8, b / 8);
        let step: i8 = match (file, rank) {
            (_, 0) => 8,
            (7, _) => -1,
            (_, 7) => -8,
            _ => 1,
        };
        let masks = &mut line_mask[b as usize];
        for (i, slot) in lines[b as usize].iter_mut().enumerate() {
            *slot = (b as i8 + step * (i as i8 + 1)) as u8;
            masks[i + 1] = masks[i] | 1 << *slot;
        }
        debug_assert_eq!(masks[6] & !FIELD, 0);
    }
    // Fixed keys from the project's seeded RNG: identical on every run.
    let mut rng = crate::core::Rng::new(0x4D41_4255_4C41_u64);
    let mut next = move || rng.next_u64();
    let mut z_men = [[0u64; 64]; 2];
    for side in &mut z_men {
        side.iter_mut().for_each(|k| *k = next());
    }
    Tables { lines, line_mask, z_men, z_white: next() }
});

/// The indices of the set bits of `mask`, lowest first.
pub fn bits(mut mask: Bits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            i
        })
    })
}
