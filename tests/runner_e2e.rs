//! End-to-end matches of real processes: the `ugine` binary, the built-in random mover,
//! and tiny shell-script engines that crash, hang or never start. Small and fast: fixed
//! depths, few games; the only deadlines are the runner's own.

mod runner_util;

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Output};

use runner_util::{
    UGINE, field, lines, morris_against_random, morris_against_random_args, scratch, script,
    sh_commands, text, ugine,
};

#[test]
fn ugine_against_random_with_openings_records_and_replay() {
    let d = scratch("basic");
    let openings = d.join("openings.txt");
    let o = ugine(&["genfens", "morris", "3", "--seed", "5", "-o", openings.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let records = d.join("games.ugr");
    let o = morris_against_random(&[
        "--depth",
        "2",
        "--rounds",
        "3",
        "--openings",
        openings.to_str().unwrap(),
        "--order",
        "random",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("warning: no --openings"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("ugine vs random"), "{out}");
    assert!(out.contains("pairs 3"), "{out}");
    let recs = lines(&records);
    assert_eq!(recs.len(), 6);
    for r in &recs {
        assert_eq!(field(r, "termination"), "normal", "{r}");
    }
    let o = ugine(&["replay", records.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("6 games replayed, 6 valid"), "{}", text(&o));
}

#[test]
fn failing_engines_lose_and_the_match_goes_on() {
    let d = scratch("faults");
    let crash = script(
        &d,
        "crash.sh",
        "while read -r c rest; do case \"$c\" in ugi) echo ugiok;; isready) echo readyok;; go) exit 3;; quit) exit 0;; esac; done",
    );
    let hang = script(
        &d,
        "hang.sh",
        "while read -r c rest; do case \"$c\" in ugi) echo ugiok;; isready) echo readyok;; go) exec sleep 30;; quit) exit 0;; esac; done",
    );
    let bad = script(
        &d,
        "bad.sh",
        "while read -r c rest; do case \"$c\" in ugi) echo ugiok;; isready) echo readyok;; go) echo bestmove zz;; quit) exit 0;; esac; done",
    );
    let config = d.join("match.conf");
    std::fs::write(
        &config,
        format!(
            "# gauntlet of the random mover against broken engines\n\
             game morris\nformat gauntlet\nrounds 1\ndepth 1\nstall 500ms\nstartup 500ms\n\
             engine random\n  cmd random\n\
             engine crash\n  cmd {crash}\n\
             engine hang\n  cmd {hang}\n\
             engine bad\n  cmd {bad}\n"
        ),
    )
    .unwrap();
    let records = d.join("games.ugr");
    let o = ugine(&[
        "match",
        "--config",
        config.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let recs = lines(&records);
    assert_eq!(recs.len(), 6, "3 pairings x 1 round x 2 seats");
    for r in &recs {
        let random_p1 = field(r, "p1") == "random";
        assert_eq!(field(r, "result"), if random_p1 { "p1win" } else { "p2win" }, "{r}");
        let broken = if random_p1 { field(r, "p2") } else { field(r, "p1") };
        let expected = match broken {
            "crash" => "disconnect",
            "hang" => "stall",
            "bad" => "illegal-move",
            other => panic!("unexpected engine {other}"),
        };
        assert_eq!(field(r, "termination"), expected, "{r}");
    }
    let o = ugine(&["replay", records.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn sprt_stops_the_match_when_h1_is_accepted() {
    let d = scratch("sprt");
    let records = d.join("games.ugr");
    let o = morris_against_random(&[
        "--depth",
        "2",
        "--rounds",
        "100",
        "--records",
        records.to_str().unwrap(),
        "--sprt",
        "elo0=0",
        "elo1=100",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("SPRT: H1 accepted (pass)"), "{out}");
    assert!(lines(&records).len() < 60, "stopped early: {out}");
}

/// Records as a set of lines without the per-move times (which vary from run to run).
fn games_without_times(path: &Path) -> HashSet<String> {
    lines(path)
        .iter()
        .map(|l| l.split('\t').filter(|f| !f.starts_with("times=")).collect::<Vec<_>>().join("\t"))
        .collect()
}

/// `ugine match` of ugine at `depth` against the random mover for `rounds` rounds of
/// Morris, recorded to `records`, resuming it when `resume`.
fn ugine_against_random(records: &Path, depth: &str, rounds: &str, resume: bool) -> Output {
    let mut args = vec![
        "--depth",
        depth,
        "--rounds",
        rounds,
        "--records",
        records.to_str().unwrap(),
        "--quiet",
    ];
    if resume {
        args.push("--resume");
    }
    morris_against_random(&args)
}

#[test]
fn resume_after_an_interruption_loses_and_repeats_no_game() {
    let d = scratch("resume");
    let full = d.join("full.ugr");
    let part = d.join("part.ugr");
    let run = |records: &Path, resume: bool| {
        let o = ugine_against_random(records, "1", "4", resume);
        assert!(o.status.success(), "{}", text(&o));
    };
    run(&full, false);
    let all = lines(&full);
    assert_eq!(all.len(), 8);
    // An interrupted run: the header, three finished games and a fourth cut short.
    let header = std::fs::read_to_string(&full).unwrap().lines().next().unwrap().to_string();
    let cut =
        format!("{header}\n{}\n{}\n{}\n{}", all[0], all[1], all[2], &all[3][..all[3].len() / 2]);
    std::fs::write(&part, &cut).unwrap();
    run(&part, true);
    let resumed = lines(&part);
    assert_eq!(&resumed[..3], &all[..3], "finished games are kept as they were");
    assert_eq!(games_without_times(&part).len(), 9, "8 games and the cut line");
    let complete: HashSet<String> =
        games_without_times(&part).into_iter().filter(|l| l.contains("\tdetail=")).collect();
    assert_eq!(complete, games_without_times(&full), "the same games, each once");
    // Starting over on an existing file without --resume is refused.
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=random",
        "--engine",
        "name=random2 cmd=random",
        "--records",
        part.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("--resume"), "{}", text(&o));
}

/// `--resume` with a larger `--rounds` extends a finished (or undecided) match: the
/// recorded games stay, the new rounds are played, and the header says the new number.
/// Fewer rounds than recorded are refused and change nothing.
#[test]
fn resume_extends_a_match_to_more_rounds_but_never_fewer() {
    let d = scratch("resume-extend");
    let grown = d.join("grown.ugr");
    let whole = d.join("whole.ugr");
    let run = |records: &Path, rounds: &str, resume: bool| {
        ugine_against_random(records, "1", rounds, resume)
    };
    let header = |p: &Path| std::fs::read_to_string(p).unwrap().lines().next().unwrap().to_string();
    assert!(run(&grown, "2", false).status.success());
    let first = lines(&grown);
    assert_eq!(first.len(), 4);
    let o = run(&grown, "3", true);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("extending the match from 2 to 3 rounds"), "{}", text(&o));
    let after = lines(&grown);
    assert_eq!(&after[..4], &first[..], "recorded games are kept as they were");
    assert_eq!(after.len(), 6);
    // The same games as a match of 3 rounds played in one run, and the same header.
    assert!(run(&whole, "3", false).status.success());
    assert_eq!(games_without_times(&grown), games_without_times(&whole));
    assert_eq!(header(&grown), header(&whole));
    assert!(header(&grown).contains(" rounds=3 "), "{}", header(&grown));
    // Shortening is refused and leaves the file as it was.
    let before = std::fs::read_to_string(&grown).unwrap();
    let o = run(&grown, "2", true);
    assert!(!o.status.success());
    assert!(text(&o).contains("extended, not shortened"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&grown).unwrap(), before);
    // Any other changed setting is still refused.
    let o = ugine_against_random(&grown, "2", "4", true);
    assert!(!o.status.success());
    assert!(text(&o).contains("recorded with other settings"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&grown).unwrap(), before);
}

#[test]
fn killed_run_keeps_every_finished_game() {
    let d = scratch("kill");
    let records = d.join("games.ugr");
    let rest =
        ["--depth", "3", "--rounds", "10", "--records", records.to_str().unwrap(), "--quiet"];
    let mut child = Command::new(UGINE)
        .args(morris_against_random_args(&rest))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once two games are recorded (or let it finish if it is faster than that).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if std::fs::read_to_string(&records)
            .map_or(0, |t| t.lines().filter(|l| !l.starts_with('#')).count())
            >= 2
        {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = child.kill();
    child.wait().unwrap();
    let before: Vec<String> =
        lines(&records).into_iter().filter(|l| l.contains("\tdetail=")).collect();
    assert!(before.len() >= 2);
    let o = morris_against_random(&[&rest[..], &["--resume"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let after = lines(&records);
    assert_eq!(&after[..before.len()], &before[..], "nothing recorded is lost or rewritten");
    let ids: HashSet<&str> =
        after.iter().filter(|l| l.contains("\tdetail=")).map(|l| field(l, "id")).collect();
    assert_eq!(ids.len(), 20, "every game once");
    let o = ugine(&["replay", records.to_str().unwrap()]);
    // A line cut by the kill, if any, is reported as unreadable; all games are valid.
    assert!(
        text(&o).contains("20 valid") || text(&o).contains("21 games replayed, 20 valid"),
        "{}",
        text(&o)
    );
}

#[test]
fn round_robin_of_random_movers_with_concurrency() {
    let d = scratch("rr");
    let records = d.join("games.ugr");
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--format",
        "roundrobin",
        "--engine",
        "name=random",
        "--engine",
        "name=r2 cmd=random seed=2",
        "--engine",
        "name=r3 cmd=random seed=3",
        "--rounds",
        "3",
        "--concurrency",
        "2",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning: no --openings"), "rounds from the start position: {err}");
    let out = String::from_utf8_lossy(&o.stdout);
    for p in ["random vs r2", "random vs r3", "r2 vs r3", "standings"] {
        assert!(out.contains(p), "{p}: {out}");
    }
    let recs = lines(&records);
    assert_eq!(recs.len(), 18, "3 pairings x 3 rounds x 2 seats");
    let ids: HashSet<&str> = recs.iter().map(|l| field(l, "id")).collect();
    assert_eq!(ids.len(), 18);
    // Seeded random movers: the same match again gives the same games.
    let again = d.join("again.ugr");
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--format",
        "roundrobin",
        "--engine",
        "name=random",
        "--engine",
        "name=r2 cmd=random seed=2",
        "--engine",
        "name=r3 cmd=random seed=3",
        "--rounds",
        "3",
        "--concurrency",
        "1",
        "--records",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(games_without_times(&records), games_without_times(&again));
}

/// Every game of every kind records why the rules ended it, and the records, the PGN, the
/// match summary and `ugine replay` all say the same.
#[test]
fn every_game_records_why_it_ended() {
    let d = scratch("reasons");
    for game in ["morris", "moebius-chess", "mobius", "mabula", "morpiae"] {
        let records = d.join(format!("{game}.ugr"));
        let pgn = d.join(format!("{game}.pgn"));
        let o = ugine(&[
            "match",
            "--game",
            game,
            "--engine",
            "name=r1 cmd=random",
            "--engine",
            "name=r2 cmd=random",
            "--depth",
            "1",
            "--rounds",
            "2",
            "--records",
            records.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{game}: {}", text(&o));
        let summary = String::from_utf8_lossy(&o.stdout).to_string();
        let recs = lines(&records);
        assert_eq!(recs.len(), 4, "{game}");
        let pgn_text = std::fs::read_to_string(&pgn).unwrap();
        for r in &recs {
            assert_eq!(field(r, "termination"), "normal", "{game}: {r}");
            let detail = field(r, "detail");
            assert!(!detail.is_empty(), "{game}: no reason in {r}");
            // The PGN closes the game with the same reason, in cutechess's words.
            let closing = match field(r, "result") {
                "draw" => format!("{{Draw by {detail}}}"),
                _ if detail == "checkmate" => " mates}".to_string(),
                _ => format!(" wins: {detail}}}"),
            };
            assert!(pgn_text.contains(&closing), "{game}: {closing} not in\n{pgn_text}");
            let kind = detail.split(',').next().unwrap();
            let counted = summary.lines().any(|l| l.starts_with(&format!("  {kind} ")));
            assert!(counted, "{game}: '{kind}' not counted in\n{summary}");
        }
        for file in [&records, &pgn] {
            let o = ugine(&["replay", file.to_str().unwrap()]);
            assert!(o.status.success(), "{game}: {}", text(&o));
            let out = String::from_utf8_lossy(&o.stdout).to_string();
            assert!(out.contains("4 games replayed, 4 valid"), "{game}: {out}");
            // The summary's endings, by kind, are those of the match.
            let endings = |s: &str| {
                let lines = s.lines().skip_while(|l| !l.starts_with("terminations:"));
                lines.map(String::from).collect::<Vec<_>>()
            };
            assert_eq!(endings(&out), endings(&summary), "{game}");
        }
    }
    // A record whose reason is not the rules' is refused by replay.
    let records = d.join("morris.ugr");
    let text_before = std::fs::read_to_string(&records).unwrap();
    let first = lines(&records)[0].clone();
    let forged = first.replace(&format!("detail={}", field(&first, "detail")), "detail=checkmate");
    std::fs::write(&records, text_before.replace(&first, &forged)).unwrap();
    let o = ugine(&["replay", records.to_str().unwrap()]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("the record says 'checkmate'"), "{}", text(&o));
}

/// An engine that cannot start, or never finishes its handshake, stops the match before
/// any game is played: an error naming it, its command line and what it printed, exit
/// code not 0, no record file.
#[test]
fn an_engine_that_cannot_start_stops_the_match_before_any_game() {
    let d = scratch("nostart");
    for (cmd, printed) in [("./no-such-file", "it printed: nothing"), ("/bin/cat", "\n    ugi\n")] {
        let config = d.join("match.conf");
        std::fs::write(
            &config,
            format!(
                "game morris\nrounds 2\ndepth 1\nstartup 300ms\n\
                 engine random\n  cmd random\nengine broken\n  cmd {cmd}\n  arg -u\n"
            ),
        )
        .unwrap();
        let records = d.join("games.ugr");
        let pgn = d.join("games.pgn");
        let o = ugine(&[
            "match",
            "--config",
            config.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        let out = text(&o);
        assert!(!o.status.success(), "{cmd}: {out}");
        assert!(out.contains("engine 'broken' did not start"), "{cmd}: {out}");
        assert!(out.contains(&format!("command: {cmd} -u")), "{cmd}: {out}");
        assert!(out.contains(printed), "{cmd}: {out}");
        assert!(!records.exists() && !pgn.exists(), "{cmd}: a file was written");
    }
}

/// An engine that crashes in every game stops the match after `--disconnect-limit`
/// games in a row (3 by default): no further game starts; 0 plays the match out.
#[test]
fn an_engine_that_keeps_disconnecting_stops_the_match() {
    let d = scratch("crashes");
    let crash = script(
        &d,
        "crash.sh",
        "while read -r c rest; do case \"$c\" in ugi) echo ugiok;; isready) echo readyok;; go) exit 3;; quit) exit 0;; esac; done",
    );
    let engine = format!("name=crash cmd={crash}");
    for (limit, games, ok) in [(None, 3, false), (Some("0"), 8, true), (Some("5"), 5, false)] {
        let records = d.join(format!("games-{}.ugr", limit.unwrap_or("default")));
        let mut args = vec![
            "match",
            "--game",
            "morris",
            "--engine",
            "name=random",
            "--engine",
            &engine,
            "--depth",
            "1",
            "--rounds",
            "4",
            "--records",
            records.to_str().unwrap(),
        ];
        if let Some(n) = limit {
            args.extend(["--disconnect-limit", n]);
        }
        let o = ugine(&args);
        assert_eq!(o.status.success(), ok, "{limit:?}: {}", text(&o));
        let recorded = lines(&records).len();
        if ok {
            assert_eq!(recorded, games, "{limit:?}");
        } else {
            assert_eq!(recorded, games, "{limit:?}: no game starts after the limit");
            let why = format!("engine 'crash' disconnected in {games} games in a row");
            assert!(text(&o).contains(&why), "{limit:?}: {}", text(&o));
        }
    }
}

/// Settings that cannot be meant are refused before anything is played or written.
#[test]
fn settings_that_cannot_be_meant_are_refused() {
    let d = scratch("refuse");
    let records = d.join("games.ugr");
    let engine = format!("name=ugine cmd={UGINE}");
    let refused = |extra: &[&str], why: &str| {
        let mut args = vec!["match", "--game", "morris", "--engine", &engine];
        args.extend(["--engine", "name=random", "--records", records.to_str().unwrap()]);
        args.extend(extra);
        // With backtraces asked for, as a Rust developer's shell may: a refusal is
        // still one line naming the cause, not a crash report.
        let o = Command::new(UGINE).args(&args).env("RUST_BACKTRACE", "1").output().unwrap();
        assert!(!o.status.success(), "{extra:?}: {}", text(&o));
        assert!(text(&o).contains(why), "{extra:?}: {}", text(&o));
        // (An argument the command line's parser refuses gets its usage, exit 2.)
        let stderr = String::from_utf8_lossy(&o.stderr);
        if !stderr.starts_with("error: unexpected argument") {
            assert_eq!(o.status.code(), Some(1), "{extra:?}: {stderr}");
            assert!(stderr.starts_with("Error: "), "{extra:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
        }
        assert!(!records.exists(), "{extra:?}: a record file was written");
    };
    refused(&[], "no limit per move for 'ugine'");
    refused(&["--depth", "0"], "depth must be at least 1");
    refused(&["--depth", "1", "--rounds", "0"], "rounds must be at least 1");
    refused(&["--depth", "1", "--concurrency", "0"], "concurrency must be at least 1");
    refused(&["--depth", "1", "--rounds", "-1"], "'-1'");
    refused(
        &["--depth", "1", "--option", "Morris Rulez=standard"],
        "option 'Morris Rulez' is not a rule option of morris and no engine announces it (did you mean 'Morris Rules'?)",
    );
    // What an engine announces is an option the match may set; an explicit stall
    // deadline means a match without limits.
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=r1 cmd=random",
        "--engine",
        "name=r2 cmd=random",
        "--stall",
        "5s",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::remove_file(&records).unwrap();
    let o = morris_against_random(&[
        "--depth",
        "1",
        "--option",
        "Hash=4",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

/// `--resume` continues only a ugine match record file; any other file is refused and
/// left as it was.
#[test]
fn resume_refuses_a_file_that_is_not_a_match_record() {
    let d = scratch("resume-foreign");
    let openings = d.join("openings.txt");
    let o = ugine(&["genfens", "morris", "3", "--seed", "5", "-o", openings.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let before = std::fs::read(&openings).unwrap();
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=r1 cmd=random",
        "--engine",
        "name=r2 cmd=random",
        "--depth",
        "1",
        "--records",
        openings.to_str().unwrap(),
        "--resume",
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("not a ugine match record file"), "{}", text(&o));
    assert!(!text(&o).contains("warning"), "no warning per line: {}", text(&o));
    assert_eq!(std::fs::read(&openings).unwrap(), before, "the file is untouched");
}

/// One pair cannot support an interval: the summary gives the W-L-D and `Elo n/a`,
/// never `± 0.0`; enough varied pairs give the interval.
#[test]
fn too_few_pairs_give_no_interval() {
    let d = scratch("interval");
    let engine = format!("name=ugine cmd={UGINE}");
    let summary = |rounds: &str, first: &str| {
        let records = d.join(format!("games-{rounds}.ugr"));
        let o = ugine(&[
            "match",
            "--game",
            "morris",
            "--engine",
            first,
            "--engine",
            "name=random",
            "--depth",
            "1",
            "--rounds",
            rounds,
            "--records",
            records.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let one = summary("1", &engine);
    assert!(one.contains("games 2  W-L-D 2-0-0"), "{one}");
    assert!(
        one.contains("Elo n/a (an interval needs 5 pairs not all scored alike; 1 so far)"),
        "{one}"
    );
    assert!(!one.contains("± 0.0") && !one.contains("LOS"), "{one}");
    // Eight pairs of two random movers, not all alike (seeded: the same every run).
    let eight = summary("8", "name=r1 cmd=random");
    assert!(eight.contains("pairs 8 ") && eight.contains(" LOS "), "{eight}");
    assert!(!eight.contains("n/a") && !eight.contains("± 0.0"), "{eight}");
}

/// The record header is documented `key=value` words with a version: limits in the
/// settings' own spelling, engines by their options; no Rust debug text in the records or
/// the PGN. A version 1 file (no `version`) still replays but is not resumed.
#[test]
fn the_record_header_is_designed_and_versioned() {
    let d = scratch("header");
    let records = d.join("games.ugr");
    let pgn = d.join("games.pgn");
    let engine = format!("name=ugine cmd={UGINE} option.Hash=4 depth=1");
    let args = |resume: bool| {
        let mut a = vec![
            "match".to_string(),
            "--game".into(),
            "morris".into(),
            "--engine".into(),
            engine.clone(),
            "--engine".into(),
            "name=random".into(),
            "--movetime".into(),
            "200ms".into(),
            "--records".into(),
            records.display().to_string(),
            "--pgn".into(),
            pgn.display().to_string(),
        ];
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let run = |resume: bool| {
        let a = args(resume);
        ugine(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(false);
    assert!(o.status.success(), "{}", text(&o));
    let file = std::fs::read_to_string(&records).unwrap();
    let header = file.lines().next().unwrap();
    for word in [
        "#ugine-match version=2 shard=1/1 engines=ugine;random ",
        " movetime=200ms ",
        " margin=100ms stall=60s ",
        " engine1=option.Hash=4;depth=1 ",
    ] {
        assert!(header.contains(word), "{word} not in {header}");
    }
    let tag = std::fs::read_to_string(&pgn).unwrap();
    for text in [&file, &tag] {
        for debug in ["Some(", "None", "TimeControl", "([", "%20{"] {
            assert!(!text.contains(debug), "debug text {debug} in\n{text}");
        }
    }
    // A version 1 header: replay reads the file, resume refuses it with its version.
    let old_header = "#ugine-match shard=1/1 engines=ugine;random format=headtohead rounds=1 \
                      game=morris limits=TimeControl%20{%20clock:%20None}";
    std::fs::write(&records, file.replacen(header, old_header, 1)).unwrap();
    let o = ugine(&["replay", records.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(true);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("its match header is version 1"), "{}", text(&o));
}

/// docs/runner.md's example config plays as the shards' examples use it: with
/// `--record-dir` (the config sets no record file that would exclude it); with small
/// counts and the random mover in place of the release build.
#[test]
fn the_example_config_plays_with_a_record_dir() {
    let d = scratch("example-conf");
    let conf = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/match.example.conf"),
    )
    .unwrap()
    .replace("rounds 100", "rounds 2")
    .replace("tc 10+0.1", "tc 2+0.05")
    .replace("sprt elo0=0 elo1=10 alpha=0.05 beta=0.05", "")
    .replace("./target/release/ugine", UGINE);
    let config = d.join("match.conf");
    std::fs::write(&config, conf).unwrap();
    let dir = d.join("run1");
    for k in ["1/2", "2/2"] {
        let o = ugine(&[
            "match",
            "--config",
            config.to_str().unwrap(),
            "--shard",
            k,
            "--record-dir",
            dir.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{k}: {}", text(&o));
    }
    let files: Vec<String> = ["shard-1-of-2.ugr", "shard-2-of-2.ugr"]
        .iter()
        .map(|f| dir.join(f).display().to_string())
        .collect();
    let o = ugine(&["merge", &files[0], &files[1]]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("games 4 "), "{}", text(&o));
}

/// Each engine move in the PGN carries the mover's last score and depth and its time as
/// cutechess writes them (`{+0.32/2 0.004s}`); the record keeps them in `evals`, and
/// the PGN reads back to the same games.
#[test]
fn pgn_moves_carry_score_depth_and_time() {
    let d = scratch("pgn-evals");
    let records = d.join("games.ugr");
    let pgn = d.join("games.pgn");
    let engine = format!("name=ugine cmd={UGINE}");
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        &engine,
        "--engine",
        "name=random",
        "--depth",
        "2",
        "--records",
        records.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let rec = &lines(&records)[0];
    let evals: Vec<&str> = field(rec, "evals").split_whitespace().collect();
    let moves = field(rec, "moves").split_whitespace().count();
    assert_eq!(evals.len(), moves, "{rec}");
    // ugine is p1 in the first game: its moves have `<score>/<depth>` (depth 2, or less
    // once a mate is found), random's `-`.
    let scored = |e: &&str| e.starts_with(['+', '-']) && e.contains('/');
    assert!(evals.iter().step_by(2).all(scored), "{rec}");
    assert!(evals[0].ends_with("/2"), "{rec}");
    assert!(evals.iter().skip(1).step_by(2).all(|e| *e == "-"), "{rec}");
    let text_pgn = std::fs::read_to_string(&pgn).unwrap();
    let first = format!("1. {} {{{} ", field(rec, "moves").split(' ').next().unwrap(), evals[0]);
    assert!(text_pgn.contains(&first), "{first} not in\n{text_pgn}");
    let timed = text_pgn.split('{').skip(1).filter(|c| c.split('}').next().unwrap().ends_with('s'));
    assert!(timed.count() >= moves, "{text_pgn}");
    let o = ugine(&["replay", pgn.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Every `$U match` and `$U genfens` command of docs/runner.md's examples runs as
/// written, with small counts: one round, times per move and clocks cut tenfold, the
/// programs `./new-ugine`, `./old-ugine`, `./a`, `./b` played by ugine itself. (Config
/// file examples are run by `the_example_config_plays_with_a_record_dir`.)
#[test]
fn the_runner_docs_examples_run() {
    let d = scratch("docs");
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/runner.md"))
        .unwrap();
    let commands: Vec<String> = sh_commands(&doc)
        .into_iter()
        .filter(|cmd| {
            (cmd.starts_with("$U match") && !cmd.contains("--config"))
                || cmd.starts_with("$U genfens")
        })
        .collect();
    assert!(commands.len() >= 6, "{commands:?}");
    for cmd in &commands {
        let mut words = ugine::core::words::split_words(&cmd.replace("$U", UGINE)).unwrap();
        for w in words.iter_mut() {
            for program in ["./new-ugine", "./old-ugine", "./a", "./b"] {
                if let Some(name) = w.strip_suffix(&format!("cmd={program}")) {
                    *w = format!("{name}cmd={UGINE}");
                }
            }
        }
        for i in 1..words.len() {
            let value = match words[i - 1].as_str() {
                "--rounds" => "1".to_string(),
                "--movetime" | "--tc" => words[i]
                    .replace("00ms", "0ms")
                    .replace("1+0.01", "0.2+0.01")
                    .replace("5+0.05", "0.5+0.01"),
                _ => continue,
            };
            words[i] = value;
        }
        for w in words.iter_mut() {
            *w = w.replace("movetime=100ms", "movetime=10ms");
        }
        let o = std::process::Command::new(&words[0])
            .args(&words[1..])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd}\nran as {words:?}\n{}", text(&o));
    }
}

/// While `ugine match` plays, `<records>.live` holds every game in progress (two at once
/// with `--concurrency 2`): players, opening, the moves so far (each game's record
/// starts with them), clocks and its number; it is gone when the match ends, and never
/// written with `--live off`.
#[test]
fn the_live_file_shows_the_games_in_progress() {
    use std::collections::HashMap;
    use std::time::{Duration, Instant};
    use ugine::runner::records::live::{LIVE_VERSION, LiveSnapshot, live_path, unix_ms};

    let d = scratch("live");
    let records = d.join("games.ugr");
    let live = live_path(&records);
    assert_eq!(live, d.join("games.ugr.live"));
    let mut child = Command::new(UGINE)
        .args(["match", "--game", "morris", "--engine", "name=uct", "--engine", "name=random"])
        .args(["--tc", "4+0.04", "--rounds", "2", "--concurrency", "2", "--quiet"])
        .args(["--records", records.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut seen: HashMap<String, Vec<String>> = HashMap::new();
    let mut most_at_once = 0;
    let mut clocks = Vec::new();
    loop {
        if let Ok(s) = LiveSnapshot::read(&live) {
            assert_eq!((s.version, s.pid), (LIVE_VERSION, child.id()));
            assert!(s.stale(unix_ms()).is_none(), "a running match's file is not stale");
            most_at_once = most_at_once.max(s.games.len());
            for g in s.games {
                assert_eq!(g.game, "morris");
                assert_eq!(g.total, 4);
                assert!((1..=4).contains(&g.number), "{g:?}");
                let seated =
                    if g.id.ends_with(".0") { ["uct", "random"] } else { ["random", "uct"] };
                assert_eq!(g.players, seated, "{g:?}");
                assert_eq!((g.fen.as_deref(), g.opening.len()), (None, 0));
                assert_eq!((g.times_ms.len(), g.evals.len()), (g.moves.len(), g.moves.len()));
                assert_eq!(g.to_move, if g.moves.len() % 2 == 0 { "p1" } else { "p2" });
                let c = g.clock_ms.expect("clocks with --tc");
                assert!(c[0] <= 4040 * 2 && c[1] <= 4040 * 2, "{c:?}");
                clocks.push(c);
                let before = seen.entry(g.id.clone()).or_default();
                assert!(g.moves.starts_with(before), "moves are only added: {before:?} then {g:?}");
                *before = g.moves;
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "the match ends");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!live.exists(), "the live file goes with the match");
    assert_eq!(most_at_once, 2, "two games at once");
    assert!(seen.values().any(|m| m.len() > 4), "moves seen as they came: {seen:?}");
    assert!(clocks.iter().any(|c| c[0] < 4000 || c[1] < 4000), "clocks run: {clocks:?}");
    // Every game seen in progress is recorded, its record continuing the moves seen.
    let recs = lines(&records);
    assert_eq!(recs.len(), 4);
    for (id, moves) in &seen {
        let rec = recs.iter().find(|l| field(l, "id") == id).expect("recorded");
        let recorded: Vec<&str> = field(rec, "moves").split_whitespace().collect();
        assert!(recorded.starts_with(&moves.iter().map(String::as_str).collect::<Vec<_>>()));
    }
    // Off: never written.
    let quiet = d.join("off.ugr");
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=random",
        "--engine",
        "name=r2 cmd=random",
        "--rounds",
        "1",
        "--live",
        "off",
        "--records",
        quiet.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!live_path(&quiet).exists());
}
