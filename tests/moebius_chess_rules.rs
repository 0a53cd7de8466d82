//! Moebius Chess rules: the spec's perft counts, notation, position strings, the check
//! rules, the draw rules, and conformance on random playouts under every option.

mod common;

use common::{random_playouts, unmake_restores};
use ugine::core::{EndReason, Game, Limits, MoveError, Outcome, Reversible, Side};
use ugine::games::moebius_chess::{CheckRule, MoebiusChess, MoebiusOptions, PawnPhasing};
use ugine::search::{
    AlphaBeta, NullReporter, Reporter, Score, SearchControl, SearchInfo, Searcher,
};

fn opts(rule: CheckRule) -> MoebiusOptions {
    MoebiusOptions { check_rule: rule, ..MoebiusOptions::default() }
}

fn start() -> MoebiusChess {
    MoebiusChess::startpos(&MoebiusOptions::default())
}

/// Why the rules ended the game of a finished position.
fn reason(pos: &MoebiusChess) -> EndReason {
    pos.ending().expect("the game is over").reason
}

fn play(pos: &mut MoebiusChess, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.play(mv);
    }
}

fn fen(s: &str) -> MoebiusChess {
    MoebiusChess::from_fen(s, &MoebiusOptions::default()).expect("test position")
}

#[test]
fn spec_start_perft() {
    for (rule, counts) in [
        (CheckRule::Dekker, [51, 2596, 143_304]),
        (CheckRule::Nierse, [51, 2559, 141_503]),
        (CheckRule::None, [53, 2654, 145_908]),
    ] {
        let pos = MoebiusChess::startpos(&opts(rule));
        for (d, &c) in counts.iter().enumerate() {
            assert_eq!(pos.perft(d as u32 + 1), c, "{rule:?} depth {}", d + 1);
        }
    }
}

#[test]
fn spec_first_moves() {
    let mut moves = Vec::new();
    start().generate_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    for m in ["e2e4", "b1h7'", "g1a7'", "a1h8'", "h1a8'", "a1d8'", "e2e2'", "d1d1'", "b1b1'"] {
        assert!(texts.contains(&m.to_string()), "{m} is legal");
    }
    // Dekker: the phasing mates a1e8' and h1e8' are refused; the king may not phase.
    for m in ["a1e8'", "h1e8'", "e1e1'"] {
        assert!(!texts.contains(&m.to_string()), "{m} is not legal");
    }
    let mut none = MoebiusChess::startpos(&opts(CheckRule::None));
    play(&mut none, "a1e8'");
    assert_eq!(none.outcome(), Some(Outcome::Win(Side::P1)), "the unrepaired game mates at once");
}

#[test]
fn dekker_allows_phasing_checks_that_are_not_mate() {
    // After d7d6 the black king can step to d7: a1e8' is check, not mate.
    for (rule, legal) in [(CheckRule::Dekker, true), (CheckRule::Nierse, false)] {
        let mut pos = MoebiusChess::startpos(&opts(rule));
        play(&mut pos, "a2a3 d7d6");
        let ok = pos.parse_move("a1e8'").is_ok();
        assert_eq!(ok, legal, "{rule:?}");
        if ok {
            play(&mut pos, "a1e8'");
            assert!(pos.in_check());
            assert_eq!(pos.outcome(), None);
        }
    }
}

#[test]
fn notation_and_aliases() {
    let pos = start();
    assert_eq!(pos.parse_move("a1m8"), pos.parse_move("a1e8'").or(pos.parse_move("a1m8")));
    assert_eq!(pos.parse_move("b1p7").map(|m| m.to_string()), Ok("b1h7'".to_string()));
    assert_eq!(pos.parse_move("e2m2").map(|m| m.to_string()), Ok("e2e2'".to_string()));
    for bad in ["", "e2", "e2e9", "z1a1", "e2e4x", "e2e4qq", "e2'e4'''", "é2e4"] {
        assert!(matches!(pos.parse_move(bad), Err(MoveError::Syntax(_))), "{bad}");
    }
    for illegal in ["e2e5", "e1g1", "a1e8'", "e7e5"] {
        assert!(matches!(pos.parse_move(illegal), Err(MoveError::Illegal(_))), "{illegal}");
    }
    let why = pos.parse_move("a1e8'").unwrap_err().to_string();
    assert!(why.contains("Dekker"), "{why}");
    let promo = fen("4k11/16/16/16/16/16/14P1/4K11 w - - 0 1");
    assert!(matches!(promo.parse_move("g7'g8'"), Err(MoveError::Illegal(_))));
    assert_eq!(promo.parse_move("o7o8n").map(|m| m.to_string()), Ok("g7'g8'n".to_string()));
}

