//! Mabula rules: setups, pushes, passes, scoring, position strings, conformance, and the
//! search on positions whose exact outcome is known.

mod common;

use common::{random_playouts, unmake_restores};
use ugine::core::{Game, MoveError, Outcome, Rng, Side, perft};
use ugine::engine::find_game;
use ugine::games::mabula::{
    Mabula, MabulaMove, MabulaOptions, Scoring, Ties, is_valid_setup, parse_setup,
};
use ugine::search::{AlphaBeta, NullReporter, SearchControl};

const START_FEN: &str = "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6W/1BBWWBB1 b";
/// The seed's scoring example: Black's groups 6·3·2·1, White's 8·2·1·1.
const SEED_EXAMPLE: &str =
    "BBWWBBWWBBWWBBWWBBWWBBWW 8/1BBBWWW1/1BBBWWW1/4WW2/1WBBB1W1/8/1BB1WWB1/8 b";
/// Black's groups 6·3·2·1, White's 6·5·1: largest groups tie.
const TIED_LARGEST: &str =
    "BBWWBBWWBBWWBBWWBBWWBBWW 8/1BBBWWW1/1BBBWWW1/8/1W1BBBW1/5WW1/1BB1WWB1/8 w";

fn default_opts() -> MabulaOptions {
    MabulaOptions::default()
}

fn pos(fen: &str) -> Mabula {
    Mabula::from_fen(fen, &default_opts()).expect("test position reads")
}

/// Why the rules ended the game of a finished position, as text.
fn reason(p: &Mabula) -> String {
    p.ending().expect("the game is over").reason.to_string()
}

fn play(p: &mut Mabula, moves: &[&str]) {
    for m in moves {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.play(mv);
    }
}

#[test]
fn startpos_string_and_perft() {
    let p = Mabula::startpos(&default_opts());
    assert_eq!(p.to_fen(), START_FEN);
    assert_eq!(p.side_to_move(), Side::P1);
    let counts: Vec<u64> = (1..=3).map(|d| p.perft(d)).collect();
    assert_eq!(counts, [72, 5104, 321_976]);
    // The bulk-counting perft agrees with the generic one.
    assert_eq!(perft(&p, 3), 321_976);
}

#[test]
fn exactly_40158_setups_are_legal() {
    let n = (0u32..1 << 24).filter(|m| m.count_ones() == 12 && is_valid_setup(*m)).count();
    assert_eq!(n, 40_158);
}

#[test]
fn bad_setups_are_refused_with_a_reason() {
    let e = parse_setup("BBBWWBBWWBBWWBBWWBBWWBWW").unwrap_err();
    assert!(e.contains("three black marbles in a row on b1 c1 d1"), "{e}");
    // The cycle wraps from a2 back to b1.
    let e = parse_setup("BWWBBWWBBWWBBWWBBWWBWWBB").unwrap_err();
    assert!(e.contains("three black marbles in a row on a3 a2 b1"), "{e}");
    let e = parse_setup("BBWWBBWWBBWWBBWWBBWWBBWB").unwrap_err();
    assert!(e.contains("13 black and 11 white"), "{e}");
    assert!(parse_setup("BBWWBBWWBBWWBBWWBBWWBBW").is_err());
    assert!(parse_setup("BBWWBBWWBBWWBBWWBBWWBBWX").is_err());
    let e = Mabula::from_fen("BBBWWBBWWBBWWBBWWBBWWBWW", &default_opts()).unwrap_err();
    assert!(e.to_string().contains("three black"), "{e}");
}

#[test]
fn bad_position_strings_are_refused() {
    let opts = default_opts();
    for bad in [
        "",
        "startpos",
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6W/1BBWWBB1",
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6W/1BBWWBB1 x",
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6W b",
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W7/1BBWWBB1 b",
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6WW/1BBWWBB1 b",
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6W/1BBWWBx1 b",
        // a marble on a corner
        "BBWWBBWWBBWWBBWWBBWWBBWW BBBWWBB1/W6W/W6W/B6B/B5/W6W/W6W/1BBWWBB1 b",
        // a black marble on a border square the setup gives White (d1)
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W2W3W/1BBBWBB1 b",
    ] {
        let e = Mabula::from_fen(bad, &opts);
        assert!(e.is_err(), "accepted '{bad}'");
    }
    let e = Mabula::from_fen(
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWBBB1/W6W/W6W/B2W3B/B7/W6W/W6W/1BBWWBB1 b",
        &opts,
    )
    .unwrap_err();
    assert!(e.to_string().contains("black marble on border square e8"), "{e}");
}

