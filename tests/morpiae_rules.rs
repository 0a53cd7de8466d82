//! Morpiae rules: the published 28 first moves, perft, position strings, captures,
//! and conformance on random playouts in 5T and 5D.

mod common;

use common::{random_playouts, unmake_restores};
use ugine::core::{Game, Rng};
use ugine::games::morpiae::{Morpiae, MorpiaeOptions, Variant};

fn opts(variant: Variant) -> MorpiaeOptions {
    MorpiaeOptions { variant }
}

#[test]
fn start_has_the_published_28_moves() {
    for v in [Variant::Touching, Variant::Disjoint] {
        let pos = Morpiae::startpos(&opts(v));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(moves.len(), 28, "{v:?}");
        for d in 1..=3 { eprintln!("{v:?} {d} {}", pos.perft(d)); }
    }
}
