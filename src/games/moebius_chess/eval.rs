//! Static evaluation for the cylinder, from the side to move's point of view, in
//! centipawns (a pawn is 100).
//!
//! Terms: material; piece-square terms that depend only on the row and the rank (the
//! cylinder has no side edges: only the top and bottom rows are edges, and columns are
//! all alike); mobility counted with phasing (every piece also reaches its twin); king
//! safety from the enemy's attacks on the king's neighbours and on its twin square
//! (a phasing check needs no line); pawns by their rank along the rank-name direction,
//! with doubled and supported pawns.

use super::board::{BISHOP, Board, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use super::geometry::{
    Bb, TABLES, Tables, bishop_attacks, bit, col, rook_attacks, row, squares, twin,
};

/// Evaluation weights, in one table.
mod weights {
    /// Material per piece type (pawn, knight, bishop, rook, queen, king).
    pub const VALUE: [i32; 6] = [100, 320, 350, 520, 1000, 0];
    /// Mobility per reachable square, per piece type.
    pub const MOBILITY: [i32; 6] = [0, 4, 4, 2, 1, 0];
    /// Bonus by distance from the nearest top/bottom edge (0 = on the edge row).
    pub const CENTRE: [[i32; 4]; 6] = [
        [0, 0, 0, 0],
        [-25, -5, 5, 12],
        [-10, 0, 5, 8],
        [0, 0, 0, 0],
        [-5, 0, 3, 5],
        [10, -5, -15, -25],
    ];
    /// Pawn bonus by rank 1..=8 of its colour (index = rank − 1).
    pub const PAWN_RANK: [i32; 8] = [0, 0, 5, 12, 25, 45, 80, 0];
    pub const DOUBLED_PAWN: i32 = 15;
    pub const SUPPORTED_PAWN: i32 = 8;
    /// Penalty per enemy attack on the king's neighbourhood.
    pub const KING_ZONE_ATTACK: i32 = 8;
    /// Penalty per enemy piece that can land on the king's twin (a phasing check).
    pub const TWIN_THREAT: i32 = 25;
    pub const TEMPO: i32 = 10;
}

/// The value of a piece type, for move ordering and exchange estimates.
pub fn piece_value(typ: usize) -> i32 {
    weights::VALUE[typ]
}

/// The rank 1..=8 of `sq` as seen by `color` (ranks count from its own side).
#[inline(always)]
fn relative_rank(sq: usize, color: usize) -> usize {
    let rank = if col(sq) < 8 { 8 - row(sq) } else { row(sq) + 1 };
    if color == WHITE { rank } else { 9 - rank }
}

/// The terms of one side.
fn side_terms(b: &Board, t: &Tables, us: usize) -> i32 {
    use weights::*;
    let them = us ^ 1;
    let occ = b.occupied();
    let own = b.colors[us];
    let enemy_king = b.king_sq(them);
    let zone = t.king[enemy_king];
    let enemy_twin = twin(enemy_king);
    let mut score = 0;
    let mut zone_attacks = 0;
    let mut twin_threats = 0;
    for typ in KNIGHT..=KING {
        for sq in squares(b.of(us, typ)) {
            score += VALUE[typ] + CENTRE[typ][row(sq).min(7 - row(sq))];
            let att: Bb = match typ {
                KNIGHT => t.knight[sq],
                BISHOP => bishop_attacks(t, sq, occ),
                ROOK => rook_attacks(t, sq, occ),
                QUEEN => bishop_attacks(t, sq, occ) | rook_attacks(t, sq, occ),
                _ => t.king[sq],
            } | bit(twin(sq));
            score += MOBILITY[typ] * (att & !own).count_ones() as i32;
            if typ != KING {
                zone_attacks += (att & zone).count_ones() as i32;
                twin_threats += (att & bit(enemy_twin) != 0) as i32;
            }
        }
    }
    let pawns = b.of(us, PAWN);
    let mut columns = [0u8; 16];
    for sq in squares(pawns) {
        score += VALUE[PAWN] + PAWN_RANK[relative_rank(sq, us) - 1];
        columns[col(sq)] += 1;
        if t.pawn_from[us][sq] & pawns != 0 {
            score += SUPPORTED_PAWN;
        }
        zone_attacks += (t.pawn_attacks[us][sq] & zone).count_ones() as i32;
    }
    score -= DOUBLED_PAWN * columns.iter().map(|&n| n.saturating_sub(1) as i32).sum::<i32>();
    // Attacks on the enemy king count for us.
    score += KING_ZONE_ATTACK * zone_attacks + TWIN_THREAT * twin_threats;
    score
}

/// Static evaluation from the side to move's point of view.
pub fn evaluate(b: &Board) -> i32 {
    let t = &**TABLES;
    let us = b.stm;
    side_terms(b, t, us) - side_terms(b, t, us ^ 1) + weights::TEMPO
}
