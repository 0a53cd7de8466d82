//! How the generic alpha-beta ([`crate::search::AlphaBeta`]) searches Moebius Chess:
//! check extensions, quiescence on captures and promotions (every reply when in check,
//! so phasing mates are seen), MVV-LVA capture order, mates found from an empty move
//! list, repetitions and the other draw rules before generating moves, and a null move
//! guarded against zugzwang in pawn endings.

use super::board::{KING, PAWN, code_type};
use super::eval::piece_value;
use super::geometry::{NO_SQ, TABLES, bit, squares};
use super::moves::ChessMove;
use super::position::{MoebiusChess, MoebiusUndo};
use crate::core::{LinearEval, Outcome};
use crate::search::{Evaluate, SearchParams};

impl Evaluate for MoebiusChess {
    /// Indexed by side·16384 + from·128 + to.
    const HISTORY_SIZE: usize = 2 * 16384;
    const SEARCH_PREFIX: &'static str = "Moebius";

    /// Null move on: it passed an SPRT at 1+0.01 against the same search without it
    /// (484-421-204, +19.5 ± 10.5 Elo; docs/strength.md), where an early test at equal
    /// node budgets (50 games) had shown nothing. Reverse futility pruning at 100 cp per
    /// ply passed the same way (431-364-189, +23.7 ± 11.9); late move pruning (`LMP Base`
    /// 3) beside it lost (−63 Elo), so it stays off. Futility pruning at 150 cp per ply
    /// (quiet moves that give no check, depth ≤ 3) passed too (297-240-124, +29.6 ± 12.9).
    const PARAMS: SearchParams = SearchParams {
        aspiration: 30,
        null_move: true,
        rfp_margin: 100,
        futility_margin: 150,
        lmr_in_pv: true,
        lmr_deep_depth: 6,
        history_max: 1 << 20,
        ..SearchParams::DEFAULT
    };

    fn evaluate(&self) -> i32 {
        self.linear_eval()
    }

    fn is_noisy(&self, mv: ChessMove) -> bool {
        self.board().is_capture(mv) || mv.promotion().is_some()
    }

    /// Most valuable victim (and promotion) first, least valuable attacker first.
    fn noisy_order(&self, mv: ChessMove) -> i32 {
        let b = self.board();
        let victim = match b.mailbox[mv.to()] {
            0 => PAWN,
            c => code_type(c),
        };
        let attacker = code_type(b.mailbox[mv.from()]);
        let promo = mv.promotion().map_or(0, piece_value);
        10 * (piece_value(victim) + promo) - piece_value(attacker) / 10
    }

    /// Not in check, no pawn one step from promotion with the square free, and no enemy
    /// piece that hangs or is attacked by a cheaper piece (attacks as the board counts
    /// them, phasing included; pins ignored).
    fn is_quiet(&self) -> bool {
        let b = self.board();
        let t = &**TABLES;
        let (us, them, occ) = (b.stm, b.stm ^ 1, b.occupied());
        if self.in_check() {
            return false;
        }
        let promoting = squares(b.of(us, PAWN)).any(|sq| {
            let to = t.push[us][sq];
            to != NO_SQ && bit(to as usize) & t.promo[us] & !occ != 0
        });
        if promoting {
            return false;
        }
        // The king captures only what is not defended.
        let cost = |sq: usize| match code_type(b.mailbox[sq]) {
            KING => i32::MAX,
            typ => piece_value(typ),
        };
        squares(b.colors[them] & !b.pieces[KING]).all(|sq| {
            let attackers = b.attackers(t, sq, occ, us);
            attackers == 0
                || (b.attackers(t, sq, occ, them) != 0
                    && squares(attackers).map(cost).min().unwrap_or(i32::MAX)
                        >= piece_value(code_type(b.mailbox[sq])))
        })
    }

    fn history_index(&self, mv: ChessMove) -> usize {
        self.board().stm * 16384 + mv.index()
    }

    fn expected_moves_left(&self) -> u32 {
        (45u32.saturating_sub(self.board().st.fullmove / 2)).max(15)
    }

    fn in_check(&self) -> bool {
        MoebiusChess::in_check(self)
    }

    /// Mate and stalemate need the move list; the draw rules and a repetition of any
    /// earlier position since the last irreversible move are known before.
    fn outcome_before_moves(&self) -> Option<Outcome> {
        (self.repeated() || self.drawn_by_rule()).then_some(Outcome::Draw)
    }

    /// Only with pieces other than pawns and king (pawn endings are full of zugzwang).
    fn play_null(&mut self) -> Option<MoebiusUndo> {
        let b = self.board();
        let pieces = b.colors[b.stm] & !(b.pieces[PAWN] | b.pieces[KING]);
        (pieces != 0).then(|| MoebiusChess::play_null(self))
    }

    fn unplay_null(&mut self, undo: MoebiusUndo) {
        MoebiusChess::unplay_null(self, undo);
    }
}
