//! The DEFAULT win test on bitboards, for playouts: a flood fill over one player's stones
//! that labels each stone with its sheet of the strip's orientation double cover.
//!
//! Crossing the seam flips the sheet (parity of the winding). A network holds an odd loop
//! exactly when the labelling meets a conflict: a link (or a zone's own seam step) between
//! two labelled nodes whose sheets disagree, i.e. a node joined to its own twin. Zones are
//! network nodes: reaching a zone cell labels the zone, and the zone labels its other
//! stones. The player qualifies when one piece holds the three zones, or one piece holds
//! two zones and some piece holds an odd loop (`network` module doc). Every odd loop
//! crosses the seam, so it passes a row-1 cell (a seam link's or a zone's seam step's
//! end): pieces that touch no zone need only be flooded from row 1.

use std::sync::LazyLock;

use super::geometry::{CELLS, GEOMETRY, ROW_LEN};

/// A set of cells: bit `c % 64` of word `c / 64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cells(pub [u64; 3]);

impl Cells {
    /// The empty set.
    pub const EMPTY: Cells = Cells([0; 3]);

    /// The set of one cell.
    #[inline]
    pub fn one(c: usize) -> Cells {
        let mut w = [0; 3];
        w[c >> 6] = 1 << (c & 63);
        Cells(w)
    }

    /// Every cell not in the set.
    #[inline]
    pub fn complement(self) -> Cells {
        ALL.and_not(self)
    }

    #[inline]
    pub fn insert(&mut self, c: usize) {
        self.0[c >> 6] |= 1 << (c & 63);
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    #[inline]
    fn and(self, o: Cells) -> Cells {
        Cells([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }

    #[inline]
    pub fn or(self, o: Cells) -> Cells {
        Cells([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }

    #[inline]
    fn and_not(self, o: Cells) -> Cells {
        Cells([self.0[0] & !o.0[0], self.0[1] & !o.0[1], self.0[2] & !o.0[2]])
    }

    /// Writes the cells of the set in increasing order to the front of `out` and returns
    /// how many there are (a plain loop per word: no iterator state kept in memory).
    #[inline]
    pub fn write_to(self, out: &mut [u8; CELLS]) -> usize {
        let mut n = 0;
        for (i, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out[n] = (i * 64) as u8 | w.trailing_zeros() as u8;
                n += 1;
                w &= w - 1;
            }
        }
        n
    }

    /// Whether the sets share a cell.
    #[inline]
    fn meets(self, o: Cells) -> bool {
        !self.and(o).is_empty()
    }

    /// The set of the cells listed (each below [`CELLS`]). Built in three registers,
    /// each cell masked into its word without a branch or a store.
    #[inline]
    pub fn from_list(list: &[u8]) -> Cells {
        let mut w = [0u64; 3];
        for &c in list {
            let bit = 1u64 << (c & 63);
            let word = c >> 6;
            for (k, x) in w.iter_mut().enumerate() {
                *x |= bit & u64::from(word == k as u8).wrapping_neg();
            }
        }
        Cells(w)
    }

    /// Removes and returns the lowest cell.
    #[inline]
    pub fn pop(&mut self) -> Option<usize> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let b = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(i * 64 + b);
            }
        }
        None
    }
}

/// Every cell of the board.
const ALL: Cells = Cells([!0, !0, (1 << (CELLS - 128)) - 1]);

/// No zone: the entry of [`Tables::zone_of`] for cells outside a player's zones.
const NO_ZONE: u8 = 0xFF;

/// The board as bitboards, derived from [`GEOMETRY`].
struct Tables {
    /// Per cell: neighbours on the same sheet (no seam step).
    same: [Cells; CELLS],
    /// Per cell: neighbours across the seam.
    seam: [Cells; CELLS],
    /// Per player and cell: `zone | parity << 2` relative to the zone node, or [`NO_ZONE`].
    zone_of: [[u8; CELLS]; 2],
    /// Per player, zone and parity: the zone's cells at that parity from the zone node.
    zone_cells: [[[Cells; 2]; 3]; 2],
    /// Row 1, where every odd loop passes.
    row1: Cells,
    /// Rows 1 and 12: the cells with neighbours across the seam.
    seam_ends: Cells,
    /// Per player: the cells of its zones.
    zone_any: [Cells; 2],
}

impl Tables {
    /// The union of `table`'s sets of the cells of `cells`.
    #[inline]
    fn gather(&self, table: &[Cells; CELLS], cells: Cells) -> Cells {
        let mut out = Cells::EMPTY;
        for (i, &word) in cells.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out = out.or(table[i * 64 + w.trailing_zeros() as usize]);
                w &= w - 1;
            }
        }
        out
    }
}