#[test]
fn a_bare_setup_is_its_start_position() {
    let p = pos("BBWWBBWWBBWWBBWWBBWWBBWW");
    assert_eq!(p.to_fen(), START_FEN);
    let w = pos("BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/B6B/B6B/W6W/W6W/1BBWWBB1 w");
    assert_eq!(w.side_to_move(), Side::P2);
    assert_ne!(w.hash(), p.hash());
}

#[test]
fn pushes_move_the_run_ahead() {
    let mut p = Mabula::startpos(&default_opts());
    // b1 (black) up file b to b5, then white a3 along rank 3 to f3.
    play(&mut p, &["b1-b5", "a3-f3"]);
    assert_eq!(p.to_fen(), "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/BB5B/B6B/5W1W/W6W/2BWWBB1 b");
    // a4 (black) to c4 pushes nothing; white h3 to f3 meets the marble on f3 at its
    // second step and pushes it to e3.
    play(&mut p, &["a4-c4", "h3-f3"]);
    assert_eq!(
        p.to_fen(),
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W6W/W6W/BB5B/2B4B/4WW2/W6W/2BWWBB1 b"
    );
    // b8 (black) down file b: with one marble (b5) in the field of file b it may travel
    // at most 5; b8-b3 meets b5 at its third step and pushes it on to b2.
    assert!(p.parse_move("b8-b2").is_err());
    play(&mut p, &["b8-b3"]);
    assert_eq!(
        p.to_fen(),
        "BBWWBBWWBBWWBBWWBBWWBBWW 2BWWBB1/W6W/W6W/B6B/2B4B/1B2WW2/WB5W/2BWWBB1 w"
    );
}

#[test]
fn a_long_push_of_a_mixed_run_stops_short_of_the_far_border() {
    // Rank 4 holds, from b4: W at c4, B at d4, W at e4 (a4 black, h4 black on the border).
    let p = pos("BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/7W/W6W/B6B/B1WBW2B/W6W/W6W/2BW1BB1 b");
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let a4: Vec<String> = moves.iter().filter(|m| m.from == 24).map(|m| m.to_string()).collect();
    assert_eq!(a4, ["a4-b4", "a4-c4", "a4-d4"]);
    let h4: Vec<String> = moves.iter().filter(|m| m.from == 31).map(|m| m.to_string()).collect();
    assert_eq!(h4, ["h4-g4", "h4-f4", "h4-e4"]);
    let mut q = p;
    play(&mut q, &["a4-d4"]);
    // The whole run W B W is pushed to e4 f4 g4; g4 is the last field square.
    assert_eq!(q.to_fen(), "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/7W/W6W/B6B/3BWBWB/W6W/W6W/2BW1BB1 w");
    let e = p.parse_move("a4-e4").unwrap_err();
    assert!(matches!(&e, MoveError::Illegal(s) if s.contains("at most 3")), "{e}");
    let mut q = p;
    play(&mut q, &["h4-e4"]);
    assert_eq!(q.to_fen(), "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/7W/W6W/B6B/BWBWB3/W6W/W6W/2BW1BB1 w");
}

#[test]
fn a_full_line_opens_again_after_a_crossing_push() {
    // File d's field d2–d7 is full: White's d1 and d8 cannot move.
    let p = pos("BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W2W3W/W2B3W/B2W3B/B2B3B/W2W4/W2B4/3W2B1 b");
    assert_eq!((p.max_push(3), p.max_push(59)), (0, 0));
    let mut q = p;
    // a4-e4 pushes d4 on to f4: d4 is empty again, and d1, d8 may push one square.
    play(&mut q, &["a4-e4"]);
    assert_eq!(
        q.to_fen(),
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W2W3W/W2B3W/B2W3B/4BB1B/W2W4/W2B4/3W2B1 w"
    );
    assert_eq!((q.max_push(3), q.max_push(59)), (1, 1));
    play(&mut q, &["d1-d2"]);
    assert_eq!(
        q.to_fen(),
        "BBWWBBWWBBWWBBWWBBWWBBWW 1BBWWBB1/W2W3W/W2B3W/B2W3B/3WBB1B/W2B4/W2W4/6B1 b"
    );
}

