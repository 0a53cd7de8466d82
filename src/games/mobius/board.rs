//! The Mobius position: stones on cells, side to move, both players' networks (kept
//! up to date stone by stone) and the outcome.

use std::sync::LazyLock;

use super::flood::{Cells, stones_of};
use super::geometry::CELLS;
use super::network::Network;
use super::options::MobiusOptions;
use crate::core::{Outcome, Side};

/// Cell contents: empty, a Red stone (player 1), a Blue stone (player 2).
pub const EMPTY: u8 = 0;
pub const RED: u8 = 1;
pub const BLUE: u8 = 2;

/// The stone colour of a side.
pub fn colour(side: Side) -> u8 {
    side.index() as u8 + 1
}

/// Zobrist keys: one per side and cell, and one for Blue to move.
struct Keys {
    stone: [[u64; CELLS]; 2],
    blue_to_move: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    // Fixed keys from the project's seeded RNG: identical on every run.
    let mut rng = crate::core::Rng::new(0x4D6F_6269_7573_2008u64);
    let mut next = move || rng.next_u64();
    let mut stone = [[0u64; CELLS]; 2];
    stone.iter_mut().flatten().for_each(|k| *k = next());
    Keys { stone, blue_to_move: next() }
});

/// A Mobius position. Player 1 is Red.
#[derive(Clone, Debug)]
pub struct Mobius {
    pub(super) cells: [u8; CELLS],
    /// Red's and Blue's stones as sets (the cells, for playouts).
    sets: [Cells; 2],
    pub(super) stm: Side,
    stones: u8,
    /// Red's and Blue's networks, always those of the stones on `cells`.
    nets: [Network; 2],
    pub(super) hash: u64,
    pub(super) outcome: Option<Outcome>,
    pub(super) opts: MobiusOptions,
}

impl PartialEq for Mobius {
    fn eq(&self, o: &Self) -> bool {
        self.cells == o.cells && self.stm == o.stm && self.opts == o.opts
    }
}

impl Mobius {
    /// A position with the given stones and side to move; networks, hash and outcome are
    /// computed from scratch. The player who moved last wins if they qualify (under the
    /// any-winding option both may: the mover wins); a full board without a winner is a
    /// draw (only possible under the literal rule).
    pub fn from_cells(cells: [u8; CELLS], stm: Side, opts: &MobiusOptions) -> Mobius {
        let mut p = Mobius {
            cells,
            sets: [Cells::EMPTY; 2],
            stm,
            stones: cells.iter().filter(|&&c| c != EMPTY).count() as u8,
            nets: [Network::new(), Network::new()],
            hash: 0,
            outcome: None,
            opts: *opts,
        };
        p.rebuild();
        p
    }

    /// Recomputes networks, hash and outcome from the cells.
    fn rebuild(&mut self) {
        self.sets = [stones_of(&self.cells, RED), stones_of(&self.cells, BLUE)];
        for side in [Side::P1, Side::P2] {
            self.nets[side.index()] =
                Network::build(&self.cells, colour(side), side.index(), self.opts.rule);
        }
        self.hash = self.compute_hash();
        let last = self.stm.opponent();
        self.outcome = if self.nets[last.index()].won() {
            Some(Outcome::Win(last))
        } else if self.nets[self.stm.index()].won() {
            Some(Outcome::Win(self.stm))
        } else if self.stones as usize == CELLS {
            Some(Outcome::Draw)
        } else {
            None
        };
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let k = &*KEYS;
        let mut h = if self.stm == Side::P2 { k.blue_to_move } else { 0 };
        for (c, &v) in self.cells.iter().enumerate() {
            if v != EMPTY {
                h ^= k.stone[v as usize - 1][c];
            }
        }
        h
    }

    /// The cells: [`EMPTY`], [`RED`] or [`BLUE`], in index order.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Red's and Blue's stones as sets.
    pub fn stone_sets(&self) -> [Cells; 2] {
        self.sets
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.stones as usize
    }

    /// The rule options of this position.
    pub fn options(&self) -> &MobiusOptions {
        &self.opts
    }

    /// Whether `side` qualifies under the position's win test, recomputed from scratch.
    pub fn qualifies(&self, side: Side) -> bool {
        Network::build(&self.cells, colour(side), side.index(), self.opts.rule).won()
    }

    /// True when a swap happened in this game (Blue then has one stone more than Red
    /// with Red to move, or as many with Blue to move).
    pub fn swapped(&self) -> bool {
        let red = self.cells.iter().filter(|&&c| c == RED).count();
        let blue = self.stones as usize - red;
        match self.stm {
            Side::P1 => blue == red + 1,
            Side::P2 => blue == red,
        }
    }

    /// Plies played since the empty board.
    pub fn ply(&self) -> usize {
        self.stones as usize + self.swapped() as usize
    }

    /// True when `swap` is legal: the option is on and Red has placed the only stone.
    pub fn swap_available(&self) -> bool {
        self.opts.swap && self.outcome.is_none() && self.stm == Side::P2 && self.stones == 1
    }

    /// Whether a stone of `side` on the empty `cell` would make `side` qualify.
    pub fn wins_with(&self, side: Side, cell: usize) -> bool {
        debug_assert_eq!(self.cells[cell], EMPTY);
        self.nets[side.index()].would_win(
            &self.cells,
            colour(side),
            side.index(),
            cell,
            self.opts.rule,
        )
    }

    /// Places a stone of the side to move on the empty `cell` (the fast path of search).
    pub fn place(&mut self, cell: usize) {
        debug_assert!(self.outcome.is_none() && self.cells[cell] == EMPTY);
        let side = self.stm;
        let me = colour(side);
        self.cells[cell] = me;
        self.sets[side.index()].insert(cell);
        self.stones += 1;
        let k = &*KEYS;
        self.hash ^= k.stone[side.index()][cell] ^ k.blue_to_move;
        let won =
            self.nets[side.index()].add_stone(&self.cells, me, side.index(), cell, self.opts.rule);
        self.stm = side.opponent();
        if won {
            self.outcome = Some(Outcome::Win(side));
        } else if self.stones as usize == CELLS {
            self.outcome = Some(Outcome::Draw);
        }
    }

    /// Plays the swap: Red's only stone becomes Blue's and Red moves.
    pub(super) fn swap(&mut self) {
        for c in self.cells.iter_mut().filter(|c| **c == RED) {
            *c = BLUE;
        }
        self.stm = Side::P1;
        self.rebuild();
    }
}
