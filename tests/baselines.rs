//! The runner's built-in `uct` baseline and the self-play data generator, end to end
//! through the real binary. Node limits only, so results are reproducible.

use std::process::{Command, Output};

const UGINE: &str = env!("CARGO_BIN_EXE_ugine");

fn ugine(args: &[&str]) -> Output {
    Command::new(UGINE).args(args).output().expect("ugine runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

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
