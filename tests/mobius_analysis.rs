//! Mobius analysis through the protocol, on the real binary: MultiPV lines (the most
//! visited root moves), searchmoves, two threads, and the notes on solved positions.

mod common;

use common::protocol::Engine;
use ugine::search::Score;
use ugine::ugi::{EngineLine, Info, parse_engine_line};

fn engine() -> Engine {
    let mut e = Engine::start(&["--game", "mobius"]);
    e.ask("isready", "readyok");
    e
}

/// Runs `go` and returns every line, the `info` lines with a score, and the `bestmove`.
fn go(e: &mut Engine, go: &str) -> (Vec<String>, Vec<Info>, String) {
    e.send(go);
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    let mut infos = Vec::new();
    let mut best = String::new();
    for line in &lines {
        match parse_engine_line(line) {
            EngineLine::Info(i) if i.score.is_some() => infos.push(i),
            EngineLine::BestMove { mv, .. } => best = mv,
            _ => {}
        }
    }
    (lines, infos, best)
}

#[test]
fn multipv_reports_the_most_visited_moves_best_first() {
    let mut e = engine();
    e.send("position startpos moves f7 a1");
    let (_, single, best1) = go(&mut e, "go nodes 3000");
    // A fresh tree (the kept one would go on growing).
    e.send("uginewgame");
    e.send("position startpos moves f7 a1");
    e.send("setoption name MultiPV value 3");
    let (_, infos, best) = go(&mut e, "go nodes 3000");
    // The final report: three lines after the same number of playouts.
    let last = &infos[infos.len() - 3..];
    let ranks: Vec<Option<u32>> = last.iter().map(|i| i.multipv).collect();
    assert_eq!(ranks, [Some(1), Some(2), Some(3)], "{infos:?}");
    assert!(last.iter().all(|i| i.nodes == Some(3000)));
    let firsts: Vec<&String> = last.iter().map(|i| &i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    // MultiPV changes the report only: same search, same move and score as one line.
    assert_eq!(&best, firsts[0]);
    assert_eq!(best, best1);
    assert_eq!(last[0].score, single.last().unwrap().score);
    assert_eq!(single.last().unwrap().multipv, None);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = engine();
    e.send("position startpos moves f7");
    let (_, infos, best) = go(&mut e, "go nodes 2000 searchmoves a1 l11");
    assert!(["a1", "l11"].contains(&best.as_str()), "{best}");
    assert!(!infos.is_empty());
    for i in &infos {
        assert!(["a1", "l11"].contains(&i.pv[0].as_str()), "pv {:?}", i.pv);
    }
    // The next search without searchmoves considers every move again.
    e.send("setoption name MultiPV value 5");
    let (_, infos, _) = go(&mut e, "go nodes 2000");
    let firsts: Vec<&str> = infos[infos.len() - 5..].iter().map(|i| i.pv[0].as_str()).collect();
    assert!(firsts.iter().any(|m| !["a1", "l11"].contains(m)), "{firsts:?}");
}

#[test]
fn two_threads_count_all_playouts_and_stop_at_once() {
    let mut e = engine();
    e.send("setoption name Threads value 2");
    let (_, infos, best) = go(&mut e, "go nodes 4000");
    assert!(!best.is_empty());
    let nodes = infos.last().and_then(|i| i.nodes).expect("nodes");
    assert!((4000..=4001).contains(&nodes), "{nodes}");
    e.send("go infinite");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(lines.last().unwrap().len() > "bestmove ".len(), "{lines:?}");
}

#[test]
fn solved_roots_are_noted() {
    let mut e = engine();
    // Red to move wins at a1 (three zones); Blue then has nothing to do.
    let three_zones =
        "l1 c3 k2 e3 l3 g3 k4 i3 l5 c7 k6 e7 l7 g7 k8 i7 l9 d10 k10 h10 l11 c12 k12 e12";
    e.send(&format!("position startpos moves {three_zones}"));
    let (lines, infos, best) = go(&mut e, "go nodes 1000");
    assert_eq!(best, "a1");
    assert!(lines.iter().any(|l| l.starts_with("info string solved: win")), "{lines:?}");
    assert_eq!(infos.last().unwrap().score, Some(Score::Mate(1)));
}
