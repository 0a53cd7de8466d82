//! The Morpiae position: the drawing, the lines drawn, the legal moves, the colours
//! counted per player, the side to move and the hash; the `Game` and `Reversible`
//! implementations.

use super::board::{Drawing, KEY_P2, key_circle, key_line, key_owner, restore_moves};
use super::notation::MorpiaeMove;
use super::options::{MorpiaeOptions, Variant};
use crate::core::{Reversible, Side};

/// A Morpiae position. Player 1 is Red, player 2 Green.
#[derive(Clone, Debug)]
pub struct Morpiae {
    pub(super) drawing: Drawing,
    /// The lines drawn, as the moves that drew them, in the order played (lines read
    /// from a position string come first, in the string's order).
    pub(super) lines: Vec<MorpiaeMove>,
    /// The legal moves, kept up to date by [`Drawing::update_moves`].
    pub(super) moves: Vec<MorpiaeMove>,
    /// The moves that play took out of `moves`, with their old indices, for every move
    /// still to be taken back ([`Drawing::update_moves`]): a stack shared by the undo
    /// records, so that playing a move allocates nothing.
    pub(super) removed: Vec<(u32, MorpiaeMove)>,
    /// Coloured circles per player.
    pub(super) colours: [u32; 2],
    /// Uncoloured circles by the number of directions they are crossed in (0–4), kept up
    /// to date by [`Morpiae::draw`]: the ones crossed three times are a stroke from capture.
    pub(super) open: [u16; 5],
    pub(super) stm: Side,
    pub(super) hash: u64,
    pub(super) opts: MorpiaeOptions,
}

/// The captures the legal lines offer ([`Morpiae::captures`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Captures {
    /// The most circles one line colours.
    pub best: u32,
    /// The most circles another line colours.
    pub second: u32,
    /// How many lines colour at least one circle.
    pub lines: u32,
}

/// What [`Morpiae::unplay`] needs to restore a position.
#[derive(Clone, Debug)]
pub struct MorpiaeUndo {
    /// Moves kept by the update of the move list, and the height of
    /// [`Morpiae::removed`] before it.
    kept: u32,
    removed_from: u32,
    open: [u16; 5],
    captured: u8,
    hash: u64,
}

impl Morpiae {
    /// A position with the given circles, no line, player 1 to move.
    pub(super) fn with_circles(circles: &[(i32, i32)], opts: &MorpiaeOptions) -> Morpiae {
        let mut drawing = Drawing::new(opts.variant);
        let mut hash = 0;
        for &(x, y) in circles {
            if !drawing.is_circle(x, y) {
                drawing.add_circle(x, y);
                hash ^= key_circle(x, y);
            }
        }
        Morpiae {
            drawing,
            lines: Vec::new(),
            moves: Vec::new(),
            removed: Vec::new(),
            colours: [0, 0],
            open: [0; 5],
            stm: Side::P1,
            hash,
            opts: *opts,
        }
    }

    /// Recomputes the legal moves and the uncoloured circles' crossings from scratch
    /// (after a position is set up).
    pub(super) fn refresh_moves(&mut self) {
        self.moves = self.drawing.all_moves();
        self.open = self.drawing.open_histogram();
    }

    /// The overlap rule in force.
    pub fn variant(&self) -> Variant {
        self.opts.variant
    }

    /// The drawing (circles, strokes, colours).
    pub fn drawing(&self) -> &Drawing {
        &self.drawing
    }

    /// The lines drawn, in order.
    pub fn lines(&self) -> &[MorpiaeMove] {
        &self.lines
    }

    /// The number of circles coloured by `side`.
    pub fn colours(&self, side: Side) -> u32 {
        self.colours[side.index()]
    }

    /// The legal moves, without copying.
    pub fn legal_moves(&self) -> &[MorpiaeMove] {
        &self.moves
    }

    /// The number of uncoloured circles crossed in exactly `n` directions (`n` ≤ 4).
    pub fn open_circles(&self, n: usize) -> u32 {
        u32::from(self.open[n])
    }

