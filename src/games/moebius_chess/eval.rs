//! Static evaluation for the cylinder, from the side to move's point of view, in
//! centipawns (a pawn is 100): a sum of weighted features ([`LinearEval`]), the weights in
//! one generated table (`weights.rs`, written by `ugine tune --game moebius-chess`).
//!
//! Features per side (own minus opponent's): material; piece-square terms that depend
//! only on the distance from the top or bottom row (the cylinder has no side edges, and
//! the twin map `e4 ↔ e4'`, a symmetry of the rules, keeps that distance); mobility
//! counted with phasing (every piece also reaches its twin); attacks on the enemy king's
//! neighbours (across the wrap) and pieces that reach the enemy king's twin (a phasing
//! check needs no line); pawns by their rank along the rank-name direction, doubled
//! (per column) and supported pawns; a tempo for the side to move.

use super::board::{BISHOP, Board, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use super::geometry::{
    Bb, TABLES, Tables, bishop_attacks, bit, col, rook_attacks, row, squares, twin,
};
use super::position::MoebiusChess;
use super::weights::WEIGHTS;
use crate::core::{LinearEval, Terms};

/// Feature indices.
mod f {
    /// Material, pawn to queen (5).
    pub const VALUE: usize = 0;
    /// Per square reached, knight to king (5).
    pub const MOBILITY: usize = 5;
    /// Knight to king by row distance 0..=3 from the top or bottom row: 5 × 4.
    pub const EDGE_ROW: usize = 10;
    /// Pawns by relative rank 2..=7 (6).
    pub const PAWN_RANK: usize = 30;
    pub const DOUBLED: usize = 36;
    pub const SUPPORTED: usize = 37;
    /// Attacks (by pawns and pieces) on the enemy king's neighbours.
    pub const ZONE_ATTACK: usize = 38;
    /// Pieces that can land on the enemy king's twin (a phasing check).
    pub const TWIN_THREAT: usize = 39;
    pub const TEMPO: usize = 40;
    /// Number of features.
    pub const COUNT: usize = 41;
}

/// Feature names, in index order.
const NAMES: [&str; f::COUNT] = [
    "pawn value",
    "knight value",
    "bishop value",
    "rook value",
    "queen value",
    "knight mobility",
    "bishop mobility",
    "rook mobility",
    "queen mobility",
    "king mobility",
    "knight row 0 from edge",
    "knight row 1 from edge",
    "knight row 2 from edge",
    "knight row 3 from edge",
    "bishop row 0 from edge",
    "bishop row 1 from edge",
    "bishop row 2 from edge",
    "bishop row 3 from edge",
    "rook row 0 from edge",
    "rook row 1 from edge",
    "rook row 2 from edge",
    "rook row 3 from edge",
    "queen row 0 from edge",
    "queen row 1 from edge",
    "queen row 2 from edge",
    "queen row 3 from edge",
    "king row 0 from edge",
    "king row 1 from edge",
    "king row 2 from edge",
    "king row 3 from edge",
    "pawn rank 2",
    "pawn rank 3",
    "pawn rank 4",
    "pawn rank 5",
    "pawn rank 6",
    "pawn rank 7",
    "doubled pawn",
    "supported pawn",
    "king zone attack",
    "king twin threat",
    "tempo",
];

/// Values of the piece types (pawn … king) for move ordering (MVV-LVA) and the
/// quietness test of the tuner; the evaluation's material is in the weight table.
const ORDER_VALUE: [i32; 6] = [100, 320, 350, 520, 1000, 0];

/// The value of a piece type for move ordering and exchange estimates.
pub fn piece_value(typ: usize) -> i32 {
    ORDER_VALUE[typ]
}

/// The rank 1..=8 of `sq` as seen by `color` (ranks count from its own side).
#[inline(always)]
fn relative_rank(sq: usize, color: usize) -> usize {
    let rank = if col(sq) < 8 { 8 - row(sq) } else { row(sq) + 1 };
    if color == WHITE { rank } else { 9 - rank }
}

/// Reports the features of side `us` with sign `sign` (+1 own, −1 opponent's).
fn side_terms<T: Terms>(b: &Board, t: &Tables, us: usize, sign: i32, out: &mut T) {
    let them = us ^ 1;
    let occ = b.occupied();
    let own = b.colors[us];
    let enemy_king = b.king_sq(them);
    let zone = t.king[enemy_king];
    let enemy_twin = bit(twin(enemy_king));
    let mut add = |feature: usize, count: i32| out.add(feature, sign * count);
    let mut zone_attacks = 0;
    let mut twin_threats = 0;
    for typ in PAWN..=QUEEN {
        add(f::VALUE + typ, b.of(us, typ).count_ones() as i32);
    }
    for typ in KNIGHT..=KING {
        let mut mobility = 0;
        for sq in squares(b.of(us, typ)) {
            add(f::EDGE_ROW + 4 * (typ - KNIGHT) + row(sq).min(7 - row(sq)), 1);
            let att: Bb = match typ {
                KNIGHT => t.knight[sq],
                BISHOP => bishop_attacks(t, sq, occ),
                ROOK => rook_attacks(t, sq, occ),
                QUEEN => bishop_attacks(t, sq, occ) | rook_attacks(t, sq, occ),
                _ => t.king[sq],
            } | bit(twin(sq));
            mobility += (att & !own).count_ones() as i32;
            if typ != KING {
                zone_attacks += (att & zone).count_ones() as i32;
                twin_threats += (att & enemy_twin != 0) as i32;
            }
        }
        add(f::MOBILITY + typ - KNIGHT, mobility);
    }
    let pawns = b.of(us, PAWN);
    let mut columns = [0i32; 16];
    let mut supported = 0;
    for sq in squares(pawns) {
        // Ranks 1 and 8 (never reached by a pawn of this colour in play) count nothing.
        let rank = relative_rank(sq, us);
        if (2..=7).contains(&rank) {
            add(f::PAWN_RANK + rank - 2, 1);
        }
        columns[col(sq)] += 1;
        supported += (t.pawn_from[us][sq] & pawns != 0) as i32;
        zone_attacks += (t.pawn_attacks[us][sq] & zone).count_ones() as i32;
    }
    add(f::DOUBLED, columns.iter().map(|&n| (n - 1).max(0)).sum());
    add(f::SUPPORTED, supported);
    add(f::ZONE_ATTACK, zone_attacks);
    add(f::TWIN_THREAT, twin_threats);
}

impl LinearEval for MoebiusChess {
    const FEATURES: &'static [&'static str] = &NAMES;
    /// The pawn fixes the scale at 100.
    const FIXED: &'static [usize] = &[f::VALUE + PAWN];
    const WEIGHTS_FILE: &'static str = "src/games/moebius_chess/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn terms<T: Terms>(&self, t: &mut T) {
        let b = self.board();
        let tables = &**TABLES;
        side_terms(b, tables, b.stm, 1, t);
        side_terms(b, tables, b.stm ^ 1, -1, t);
        t.add(f::TEMPO, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{code, code_color, code_type};
    use super::super::fen;
    use super::super::geometry::square;
    use super::*;
    use crate::core::{Game, Trace};
    use crate::games::moebius_chess::{BENCH_POSITIONS, MoebiusOptions};
    use crate::search::Evaluate;

    /// Positions with every kind of feature: the bench positions, pawns on both halves, a
    /// rook that reaches the enemy king's twin, castled kings.
    const POSITIONS: [&str; 3] = [
        "4k11/15P/16/16/16/16/P15/4K11 w - - 0 1",
        "4k11/16/16/16/16/16/16/R3K11 w - - 0 1",
        "r3k2r8/pp3ppp8/2n1b11/2bpP11/3N12/2N13/PPP2PPP4Q3/R3K2R8 b KQkq - 3 12",
    ];

    fn pos(fen: &str) -> MoebiusChess {
        MoebiusChess::from_fen(fen, &MoebiusOptions::default()).unwrap()
    }

    fn all_positions() -> impl Iterator<Item = &'static str> {
        BENCH_POSITIONS.iter().skip(1).chain(POSITIONS.iter()).copied().chain(["startpos"])
    }

    fn fen_of(s: &str) -> String {
        if s == "startpos" { super::super::STARTPOS.to_string() } else { s.to_string() }
    }

    /// The feature's count for the side to move (own minus opponent's).
    fn count(p: &MoebiusChess, feature: usize) -> i32 {
        Trace::of(p).count(feature)
    }

    /// The position with every piece moved by `map`, colours swapped if `swap` (the side
    /// to move too); no castling rights or en-passant square.
    fn transformed(s: &str, map: impl Fn(usize) -> usize, swap: bool) -> MoebiusChess {
        let b = fen::parse(&fen_of(s), MoebiusOptions::default()).unwrap();
        let mut out = Board::empty(b.opts);
        for sq in squares(b.occupied()) {
            let c = b.mailbox[sq];
            let color = code_color(c) ^ swap as usize;
            out.put(map(sq), code(color, code_type(c)));
        }
        out.stm = b.stm ^ swap as usize;
        pos(&fen::write(&out))
    }

    #[test]
    fn the_weight_table_names_every_feature() {
        assert_eq!(WEIGHTS.len(), NAMES.len());
        assert_eq!(NAMES[f::EDGE_ROW + 4 * (KING - KNIGHT) + 3], "king row 3 from edge");
        assert_eq!(NAMES[f::TEMPO], "tempo");
    }

    #[test]
    fn evaluation_is_the_weighted_trace() {
        for s in all_positions() {
            let p = pos(&fen_of(s));
            assert_eq!(p.evaluate(), Trace::of(&p).weighted(&WEIGHTS), "{s}");
        }
    }

    #[test]
    fn colour_flip_twins_and_mirrored_files_keep_the_evaluation() {
        let flip = |sq: usize| square(col(sq), 7 - row(sq));
        let mirror = |sq: usize| square(23 - col(sq) - 16 * (col(sq) < 8) as usize, row(sq));
        for s in all_positions() {
            // Castling rights dropped: the evaluation does not read them.
            let base = transformed(s, |sq| sq, false).evaluate();
            assert_eq!(transformed(s, flip, true).evaluate(), base, "colour flip of {s}");
            assert_eq!(transformed(s, twin, false).evaluate(), base, "twins of {s}");
            assert_eq!(transformed(s, mirror, false).evaluate(), base, "mirror of {s}");
        }
    }

    #[test]
    fn pawn_terms() {
        // White a2 alone: rank 2, not supported.
        let p = pos("4k11/16/16/16/16/16/P15/4K11 w - - 0 1");
        assert_eq!(count(&p, f::PAWN_RANK), 1);
        assert_eq!(count(&p, f::SUPPORTED), 0);
        // b3 is supported by a2; a3 is not (h2', across the wrap, runs down the right
        // half and guards row 7 only); a2 and a3 are doubled.
        let p = pos("4k11/15P/16/16/16/PP14/P15/4K11 w - - 0 1");
        assert_eq!(count(&p, f::DOUBLED), 1);
        assert_eq!(count(&p, f::SUPPORTED), 1);
        assert_eq!(count(&p, f::PAWN_RANK + 1), 2);
    }

    #[test]
    fn a_rook_reaching_the_kings_twin_is_a_phasing_threat() {
        // The rook a1 slides across the wrap to e8', the twin of the black king on e8.
        let p = pos(POSITIONS[1]);
        assert_eq!(count(&p, f::TWIN_THREAT), 1);
        // It attacks none of the king's neighbours: the twin is a feature of its own.
        assert_eq!(count(&p, f::ZONE_ATTACK), 0);
        assert_eq!(count(&p, f::TEMPO), 1);
    }

    #[test]
    fn quiet_positions_for_the_tuner() {
        assert!(pos(super::super::STARTPOS).is_quiet());
        // The pawn e4 takes the queen d5.
        assert!(!pos("4k11/16/16/3q12/4P11/16/16/4K11 w - - 0 1").is_quiet());
        // An undefended knight on h8': the rook a1 takes it across the wrap.
        assert!(!pos("4k11/16/16/16/16/16/16/R3K10n w - - 0 1").is_quiet());
        // In check.
        assert!(!pos("4k11/16/16/16/16/16/16/4K3r7 w - - 0 1").is_quiet());
    }
}
