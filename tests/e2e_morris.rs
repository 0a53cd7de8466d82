//! End-to-end: real `ugine` processes driven through the protocol, as a tournament
//! manager drives them, refereed by the library's own rules.

mod common;

use common::protocol::Engine;
use ugine::core::{Outcome, Rng, Side};
use ugine::engine::find_game;

fn side_word(side: Side) -> &'static str {
    if side == Side::P1 { "true" } else { "false" }
}

/// Two engines play complete games from short random openings; at every ply both
/// `query` answers match the referee, and at the end both agree with its result.
#[test]
fn self_play_complete_games_agree_with_the_referee() {
    let make = find_game("morris").map(|g| g.make).expect("morris");
    let mut rng = Rng::new(11);
    let mut engines = [Engine::start(&["--game", "morris"]), Engine::start(&[])];
    for e in engines.iter_mut() {
        e.ask("ugi", "ugiok");
        e.send("setoption name Game value morris");
        e.ask("isready", "readyok");
    }
    let mut results = Vec::new();
    for game in 0..3 {
        let mut referee = make(1);
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..2 {
            let legal = referee.legal_moves();
            let mv = rng.choose(&legal).clone();
            referee.play_move(&mv).expect("legal opening move");
            moves.push(mv);
        }
        for e in engines.iter_mut() {
            e.send("uginewgame");
        }
        while referee.outcome().is_none() {
            let side = referee.side_to_move();
            let e = &mut engines[(side.index() + game) % 2];
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            assert_eq!(e.query("p1turn"), side_word(side));
            assert_eq!(e.query("gameover"), "false");
            let best = e.ask("go nodes 400", "bestmove");
            let words: Vec<&str> = best.split_whitespace().collect();
            assert_eq!(words.len(), 2, "exactly two tokens: {best}");
            referee.play_move(words[1]).unwrap_or_else(|err| panic!("{best}: {err}"));
            moves.push(words[1].to_string());
            assert!(moves.len() < 2_000, "game {game} does not end");
        }
        // Every ending needs the 18 placements first (no capture or draw comes sooner).
        assert!(moves.len() > 18, "game {game} ended after {} plies", moves.len());
        let outcome = referee.outcome().expect("over");
        for e in engines.iter_mut() {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            assert_eq!(e.query("gameover"), "true");
            assert_eq!(e.query("result"), outcome.as_str());
        }
        results.push(outcome);
    }
    for e in engines {
        e.finish();
    }
    assert_eq!(results.len(), 3);
}

#[test]
fn isready_and_stop_are_answered_during_a_search() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves d1");
    e.send("go infinite");
    let lines = e.read_until(|l| l.starts_with("info depth"));
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    let lines = e.ask("isready", "readyok");
    assert_eq!(lines, "readyok");
    let refused = e.ask("position startpos", "info string error");
    assert!(refused.contains("search is running"), "{refused}");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let best = lines.last().expect("bestmove");
    assert_eq!(best.split_whitespace().count(), 2);
    // The refused `position` changed nothing: still after d1, so p2 to move.
    assert_eq!(e.query("p1turn"), "false");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth"));
    e.send("quit");
    let rest = e.finish();
    assert!(rest.iter().filter(|l| l.starts_with("bestmove")).count() == 2, "{rest:?}");
}

#[test]
fn hostile_input_changes_nothing_and_never_kills_the_engine() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves a1 a7 d1");
    e.send("d");
    let before = e.read_until(|l| l.starts_with("State:"));
    let mut rng = Rng::new(99);
    let words = ["position", "fen", "moves", "go", "setoption", "name", "value", "query", "x"];
    let mut sent = 0;
    for _ in 0..300 {
        let mut line = String::new();
        for _ in 0..rng.below(6) {
            line.push_str(words[rng.below(words.len())]);
            line.push(' ');
            line.push(char::from_u32(33 + rng.below(90) as u32).unwrap_or('?'));
        }
        // Lines that would legitimately change the state are not garbage.
        if matches!(line.split_whitespace().next(), Some("position" | "setoption" | "go")) {
            line.insert(0, '#');
        }
        e.send(&line);
        sent += 1;
    }
    e.send_raw(b"\xff\xfe garbage \x80\n");
    e.send("position startpos moves a1 a7 d1 zz");
    e.send("position fen 3/3/3/6/3/3/3 w 10 9 0");
    e.send("setoption name Hash value 1000000");
    e.send("d");
    let after = e.read_until(|l| l.starts_with("State:"));
    let errors = after.iter().filter(|l| l.starts_with("info string error")).count();
    assert!(errors >= 4, "every bad line is answered: {errors} errors for {sent}+ lines");
    let board_after: Vec<&String> =
        after.iter().filter(|l| !l.starts_with("info string")).collect();
    let board_before: Vec<&String> = before.iter().collect();
    assert_eq!(board_after, board_before, "the position is unchanged");
    assert_eq!(e.ask("isready", "readyok"), "readyok");
    let out = e.finish();
    assert!(out.iter().all(|l| !l.starts_with("response") && !l.starts_with("bestmove")));
}

#[test]
fn command_line_preselects_options() {
    // Three men each: with the standard rules White may fly (54 moves, 6 without).
    let fen = "W2/1B1/3/1W2B1/3/B1W/3 w 0 0 10";
    let mut standard = Engine::start(&["--game", "morris", "--option", "Morris Rules=standard"]);
    standard.send(&format!("position fen {fen}"));
    let lines = standard.ask("go perft 1", "Nodes searched");
    assert_eq!(lines, "Nodes searched: 54");
    standard.finish();
    let mut seed = Engine::start(&[]);
    seed.send(&format!("position fen {fen}"));
    assert_eq!(seed.ask("go perft 1", "Nodes searched"), "Nodes searched: 6");
    seed.finish();
}

#[test]
fn results_follow_the_rules() {
    let mut e = Engine::start(&[]);
    // White closes a mill and leaves Black with two men: White wins.
    e.send("position fen WW1/3/3/1B2B1/3/B2/3 w 1 0 0 moves g7xb4");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), Outcome::Win(Side::P1).as_str());
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    e.finish();
}