    /// How many circles the legal move `mv` colours. A circle it colours is uncoloured
    /// and crossed in the three directions other than the line's (it cannot already be
    /// crossed in the line's own: that would block the line), so with no such circle
    /// anywhere ([`Morpiae::open_circles`]`(3) == 0`) no move captures and the line's cells
    /// need not be read.
    pub fn captures_of(&self, mv: MorpiaeMove) -> u32 {
        if self.open[3] == 0 {
            return 0;
        }
        self.drawing.captures_of(mv)
    }

    /// What the legal lines capture now (either player may draw any of them): the most
    /// circles one line colours, the most another line colours, and how many lines
    /// colour any.
    pub fn captures(&self) -> Captures {
        let mut c = Captures::default();
        for &m in self.legal_moves() {
            let n = self.captures_of(m);
            if n > 0 {
                c.lines += 1;
                if n > c.best {
                    (c.best, c.second) = (n, c.best);
                } else {
                    c.second = c.second.max(n);
                }
            }
        }
        c
    }

    /// How many distinct circles some legal line would colour now.
    pub fn capturable_circles(&self) -> u32 {
        let mut circles: Vec<(i32, i32)> = Vec::new();
        if self.open[3] > 0 {
            for &mv in self.legal_moves() {
                let mask = self.drawing.capture_mask(mv);
                for p in (0..5).filter(|i| mask & 1 << i != 0).map(|i| mv.point(i)) {
                    if !circles.contains(&p) {
                        circles.push(p);
                    }
                }
            }
        }
        circles.len() as u32
    }

    /// Every legal move found from scratch, sorted: the slow generator, for tests that
    /// check the incremental list.
    pub fn moves_from_scratch(&self) -> Vec<MorpiaeMove> {
        self.drawing.all_moves()
    }

    /// Draws `mv` (legal) and updates everything but the move list; returns the mask of
    /// coloured circles on the line.
    pub(super) fn draw(&mut self, mv: MorpiaeMove) -> u8 {
        let side = self.stm;
        // Only the circles of the new line change crossings or colour.
        for i in 0..5 {
            let (x, y) = mv.point(i);
            if let Some(n) = self.drawing.open_crossings(x, y) {
                self.open[n] -= 1;
            }
        }
        let captured = self.drawing.draw(mv, side);
        for i in 0..5 {
            let (x, y) = mv.point(i);
            if let Some(n) = self.drawing.open_crossings(x, y) {
                self.open[n] += 1;
            }
        }
        let (sx, sy) = mv.start();
        self.hash ^= key_circle(mv.x, mv.y) ^ key_line(sx, sy, mv.dir) ^ KEY_P2;
        for i in 0..5 {
            if captured & (1 << i) != 0 {
                let (x, y) = mv.point(i);
                self.hash ^= key_owner(x, y, side);
                self.colours[side.index()] += 1;
            }
        }
        self.lines.push(mv);
        self.stm = side.opponent();
        captured
    }
}

impl Reversible for Morpiae {
    type Undo = MorpiaeUndo;

    fn play_reversible(&mut self, mv: MorpiaeMove) -> MorpiaeUndo {
        let hash = self.hash;
        let open = self.open;
        let removed_from = self.removed.len() as u32;
        let captured = self.draw(mv);
        let kept = self.drawing.update_moves(&mut self.moves, mv, &mut self.removed) as u32;
        MorpiaeUndo { kept, removed_from, open, captured, hash }
    }

    fn unplay(&mut self, mv: MorpiaeMove, undo: MorpiaeUndo) {
        let side = self.stm.opponent();
        self.drawing.undraw(mv, side, undo.captured);
        self.colours[side.index()] -= undo.captured.count_ones();
        self.lines.pop();
        let from = undo.removed_from as usize;
        restore_moves(&mut self.moves, undo.kept as usize, &self.removed[from..]);
        self.removed.truncate(from);
        self.open = undo.open;
        self.hash = undo.hash;
        self.stm = side;
    }
}