#[test]
fn position_strings() {
    let pos = start();
    assert_eq!(pos.to_fen(), ugine::games::moebius_chess::STARTPOS);
    for bad in [
        "",
        "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8 w KQkq - 0 1",
        "rnbqkbnr9/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
        "rnbqkbnr7/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
        "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 x KQkq - 0 1",
        "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkz - 0 1",
        "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq e4 0 1",
        "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - x 1",
        "rnbqqbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
        "P3k11/16/16/16/16/16/16/4K11 w - - 0 1",
        "4k11/16/16/16/16/16/16/K3R11 w - - 0 1",
        "4k11/16/16/16/16/16/16/4K7r3 b - - 0 1",
        "99999999999999999999/16/16/16/16/16/16/16 w - - 0 1",
    ] {
        assert!(MoebiusChess::from_fen(bad, &MoebiusOptions::default()).is_err(), "{bad}");
    }
    // An en-passant square no pawn can take on is dropped.
    let mut p = start();
    play(&mut p, "e2e4");
    assert!(p.to_fen().contains(" b KQkq - "), "{}", p.to_fen());
    let ep = fen("4k11/16/16/16/P15/16/15p/4K11 b - a3 0 1");
    assert!(ep.to_fen().contains(" a3 "));
    assert_eq!(ep.parse_move("h7'a3").map(|m| m.to_string()), Ok("h7'a3".to_string()));
    let board = start().render();
    assert!(board.contains("r n b q k b n r"), "{board}");
    assert!(board.contains("1'"), "{board}");
}

#[test]
fn en_passant_across_the_wrap_removes_the_pawn() {
    let mut pos = fen("4k11/16/16/16/16/16/P14p/4K11 w - - 0 1");
    play(&mut pos, "a2a4 h7'a3");
    assert_eq!(pos.to_fen(), "4k11/16/16/16/16/p15/16/4K11 w - - 0 2");
    let undo_check = fen("4k11/16/16/16/P15/16/15p/4K11 b - a3 0 1");
    let mut p = undo_check.clone();
    let mv = p.parse_move("h7'a3").expect("legal");
    let undo = p.play_reversible(mv);
    p.unplay(mv, undo);
    assert_eq!(p.to_fen(), undo_check.to_fen());
}

#[test]
fn castling_respects_phasing_and_the_wrap() {
    let legal = |f: &str, m: &str| fen(f).parse_move(m).is_ok();
    assert!(legal("r3k2r8/16/16/16/16/16/16/R3K2R8 w KQkq - 0 1", "e1g1"));
    assert!(legal("r3k2r8/16/16/16/16/16/16/R3K2R8 w KQkq - 0 1", "e1c1"));
    // The rook on b8' sees g1 (c1) through h1 (a1) once the castling rook has left.
    assert!(!legal("r3k2r8/16/16/16/16/16/16/R3K2R1r6 w KQkq - 0 1", "e1g1"));
    assert!(!legal("r3k2r8/16/16/16/16/16/16/R3K2R1r6 w KQkq - 0 1", "e1c1"));
    // The rook on f1' attacks f1 by phasing.
    assert!(!legal("r3k2r5r2/16/16/16/16/16/16/R3K2R8 w KQkq - 0 1", "e1g1"));
    assert!(legal("r3k2r5r2/16/16/16/16/16/16/R3K2R8 w KQkq - 0 1", "e1c1"));
    let mut pos = fen("r3k2r8/16/16/16/16/16/16/R3K2R8 w KQkq - 0 1");
    play(&mut pos, "e1g1");
    assert_eq!(pos.to_fen(), "r3k2r8/16/16/16/16/16/16/R4RK9 b kq - 1 1");
}

#[test]
fn mate_and_stalemate() {
    // Found by random playouts; the reference generator agrees on both.
    let mate = fen("4k11/4R6B4/p5N4pp3/9P6/6P1Pp5B/4P2N5p2/3P2bK2p5/14n1 b - - 1 69");
    assert!(mate.in_check());
    assert_eq!(mate.outcome(), Some(Outcome::Win(Side::P1)));
    assert_eq!(reason(&mate), EndReason::Checkmate);
    let stalemate = fen("1n6K2n4/6k3b5/16/16/16/16/r15/16 w - - 66 228");
    assert!(!stalemate.in_check());
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
    assert_eq!(reason(&stalemate), EndReason::Stalemate);
    assert_eq!(stalemate.perft(1), 0);
}

