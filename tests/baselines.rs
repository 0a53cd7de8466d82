//! The runner's built-in `uct` baseline and the self-play data generator, end to end
//! through the real binary. Node limits only, so results are reproducible (the time-odds
//! test checks only a lower bound on the time spent).

mod runner_util;

use runner_util::{lines, scratch, text, ugine};
use ugine::runner::records::record::GameRecord;

#[test]
fn uct_beats_the_random_mover() {
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=uct nodes=40",
        "--engine",
        "name=random",
        "--rounds",
        "2",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("uct vs random"), "{out}");
    assert!(out.contains("terminations: normal 4"), "{out}");
    let wins: u32 = out
        .split("W-L-D ")
        .nth(1)
        .and_then(|s| s.split('-').next())
        .and_then(|w| w.parse().ok())
        .expect("W-L-D in the summary");
    assert!(wins >= 3, "{out}");
}

#[test]
fn uct_with_its_own_movetime_searches_that_long_whatever_the_matchs() {
    let records = scratch("odds").join("odds.ugr");
    let o = ugine(&[
        "match",
        "--game",
        "morris",
        "--engine",
        "name=uct movetime=300ms",
        "--engine",
        "name=random",
        "--movetime",
        "10ms",
        "--rounds",
        "1",
        "--max-plies",
        "6",
        "--records",
        records.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let games = lines(&records);
    let mut uct_times = Vec::new();
    for line in &games {
        let rec = GameRecord::parse(line).expect("a game record");
        let first = usize::from(rec.engines[0] != "uct");
        uct_times.extend(rec.times_ms.iter().skip(first).step_by(2).copied());
    }
    assert_eq!(uct_times.len(), 6, "3 moves of uct in each of 2 games: {games:?}");
    // 300 ms of its own, not the match's 10 ms (a busy machine only makes it longer).
    assert!(uct_times.iter().all(|&t| t >= 280), "{uct_times:?}");
}

#[test]
fn datagen_writes_one_line_per_position_the_same_at_any_concurrency() {
    let run = |concurrency: &str| {
        let o = ugine(&[
            "datagen",
            "--game",
            "morris",
            "--games",
            "3",
            "--nodes",
            "300",
            "--seed",
            "4",
            "--concurrency",
            concurrency,
        ]);
        assert!(o.status.success(), "{}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains("[3/3] games written"));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(one.lines().count() > 10, "{one}");
    for line in one.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert!(["p1", "p2"].contains(&fields[1]), "{line}");
        let score = fields[2].strip_prefix('#').unwrap_or(fields[2]);
        assert!(score.parse::<i32>().is_ok(), "{line}");
        assert!(["p1win", "p2win", "draw"].contains(&fields[3]), "{line}");
    }
}
