//! Mobius rules: the spec's geometry and test positions, the win test against an
//! independent implementation (`mobius_reference`), the no-draw property, options,
//! notation, position strings, and conformance on random playouts.

mod common;
mod mobius_reference;

use common::random_playouts;
use mobius_reference::{Board, Rule};
use ugine::core::{EndReason, Game, MoveError, Outcome, Rng, Side};
use ugine::games::mobius::geometry::{CELLS, GEOMETRY, parse_cell};
use ugine::games::mobius::{
    BLUE, EMPTY, Mobius, MobiusMove, MobiusOptions, RED, WinRule, colour, default_rule_qualifies,
};

const THREE_ZONES: &str = "l1 c3 k2 e3 l3 g3 k4 i3 l5 c7 k6 e7 l7 g7 k8 i7 l9 d10 k10 h10 l11 \
    c12 k12 e12 a1";
const TWO_ZONES_LOOP: &str = "a5 b2 b5 d2 c5 h2 d5 j2 e5 b3 f5 d3 g5 h3 h5 j3 i5 b8 j5 d8 k5 h8 \
    l5 j8 f1 b11 f2 d11 f3 h11 f4 j11 f6 c10 f7 i10 f8 c12 f9 i12 f10 d7 f11 h7 f12";
const TWICE_ROUND: &str = "b1 d2 b2 d3 b3 d4 b4 d5 b5 d6 b6 d7 b7 d8 b8 d9 b9 d10 b10 d11 b11 \
    g2 b12 g3 k1 g4 j2 g5 k3 g6 j4 g7 k5 g8 j6 g9 k7 g10 j8 g11 k9 e1 j10 e12 k11 h1 a5 h12 a9 \
    f6 j12";

fn opts(literal: bool, any: bool, swap: bool) -> MobiusOptions {
    MobiusOptions { rule: WinRule { zones_are_nodes: !literal, any_winding: any }, swap }
}

fn all_rules() -> Vec<MobiusOptions> {
    let mut v = Vec::new();
    for literal in [false, true] {
        for any in [false, true] {
            v.push(opts(literal, any, false));
        }
    }
    v
}

fn reference_rule(o: &MobiusOptions) -> Rule {
    Rule { network: o.rule.zones_are_nodes, any: o.rule.any_winding }
}

/// Plays `moves` from the start, checking that no earlier move ends the game.
fn play_line(o: &MobiusOptions, moves: &str) -> Mobius {
    let mut pos = Mobius::startpos(o);
    for m in moves.split_whitespace() {
        assert_eq!(pos.outcome(), None, "game over before {m}");
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.play(mv);
    }
    pos
}

fn names(cells: &[&str]) -> Vec<usize> {
    cells.iter().map(|n| parse_cell(n).expect("cell name")).collect()
}

#[test]
fn board_has_138_cells_and_the_spec_neighbours() {
    let g = &*GEOMETRY;
    assert_eq!(g.names.len(), 138);
    let nb = |n: &str| {
        let mut v: Vec<&str> = g.links[parse_cell(n).unwrap()]
            .iter()
            .map(|l| g.names[l.to as usize].as_str())
            .collect();
        v.sort();
        v
    };
    assert_eq!(nb("a1"), ["a2", "b1", "k12"]);
    assert_eq!(nb("f1"), ["e1", "e2", "f12", "f2", "g1", "g12"]);
    assert_eq!(nb("e12"), ["d12", "e11", "f11", "f12", "g1", "h1"]);
    // Same neighbours (and windings) as the reference's formula, for every cell.
    for (i, name) in g.names.iter().enumerate() {
        let (r, c) = mobius_reference::cell(name);
        let mut mine: Vec<(String, i8)> =
            g.links[i].iter().map(|l| (g.names[l.to as usize].clone(), l.wind)).collect();
        let mut theirs: Vec<(String, i8)> = mobius_reference::neighbours(r, c)
            .into_iter()
            .map(|((rr, cc), w)| (format!("{}{}", (b'a' + cc as u8) as char, rr + 1), w as i8))
            .collect();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs, "neighbours of {name}");
    }
}

