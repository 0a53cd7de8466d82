//! Settings, config files, opening lines and schedules of the match runner.

use std::path::Path;
use std::time::Duration;

use ugine::core::words::{parse_tc, split_words};
use ugine::runner::players::spec::EngineSpec;
use ugine::runner::tournament::config::MatchConfig;

use ugine::runner::records::opening::{Opening, generate_openings};
use ugine::runner::referee::Referee;
use ugine::runner::schedule::pairings;
use ugine::runner::schedule::{Format, Order};

#[test]
fn the_example_config_file_reads() {
    let mut cfg = MatchConfig::default();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/match.example.conf");
    cfg.load_file(&path).expect("example config reads");
    assert_eq!(cfg.game, "morris");
    assert_eq!(cfg.format, Format::HeadToHead);
    assert_eq!((cfg.rounds, cfg.order, cfg.seed, cfg.concurrency), (100, Order::Random, 42, 2));
    assert_eq!(cfg.tc.clock, Some((Duration::from_secs(10), Duration::from_millis(100))));
    assert!(cfg.sprt.is_some());
    assert_eq!(cfg.engines.len(), 2);
    assert_eq!(cfg.engines[0].name, "ugine-dev");
    assert_eq!(cfg.engines[0].options, vec![("Hash".to_string(), "32".to_string())]);
    assert!(cfg.engines[1].is_random());
}

#[test]
fn config_errors_name_the_line() {
    let dir = std::env::temp_dir().join(format!("ugine-runner-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.conf");
    std::fs::write(&path, "game morris\nengine a\n  cmd x\nrounds 5\n").unwrap();
    let err = format!("{:#}", MatchConfig::default().load_file(&path).unwrap_err());
    assert!(err.contains("bad.conf:4") && err.contains("before the first 'engine'"), "{err}");
    std::fs::write(&path, "game morris\ntc fast\n").unwrap();
    let err = format!("{:#}", MatchConfig::default().load_file(&path).unwrap_err());
    assert!(err.contains("bad.conf:2") && err.contains("bad duration"), "{err}");
}

#[test]
fn engines_from_the_command_line() {
    let words = split_words("name=x cmd=./x 'option.Move Overhead=10' arg=-v").unwrap();
    let e = EngineSpec::from_tokens(&words).unwrap();
    assert_eq!(e.name, "x");
    assert_eq!(e.args, vec!["-v"]);
    assert_eq!(e.options, vec![("Move Overhead".to_string(), "10".to_string())]);
    let shallow =
        EngineSpec::from_tokens(&split_words("name=d3 cmd=./x depth=3 nodes=500").unwrap())
            .unwrap();
    assert_eq!((shallow.depth, shallow.nodes), (Some(3), Some(500)));
    let odds = EngineSpec::from_tokens(&split_words("name=u cmd=uct movetime=400ms").unwrap());
    assert_eq!(odds.unwrap().movetime, Some(Duration::from_millis(400)));
    assert!(
        EngineSpec::from_tokens(&split_words("name=u cmd=uct movetime=soon").unwrap()).is_err()
    );
    assert!(EngineSpec::from_tokens(&split_words("name=d cmd=./x depth=deep").unwrap()).is_err());
    let r = EngineSpec::from_tokens(&["name=random".to_string()]).unwrap();
    assert!(r.is_random());
    let u = EngineSpec::from_tokens(&split_words("name=uct nodes=50").unwrap()).unwrap();
    assert!(u.is_uct() && !u.is_random());
    assert_eq!(u.nodes, Some(50));
    let u = EngineSpec::from_tokens(&split_words("name=u2 cmd=uct").unwrap()).unwrap();
    assert!(u.is_uct());
    assert!(EngineSpec::from_tokens(&["name=y".to_string()]).is_err(), "no cmd");
    assert!(split_words("a 'b").is_err());
    assert_eq!(parse_tc("500ms+10ms"), Ok((Duration::from_millis(500), Duration::from_millis(10))));
}

#[test]
fn opening_lines() {
    for (line, fen, moves) in [
        ("startpos", None, vec![]),
        ("startpos moves a1 d1", None, vec!["a1", "d1"]),
        ("fen x y z", Some("x y z"), vec![]),
        ("fen x y z moves a1", Some("x y z"), vec!["a1"]),
        ("x y z moves a1", Some("x y z"), vec!["a1"]),
    ] {
        let o = Opening::parse(line).unwrap();
        assert_eq!(o.fen.as_deref(), fen, "{line}");
        assert_eq!(o.moves, moves, "{line}");
        assert_eq!(Opening::parse(&o.to_string()), Ok(o));
    }
    assert!(Opening::parse("fen").is_err());
    let referee = Referee::new("morris", &[]).unwrap();
    let mut s = referee.session().unwrap();
    assert!(Opening::parse("startpos moves a1 a1").unwrap().check(s.as_mut()).is_err());
    let ops = generate_openings(s.as_mut(), 20, 4, None, 9);
    assert_eq!(ops.len(), 20);
    let distinct: std::collections::HashSet<_> = ops.iter().collect();
    assert_eq!(distinct.len(), 20);
    for o in &ops {
        assert_eq!(o.moves.len(), 4);
        o.check(s.as_mut()).expect("generated openings are legal and not over");
    }
    // Movement-phase openings: 6 men per side on the board, none in hand, no moves, no
    // removal in reach.
    let ops = generate_openings(s.as_mut(), 20, 4, Some(6), 9);
    assert_eq!(ops.iter().collect::<std::collections::HashSet<_>>().len(), 20);
    for o in &ops {
        assert!(o.moves.is_empty());
        o.check(s.as_mut()).expect("endgame openings are legal and not over");
        assert!(s.legal_moves().iter().all(|m| !m.contains('x')), "no removal at once");
        let fen = s.fen();
        let (board, rest) = fen.split_once(' ').unwrap();
        assert_eq!(
            (board.matches('W').count(), board.matches('B').count(), &rest[2..5]),
            (6, 6, "0 0"),
            "{fen}"
        );
    }
    assert_eq!(s.random_endgame_fen(2, &mut ugine::core::Rng::new(1)), None);
    let mabula = Referee::new("mabula", &[]).unwrap().session().unwrap();
    assert_eq!(mabula.random_endgame_fen(6, &mut ugine::core::Rng::new(1)), None);
}

#[test]
fn pairings_of_each_format() {
    assert_eq!(pairings(Format::HeadToHead, 2).unwrap(), vec![(0, 1)]);
    assert!(pairings(Format::HeadToHead, 3).is_err());
    assert_eq!(pairings(Format::Gauntlet, 3).unwrap(), vec![(0, 1), (0, 2)]);
    assert_eq!(pairings(Format::RoundRobin, 3).unwrap(), vec![(0, 1), (0, 2), (1, 2)]);
    assert!(pairings(Format::RoundRobin, 1).is_err());
}
