//! Morris rules: conformance on random playouts under both rule sets.

mod common;

use common::{random_playouts, unmake_restores};
use ugine::core::{Game, Outcome, Side};
use ugine::games::morris::{Morris, MorrisOptions, MorrisRules};

#[test]
fn morris_seed_rules_conform() {
    random_playouts::<Morris>(&MorrisOptions::default(), 300, 2_000, 1);
    unmake_restores::<Morris>(&MorrisOptions::default(), 30, 2);
}

#[test]
fn morris_standard_rules_conform() {
    let opts = MorrisOptions { rules: MorrisRules::Standard, ..MorrisOptions::default() };
    random_playouts::<Morris>(&opts, 300, 2_000, 3);
    unmake_restores::<Morris>(&opts, 30, 4);
}

/// The rule that ended the game, as text, after `moves` from `fen`.
fn reason_after(fen: &str, moves: &str) -> (Outcome, String) {
    let mut pos = Morris::from_fen(fen, &MorrisOptions::default()).expect("test position");
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.play(mv);
    }
    let ending = pos.ending().expect("the game is over");
    assert_eq!(pos.outcome(), Some(ending.outcome));
    (ending.outcome, ending.reason.to_string())
}

#[test]
fn every_ending_names_its_rule() {
    // White closes a mill with its last man in hand and takes b4: Black keeps two men.
    let two = reason_after("WW1/3/3/1B2B1/3/B2/3 w 1 0 0", "g7xb4");
    assert_eq!(two, (Outcome::Win(Side::P1), "reduced to two men".to_string()));
    // Black's men on a7, g7 and a1 are walled in by White's.
    let blocked = reason_after("BWB/3/3/W4W/3/3/BW1 b 0 0 0", "");
    assert_eq!(blocked, (Outcome::Win(Side::P1), "blocked".to_string()));
    let shuffle = "a7-d7 g1-d1 d7-a7 d1-g1";
    let rep = reason_after("W2/W2/W2/6/2B/2B/2B w 0 0 0", &format!("{shuffle} {shuffle}"));
    assert_eq!(rep, (Outcome::Draw, "3-fold repetition".to_string()));
    let quiet = reason_after("W2/W2/W2/6/2B/2B/2B w 0 0 99", "a7-d7");
    assert_eq!(quiet, (Outcome::Draw, "100 plies without a capture".to_string()));
}

/// A step while the opponent still has men in hand (a position string may give one)
/// leaves the move-limit count at 0, so the position it reaches writes a string that
/// reads back (the count starts once both hands are empty).
#[test]
fn a_step_before_both_hands_are_empty_keeps_a_readable_position_string() {
    let opts = MorrisOptions::default();
    let mut pos = Morris::from_fen("3/3/3/6/3/3/WWW w 0 3 0", &opts).unwrap();
    pos.play(pos.parse_move("a1-a4").unwrap());
    let fen = pos.to_fen();
    assert_eq!(fen, "3/3/3/W5/3/3/1WW b 0 3 0");
    let back = Morris::from_fen(&fen, &opts).unwrap();
    assert_eq!(back.to_fen(), fen);
    // Once both hands are empty, steps count.
    let mut pos = Morris::from_fen("3/3/3/6/3/B1B/WWW b 0 1 0", &opts).unwrap();
    for mv in ["b4", "a1-a4", "b4-c4"] {
        pos.play(pos.parse_move(mv).unwrap());
    }
    assert_eq!(pos.to_fen(), "3/3/3/W1B3/3/B1B/1WW w 0 0 2");
}

/// The board's set operations, on random masks, against the adjacency of each point:
/// `neighbours` is the union of the points' neighbours, `steps` counts the adjacent
/// pairs with one point in each mask (the network's step features and the hand
/// evaluation's mobility read it).
#[test]
fn neighbours_and_steps_agree_with_the_adjacency_of_each_point() {
    let mut rng = ugine::core::Rng::new(5);
    let points = 0..24;
    for _ in 0..2000 {
        let (a, b) = (rng.next_u64() as u32 & 0xff_ffff, rng.next_u64() as u32 & 0xff_ffff);
        let union =
            points.clone().filter(|p| a >> p & 1 == 1).fold(0, |n, p| n | Morris::adjacent(p));
        assert_eq!(Morris::neighbours(a), union, "neighbours of {a:#08x}");
        let pairs: u32 = points
            .clone()
            .filter(|p| a >> p & 1 == 1)
            .map(|p| (Morris::adjacent(p) & b).count_ones())
            .sum();
        assert_eq!(Morris::steps(a, b), pairs, "steps of {a:#08x} to {b:#08x}");
    }
    // Each point alone: its neighbours, and one step to each of them.
    for p in points {
        let n = Morris::adjacent(p);
        assert!((2..=4).contains(&n.count_ones()));
        assert_eq!(Morris::neighbours(1 << p), n);
        assert_eq!(Morris::steps(1 << p, 0xff_ffff), n.count_ones());
        assert_eq!(Morris::steps(1 << p, !n & 0xff_ffff), 0);
    }
}
