//! The placement and state of one position as a small `Copy` value (copy-make): piece
//! bitboards, a mailbox, side to move, castling rights, en passant, clocks and the
//! Zobrist hash, with [`Board::apply`] and attack detection.

use super::geometry::{
    Bb, N, NO_SQ, S, SQUARES, TABLES, Tables, bit, col, nearest, row, square, twin,
};
use super::moves::{ChessMove, Kind};
use super::options::MoebiusOptions;

/// Piece types, indices into [`Board::pieces`].
pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;

/// Colours: White is player 1.
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// Castling right bits: White king side, White queen side, Black king side, Black queen side.
pub const CASTLE_WK: u8 = 1;
pub const CASTLE_WQ: u8 = 2;
pub const CASTLE_BK: u8 = 4;
pub const CASTLE_BQ: u8 = 8;

/// The mailbox code of a piece: 0 is empty, `1 + type + 6·colour` otherwise.
#[inline(always)]
pub const fn code(color: usize, typ: usize) -> u8 {
    (1 + typ + 6 * color) as u8
}

/// Type and colour of each mailbox code (a load instead of a division), padded to 16
/// entries so that the index is masked rather than reduced modulo 13.
const CODE_TYPE: [u8; 16] = [0, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 0, 0];
const CODE_COLOR: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0];

/// The type of a non-empty mailbox code.
#[inline(always)]
pub const fn code_type(c: u8) -> usize {
    CODE_TYPE[c as usize & 15] as usize
}

/// The colour of a non-empty mailbox code.
#[inline(always)]
pub const fn code_color(c: u8) -> usize {
    CODE_COLOR[c as usize & 15] as usize
}

/// The row of the back rank of `color` on the unprimed half (rank 1 or 8).
pub const fn back_row(color: usize) -> usize {
    if color == WHITE { 7 } else { 0 }
}

/// `CASTLE_KEEP[sq]`: the castling rights that survive a move touching `sq` (king and
/// rook squares clear some).
const CASTLE_KEEP: [u8; SQUARES] = {
    let mut keep = [0xF; SQUARES];
    keep[square(4, 7)] = !(CASTLE_WK | CASTLE_WQ) & 0xF;
    keep[square(7, 7)] = !CASTLE_WK & 0xF;
    keep[square(0, 7)] = !CASTLE_WQ & 0xF;
    keep[square(4, 0)] = !(CASTLE_BK | CASTLE_BQ) & 0xF;
    keep[square(7, 0)] = !CASTLE_BK & 0xF;
    keep[square(0, 0)] = !CASTLE_BQ & 0xF;
    keep
};

/// `*set ^= squares` as one 16-byte load, xor and store: three instructions where the
/// compiler wrote two 8-byte halves of each (six). Every change of a set in make and
/// unmake goes through here (callgrind on the perft with every leaf made: 2 320.6 M →
/// 2 277.0 M instructions).
#[inline(always)]
fn toggle(set: &mut Bb, squares: Bb) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_load_si128, _mm_set_epi64x, _mm_store_si128, _mm_xor_si128,
        };
        let p = std::ptr::from_mut(set).cast::<__m128i>();
        // SAFETY: `p` comes from a `&mut u128`, which is valid and 16-byte aligned, and
        // SSE2 is part of every x86-64 processor.
        unsafe {
            let x = _mm_set_epi64x((squares >> 64) as i64, squares as i64);
            _mm_store_si128(p, _mm_xor_si128(_mm_load_si128(p), x));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        *set ^= squares;
    }
}

/// The pieces of colour `by` attacking `sq` in the placement `pieces`/`colors` when the
/// occupancy is `occ`; `phasers` are the pieces that attack their twin square.
/// A slider attacks `sq` when it is the nearest occupied square on one of the rays from
/// `sq` (both ways round the row), so only the rays holding a slider are scanned.
#[inline(always)]
pub fn attackers(
    t: &Tables,
    (pieces, colors): (&[Bb; 6], &[Bb; 2]),
    phasers: Bb,
    sq: usize,
    occ: Bb,
    by: usize,
) -> Bb {
    let (p, them) = (pieces, colors[by]);
    let contact = (t.knight[sq] & p[KNIGHT])
        | (t.king[sq] & p[KING])
        | (t.pawn_from[by][sq] & p[PAWN])
        | (bit(twin(sq)) & phasers);
    let mut att = contact & them;
    let ortho = (p[ROOK] | p[QUEEN]) & them & t.rook_lines[sq];
    if ortho != 0 {
        for d in [N, S] {
            att |= nearest_slider(t, d, sq, occ, ortho);
        }
        let y = row(sq);
        if ortho & (0xFFFF << (16 * y)) != 0 {
            let x = col(sq) as u32;
            let lane = ((occ >> (16 * y)) as u16).rotate_right(x) & !1;
            if lane != 0 {
                let right = square(col(sq) + lane.trailing_zeros() as usize, y);
                let left = square(col(sq) + 15 - lane.leading_zeros() as usize, y);
                att |= (bit(right) | bit(left)) & ortho;
            }
        }
    }
    let diag = (p[BISHOP] | p[QUEEN]) & them & t.bishop_lines[sq];
    if diag != 0 {
        for d in [1, 2, 4, 5] {
            att |= nearest_slider(t, d, sq, occ, diag);
        }
    }
    att
}