#[test]
fn draw_rules() {
    let bare = fen("4k11/16/16/16/16/16/16/4KB10 w - - 0 1");
    assert_eq!(bare.outcome(), Some(Outcome::Draw));
    assert_eq!(reason(&bare), EndReason::InsufficientMaterial);
    assert_eq!(reason(&bare).to_string(), "insufficient mating material");
    let two_bishops = fen("4k11/16/16/16/16/16/16/4KBB9 w - - 0 1");
    assert_eq!(two_bishops.outcome(), None);
    let hundred = fen("4k11/16/16/16/16/16/16/4K2R8 w K - 99 80");
    let mut p = hundred.clone();
    assert_eq!(p.outcome(), None);
    play(&mut p, "h1h2");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(reason(&p), EndReason::FiftyMoves);
    // Threefold repetition, with a pawn phase (which does not reset repetition counting).
    let mut rep = start();
    play(&mut rep, "a2a2' a7a7' a2'a2 a7'a7 a2a2' a7a7' a2'a2");
    assert_eq!(rep.outcome(), None);
    play(&mut rep, "a7'a7");
    assert_eq!(rep.outcome(), Some(Outcome::Draw));
    assert_eq!(reason(&rep).to_string(), "3-fold repetition");
    let mut moves = Vec::new();
    rep.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn pawn_phasing_options() {
    let f = "4k11/16/16/16/16/16/4P11/4K11 w - - 0 1";
    let texts = |pp: PawnPhasing, f: &str| {
        let o = MoebiusOptions { pawn_phasing: pp, ..MoebiusOptions::default() };
        let mut v = Vec::new();
        MoebiusChess::from_fen(f, &o).expect("fen").generate_moves(&mut v);
        v.iter().map(|m| m.to_string()).collect::<Vec<_>>()
    };
    // e2's twin e2' is empty: phasing allowed unless pawns never phase.
    assert!(texts(PawnPhasing::Full, f).contains(&"e2e2'".to_string()));
    assert!(texts(PawnPhasing::EmptyOnly, f).contains(&"e2e2'".to_string()));
    assert!(!texts(PawnPhasing::Never, f).contains(&"e2e2'".to_string()));
    // A black piece on e2': only full phasing captures it.
    let g = "4k11/12n3/16/16/16/16/4P11/4K11 w - - 0 1";
    assert!(texts(PawnPhasing::Full, g).contains(&"e2e2'".to_string()), "{g}");
    assert!(!texts(PawnPhasing::EmptyOnly, g).contains(&"e2e2'".to_string()));
}

#[test]
fn conformance_every_option() {
    for check_rule in [CheckRule::Dekker, CheckRule::Nierse, CheckRule::None] {
        for pawn_phasing in [PawnPhasing::Full, PawnPhasing::EmptyOnly, PawnPhasing::Never] {
            let o = MoebiusOptions { check_rule, pawn_phasing };
            random_playouts::<MoebiusChess>(&o, 1, 5_000, 7);
        }
    }
    unmake_restores::<MoebiusChess>(&MoebiusOptions::default(), 2, 8);
}

/// Collects the search's reports.
struct Collect(Vec<SearchInfo>);

impl Reporter for Collect {
    fn info(&mut self, info: &SearchInfo) {
        self.0.push(info.clone());
    }
}

#[test]
fn search_finds_the_phasing_mate_and_always_moves() {
    let unrepaired = MoebiusChess::startpos(&opts(CheckRule::None));
    let mut search = AlphaBeta::<MoebiusChess>::new(4);
    let mut reports = Collect(Vec::new());
    let ctl = SearchControl::fixed(Some(3), None);
    let mut root = Vec::new();
    unrepaired.generate_moves(&mut root);
    let best = search.search(&unrepaired, &root, &Limits::depth(3), &ctl, &mut reports);
    assert!(["a1e8'", "h1e8'"].contains(&best.to_string().as_str()), "{best}");
    let last = reports.0.last().expect("a report per iteration");
    assert_eq!(last.score, Score::Mate(1));
    assert_eq!(last.pv.first().map(String::as_str), Some(best.to_string().as_str()));
    // Stopped at once, the search still returns a legal move.
    let ctl = SearchControl::fixed(None, Some(1));
    let mut legal = Vec::new();
    start().generate_moves(&mut legal);
    let mv = search.search(&start(), &legal, &Limits::nodes(1), &ctl, &mut NullReporter);
    assert!(legal.contains(&mv));
}

#[test]
fn the_king_in_check_is_named_for_a_board_to_mark() {
    let opts = MoebiusOptions::default();
    let start = MoebiusChess::startpos(&opts);
    assert!(start.checked_kings().is_empty());
    // A black rook on a8' attacks e1 along the wrapping row (f1, g1, h1 empty).
    let p = MoebiusChess::from_fen("4k11/16/16/16/16/16/16/4K3r7 w - - 0 1", &opts).unwrap();
    assert_eq!(p.checked_kings(), ["e1"]);
}
