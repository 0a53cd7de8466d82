//! Morpiae search: takes a double capture, and is deterministic at a fixed depth.

use ugine::core::Game;
use ugine::games::morpiae::{Morpiae, MorpiaeOptions};
use ugine::search::{AlphaBeta, NullReporter, SearchControl};

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