#[test]
fn the_edge_is_one_cycle_of_24_cells() {
    let g = &*GEOMETRY;
    let edge = "a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 l1 k2 l3 k4 l5 k6 l7 k8 l9 k10 l11 k12";
    let cells = names(&edge.split_whitespace().collect::<Vec<_>>());
    for i in 0..cells.len() {
        let (a, b) = (cells[i], cells[(i + 1) % cells.len()]);
        assert!(g.links[a].iter().any(|l| l.to as usize == b), "{} {}", g.names[a], g.names[b]);
    }
    // Every edge cell is in one zone of each player or a junction (in one of each).
    for &c in &cells {
        assert!(g.zone_of[0][c].is_some() || g.zone_of[1][c].is_some());
    }
    let junctions = names(&["a1", "a5", "a9", "l1", "l5", "l9"]);
    for c in 0..CELLS {
        let both = g.zone_of[0][c].is_some() && g.zone_of[1][c].is_some();
        assert_eq!(both, junctions.contains(&c), "{}", g.names[c]);
    }
}

#[test]
fn three_zones_in_one_group_wins_at_the_last_move() {
    for o in all_rules() {
        let moves: Vec<&str> = THREE_ZONES.split_whitespace().collect();
        let before = play_line(&o, &moves[..moves.len() - 1].join(" "));
        assert_eq!(before.outcome(), None, "{o:?}");
        let pos = play_line(&o, THREE_ZONES);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::P1)), "{o:?}");
        assert_eq!(pos.ply(), 25);
        let group = !o.rule.zones_are_nodes;
        assert_eq!(pos.ending().unwrap().reason, EndReason::ThreeZones { group }, "{o:?}");
    }
}

#[test]
fn two_zones_and_an_odd_loop_wins_at_the_last_move() {
    for o in all_rules() {
        let moves: Vec<&str> = TWO_ZONES_LOOP.split_whitespace().collect();
        let before = play_line(&o, &moves[..moves.len() - 1].join(" "));
        assert_eq!(before.outcome(), None, "{o:?}");
        let pos = play_line(&o, TWO_ZONES_LOOP);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::P1)), "{o:?}");
        assert_eq!(pos.ply(), 45);
        let group = !o.rule.zones_are_nodes;
        let reason = pos.ending().unwrap().reason;
        assert_eq!(reason, EndReason::TwoZonesAndLoop { group }, "{o:?}");
    }
}

#[test]
fn a_loop_round_twice_does_not_count_by_default() {
    for literal in [false, true] {
        let pos = play_line(&opts(literal, false, false), TWICE_ROUND);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.ply(), 51);
        assert!(!pos.qualifies(Side::P1) && !pos.qualifies(Side::P2));
    }
    // With loops of any winding, the double loop through a5 and a9 wins for Red.
    for literal in [false, true] {
        let o = opts(literal, true, false);
        let mut pos = Mobius::startpos(&o);
        for m in TWICE_ROUND.split_whitespace() {
            if pos.outcome().is_some() {
                break;
            }
            pos.play(pos.parse_move(m).unwrap());
        }
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::P1)), "literal {literal}");
    }
}

/// Builds a position from Red and Blue cell lists (Red to move; counts unchecked).
fn board(red: &[&str], blue: &[&str], o: &MobiusOptions) -> Mobius {
    let mut cells = [EMPTY; CELLS];
    for c in names(red) {
        cells[c] = RED;
    }
    for c in names(blue) {
        cells[c] = BLUE;
    }
    Mobius::from_cells(cells, Side::P1, o)
}

#[test]
fn network_rule_joins_zones_and_loops_that_the_literal_rule_does_not() {
    // Two zones joined by column a (R1 to R2 through B1's cells) and a separate odd loop
    // down column f: the loop may be in another piece.
    let col_a = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"];
    let col_f = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12"];
    let red: Vec<&str> = col_a.iter().chain(col_f.iter()).copied().collect();
    // Row 9 (R2 to R3) plus the right edge from l1 (R2): the cycle l1 … l9, row 9, a9,
    // then along zone R2 back to l1 crosses the seam once, along the zone.
    let along_zone = [
        "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "j9", "k9", "l9", "l1", "k2", "l3",
        "k4", "l5", "k6", "l7", "k8",
    ];
    for (cells, name) in [(&red[..], "separate loop"), (&along_zone[..], "loop along a zone")] {
        for any in [false, true] {
            let net = board(cells, &[], &opts(false, any, false));
            let lit = board(cells, &[], &opts(true, any, false));
            assert!(net.qualifies(Side::P1), "{name}: network rule");
            assert!(!lit.qualifies(Side::P1), "{name}: literal rule");
            for p in [&net, &lit] {
                let rule = reference_rule(p.options());
                assert_eq!(
                    Board::from_fen(&p.to_fen()).qualifies('r', rule),
                    p.qualifies(Side::P1)
                );
            }
        }
    }
}

