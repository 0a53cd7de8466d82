//! Analysis through the protocol for the alpha-beta games: MultiPV, searchmoves and
//! several threads, on the real binary.

mod common;

use common::protocol::Engine;
use ugine::search::Score;
use ugine::ugi::{EngineLine, Info, parse_engine_line};

/// Each alpha-beta game with a fixed search depth that keeps the test fast (Mobius and
/// Mabula search by Monte Carlo: `go depth` counts thousands of simulations there).
const GAMES: [(&str, u32); 3] = [("morris", 5), ("moebius-chess", 3), ("morpiae", 3)];

/// The prefix of a game's search options (`<prefix> Search …`).
fn option_prefix(game: &str) -> &'static str {
    match game {
        "morris" => "Morris",
        "moebius-chess" => "Moebius",
        "morpiae" => "Morpiae",
        _ => panic!("no search options for {game}"),
    }
}

fn engine(game: &str) -> Engine {
    let mut e = Engine::start(&["--game", game]);
    e.ask("isready", "readyok");
    e
}

/// Runs `go` and returns the `info` lines with a score and the `bestmove`.
fn go(e: &mut Engine, go: &str) -> (Vec<Info>, String) {
    e.send(go);
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    let mut infos = Vec::new();
    let mut best = String::new();
    for line in lines {
        match parse_engine_line(&line) {
            EngineLine::Info(i) if i.score.is_some() => infos.push(i),
            EngineLine::BestMove { mv, .. } => best = mv,
            _ => {}
        }
    }
    (infos, best)
}

fn legal_moves(e: &mut Engine) -> Vec<String> {
    e.send("go perft 1");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    let divide = lines.iter().filter(|l| !l.starts_with("Nodes searched"));
    divide.filter_map(|l| l.split_once(':').map(|(m, _)| m.to_string())).collect()
}

fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(v) => v as i64,
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
    }
}

#[test]
fn multipv_reports_the_best_lines_in_order() {
    for (game, depth) in GAMES {
        let mut e = engine(game);
        // Without late-move reductions and late move, reverse futility and futility pruning:
        // which moves they reduce or skip depends on the move order and the table, which
        // the extra lines change, so with them the first line may differ from the single
        // line of the same depth.
        let prefix = option_prefix(game);
        e.send(&format!("setoption name {prefix} Search LMR Min Move value 256"));
        e.send(&format!("setoption name {prefix} Search LMP Base value 256"));
        e.send(&format!("setoption name {prefix} Search RFP Margin value 0"));
        e.send(&format!("setoption name {prefix} Search Futility Margin value 0"));
        let (single, best1) = go(&mut e, &format!("go depth {depth}"));
        let single_score = single.last().and_then(|i| i.score).expect("a score");
        e.send("uginewgame");
        e.send("setoption name MultiPV value 3");
        let (infos, best) = go(&mut e, &format!("go depth {depth}"));
        let last: Vec<&Info> = infos.iter().filter(|i| i.depth == Some(depth)).collect();
        assert_eq!(last.len(), 3, "{game}: three lines at depth {depth}: {infos:?}");
        let ranks: Vec<u32> = last.iter().map(|i| i.multipv.expect("multipv")).collect();
        assert_eq!(ranks, [1, 2, 3], "{game}");
        let scores: Vec<i64> = last.iter().map(|i| rank(i.score.expect("score"))).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{game}: ordered {scores:?}");
        let firsts: Vec<&String> = last.iter().map(|i| &i.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert_eq!(&best, firsts[0], "{game}: bestmove is the first line's move");
        assert_eq!(last[0].score, Some(single_score), "{game}: first line = MultiPV 1");
        assert_eq!(best, best1, "{game}: same best move as MultiPV 1");
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    for (game, depth) in GAMES {
        let mut e = engine(game);
        let legal = legal_moves(&mut e);
        let allowed = [legal[legal.len() - 1].clone(), legal[legal.len() / 2].clone()];
        let (infos, best) =
            go(&mut e, &format!("go depth {depth} searchmoves {} {}", allowed[0], allowed[1]));
        assert!(allowed.contains(&best), "{game}: {best} not in {allowed:?}");
        assert!(!infos.is_empty());
        for i in &infos {
            assert!(allowed.contains(&i.pv[0]), "{game}: pv {:?}", i.pv);
        }
        // An illegal move in the list: an error, nothing searched.
        e.send(&format!("go depth {depth} searchmoves {} nonsense", allowed[0]));
        let lines = e.read_until(|l| l.starts_with("bestmove "));
        assert!(lines.iter().any(|l| l.starts_with("info string error: searchmoves 'nonsense'")));
        assert!(!lines.iter().any(|l| l.starts_with("info depth")), "{game}: {lines:?}");
    }
}

#[test]
fn two_threads_search_and_count_all_nodes() {
    for (game, depth) in GAMES {
        let mut e = engine(game);
        let legal = legal_moves(&mut e);
        e.send("setoption name Threads value 2");
        let (infos, best) = go(&mut e, &format!("go depth {}", depth + 1));
        assert!(legal.contains(&best), "{game}: {best}");
        // The main thread completes the depth asked for. The move played may be a
        // helper's, stopped one iteration short, when the threads' vote prefers it
        // (Morris's network scores odd depths higher: the last line can say depth 5).
        assert!(infos.iter().any(|i| i.depth == Some(depth + 1)), "{game}: {infos:?}");
        assert!(infos.iter().all(|i| i.depth <= Some(depth + 1)), "{game}: {infos:?}");
        // Stopped at once, two threads still answer with a legal move.
        e.send("go infinite");
        e.send("stop");
        let lines = e.read_until(|l| l.starts_with("bestmove "));
        let best = lines.last().expect("bestmove").trim_start_matches("bestmove ").to_string();
        assert!(legal.contains(&best), "{game}: {best}");
    }
}
