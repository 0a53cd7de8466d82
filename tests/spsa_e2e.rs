//! `ugine spsa` end to end: real engine processes at fixed nodes, two iterations.

mod runner_util;

use runner_util::{UGINE, text, ugine};

fn spsa(params: &[&str], seed: &str) -> std::process::Output {
    let engine = format!("cmd={UGINE} arg=--tuning-options");
    let mut args = vec![
        "spsa",
        "--game",
        "morris",
        "--engine",
        &engine,
        "--iterations",
        "2",
        "--nodes",
        "300",
        "--seed",
        seed,
    ];
    for p in params {
        args.extend(["--param", p]);
    }
    ugine(&args)
}

const PARAMS: [&str; 2] =
    ["Morris Search Aspiration=50,10,200,8,0.5", "Morris Search LMR Min Move=3,1,10,1,0.5"];

#[test]
fn two_iterations_print_the_trajectory_and_the_final_values() {
    let a = spsa(&PARAMS, "3");
    assert!(a.status.success(), "{}", text(&a));
    let out = String::from_utf8_lossy(&a.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("setoption name Morris Search Aspiration value "), "{out}");
    assert!(lines[1].starts_with("setoption name Morris Search LMR Min Move value "), "{out}");
    let err = String::from_utf8_lossy(&a.stderr);
    let progress: Vec<&str> = err.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 3, "start and two iterations: {err}");
    assert!(progress[0].starts_with("[0/2] θ 50.00 3.00"), "{err}");
    assert!(progress[2].starts_with("[2/2] θ+ W-L-D "), "{err}");
    // Fixed nodes: the same seed plays the same games and ends at the same values.
    let b = spsa(&PARAMS, "3");
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(a.stderr, b.stderr);
}

#[test]
fn an_option_the_engine_lacks_or_a_range_it_refuses_stops_the_run() {
    for (param, why) in [
        ("Morris Search Aspirations=50,10,200,8,0.002", "the engine has no option"),
        ("Morris Search Aspiration=50,-10,200,8,0.002", "exceeds the engine's"),
        ("Morris Search LMR In PV=0,0,1,1,0.002", "is not a spin option"),
    ] {
        let o = spsa(&[param], "1");
        assert!(!o.status.success(), "{param}");
        assert!(text(&o).contains(why), "{param}: {}", text(&o));
        assert!(o.stdout.is_empty());
    }
}