/// A random board: each cell empty with probability `empty` (in 1/1000), else a random
/// colour.
fn random_cells(rng: &mut Rng, empty: usize) -> [u8; CELLS] {
    let mut cells = [EMPTY; CELLS];
    for c in cells.iter_mut() {
        if rng.below(1000) >= empty {
            *c = if rng.below(2) == 0 { RED } else { BLUE };
        }
    }
    cells
}

#[test]
fn win_test_agrees_with_the_reference_on_random_boards() {
    let mut rng = Rng::new(11);
    let mut wins = [0usize; 2];
    for i in 0..600 {
        let cells = random_cells(&mut rng, [0, 100, 300, 500][i % 4]);
        for o in all_rules() {
            let pos = Mobius::from_cells(cells, Side::P1, &o);
            let reference = Board::from_fen(&pos.to_fen());
            for (side, ch) in [(Side::P1, 'r'), (Side::P2, 'b')] {
                let q = pos.qualifies(side);
                if o == MobiusOptions::default() {
                    let fast = default_rule_qualifies(&cells, colour(side), side.index());
                    assert_eq!(fast, q, "playout win test: {}", pos.to_fen());
                }
                assert_eq!(
                    q,
                    reference.qualifies(ch, reference_rule(&o)),
                    "{o:?} {}",
                    pos.to_fen()
                );
                wins[side.index()] += q as usize;
            }
        }
    }
    // The sample exercises both answers for both players.
    assert!(wins[0] > 200 && wins[1] > 200, "{wins:?}");
}

/// The playouts' bitboard win test against the union-find network and the reference, on
/// boards as playouts make them: a random game prefix, then a random fill of the rest
/// (partly filled boards too, where zero or two players may qualify).
#[test]
fn playout_win_test_agrees_with_the_network_on_random_fills() {
    let mut rng = Rng::new(15);
    let o = MobiusOptions::default();
    let mut qualified = [0usize; 2];
    for i in 0..3000 {
        let mut cells = [EMPTY; CELLS];
        let stones = if i % 2 == 0 { CELLS } else { 20 + rng.below(CELLS - 20) };
        let mut order: Vec<usize> = (0..CELLS).collect();
        rng.shuffle(&mut order);
        for (k, &c) in order[..stones].iter().enumerate() {
            cells[c] = if k % 2 == 0 { RED } else { BLUE };
        }
        let pos = Mobius::from_cells(cells, Side::P1, &o);
        let reference = (i % 10 == 0).then(|| Board::from_fen(&pos.to_fen()));
        for (side, ch) in [(Side::P1, 'r'), (Side::P2, 'b')] {
            let fast = default_rule_qualifies(&cells, colour(side), side.index());
            assert_eq!(fast, pos.qualifies(side), "{:?}: {}", side, pos.to_fen());
            if let Some(r) = &reference {
                assert_eq!(fast, r.qualifies(ch, reference_rule(&o)), "{}", pos.to_fen());
            }
            qualified[side.index()] += fast as usize;
        }
    }
    assert!(qualified[0] > 500 && qualified[1] > 500, "{qualified:?}");
}

#[test]
fn exactly_one_player_qualifies_on_every_full_board() {
    let mut rng = Rng::new(12);
    let o = MobiusOptions::default();
    let mut red = 0;
    for _ in 0..5000 {
        let pos = Mobius::from_cells(random_cells(&mut rng, 0), Side::P1, &o);
        let (r, b) = (pos.qualifies(Side::P1), pos.qualifies(Side::P2));
        assert!(r != b, "full board with {} winners: {}", r as u8 + b as u8, pos.to_fen());
        red += r as usize;
    }
    assert!((1500..3500).contains(&red), "Red qualifies on {red} of 5000");
}

