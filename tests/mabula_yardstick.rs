//! The Mabula yardstick of `scripts/judge.sh` (`tests/data/mabula-yardstick.txt`): its
//! lines are well formed, and the solver agrees with a few of its stored values, checked
//! one push deeper (12 border marbles, fast enough for a debug build): a stored move
//! leaves the opponent the opposite value, a move not stored does not.

use ugine::core::Game;
use ugine::games::mabula::solve::{Solver, Value};
use ugine::games::mabula::{Mabula, MabulaOptions};

const YARDSTICK: &str = include_str!("data/mabula-yardstick.txt");

/// One yardstick line: the position, its value and the moves that keep it.
struct Entry {
    pos: Mabula,
    value: Value,
    keep: Vec<String>,
}

fn entries() -> Vec<Entry> {
    let opts = MabulaOptions::default();
    YARDSTICK
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split(" | ").collect();
            assert_eq!(f.len(), 4, "{line}");
            let pos = Mabula::from_fen(f[0], &opts).expect(line);
            assert_eq!(f[1].parse::<u32>().ok(), Some(pos.border_marbles()), "{line}");
            let value = Value::parse(f[2]).expect(line);
            let keep = f[3].split_whitespace().map(String::from).collect();
            Entry { pos, value, keep }
        })
        .collect()
}

#[test]
fn the_yardstick_has_non_trivial_positions_from_13_to_16_border_marbles() {
    let entries = entries();
    assert!(entries.len() >= 29, "{} positions", entries.len());
    for border in 13..=16 {
        assert!(entries.iter().any(|e| e.pos.border_marbles() == border), "none at {border}");
    }
    for e in &entries {
        assert!((13..=16).contains(&e.pos.border_marbles()));
        let legal = legal_moves(&e.pos);
        assert!(!e.keep.is_empty() && e.keep.len() < legal.len(), "{}", e.pos.to_fen());
        assert!(e.keep.iter().all(|m| legal.contains(m)), "{}", e.pos.to_fen());
    }
}

fn legal_moves(pos: &Mabula) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.iter().map(|m| m.to_string()).collect()
}

/// The exact value of `mv` for the side to move of `pos`.
fn move_value(solver: &mut Solver, pos: &Mabula, mv: &str) -> Value {
    let mut child = *pos;
    child.play(pos.parse_move(mv).expect(mv));
    solver.value(&child).flip()
}

#[test]
fn the_solver_agrees_with_stored_values_one_push_deeper() {
    let entries = entries();
    let mut solver = Solver::new(64);
    for e in entries.iter().filter(|e| e.pos.border_marbles() == 13).take(2) {
        let kept = &e.keep[0];
        assert_eq!(move_value(&mut solver, &e.pos, kept), e.value, "{} {kept}", e.pos.to_fen());
        let legal = legal_moves(&e.pos);
        let lost = legal.iter().find(|m| !e.keep.contains(m)).expect("a move that loses it");
        assert!(move_value(&mut solver, &e.pos, lost) < e.value, "{} {lost}", e.pos.to_fen());
    }
}
