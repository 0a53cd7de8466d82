//! The Morpiae drawing: circles, strokes and colours on a lattice that grows as needed,
//! the list of legal lines kept up to date move by move, captures and the hash.
//!
//! The lattice is stored as a square window of cells around the drawing; the window
//! doubles (and recentres) whenever a circle comes near its edge, so no line is ever
//! clipped. Coordinates in moves and position strings are lattice coordinates, never
//! cell indices.

use super::notation::{DIRS, MorpiaeMove};
use super::options::Variant;
use crate::core::Side;

/// Cell bits: a circle is drawn here.
const CIRCLE: u16 = 1;
/// Cell bits: the circle is coloured by player 1 (red) / player 2 (green).
const OWNER: [u16; 2] = [2, 4];
/// Cell bits: the unit segment from this point to the next point in direction `d` is
/// drawn (`SEG << d`).
const SEG: u16 = 8;
/// Cell bits: the circle is crossed in direction `d` under the rule in force
/// (`CROSSED << d`; 5D: it lies on a line of `d`; 5T: strokes of `d` on both its sides),
/// kept by [`Drawing::stroke`] so that a crossing is one read of one cell.
const CROSSED: u16 = 128;

/// Cells kept free between every circle and the window's edge: a line reaches 4 points
/// from a new circle and a crossing test looks one point further.
const MARGIN: i32 = 6;
/// Side of the first window.
const FIRST_WIDTH: i32 = 64;

/// The 36 circles of the Greek cross (x, y ∈ 0…9).
pub fn greek_cross() -> Vec<(i32, i32)> {
    const ROWS: [&str; 10] = [
        "...XXXX...",
        "...X..X...",
        "...X..X...",
        "XXXX..XXXX",
        "X........X",
        "X........X",
        "XXXX..XXXX",
        "...X..X...",
        "...X..X...",
        "...XXXX...",
    ];
    let mut out = Vec::new();
    for (row, text) in ROWS.iter().enumerate() {
        for (x, c) in text.bytes().enumerate() {
            if c == b'X' {
                out.push((x as i32, 9 - row as i32));
            }
        }
    }
    out
}

/// splitmix64 finaliser: hash keys computed from coordinates, so the lattice needs no
/// key table and has no bound.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn pack(x: i32, y: i32, tag: u64) -> u64 {
    ((x as u32 as u64) << 32 | y as u32 as u64) ^ tag.rotate_right(8)
}

/// Hash key of a circle at `(x, y)`.
pub fn key_circle(x: i32, y: i32) -> u64 {
    mix(pack(x, y, 1))
}

/// Hash key of the line of direction `d` starting at `(x, y)`.
pub fn key_line(x: i32, y: i32, d: u8) -> u64 {
    mix(pack(x, y, 2 + d as u64))
}

/// Hash key of a circle at `(x, y)` coloured by `side`.
pub fn key_owner(x: i32, y: i32, side: Side) -> u64 {
    mix(pack(x, y, 8 + side.index() as u64))
}

/// Hash key of player 2 to move.
pub const KEY_P2: u64 = 0x5bd1_e995_3c6e_f372;

/// The square window of cells that stores the lattice.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Side of the window.
    width: i32,
    /// Lattice coordinate of the window's first column and first row.
    origin: i32,
    cells: Vec<u16>,
}

impl Grid {
    /// A window of `width` cells centred on the Greek cross.
    fn new(width: i32) -> Grid {
        Grid { width, origin: 5 - width / 2, cells: vec![0; (width * width) as usize] }
    }

