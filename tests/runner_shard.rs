//! Matches in pieces: `--shard K/N`, `ugine merge`, the shared record directory of an
//! SPRT, `--resume` per shard, PGN export, `genfens --format cutegames` and
//! `genfens --balanced`. Real
//! processes at fixed depths, so every run plays the same games.

mod runner_util;

use std::path::Path;

use runner_util::{UGINE, lines, morris_against_random, scratch, text, ugine};

/// The settings of a small deterministic round robin: ugine at depths 1 and 2 and the
/// random mover, on generated openings in random order.
fn round_robin(dir: &Path, seed: &str, extra: &[&str]) -> std::process::Output {
    let openings = dir.join("openings.txt");
    if !openings.exists() {
        let o = ugine(&["genfens", "morris", "3", "--seed", "7", "-o", openings.to_str().unwrap()]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let d1 = format!("name=d1 cmd={UGINE} depth=1");
    let d2 = format!("name=d2 cmd={UGINE} depth=2");
    let mut args = vec![
        "match",
        "--game",
        "morris",
        "--format",
        "roundrobin",
        "--engine",
        &d1,
        "--engine",
        &d2,
        "--engine",
        "name=random",
        "--rounds",
        "4",
        "--openings",
        openings.to_str().unwrap(),
        "--order",
        "random",
        "--seed",
        seed,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = ugine(&args);
    assert!(o.status.success(), "{}", text(&o));
    o
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn merged_shards_print_the_unsharded_statistics() {
    let d = scratch("shards");
    let whole = d.join("whole.ugr");
    let pgn = d.join("whole.pgn");
    let unsharded = stdout(&round_robin(
        &d,
        "3",
        &["--records", whole.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()],
    ));
    assert!(unsharded.contains("standings"), "{unsharded}");
    let dir = d.join("shards");
    let mut counts = Vec::new();
    for k in 1..=3 {
        round_robin(
            &d,
            "3",
            &["--shard", &format!("{k}/3"), "--record-dir", dir.to_str().unwrap()],
        );
        counts.push(lines(&dir.join(format!("shard-{k}-of-3.ugr"))).len());
    }
    // 3 pairings × 4 rounds = 12 pairs of games, 4 pairs per shard.
    assert_eq!(counts, [8, 8, 8]);
    let files: Vec<String> =
        (1..=3).map(|k| dir.join(format!("shard-{k}-of-3.ugr")).display().to_string()).collect();
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = ugine(&args);
    assert!(merged.status.success(), "{}", text(&merged));
    assert_eq!(stdout(&merged), unsharded);
    assert!(text(&merged).contains("24 games from 3 of 3 shards"), "{}", text(&merged));
    // The unsharded run's PGN holds the same games.
    let from_pgn = ugine(&["merge", pgn.to_str().unwrap()]);
    assert!(from_pgn.status.success(), "{}", text(&from_pgn));
    assert_eq!(stdout(&from_pgn), unsharded);
    let replay = ugine(&["replay", pgn.to_str().unwrap()]);
    assert!(replay.status.success(), "{}", text(&replay));
    assert!(stdout(&replay).contains("24 games replayed, 24 valid"), "{}", text(&replay));

    // Ratings read the PGN and the records alike.
    let from_pgn = ugine(&["ratings", pgn.to_str().unwrap(), "--prior", "1"]);
    assert!(from_pgn.status.success(), "{}", text(&from_pgn));
    let from_records = ugine(&["ratings", whole.to_str().unwrap(), "--prior", "1"]);
    assert_eq!(stdout(&from_pgn), stdout(&from_records));
    let list = stdout(&from_pgn);
    assert!(list.starts_with("24 games\n"), "{list}");
    for name in ["d1", "d2", "random"] {
        assert!(list.lines().any(|l| l.split_whitespace().nth(1) == Some(name)), "{list}");
    }

    // A piece twice, and pieces of different matches, are refused.
    let twice = ugine(&["merge", &files[0], &files[1], &files[0]]);
    assert!(!twice.status.success());
    assert!(text(&twice).contains("recorded twice"), "{}", text(&twice));
    let mixed = ugine(&["merge", &files[0], whole.to_str().unwrap()]);
    assert!(!mixed.status.success());
    assert!(text(&mixed).contains("different matches"), "{}", text(&mixed));
    let other = d.join("other");
    round_robin(&d, "4", &["--shard", "2/3", "--record-dir", other.to_str().unwrap()]);
    let other_file = other.join("shard-2-of-3.ugr");
    let mixed = ugine(&["merge", &files[0], other_file.to_str().unwrap()]);
    assert!(!mixed.status.success());
    assert!(text(&mixed).contains("seed=3"), "{}", text(&mixed));
}

#[test]
fn each_shard_resumes_its_own_file() {
    let d = scratch("shard-resume");
    let dir = d.join("shards");
    let dir_arg = dir.to_str().unwrap().to_string();
    round_robin(&d, "3", &["--shard", "2/3", "--record-dir", &dir_arg]);
    let file = dir.join("shard-2-of-3.ugr");
    let full = std::fs::read_to_string(&file).unwrap();
    let all: Vec<&str> = full.lines().collect();
    assert_eq!(all.len(), 9, "header and 8 games");
    // Interrupted after three games, the last one cut short.
    let cut = format!("{}\n{}\n{}\n{}\n{}", all[0], all[1], all[2], all[3], &all[4][..20]);
    std::fs::write(&file, cut).unwrap();
    let o = round_robin(&d, "3", &["--shard", "2/3", "--record-dir", &dir_arg, "--resume"]);
    assert!(text(&o).contains("resuming: 3 games already recorded"), "{}", text(&o));
    let ids = |f: &Path| {
        let mut v: Vec<String> = lines(f)
            .iter()
            .filter(|l| l.contains("\tdetail="))
            .map(|l| l[..l.find('\t').unwrap()].to_string())
            .collect();
        v.sort();
        v
    };
    let mut expected: Vec<String> =
        all[1..].iter().map(|l| l[..l.find('\t').unwrap()].to_string()).collect();
    expected.sort();
    assert_eq!(ids(&file), expected, "the shard's games, each once");
    // Resuming a shard with another shard's file is refused.
    std::fs::copy(&file, dir.join("shard-1-of-3.ugr")).unwrap();
    let d1 = format!("name=d1 cmd={UGINE} depth=1");
    let d2 = format!("name=d2 cmd={UGINE} depth=2");
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--format",
        "roundrobin",
        "--engine",
        &d1,
        "--engine",
        &d2,
        "--engine",
        "name=random",
        "--rounds",
        "4",
        "--openings",
        d.join("openings.txt").to_str().unwrap(),
        "--order",
        "random",
        "--seed",
        "3",
        "--shard",
        "1/3",
        "--record-dir",
        &dir_arg,
        "--resume",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("shard=2/3"), "{}", text(&o));
}

/// ugine at depth 2 against the random mover, with an SPRT that ugine passes after a
/// few pairs.
fn sprt_shard(dir: &Path, shard: &str) -> String {
    let o = morris_against_random(&[
        "--depth",
        "2",
        "--rounds",
        "30",
        "--sprt",
        "elo0=0",
        "elo1=200",
        "--shard",
        shard,
        "--record-dir",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    stdout(&o)
}

#[test]
fn an_sprt_stops_every_shard_once_the_merged_games_decide() {
    let d = scratch("shard-sprt");
    let dir = d.join("shards");
    let first = sprt_shard(&dir, "1/2");
    assert!(first.contains("SPRT (all shards): H1 accepted (pass)"), "{first}");
    let played = lines(&dir.join("shard-1-of-2.ugr")).len();
    assert!(played > 0 && played < 30, "{first}");
    // The second shard starts after the decision: it reads the first shard's games and
    // plays none.
    let second = sprt_shard(&dir, "2/2");
    assert!(second.contains("SPRT (all shards): H1 accepted (pass)"), "{second}");
    assert_eq!(lines(&dir.join("shard-2-of-2.ugr")).len(), 0);
    let merged = ugine(&[
        "merge",
        dir.join("shard-1-of-2.ugr").to_str().unwrap(),
        dir.join("shard-2-of-2.ugr").to_str().unwrap(),
    ]);
    assert!(merged.status.success(), "{}", text(&merged));
    let out = stdout(&merged);
    assert!(out.contains(&format!("games {played} ")), "{out}");
    assert!(out.contains("\nSPRT: H1 accepted (pass)\n"), "{out}");
}

#[test]
fn genfens_for_cutegames_writes_position_strings() {
    let d = scratch("genfens-cutegames");
    let file = d.join("cutegames.txt");
    let o = ugine(&[
        "genfens",
        "morris",
        "5",
        "--seed",
        "2",
        "--format",
        "cutegames",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let ugine_format = ugine(&["genfens", "morris", "5", "--seed", "2"]);
    let opening_lines: Vec<String> =
        stdout(&ugine_format).lines().filter(|l| !l.starts_with('#')).map(String::from).collect();
    let fens = std::fs::read_to_string(&file).unwrap();
    let fens: Vec<&str> = fens.lines().collect();
    assert_eq!(fens.len(), 5);
    // Each line is the position after the same-seed opening's moves: the engine reached
    // by `position <opening>` and by `position fen <line>` prints the same board.
    for (fen, opening) in fens.iter().zip(&opening_lines) {
        assert!(!fen.starts_with("startpos") && !fen.starts_with("fen ") && !fen.contains("moves"));
        let board = |position: &str| {
            let mut child = std::process::Command::new(UGINE)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            let input = format!("ugi\nposition {position}\nd\nquit\n");
            child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
            let out = child.wait_with_output().unwrap();
            let s = String::from_utf8_lossy(&out.stdout).into_owned();
            s[s.find("ugiok").unwrap()..].to_string()
        };
        assert_eq!(board(&format!("fen {fen}")), board(opening), "{fen} vs {opening}");
    }
    // The runner reads such a file as openings too.
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=random",
        "--engine",
        "name=r2 cmd=random",
        "--openings",
        file.to_str().unwrap(),
        "--rounds",
        "5",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stdout(&o).contains("games 10"), "{}", text(&o));
}

/// The score ugine reports last in `go nodes <nodes>` from `position <opening>` in a new
/// game (`None` for a mate score). `quit` is sent only after `bestmove`: it would stop
/// the search.
fn searched_cp(game: &str, opening: &str, nodes: u64) -> Option<i64> {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(UGINE)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = format!(
        "ugi\nsetoption name Game value {game}\nuginewgame\nposition {opening}\n\
         go nodes {nodes}\n"
    );
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut last = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.starts_with("bestmove") {
            break;
        }
        if line.starts_with("info") && line.contains(" score ") {
            last = Some(line);
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    let last = last.expect("a score");
    let (_, cp) = last.split_once(" score cp ")?;
    Some(cp.split_whitespace().next()?.parse().unwrap())
}

#[test]
fn genfens_balanced_keeps_the_openings_searched_near_zero() {
    let args = ["genfens", "moebius-chess", "4", "--seed", "3", "--balance-nodes", "3000"];
    let o = ugine(&[&args[..], &["--balanced", "40"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let out = stdout(&o);
    assert!(out.starts_with("# ugine genfens moebius-chess 4 --seed 3 --plies 4 --balanced 40"));
    assert!(text(&o).contains("genfens: kept 4 of "), "{}", text(&o));
    let balanced: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(balanced.len(), 4);
    // Drawn from the same candidates as without the filter, in order, skipping some.
    let all = ugine(&["genfens", "moebius-chess", "200", "--seed", "3"]);
    let all: Vec<String> =
        stdout(&all).lines().filter(|l| !l.starts_with('#')).map(String::from).collect();
    let at: Vec<usize> =
        balanced.iter().map(|b| all.iter().position(|a| a == b).expect("a candidate")).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    assert!(at[3] > 3, "the first candidates were all kept: {at:?}");
    for b in &balanced {
        let cp = searched_cp("moebius-chess", b, 3000).expect("a cp score");
        assert!(cp.abs() <= 40, "{b}: {cp}");
    }
    for (i, a) in all.iter().take(at[3]).enumerate() {
        if !at.contains(&i) {
            let cp = searched_cp("moebius-chess", a, 3000);
            assert!(cp.is_none_or(|cp| cp.abs() > 40), "{a} was skipped with {cp:?}");
        }
    }
    let bad = ugine(&[&args[..], &["--balanced", "-1"]].concat());
    assert!(!bad.status.success());
}
