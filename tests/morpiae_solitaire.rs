//! Morpion Solitaire helpers: replaying a line and writing it as a replayable game.

use ugine::core::{Game, MoveError};
use ugine::engine::find_game;
use ugine::games::morpiae::solitaire::{game_text, replay};
use ugine::games::morpiae::{Morpiae, MorpiaeOptions, Variant};

#[test]
fn a_line_is_written_as_ugi_commands_that_replay_it() {
    let pos = Morpiae::startpos(&MorpiaeOptions { variant: Variant::Disjoint });
    let moves =
        vec![pos.parse_move("4,3,H,4").expect("legal"), pos.parse_move("5,6,H,0").expect("legal")];
    let text = game_text(Variant::Disjoint, &moves).expect("legal line");
    assert!(text.contains("setoption name Morpiae Variant value 5D"));
    let line = text.lines().find(|l| l.starts_with("position ")).expect("position line");
    assert_eq!(line, "position startpos moves 4,3,H,4 5,6,H,0");
    // The session replays the same moves to the same position string.
    let entry = find_game("morpiae").expect("registered");
    let mut session = (entry.make)(1);
    let spec = session.rule_option_specs().into_iter().next().expect("variant option");
    session.set_rule_option(spec.name, &spec.parse_value("5D").expect("5D")).expect("set");
    session.set_position(None, &["4,3,H,4", "5,6,H,0"]).expect("replays");
    let fen = replay(Variant::Disjoint, &moves).expect("legal").to_fen();
    assert_eq!(session.fen(), fen);
    assert!(text.contains(&format!("# position string: {fen}")));
}

#[test]
fn an_illegal_line_is_refused() {
    let pos = Morpiae::startpos(&MorpiaeOptions::default());
    let mv = pos.parse_move("4,3,H,4").expect("legal");
    let err = replay(Variant::Touching, &[mv, mv]).expect_err("twice is illegal");
    assert!(err.contains("move 2"), "{err}");
    assert!(matches!(pos.parse_move("4,3,H,3"), Err(MoveError::Illegal(_))));
}

/// A short search with two threads returns a whole game: legal from the start, with no
/// line left to draw at its end, and each improvement reported is no longer than it.
#[test]
fn the_search_returns_a_finished_legal_game() {
    use std::sync::Mutex;
    use std::time::Duration;
    use ugine::games::morpiae::solitaire::search_solitaire;
    for variant in [Variant::Disjoint, Variant::Touching] {
        let reported = Mutex::new(Vec::new());
        let found = search_solitaire(variant, Duration::from_millis(300), 5, 2, 2, 100, &|n| {
            reported.lock().unwrap().push(n)
        });
        let end = replay(variant, &found.moves).expect("a legal game");
        assert!(end.legal_moves().is_empty(), "{variant:?}: the game is not over");
        assert!(found.moves.len() >= 20, "{variant:?}: {} moves", found.moves.len());
        let reported = reported.into_inner().unwrap();
        assert_eq!(reported.iter().max(), Some(&found.moves.len()));
        assert!(found.playouts > 0);
    }
}

/// The 82-move 5D game that `ugine morpion --variant 5D --time 600 --threads 2 --seed 3
/// --level 4 --iterations 50` found (the length of the 5D record, C. Rosin 2011): every
/// line legal from the cross and none left at its end, the file's position string being
/// the engine's. `scripts/morpiae_reference.py solitaire` replays the same file.
#[test]
fn the_82_move_5d_game_found_by_the_search_replays_to_its_end() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/morpion-5d-82.txt"
    ))
    .expect("the game file");
    assert!(text.contains("setoption name Morpiae Variant value 5D"));
    let line = text.lines().find(|l| l.starts_with("position startpos moves ")).expect("moves");
    let words: Vec<&str> = line.split_whitespace().skip(3).collect();
    assert_eq!(words.len(), 82);
    let mut pos = Morpiae::startpos(&MorpiaeOptions { variant: Variant::Disjoint });
    let moves: Vec<_> = words
        .iter()
        .map(|w| {
            let mv = pos.parse_move(w).unwrap_or_else(|e| panic!("{w}: {e:?}"));
            pos.play(mv);
            mv
        })
        .collect();
    assert!(pos.legal_moves().is_empty(), "lines left after 82 moves");
    assert!(text.contains(&format!("# position string: {}", pos.to_fen())));
    // The writer gives back the same file, comments and all.
    assert_eq!(game_text(Variant::Disjoint, &moves).expect("legal"), text);
}
