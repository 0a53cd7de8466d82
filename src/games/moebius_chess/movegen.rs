//! Legal move generation on the cylinder.
//!
//! Ordinary legality is decided without making moves (in the manner of Stockfish's
//! legal generator): checkers and a check mask (squares that capture or block every
//! checking line; a rook seeing the king both ways round a row can only be captured),
//! pinned pieces with the line they may move along, king moves tested against attacks
//! with the king lifted. Only en passant is tested by making the move. Nierse's rule
//! removes the twin of the enemy king from every target set; Dekker's rule then drops
//! the few moves that land on that twin and mate, found by playing them.

use super::board::{BISHOP, Board, KNIGHT, PAWN, QUEEN, ROOK, WHITE, back_row, code_type};
use super::geometry::{
    Bb, LEFT_HALF, N, NO_SQ, S, TABLES, Tables, bishop_attacks, bit, col, nearest, rook_attacks,
    row, square, squares, twin, twin_bb,
};
use super::moves::{ChessMove, Kind};
use super::options::{CheckRule, PawnPhasing};
use std::mem::MaybeUninit;

/// A fixed-capacity move list (no allocation in the search or perft).
///
/// The buffer is left uninitialised: a list is made at every node of perft and the
/// search, and zeroing its 2 KiB each time cost more than filling the few dozen moves.
/// The list notes where the moves landing on the twin of the enemy king went, so that
/// Dekker's rule looks at those alone.
pub struct MoveList {
    /// Entries `..len` are initialised.
    moves: [MaybeUninit<ChessMove>; MoveList::CAPACITY],
    len: usize,
    /// The twin of the enemy king in the generation under way.
    tek: usize,
    /// Indices (increasing) of the moves that land on `tek`.
    landing: [u16; MAX_LANDING],
    landed: usize,
}

/// More than the most moves landing on one square: four pawns can reach it (a push,
/// two captures, a phase) with four promotions each, twelve other pieces once each, and
/// two castlings may put a rook there.
const MAX_LANDING: usize = 32;