    /// The cell of `(x, y)`, or 0 (nothing) outside the window.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> u16 {
        let (cx, cy) = (x - self.origin, y - self.origin);
        if cx < 0 || cy < 0 || cx >= self.width || cy >= self.width {
            return 0;
        }
        self.cells[(cy * self.width + cx) as usize]
    }

    /// True when `(x, y)` lies inside the window.
    #[inline]
    fn inside(&self, x: i32, y: i32) -> bool {
        let (cx, cy) = (x - self.origin, y - self.origin);
        cx >= 0 && cy >= 0 && cx < self.width && cy < self.width
    }

    /// The `N` cells from `(x, y)` on in direction `d` (0 outside the window); read by
    /// stride, without testing each cell against the window, when both ends lie inside.
    #[inline]
    pub fn lane<const N: usize>(&self, x: i32, y: i32, d: usize) -> [u16; N] {
        let (dx, dy) = DIRS[d];
        let last = N as i32 - 1;
        if self.inside(x, y) && self.inside(x + last * dx, y + last * dy) {
            let base = (y - self.origin) * self.width + (x - self.origin);
            let stride = dy * self.width + dx;
            std::array::from_fn(|i| self.cells[(base + i as i32 * stride) as usize])
        } else {
            std::array::from_fn(|i| self.get(x + i as i32 * dx, y + i as i32 * dy))
        }
    }

    /// Mutable cell of `(x, y)`, which must lie inside the window.
    #[inline]
    fn cell(&mut self, x: i32, y: i32) -> &mut u16 {
        let (cx, cy) = (x - self.origin, y - self.origin);
        debug_assert!(cx >= 0 && cy >= 0 && cx < self.width && cy < self.width);
        &mut self.cells[(cy * self.width + cx) as usize]
    }

    /// True when `(x, y)` keeps [`MARGIN`] cells to every edge.
    fn roomy(&self, x: i32, y: i32) -> bool {
        let lo = self.origin + MARGIN;
        let hi = self.origin + self.width - MARGIN;
        x >= lo && y >= lo && x < hi && y < hi
    }

    /// Doubles the window (recentred) until `(x, y)` keeps its margin.
    fn make_room(&mut self, x: i32, y: i32) {
        while !self.roomy(x, y) {
            let mut bigger = Grid {
                width: self.width * 2,
                origin: self.origin - self.width / 2,
                cells: vec![0; (self.width * self.width * 4) as usize],
            };
            for cy in 0..self.width {
                for cx in 0..self.width {
                    let v = self.cells[(cy * self.width + cx) as usize];
                    if v != 0 {
                        *bigger.cell(cx + self.origin, cy + self.origin) = v;
                    }
                }
            }
            *self = bigger;
        }
    }

    /// Every point with something drawn, with its cell.
    pub fn drawn(&self) -> impl Iterator<Item = (i32, i32, u16)> + '_ {
        self.cells.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, &v)| {
            let i = i as i32;
            (i % self.width + self.origin, i / self.width + self.origin, v)
        })
    }
}

/// The drawing, without side to move or move list: what the rules of one line need.
#[derive(Clone, Debug)]
pub struct Drawing {
    pub variant: Variant,
    pub grid: Grid,
}

impl Drawing {
    /// An empty lattice under `variant`.
    pub fn new(variant: Variant) -> Drawing {
        Drawing { variant, grid: Grid::new(FIRST_WIDTH) }
    }

    /// True when a circle is drawn at `(x, y)`.
    #[inline]
    pub fn is_circle(&self, x: i32, y: i32) -> bool {
        self.grid.get(x, y) & CIRCLE != 0
    }

    /// The player whose colour the circle at `(x, y)` has, if any.
    pub fn owner(&self, x: i32, y: i32) -> Option<Side> {
        let c = self.grid.get(x, y);
        if c & OWNER[0] != 0 {
            Some(Side::P1)
        } else if c & OWNER[1] != 0 {
            Some(Side::P2)
        } else {
            None
        }
    }

    /// True when the unit segment from `(x, y)` to the next point in direction `d` is
    /// drawn.
    #[inline]
    pub fn segment(&self, x: i32, y: i32, d: usize) -> bool {
        self.grid.get(x, y) & (SEG << d) != 0
    }

    /// True when the circle at `(x, y)` is crossed in direction `d` under the rule in
    /// force (5T: strokes on both sides of it; 5D: any line of `d` through it).
    #[inline]
    pub fn crossed(&self, x: i32, y: i32, d: usize) -> bool {
        self.grid.get(x, y) & (CROSSED << d) != 0
    }

