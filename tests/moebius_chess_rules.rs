//! Moebius Chess rules: spec perft counts, special rules, conformance on random playouts.

mod common;

use ugine::core::Game;
use ugine::games::moebius_chess::{CheckRule, MoebiusChess, MoebiusOptions};

fn opts(rule: CheckRule) -> MoebiusOptions {
    MoebiusOptions { check_rule: rule, ..MoebiusOptions::default() }
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
