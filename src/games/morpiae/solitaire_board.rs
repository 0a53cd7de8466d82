//! A fixed-window drawing for the solitaire search's playouts: circles and strokes only
//! (no colours, no hash), as bit rows in each of the four directions, so that the legal
//! lines through a new circle come from two 9-bit windows per direction instead of 20
//! five-point scans.
//!
//! The two-player [`Drawing`](super::board::Drawing) grows without bound and keeps the
//! colours and the evaluation's counts up to date; a Morpion Solitaire playout needs
//! none of that and spends most of its time finding the new legal lines, so the
//! solitaire keeps this smaller model of the same rules (checked against the
//! two-player rules move by move in the tests).
//!
//! Bound: the window is [`WIDTH`]² points with the Greek cross in its middle, and no
//! line with a point closer than [`MARGIN`] to the edge is ever offered. That leaves
//! 23 points on every side of the cross, where the records (82 moves in 5D, 178 in
//! 5T) need fewer than 10, so the bound prunes no game that matters.

use super::board::greek_cross;
use super::notation::{DIRS, MorpiaeMove};
use super::options::Variant;

/// Side of the square window (one `u64` bit per point of a row).
const WIDTH: i32 = 64;
/// Lattice coordinate of the window's first row and column.
const ORIGIN: i32 = -27;
/// Points kept free between any line and the window's edge: the windows read 4 points
/// on each side of a new circle.
const MARGIN: i32 = 4;
/// Bit rows per direction: 64 rows and columns, 127 diagonals.
const ROWS: usize = 128;

/// A point of the window, `(x, y)` in 0…63.
type Point = (i32, i32);

/// The row of direction `d` through `(x, y)` and the point's bit in it; along a line
/// of direction `d` the bit grows by one per step.
fn row_bit(d: usize, (x, y): Point) -> (usize, i32) {
    match d {
        0 => (y as usize, x),
        1 => (x as usize, y),
        2 => ((x - y + WIDTH - 1) as usize, x),
        _ => ((x + y) as usize, x),
    }
}

/// A legal line: its new point, direction and the new point's index `k` on the line,
/// with what [`SolitaireBoard::play`] compares (the row and first bit of the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// `((y * 64 + x) * 4 + d) * 5 + k` for the new point `(x, y)`: the policy's index.
    pub code: u32,
    point: u16,
    dir: u8,
    row: u8,
    first_bit: u8,
}

impl Line {
    fn new(point: Point, d: usize, k: i32) -> Line {
        let (x, y) = point;
        let (row, first_bit) = row_bit(d, step(point, d, -k));
        Line {
            code: ((((y * WIDTH + x) * 4 + d as i32) * 5) + k) as u32,
            point: (y * WIDTH + x) as u16,
            dir: d as u8,
            row: row as u8,
            first_bit: first_bit as u8,
        }
    }

    fn point(self) -> Point {
        (i32::from(self.point) % WIDTH, i32::from(self.point) / WIDTH)
    }
}

/// The point `t` steps from `(x, y)` in direction `d`.
fn step((x, y): Point, d: usize, t: i32) -> Point {
    (x + t * DIRS[d].0, y + t * DIRS[d].1)
}

/// Number of distinct [`Line`] codes (the policy's size).
pub const LINE_CODES: usize = (WIDTH * WIDTH * 20) as usize;

/// The drawing of a solitaire game and its legal lines.
#[derive(Clone)]
pub struct SolitaireBoard {
    variant: Variant,
    /// `circles[d][row]`: the circles of each row of direction `d` (the same points
    /// four times, one bit layout per direction).
    circles: Box<[[u64; ROWS]; 4]>,
    /// `blocked[d][row]`: the points a new line of direction `d` may not use as one of
    /// its first four (5T: the segment to the next point in `d` is drawn) or as any of
    /// its five (5D: the point lies on a line of `d`).
    blocked: Box<[[u64; ROWS]; 4]>,
    /// The legal lines, in the order they became legal.
    pub lines: Vec<Line>,
}

impl SolitaireBoard {
    /// The Greek cross under `variant`, with its legal lines.
    pub fn start(variant: Variant) -> SolitaireBoard {
        let mut board = SolitaireBoard {
            variant,
            circles: Box::new([[0; ROWS]; 4]),
            blocked: Box::new([[0; ROWS]; 4]),
            lines: Vec::new(),
        };
        let cross: Vec<Point> =
            greek_cross().into_iter().map(|(x, y)| (x - ORIGIN, y - ORIGIN)).collect();
        for &p in &cross {
            board.add_circle(p);
        }
        for &p in &cross {
            for d in 0..4 {
                for line in board.lines_through(p, d) {
                    if !board.lines.contains(&line) {
                        board.lines.push(line);
                    }
                }
            }
        }
        board
    }

