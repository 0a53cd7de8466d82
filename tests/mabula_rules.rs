//! Mabula rules: setups, pushes, passes, scoring, position strings and conformance.

mod common;

use ugine::core::{Game, Side};
use ugine::games::mabula::{Mabula, MabulaOptions};

#[test]
fn startpos_perft() {
    let p = Mabula::startpos(&MabulaOptions::default());
    assert_eq!(p.side_to_move(), Side::P1);
    let counts: Vec<u64> = (1..=3).map(|d| p.perft(d)).collect();
    assert_eq!(counts, [72, 5104, 321_976]);
}
