//! The protocol parsers: typed results for valid lines, errors (never panics) for bad
//! ones, and `Display` writing lines that parse back to the same value.

use std::time::Duration;

use ugine::core::{Limits, Rng, Side};
use ugine::engine::GAME_NAMES;
use ugine::engine::registry;
use ugine::search::Score;
use ugine::ugi::{Command, EngineLine, GoCommand, Query, parse_command, parse_engine_line};

#[test]
fn parses_every_command() {
    assert_eq!(parse_command("ugi"), Ok(Command::Ugi));
    assert_eq!(parse_command("  uci  "), Ok(Command::Uci));
    assert_eq!(parse_command("isready\r"), Ok(Command::IsReady));
    assert_eq!(parse_command("ucinewgame"), Ok(Command::NewGame));
    assert_eq!(parse_command("uginewgame"), Ok(Command::NewGame));
    assert_eq!(parse_command("stop"), Ok(Command::Stop));
    assert_eq!(parse_command("quit"), Ok(Command::Quit));
    assert_eq!(parse_command("d"), Ok(Command::Display));
    assert_eq!(parse_command("query gameover"), Ok(Command::Query(Query::GameOver)));
    assert_eq!(parse_command("query p1turn"), Ok(Command::Query(Query::P1Turn)));
    assert_eq!(parse_command("query result"), Ok(Command::Query(Query::Result)));
    assert_eq!(
        parse_command("setoption name Move Overhead value 100"),
        Ok(Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) })
    );
    assert_eq!(
        parse_command("position fen r1 b/2 w 0 moves a1 b2"),
        Ok(Command::Position {
            fen: Some("r1 b/2 w 0".into()),
            moves: vec!["a1".into(), "b2".into()]
        })
    );
    assert_eq!(
        parse_command("position startpos"),
        Ok(Command::Position { fen: None, moves: vec![] })
    );
}

#[test]
fn go_searchmoves_runs_to_the_next_keyword() {
    let Ok(Command::Go(go)) = parse_command("go searchmoves d2 a4-a7xd2 movetime 300") else {
        panic!("go searchmoves must parse");
    };
    assert_eq!(go.limits.searchmoves, vec!["d2", "a4-a7xd2"]);
    assert_eq!(go.limits.movetime, Some(Duration::from_millis(300)));
    let Ok(Command::Go(go)) = parse_command("go infinite searchmoves e4") else {
        panic!("go searchmoves at the end must parse");
    };
    assert!(go.limits.infinite);
    assert_eq!(go.limits.searchmoves, vec!["e4"]);
}

#[test]
fn go_reads_ugi_and_uci_clock_words() {
    let ms = Duration::from_millis;
    let Ok(Command::Go(go)) =
        parse_command("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5")
    else {
        panic!("go parses");
    };
    assert_eq!(go.limits.time, [Some(ms(1000)), Some(ms(2000))]);
    assert_eq!(go.limits.inc, [Some(ms(10)), Some(ms(20))]);
    assert_eq!(go.limits.movestogo, Some(5));
    let Ok(Command::Go(uci)) =
        parse_command("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5")
    else {
        panic!("uci go parses");
    };
    assert_eq!(uci, go);
    let Ok(Command::Go(neg)) = parse_command("go wtime -50 btime 10") else { panic!() };
    assert_eq!(neg.limits.time[Side::P1.index()], Some(Duration::ZERO));
    let Ok(Command::Go(other)) = parse_command("go movetime 50 depth 3 nodes 1000 infinite") else {
        panic!()
    };
    assert_eq!(other.limits.movetime, Some(ms(50)));
    assert_eq!(other.limits.depth, Some(3));
    assert_eq!(other.limits.nodes, Some(1000));
    assert!(other.limits.infinite);
    assert_eq!(
        parse_command("go perft 4"),
        Ok(Command::Go(GoCommand { perft: Some(4), ..GoCommand::default() }))
    );
}

#[test]
fn bad_lines_are_errors() {
    for line in [
        "",
        "   ",
        "hello",
        "ugi now",
        "go depth",
        "go depth -1",
        "go depth 1.5",
        "go nodes 99999999999999999999999",
        "go foo 1",
        "go searchmoves",
        "go searchmoves depth 3",
        "position",
        "position fen",
        "position banana moves a1",
        "setoption",
        "setoption value 3",
        "setoption name",
        "query",
        "query everything",
    ] {
        assert!(parse_command(line).is_err(), "'{line}' must be refused");
    }
}

