//! Generic perft: the number of leaf nodes of the legal game tree to a fixed depth.

use super::game::{Game, Reversible};

/// `perft(0) = 1`; otherwise the sum over legal moves of the perft of the child.
/// Over positions have no legal moves, so they count 0 at every depth ≥ 1.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            child.perft(depth - 1)
        })
        .sum()
}

/// Perft split by first move: one `(move, count)` pair per legal move, in generation order.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            let n = if depth <= 1 { 1 } else { child.perft(depth - 1) };
            (mv, n)
        })
        .collect()
}

/// The same count with make/unmake and bulk counting at the last ply
/// ([`Game::count_moves`]), reusing one move list per ply: the fast path for games that implement [`Reversible`].
pub fn perft_reversible<G: Reversible>(pos: &G, depth: u32) -> u64 {
    fn go<G: Reversible>(pos: &mut G, depth: u32, lists: &mut Vec<Vec<G::Move>>) -> u64 {
        if depth == 1 {
            return pos.count_moves();
        }
        let mut list = lists.pop().unwrap_or_default();
        list.clear();
        pos.generate_moves(&mut list);
        let mut n = 0;
        for &mv in &list {
            let undo = pos.play_reversible(mv);
            n += go(pos, depth - 1, lists);
            pos.unplay(mv, undo);
        }
        lists.push(list);
        n
    }
    if depth == 0 {
        return 1;
    }
    go(&mut pos.clone(), depth, &mut Vec::new())
}
