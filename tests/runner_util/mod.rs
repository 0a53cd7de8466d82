#![allow(dead_code)] // each test binary uses only some of these helpers
//! Helpers of the end-to-end tests of the match runner: scratch directories, running the
//! `ugine` binary, shell-script engines, record files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const UGINE: &str = env!("CARGO_BIN_EXE_ugine");

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ugine-runner-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

pub fn ugine(args: &[&str]) -> Output {
    Command::new(UGINE).args(args).output().expect("ugine runs")
}

/// The arguments of `ugine match` of Morris between ugine and the built-in random mover,
/// followed by `rest` (limits, records, …).
pub fn morris_against_random_args(rest: &[&str]) -> Vec<String> {
    let head = ["match", "--game", "morris", "--engine", &format!("name=ugine cmd={UGINE}")]
        .map(String::from);
    let random = ["--engine", "name=random"].map(String::from);
    head.into_iter().chain(random).chain(rest.iter().map(|a| a.to_string())).collect()
}

/// Runs `ugine match` of Morris between ugine and the random mover with `rest` added
/// ([`morris_against_random_args`]).
pub fn morris_against_random(rest: &[&str]) -> Output {
    Command::new(UGINE).args(morris_against_random_args(rest)).output().expect("ugine runs")
}

pub fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Writes an executable shell-script engine.
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    let status = Command::new("chmod").arg("+x").arg(&path).status().expect("chmod");
    assert!(status.success());
    path.display().to_string()
}

/// The game lines of a record file (without the `#` match header).
pub fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("records")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

pub fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split('\t')
        .find_map(|f| f.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
        .unwrap_or("")
}

/// The commands of the `sh` blocks of a document: continued lines (`\\`) joined,
/// trailing ` #` comments cut.
pub fn sh_commands(doc: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let (mut in_sh, mut line) = (false, String::new());
    for raw in doc.lines() {
        if raw.starts_with("```") {
            in_sh = raw == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        line.push_str(raw.trim_end_matches('\\').trim());
        line.push(' ');
        if !raw.ends_with('\\') {
            let cmd = std::mem::take(&mut line);
            commands.push(cmd.split(" #").next().unwrap_or("").trim().to_string());
        }
    }
    commands
}