    /// Becomes a copy of `other` without allocating.
    pub fn copy_from(&mut self, other: &SolitaireBoard) {
        self.variant = other.variant;
        *self.circles = *other.circles;
        *self.blocked = *other.blocked;
        self.lines.clone_from(&other.lines);
    }

    fn add_circle(&mut self, p: Point) {
        for d in 0..4 {
            let (row, bit) = row_bit(d, p);
            self.circles[d][row] |= 1 << bit;
        }
    }

    /// Points of a line that block later lines of its direction: 4 in 5T (the points
    /// before its four segments), 5 in 5D.
    fn blocking_points(&self) -> i32 {
        if self.variant == Variant::Touching { 4 } else { 5 }
    }

    /// Draws `line` (legal) and updates the legal lines: drops those whose new point it
    /// fills and those of its direction that would overlap it, and adds the lines
    /// through its new circle.
    pub fn play(&mut self, line: Line) {
        let p = line.point();
        self.add_circle(p);
        let n = self.blocking_points();
        self.blocked[line.dir as usize][line.row as usize] |= ((1 << n) - 1) << line.first_bit;
        // Lines of the same direction overlap the new one when their first points are at
        // most `n - 1` steps apart on its row (5T: they would share a segment; 5D: a point).
        self.lines.retain(|m| {
            m.point != line.point
                && (m.dir != line.dir
                    || m.row != line.row
                    || (i32::from(m.first_bit) - i32::from(line.first_bit)).abs() >= n)
        });
        for d in 0..4 {
            let new = self.lines_through(p, d);
            self.lines.extend(new);
        }
    }

    /// The legal lines of direction `d` through the circle at `p`, from 9-bit windows
    /// centred on it. After a move none of those through its new circle was legal
    /// before: the new point was empty, and the only empty point of none legal now.
    fn lines_through(&self, p: Point, d: usize) -> impl Iterator<Item = Line> + use<> {
        let (row, bit) = row_bit(d, p);
        let circles = (self.circles[d][row] >> (bit - 4)) & 0x1FF;
        let blocked = (self.blocked[d][row] >> (bit - 4)) & 0x1FF;
        let blocked_mask = (1 << self.blocking_points()) - 1;
        (0..5).filter_map(move |j: i32| {
            let five = (circles >> j) & 0x1F;
            if five.count_ones() != 4 || (blocked >> j) & blocked_mask != 0 {
                return None;
            }
            let start = step(p, d, j - 4);
            if !inside(start) || !inside(step(start, d, 4)) {
                return None;
            }
            let k = (!five & 0x1F).trailing_zeros() as i32;
            Some(Line::new(step(start, d, k), d, k))
        })
    }
}

/// True when window point `p` keeps [`MARGIN`] points to every edge.
fn inside((x, y): Point) -> bool {
    (MARGIN..WIDTH - MARGIN).contains(&x) && (MARGIN..WIDTH - MARGIN).contains(&y)
}

/// The move in game notation of a line.
pub fn to_move(line: Line) -> MorpiaeMove {
    let (x, y) = line.point();
    let k = (line.code % 5) as u8;
    MorpiaeMove { x: x + ORIGIN, y: y + ORIGIN, dir: line.dir, k }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Rng};
    use crate::games::morpiae::{Morpiae, MorpiaeOptions};

    /// Random playouts under both rules: after every line the solitaire board offers
    /// exactly the two-player rules' legal moves, and the games end together.
    #[test]
    fn legal_lines_agree_with_the_two_player_rules() {
        let mut rng = Rng::new(17);
        for variant in [Variant::Touching, Variant::Disjoint] {
            for _ in 0..300 {
                let mut game = Morpiae::startpos(&MorpiaeOptions { variant });
                let mut board = SolitaireBoard::start(variant);
                let mut plies = 0;
                loop {
                    let mut ours: Vec<MorpiaeMove> =
                        board.lines.iter().map(|&l| to_move(l)).collect();
                    ours.sort_unstable();
                    let mut theirs = game.legal_moves().to_vec();
                    theirs.sort_unstable();
                    assert_eq!(ours, theirs, "after {plies} moves");
                    if ours.is_empty() {
                        break;
                    }
                    let line = board.lines[rng.below(board.lines.len())];
                    board.play(line);
                    game.play(to_move(line));
                    plies += 1;
                }
            }
        }
    }

    #[test]
    fn twenty_eight_lines_from_the_start() {
        for variant in [Variant::Touching, Variant::Disjoint] {
            assert_eq!(SolitaireBoard::start(variant).lines.len(), 28);
        }
    }
}