impl MoveList {
    /// More than the most legal moves of any position (nine queens on 128 squares).
    pub const CAPACITY: usize = 512;

    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MoveList::CAPACITY],
            len: 0,
            tek: usize::MAX,
            landing: [0; MAX_LANDING],
            landed: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, mv: ChessMove) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[ChessMove] {
        // SAFETY: `push` (the only writer past `len`) initialised entries `..len`, and
        // `MaybeUninit<ChessMove>` has the layout of `ChessMove`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast(), self.len) }
    }

    /// The moves, mutable (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [ChessMove] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast(), self.len) }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Notes that the move about to be pushed at index `at` lands on the twin of the
    /// enemy king.
    #[inline(always)]
    fn note_landing(&mut self, at: usize) {
        self.landing[self.landed] = at as u16;
        self.landed += 1;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// Where the generator puts moves: a [`MoveList`], or a [`MoveCounter`] for perft's
/// bulk counting at the last ply.
pub trait Sink {
    /// Called once before generation with the twin of the enemy king's square.
    fn begin(&mut self, tek: usize);
    /// One ordinary move `from`→`to` for every square of `targets`.
    fn add_set(&mut self, from: usize, targets: Bb);
    /// One move.
    fn add(&mut self, mv: ChessMove);
    /// Pawn moves onto every square of `targets`, from `from_of(to)`; those onto `promo`
    /// squares expand into the four promotions.
    #[inline(always)]
    fn add_pawn_set(
        &mut self,
        targets: Bb,
        from_of: impl Fn(usize) -> usize,
        promo: Bb,
        kind: Kind,
    ) {
        for to in squares(targets) {
            let from = from_of(to);
            if kind == Kind::Double {
                self.add(ChessMove::new(from, to, kind));
            } else {
                Board::push_pawn(self, from, to, promo);
            }
        }
    }
    /// Dekker's rule: drops the moves that land on `tek` and mate.
    fn drop_phasing_mates(&mut self, b: &Board, tek: usize);
    /// True when generation may stop early (the sink only asks whether a move exists).
    #[inline(always)]
    fn satisfied(&self) -> bool {
        false
    }
}

/// True when `mv` puts the moved piece (king or rook when castling) on `tek`.
#[inline(always)]
fn lands_on(mv: ChessMove, tek: usize) -> bool {
    mv.to() == tek || (mv.kind() == Kind::Castle && Board::castle_rook(mv.to()).1 == tek)
}

impl Sink for MoveList {
    #[inline(always)]
    fn begin(&mut self, tek: usize) {
        self.tek = tek;
        self.landed = 0;
    }

    #[inline(always)]
    fn add_set(&mut self, from: usize, targets: Bb) {
        if targets & bit(self.tek) != 0 {
            // Squares come lowest first: the landing move follows those below `tek`.
            let below = targets & (bit(self.tek) - 1);
            self.note_landing(self.len + below.count_ones() as usize);
        }
        for to in squares(targets) {
            self.push(ChessMove::new(from, to, Kind::Normal));
        }
    }

    #[inline(always)]
    fn add(&mut self, mv: ChessMove) {
        if lands_on(mv, self.tek) {
            self.note_landing(self.len);
        }
        self.push(mv);
    }

    fn drop_phasing_mates(&mut self, b: &Board, _tek: usize) {
        if self.landed == 0 {
            return;
        }
        // The landing moves that mate (a bit per entry of `landing`).
        let mut mating = 0u32;
        for (i, &at) in self.landing[..self.landed].iter().enumerate() {
            if b.mates_with(self.as_slice()[at as usize]) {
                mating |= 1 << i;
            }
        }
        if mating == 0 {
            return;
        }
        // Close the gaps, keeping the order, from the first dropped move on.
        let landing = self.landing;
        let at = |mating: u32| landing[mating.trailing_zeros() as usize] as usize;
        let first = at(mating);
        let mut write = first;
        for read in first..self.len {
            if mating != 0 && read == at(mating) {
                mating &= mating - 1;
                continue;
            }
            let mv = self.as_slice()[read];
            self.as_mut_slice()[write] = mv;
            write += 1;
        }
        self.len = write;
    }
}

/// Answers "is there any legal move?" and lets generation stop at the first one.
struct AnyMove(bool);

impl Sink for AnyMove {
    #[inline(always)]
    fn begin(&mut self, _tek: usize) {}
    #[inline(always)]
    fn add_set(&mut self, _from: usize, targets: Bb) {
        self.0 |= targets != 0;
    }
    #[inline(always)]
    fn add(&mut self, _mv: ChessMove) {
        self.0 = true;
    }
    #[inline(always)]
    fn add_pawn_set(&mut self, targets: Bb, _f: impl Fn(usize) -> usize, _p: Bb, _k: Kind) {
        self.0 |= targets != 0;
    }
    fn drop_phasing_mates(&mut self, _b: &Board, _tek: usize) {
        unreachable!("the any-move test uses ordinary legality")
    }
    #[inline(always)]
    fn satisfied(&self) -> bool {
        self.0
    }
}

/// Counts moves without listing them; remembers the few that land on the twin of the
/// enemy king for Dekker's rule.
pub struct MoveCounter {
    /// The number of moves counted.
    pub count: u64,
    tek: usize,
    landing: [ChessMove; MAX_LANDING],
    landed: usize,
}

impl MoveCounter {
    /// A counter at zero.
    #[inline(always)]
    pub fn new() -> MoveCounter {
        MoveCounter {
            count: 0,
            tek: usize::MAX,
            landing: [ChessMove::default(); MAX_LANDING],
            landed: 0,
        }
    }
}

impl Default for MoveCounter {
    fn default() -> Self {
        MoveCounter::new()
    }
}

impl Sink for MoveCounter {
    #[inline(always)]
    fn begin(&mut self, tek: usize) {
        self.tek = tek;
    }

    #[inline(always)]
    fn add_set(&mut self, from: usize, targets: Bb) {
        self.count += targets.count_ones() as u64;
        if targets & bit(self.tek) != 0 {
            self.landing[self.landed] = ChessMove::new(from, self.tek, Kind::Normal);
            self.landed += 1;
        }
    }

    #[inline(always)]
    fn add(&mut self, mv: ChessMove) {
        self.count += 1;
        if lands_on(mv, self.tek) {
            self.landing[self.landed] = mv;
            self.landed += 1;
        }
    }

    #[inline(always)]
    fn add_pawn_set(
        &mut self,
        targets: Bb,
        from_of: impl Fn(usize) -> usize,
        promo: Bb,
        kind: Kind,
    ) {
        self.count += ((targets & !promo).count_ones() + 4 * (targets & promo).count_ones()) as u64;
        if targets & bit(self.tek) != 0 {
            let (from, to) = (from_of(self.tek), self.tek);
            if promo & bit(to) != 0 {
                for k in [Kind::PromoQueen, Kind::PromoRook, Kind::PromoBishop, Kind::PromoKnight] {
                    self.landing[self.landed] = ChessMove::new(from, to, k);
                    self.landed += 1;
                }
            } else {
                self.landing[self.landed] = ChessMove::new(from, to, kind);
                self.landed += 1;
            }
        }
    }

    fn drop_phasing_mates(&mut self, b: &Board, _tek: usize) {
        for &mv in &self.landing[..self.landed] {
            if b.mates_with(mv) {
                self.count -= 1;
            }
        }
    }
}

/// Checks and pins against the king of the side to move.
struct KingSafety {
    checkers: Bb,
    /// Squares a non-king move must land on (all squares when not in check).
    check_mask: Bb,
    pinned: Bb,
    pin_sq: [u8; 8],
    pin_line: [Bb; 8],
    pins: usize,
}

impl KingSafety {
    fn pin(&mut self, sq: usize, line: Bb) {
        self.pinned |= bit(sq);
        self.pin_sq[self.pins] = sq as u8;
        self.pin_line[self.pins] = line;
        self.pins += 1;
    }

    /// The squares the piece on `sq` may move to without exposing its king.
    #[inline(always)]
    fn allowed(&self, sq: usize) -> Bb {
        if self.pinned & bit(sq) == 0 {
            return !0;
        }
        (0..self.pins).find(|&i| self.pin_sq[i] as usize == sq).map_or(!0, |i| self.pin_line[i])
    }
}

/// Row 5 (rank 3) and row 2 (rank 6): where double steps pass.
const ROW5: Bb = 0xFFFFu128 << 80;
const ROW2: Bb = 0xFFFFu128 << 32;
/// Column 0 and column 15 of every row.
const COL0: Bb = 0x0001_0001_0001_0001_0001_0001_0001_0001;
const COL15: Bb = COL0 << 15;

/// Every square of `b` moved one column right (x + 1), wrapping within its row.
#[inline(always)]
fn east(b: Bb) -> Bb {
    ((b << 1) & !COL0) | ((b >> 15) & COL0)
}

/// Every square of `b` moved one column left (x − 1), wrapping within its row.
#[inline(always)]
fn west(b: Bb) -> Bb {
    ((b >> 1) & !COL15) | ((b << 15) & COL15)
}

/// The squares of row `y` given as a 16-bit lane in coordinates rotated by `x`.
#[inline(always)]
fn lane_to_bb(lane: u16, x: usize, y: usize) -> Bb {
    (lane.rotate_left(x as u32) as Bb) << (16 * y)
}

impl Board {
    /// Checkers and pins against the king on `ksq`. Inlined: returned from a call, the
    /// 200-byte record was copied out by `memcpy` at every node.
    #[inline(always)]
    fn king_safety(&self, t: &Tables, ksq: usize) -> KingSafety {
        let us = self.stm;
        let (own, enemy) = (self.colors[us], self.colors[us ^ 1]);
        let occ = own | enemy;
        let p = &self.pieces;
        let mut ks = KingSafety {
            checkers: 0,
            check_mask: !0,
            pinned: 0,
            pin_sq: [0; 8],
            pin_line: [0; 8],
            pins: 0,
        };
        let contact = ((t.knight[ksq] & p[KNIGHT])
            | (t.pawn_from[us ^ 1][ksq] & p[PAWN])
            | (bit(twin(ksq)) & self.phasers()))
            & enemy;
        for s in squares(contact) {
            ks.checkers |= bit(s);
            ks.check_mask &= bit(s);
        }
        let ortho = (p[ROOK] | p[QUEEN]) & enemy;
        let diag = (p[BISHOP] | p[QUEEN]) & enemy;
        for d in 0..6 {
            let sliders = if d == N || d == S { ortho } else { diag };
            let ray = t.rays[d][ksq];
            if ray & sliders == 0 {
                continue;
            }
            let b1 = nearest(d, ray & occ);
            if bit(b1) & sliders != 0 {
                ks.checkers |= bit(b1);
                ks.check_mask &= ray ^ t.rays[d][b1];
            } else if bit(b1) & own != 0 {
                let rest = t.rays[d][b1] & occ;
                if rest != 0 {
                    let b2 = nearest(d, rest);
                    if bit(b2) & sliders != 0 {
                        ks.pin(b1, ray ^ t.rays[d][b2]);
                    }
                }
            }
        }
        let (x, y) = (col(ksq), row(ksq));
        if (0xFFFFu128 << (16 * y)) & ortho != 0 {
            // Rotate the row so the king is bit 0: the right arc is bits 1, 2, …, the
            // left arc bits 15, 14, …; both arcs may carry a check or a pin.
            let r = ((occ >> (16 * y)) as u16).rotate_right(x as u32) & !1;
            let at = |q: u32| square(x + q as usize, y);
            let right = |q: u32| lane_to_bb(((1u32 << (q + 1)) - 2) as u16, x, y);
            let left = |q: u32| lane_to_bb((0xFFFFu32 << q) as u16, x, y);
            let q1 = r.trailing_zeros();
            let s1 = at(q1);
            if bit(s1) & ortho != 0 {
                ks.checkers |= bit(s1);
                ks.check_mask &= right(q1);
            } else if bit(s1) & own != 0 {
                let rest = r & (r - 1);
                if rest != 0 && bit(at(rest.trailing_zeros())) & ortho != 0 {
                    ks.pin(s1, right(rest.trailing_zeros()));
                }
            }
            let q1 = 15 - r.leading_zeros();
            let s1 = at(q1);
            if bit(s1) & ortho != 0 {
                ks.checkers |= bit(s1);
                ks.check_mask &= left(q1);
            } else if bit(s1) & own != 0 {
                let rest = r & !(1 << q1);
                if rest != 0 && bit(at(15 - rest.leading_zeros())) & ortho != 0 {
                    ks.pin(s1, left(15 - rest.leading_zeros()));
                }
            }
        }
        ks
    }

    #[inline(always)]
    fn push_pawn<K: Sink + ?Sized>(sink: &mut K, from: usize, to: usize, promo: Bb) {
        if promo & bit(to) != 0 {
            for k in [Kind::PromoQueen, Kind::PromoRook, Kind::PromoBishop, Kind::PromoKnight] {
                sink.add(ChessMove::new(from, to, k));
            }
        } else {
            sink.add(ChessMove::new(from, to, Kind::Normal));
        }
    }

    /// True when the en-passant (or any) move `mv` does not leave the mover's king
    /// attacked, found by playing it.
    fn safe_by_making(&self, t: &Tables, mv: ChessMove) -> bool {
        let mut b = *self;
        b.apply(mv);
        b.attackers(t, b.king_sq(self.stm), b.occupied(), b.stm) == 0
    }

    /// Appends the legal en-passant captures under `rule` (Dekker's filter aside).
    fn gen_ep<K: Sink>(&self, t: &Tables, list: &mut K, forbid: Bb) {
        let ep = self.st.ep as usize;
        if self.st.ep == NO_SQ || bit(ep) & forbid != 0 {
            return;
        }
        for from in squares(t.pawn_from[self.stm][ep] & self.of(self.stm, PAWN)) {
            let mv = ChessMove::new(from, ep, Kind::EnPassant);
            if self.safe_by_making(t, mv) {
                list.add(mv);
            }
        }
    }

    /// Appends every legal move under `rule` (ordinary legality for `CheckRule::None`).
    pub fn generate<K: Sink>(&self, list: &mut K, rule: CheckRule) {
        let t = &**TABLES;
        let us = self.stm;
        let them = us ^ 1;
        let (own, enemy) = (self.colors[us], self.colors[them]);
        let occ = own | enemy;
        let ksq = self.king_sq(us);
        let tek = twin(self.king_sq(them));
        let forbid = if rule == CheckRule::Nierse { bit(tek) } else { 0 };
        let ks = self.king_safety(t, ksq);
        list.begin(tek);

        let lifted = occ ^ bit(ksq);
        for to in squares((t.king[ksq] | bit(twin(ksq))) & !own & !forbid) {
            if self.attackers(t, to, lifted, them) == 0 {
                list.add(ChessMove::new(ksq, to, Kind::Normal));
            }
        }
        if list.satisfied() {
            return;
        }
        let target = !own & ks.check_mask & !forbid;
        if target != 0 && ks.check_mask == ks.checkers {
            // A contact check (or an adjacent slider): only captures of the checker.
            let csq = ks.checkers.trailing_zeros() as usize;
            for from in squares(self.attackers(t, csq, occ, us) & !bit(ksq)) {
                if ks.allowed(from) & target == 0 {
                    continue;
                }
                if code_type(self.mailbox[from]) == PAWN && from != twin(csq) {
                    Board::push_pawn(list, from, csq, t.promo[us]);
                } else {
                    list.add(ChessMove::new(from, csq, Kind::Normal));
                }
            }
        } else if target != 0 {
            let p = &self.pieces;
            for from in squares(p[KNIGHT] & own & !ks.pinned) {
                list.add_set(from, (t.knight[from] | bit(twin(from))) & target);
            }
            for from in squares((p[BISHOP] | p[QUEEN]) & own) {
                let mut att = bishop_attacks(t, from, occ) | bit(twin(from));
                if code_type(self.mailbox[from]) == QUEEN {
                    att |= rook_attacks(t, from, occ);
                }
                list.add_set(from, att & target & ks.allowed(from));
            }
            for from in squares(p[ROOK] & own) {
                let att = rook_attacks(t, from, occ) | bit(twin(from));
                list.add_set(from, att & target & ks.allowed(from));
            }
            self.gen_pawns(t, list, target, &ks);
        }
        self.gen_ep(t, list, forbid);
        if ks.checkers == 0 && self.st.castling != 0 {
            self.gen_castling(t, list, forbid);
        }
        if rule == CheckRule::Dekker {
            list.drop_phasing_mates(self, tek);
        }
    }

    /// Moves of one pinned pawn (its targets are cut to its pin line).
    fn gen_pawn_one<K: Sink>(&self, t: &Tables, list: &mut K, from: usize, allowed: Bb) {
        let us = self.stm;
        let occ = self.occupied();
        let promo = t.promo[us];
        let one = t.push[us][from] as usize;
        if occ & bit(one) == 0 {
            if allowed & bit(one) != 0 {
                Board::push_pawn(list, from, one, promo);
            }
            if row(from) == if us == WHITE { 6 } else { 1 } && col(from) < 8 {
                let two = t.push[us][one] as usize;
                if (occ | !allowed) & bit(two) == 0 {
                    list.add(ChessMove::new(from, two, Kind::Double));
                }
            }
        }
        for to in squares(t.pawn_attacks[us][from] & self.colors[us ^ 1] & allowed) {
            Board::push_pawn(list, from, to, promo);
        }
        if bit(twin(from)) & self.pawn_phase_targets() & allowed != 0 {
            list.add(ChessMove::new(from, twin(from), Kind::Normal));
        }
    }

    /// The twins a pawn of the side to move may phase to, under the pawn option.
    #[inline(always)]
    fn pawn_phase_targets(&self) -> Bb {
        match self.opts.pawn_phasing {
            PawnPhasing::Full => !self.colors[self.stm],
            PawnPhasing::EmptyOnly => !self.occupied(),
            PawnPhasing::Never => 0,
        }
    }

    /// Pawn moves, set-wise for unpinned pawns. "Up" pawns (White on the left half, Black
    /// on the right) step to row − 1, the others to row + 1.
    fn gen_pawns<K: Sink>(&self, t: &Tables, list: &mut K, target: Bb, ks: &KingSafety) {
        let us = self.stm;
        let empty = !self.occupied();
        let enemy = self.colors[us ^ 1];
        let promo = t.promo[us];
        let pawns = self.of(us, PAWN);
        for from in squares(pawns & ks.pinned) {
            self.gen_pawn_one(t, list, from, target & ks.allowed(from));
        }
        let free = pawns & !ks.pinned;
        let up_half = if us == WHITE { LEFT_HALF } else { !LEFT_HALF };
        let fwd_up = (free & up_half) >> 16;
        let fwd_down = (free & !up_half) << 16;
        let (up1, down1) = (fwd_up & empty, fwd_down & empty);
        list.add_pawn_set(up1 & target, |to| to + 16, promo, Kind::Normal);
        list.add_pawn_set(down1 & target, |to| to - 16, promo, Kind::Normal);
        // Double steps start on the unprimed half only: White up from row 6, Black down
        // from row 1.
        if us == WHITE {
            let two = ((up1 & ROW5) >> 16) & empty & target;
            list.add_pawn_set(two, |to| to + 32, 0, Kind::Double);
        } else {
            let two = ((down1 & ROW2) << 16) & empty & target;
            list.add_pawn_set(two, |to| to - 32, 0, Kind::Double);
        }
        let take = enemy & target;
        let (r, c) = (row, col);
        list.add_pawn_set(
            east(fwd_up) & take,
            |to| square(c(to) + 15, r(to) + 1),
            promo,
            Kind::Normal,
        );
        list.add_pawn_set(
            west(fwd_up) & take,
            |to| square(c(to) + 1, r(to) + 1),
            promo,
            Kind::Normal,
        );
        list.add_pawn_set(
            east(fwd_down) & take,
            |to| square(c(to) + 15, r(to) - 1),
            promo,
            Kind::Normal,
        );
        list.add_pawn_set(
            west(fwd_down) & take,
            |to| square(c(to) + 1, r(to) - 1),
            promo,
            Kind::Normal,
        );
        let phases = twin_bb(free) & self.pawn_phase_targets() & target;
        list.add_pawn_set(phases, twin, 0, Kind::Normal);
    }

    #[inline(never)] // cold: only while castling rights remain
    fn gen_castling<K: Sink>(&self, t: &Tables, list: &mut K, forbid: Bb) {
        let us = self.stm;
        let y = back_row(us);
        let occ = self.occupied();
        let (e, rights) = (square(4, y), self.st.castling >> (2 * us));
        // (right bit, king to, rook from, rook to, squares that must be empty, passed square)
        let sides = [
            (1, square(6, y), square(7, y), square(5, y), bit(square(5, y)) | bit(square(6, y))),
            (
                2,
                square(2, y),
                square(0, y),
                square(3, y),
                bit(square(1, y)) | bit(square(2, y)) | bit(square(3, y)),
            ),
        ];
        for (right, kto, rfrom, rto, empty) in sides {
            if rights & right == 0 || occ & empty != 0 || bit(rto) & forbid != 0 {
                continue;
            }
            if self.attackers(t, rto, occ, us ^ 1) != 0 {
                continue;
            }
            // The king's landing square, seen with the rook moved (its old square may
            // open the wrapped row).
            let after = occ ^ bit(e) ^ bit(kto) ^ bit(rfrom) ^ bit(rto);
            if self.attackers(t, kto, after, us ^ 1) == 0 {
                list.add(ChessMove::new(e, kto, Kind::Castle));
            }
        }
    }

    /// True when `mv` checkmates (the defender's replies under ordinary legality).
    #[inline(always)]
    fn mates_with(&self, mv: ChessMove) -> bool {
        match self.quick_mate(mv) {
            Some(mate) => mate,
            None => self.mates_by_playing(mv),
        }
    }

    /// [`Board::mates_with`] by playing `mv` and looking for a reply.
    #[inline(never)] // cold: castling, en passant, double checks through the origin
    fn mates_by_playing(&self, mv: ChessMove) -> bool {
        let mut b = *self;
        b.apply(mv);
        if !b.in_check() {
            return false;
        }
        let mut replies = AnyMove(false);
        b.generate(&mut replies, CheckRule::None);
        !replies.0
    }

    /// [`Board::mates_with`] for an ordinary move or promotion onto the twin of the enemy
    /// king, decided without making it when the usual cases decide it: no check, a king
    /// escape, or a lone check from the king's twin (which no piece can block), answered
    /// or not by a capture. `None` leaves the rest to the full test.
    ///
    /// Attacks after the move are read from the board before it: the moved piece is
    /// masked out of its origin and its attacks from `to` are added; the captured piece
    /// is masked out of the defender's.
    #[inline(always)]
    fn quick_mate(&self, mv: ChessMove) -> Option<bool> {
        if mv.kind() != Kind::Normal && mv.promotion().is_none() {
            return None;
        }
        let t = &**TABLES;
        let (mover, defender) = (self.stm, self.stm ^ 1);
        let (from, to) = (mv.from(), mv.to());
        let ksq = self.king_sq(defender);
        let tek = twin(ksq);
        if to != tek {
            return None;
        }
        let moved = mv.promotion().unwrap_or(code_type(self.mailbox[from]));
        let occ = (self.occupied() ^ bit(from)) | bit(to);
        let lifted = occ ^ bit(ksq);
        let phases = moved != PAWN || self.opts.pawn_phase_captures();
        // The mover's other pieces attacking `sq` (the moved piece aside) with `occ`.
        let others = |sq, occ| self.attackers(t, sq, occ, mover) & !bit(from);
        // Before the move nothing attacks the defender's king (the position is legal),
        // so only the moved piece and lines opened at `from` can check.
        let discovered = (t.rook_lines[ksq] | t.bishop_lines[ksq]) & bit(from) != 0;
        let checkers =
            (if discovered { others(ksq, occ) } else { 0 }) | if phases { bit(to) } else { 0 };
        if checkers == 0 {
            return Some(false);
        }
        // The king may take the moved piece (tried first: in perft it is unguarded two
        // times out of three) or step to a free square.
        if others(tek, lifted) == 0 {
            return Some(false);
        }
        let steps = t.king[ksq] & !self.colors[defender];
        if steps != 0 {
            // The twin is on no line through the king, so lifting the king changes
            // nothing the moved piece sees from there.
            let moved_att = match moved {
                PAWN => t.pawn_attacks[mover][to],
                KNIGHT => t.knight[to],
                BISHOP => bishop_attacks(t, to, lifted),
                ROOK => rook_attacks(t, to, lifted),
                QUEEN => bishop_attacks(t, to, lifted) | rook_attacks(t, to, lifted),
                _ => t.king[to],
            };
            if squares(steps).any(|sq| moved_att & bit(sq) == 0 && others(sq, lifted) == 0) {
                return Some(false);
            }
        }
        if checkers != bit(tek) {
            return None;
        }
        let capturers = self.attackers(t, tek, occ, defender) & !bit(to) & !bit(ksq);
        let lines = |sq: usize| t.rook_lines[sq] | t.bishop_lines[sq];
        // Nothing of the mover but the moved piece attacks the king (`checkers`), so a
        // capturer off the king's lines (the twin is on none) exposes nothing.
        Some(
            !squares(capturers)
                .any(|sq| lines(ksq) & bit(sq) == 0 || others(ksq, occ ^ bit(sq)) == 0),
        )
    }

    /// True when the side to move has a legal en-passant capture under its rules.
    pub fn has_legal_ep(&self) -> bool {
        let t = &**TABLES;
        let rule = self.opts.check_rule;
        let tek = twin(self.king_sq(self.stm ^ 1));
        let forbid = if rule == CheckRule::Nierse { bit(tek) } else { 0 };
        let mut list = MoveCounter::new();
        list.begin(tek);
        self.gen_ep(t, &mut list, forbid);
        if rule == CheckRule::Dekker {
            list.drop_phasing_mates(self, tek);
        }
        list.count > 0
    }
}