    /// For an uncoloured circle at `(x, y)`: in how many directions it is crossed (0–4);
    /// `None` for an empty point or a coloured circle.
    #[inline]
    pub fn open_crossings(&self, x: i32, y: i32) -> Option<usize> {
        let c = self.grid.get(x, y);
        if c & CIRCLE == 0 || c & (OWNER[0] | OWNER[1]) != 0 {
            return None;
        }
        Some(((c / CROSSED) & 0xF).count_ones() as usize)
    }

    /// The uncoloured circles by the number of directions they are crossed in
    /// ([`Drawing::open_crossings`]), counted from scratch.
    pub fn open_histogram(&self) -> [u16; 5] {
        let mut h = [0; 5];
        for (x, y, _) in self.grid.drawn() {
            if let Some(n) = self.open_crossings(x, y) {
                h[n] += 1;
            }
        }
        h
    }

    /// True when the circle at `(x, y)` is crossed in all four directions.
    pub fn crossed_all(&self, x: i32, y: i32) -> bool {
        (0..4).all(|d| self.crossed(x, y, d))
    }

    /// Draws a circle (the window grows if needed).
    pub fn add_circle(&mut self, x: i32, y: i32) {
        self.grid.make_room(x, y);
        *self.grid.cell(x, y) |= CIRCLE;
    }

    /// Erases the circle at `(x, y)`, which has no colour and no stroke through it.
    fn remove_circle(&mut self, x: i32, y: i32) {
        *self.grid.cell(x, y) &= !CIRCLE;
    }

    /// Colours (or uncolours) the circle at `(x, y)`.
    pub fn set_owner(&mut self, x: i32, y: i32, side: Side, on: bool) {
        let c = self.grid.cell(x, y);
        if on {
            *c |= OWNER[side.index()];
        } else {
            *c &= !OWNER[side.index()];
        }
    }

    /// If the line of direction `d` starting at `(sx, sy)` can be drawn now (exactly one
    /// of its five points empty, no overlap forbidden by the variant), the move that
    /// draws it.
    #[inline]
    pub fn line_move(&self, sx: i32, sy: i32, d: u8) -> Option<MorpiaeMove> {
        let (circles, blocking) = self.lane_bits(&self.grid.lane::<5>(sx, sy, d as usize), d);
        let k = self.open_point(circles, blocking)?;
        Some(MorpiaeMove::from_start((sx, sy), d, k))
    }

    /// Two bit masks over `cells`, points of a track of direction `d` (bit i: cell i):
    /// the circles, and the circles a line of `d` may not use (in 5T: a stroke of `d`
    /// leaves them; in 5D: crossed in `d`).
    #[inline]
    fn lane_bits<const N: usize>(&self, cells: &[u16; N], d: u8) -> (u32, u32) {
        let bit = match self.variant {
            Variant::Touching => SEG << d,
            Variant::Disjoint => CROSSED << d,
        };
        let (mut circles, mut blocking) = (0, 0);
        for (i, &c) in cells.iter().enumerate() {
            circles |= u32::from(c & CIRCLE != 0) << i;
            blocking |= u32::from(c & bit != 0) << i;
        }
        // Only circles carry strokes; an empty point's bits are ignored.
        (circles, blocking & circles)
    }

    /// For the five points of a line given by [`Drawing::lane_bits`] (bits 0–4): the
    /// index of its one empty point if the line can be drawn (exactly one point empty,
    /// none blocking; in 5T the last point's stroke goes elsewhere and does not count).
    #[inline]
    fn open_point(&self, circles: u32, blocking: u32) -> Option<i32> {
        let empty = !circles & 0x1F;
        let checked = match self.variant {
            Variant::Touching => 0xF,
            Variant::Disjoint => 0x1F,
        };
        (empty.count_ones() == 1 && blocking & checked == 0)
            .then_some(empty.trailing_zeros() as i32)
    }

    /// True when the line of direction `d` starting at `(sx, sy)` may lie on the drawing
    /// with its five points drawn (used to check position strings): no overlap with
    /// the lines already there.
    pub fn line_fits(&self, sx: i32, sy: i32, d: u8) -> bool {
        let (dx, dy) = DIRS[d as usize];
        (0..5).all(|i| {
            let c = self.grid.get(sx + i * dx, sy + i * dy);
            match self.variant {
                Variant::Touching => i == 4 || c & (SEG << d) == 0,
                Variant::Disjoint => c & (CROSSED << d) == 0,
            }
        })
    }

