//! A Moebius Chess game position: the [`Board`] plus the history needed by the
//! repetition rule, and the [`Game`] / [`Reversible`] implementations.

use super::board::{Board, BoardUndo};
use super::fen;
use super::geometry::{NO_SQ, square_name, twin};
use super::movegen::{MoveCounter, MoveList};
use super::moves::{ChessMove, parse_syntax};
use super::options::{CheckRule, MoebiusOptions};
use crate::core::{EndReason, Ending, Game, MoveError, Outcome, PositionError, Reversible, Side};

/// The start position string.
pub const STARTPOS: &str = "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1";

/// A Moebius Chess position with its game history. Player 1 is White.
#[derive(Clone, Debug)]
pub struct MoebiusChess {
    board: Board,
    /// Hashes of the earlier positions of the game, oldest first.
    history: Vec<u64>,
    /// Index in `history` of the first position that can still recur (after the last
    /// capture, pawn advance or loss of castling rights).
    rep_from: usize,
}

/// What [`MoebiusChess::unplay`](Reversible::unplay) needs: the board's saved state
/// (its mailbox is restored from the move) and the repetition window.
#[derive(Clone, Copy, Debug)]
pub struct MoebiusUndo {
    board: BoardUndo,
    rep_from: usize,
}

impl MoebiusChess {
    fn from_board(mut board: Board) -> MoebiusChess {
        if board.st.ep != NO_SQ && !board.has_legal_ep() {
            board.clear_ep();
        }
        MoebiusChess { board, history: Vec::new(), rep_from: 0 }
    }

    /// The board (placement, side, rights, clocks).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule options of this position.
    pub fn options(&self) -> MoebiusOptions {
        self.board.opts
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.board.in_check()
    }

    /// Appends the legal moves, ignoring the draw rules (stalemate and mate still give
    /// none): the moves of the rules of play proper.
    pub fn legal_moves(&self, list: &mut MoveList) {
        self.board.generate(list, self.board.opts.check_rule);
    }

    /// True when a draw rule (repetition, 100 plies, insufficient material) ends the game,
    /// mate and stalemate aside.
    pub fn drawn_by_rule(&self) -> bool {
        self.board.st.halfmove >= 100 || self.board.insufficient_material() || self.threefold()
    }

    /// True when the current position occurred twice before with the same side to move,
    /// castling rights and legal en-passant captures.
    pub fn threefold(&self) -> bool {
        let span = &self.history[self.rep_from..];
        if span.len() < 8 {
            return false;
        }
        let h = self.board.st.hash;
        span.iter().rev().skip(3).step_by(2).filter(|&&x| x == h).count() >= 2
    }

    /// True when this position occurred before (for the search's repetition draw).
    pub fn repeated(&self) -> bool {
        let h = self.board.st.hash;
        self.history[self.rep_from..].iter().rev().skip(3).step_by(2).any(|&x| x == h)
    }

    /// Legal moves into a move list, empty when the game is over.
    pub fn moves(&self, list: &mut MoveList) {
        if !self.drawn_by_rule() {
            self.legal_moves(list);
        }
    }

    /// Passes the turn for the search's null move; undone by [`MoebiusChess::unplay_null`].
    /// No earlier position counts as a repetition across it.
    pub fn play_null(&mut self) -> MoebiusUndo {
        let rep_from = self.rep_from;
        self.history.push(self.board.st.hash);
        let board = self.board.make_null();
        self.rep_from = self.history.len();
        MoebiusUndo { board, rep_from }
    }

    /// Takes back [`MoebiusChess::play_null`].
    pub fn unplay_null(&mut self, undo: MoebiusUndo) {
        self.board.unmake_null(&undo.board);
        self.rep_from = undo.rep_from;
        self.history.pop();
    }

    /// True when `from`→`to` is legal under ordinary rules (no check rule).
    fn ordinary_move_exists(&self, from: usize, to: usize, promo: Option<usize>) -> bool {
        let mut list = MoveList::new();
        self.board.generate(&mut list, CheckRule::None);
        list.as_slice().iter().any(|m| m.from() == from && m.to() == to && m.promotion() == promo)
    }

    fn perft_inner(&mut self, depth: u32) -> u64 {
        if depth == 1 {
            if self.drawn_by_rule() {
                return 0;
            }
            let mut counter = MoveCounter::new();
            self.board.generate(&mut counter, self.board.opts.check_rule);
            return counter.count;
        }
        let mut list = MoveList::new();
        self.moves(&mut list);
        let mut n = 0;
        for &mv in list.as_slice() {
            let undo = self.play_reversible(mv);
            n += self.perft_inner(depth - 1);
            self.unplay(mv, undo);
        }
        n
    }
}

impl PartialEq for MoebiusChess {
    /// Positions are equal when their boards are (history aside).
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
    }
}

impl Game for MoebiusChess {
    type Move = ChessMove;
    type Options = MoebiusOptions;
    const NAME: &'static str = "moebius-chess";

