//! An independent, deliberately simple Moebius Chess move generator (a 16×8 mailbox,
//! moves found by walking directions and legality by playing each move and scanning
//! every enemy piece for an attack on the king), written from
//! `shared/rules/moebius-chess.md` without the engine's code. The tests compare it with
//! the engine's fast bitboard generator move for move on many positions of random
//! playouts (under every rule option) and on the perft suite's positions.

use std::collections::BTreeSet;

use ugine::core::{Game, Rng};
use ugine::games::moebius_chess::{CheckRule, MoebiusChess, MoebiusOptions, MoveList, PawnPhasing};

const WHITE: u8 = 0;
const BLACK: u8 = 1;
const PAWN: u8 = 0;
const KNIGHT: u8 = 1;
const BISHOP: u8 = 2;
const ROOK: u8 = 3;
const QUEEN: u8 = 4;
const KING: u8 = 5;

/// (colour, kind) of the piece on a square.
type Piece = Option<(u8, u8)>;

/// A square as (x, y): x = 0..16 along the row (wrapping), y = 0..8 from the top.
type Sq = (i32, i32);

#[derive(Clone)]
struct Ref {
    board: [[Piece; 16]; 8],
    stm: u8,
    /// White king side, White queen side, Black king side, Black queen side.
    castle: [bool; 4],
    ep: Option<Sq>,
    opts: MoebiusOptions,
}

/// A move: from, to, promotion letter, and whether it is castling / en passant.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct RefMove {
    from: Sq,
    to: Sq,
    promo: Option<char>,
    castle: bool,
    ep: bool,
}

fn name(s: Sq) -> String {
    let (x, y) = s;
    if x < 8 {
        format!("{}{}", (b'a' + x as u8) as char, 8 - y)
    } else {
        format!("{}{}'", (b'a' + (x - 8) as u8) as char, y + 1)
    }
}

fn twin(s: Sq) -> Sq {
    ((s.0 + 8) % 16, 7 - s.1)
}

fn step(s: Sq, dx: i32, dy: i32) -> Option<Sq> {
    let y = s.1 + dy;
    (0..8).contains(&y).then(|| ((s.0 + dx).rem_euclid(16), y))
}

/// The rank name 1..=8 of a square (primed or not).
fn rank(s: Sq) -> i32 {
    if s.0 < 8 { 8 - s.1 } else { s.1 + 1 }
}

/// The picture's row step of a forward pawn move for `color` standing on `s`: ranks
/// grow up the picture on the left half and down it on the right half.
fn forward(color: u8, s: Sq) -> i32 {
    let toward_higher_rank = if s.0 < 8 { -1 } else { 1 };
    if color == WHITE { toward_higher_rank } else { -toward_higher_rank }
}