#[test]
fn move_errors() {
    let p = Mabula::startpos(&default_opts());
    for (text, syntax) in [
        ("", true),
        ("a3", true),
        ("a3-i3", true),
        ("pas", true),
        ("pass", false),
        ("a3-d3", false), // a3 is white, Black to move
        ("c4-d4", false), // not a border square
        ("a4-d5", false), // not on the line
        ("a4-h4", false), // the far border
    ] {
        let e = p.parse_move(text).expect_err(text);
        assert_eq!(matches!(e, MoveError::Syntax(_)), syntax, "{text}: {e}");
    }
    assert_eq!(p.parse_move("a4-g4").map(|m| m.to_string()), Ok("a4-g4".into()));
}

#[test]
fn pass_only_when_no_push() {
    let p = pos("BBWWBBWWBBWWBBWWBBWWBBWW 8/1B1W1W2/2BWW1B1/BBBWBBBB/1BWWW3/3W3W/W4BW1/8 b");
    assert!(!p.can_push(Side::P1) && p.can_push(Side::P2));
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert_eq!(moves, [MabulaMove::PASS]);
    assert!(p.parse_move("a4-b4").is_err());
    let mut q = p;
    play(&mut q, &["pass"]);
    assert_eq!(q.side_to_move(), Side::P2);
    assert!(q.outcome().is_none());
}

#[test]
fn scoring_follows_the_seed_example() {
    let mut opts = default_opts();
    let p = Mabula::from_fen(SEED_EXAMPLE, &opts).unwrap();
    assert_eq!(ugine::games::mabula::group_sizes(p.men(Side::P1)), [6, 3, 2, 1]);
    assert_eq!(ugine::games::mabula::group_sizes(p.men(Side::P2)), [8, 2, 1, 1]);
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::P2)));
    assert_eq!(reason(&p), "no push left, largest group 6-8");
    opts.scoring = Scoring::Product;
    let p = Mabula::from_fen(SEED_EXAMPLE, &opts).unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::P1)));
    assert_eq!(reason(&p), "no push left, group product 36-16");
}

#[test]
fn ties_draw_or_break() {
    let opts = |scoring, ties| MabulaOptions { scoring, ties };
    let outcome = |o: MabulaOptions| Mabula::from_fen(TIED_LARGEST, &o).unwrap().outcome();
    assert_eq!(outcome(opts(Scoring::Largest, Ties::Draw)), Some(Outcome::Draw));
    // 6,3,2,1 against 6,5,1: White's second group is larger.
    assert_eq!(outcome(opts(Scoring::Largest, Ties::Break)), Some(Outcome::Win(Side::P2)));
    // Products 36 against 30.
    assert_eq!(outcome(opts(Scoring::Product, Ties::Draw)), Some(Outcome::Win(Side::P1)));
    let why = |o: MabulaOptions| reason(&Mabula::from_fen(TIED_LARGEST, &o).unwrap());
    assert_eq!(why(opts(Scoring::Largest, Ties::Draw)), "no push left, largest group 6-6");
    assert_eq!(
        why(opts(Scoring::Largest, Ties::Break)),
        "no push left, largest group 6-6, tie broken by groups 6 3 2 1 against 6 5 1"
    );
    // A finished random game with equal largest groups (6 and 6) but different lists.
    let fen = "BBWWBBWWBBWWBBWWBBWWBBWW 8/1WBWW3/1BWWWB2/2WBWWB1/2BBBB2/2BW1BW1/2BW4/8 b";
    let o = |o: MabulaOptions| Mabula::from_fen(fen, &o).unwrap().outcome();
    assert_eq!(o(opts(Scoring::Largest, Ties::Draw)), Some(Outcome::Draw));
    assert_eq!(o(opts(Scoring::Largest, Ties::Break)), Some(Outcome::Win(Side::P2)));
    // The finished games of the perft file, as scripts/mabula_reference.py scores them.
    let fen = "BWWBWBWWBWBBWBWBWBWBWBBW 8/1W1B2W1/1BWBB1B1/1WBW1W2/2B2BB1/1WBWWB2/1BWWW3/8 b";
    let o = |o: MabulaOptions| Mabula::from_fen(fen, &o).unwrap().outcome();
    assert_eq!(o(opts(Scoring::Largest, Ties::Draw)), Some(Outcome::Win(Side::P2)));
    assert_eq!(o(opts(Scoring::Product, Ties::Draw)), Some(Outcome::Win(Side::P1)));
}

