//! Moebius Chess's network options and its built-in network: a correction of the hand
//! evaluation (`ugine train --on-hand`, inputs of `features.rs`), made for the default
//! rules. Under other rule options the hand evaluation plays alone (no network has been
//! measured there).

use std::sync::{Arc, LazyLock};

use super::options::MoebiusOptions;
use super::position::MoebiusChess;
use crate::core::Game;
use crate::search::nnue::{Features, Network};
use crate::search::{Embedded, NetOptions};

/// The name that selects the built-in network (the default of `Moebius EvalFile`).
pub const DEFAULT_NET: &str = "moebius-1536x32-g2-2026-11-28.nnue";

/// The built-in network, the second generation (`nets/README.md`; SPRTs in
/// `docs/strength.md`).
static EMBEDDED: &[u8] = include_bytes!("../../../nets/moebius-1536x32-g2-2026-11-28.nnue");

/// The built-in network for `pos`: under the default rules only.
fn embedded(pos: &MoebiusChess) -> Option<Arc<Network>> {
    static NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(
            Network::from_bytes(EMBEDDED, MoebiusChess::NAME, MoebiusChess::FEATURE_COUNT)
                .expect("the embedded Moebius Chess network reads"),
        )
    });
    (pos.board().opts == MoebiusOptions::default()).then(|| Arc::clone(&NET))
}

/// Moebius Chess's network options: `Moebius EvalFile` names the built-in network (the
/// default), a network file, or `<empty>` for the hand evaluation alone.
pub const NETWORK_OPTIONS: NetOptions<MoebiusChess> = NetOptions {
    file: "Moebius EvalFile",
    weight: "Moebius EvalFile Weight",
    embedded: Some(Embedded { name: DEFAULT_NET, network: embedded }),
};

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::moebius_chess::{CheckRule, PawnPhasing};

    #[test]
    fn the_built_in_network_reads_and_plays_the_default_rules_only() {
        let start = MoebiusChess::startpos(&MoebiusOptions::default());
        let net = embedded(&start).expect("a network under the default rules");
        assert!(net.on_hand(), "a correction of the hand evaluation");
        let others = [
            MoebiusOptions { check_rule: CheckRule::Nierse, ..MoebiusOptions::default() },
            MoebiusOptions { pawn_phasing: PawnPhasing::EmptyOnly, ..MoebiusOptions::default() },
        ];
        for opts in others {
            assert!(embedded(&MoebiusChess::startpos(&opts)).is_none(), "{opts:?}");
        }
    }
}
