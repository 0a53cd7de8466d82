//! The Mabula position: marbles per colour as square sets, the start setup, the side to
//! move; move generation, pushes, the position string and the `Game` trait.

use super::geometry::{BORDER, BORDER_ORDER, Bits, CORNERS, TABLES, bits, square_name};
use super::notation::{MabulaMove, parse_syntax};
use super::options::MabulaOptions;
use super::score::{final_ending, final_outcome};
use super::setup::{STANDARD_SETUP, SetupMask, parse_setup, random_setup, setup_string};
use crate::core::{
    Ending, Game, MoveError, Outcome, PositionError, Reversible, Rng, Side, compress_rank,
};

/// A Mabula position. Player 1 is Black (`men[0]`), player 2 White (`men[1]`).
#[derive(Clone, Copy, Debug)]
pub struct Mabula {
    men: [Bits; 2],
    setup: SetupMask,
    stm: Side,
    hash: u64,
    opts: MabulaOptions,
}

impl PartialEq for Mabula {
    /// Positions are equal when setup, marbles, side to move and rules are.
    fn eq(&self, o: &Self) -> bool {
        self.men == o.men && self.setup == o.setup && self.stm == o.stm && self.opts == o.opts
    }
}

/// What [`Mabula::unplay`] needs: the marbles and hash before the move.
#[derive(Clone, Copy, Debug)]
pub struct MabulaUndo {
    men: [Bits; 2],
    hash: u64,
}

impl Mabula {
    /// The start position of `setup` (checked by the caller) with `stm` to move.
    pub fn from_setup(setup: SetupMask, stm: Side, opts: &MabulaOptions) -> Mabula {
        let mut men = [0; 2];
        for (i, &sq) in BORDER_ORDER.iter().enumerate() {
            men[(setup & 1 << i == 0) as usize] |= 1 << sq;
        }
        let mut m = Mabula { men, setup, stm, hash: 0, opts: *opts };
        m.hash = m.compute_hash();
        m
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let t = &*TABLES;
        let mut h = if self.stm == Side::P2 { t.z_white } else { 0 };
        for side in 0..2 {
            for sq in bits(self.men[side]) {
                h ^= t.z_men[side][sq as usize];
            }
        }
        h
    }

    /// The marbles of `side`.
    pub fn men(&self, side: Side) -> Bits {
        self.men[side.index()]
    }

    /// All marbles of both colours.
    pub fn occupied(&self) -> Bits {
        self.men[0] | self.men[1]
    }

    /// The rule options this position is played under.
    pub fn options(&self) -> &MabulaOptions {
        &self.opts
    }

    /// The start setup of this game.
    pub fn setup(&self) -> SetupMask {
        self.setup
    }

    /// How far the marble on border square `from` may travel: `6 - m` where `m` is the
    /// number of marbles on its line's field squares (every one of them is pushed ahead,
    /// and the run's head may not reach the far border square).
    pub fn max_push(&self, from: u8) -> u32 {
        6 - (TABLES.line_mask[from as usize][6] & self.occupied()).count_ones()
    }

    /// The number of legal pushes of `side` (whoever is to move).
    pub fn push_count(&self, side: Side) -> u32 {
        bits(self.men[side.index()] & BORDER).map(|b| self.max_push(b)).sum()
    }

    /// True when `side` has at least one push.
    pub fn can_push(&self, side: Side) -> bool {
        bits(self.men[side.index()] & BORDER).any(|b| self.max_push(b) > 0)
    }

    /// Marbles (of both colours) still on the border. Every push takes one off the border
    /// for good, so this bounds the pushes left in the game. (A line whose field is full
    /// may open again when a crossing push moves one of its marbles on.)
    pub fn border_marbles(&self) -> u32 {
        (self.occupied() & BORDER).count_ones()
    }

    /// True when neither player can push: the game is over.
    pub fn is_over(&self) -> bool {
        !self.can_push(Side::P1) && !self.can_push(Side::P2)
    }

    /// Pushes the marble on `from` by `k` squares (`1 ≤ k ≤ max_push`; `k = 0`: a pass)
    /// and passes the turn without updating the hash: the playouts' fast move, after
    /// which [`Mabula::rehash`] makes the position whole again.
    pub(super) fn push_unhashed(&mut self, from: u8, k: usize) {
        if k > 0 {
            self.men = self.pushed(from, k);
        }
        self.stm = self.stm.opponent();
    }

    /// Sets the hash from scratch (after [`Mabula::push_unhashed`]).
    pub(super) fn rehash(&mut self) {
        self.hash = self.compute_hash();
    }

