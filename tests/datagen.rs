//! `ugine datagen`: its options are checked before any game is played, and a network
//! set with `--setoption` plays the games (the data of the next generation).

mod runner_util;

use runner_util::{scratch, text, ugine};

/// A network committed with the project (`nets/README.md`).
const MABULA_NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/mabula-64-2026-11-27.nnue");

/// Two Mabula games at 300 simulations a move, with `extra` arguments, into `out`.
fn datagen(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let out = out.to_str().unwrap();
    let args = ["datagen", "--game", "mabula", "--games", "2", "--nodes", "300", "-o", out];
    ugine(&[&args[..], extra].concat())
}

#[test]
fn bad_options_stop_datagen_before_any_game() {
    let d = scratch("datagen-bad");
    let out = d.join("never.data");
    let missing = d.join("missing.nnue");
    let missing = format!("Mabula EvalFile={}", missing.display());
    for (extra, why) in [
        (vec!["--option", "Hash=4"], "'Hash' is not a rule option of mabula"),
        (vec!["--setoption", "Morris EvalFile=x.nnue"], "not a search option of mabula"),
        (vec!["--setoption", missing.as_str()], "missing.nnue"),
        (vec!["--setoption", "Mabula EvalFile Weight=5000"], "5000"),
    ] {
        let o = datagen(&out, &extra);
        assert!(!o.status.success(), "{extra:?} was accepted:\n{}", text(&o));
        assert!(text(&o).contains(why), "{extra:?}: {}", text(&o));
        assert!(!out.exists(), "{extra:?}: nothing is written");
    }
}

#[test]
fn a_network_set_with_setoption_plays_the_games() {
    let d = scratch("datagen-net");
    let net = format!("Mabula EvalFile={MABULA_NET}");
    let run = |name: &str, extra: &[&str]| -> String {
        let path = d.join(name);
        let o = datagen(&path, extra);
        assert!(o.status.success(), "{}", text(&o));
        std::fs::read_to_string(path).unwrap()
    };
    let playouts = run("playouts.data", &[]);
    let guided =
        run("net.data", &["--setoption", &net, "--setoption", "mabula evalfile weight=1000"]);
    assert_ne!(guided, playouts, "the network changes the games");
    let again =
        run("net2.data", &["--setoption", &net, "--setoption", "Mabula EvalFile Weight=1000"]);
    assert_eq!(again, guided, "the same settings write the same data");
}

/// Morpiae's search plays with a contempt, which scores drawish positions down for the
/// side it plays: in self-play, the side to move. Its data are labelled without it unless
/// `--setoption` asks, so that an opening without captures in reach scores 0 for both
/// sides to move rather than below 0 for each.
#[test]
fn datagen_labels_without_the_searchs_contempt() {
    let d = scratch("datagen-contempt");
    let out = d.join("m.data");
    let first_scores = |extra: &[&str]| -> Vec<i32> {
        let o_s = out.to_str().unwrap();
        let args = ["datagen", "--game", "morpiae", "--games", "1", "--nodes", "2000"];
        let o = ugine(&[&args[..], &["--seed", "3", "-o", o_s], extra].concat());
        assert!(o.status.success(), "{}", text(&o));
        let data = std::fs::read_to_string(&out).unwrap();
        data.lines().take(6).map(|l| l.split(" | ").nth(2).unwrap().parse().unwrap()).collect()
    };
    assert_eq!(first_scores(&[]), vec![0; 6]);
    let with_contempt = first_scores(&["--setoption", "Morpiae Search Contempt=30"]);
    assert!(with_contempt.iter().all(|&s| s < 0), "{with_contempt:?}");
}

