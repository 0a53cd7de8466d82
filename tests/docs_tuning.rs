//! Every command of docs/tuning.md runs as written, with small counts (datagen, relabel,
//! tune, train, spsa), and the datagen example line is the one its command writes first.

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

    // relabel: its selection (awk, run by sh) keeps the placement positions of standard
    // rules data; relabelled, they keep position, side and result, and deeper searches
    // change scores.
    let std = ["datagen", "--game", "morris", "--games", "2", "--nodes", "300", "--option"];
    let words: Vec<String> = [&[UGINE], &std[..], &["Morris Rules=standard", "-o", "std.data"]]
        .concat()
        .into_iter()
        .map(String::from)
        .collect();
    run(&d, &words);
    let select = doc.lines().find(|l| l.starts_with("awk ")).expect("the awk selection");
    let o = Command::new("sh").args(["-c", select]).current_dir(&d).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let relabel = of("relabel");
    assert_eq!(relabel.len(), 1, "{commands:?}");
    run(&d, &small_words(relabel[0], &[("--nodes", "3000")]));
    let all = std::fs::read_to_string(d.join("std.data")).unwrap();
    let placement = std::fs::read_to_string(d.join("placement.data")).unwrap();
    let deeper = std::fs::read_to_string(d.join("placement-300k.data")).unwrap();
    // Men in hand: the third and fourth words of a Morris position string.
    let in_hand = |l: &str| -> u32 {
        l.split_whitespace().skip(2).take(2).map(|w| w.parse::<u32>().unwrap()).sum()
    };
    let moving = all.lines().filter(|l| in_hand(l) == 0).count();
    assert!(moving > 0 && placement.lines().count() + moving == all.lines().count(), "{all}");
    assert!(placement.lines().all(|l| in_hand(l) > 0), "{placement}");
    let fields = |l: &str| -> (String, String) {
        let f: Vec<&str> = l.split(" | ").collect();
        (format!("{} | {} | {}", f[0], f[1], f[3]), f[2].to_string())
    };
    let (before, after): (Vec<_>, Vec<_>) =
        (placement.lines().map(fields).collect(), deeper.lines().map(fields).collect());
    assert_eq!(before.len(), after.len());
    assert!(before.iter().zip(&after).all(|(b, a)| b.0 == a.0), "{deeper}");
    assert!(before.iter().zip(&after).any(|(b, a)| b.1 != a.1), "some scores change");

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
    // --init: with no epoch the network comes back byte for byte; a size it does not
    // have, or --on-hand for a network that is not a correction, is refused.
    let init = |extra: &[&str]| {
        let args = ["train", "--game", "mabula", "--data", "mabula.data", "--init", "mabula.nnue"];
        let words: Vec<String> =
            [&[UGINE], &args[..], extra].concat().into_iter().map(String::from).collect();
        Command::new(&words[0]).args(&words[1..]).current_dir(&d).output().unwrap()
    };
    let o = init(&["--epochs", "0", "-o", "again.nnue"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read(d.join("again.nnue")).unwrap(),
        std::fs::read(d.join("mabula.nnue")).unwrap()
    );
    for (extra, why) in [
        (&["--hidden", "16"][..], "mabula.nnue has 8 hidden units, not --hidden 16"),
        (&["--on-hand"][..], "mabula.nnue is not a correction of the hand evaluation"),
        (&["--scale", "7"][..], "mabula.nnue has scale 100, not --scale 7"),
    ] {
        let o = init(&[extra, &["-o", "never.nnue"]].concat());
        assert!(!o.status.success() && text(&o).contains(why), "{extra:?}: {}", text(&o));
        assert!(!d.join("never.nnue").exists());
    }

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
