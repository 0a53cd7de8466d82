//! Legal move generation on the cylinder.
//!
//! Ordinary legality is decided without making moves (in the manner of Stockfish's
//! legal generator): checkers and a check mask (squares that capture or block every
//! checking line; a rook seeing the king both ways round a row can only be captured),
//! pinned pieces with the line they may move along, king moves tested against attacks
//! with the king lifted. Only en passant is tested by making the move. Nierse's rule
//! removes the twin of the enemy king from every target set; Dekker's rule then drops
//! the few moves that land on that twin and mate, found by playing them.

use super::board::{
    BISHOP, Board, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, back_row, code_type,
};
use super::geometry::{
    Bb, N, NO_SQ, S, TABLES, Tables, bishop_attacks, bit, col, nearest, rook_attacks, row,
    square, squares, twin,
};
use super::moves::{ChessMove, Kind};
use super::options::{CheckRule, PawnPhasing};

/// A fixed-capacity move list (no allocation in the search or perft).
pub struct MoveList {
    moves: [ChessMove; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// More than the most legal moves of any position (nine queens on 128 squares).
    pub const CAPACITY: usize = 512;

    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: [ChessMove::default(); MoveList::CAPACITY], len: 0 }
    }

    #[inline(always)]
    fn push(&mut self, mv: ChessMove) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[ChessMove] {
        &self.moves[..self.len]
    }

    /// The moves, mutable (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [ChessMove] {
        &mut self.moves[..self.len]
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

    /// Keeps the moves for which `keep` is true.
    fn retain(&mut self, mut keep: impl FnMut(ChessMove) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
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

/// The squares of row `y` given as a 16-bit lane in coordinates rotated by `x`.
#[inline(always)]
fn lane_to_bb(lane: u16, x: usize, y: usize) -> Bb {
    (lane.rotate_left(x as u32) as Bb) << (16 * y)
}

impl Board {
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

    /// Pushes `from`→every square of `targets` (pawn moves expand promotions).
    #[inline(always)]
    fn push_all(list: &mut MoveList, from: usize, targets: Bb) {
        for to in squares(targets) {
            list.push(ChessMove::new(from, to, Kind::Normal));
        }
    }

    #[inline(always)]
    fn push_pawn(list: &mut MoveList, from: usize, to: usize, promo: Bb) {
        if promo & bit(to) != 0 {
            for k in [Kind::PromoQueen, Kind::PromoRook, Kind::PromoBishop, Kind::PromoKnight] {
                list.push(ChessMove::new(from, to, k));
            }
        } else {
            list.push(ChessMove::new(from, to, Kind::Normal));
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
    fn gen_ep(&self, t: &Tables, list: &mut MoveList, forbid: Bb) {
        let ep = self.ep as usize;
        if self.ep == NO_SQ || bit(ep) & forbid != 0 {
            return;
        }
        for from in squares(t.pawn_from[self.stm][ep] & self.of(self.stm, PAWN)) {
            let mv = ChessMove::new(from, ep, Kind::EnPassant);
            if self.safe_by_making(t, mv) {
                list.push(mv);
            }
        }
    }

    /// Appends every legal move under `rule` (ordinary legality for `CheckRule::None`).
    pub fn generate(&self, list: &mut MoveList, rule: CheckRule) {
        let t = &**TABLES;
        let us = self.stm;
        let them = us ^ 1;
        let (own, enemy) = (self.colors[us], self.colors[them]);
        let occ = own | enemy;
        let ksq = self.king_sq(us);
        let tek = twin(self.king_sq(them));
        let forbid = if rule == CheckRule::Nierse { bit(tek) } else { 0 };
        let ks = self.king_safety(t, ksq);

        let lifted = occ ^ bit(ksq);
        for to in squares((t.king[ksq] | bit(twin(ksq))) & !own & !forbid) {
            if self.attackers(t, to, lifted, them) == 0 {
                list.push(ChessMove::new(ksq, to, Kind::Normal));
            }
        }
        let target = !own & ks.check_mask & !forbid;
        if target != 0 {
            let p = &self.pieces;
            for from in squares(p[KNIGHT] & own & !ks.pinned) {
                Board::push_all(list, from, (t.knight[from] | bit(twin(from))) & target);
            }
            for from in squares((p[BISHOP] | p[QUEEN]) & own) {
                let mut att = bishop_attacks(t, from, occ) | bit(twin(from));
                if code_type(self.mailbox[from]) == QUEEN {
                    att |= rook_attacks(t, from, occ);
                }
                Board::push_all(list, from, att & target & ks.allowed(from));
            }
            for from in squares(p[ROOK] & own) {
                let att = rook_attacks(t, from, occ) | bit(twin(from));
                Board::push_all(list, from, att & target & ks.allowed(from));
            }
            self.gen_pawns(t, list, target, &ks);
        }
        self.gen_ep(t, list, forbid);
        if ks.checkers == 0 && self.castling != 0 {
            self.gen_castling(t, list, forbid);
        }
        if rule == CheckRule::Dekker {
            self.drop_phasing_mates(list, tek);
        }
    }

    fn gen_pawns(&self, t: &Tables, list: &mut MoveList, target: Bb, ks: &KingSafety) {
        let us = self.stm;
        let occ = self.occupied();
        let enemy = self.colors[us ^ 1];
        let promo = t.promo[us];
        let start_row = if us == WHITE { 6 } else { 1 };
        for from in squares(self.of(us, PAWN)) {
            let allowed = target & ks.allowed(from);
            let one = t.push[us][from] as usize;
            if occ & bit(one) == 0 {
                if allowed & bit(one) != 0 {
                    Board::push_pawn(list, from, one, promo);
                }
                if row(from) == start_row && col(from) < 8 {
                    let two = t.push[us][one] as usize;
                    if (occ | !allowed) & bit(two) == 0 {
                        list.push(ChessMove::new(from, two, Kind::Double));
                    }
                }
            }
            for to in squares(t.pawn_attacks[us][from] & enemy & allowed) {
                Board::push_pawn(list, from, to, promo);
            }
            let tw = twin(from);
            let phase_ok = match self.opts.pawn_phasing {
                PawnPhasing::Full => !self.colors[us],
                PawnPhasing::EmptyOnly => !occ,
                PawnPhasing::Never => 0,
            };
            if bit(tw) & phase_ok & allowed != 0 {
                list.push(ChessMove::new(from, tw, Kind::Normal));
            }
        }
    }

    fn gen_castling(&self, t: &Tables, list: &mut MoveList, forbid: Bb) {
        let us = self.stm;
        let y = back_row(us);
        let occ = self.occupied();
        let (e, rights) = (square(4, y), self.castling >> (2 * us));
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
                list.push(ChessMove::new(e, kto, Kind::Castle));
            }
        }
    }

    /// Dekker's rule: drops the moves that put the moved piece (king or rook when
    /// castling) on the twin of the enemy king and mate.
    fn drop_phasing_mates(&self, list: &mut MoveList, tek: usize) {
        let lands = |mv: ChessMove| {
            mv.to() == tek || (mv.kind() == Kind::Castle && Board::castle_rook(mv.to()).1 == tek)
        };
        if !list.as_slice().iter().any(|&mv| lands(mv)) {
            return;
        }
        list.retain(|mv| !lands(mv) || !self.mates_with(mv));
    }

    /// True when `mv` checkmates (the defender's replies under ordinary legality).
    pub fn mates_with(&self, mv: ChessMove) -> bool {
        let mut b = *self;
        b.apply(mv);
        if !b.in_check() {
            return false;
        }
        let mut replies = MoveList::new();
        b.generate(&mut replies, CheckRule::None);
        replies.is_empty()
    }

    /// True when the side to move has a legal en-passant capture under its rules.
    pub fn has_legal_ep(&self) -> bool {
        let t = &**TABLES;
        let rule = self.opts.check_rule;
        let tek = twin(self.king_sq(self.stm ^ 1));
        let forbid = if rule == CheckRule::Nierse { bit(tek) } else { 0 };
        let mut list = MoveList::new();
        self.gen_ep(t, &mut list, forbid);
        if rule == CheckRule::Dekker {
            self.drop_phasing_mates(&mut list, tek);
        }
        !list.is_empty()
    }
}