const KNIGHT_STEPS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Ref {
    fn from_fen(fen: &str, opts: MoebiusOptions) -> Ref {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut board = [[None; 16]; 8];
        for (y, row) in f[0].split('/').enumerate() {
            let mut x = 0;
            let mut num = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    num = num * 10 + d as usize;
                    continue;
                }
                x += num;
                num = 0;
                let kind = "pnbrqk".find(c.to_ascii_lowercase()).unwrap() as u8;
                let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                board[y][x] = Some((color, kind));
                x += 1;
            }
        }
        let castle = ['K', 'Q', 'k', 'q'].map(|c| f[2].contains(c));
        let ep = (f[3] != "-").then(|| {
            let b = f[3].as_bytes();
            let file = (b[0] - b'a') as i32;
            let r = (b[1] - b'0') as i32;
            if b.len() == 3 { (file + 8, r - 1) } else { (file, 8 - r) }
        });
        Ref { board, stm: if f[1] == "w" { WHITE } else { BLACK }, castle, ep, opts }
    }

    fn at(&self, s: Sq) -> Piece {
        self.board[s.1 as usize][s.0 as usize]
    }

    fn set(&mut self, s: Sq, p: Piece) {
        self.board[s.1 as usize][s.0 as usize] = p;
    }

    fn all_squares() -> impl Iterator<Item = Sq> {
        (0..8).flat_map(|y| (0..16).map(move |x| (x, y)))
    }

    fn king(&self, color: u8) -> Sq {
        Ref::all_squares().find(|&s| self.at(s) == Some((color, KING))).expect("a king")
    }

    /// The squares a slider on `from` reaches in direction (dx, dy), the first occupied
    /// square included; a row slide stops before coming back to `from`.
    fn slide(&self, from: Sq, dx: i32, dy: i32) -> Vec<Sq> {
        let mut out = Vec::new();
        let mut cur = from;
        while let Some(next) = step(cur, dx, dy) {
            if next == from {
                break;
            }
            out.push(next);
            if self.at(next).is_some() {
                break;
            }
            cur = next;
        }
        out
    }

    /// True when the piece on `from` attacks `target` (captures there if an enemy stood
    /// there).
    fn attacks(&self, from: Sq, target: Sq) -> bool {
        let Some((color, kind)) = self.at(from) else { return false };
        if twin(from) == target {
            return kind != PAWN || self.opts.pawn_phasing == PawnPhasing::Full;
        }
        let leap =
            |steps: &[(i32, i32)]| steps.iter().any(|&(dx, dy)| step(from, dx, dy) == Some(target));
        let slides = |dirs: &[(i32, i32)]| {
            dirs.iter().any(|&(dx, dy)| self.slide(from, dx, dy).contains(&target))
        };
        match kind {
            PAWN => {
                let dy = forward(color, from);
                step(from, 1, dy) == Some(target) || step(from, -1, dy) == Some(target)
            }
            KNIGHT => leap(&KNIGHT_STEPS),
            KING => leap(&KING_STEPS),
            BISHOP => slides(&BISHOP_DIRS),
            ROOK => slides(&ROOK_DIRS),
            _ => slides(&BISHOP_DIRS) || slides(&ROOK_DIRS),
        }
    }

    fn attacked(&self, target: Sq, by: u8) -> bool {
        Ref::all_squares()
            .any(|s| matches!(self.at(s), Some((c, _)) if c == by) && self.attacks(s, target))
    }

    fn in_check(&self) -> bool {
        self.attacked(self.king(self.stm), 1 - self.stm)
    }

    fn promotes(color: u8, to: Sq) -> bool {
        rank(to) == if color == WHITE { 8 } else { 1 }
    }

    /// Moves that obey piece movement, ignoring king safety and the check rules.
    fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.stm;
        let mut out = Vec::new();
        let mv = |from, to| RefMove { from, to, promo: None, castle: false, ep: false };
        for from in Ref::all_squares() {
            let Some((color, kind)) = self.at(from) else { continue };
            if color != us {
                continue;
            }
            let mut targets: Vec<Sq> = Vec::new();
            match kind {
                KNIGHT => {
                    targets.extend(KNIGHT_STEPS.iter().filter_map(|&(a, b)| step(from, a, b)))
                }
                KING => targets.extend(KING_STEPS.iter().filter_map(|&(a, b)| step(from, a, b))),
                BISHOP | ROOK | QUEEN => {
                    let mut dirs = Vec::new();
                    if kind != ROOK {
                        dirs.extend(BISHOP_DIRS);
                    }
                    if kind != BISHOP {
                        dirs.extend(ROOK_DIRS);
                    }
                    for (dx, dy) in dirs {
                        targets.extend(self.slide(from, dx, dy));
                    }
                }
                _ => {}
            }
            if kind != PAWN {
                targets.push(twin(from));
                let set: BTreeSet<Sq> = targets
                    .into_iter()
                    .filter(|&t| !matches!(self.at(t), Some((c, _)) if c == us))
                    .collect();
                out.extend(set.into_iter().map(|t| mv(from, t)));
                continue;
            }
            // Pawns.
            let dy = forward(us, from);
            let mut pawn_targets = Vec::new();
            if let Some(one) = step(from, 0, dy)
                && self.at(one).is_none()
            {
                pawn_targets.push(one);
                let start = from.0 < 8 && rank(from) == if us == WHITE { 2 } else { 7 };
                if start
                    && let Some(two) = step(one, 0, dy)
                    && self.at(two).is_none()
                {
                    out.push(mv(from, two));
                }
            }
            for dx in [-1, 1] {
                if let Some(t) = step(from, dx, dy) {
                    if matches!(self.at(t), Some((c, _)) if c != us) {
                        pawn_targets.push(t);
                    }
                    if self.ep == Some(t) {
                        out.push(RefMove { ep: true, ..mv(from, t) });
                    }
                }
            }
            for t in pawn_targets {
                if Ref::promotes(us, t) {
                    for p in ['q', 'r', 'b', 'n'] {
                        out.push(RefMove { promo: Some(p), ..mv(from, t) });
                    }
                } else {
                    out.push(mv(from, t));
                }
            }
            let tw = twin(from);
            let phase = match (self.opts.pawn_phasing, self.at(tw)) {
                (PawnPhasing::Never, _) => false,
                (_, None) => true,
                (PawnPhasing::Full, Some((c, _))) => c != us,
                _ => false,
            };
            if phase {
                out.push(mv(from, tw));
            }
        }
        // Castling, orthodox on the unprimed half.
        let y = if us == WHITE { 7 } else { 0 };
        let base = if us == WHITE { 0 } else { 2 };
        for (i, (king_to, rook_from, must_be_empty, passes)) in
            [(6, 7, vec![5, 6], 5), (2, 0, vec![1, 2, 3], 3)].into_iter().enumerate()
        {
            if !self.castle[base + i]
                || self.at((4, y)) != Some((us, KING))
                || self.at((rook_from, y)) != Some((us, ROOK))
            {
                continue;
            }
            if must_be_empty.iter().any(|&x| self.at((x, y)).is_some()) {
                continue;
            }
            if self.attacked((4, y), 1 - us) || self.attacked((passes, y), 1 - us) {
                continue;
            }
            out.push(RefMove { castle: true, ..mv((4, y), (king_to, y)) });
        }
        out
    }

    fn play(&self, m: RefMove) -> Ref {
        let mut n = self.clone();
        let piece = n.at(m.from).expect("a piece moves");
        n.set(m.from, None);
        if m.castle {
            let y = m.from.1;
            let (rf, rt) = if m.to.0 == 6 { (7, 5) } else { (0, 3) };
            let rook = n.at((rf, y));
            n.set((rf, y), None);
            n.set((rt, y), rook);
        }
        if m.ep {
            // The pawn that double-stepped stands next to the skipped square, toward the
            // middle of the board.
            let victim = if m.to.1 == 5 { (m.to.0, 4) } else { (m.to.0, 3) };
            n.set(victim, None);
        }
        let placed = match m.promo {
            Some(c) => Some((piece.0, "pnbrqk".find(c).unwrap() as u8)),
            None => Some(piece),
        };
        n.set(m.to, placed);
        n.ep = None;
        if piece.1 == PAWN && (m.to.1 - m.from.1).abs() == 2 {
            n.ep = Some((m.from.0, (m.from.1 + m.to.1) / 2));
        }
        for s in [m.from, m.to] {
            for (i, (x, y)) in [(7, 7), (0, 7), (7, 0), (0, 0)].into_iter().enumerate() {
                if s == (x, y) || s == (4, y) {
                    n.castle[i] = false;
                }
            }
        }
        n.stm = 1 - n.stm;
        n
    }

    /// Legal under ordinary rules: the mover's king is not attacked afterwards.
    fn ordinary_moves(&self) -> Vec<(RefMove, Ref)> {
        self.pseudo_moves()
            .into_iter()
            .map(|m| (m, self.play(m)))
            .filter(|(_, after)| !after.attacked(after.king(self.stm), after.stm))
            .collect()
    }

    fn legal_moves(&self) -> Vec<RefMove> {
        let enemy_twin = twin(self.king(1 - self.stm));
        let lands_on_twin = |m: &RefMove| {
            m.to == enemy_twin
                || (m.castle && (if m.to.0 == 6 { 5 } else { 3 }, m.to.1) == enemy_twin)
        };
        self.ordinary_moves()
            .into_iter()
            .filter(|(m, after)| match self.opts.check_rule {
                CheckRule::None => true,
                CheckRule::Nierse => !lands_on_twin(m),
                CheckRule::Dekker => {
                    !(lands_on_twin(m) && after.in_check() && after.ordinary_moves().is_empty())
                }
            })
            .map(|(m, _)| m)
            .collect()
    }

    fn move_texts(&self) -> BTreeSet<String> {
        self.legal_moves()
            .iter()
            .map(|m| {
                let mut s = format!("{}{}", name(m.from), name(m.to));
                if let Some(p) = m.promo {
                    s.push(p);
                }
                s
            })
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves().into_iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

fn fast_texts(pos: &MoebiusChess) -> BTreeSet<String> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.as_slice().iter().map(|m| m.to_string()).collect()
}