/// `ugine relabel` of `data` (written to a file first) at 500 nodes (unless `extra`
/// says), with `extra`.
fn relabel(dir: &std::path::Path, data: &str, extra: &[&str]) -> (std::process::Output, String) {
    let (input, out) = (dir.join("in.data"), dir.join("out.data"));
    std::fs::write(&input, data).unwrap();
    let _ = std::fs::remove_file(&out);
    let (input, out_s) = (input.to_str().unwrap(), out.to_str().unwrap());
    let args = ["relabel", "--game", "morris", "--data", input, "-o", out_s];
    let nodes: &[&str] = if extra.contains(&"--nodes") { &[] } else { &["--nodes", "500"] };
    let o = ugine(&[&args[..], nodes, extra].concat());
    (o, std::fs::read_to_string(&out).unwrap_or_default())
}

#[test]
fn relabel_rescores_positions_keeps_the_rest_and_refuses_bad_lines() {
    let d = scratch("relabel");
    let good = "# a comment\n\
                BW1/3/3/1BWB2/1W1/3/1WB w 5 5 0 | p1 | 176 | p1win\n\
                1W1/B2/3/BW4/3/3/2W b 6 7 0 | p2 | -999 | draw | exact\n\
                1W1/B2/3/BW4/3/3/2W b 6 7 0 | p2 | -999 | draw\n";
    let (o, one) = relabel(&d, good, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 4, "{one}");
    assert_eq!(
        lines[..3],
        ["# a comment", lines[1], "1W1/B2/3/BW4/3/3/2W b 6 7 0 | p2 | -999 | draw | exact"]
    );
    assert!(lines[1].starts_with("BW1/3/3/1BWB2/1W1/3/1WB w 5 5 0 | p1 | "), "{one}");
    assert!(lines[1].ends_with(" | p1win"), "{one}");
    assert!(lines[3].starts_with("1W1/B2/3/BW4/3/3/2W b 6 7 0 | p2 | "), "{one}");
    assert_ne!(lines[3], "1W1/B2/3/BW4/3/3/2W b 6 7 0 | p2 | -999 | draw", "a new score");
    // The closing summary compares the old scores (176, -999) with the new ones.
    let new: Vec<i32> = [lines[1], lines[3]]
        .iter()
        .map(|l| l.split(" | ").nth(2).unwrap().parse().expect("a centipawn score"))
        .collect();
    let changes = [new[0].abs_diff(176), new[1].abs_diff(-999)];
    let flips = usize::from(new[0] < -30) + usize::from(new[1] > 30);
    let summary = format!(
        "2 positions searched again, 2 lines kept as they were; of 2 scores, the mean change \
         {:.1}, {} moved by 100 or more, {flips} changed sign beyond ±30",
        (changes[0] + changes[1]) as f64 / 2.0,
        changes.iter().filter(|&&c| c >= 100).count(),
    );
    assert!(text(&o).contains(&summary), "{summary}\n{}", text(&o));
    let (o, two) = relabel(&d, good, &["--concurrency", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(two, one, "the same lines whatever the concurrency");

    for (data, why) in [
        ("BW1/3/3/1BWB2/1W1/3/1WB w 5 5 0 | p1 | 176\n", "in.data:1: expected 'position | side"),
        (
            "BW1/3/3/1BWB2/1W1/3/1WB w 5 5 0 | p2 | 176 | p1win\n",
            "says p2 to move, its position p1",
        ),
        ("BW1/3/3/1BWB2/1W1/3/1WB w 5 5 0 | p1 | 176 | won\n", "unknown result 'won'"),
        ("ZZ/3 w 5 5 0 | p1 | 176 | p1win\n", "in.data:1"),
        ("# option Morris Rules=standard\n", "give rule options with --option"),
    ] {
        let (o, _) = relabel(&d, data, &[]);
        assert!(!o.status.success(), "{data} was accepted");
        assert!(text(&o).contains(why), "{data}: {}", text(&o));
    }
    let (o, _) = relabel(&d, good, &["--nodes", "0"]);
    assert!(text(&o).contains("--nodes must be at least 1"), "{}", text(&o));
}