static TABLES: LazyLock<Box<Tables>> = LazyLock::new(|| {
    let g = &*GEOMETRY;
    let mut t = Box::new(Tables {
        same: [Cells::EMPTY; CELLS],
        seam: [Cells::EMPTY; CELLS],
        zone_of: [[NO_ZONE; CELLS]; 2],
        zone_cells: [[[Cells::EMPTY; 2]; 3]; 2],
        row1: Cells::EMPTY,
        seam_ends: Cells::EMPTY,
        zone_any: [Cells::EMPTY; 2],
    });
    for c in 0..CELLS {
        for l in &g.links[c] {
            let set = if l.wind & 1 == 0 { &mut t.same[c] } else { &mut t.seam[c] };
            set.insert(l.to as usize);
        }
        for side in 0..2 {
            if let Some((z, w)) = g.zone_of[side][c] {
                let parity = (w & 1) as u8;
                t.zone_of[side][c] = z | parity << 2;
                t.zone_cells[side][z as usize][parity as usize].insert(c);
                t.zone_any[side].insert(c);
            }
        }
    }
    for c in 0..ROW_LEN[0] {
        t.row1.insert(c);
    }
    for c in (0..FIRST_ROW_END).chain(LAST_ROW_START..CELLS) {
        t.seam_ends.insert(c);
    }
    t
});

/// One player's pieces being flooded: labelled stones per sheet, and the zones reached.
struct Flood<'a> {
    t: &'a Tables,
    side: usize,
    stones: Cells,
    /// Labelled stones on sheet 0 and sheet 1 (a stone on both: its piece is odd).
    label: [Cells; 2],
    /// Labelled stones not yet expanded, per sheet.
    todo: [Cells; 2],
    /// Per zone: its sheet once labelled.
    zone: [Option<u8>; 3],
    /// The zones of the piece being flooded.
    piece: u8,
    /// A zone was reached on both sheets (an odd loop through it).
    zone_twice: bool,
}

impl Flood<'_> {
    /// Labels the stones `new` on `sheet`.
    #[inline]
    fn reach(&mut self, new: Cells, sheet: usize) {
        let fresh = new.and_not(self.label[sheet]);
        self.label[sheet] = self.label[sheet].or(fresh);
        self.todo[sheet] = self.todo[sheet].or(fresh);
    }

    /// Labels zone `z` on `sheet` and its stones, or notes an odd loop.
    fn reach_zone(&mut self, z: usize, sheet: u8) {
        match self.zone[z] {
            Some(s) => self.zone_twice |= s != sheet,
            None => {
                self.zone[z] = Some(sheet);
                self.piece |= 1 << z;
                let [even, odd] = self.t.zone_cells[self.side][z];
                let s = sheet as usize;
                self.reach(even.and(self.stones), s);
                self.reach(odd.and(self.stones), s ^ 1);
            }
        }
    }

    /// Expands labelled stones until the piece is complete, or until it holds the three
    /// zones (then returns true). Layer by layer: the neighbours of all the stones to
    /// expand are gathered with independent table loads, then labelled at once.
    fn run(&mut self) -> bool {
        let t = self.t;
        loop {
            let todo = std::mem::take(&mut self.todo);
            if todo[0].is_empty() && todo[1].is_empty() {
                return false;
            }
            let mut next = [Cells::EMPTY; 2];
            for sheet in 0..2 {
                next[sheet] = next[sheet].or(t.gather(&t.same, todo[sheet]));
                let ends = todo[sheet].and(t.seam_ends);
                if !ends.is_empty() {
                    next[sheet ^ 1] = next[sheet ^ 1].or(t.gather(&t.seam, ends));
                }
            }
            for (sheet, near) in next.into_iter().enumerate() {
                let fresh = near.and(self.stones).and_not(self.label[sheet]);
                self.label[sheet] = self.label[sheet].or(fresh);
                self.todo[sheet] = self.todo[sheet].or(fresh);
                if fresh.meets(t.zone_any[self.side]) {
                    // Each zone by mask: a cell at parity p of zone z labels z on sheet ^ p.
                    for z in 0..3 {
                        for (parity, cells) in t.zone_cells[self.side][z].into_iter().enumerate() {
                            if fresh.meets(cells) {
                                self.reach_zone(z, (sheet ^ parity) as u8);
                            }
                        }
                    }
                    if self.piece == 7 {
                        return true;
                    }
                }
            }
            // Two zones joined and an odd loop seen (in this piece or an earlier one):
            // the player qualifies, whatever the rest of the piece holds.
            if self.piece.count_ones() >= 2 && self.odd() {
                return true;
            }
        }
    }

    /// True once some labelled piece holds an odd loop.
    fn odd(&self) -> bool {
        self.zone_twice || !self.label[0].and(self.label[1]).is_empty()
    }
}

