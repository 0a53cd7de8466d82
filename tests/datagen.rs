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
