//! Morris endgame databases: tiny classes built from scratch, checked for consistency,
//! against plain minimax search, and probed through position strings.

use std::path::PathBuf;

use ugine::core::{Game, Limits, OptionValue, Side};
use ugine::games::morris::db::build::build;
use ugine::games::morris::db::crosscheck::crosscheck_class;
use ugine::games::morris::db::file::class_path;
use ugine::games::morris::db::plain::{
    crosscheck_three_against_three, positions, solve_three_against_three,
};
use ugine::games::morris::db::solve::solve;
use ugine::games::morris::db::verify::verify_class;
use ugine::games::morris::db::{Class, DbValue, MorrisDb};
use ugine::games::morris::{Morris, MorrisOptions, MorrisRules, MorrisSearch};
use ugine::search::{Reporter, Score, SearchControl, SearchInfo, Searcher};

const C33: Class = Class { own: 3, opp: 3 };

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ugine-morris-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn built(rules: MorrisRules, name: &str) -> (MorrisDb, PathBuf) {
    let dir = temp_dir(name);
    build(&dir, rules, 3, 2, false).expect("build");
    let (db, errors) = MorrisDb::open(&dir, rules);
    assert!(errors.is_empty(), "{errors:?}");
    (db, dir)
}

#[test]
fn three_against_three_is_consistent_and_agrees_with_minimax() {
    for (rules, name, depth) in
        [(MorrisRules::Seed, "seed", 5), (MorrisRules::Standard, "standard", 3)]
    {
        let (db, dir) = built(rules, name);
        assert_eq!(db.classes().collect::<Vec<_>>(), vec![C33]);
        let (bad, samples) = verify_class(&db, C33, 2, false);
        assert_eq!(bad, 0, "{samples:?}");
        let check = crosscheck_class(&db, C33, 300, depth, 42);
        assert!(check.mismatches.is_empty(), "{:?}", check.mismatches);
        // The sample must exercise both outcomes of the comparison.
        assert!(check.decided > 10 && check.decided < check.checked, "{check:?}");
        // Resuming skips the built class: its file is not rewritten.
        let path = class_path(&dir, rules, C33);
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        build(&dir, rules, 3, 2, false).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), before);
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// The second, plain solver agrees with the database on every 3-against-3 position of
/// the seed rules (the standard rules' full comparison runs in `.ci/run` on the release
/// binary: flying makes it slow in a test build). The plain solver itself is checked on
/// hand-solved positions first, so that an agreement of two wrong answers cannot pass.
#[test]
fn three_against_three_agrees_with_the_plain_solver_everywhere() {
    let keys = positions();
    assert_eq!(keys.len(), 2 * 2024 * 1330, "C(24,3) x C(21,3) x side to move");
    let values = solve_three_against_three(MorrisRules::Seed, &keys);
    let value_of = |fen: &str| {
        let p = Morris::from_fen(fen, &MorrisOptions::default()).unwrap();
        let k = p.men(Side::P1) as u64
            | (p.men(Side::P2) as u64) << 24
            | ((p.side_to_move() == Side::P2) as u64) << 48;
        values[keys.binary_search(&k).unwrap()]
    };
    // White closes a7-d7-g7 with g4-g7 and takes a man: Black is left with two.
    assert_eq!(value_of("WW1/BB1/B2/5W/3/3/3 w 0 0 0"), DbValue::Win(1));
    // The same mill when Black's men all stand in a mill: under the seed rules it takes
    // nothing, so it does not win at once.
    assert_ne!(value_of("WW1/BBB/3/5W/3/3/3 w 0 0 0"), DbValue::Win(1));
    // Black to move with every man blocked has lost.
    assert_eq!(value_of("BBB/1W1/3/W4W/3/3/3 b 0 0 0"), DbValue::Loss(0));

    let (db, dir) = built(MorrisRules::Seed, "plain");
    let check = crosscheck_three_against_three(&db);
    assert_eq!(check.checked, keys.len() as u64);
    assert!(
        check.mismatches.is_empty(),
        "{:?}",
        &check.mismatches[..5.min(check.mismatches.len())]
    );
    // Both wins and draws occur, so the comparison tests both.
    assert!(check.decided > 1_000_000 && check.decided < check.checked, "{check:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Classes with more men, built here (up to 4 men per side, and 5 against 3 from 4
/// against 3), on random positions against the depth-limited search: every value of
/// distance within the depth is found by the search with the same distance, and the search
/// proves nothing else.
#[test]
fn larger_classes_agree_with_search() {
    for (rules, name, depth, samples) in
        [(MorrisRules::Seed, "larger-seed", 7, 600), (MorrisRules::Standard, "larger-std", 5, 300)]
    {
        let dir = temp_dir(name);
        build(&dir, rules, 4, 2, false).expect("build");
        let (mut db, errors) = MorrisDb::open(&dir, rules);
        assert!(errors.is_empty(), "{errors:?}");
        for (class, table) in solve(&db, Class { own: 5, opp: 3 }, 2, false) {
            db.insert(class, table);
        }
        let mut decided = 0;
        for (own, opp) in [(4, 3), (3, 4), (4, 4), (5, 3), (3, 5)] {
            let class = Class { own, opp };
            let check = crosscheck_class(&db, class, samples, depth, 7);
            assert!(check.mismatches.is_empty(), "{class:?}: {:?}", check.mismatches);
            assert!(check.decided < check.checked, "{class:?}: {check:?}");
            decided += check.decided;
        }
        // The sample must exercise both outcomes of the comparison.
        assert!(decided > 50, "{name}: {decided} decided");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn probing_game_positions_gives_values_and_best_moves() {
    let (db, dir) = built(MorrisRules::Seed, "probe");
    let opts = MorrisOptions { repetition: 0, move_limit: 0, ..MorrisOptions::default() };
    // White closes the mill a7-d7-g7 by d6-d7 and takes a man: Black is left with two.
    let mut pos = Morris::from_fen("W1W/1W1/3/B5/B2/3/B2 w 0 0 0", &opts).unwrap();
    assert_eq!(db.probe(&pos), Some(DbValue::Win(1)));
    let (mv, v) = db.best_move(&pos).unwrap();
    assert_eq!((mv.to_string().starts_with("d6-d7x"), v), (true, DbValue::Win(1)));
    // After any move the value seen by the other side is one ply further, reversed.
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for m in moves {
        let mut next = pos.clone();
        next.play(m);
        if next.outcome().is_none() {
            let after = db.probe(&next).unwrap().before();
            assert!(after.preference() <= v.preference(), "{m}: {after}");
        }
    }
    // A position with men in hand or under other rules is not covered.
    pos = Morris::from_fen("W1W/1W1/3/B5/B2/3/B2 w 1 0 0", &opts).unwrap();
    assert_eq!(db.probe(&pos), None);
    let standard = MorrisOptions { rules: MorrisRules::Standard, ..opts };
    pos = Morris::from_fen("W1W/1W1/3/B5/B2/3/B2 w 0 0 0", &standard).unwrap();
    assert_eq!(db.probe(&pos), None);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_damaged_file_is_refused() {
    let dir = temp_dir("damaged");
    build(&dir, MorrisRules::Seed, 3, 1, false).unwrap();
    let path = class_path(&dir, MorrisRules::Seed, C33);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let (db, errors) = MorrisDb::open(&dir, MorrisRules::Seed);
    assert_eq!((db.classes().count(), errors.len()), (0, 1));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Collects what a search reports.
#[derive(Default)]
struct Collect {
    notes: Vec<String>,
    scores: Vec<Score>,
}

impl Reporter for Collect {
    fn info(&mut self, info: &SearchInfo) {
        self.scores.push(info.score);
    }
    fn note(&mut self, text: &str) {
        self.notes.push(text.to_string());
    }
}

#[test]
fn the_search_plays_the_database_move_and_says_so() {
    let (db, dir) = built(MorrisRules::Seed, "search");
    let mut search = MorrisSearch::new(1);
    let path = OptionValue::Text(dir.to_str().unwrap().to_string());
    search.set_option("Morris DB Path", &path).unwrap();
    let pos =
        Morris::from_fen("W2/1B1/3/1W2B1/3/B1W/3 w 0 0 10", &MorrisOptions::default()).unwrap();
    let mut roots = Vec::new();
    pos.generate_moves(&mut roots);
    let mut seen = Collect::default();
    let ctl = SearchControl::fixed(Some(3), None);
    let mv = search.search(&pos, &roots, &Limits::depth(3), &ctl, &mut seen);
    let (best, value) = db.best_move(&pos).unwrap();
    assert_eq!((mv, value), (best, DbValue::Win(7)));
    assert!(seen.notes[0].contains("seed classes 3v3; standard classes none"), "{:?}", seen.notes);
    assert_eq!(seen.notes[1], "Morris DB class 3v3: Win(7), playing its move");
    assert_eq!(seen.scores, vec![Score::Mate(4)]);
    // 3 quiet plies before the move-limit draw: the win no longer counts as exact.
    let pos =
        Morris::from_fen("W2/1B1/3/1W2B1/3/B1W/3 w 0 0 97", &MorrisOptions::default()).unwrap();
    let mut seen = Collect::default();
    search.search(&pos, &roots, &Limits::depth(3), &ctl, &mut seen);
    assert_eq!(seen.notes, vec!["Morris DB class 3v3: LikelyWin(7), playing its move"]);
    assert!(matches!(seen.scores[..], [Score::Cp(s)] if s > 28_000));
    std::fs::remove_dir_all(dir).unwrap();
}