    /// Draws the strokes of the line of direction `d` starting at `(sx, sy)`, whose five
    /// circles are drawn, and marks the circles it crosses: all five in 5D; in 5T the
    /// three inner ones, and an end where a line of `d` continues this one.
    pub fn stroke(&mut self, sx: i32, sy: i32, d: u8) {
        let (dx, dy) = DIRS[d as usize];
        let touching = self.variant == Variant::Touching;
        let first = !touching || self.segment(sx - dx, sy - dy, d as usize);
        let last = !touching || self.segment(sx + 4 * dx, sy + 4 * dy, d as usize);
        for i in 0..5 {
            let c = self.grid.cell(sx + i * dx, sy + i * dy);
            if i < 4 {
                *c |= SEG << d;
            }
            if match i {
                0 => first,
                4 => last,
                _ => true,
            } {
                *c |= CROSSED << d;
            }
        }
    }

    /// Erases the strokes drawn by [`Drawing::stroke`] (lines of one direction never
    /// share a segment, nor in 5D a point, so nothing else is erased; in 5T an end that
    /// met another line of `d` is no longer crossed without this line's stroke).
    fn unstroke(&mut self, sx: i32, sy: i32, d: u8) {
        let (dx, dy) = DIRS[d as usize];
        for i in 0..5 {
            let c = self.grid.cell(sx + i * dx, sy + i * dy);
            if i < 4 {
                *c &= !(SEG << d);
            }
            *c &= !(CROSSED << d);
        }
    }

    /// Plays `mv` (legal): draws its circle and line, colours for `side` the circles of
    /// the line now crossed in all four directions, and returns them as a bit mask over
    /// the line's points (bit i = point i).
    pub fn draw(&mut self, mv: MorpiaeMove, side: Side) -> u8 {
        let (sx, sy) = mv.start();
        self.add_circle(mv.x, mv.y);
        self.stroke(sx, sy, mv.dir);
        let mut captured = 0;
        for i in 0..5 {
            let (x, y) = mv.point(i);
            if self.owner(x, y).is_none() && self.crossed_all(x, y) {
                self.set_owner(x, y, side, true);
                captured |= 1 << i;
            }
        }
        captured
    }

    /// Takes back [`Drawing::draw`].
    pub fn undraw(&mut self, mv: MorpiaeMove, side: Side, captured: u8) {
        for i in 0..5 {
            if captured & (1 << i) != 0 {
                let (x, y) = mv.point(i);
                self.set_owner(x, y, side, false);
            }
        }
        let (sx, sy) = mv.start();
        self.unstroke(sx, sy, mv.dir);
        self.remove_circle(mv.x, mv.y);
    }

    /// How many circles `mv` (legal) would colour, without drawing it
    /// ([`Drawing::capture_mask`]).
    pub fn captures_of(&self, mv: MorpiaeMove) -> u32 {
        self.capture_mask(mv).count_ones()
    }

    /// The circles `mv` (legal) would colour, without drawing it, as a mask of its
    /// points (bit `i`: [`MorpiaeMove::point`]`(i)`): the circles of its line, the new one
    /// aside, that are uncoloured and crossed in the three other directions. Each
    /// point's cell is read once (the evaluation asks this of every legal move).
    pub fn capture_mask(&self, mv: MorpiaeMove) -> u8 {
        let d = mv.dir as usize;
        let (dx, dy) = DIRS[d];
        let (sx, sy) = mv.start();
        // The point before the line, then its five points.
        let cells = self.grid.lane::<6>(sx - dx, sy - dy, d);
        let others = 0xF & !(1u16 << d);
        let mut mask = 0;
        for i in 0..5 {
            if i == mv.k as usize {
                // The new circle has no strokes in other directions yet.
                continue;
            }
            let c = cells[i + 1];
            if c & (OWNER[0] | OWNER[1]) != 0 {
                continue;
            }
            if (c / CROSSED) & others != others {
                continue;
            }
            // Crossed in `d` once the line is drawn: in 5D every point; in 5T the inner
            // points, and an end where a line of `d` continues this one.
            let in_d = match (self.variant, i) {
                (Variant::Touching, 0) => cells[0] & (SEG << d) != 0,
                (Variant::Touching, 4) => c & (SEG << d) != 0,
                _ => true,
            };
            mask |= u8::from(in_d) << i;
        }
        mask
    }