    /// The marbles after pushing the marble on `from` by `k` squares (`1 ≤ k ≤ max_push`).
    fn pushed(&self, from: u8, k: usize) -> [Bits; 2] {
        let t = &*TABLES;
        let line = &t.lines[from as usize];
        let mask = t.line_mask[from as usize][6];
        let mover = (self.men[1] & 1 << from != 0) as usize;
        let mut men = [self.men[0] & !mask, self.men[1] & !mask];
        men[mover] &= !(1 << from);
        men[mover] |= 1 << line[k - 1];
        // Marbles at cells p_1 < p_2 < … end at f_i = max(p_i, f_{i-1} + 1), f_0 = k.
        let mut prev = k;
        for (i, &sq) in line.iter().enumerate() {
            let cell = i + 1;
            for (side, side_men) in men.iter_mut().enumerate() {
                if self.men[side] & 1 << sq != 0 {
                    let f = cell.max(prev + 1);
                    debug_assert!(f <= 6, "push beyond the field");
                    *side_men |= 1 << line[f - 1];
                    prev = f;
                }
            }
        }
        men
    }

    /// Every legal move of the side to move, ignoring whether the game is over.
    fn generate_unchecked(&self, out: &mut Vec<MabulaMove>) {
        let start = out.len();
        let lines = &TABLES.lines;
        for from in bits(self.men[self.stm.index()] & BORDER) {
            let reach = self.max_push(from) as usize;
            out.extend(lines[from as usize][..reach].iter().map(|&to| MabulaMove { from, to }));
        }
        if out.len() == start {
            out.push(MabulaMove::PASS);
        }
    }

    /// The number of legal moves (passes included), without generating them.
    pub fn move_count(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        (self.push_count(self.stm) as u64).max(1)
    }

    /// A random start position: a setup drawn uniformly among the legal ones, Black to move.
    pub fn random(opts: &MabulaOptions, rng: &mut Rng) -> Mabula {
        Mabula::from_setup(random_setup(rng), Side::P1, opts)
    }
}

/// Reads the board field: 8 ranks from 8 down to 1 separated by `/`, each square `B`,
/// `W` or a digit counting empty squares.
fn parse_board(board: &str) -> Result<[Bits; 2], String> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("the board '{board}' needs 8 ranks separated by '/'"));
    }
    let mut men = [0; 2];
    for (r, text) in ranks.iter().enumerate() {
        let rank = 7 - r;
        let mut file = 0;
        for c in text.chars() {
            match c {
                'B' | 'W' if file < 8 => {
                    men[(c == 'W') as usize] |= 1 << (rank * 8 + file);
                    file += 1;
                }
                '1'..='8' => file += c as usize - '0' as usize,
                'B' | 'W' => file += 1,
                _ => return Err(format!("unexpected '{c}' on the board")),
            }
        }
        if file != 8 {
            return Err(format!("rank {} of the board has {file} squares, not 8", rank + 1));
        }
    }
    Ok(men)
}

fn board_string(men: [Bits; 2]) -> String {
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            compress_rank((0..8).map(|file| {
                let sq = rank * 8 + file;
                if men[0] & 1 << sq != 0 {
                    Some('B')
                } else if men[1] & 1 << sq != 0 {
                    Some('W')
                } else {
                    None
                }
            }))
        })
        .collect();
    ranks.join("/")
}

impl Game for Mabula {
    type Move = MabulaMove;
    type Options = MabulaOptions;
    const NAME: &'static str = "mabula";

    fn startpos(opts: &MabulaOptions) -> Mabula {
        Mabula::from_setup(STANDARD_SETUP, Side::P1, opts)
    }

