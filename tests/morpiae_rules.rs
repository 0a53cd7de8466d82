//! Morpiae rules: the published 28 first moves, games cross-checked against the
//! independent reference (scripts/morpiae_reference.py), captures, position strings,
//! errors, and conformance on random playouts in 5T and 5D.

mod common;

use common::{random_playouts, unmake_restores};
use ugine::core::{Game, MoveError, Outcome, Reversible, Rng, Side};
use ugine::games::morpiae::{Morpiae, MorpiaeOptions, Variant};

fn opts(variant: Variant) -> MorpiaeOptions {
    MorpiaeOptions { variant }
}

fn moves_of(pos: &Morpiae) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    text.sort();
    text
}

#[test]
fn start_has_the_published_28_moves() {
    // By symmetry: on each of the 4 arms, 4 lines extend an outer bar of 4 (H or V,
    // both ends, 2 bars), 2 close a notch diagonally; the 4 inner corners add 1 each.
    for v in [Variant::Touching, Variant::Disjoint] {
        let pos = Morpiae::startpos(&opts(v));
        let moves = moves_of(&pos);
        assert_eq!(moves.len(), 28, "{v:?}: {moves:?}");
        for expected in ["4,3,H,4", "-1,3,H,0", "3,10,V,4", "2,2,A,2", "7,7,A,2", "2,7,D,2"] {
            assert!(moves.iter().any(|m| m == expected), "{v:?}: {expected} missing");
        }
        let mut scratch: Vec<String> =
            pos.moves_from_scratch().iter().map(|m| m.to_string()).collect();
        scratch.sort();
        assert_eq!(scratch, moves);
    }
}

/// Replays the reference's random games: every move is legal here, the incremental
/// move list equals the from-scratch one, the final position string (with colours) is
/// the reference's, the game is over and the result follows the colour counts.
#[test]
fn reference_games_replay_identically() {
    let text = include_str!("data/morpiae_games.txt");
    let (mut games, mut multi_captures) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let variant = Variant::from_name(fields[0]).expect("variant");
        let mut pos = Morpiae::startpos(&opts(variant));
        for token in fields[1].split_whitespace() {
            let mv = pos.parse_move(token).unwrap_or_else(|e| panic!("{token}: {e}"));
            let before = pos.colours(pos.side_to_move());
            let predicted = pos.captures_of(mv);
            // The shortcut (no circle crossed three ways: no capture) agrees with reading
            // every line.
            for &m in pos.legal_moves() {
                assert_eq!(pos.captures_of(m), pos.drawing().captures_of(m), "{m} before {token}");
            }
            let side = pos.side_to_move();
            pos.play(mv);
            assert_eq!(pos.colours(side), before + predicted, "captures_of {token}");
            multi_captures += (predicted >= 2) as usize;
            let mut inc = pos.legal_moves().to_vec();
            inc.sort();
            assert_eq!(inc, pos.moves_from_scratch(), "move list after {token}");
        }
        assert_eq!(pos.to_fen(), fields[2]);
        let reread = Morpiae::from_fen(fields[2], &opts(variant)).expect("reference string");
        assert_eq!(reread.hash(), pos.hash());
        let (r, g) = (pos.colours(Side::P1), pos.colours(Side::P2));
        let expected = match r.cmp(&g) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::P1),
            std::cmp::Ordering::Less => Outcome::Win(Side::P2),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        assert_eq!(pos.outcome(), Some(expected));
        let lines = fields[1].split_whitespace().count();
        let why = format!("no line left after {lines} lines, circles {r}-{g}");
        assert_eq!(pos.ending().unwrap().reason.to_string(), why);
        games += 1;
    }
    assert_eq!(games, 50);
    assert!(multi_captures > 0, "the games include lines that colour several circles");
}

#[test]
fn one_line_colours_two_circles() {
    // From a reference game (5T): Green's 4,2,H,2 draws (2,2)…(6,2) and completes the
    // fourth direction at (3,2) and (5,2) at once.
    let fen = "g cross 9,7,V,4;2,2,A,2;7,9,H,4;3,4,V,4;0,2,V,0;10,3,H,4;5,6,H,0;7,2,D,2;\
               7,0,H,4;6,-1,V,0;6,5,V,0;4,3,H,4;3,10,V,4;7,7,A,2;2,7,D,2;4,1,A,2;5,8,A,2;\
               4,5,D,2;5,4,A,3;4,6,H,3;2,1,D,0;5,2,A,2;5,1,H,3;2,-1,D,0;8,4,D,3;2,0,V,1;\
               5,3,V,3 - -";
    let mut pos = Morpiae::from_fen(fen, &MorpiaeOptions::default()).expect("position");
    let mv = pos.parse_move("4,2,H,2").expect("legal");
    assert_eq!(pos.captures_of(mv), 2);
    pos.play(mv);
    assert_eq!((pos.colours(Side::P1), pos.colours(Side::P2)), (0, 2));
    assert!(pos.to_fen().ends_with("4,2,H,2 - 3,2;5,2"), "{}", pos.to_fen());
    // Under 5D the same drawing reads differently: the colours would be wrong.
    assert!(Morpiae::from_fen(&pos.to_fen(), &opts(Variant::Disjoint)).is_err());
}

