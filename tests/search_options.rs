//! The search parameters as options (`<Game> Search …`, `Mobius Search …`): announced
//! with the game's defaults, they change the search, and bad values are refused.

mod common;

use common::protocol::Engine;

/// The last `info … nodes N …` line before `bestmove` of `go <limits>` after `setup`.
fn last_info(setup: &[&str], go: &str) -> String {
    let mut e = Engine::start(&[]);
    e.ask("ugi", "ugiok");
    for line in setup {
        e.send(line);
    }
    e.ask("isready", "readyok");
    e.send(go);
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    e.send("quit");
    lines.iter().rev().find(|l| l.starts_with("info") && l.contains(" nodes ")).unwrap().clone()
}

/// The node count of an `info` line.
fn nodes(info: &str) -> u64 {
    let w: Vec<&str> = info.split_whitespace().collect();
    let i = w.iter().position(|x| *x == "nodes").unwrap();
    w[i + 1].parse().unwrap()
}

#[test]
fn ugi_lists_only_what_a_user_sets_but_every_knob_is_settable() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let lines = e.read_until(|l| l == "ugiok");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert!(options.iter().all(|l| !l.contains(" Search ")), "{options:?}");
    // 5 engine options, 11 rule options, Morris DB Path and an EvalFile for each of
    // Morris, Moebius Chess, Mobius, Mabula and Morpiae: no tuning knob among them.
    assert!(options.len() <= 22, "{} options: {options:?}", options.len());
    for user in ["Game", "Hash", "Threads", "MultiPV", "Move Overhead", "Morris Rules"] {
        assert!(
            options.iter().any(|l| l.starts_with(&format!("option name {user} type"))),
            "{user}"
        );
    }
    e.send("setoption name Morris Search Aspiration value 57");
    e.send("setoption name Mobius Search Exploration value 900");
    e.send("isready");
    let answer = e.read_until(|l| l == "readyok");
    assert!(answer.iter().all(|l| !l.contains("error")), "{answer:?}");
    e.send("setoption name Morris Search Aspiration value -1");
    e.send("isready");
    let answer = e.read_until(|l| l == "readyok");
    assert!(answer.iter().any(|l| l.starts_with("info string error")), "{answer:?}");
}

#[test]
fn every_alpha_beta_game_announces_its_search_parameters() {
    let mut e = Engine::start(&["--tuning-options"]);
    e.send("ugi");
    let lines = e.read_until(|l| l == "ugiok");
    for game in ["Morris", "Moebius", "Mabula", "Morpiae"] {
        let ours: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("option name {game} Search ")))
            .collect();
        assert_eq!(ours.len(), 22, "{game}: {ours:?}");
    }
    // Defaults are each game's own table: Mabula searches with a full window and no LMR.
    for expected in [
        "option name Morris Search Aspiration type spin default 54 min 0 max 10000",
        "option name Mabula Search Aspiration type spin default 0 min 0 max 10000",
        "option name Mabula Search LMR Min Move type spin default 256 min 1 max 256",
        "option name Moebius Search LMR In PV type check default true",
        "option name Moebius Search Null Move type check default true",
        "option name Morris Search Null Move type check default false",
        "option name Moebius Search RFP Margin type spin default 100 min 0 max 10000",
        "option name Moebius Search Futility Margin type spin default 150 min 0 max 10000",
        "option name Morris Search Futility Margin type spin default 0 min 0 max 10000",
        "option name Morris Search Soft Fraction type spin default 500 min 1 max 3000",
        "option name Morris Search Contempt type spin default 0 min 0 max 1000",
        "option name Morpiae Search Contempt type spin default 30 min 0 max 1000",
        "option name Morpiae Search LMR Log type spin default 750 min 0 max 3000",
        "option name Morris Search LMR Log type spin default 0 min 0 max 3000",
        "option name Mobius Search Exploration type spin default 0 min 0 max 10000",
        "option name Mobius Search RAVE Bias type spin default 2000 min 0 max 1000000",
        "option name Mobius Search Expand After type spin default 8 min 1 max 10000",
    ] {
        assert!(lines.iter().any(|l| l == expected), "missing '{expected}'");
    }
    e.send("quit");
}

#[test]
fn lmr_options_change_the_morris_search_and_defaults_do_not() {
    // The hand evaluation, whose node counts these comparisons were made with.
    let hand = "setoption name Morris EvalFile value <empty>";
    let go = "go depth 9";
    let base = nodes(&last_info(&[hand, "position startpos"], go));
    let same = nodes(&last_info(
        &[hand, "setoption name Morris Search LMR Min Move value 2", "position startpos"],
        go,
    ));
    assert_eq!(same, base, "setting the default changes nothing");
    let no_lmr = nodes(&last_info(
        &[hand, "setoption name Morris Search LMR Min Move value 256", "position startpos"],
        go,
    ));
    assert!(no_lmr > base, "without reductions more nodes: {no_lmr} vs {base}");
    let late = nodes(&last_info(
        &[hand, "setoption name morris search lmr late move value 3", "position startpos"],
        go,
    ));
    assert!(late < base, "reducing more from the 4th move on: {late} vs {base}");
    let log = nodes(&last_info(
        &[hand, "setoption name Morris Search LMR Log value 1000", "position startpos"],
        go,
    ));
    assert!(log < base, "logarithmic reductions reduce more at depth 9: {log} vs {base}");
}