/// The nearest occupied square on ray `d` from `sq`, as a set, if it is one of `sliders`.
/// A slider missing from `occ` (a piece lifted for the question, as the moved piece on
/// its origin in Dekker's mate test) is not there: it neither attacks nor blocks.
#[inline(always)]
fn nearest_slider(t: &Tables, d: usize, sq: usize, occ: Bb, sliders: Bb) -> Bb {
    let ray = t.rays[d][sq];
    let blockers = ray & occ;
    if ray & sliders == 0 || blockers == 0 {
        return 0;
    }
    bit(nearest(d, blockers)) & sliders
}

/// The part of a position besides the placement and the side to move: what
/// [`Board::unmake`] restores from the record [`Board::make`] saved. Kept together so
/// that saving and restoring it are two wide copies rather than one per field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist hash of placement, side, castling rights and `ep`.
    pub hash: u64,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    /// Move number, starting at 1, incremented after Black's move.
    pub fullmove: u32,
    /// Castling right bits (`CASTLE_*`).
    pub castling: u8,
    /// The square skipped by a double step that may be captured en passant, or [`NO_SQ`].
    /// After [`Board::apply`] it is set whenever an enemy pawn could capture there; the
    /// position layer clears it when no such capture is legal.
    pub ep: u8,
}

/// One position without its history. Copying it is the undo of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Squares of each piece type, both colours.
    pub pieces: [Bb; 6],
    /// Squares of each colour.
    pub colors: [Bb; 2],
    /// The piece code on each square (see `code`).
    pub mailbox: [u8; SQUARES],
    /// 0 when White is to move, 1 for Black.
    pub stm: usize,
    /// Hash, clocks, castling rights, en passant.
    pub st: State,
    /// The rule options (they change which moves are legal).
    pub opts: MoebiusOptions,
}

/// What [`Board::unmake`] needs to take a move back: the state that cannot be recomputed
/// and the codes of the moved and captured pieces. The bitboards and the mailbox are
/// restored from the move itself (saving the 128 bytes of bitboards and copying them
/// back cost more than undoing the two or three squares a move touches).
#[derive(Clone, Copy, Debug)]
pub struct BoardUndo {
    st: State,
    /// The mailbox code of the moved piece (before a promotion).
    moved: u8,
    /// The mailbox code of the captured piece, 0 if none.
    captured: u8,
}

impl BoardUndo {
    /// The mailbox code of the piece the move captured, 0 if none.
    #[inline(always)]
    pub fn captured(&self) -> u8 {
        self.captured
    }
}