fn all_options() -> Vec<MoebiusOptions> {
    let mut v = Vec::new();
    for check_rule in [CheckRule::Dekker, CheckRule::Nierse, CheckRule::None] {
        for pawn_phasing in [PawnPhasing::Full, PawnPhasing::EmptyOnly, PawnPhasing::Never] {
            v.push(MoebiusOptions { check_rule, pawn_phasing });
        }
    }
    v
}

/// Positions that exercise the special rules (also in the perft suite).
const SPECIAL: &[&str] = &[
    // En passant over the h|a' boundary, both ways.
    "4k11/16/16/16/P15/16/15p/4K11 b - a3 0 1",
    "4k11/8P7/16/7p8/16/16/16/4K11 w - h6 0 1",
    // Promotions on 8' and 1'.
    "4k11/9p6/16/16/16/16/14P1/4K11 w - - 0 1",
    // Castling with phasing attacks and the wrapped row.
    "r3k2r8/16/16/16/16/16/16/R3K2R1r6 w KQkq - 0 1",
    "r3k2r5r2/16/16/16/16/16/16/R3K2R8 w KQkq - 0 1",
    // Pins along the wrap (row and diagonal).
    "4k11/16/16/16/13b2/16/15B/K1N10r1N w - - 0 1",
    // A mate and a stalemate found by random playouts.
    "4k11/4R6B4/p5N4pp3/9P6/6P1Pp5B/4P2N5p2/3P2bK2p5/14n1 b - - 1 69",
    "1n6K2n4/6k3b5/16/16/16/16/r15/16 w - - 66 228",
    // Phasing checks and captures in the middle game.
    "r1bqk2r8/pppp1ppp8/2n2n10/2b1p11/2B1P11/2N2N10/PPPP1PPP8/R1BQK2R8 w KQkq - 4 5",
];