/// `Net Grain` rounds a network's evaluation: every score of a search is then a multiple
/// of it, and the search changes; the hand evaluation ignores it.
#[test]
fn net_grain_rounds_the_networks_scores() {
    let opening = "position startpos moves d2 f4 e4 e5";
    let score = |info: &str| -> i64 {
        let w: Vec<&str> = info.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "cp").unwrap();
        w[i + 1].parse().unwrap()
    };
    let run = |extra: &[&str]| last_info(&[extra, &[opening]].concat(), "go depth 8");
    let exact = run(&[]);
    let grain = "setoption name Morris Search Net Grain value 16";
    let rounded = run(&[grain]);
    assert_eq!(score(&rounded) % 16, 0, "{rounded}");
    assert_ne!(nodes(&rounded), nodes(&exact), "{rounded} against {exact}");
    let hand = "setoption name Morris EvalFile value <empty>";
    assert_eq!(nodes(&run(&[hand, grain])), nodes(&run(&[hand])));
}

#[test]
fn aspiration_option_changes_the_moebius_chess_search() {
    let setup = |v: &'static str| -> Vec<String> {
        vec![
            "setoption name Game value moebius-chess".into(),
            format!("setoption name Moebius Search Aspiration value {v}"),
            "position startpos".into(),
        ]
    };
    let run = |v| {
        let s = setup(v);
        nodes(&last_info(&s.iter().map(String::as_str).collect::<Vec<_>>(), "go depth 6"))
    };
    assert_ne!(run("30"), run("0"));
}

/// Futility pruning skips quiet moves near the leaves: fewer nodes to the same depth, more
/// with a larger margin (it prunes less), and none skipped at `Futility Max Depth` 0.
#[test]
fn futility_pruning_changes_the_moebius_chess_search() {
    let run = |extra: &[&str]| {
        let mut setup = vec!["setoption name Game value moebius-chess"];
        setup.extend_from_slice(extra);
        setup.push("position startpos moves e2e4 e7e5");
        nodes(&last_info(&setup, "go depth 7"))
    };
    let on = run(&[]);
    let off = run(&["setoption name Moebius Search Futility Margin value 0"]);
    assert!(on < off, "futility pruning searches fewer nodes: {on} vs {off}");
    let wide = run(&["setoption name Moebius Search Futility Margin value 2000"]);
    assert!(on < wide, "a wider margin prunes less: {on} vs {wide}");
    let shallow = run(&["setoption name Moebius Search Futility Max Depth value 0"]);
    assert_eq!(shallow, off, "no node is shallow enough to prune");
}

#[test]
fn mobius_mcts_options_change_the_search() {
    let info = |opt: &str| {
        let mut setup = vec!["setoption name Game value mobius"];
        if !opt.is_empty() {
            setup.push(opt);
        }
        setup.push("position startpos");
        let line = last_info(&setup, "go nodes 3000");
        // Without the time and speed words, which vary between runs.
        let w: Vec<&str> = line.split_whitespace().collect();
        let keep = |k: &str| w.iter().position(|x| *x == k).map(|i| w[i + 1].to_string());
        (
            keep("seldepth"),
            keep("hashfull"),
            keep("score"),
            line[line.find(" pv ").unwrap()..].to_string(),
        )
    };
    let base = info("");
    assert_eq!(info("setoption name Mobius Search RAVE Bias value 2000"), base);
    assert_ne!(info("setoption name Mobius Search Exploration value 1500"), base);
    assert_ne!(info("setoption name Mobius Search RAVE Bias value 200000"), base);
    assert_ne!(info("setoption name Mobius Search Expand After value 1"), base);
}

#[test]
fn bad_values_are_refused_with_an_error() {
    let mut e = Engine::start(&[]);
    e.ask("ugi", "ugiok");
    for (line, error) in [
        (
            "setoption name Morris Search Aspiration value -1",
            "info string error: option 'Morris Search Aspiration' must be in 0..10000, not -1",
        ),
        (
            "setoption name Morris Search Null Divisor value 0",
            "info string error: option 'Morris Search Null Divisor' must be in 1..64, not 0",
        ),
        (
            "setoption name Mabula Search LMR In PV value maybe",
            "info string error: option 'Mabula Search LMR In PV' takes true or false, not 'maybe'",
        ),
        (
            "setoption name Mobius Search Exploration value x",
            "info string error: option 'Mobius Search Exploration' takes an integer, not 'x'",
        ),
    ] {
        assert_eq!(e.ask(line, "info string"), error);
    }
    e.send("quit");
}