#[test]
fn random_setups_are_legal_and_reproducible() {
    let opts = default_opts();
    let draw = |seed| {
        let mut rng = Rng::new(seed);
        (0..50).map(|_| Mabula::random(&opts, &mut rng).to_fen()).collect::<Vec<_>>()
    };
    let a = draw(42);
    assert_eq!(a, draw(42));
    assert_ne!(a, draw(43));
    for fen in &a {
        let p = Mabula::from_fen(fen, &opts).expect("random setup reads back");
        assert_eq!(p.side_to_move(), Side::P1);
        assert_eq!(p.perft(1), 72);
        assert!(is_valid_setup(p.setup()));
    }
    // The session hook used by `ugine genfens`.
    let session = (find_game("mabula").unwrap().make)(1);
    let fen = session.random_setup_fen(&mut Rng::new(1)).expect("mabula has random setups");
    assert!(Mabula::from_fen(&fen, &opts).is_ok());
}

#[test]
fn conformance_default_rules() {
    random_playouts::<Mabula>(&default_opts(), 200, 60, 1);
    unmake_restores::<Mabula>(&default_opts(), 20, 2);
}

#[test]
fn conformance_from_random_setups() {
    let opts = MabulaOptions { scoring: Scoring::Product, ties: Ties::Break };
    let mut rng = Rng::new(9);
    let mut moves = Vec::new();
    for _ in 0..200 {
        let mut p = Mabula::random(&opts, &mut rng);
        let mut plies = 0;
        let mut pushes = 0;
        loop {
            moves.clear();
            p.generate_moves(&mut moves);
            assert_eq!(moves.is_empty(), p.outcome().is_some());
            if moves.is_empty() {
                break;
            }
            let fen = p.to_fen();
            let re = Mabula::from_fen(&fen, &opts).unwrap();
            assert_eq!((re.to_fen(), re.hash()), (fen, p.hash()));
            let mv = *rng.choose(&moves);
            pushes += !mv.is_pass() as u32;
            p.play(mv);
            plies += 1;
        }
        assert!(pushes <= 24 && plies <= 48);
        // Every marble that left the border is in the field; none is on a corner.
        assert_eq!((p.men(Side::P1).count_ones(), p.men(Side::P2).count_ones()), (12, 12));
    }
}

/// The exact value (+1 win, 0 draw, -1 loss for the side to move) by plain minimax.
fn minimax(p: &Mabula) -> i32 {
    if let Some(o) = p.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == p.side_to_move() => 1,
            Outcome::Win(_) => -1,
        };
    }
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *p;
            c.play(m);
            -minimax(&c)
        })
        .max()
        .expect("not over")
}