fn compare_playouts(start: &str, opts: MoebiusOptions, games: usize, plies: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    for g in 0..games {
        let mut pos = MoebiusChess::from_fen(start, &opts).expect("start position");
        for ply in 0..plies {
            let fen = pos.to_fen();
            let fast = fast_texts(&pos);
            let slow = Ref::from_fen(&fen, opts).move_texts();
            assert_eq!(fast, slow, "game {g} ply {ply} {opts:?}: {fen}");
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(*rng.choose(&moves));
        }
    }
}

#[test]
fn reference_agrees_on_random_playouts() {
    for (i, opts) in all_options().into_iter().enumerate() {
        compare_playouts(ugine::games::moebius_chess::STARTPOS, opts, 3, 100, 10 + i as u64);
    }
}

#[test]
fn reference_agrees_from_special_positions() {
    for (i, fen) in SPECIAL.iter().enumerate() {
        for (j, opts) in all_options().into_iter().enumerate() {
            compare_playouts(fen, opts, 1, 50, 100 * i as u64 + j as u64);
        }
    }
}

#[test]
fn reference_perft_matches_spec_and_engine() {
    let dekker = MoebiusOptions::default();
    let start = Ref::from_fen(ugine::games::moebius_chess::STARTPOS, dekker);
    assert_eq!(start.perft(1), 51);
    assert_eq!(start.perft(2), 2596);
    let full = std::env::var("UGINE_PERFT_FULL").is_ok_and(|v| v == "1");
    let depth = if full { 3 } else { 2 };
    for opts in all_options() {
        for fen in SPECIAL {
            let fast = MoebiusChess::from_fen(fen, &opts).expect("fen");
            let slow = Ref::from_fen(&fast.to_fen(), opts);
            assert_eq!(slow.perft(depth), fast.perft(depth), "{fen} {opts:?}");
        }
    }
}
