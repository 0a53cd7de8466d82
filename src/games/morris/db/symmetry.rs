//! The 16 symmetries of the Morris board: the 8 of the square (rotations and mirrors)
//! times swapping the inner and outer squares. Each maps lines to lines and mills to
//! mills, so it maps positions to positions of equal value.

use std::sync::LazyLock;

use super::super::notation::{NAMES, POINTS};

/// Number of board symmetries.
pub const SYMMETRIES: usize = 16;

/// Point permutations and byte tables to map whole point masks quickly.
struct Tables {
    /// `perm[s][p]`: the image of point `p` under symmetry `s` (symmetry 0 is the identity).
    perm: [[u8; POINTS]; SYMMETRIES],
    /// `bytes[s][k][v]`: the image of the mask `v << 8k` under symmetry `s`.
    bytes: Vec<[[u32; 256]; 3]>,
}

/// Grid coordinates of a point, centred: `x`, `y` in -3..=3.
fn coords(p: usize) -> (i32, i32) {
    let n = NAMES[p].as_bytes();
    (n[0] as i32 - b'a' as i32 - 3, n[1] as i32 - b'1' as i32 - 3)
}

fn point_at(x: i32, y: i32) -> usize {
    (0..POINTS).find(|&p| coords(p) == (x, y)).expect("a symmetry maps points to points")
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut perm = [[0u8; POINTS]; SYMMETRIES];
    for (s, row) in perm.iter_mut().enumerate() {
        for (p, image) in row.iter_mut().enumerate() {
            let (mut x, mut y) = coords(p);
            // Bit 3: swap the inner and outer squares (the middle one stays).
            if s & 8 != 0 {
                match x.abs().max(y.abs()) {
                    3 => (x, y) = (x / 3, y / 3),
                    1 => (x, y) = (x * 3, y * 3),
                    _ => {}
                }
            }
            // Bit 2: mirror left-right; bits 0-1: quarter turns.
            if s & 4 != 0 {
                x = -x;
            }
            for _ in 0..s & 3 {
                (x, y) = (-y, x);
            }
            *image = point_at(x, y) as u8;
        }
    }
    let bytes = perm
        .iter()
        .map(|row| {
            let mut t = [[0u32; 256]; 3];
            for (k, table) in t.iter_mut().enumerate() {
                for (v, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        if v & 1 << bit != 0 {
                            *image |= 1 << row[8 * k + bit];
                        }
                    }
                }
            }
            t
        })
        .collect();
    Tables { perm, bytes }
});

/// The image of point `p` under symmetry `s`.
pub fn map_point(s: usize, p: usize) -> usize {
    TABLES.perm[s][p] as usize
}

/// The image of the point mask `mask` under symmetry `s`.
#[inline]
pub fn map_mask(s: usize, mask: u32) -> u32 {
    let t = &TABLES.bytes[s];
    t[0][(mask & 0xff) as usize] | t[1][(mask >> 8 & 0xff) as usize] | t[2][(mask >> 16) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::Morris;

    #[test]
    fn every_symmetry_maps_lines_and_mills_to_themselves() {
        for s in 0..SYMMETRIES {
            for p in 0..POINTS {
                let adj = Morris::adjacent(p);
                assert_eq!(
                    map_mask(s, adj),
                    Morris::adjacent(map_point(s, p)),
                    "sym {s} point {p}"
                );
            }
            let mut mills: Vec<u32> = Morris::mills().iter().map(|&m| map_mask(s, m)).collect();
            let mut orig = Morris::mills().to_vec();
            mills.sort();
            orig.sort();
            assert_eq!(mills, orig, "sym {s}");
        }
    }

    #[test]
    fn the_symmetries_are_sixteen_distinct_permutations() {
        let mut seen: Vec<[u8; POINTS]> = TABLES.perm.to_vec();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), SYMMETRIES);
        assert!((0..POINTS).all(|p| map_point(0, p) == p));
    }
}