    /// Reads `<setup> <board> <b|w>` (see `protocol.md`), or a bare `<setup>` for its start
    /// position with Black to move.
    fn from_fen(s: &str, opts: &MabulaOptions) -> Result<Mabula, PositionError> {
        let err = |m: String| PositionError(format!("{m} (in '{s}')"));
        let fields: Vec<&str> = s.split_whitespace().collect();
        let setup = match fields.first() {
            Some(f) => parse_setup(f).map_err(err)?,
            None => return Err(err("empty position string".into())),
        };
        match fields.len() {
            1 => return Ok(Mabula::from_setup(setup, Side::P1, opts)),
            3 => {}
            n => return Err(err(format!("expected 3 fields (setup, board, b|w), not {n}"))),
        }
        let men = parse_board(fields[1]).map_err(err)?;
        let stm = match fields[2] {
            "b" => Side::P1,
            "w" => Side::P2,
            other => {
                return Err(err(format!("the side to move must be 'b' or 'w', not '{other}'")));
            }
        };
        if (men[0] | men[1]) & CORNERS != 0 {
            return Err(err("the corners a1, h1, a8, h8 must stay empty".into()));
        }
        for (side, name) in [(0, "black"), (1, "white")] {
            let n = men[side].count_ones();
            if n != 12 {
                return Err(err(format!("the board has {n} {name} marbles, not 12")));
            }
        }
        let start = Mabula::from_setup(setup, stm, opts);
        for (side, name) in [(0, "black"), (1, "white")] {
            if let Some(sq) = bits(men[side] & BORDER & !start.men[side]).next() {
                return Err(err(format!(
                    "a {name} marble on border square {} where the setup has none \
                     (marbles never return to the border)",
                    square_name(sq)
                )));
            }
        }
        let mut m = Mabula { men, ..start };
        m.hash = m.compute_hash();
        Ok(m)
    }

    fn to_fen(&self) -> String {
        let side = if self.stm == Side::P1 { 'b' } else { 'w' };
        format!("{} {} {side}", setup_string(self.setup), board_string(self.men))
    }

    fn side_to_move(&self) -> Side {
        self.stm
    }

    fn generate_moves(&self, out: &mut Vec<MabulaMove>) {
        if !self.is_over() {
            self.generate_unchecked(out);
        }
    }

    fn parse_move(&self, s: &str) -> Result<MabulaMove, MoveError> {
        let mv = parse_syntax(s)?;
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        let own = self.men[self.stm.index()];
        let why = if legal.is_empty() {
            "the game is over".to_string()
        } else if mv.is_pass() {
            "a pass is allowed only when no push is possible".to_string()
        } else if legal == [MabulaMove::PASS] {
            "no push is possible: the move is 'pass'".to_string()
        } else if BORDER & 1 << mv.from == 0 {
            format!("{} is not a border square", square_name(mv.from))
        } else if own & 1 << mv.from == 0 {
            format!("no marble of the side to move on {}", square_name(mv.from))
        } else if !TABLES.lines[mv.from as usize].contains(&mv.to) {
            format!("{} is not on the push line of {}", square_name(mv.to), square_name(mv.from))
        } else {
            format!(
                "the marble on {} may travel at most {} squares here (no marble may reach \
                 the far border)",
                square_name(mv.from),
                self.max_push(mv.from)
            )
        };
        Err(MoveError::Illegal(format!("'{s}': {why}")))
    }

    fn play(&mut self, mv: MabulaMove) {
        self.play_reversible(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| final_outcome(self.men, &self.opts))
    }

    fn ending(&self) -> Option<Ending> {
        self.is_over().then(|| final_ending(self.men, &self.opts))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..8 {
                let sq = rank * 8 + file;
                let c = if CORNERS & 1 << sq != 0 {
                    ' '
                } else if self.men[0] & 1 << sq != 0 {
                    'B'
                } else if self.men[1] & 1 << sq != 0 {
                    'W'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g h\n");
        let side = if self.stm == Side::P1 { "Black" } else { "White" };
        out.push_str(&format!("{side} to move\n"));
        out
    }

    fn random_setup(opts: &MabulaOptions, rng: &mut Rng) -> Option<Mabula> {
        Some(Mabula::random(opts, rng))
    }

    fn count_moves(&self) -> u64 {
        self.move_count()
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::core::perft_reversible(self, depth)
    }
}

impl Reversible for Mabula {
    type Undo = MabulaUndo;

    fn play_reversible(&mut self, mv: MabulaMove) -> MabulaUndo {
        let undo = MabulaUndo { men: self.men, hash: self.hash };
        let t = &*TABLES;
        if !mv.is_pass() {
            let k = t.lines[mv.from as usize].iter().position(|&s| s == mv.to).map_or(1, |i| i + 1);
            let new = self.pushed(mv.from, k);
            for (side, (&new_men, &old_men)) in new.iter().zip(&self.men).enumerate() {
                for sq in bits(new_men ^ old_men) {
                    self.hash ^= t.z_men[side][sq as usize];
                }
            }
            self.men = new;
        }
        self.stm = self.stm.opponent();
        self.hash ^= t.z_white;
        debug_assert_eq!(self.hash, self.compute_hash());
        undo
    }

    fn unplay(&mut self, _mv: MabulaMove, undo: MabulaUndo) {
        self.stm = self.stm.opponent();
        self.men = undo.men;
        self.hash = undo.hash;
    }
}