#[test]
fn full_boards_under_the_options() {
    // Literal: some full boards have no winner (scored as a draw). Any winding: some have
    // two qualifying players (the mover wins). Both kinds must occur in a sample.
    let mut rng = Rng::new(13);
    let (mut none, mut both) = (0, 0);
    for _ in 0..3000 {
        let cells = random_cells(&mut rng, 0);
        let lit = Mobius::from_cells(cells, Side::P1, &opts(true, false, false));
        none += (!lit.qualifies(Side::P1) && !lit.qualifies(Side::P2)) as usize;
        let any = Mobius::from_cells(cells, Side::P1, &opts(false, true, false));
        both += (any.qualifies(Side::P1) && any.qualifies(Side::P2)) as usize;
        assert!(any.qualifies(Side::P1) || any.qualifies(Side::P2));
    }
    assert!(none > 100, "literal boards without winner: {none}");
    assert!(both > 0, "any-winding boards with two winners: {both}");
}

#[test]
fn incremental_outcome_and_immediate_wins_match_from_scratch_in_random_games() {
    let mut rng = Rng::new(14);
    let mut moves = Vec::new();
    for o in all_rules() {
        for _ in 0..10 {
            let mut pos = Mobius::startpos(&o);
            while pos.outcome().is_none() {
                let stm = pos.side_to_move();
                // wins_with agrees with playing the move, on every empty cell.
                if pos.stones() >= 17 {
                    for c in 0..CELLS {
                        if pos.cells()[c] == EMPTY {
                            let mut next = pos.clone();
                            next.play(MobiusMove(c as u8));
                            let won = next.outcome() == Some(Outcome::Win(stm));
                            assert_eq!(pos.wins_with(stm, c), won, "{} at {c}", pos.to_fen());
                        }
                    }
                }
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(*rng.choose(&moves));
                let reference = Board::from_fen(&pos.to_fen());
                let ch = if stm == Side::P1 { 'r' } else { 'b' };
                let expect = if reference.qualifies(ch, reference_rule(&o)) {
                    Some(Outcome::Win(stm))
                } else if pos.stones() == CELLS {
                    Some(Outcome::Draw)
                } else {
                    None
                };
                assert_eq!(pos.outcome(), expect, "{o:?} {}", pos.to_fen());
                assert_eq!(Mobius::from_fen(&pos.to_fen(), &o).unwrap().outcome(), expect);
            }
            if o == MobiusOptions::default() {
                assert!(pos.outcome() != Some(Outcome::Draw), "no draws: {}", pos.to_fen());
                assert!(pos.ply() >= 19, "a win needs 10 stones");
            }
        }
    }
}

#[test]
fn random_games_conform() {
    for (i, o) in all_rules().into_iter().enumerate() {
        random_playouts::<Mobius>(&o, 8, CELLS, 20 + i as u64);
    }
    random_playouts::<Mobius>(&opts(false, false, true), 16, CELLS + 1, 30);
}

#[test]
fn swap_rule() {
    let off = MobiusOptions::default();
    let on = opts(false, false, true);
    let mut pos = play_line(&on, "f7");
    assert!(matches!(play_line(&off, "f7").parse_move("swap"), Err(MoveError::Illegal(_))));
    let swap = pos.parse_move("swap").expect("swap is legal on ply 2");
    assert_eq!(swap, MobiusMove::SWAP);
    pos.play(swap);
    assert_eq!(pos.side_to_move(), Side::P1);
    assert_eq!(pos.cells()[parse_cell("f7").unwrap()], BLUE);
    assert_eq!(pos.ply(), 2);
    assert!(pos.swapped());
    assert!(matches!(pos.parse_move("swap"), Err(MoveError::Illegal(_))));
    let fen = pos.to_fen();
    assert_eq!(fen, "12/11/12/11/12/11/5b6/11/12/11/12/11 r");
    assert_eq!(Mobius::from_fen(&fen, &on).unwrap(), pos);
    // Without the option the counts after a swap are not a position of the game.
    assert!(Mobius::from_fen(&fen, &off).is_err());
    // Later plies may not swap.
    let pos = play_line(&on, "f7 e7");
    assert!(matches!(pos.parse_move("swap"), Err(MoveError::Illegal(_))));
}