#[test]
fn display_round_trips() {
    let commands = [
        Command::Ugi,
        Command::IsReady,
        Command::NewGame,
        Command::SetOption { name: "Morris Rules".into(), value: Some("standard".into()) },
        Command::Position { fen: None, moves: vec!["d1".into(), "a4-a7xd2".into()] },
        Command::Position { fen: Some("3/3/3/6/3/3/3 w 9 9 0".into()), moves: vec![] },
        Command::Go(GoCommand {
            limits: Limits {
                time: [Some(Duration::from_millis(900)), Some(Duration::from_millis(800))],
                inc: [Some(Duration::from_millis(10)), Some(Duration::from_millis(10))],
                movestogo: Some(7),
                ..Limits::default()
            },
            perft: None,
        }),
        Command::Go(GoCommand { limits: Limits::nodes(5000), perft: None }),
        Command::Go(GoCommand { limits: Limits::depth(4), perft: None }),
        Command::Go(GoCommand {
            limits: Limits {
                depth: Some(6),
                searchmoves: vec!["d2".into(), "a4-a7xd2".into()],
                ..Limits::default()
            },
            perft: None,
        }),
        Command::Query(Query::Result),
        Command::Stop,
        Command::Quit,
    ];
    for cmd in commands {
        assert_eq!(parse_command(&cmd.to_string()), Ok(cmd.clone()), "{cmd}");
    }
}

#[test]
fn engine_lines_parse_and_round_trip() {
    assert_eq!(parse_engine_line("ugiok"), EngineLine::UgiOk);
    assert_eq!(parse_engine_line("readyok\r"), EngineLine::ReadyOk);
    assert_eq!(
        parse_engine_line("bestmove e2e4 ponder e7e5"),
        EngineLine::BestMove { mv: "e2e4".into(), extra: vec!["ponder".into(), "e7e5".into()] }
    );
    assert_eq!(parse_engine_line("response p1win"), EngineLine::Response("p1win".into()));
    assert_eq!(parse_engine_line("id name ugine 0.1"), EngineLine::IdName("ugine 0.1".into()));
    let info = parse_engine_line("info depth 5 seldepth 7 score mate -3 nodes 100 nps 9 pv a1 b2");
    let EngineLine::Info(i) = &info else { panic!("info") };
    assert_eq!(
        (i.depth, i.seldepth, i.score, i.nodes),
        (Some(5), Some(7), Some(Score::Mate(-3)), Some(100))
    );
    assert_eq!(i.pv, vec!["a1", "b2"]);
    assert_eq!(parse_engine_line(&info.to_string()), info);
    let info = parse_engine_line("info depth 9 seldepth 9 multipv 3 score cp -12 pv a1");
    let EngineLine::Info(i) = &info else { panic!("info") };
    assert_eq!((i.multipv, i.score), (Some(3), Some(Score::Cp(-12))));
    assert_eq!(parse_engine_line(&info.to_string()), info);
    let note = EngineLine::error("bad  spacing kept");
    assert_eq!(parse_engine_line(&note.to_string()), note);
}

/// Random garbage: words from the protocol's vocabulary mixed with random characters.
#[test]
fn random_garbage_never_panics() {
    const WORDS: &[&str] = &[
        "ugi",
        "uci",
        "go",
        "position",
        "fen",
        "startpos",
        "moves",
        "setoption",
        "name",
        "value",
        "query",
        "depth",
        "nodes",
        "p1time",
        "wtime",
        "infinite",
        "perft",
        "-1",
        "99999999999999999999",
        "0",
        "d",
        "stop",
        "\t",
        "é",
        "\u{0}",
    ];
    let mut rng = Rng::new(7);
    for _ in 0..20_000 {
        let n = rng.below(8);
        let mut line = String::new();
        for _ in 0..n {
            if rng.below(4) == 0 {
                let c = char::from_u32(rng.below(0x3000) as u32).unwrap_or('?');
                line.push(c);
            } else {
                let word = *rng.choose(WORDS);
                line.push_str(word);
            }
            if rng.below(3) > 0 {
                line.push(' ');
            }
        }
        let _ = parse_command(&line);
        let _ = parse_engine_line(&line);
    }
}

#[test]
fn game_option_lists_every_registered_game_in_order() {
    let names: Vec<&str> = registry().iter().map(|g| g.name).collect();
    assert_eq!(names, GAME_NAMES);
}