impl Board {
    /// An empty board, White to move.
    pub fn empty(opts: MoebiusOptions) -> Board {
        Board {
            pieces: [0; 6],
            colors: [0; 2],
            mailbox: [0; SQUARES],
            stm: WHITE,
            st: State { hash: 0, halfmove: 0, fullmove: 1, castling: 0, ep: NO_SQ },
            opts,
        }
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bb {
        self.colors[0] | self.colors[1]
    }

    /// The pieces of `typ` and `color`.
    #[inline(always)]
    pub fn of(&self, color: usize, typ: usize) -> Bb {
        self.pieces[typ] & self.colors[color]
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king_sq(&self, color: usize) -> usize {
        self.of(color, KING).trailing_zeros() as usize
    }

    /// Puts a piece on an empty square, updating the hash.
    #[inline(always)]
    pub fn put(&mut self, sq: usize, c: u8) {
        self.put_with(&TABLES, sq, c);
    }

    #[inline(always)]
    fn put_with(&mut self, t: &Tables, sq: usize, c: u8) {
        let b = bit(sq);
        toggle(&mut self.pieces[code_type(c)], b);
        toggle(&mut self.colors[code_color(c)], b);
        self.mailbox[sq] = c;
        self.st.hash ^= t.z_piece[c as usize][sq];
    }

    /// Removes the piece on `sq` (which must hold one), updating the hash.
    #[inline(always)]
    fn take(&mut self, t: &Tables, sq: usize) -> u8 {
        let c = self.mailbox[sq];
        let b = bit(sq);
        toggle(&mut self.pieces[code_type(c)], b);
        toggle(&mut self.colors[code_color(c)], b);
        self.mailbox[sq] = 0;
        self.st.hash ^= t.z_piece[c as usize][sq];
        c
    }

    /// The hash computed from scratch (the incremental one always equals it).
    pub fn compute_hash(&self) -> u64 {
        let t = &*TABLES;
        let mut h = t.z_castle[self.st.castling as usize];
        for sq in 0..SQUARES {
            if self.mailbox[sq] != 0 {
                h ^= t.z_piece[self.mailbox[sq] as usize][sq];
            }
        }
        if self.st.ep != NO_SQ {
            h ^= t.z_ep[self.st.ep as usize];
        }
        if self.stm == BLACK {
            h ^= t.z_black;
        }
        h
    }

    /// Pieces that attack their twin: all, but pawns only under full pawn phasing.
    #[inline(always)]
    pub fn phasers(&self) -> Bb {
        if self.opts.pawn_phase_captures() { !0 } else { !self.pieces[PAWN] }
    }

    /// The pieces of `by` attacking `sq` when the board's occupancy is `occ` (phasing
    /// included: a piece attacks its twin square).
    #[inline(always)]
    pub fn attackers(&self, t: &Tables, sq: usize, occ: Bb, by: usize) -> Bb {
        attackers(t, (&self.pieces, &self.colors), self.phasers(), sq, occ, by)
    }

    /// True when the king of the side to move is attacked.
    pub fn in_check(&self) -> bool {
        let t = &**TABLES;
        self.attackers(t, self.king_sq(self.stm), self.occupied(), self.stm ^ 1) != 0
    }

    /// True when `mv` (of the side to move) captures something.
    #[inline(always)]
    pub fn is_capture(&self, mv: ChessMove) -> bool {
        mv.kind() == Kind::EnPassant || (mv.kind() != Kind::Castle && self.mailbox[mv.to()] != 0)
    }

    /// The square of the pawn taken by an en-passant capture onto `ep`.
    #[inline(always)]
    pub fn ep_victim(ep: usize) -> usize {
        // The skipped square is on rank 3 (row 5) or rank 6 (row 2); the pawn stands
        // one row nearer the middle.
        if row(ep) == 5 { ep - 16 } else { ep + 16 }
    }

    /// The rook's origin and destination for castling with the king going to `king_to`.
    #[inline(always)]
    pub fn castle_rook(king_to: usize) -> (usize, usize) {
        let y = row(king_to);
        if col(king_to) == 6 { (square(7, y), square(5, y)) } else { (square(0, y), square(3, y)) }
    }

    /// Plays a pseudo-legal move. Returns the code of the captured piece (0 if none).
    pub fn apply(&mut self, mv: ChessMove) -> u8 {
        self.apply_with(&TABLES, mv)
    }

    /// [`Board::apply`] with the tables at hand, inlined into [`Board::make`] (a call
    /// and a second look-up of the tables per move showed in the make/unmake perft).
    #[inline(always)]
    fn apply_with(&mut self, t: &Tables, mv: ChessMove) -> u8 {
        let (from, to) = (mv.from(), mv.to());
        let us = self.stm;
        if self.st.ep != NO_SQ {
            self.st.hash ^= t.z_ep[self.st.ep as usize];
            self.st.ep = NO_SQ;
        }
        self.st.halfmove += 1;
        let piece = self.mailbox[from];
        let mut captured = 0;
        match mv.kind() {
            Kind::Castle => {
                self.take(t, from);
                self.put_with(t, to, piece);
                let (rf, rt) = Board::castle_rook(to);
                let rook = self.take(t, rf);
                self.put_with(t, rt, rook);
            }
            Kind::EnPassant => {
                captured = self.take(t, Board::ep_victim(to));
                self.take(t, from);
                self.put_with(t, to, piece);
                self.st.halfmove = 0;
            }
            kind => {
                let victim = self.mailbox[to];
                if victim != 0 {
                    captured = self.take(t, to);
                    self.st.halfmove = 0;
                }
                let typ = code_type(piece);
                if typ == PAWN {
                    self.st.halfmove = 0;
                }
                match mv.promotion() {
                    Some(promoted) => {
                        self.take(t, from);
                        self.put_with(t, to, code(us, promoted));
                    }
                    None => {
                        // Both squares in one update of each set.
                        let both = bit(from) | bit(to);
                        toggle(&mut self.pieces[typ], both);
                        toggle(&mut self.colors[us], both);
                        self.mailbox[from] = 0;
                        self.mailbox[to] = piece;
                        self.st.hash ^=
                            t.z_piece[piece as usize][from] ^ t.z_piece[piece as usize][to];
                    }
                }
                if kind == Kind::Double {
                    let ep = (from + to) / 2;
                    if t.pawn_from[us ^ 1][ep] & self.of(us ^ 1, PAWN) != 0 {
                        self.st.ep = ep as u8;
                        self.st.hash ^= t.z_ep[ep];
                    }
                }
            }
        }
        let rights = self.st.castling & CASTLE_KEEP[from] & CASTLE_KEEP[to];
        if rights != self.st.castling {
            self.st.hash ^= t.z_castle[self.st.castling as usize] ^ t.z_castle[rights as usize];
            self.st.castling = rights;
        }
        // After Black's move (`us` is 0 or 1).
        self.st.fullmove += us as u32;
        self.stm ^= 1;
        self.st.hash ^= t.z_black;
        captured
    }

    /// The state [`Board::unmake`] restores, for a move of the piece `moved` capturing
    /// `captured` (codes; 0 for a null move).
    #[inline(always)]
    fn undo_record(&self, moved: u8, captured: u8) -> BoardUndo {
        BoardUndo { st: self.st, moved, captured }
    }

    /// Restores the state saved by [`Board::undo_record`] and gives the turn back; the
    /// placement is left to the caller.
    #[inline(always)]
    fn restore(&mut self, u: &BoardUndo) {
        self.st = u.st;
        self.stm ^= 1;
    }

    /// Moves the piece `c` from `from` to `to` in the bitboards and the mailbox, without
    /// the hash (for [`Board::unmake`]).
    #[inline(always)]
    fn shift(&mut self, c: u8, from: usize, to: usize) {
        let both = bit(from) | bit(to);
        toggle(&mut self.pieces[code_type(c)], both);
        toggle(&mut self.colors[code_color(c)], both);
        self.mailbox[from] = 0;
        self.mailbox[to] = c;
    }

    /// Puts the piece `c` back on the empty square `sq`, without the hash.
    #[inline(always)]
    fn restore_piece(&mut self, c: u8, sq: usize) {
        toggle(&mut self.pieces[code_type(c)], bit(sq));
        toggle(&mut self.colors[code_color(c)], bit(sq));
        self.mailbox[sq] = c;
    }

    /// Plays a pseudo-legal move like [`Board::apply`] and returns what
    /// [`Board::unmake`] needs to take it back.
    #[inline(always)]
    pub fn make(&mut self, mv: ChessMove) -> BoardUndo {
        let mut undo = self.undo_record(self.mailbox[mv.from()], 0);
        undo.captured = self.apply_with(&TABLES, mv);
        undo
    }

    /// Takes back `mv`, played by [`Board::make`] (later changes to the en-passant
    /// square, such as [`Board::clear_ep`], are undone too).
    #[inline(always)]
    pub fn unmake(&mut self, mv: ChessMove, undo: &BoardUndo) {
        self.restore(undo);
        let (from, to) = (mv.from(), mv.to());
        match mv.kind() {
            Kind::Castle => {
                let (rf, rt) = Board::castle_rook(to);
                self.shift(self.mailbox[rt], rt, rf);
                self.shift(undo.moved, to, from);
            }
            Kind::EnPassant => {
                self.shift(undo.moved, to, from);
                self.restore_piece(undo.captured, Board::ep_victim(to));
            }
            _ => {
                if mv.promotion().is_some() {
                    let promoted = self.mailbox[to];
                    toggle(&mut self.pieces[code_type(promoted)], bit(to));
                    toggle(&mut self.pieces[PAWN], bit(to));
                }
                self.shift(undo.moved, to, from);
                if undo.captured != 0 {
                    self.restore_piece(undo.captured, to);
                }
            }
        }
    }

    /// Passes the turn like [`Board::pass`] and returns what [`Board::unmake_null`]
    /// needs to take it back.
    pub fn make_null(&mut self) -> BoardUndo {
        let undo = self.undo_record(0, 0);
        self.pass();
        undo
    }

    /// Takes back [`Board::make_null`].
    pub fn unmake_null(&mut self, undo: &BoardUndo) {
        self.restore(undo);
    }

    /// Passes the turn (the search's null move): no en passant, other side to move.
    pub fn pass(&mut self) {
        self.clear_ep();
        self.stm ^= 1;
        self.st.hash ^= TABLES.z_black;
    }

    /// Clears the en-passant square (when no en-passant capture is legal).
    pub fn clear_ep(&mut self) {
        if self.st.ep != NO_SQ {
            self.st.hash ^= TABLES.z_ep[self.st.ep as usize];
            self.st.ep = NO_SQ;
        }
    }

    /// True when neither side can ever mate: K–K, K+N–K, K+B–K.
    pub fn insufficient_material(&self) -> bool {
        let p = &self.pieces;
        if p[PAWN] | p[ROOK] | p[QUEEN] != 0 {
            return false;
        }
        (p[KNIGHT] | p[BISHOP]).count_ones() <= 1
    }
}