    /// Every legal line, found by scanning all lines through every circle (used when a
    /// position is set up; play keeps the list up to date incrementally). Sorted.
    pub fn all_moves(&self) -> Vec<MorpiaeMove> {
        let mut out = Vec::new();
        for (x, y, c) in self.grid.drawn() {
            if c & CIRCLE == 0 {
                continue;
            }
            for d in 0..4u8 {
                let (dx, dy) = DIRS[d as usize];
                for j in 0..5 {
                    if let Some(m) = self.line_move(x - j * dx, y - j * dy, d) {
                        out.push(m);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Updates `moves` (the legal moves before `mv`) after `mv` was drawn: drops the
    /// moves that became illegal, each pushed on `removed` with its index in the old
    /// list (ascending), and adds the new lines through the new circle at the end.
    /// Returns how many moves were kept, which with `removed` rebuilds the old list
    /// ([`restore_moves`]).
    pub fn update_moves(
        &self,
        moves: &mut Vec<MorpiaeMove>,
        mv: MorpiaeMove,
        removed: &mut Vec<(u32, MorpiaeMove)>,
    ) -> usize {
        // A move of another direction loses only its new point; one of the same
        // direction (which cannot hold the new circle: it had one empty point, its own)
        // is lost when its line overlaps the new one on their common track.
        let track = |m: MorpiaeMove| {
            let (sx, sy) = m.start();
            match m.dir {
                0 => (sy, sx),
                1 => (sx, sy),
                2 => (sx - sy, sx),
                _ => (sx + sy, sx),
            }
        };
        let (lane, at) = track(mv);
        let reach = match self.variant {
            Variant::Touching => 3,
            Variant::Disjoint => 4,
        };
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            let lost = (m.x == mv.x && m.y == mv.y) || {
                m.dir == mv.dir && {
                    let (l, t) = track(m);
                    l == lane && (t - at).abs() <= reach
                }
            };
            if lost {
                removed.push((i as u32, m));
            } else {
                moves[kept] = m;
                kept += 1;
            }
        }
        moves.truncate(kept);
        for d in 0..4u8 {
            let (dx, dy) = DIRS[d as usize];
            // The nine points of direction `d` centred on the new circle, read once: the
            // five lines through it are windows of them.
            let cells = self.grid.lane::<9>(mv.x - 4 * dx, mv.y - 4 * dy, d as usize);
            let (circles, blocking) = self.lane_bits(&cells, d);
            for j in 0..5 {
                // A line through the new circle was not legal before (it had the new
                // point empty and, being legal, no other): no duplicates.
                let from = 4 - j;
                if let Some(k) = self.open_point(circles >> from, blocking >> from) {
                    let start = (mv.x - j * dx, mv.y - j * dy);
                    moves.push(MorpiaeMove::from_start(start, d, k));
                }
            }
        }
        kept
    }
}

/// Takes back [`Drawing::update_moves`]: `moves` is the updated list, `kept` what it
/// returned and `removed` the entries it pushed; the old list comes back in its order.
pub fn restore_moves(moves: &mut Vec<MorpiaeMove>, kept: usize, removed: &[(u32, MorpiaeMove)]) {
    let total = kept + removed.len();
    moves.truncate(kept);
    moves.resize(total, MorpiaeMove { x: 0, y: 0, dir: 0, k: 0 });
    // From the back: each slot takes the last removed move if it came from there, else
    // the last kept move not yet placed; once every removed move is back, the kept
    // moves still to place already sit in their slots.
    let mut from = kept;
    let mut rest = removed.len();
    for slot in (0..total).rev() {
        if rest == 0 {
            break;
        }
        if removed[rest - 1].0 as usize == slot {
            rest -= 1;
            moves[slot] = removed[rest].1;
        } else {
            from -= 1;
            moves[slot] = moves[from];
        }
    }
}