#[test]
fn touching_lines_meet_but_do_not_overlap() {
    let t = Morpiae::startpos(&opts(Variant::Touching));
    let d = Morpiae::startpos(&opts(Variant::Disjoint));
    let mut t1 = t.clone();
    t1.play(t.parse_move("4,3,H,4").expect("legal"));
    let mut d1 = d.clone();
    d1.play(d.parse_move("4,3,H,4").expect("legal"));
    // The bar's left extension (-1,3)…(3,3) overlaps (0,3)…(4,3) in both variants.
    assert!(t1.parse_move("-1,3,H,0").is_err());
    assert!(d1.parse_move("-1,3,H,0").is_err());
    // (0,0)…(4,0) drawn; (4,0)…(8,0) touches it end to end: 5T only.
    let bar = "r 0,0;1,0;2,0;3,0;5,0;6,0;7,0 4,0,H,4 - -";
    let t2 = Morpiae::from_fen(bar, &opts(Variant::Touching)).expect("5T bar");
    let d2 = Morpiae::from_fen(bar, &opts(Variant::Disjoint)).expect("5D bar");
    assert!(t2.parse_move("8,0,H,4").is_ok(), "5T: lines may meet end to end");
    assert!(d2.parse_move("8,0,H,4").is_err(), "5D: they may not share (4,0)");
}

#[test]
fn bad_moves_are_refused() {
    let pos = Morpiae::startpos(&MorpiaeOptions::default());
    for bad in ["", "4,3,H", "4,3,X,4", "4,3,H,5", "a,3,H,4", "4,3,H,4,1", "99999999999,0,H,0"] {
        assert!(matches!(pos.parse_move(bad), Err(MoveError::Syntax(_))), "{bad}");
    }
    for illegal in ["4,3,H,3", "5,5,H,0", "4,3,V,4"] {
        assert!(matches!(pos.parse_move(illegal), Err(MoveError::Illegal(_))), "{illegal}");
    }
}

#[test]
fn bad_position_strings_are_refused() {
    let o = MorpiaeOptions::default();
    for bad in [
        "",
        "r cross - -",
        "x cross - - -",
        "r crossed - - -",
        "r cross 4,3,H,3 - -",
        "r cross 4,3,H,4;4,3,H,4 - -",
        "r cross - 3,3 -",
        "r cross - 4,4 -",
        "r cross;501,0 - - -",
        "r cross;1,x - - -",
    ] {
        assert!(Morpiae::from_fen(bad, &o).is_err(), "{bad}");
    }
    let err = Morpiae::from_fen("r cross;0,-600 - - -", &o).expect_err("beyond the bound");
    assert!(err.0.contains("bound"), "{err}");
}

#[test]
fn drawing_far_from_the_cross_grows_the_lattice() {
    let fen = "r 400,-400;401,-400;402,-400;403,-400 - - -";
    let mut pos = Morpiae::from_fen(fen, &MorpiaeOptions::default()).expect("far drawing");
    assert_eq!(moves_of(&pos), ["399,-400,H,0", "404,-400,H,4"]);
    pos.play(pos.parse_move("404,-400,H,4").expect("legal"));
    assert_eq!(pos.to_fen(), "g 400,-400;401,-400;402,-400;403,-400 404,-400,H,4 - -");
    assert!(pos.outcome() == Some(Outcome::Draw));
}

#[test]
fn render_shows_strokes_and_colours() {
    let mut pos = Morpiae::startpos(&MorpiaeOptions::default());
    pos.play(pos.parse_move("4,3,H,4").expect("legal"));
    let text = pos.render();
    assert!(text.lines().any(|l| l.starts_with("   3") && l.contains("o-o-o-o-*")), "{text}");
    assert!(text.contains("Green to move"));
}

#[test]
fn morpiae_5t_conforms() {
    random_playouts::<Morpiae>(&opts(Variant::Touching), 40, 400, 1);
    unmake_restores::<Morpiae>(&opts(Variant::Touching), 4, 2);
}

#[test]
fn morpiae_5d_conforms() {
    random_playouts::<Morpiae>(&opts(Variant::Disjoint), 40, 200, 3);
    unmake_restores::<Morpiae>(&opts(Variant::Disjoint), 4, 4);
}

#[test]
fn random_games_keep_the_incremental_move_list_exact() {
    let mut rng = Rng::new(11);
    for v in [Variant::Touching, Variant::Disjoint] {
        for _ in 0..20 {
            let mut pos = Morpiae::startpos(&opts(v));
            while pos.outcome().is_none() {
                let mut inc = pos.legal_moves().to_vec();
                inc.sort();
                assert_eq!(inc, pos.moves_from_scratch(), "{}", pos.to_fen());
                let mv = *rng.choose(pos.legal_moves());
                pos.play(mv);
            }
        }
    }
}

/// Three plies played and taken back in every order from positions of random games:
/// each level gets back its move list exactly, in its order (the undo records share one
/// stack of removed moves).
#[test]
fn nested_unplay_restores_each_move_list_in_order() {
    fn walk(pos: &mut Morpiae, depth: u32, rng: &mut Rng) {
        let before = (pos.legal_moves().to_vec(), pos.to_fen(), pos.hash());
        if depth == 0 {
            return;
        }
        // A few moves per level keep the walk short.
        for _ in 0..4.min(before.0.len()) {
            let mv = *rng.choose(&before.0);
            let undo = pos.play_reversible(mv);
            walk(pos, depth - 1, rng);
            pos.unplay(mv, undo);
            assert_eq!((pos.legal_moves().to_vec(), pos.to_fen(), pos.hash()), before, "{mv}");
        }
    }
    let mut rng = Rng::new(5);
    for v in [Variant::Touching, Variant::Disjoint] {
        for _ in 0..6 {
            let mut pos = Morpiae::startpos(&opts(v));
            while pos.outcome().is_none() {
                walk(&mut pos, 3, &mut rng);
                let mv = *rng.choose(pos.legal_moves());
                pos.play(mv);
            }
        }
    }
}