#[test]
fn notation_and_position_strings() {
    let o = MobiusOptions::default();
    let start = Mobius::startpos(&o);
    assert_eq!(start.to_fen(), "12/11/12/11/12/11/12/11/12/11/12/11 r");
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    assert_eq!(moves.len(), 138);
    assert_eq!(start.parse_move("f7").unwrap().to_string(), "f7");
    for bad in ["", "l2", "a13", "a0", "m1", "f07", "F7", "f", "7", "swap", "f7 "] {
        assert!(start.parse_move(bad).is_err(), "{bad}");
    }
    let pos = play_line(&o, "f7 a1 k12");
    assert_eq!(pos.to_fen(), "b11/11/12/11/12/11/5r6/11/12/11/12/10r b");
    assert!(matches!(pos.parse_move("a1"), Err(MoveError::Illegal(_))));
    for bad in [
        "",
        "12/11/12/11/12/11/12/11/12/11/12/11",
        "12/11/12/11/12/11/12/11/12/11/12 r",
        "12/12/12/11/12/11/12/11/12/11/12/11 r",
        "13/11/12/11/12/11/12/11/12/11/12/11 r",
        "r12/11/12/11/12/11/12/11/12/11/12/11 b",
        "0r11/11/12/11/12/11/12/11/12/11/12/11 b",
        "x11/11/12/11/12/11/12/11/12/11/12/11 b",
        "r11/11/12/11/12/11/12/11/12/11/12/11 r",
        "12/11/12/11/12/11/12/11/12/11/12/11 x",
        "12/11/12/11/12/11/12/11/12/11/12/11 r extra",
    ] {
        assert!(Mobius::from_fen(bad, &o).is_err(), "{bad}");
    }
}

#[test]
fn render_shows_stones_zones_and_seam() {
    let pos = play_line(&MobiusOptions::default(), "a1 l1");
    let text = pos.render();
    let lines: Vec<&str> = text.lines().collect();
    // Row 1: Red on a1 (junction R1/B3), Blue on l1 (junction R2/B2).
    let row1 = lines.iter().find(|l| l.trim_start().starts_with("1 ")).expect("row 1");
    assert!(row1.contains("R1 B3") && row1.contains("R2 B2"), "{row1}");
    assert!(row1.contains("| R") && row1.contains("B |"), "{row1}");
    // The seam row drawn again, reversed: Blue's l1 first, Red's a1 last.
    let seam = lines.iter().find(|l| l.trim_start().starts_with("1~")).expect("seam row");
    assert!(seam.contains("| B") && seam.contains("R |"), "{seam}");
    assert!(text.contains("Red (R) to move"));
}

/// Perft by the reference: moves are the empty cells, a position is over once the player
/// who moved last qualifies (or the board is full).
fn reference_perft(board: &mut Board, to_move: char, rule: Rule, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let other = if to_move == 'r' { 'b' } else { 'r' };
    let mut n = 0;
    for r in 0..12 {
        for c in 0..board.cells[r].len() {
            if board.cells[r][c] != '.' {
                continue;
            }
            board.cells[r][c] = to_move;
            if !board.qualifies(to_move, rule) {
                n += reference_perft(board, other, rule, depth - 1);
            } else if depth == 1 {
                n += 1;
            }
            board.cells[r][c] = '.';
        }
    }
    n
}

#[test]
fn perft_matches_the_reference() {
    let text = include_str!("data/perft/mobius.perft");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f[2] == "startpos" {
            continue;
        }
        let o = opts(f[1].contains("literal"), f[1].contains("any"), f[1].contains("Swap"));
        let pos = Mobius::from_fen(f[2], &o).expect("perft position");
        let mut board = Board::from_fen(f[2]);
        let over =
            board.qualifies('b', reference_rule(&o)) || board.qualifies('r', reference_rule(&o));
        assert_eq!(over, pos.outcome().is_some(), "{}", f[0]);
        for dc in f[3].split_whitespace() {
            let (d, c) = dc.split_once(':').unwrap();
            let (d, c): (u32, u64) = (d.parse().unwrap(), c.parse().unwrap());
            if d > 2 || (d == 2 && f[0] != "three-zones-24") {
                continue;
            }
            let reference =
                if over { 0 } else { reference_perft(&mut board, 'r', reference_rule(&o), d) };
            assert_eq!(reference, c, "{} depth {d}", f[0]);
            assert_eq!(pos.perft(d), c, "{} depth {d}", f[0]);
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}
