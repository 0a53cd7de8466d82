//! The generic perft test: reads every `tests/data/perft/<game>.perft` file and checks
//! each count through the engine's game registry.
//!
//! File format, one entry per line, `#` starts a comment:
//! `id | options | position | depth:count depth:count …`
//! where options is `-` or `Name=Value;Name=Value` (`setoption` names and values) and
//! position is `startpos` or a position string. Counts above [`CAP`] are skipped unless
//! `UGINE_PERFT_FULL=1` is set (debug builds are slow).

use ugine::engine::find_game;

const CAP: u64 = 3_000_000;

#[test]
fn perft_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft");
    let full = std::env::var("UGINE_PERFT_FULL").is_ok_and(|v| v == "1");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("perft data folder") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_none_or(|e| e != "perft") {
            continue;
        }
        let game = path.file_stem().and_then(|s| s.to_str()).expect("file name");
        let entry = find_game(game).unwrap_or_else(|| panic!("unknown game {game}"));
        let make = entry.make;
        let text = std::fs::read_to_string(&path).expect("read perft file");
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(fields.len(), 4, "{game}.perft line {}: 4 fields", n + 1);
            let (id, options, position, counts) = (fields[0], fields[1], fields[2], fields[3]);
            let mut session = make(1);
            if options != "-" {
                for opt in options.split(';') {
                    let (name, value) = opt.split_once('=').expect("Name=Value");
                    let spec = session
                        .rule_option_specs()
                        .into_iter()
                        .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
                        .unwrap_or_else(|| panic!("{id}: unknown option {name}"));
                    let value = spec.parse_value(value).expect("valid option value");
                    session.set_rule_option(spec.name, &value).expect("option applies");
                }
            }
            let fen = (position != "startpos").then_some(position);
            session.set_position(fen, &[]).unwrap_or_else(|e| panic!("{id}: {e}"));
            for dc in counts.split_whitespace() {
                let (d, c) = dc.split_once(':').expect("depth:count");
                let (d, c): (u32, u64) = (d.parse().expect("depth"), c.parse().expect("count"));
                if c > CAP && !full {
                    continue;
                }
                assert_eq!(session.perft(d), c, "{game} {id} depth {d}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no perft entries checked");
}

/// `ugine perft`'s node count line for `args`.
fn perft_command(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ugine"))
        .arg("perft")
        .args(args)
        .output()
        .expect("run ugine perft");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "ugine perft {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    text.lines().find(|l| l.starts_with("Nodes searched")).expect("a count").to_string()
}

#[test]
fn perft_command_takes_moves_that_start_with_a_minus_sign() {
    // Morpiae's line -1,6,H,0 has a negative coordinate; the position after it differs
    // from the start (28 lines at depth 1 from the start).
    let one_word = perft_command(&["--game", "morpiae", "--moves=-1,6,H,0", "--depth", "2"]);
    assert_ne!(one_word, perft_command(&["--game", "morpiae", "--depth", "2"]));
    for args in [
        ["--game", "morpiae", "--moves", "-1,6,H,0", "--depth", "2"],
        ["--game", "morpiae", "--depth", "2", "--moves", "-1,6,H,0"],
    ] {
        assert_eq!(perft_command(&args), one_word, "{args:?}");
    }
    // Several moves after one `--moves`, up to the next option.
    let two = perft_command(&["--game", "morris", "--moves", "a1", "d1", "--depth", "2"]);
    assert_eq!(
        two,
        perft_command(&["--game", "morris", "--moves=a1", "--moves=d1", "--depth", "2"])
    );
    assert_ne!(two, perft_command(&["--game", "morris", "--moves", "a1", "--depth", "2"]));
}