/// Cells below this index are row 1; from this one on, row 12: the seam's two sides.
const FIRST_ROW_END: usize = ROW_LEN[0];
const LAST_ROW_START: usize = CELLS - ROW_LEN[ROW_LEN.len() - 1];

/// Whether a player whose stones are `stones` qualifies under the DEFAULT rule (zones are
/// network nodes, odd loops). `side` is 0 for Red, 1 for Blue (whose zones apply).
pub fn qualifies(stones: Cells, side: usize) -> bool {
    let t = &**TABLES;
    let mut f = Flood {
        t,
        side,
        stones,
        label: [Cells::EMPTY; 2],
        todo: [Cells::EMPTY; 2],
        zone: [None; 3],
        piece: 0,
        zone_twice: false,
    };
    let mut two = false;
    for z in 0..3 {
        if f.zone[z].is_none() {
            f.piece = 0;
            f.reach_zone(z, 0);
            if f.run() {
                return true;
            }
            two |= f.piece.count_ones() >= 2;
        }
    }
    if !two {
        return false;
    }
    // Pieces without a zone may still hold the odd loop.
    loop {
        if f.odd() {
            return true;
        }
        let mut rest = t.row1.and(stones).and_not(f.label[0].or(f.label[1]));
        let Some(c) = rest.pop() else { return false };
        f.reach(Cells::one(c), 0);
        f.run();
    }
}

/// The stones of colour `me` on `cells`, as a set (without a branch per cell: on a
/// full board whether a cell holds `me` is a coin toss; each word is built in a register).
pub fn stones_of(cells: &[u8; CELLS], me: u8) -> Cells {
    let mut s = Cells::EMPTY;
    for (word, chunk) in s.0.iter_mut().zip(cells.chunks(64)) {
        let mut w = 0u64;
        for (b, &v) in chunk.iter().enumerate() {
            w |= u64::from(v == me) << b;
        }
        *word = w;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{CELLS, Cells};
    use crate::core::Rng;

    #[test]
    fn a_set_lists_its_cells_and_is_rebuilt_from_the_list() {
        let mut rng = Rng::new(9);
        let mut out = [0u8; CELLS];
        for _ in 0..200 {
            let set = Cells([rng.next_u64(), rng.next_u64(), rng.next_u64() & ((1 << 10) - 1)]);
            let n = set.write_to(&mut out);
            let listed = &out[..n];
            let expected: Vec<u8> = (0..CELLS)
                .filter(|&c| set.0[c / 64] >> (c % 64) & 1 == 1)
                .map(|c| c as u8)
                .collect();
            assert_eq!(listed, &expected[..]);
            assert_eq!(Cells::from_list(listed), set);
        }
    }
}
