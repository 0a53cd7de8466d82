//! Morpiae search: takes a double capture, is deterministic at a fixed depth, and scores
//! a drawn end with its contempt.

use ugine::core::Game;
use ugine::games::morpiae::{Morpiae, MorpiaeOptions};
use ugine::search::{AlphaBeta, Evaluate, NullReporter, SearchControl, SearchParams};

/// Green to move can colour (3,2) and (5,2) at once with 4,2,H,2 (a reference game).
const DOUBLE: &str = "g cross 9,7,V,4;2,2,A,2;7,9,H,4;3,4,V,4;0,2,V,0;10,3,H,4;5,6,H,0;\
    7,2,D,2;7,0,H,4;6,-1,V,0;6,5,V,0;4,3,H,4;3,10,V,4;7,7,A,2;2,7,D,2;4,1,A,2;5,8,A,2;\
    4,5,D,2;5,4,A,3;4,6,H,3;2,1,D,0;5,2,A,2;5,1,H,3;2,-1,D,0;8,4,D,3;2,0,V,1;5,3,V,3 - -";

#[test]
fn search_takes_the_double_capture() {
    let pos = Morpiae::from_fen(DOUBLE, &MorpiaeOptions::default()).expect("position");
    for depth in 1..=3 {
        let mut ab = AlphaBeta::<Morpiae>::new(1);
        let r = ab.run(&pos, &SearchControl::fixed(Some(depth), None), &mut NullReporter);
        let (mv, score) = (r.best(), r.score());
        assert_eq!(mv.to_string(), "4,2,H,2", "depth {depth}");
        // Two circles won; the best reply wins at most one back.
        assert!(score >= 100, "depth {depth}: {score}");
    }
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let pos = Morpiae::from_fen(DOUBLE, &MorpiaeOptions::default()).expect("position");
    let run = || {
        let mut ab = AlphaBeta::<Morpiae>::new(1);
        let r = ab.run(&pos, &SearchControl::fixed(Some(4), None), &mut NullReporter);
        (r.best(), r.score(), r.nodes)
    };
    assert_eq!(run(), run());
}

/// Red to move, 0-0, two legal lines, and every line leads to the end at 0-0 within a few
/// plies (a game against `uct` that ugine closed as a draw).
const CLOSING: &str = "r cross 3,-1,V,0;6,10,V,4;10,3,H,4;9,7,V,4;-1,3,H,0;3,5,V,0;-1,6,H,0;\
    6,-1,V,0;2,0,H,0;7,2,D,2;2,2,A,2;1,5,D,2;2,7,D,2;7,9,H,4;0,2,V,0;5,1,D,2;7,7,A,2;5,6,H,0;\
    8,5,A,2;4,1,A,2;1,1,A,2;2,1,H,0;2,4,V,4;-1,7,A,0 - -";

#[test]
fn a_drawn_end_scores_minus_the_contempt_for_the_side_to_move() {
    let pos = Morpiae::from_fen(CLOSING, &MorpiaeOptions::default()).expect("position");
    for contempt in [0, 100, 37] {
        let params = SearchParams { contempt, ..Morpiae::PARAMS };
        let mut ab = AlphaBeta::<Morpiae>::with_params(1, params);
        let r = ab.run(&pos, &SearchControl::fixed(Some(8), None), &mut NullReporter);
        assert_eq!(r.score(), -contempt, "contempt {contempt}");
    }
}