#[test]
fn search_solves_late_positions_exactly() {
    let opts = default_opts();
    let mut rng = Rng::new(3);
    let mut checked = [0; 3];
    let mut search = AlphaBeta::<Mabula>::new(4);
    for _ in 0..40 {
        let mut p = Mabula::random(&opts, &mut rng);
        // Play randomly until few live border marbles remain.
        let mut moves = Vec::new();
        while p.outcome().is_none() && p.border_marbles() > 6 {
            moves.clear();
            p.generate_moves(&mut moves);
            p.play(*rng.choose(&moves));
        }
        if p.outcome().is_some() {
            continue;
        }
        let exact = minimax(&p);
        let r = search.run(&p, &SearchControl::unlimited(), &mut NullReporter);
        assert!(r.solved, "{}", p.to_fen());
        let found = r.score().signum();
        assert_eq!(found, exact, "{}", p.to_fen());
        let mut after = p;
        after.play(r.best());
        assert_eq!(-minimax(&after), exact, "best move {} keeps the value", r.best());
        checked[(exact + 1) as usize] += 1;
    }
    assert!(checked.iter().all(|&n| n > 0), "losses, draws, wins: {checked:?}");
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let p = pos("BWWBWBWWBWBBWBWBWBWBWBBW 2W3W1/1W1B3B/BB5B/W6W/B7/B1WBWB2/1W2WB1W/1B1W1WB1 b");
    let run = || {
        let mut s = AlphaBeta::<Mabula>::new(4);
        let r = s.run(&p, &SearchControl::fixed(Some(3), None), &mut NullReporter);
        (r.best(), r.score(), r.nodes)
    };
    let a = run();
    assert_eq!(a, run());
    assert!(p.parse_move(&a.0.to_string()).is_ok());
}

/// Keeps what a search reports.
#[derive(Default)]
struct Recorder {
    infos: Vec<ugine::search::SearchInfo>,
    notes: Vec<String>,
}

impl ugine::search::Reporter for Recorder {
    fn info(&mut self, info: &ugine::search::SearchInfo) {
        self.infos.push(info.clone());
    }
    fn note(&mut self, text: &str) {
        self.notes.push(text.to_string());
    }
}

#[test]
fn solved_positions_are_reported_as_mate() {
    use ugine::search::Score;
    // White wins: e1-e3, Black must pass, a2-c2 ends the game with White's group larger.
    let p = pos("BBWWBBWWBBWWBBWWBBWWBBWW 2B5/2BB4/2WWB3/1WBWW3/1BWWBBB1/2WWBW2/W1B2B2/4W3 w");
    let mut rec = Recorder::default();
    let r = AlphaBeta::<Mabula>::new(1).run(&p, &SearchControl::unlimited(), &mut rec);
    let last = rec.infos.last().expect("an info line");
    assert_eq!((last.score, r.best().to_string()), (Score::Mate(2), "e1-e3".to_string()));
    assert_eq!(last.pv, ["e1-e3", "pass", "a2-c2"]);
    assert!(r.solved);
    assert_eq!(rec.notes, ["solved: win in 3 plies"]);
    // After e1-e3 Black can only pass, and is lost.
    let mut q = p;
    play(&mut q, &["e1-e3"]);
    let mut rec = Recorder::default();
    let r = AlphaBeta::<Mabula>::new(1).run(&q, &SearchControl::unlimited(), &mut rec);
    assert_eq!(r.best(), MabulaMove::PASS);
    assert_eq!(rec.infos.last().map(|i| i.score), Some(Score::Mate(-1)));
}

#[test]
fn session_plays_through_the_registry() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use ugine::core::Limits;

    let mut session = (find_game("mabula").unwrap().make)(1);
    assert_eq!(session.game_name(), "mabula");
    let names: Vec<&str> = session.rule_option_specs().iter().map(|s| s.name).collect();
    assert_eq!(names, ["Mabula Scoring", "Mabula Ties"]);
    session.set_position(None, &["b1-b5", "a3-f3"]).unwrap();
    assert_eq!(session.side_to_move(), Side::P1);
    assert!(session.set_position(None, &["b1-b5", "b8-b2"]).is_err());
    // The failed line left the previous position in place: 11 black border marbles, of
    // which b8 and f1, f8 (files b and f) and a5, h5 (rank 5) have one marble in their line.
    assert_eq!(session.legal_moves().len(), 11 * 6 - 5);
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = session
        .start_search(
            Limits::depth(3),
            std::time::Duration::ZERO,
            Arc::new(AtomicBool::new(false)),
            Box::new(NullReporter),
            Box::new(move |best| tx.send(best).unwrap()),
        )
        .unwrap();
    handle.join().unwrap();
    let best = rx.recv().unwrap();
    assert!(session.legal_moves().contains(&best), "{best}");
}
