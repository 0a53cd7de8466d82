#![allow(dead_code)] // each test binary uses only some of these helpers
//! Conformance checks every game gets: seeded random playouts checked against the
//! invariants of the `Game` trait (OpenSpiel's RandomSimTest in spirit). Each game's test
//! file calls them (`mod common;`).

use std::collections::HashSet;

use ugine::core::{Game, Reversible, Rng};

/// Plays `games` random games from the start position and checks at every ply:
/// no legal move exactly when over, the ending agrees with the outcome, move text round-trips, position string round-trips,
/// incremental hash equals the hash of the re-read position, moves are unique, and every
/// game ends within `max_plies`.
pub fn random_playouts<G: Game>(opts: &G::Options, games: usize, max_plies: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for g in 0..games {
        let mut pos = G::startpos(opts);
        let mut plies = 0;
        loop {
            moves.clear();
            pos.generate_moves(&mut moves);
            let over = pos.outcome();
            assert_eq!(moves.is_empty(), over.is_some(), "game {g} ply {plies}: {pos:?}");
            let ending = pos.ending();
            assert_eq!(ending.map(|e| e.outcome), over, "ending and outcome agree: {pos:?}");
            let fen = pos.to_fen();
            let reread = G::from_fen(&fen, opts).expect("own position string reads back");
            assert_eq!(reread.to_fen(), fen, "position string round-trips");
            assert_eq!(reread.hash(), pos.hash(), "hash of re-read position: {fen}");
            assert_eq!(reread.side_to_move(), pos.side_to_move());
            let unique: HashSet<_> = moves.iter().collect();
            assert_eq!(unique.len(), moves.len(), "duplicate moves in {fen}");
            for &mv in &moves {
                let text = mv.to_string();
                assert!(!text.is_empty() && !text.contains(char::is_whitespace));
                assert_eq!(pos.parse_move(&text), Ok(mv), "move {text} round-trips in {fen}");
            }
            if over.is_some() {
                break;
            }
            let mv = *rng.choose(&moves);
            pos.play(mv);
            plies += 1;
            assert!(plies <= max_plies, "game {g} did not end in {max_plies} plies");
        }
    }
}

/// Random playouts with make/unmake: after `unplay`, the position string and hash are
/// those before the move.
pub fn unmake_restores<G: Reversible>(opts: &G::Options, games: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = G::startpos(opts);
        while pos.outcome().is_none() {
            moves.clear();
            pos.generate_moves(&mut moves);
            let (fen, hash) = (pos.to_fen(), pos.hash());
            for &mv in &moves {
                let undo = pos.play_reversible(mv);
                pos.unplay(mv, undo);
                assert_eq!((pos.to_fen(), pos.hash()), (fen.clone(), hash), "unplay {mv}");
                // The same moves in the same order: the search's move ordering depends
                // on it.
                let mut again = Vec::new();
                pos.generate_moves(&mut again);
                assert!(again == moves, "unplay {mv} changed the move list");
            }
            pos.play(*rng.choose(&moves));
        }
    }
}

pub mod protocol;
