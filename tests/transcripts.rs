//! Golden protocol transcripts: each `tests/data/ugi/<name>.in` is piped into `ugine`
//! line by line and the output compared with `<name>.out`. Searches in transcripts use
//! fixed depths or node counts, so the output is deterministic once the `time` and `nps`
//! values of `info` lines are masked. After a `go` the next line is sent only once
//! `bestmove` (or an error) arrived; after any other line, once an `isready` sent by the
//! test was answered (that `readyok` is left out of the transcript).
//!
//! To accept a deliberate behaviour change: `UGINE_BLESS=1 cargo test --test transcripts`.

mod common;

use common::protocol::Engine;

/// Replaces the values of `time` and `nps` in `info` lines by `*`.
fn mask(line: &str) -> String {
    if !line.starts_with("info ") || line.starts_with("info string") {
        return line.to_string();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if matches!(words[i - 1], "time" | "nps") && words[i - 1] != "*" {
            words[i] = "*";
        }
    }
    words.join(" ")
}

fn run(input: &str) -> String {
    let mut engine = Engine::start(&[]);
    for line in input.lines() {
        engine.send(line);
        let word = line.split_whitespace().next().unwrap_or("");
        let waits_for_bestmove =
            word == "go" && !line.contains("perft") && !line.contains("infinite");
        if waits_for_bestmove {
            engine.read_until(|l| l.starts_with("bestmove") || l.starts_with("info string error"));
        } else if line.trim() == "isready" {
            engine.read_until(|l| l == "readyok");
        } else if line.trim() != "quit" {
            // Synchronise: every answer to this line is in before the next line is sent.
            // The extra `readyok` is not part of the transcript.
            engine.send("isready");
            engine.read_until(|l| l == "readyok");
            engine.transcript.pop();
        }
    }
    let mut out: Vec<String> = engine.finish().iter().map(|l| mask(l)).collect();
    out.push(String::new());
    out.join("\n")
}

#[test]
fn golden_transcripts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ugi");
    let bless = std::env::var("UGINE_BLESS").is_ok_and(|v| v == "1");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("transcript folder").collect();
    entries.sort_by_key(|e| e.as_ref().map(|e| e.path()).ok());
    for entry in entries {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "in") {
            continue;
        }
        let input = std::fs::read_to_string(&path).expect("read .in");
        let actual = run(&input);
        let golden = path.with_extension("out");
        if bless {
            std::fs::write(&golden, &actual).expect("write .out");
        } else {
            let expected = std::fs::read_to_string(&golden)
                .unwrap_or_else(|_| panic!("missing {}", golden.display()));
            assert_eq!(actual, expected, "transcript {} differs", path.display());
        }
        checked += 1;
    }
    assert!(checked > 0);
}
