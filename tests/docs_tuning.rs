//! Every command of docs/tuning.md runs as written, with small counts (datagen, tune,
//! train, spsa), and the datagen example line is the one its command writes first.

mod runner_util;

use std::path::Path;
use std::process::Command;

use runner_util::{UGINE, scratch, sh_commands, text};

/// The words of `cmd` with the program replaced by the built binary and each count
/// after a flag in `small` replaced by its small value.
fn small_words(cmd: &str, small: &[(&str, &str)]) -> Vec<String> {
    let cmd = cmd.replacen("$U ", "ugine ", 1).replace("cmd=$U", &format!("cmd={UGINE}"));
    let mut words = ugine::core::words::split_words(&cmd).unwrap();
    words[0] = UGINE.to_string();
    for i in 1..words.len() {
        if let Some((_, v)) = small.iter().find(|(flag, _)| words[i - 1] == *flag) {
            words[i] = v.to_string();
        }
    }
    words
}

fn run(dir: &Path, words: &[String]) -> String {
    let o = Command::new(&words[0]).args(&words[1..]).current_dir(dir).output().unwrap();
    assert!(o.status.success(), "ran {words:?}\n{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_tuning_docs_examples_run_and_show_what_the_commands_write() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tuning.md"))
        .unwrap();
    let commands: Vec<String> = sh_commands(&doc)
        .into_iter()
        .filter(|c| c.starts_with("ugine ") || c.starts_with("$U "))
        .collect();
    let d = scratch("docs-tuning");
    let of = |sub: &str| -> Vec<&String> {
        commands.iter().filter(|c| c.contains(&format!(" {sub} "))).collect()
    };
    let (datagen, tune, train, spsa) = (of("datagen"), of("tune"), of("train"), of("spsa"));
    assert_eq!((datagen.len(), tune.len(), train.len(), spsa.len()), (1, 2, 1, 1), "{commands:?}");

    // datagen: one game is enough to see the first line, which the example shows.
    run(&d, &small_words(datagen[0], &[("--games", "1")]));
    let written = std::fs::read_to_string(d.join("morris.data")).unwrap();
    let first = written.lines().next().unwrap();
    let example = doc.lines().find(|l| l.contains(" | p1 | ") && !l.contains('<')).unwrap();
    assert_eq!(first, example.trim(), "docs/tuning.md's example line");

    // tune: the first example rewrites the game's weight file, under the directory it
    // runs in; the second prints the table.
    std::fs::create_dir_all(d.join("src/games/morris")).unwrap();
    run(&d, &small_words(tune[0], &[]));
    assert!(d.join("src/games/morris/weights.rs").exists());
    assert!(run(&d, &small_words(tune[1], &[])).contains("pub const"));

    // train: Mabula data from datagen stands for both of the example's files.
    let mabula = ["datagen", "--game", "mabula", "--games", "2", "--nodes", "300", "-o"];
    let words: Vec<String> =
        [&[UGINE], &mabula[..], &["mabula.data"]].concat().into_iter().map(String::from).collect();
    run(&d, &words);
    std::fs::copy(d.join("mabula.data"), d.join("labels.data")).unwrap();
    run(&d, &small_words(train[0], &[("--epochs", "1"), ("--hidden", "8")]));
    assert!(d.join("mabula.nnue").exists());

    // tunables: the knobs as --param lines, the first as the example shows it.
    let tunables = of("tunables");
    assert_eq!(tunables.len(), 1, "{commands:?}");
    let out = run(&d, &small_words(tunables[0], &[]));
    let first = doc.lines().find(|l| l.starts_with("Morris Search Aspiration=")).unwrap();
    assert_eq!(out.lines().next(), Some(first), "{out}");
    assert!(out.lines().all(|l| l.matches(',').count() == 4), "{out}");

    // spsa: two iterations at few nodes end with one setoption line per parameter.
    let out = run(&d, &small_words(spsa[0], &[("--iterations", "2"), ("--nodes", "300")]));
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("setoption name ")).collect();
    assert_eq!(lines.len(), 2, "{out}");
}