    fn startpos(opts: &MoebiusOptions) -> MoebiusChess {
        MoebiusChess::from_board(fen::parse(STARTPOS, *opts).expect("the start position reads"))
    }

    fn from_fen(s: &str, opts: &MoebiusOptions) -> Result<MoebiusChess, PositionError> {
        Ok(MoebiusChess::from_board(fen::parse(s, *opts)?))
    }

    fn to_fen(&self) -> String {
        fen::write(&self.board)
    }

    fn side_to_move(&self) -> Side {
        if self.board.stm == 0 { Side::P1 } else { Side::P2 }
    }

    fn generate_moves(&self, out: &mut Vec<ChessMove>) {
        let mut list = MoveList::new();
        self.moves(&mut list);
        out.extend_from_slice(list.as_slice());
    }

    fn parse_move(&self, s: &str) -> Result<ChessMove, MoveError> {
        let (from, to, promo) = parse_syntax(s)?;
        let mut list = MoveList::new();
        self.moves(&mut list);
        if list.is_empty() {
            return Err(MoveError::Illegal(format!("'{s}': the game is over")));
        }
        let same_squares = |m: &&ChessMove| m.from() == from && m.to() == to;
        if let Some(&mv) =
            list.as_slice().iter().filter(same_squares).find(|m| m.promotion() == promo)
        {
            return Ok(mv);
        }
        let why = if list.as_slice().iter().any(|m| same_squares(&m)) {
            if promo.is_none() {
                "a promotion needs its piece (…q, …r, …b, …n)".to_string()
            } else {
                "this move is not a promotion".to_string()
            }
        } else if self.board.mailbox[from] == 0 {
            "no piece on the from-square".to_string()
        } else if self.ordinary_move_exists(from, to, promo) {
            match self.board.opts.check_rule {
                CheckRule::Dekker => "Dekker's rule: it would mate with the moved piece on the \
                                      twin of the enemy king"
                    .to_string(),
                _ => "Nierse's rule: no piece may move to the twin of the enemy king".to_string(),
            }
        } else {
            "no such legal move here".to_string()
        };
        Err(MoveError::Illegal(format!("'{s}': {why}")))
    }

    fn play(&mut self, mv: ChessMove) {
        self.play_reversible(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if list.is_empty() {
            return Some(if self.board.in_check() {
                Outcome::Win(self.side_to_move().opponent())
            } else {
                Outcome::Draw
            });
        }
        self.drawn_by_rule().then_some(Outcome::Draw)
    }

    /// In the order of [`Game::outcome`]: no legal move first (mate wins over a draw
    /// rule), then the draw rules.
    fn ending(&self) -> Option<Ending> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let draw = |reason| Some(Ending { outcome: Outcome::Draw, reason });
        if list.is_empty() {
            return if self.board.in_check() {
                let winner = self.side_to_move().opponent();
                Some(Ending { outcome: Outcome::Win(winner), reason: EndReason::Checkmate })
            } else {
                draw(EndReason::Stalemate)
            };
        }
        if self.threefold() {
            draw(EndReason::Repetition(3))
        } else if self.board.insufficient_material() {
            draw(EndReason::InsufficientMaterial)
        } else if self.board.st.halfmove >= 100 {
            draw(EndReason::FiftyMoves)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.board.st.hash
    }

    fn render(&self) -> String {
        fen::render(&self.board)
    }

    fn checked_kings(&self) -> Vec<String> {
        if !self.in_check() {
            return Vec::new();
        }
        vec![square_name(self.board.king_sq(self.board.stm))]
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.clone().perft_inner(depth)
    }
}

impl Reversible for MoebiusChess {
    type Undo = MoebiusUndo;

    #[inline]
    fn play_reversible(&mut self, mv: ChessMove) -> MoebiusUndo {
        let rep_from = self.rep_from;
        let b = &mut self.board;
        let castling = b.st.castling;
        self.history.push(b.st.hash);
        let board = b.make(mv);
        if b.st.ep != NO_SQ && !b.has_legal_ep() {
            b.clear_ep();
        }
        // Captures lower the material and pawn advances raise a pawn's rank for good
        // (a phase keeps it), lost castling rights never return (castling loses them):
        // earlier positions can no longer recur. The halfmove clock is 0 after exactly
        // the captures and pawn moves; of those, only a pawn's phase to its twin without
        // a capture can be undone. (`|` rather than `||`: one branch.)
        let capture_or_pawn = b.st.halfmove == 0;
        let advance = (board.captured() != 0) | (mv.to() != twin(mv.from()));
        if (capture_or_pawn & advance) | (castling != b.st.castling) {
            self.rep_from = self.history.len();
        }
        debug_assert_eq!(b.st.hash, b.compute_hash());
        MoebiusUndo { board, rep_from }
    }

    #[inline]
    fn unplay(&mut self, mv: ChessMove, undo: MoebiusUndo) {
        self.board.unmake(mv, &undo.board);
        debug_assert_eq!(self.board.st.hash, self.board.compute_hash());
        self.rep_from = undo.rep_from;
        self.history.pop();
    }
}
