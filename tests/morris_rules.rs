//! Morris rules: conformance on random playouts under both rule sets.

mod common;

use common::{random_playouts, unmake_restores};
use ugine::games::morris::{Morris, MorrisOptions, MorrisRules};

#[test]
fn morris_seed_rules_conform() {
    random_playouts::<Morris>(&MorrisOptions::default(), 300, 2_000, 1);
    unmake_restores::<Morris>(&MorrisOptions::default(), 30, 2);
}

#[test]
fn morris_standard_rules_conform() {
    let opts = MorrisOptions { rules: MorrisRules::Standard, ..MorrisOptions::default() };
    random_playouts::<Morris>(&opts, 300, 2_000, 3);
    unmake_restores::<Morris>(&opts, 30, 4);
}
