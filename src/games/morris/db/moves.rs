//! Moves between database positions, seen as pairs of men masks (side to move's, other
//! side's). Forward moves come from the game's own move generator; only the reverse
//! steps ("unmoves") that retrograde analysis needs are generated here.

use super::super::board::{Morris, bits};
use super::super::notation::MorrisMove;
use super::super::options::{MorrisOptions, MorrisRules};
use super::index::FULL;
use crate::core::{Game, Side};

/// The rule options the databases are built under: the rule set, and no repetition or
/// move-limit draws (the databases treat a cycle as a draw).
pub fn db_options(rules: MorrisRules) -> MorrisOptions {
    MorrisOptions { rules, repetition: 0, move_limit: 0 }
}

/// The legal moves of the side to move with men `own` against `opp`, both hands empty
/// (none when the position is over), by the game's move generator.
pub fn legal_moves(opts: &MorrisOptions, own: u32, opp: u32, out: &mut Vec<MorrisMove>) {
    out.clear();
    Morris::from_men(opts, [own, opp], Side::P1).generate_moves(out);
}

/// The position after `mv`, from the other side's point of view: (its men, the mover's).
#[inline]
pub fn successor(own: u32, opp: u32, mv: MorrisMove) -> (u32, u32) {
    let own = own & !(1u32 << mv.from) | 1 << mv.to;
    let opp = match mv.captured() {
        Some(c) => opp & !(1 << c),
        None => opp,
    };
    (opp, own)
}

/// Calls `f` with every position (mover's men, other men) from which the side that just
/// moved could have reached (`own`, `opp`) with a step or flight that removed nothing.
/// May include a few positions whose step closes a mill and so would have removed a man:
/// retrograde analysis re-checks every candidate with the forward moves.
pub fn unmoves(rules: MorrisRules, own: u32, opp: u32, mut f: impl FnMut(u32, u32)) {
    let empty = !(own | opp) & FULL;
    let flying = rules == MorrisRules::Standard && opp.count_ones() == 3;
    for to in bits(opp) {
        let from = if flying { empty } else { Morris::adjacent(to) & empty };
        for from in bits(from) {
            f(opp & !(1 << to) | 1 << from, own);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;

    /// Every forward move without capture is found back among the unmoves of its result.
    #[test]
    fn unmoves_cover_every_step_without_capture() {
        let mut rng = Rng::new(3);
        let mut moves = Vec::new();
        for rules in [MorrisRules::Seed, MorrisRules::Standard] {
            let opts = db_options(rules);
            for _ in 0..500 {
                let (mut own, mut opp) = (0u32, 0u32);
                let (n_own, n_opp) = (3 + rng.below(3), 3 + rng.below(3));
                while own.count_ones() < n_own as u32 {
                    own |= 1 << rng.below(24);
                }
                while opp.count_ones() < n_opp as u32 {
                    opp |= 1 << rng.below(24) & !own;
                }
                legal_moves(&opts, own, opp, &mut moves);
                for &mv in moves.iter().filter(|m| m.captured().is_none()) {
                    let (a, b) = successor(own, opp, mv);
                    let mut found = false;
                    unmoves(rules, a, b, |p, q| found |= (p, q) == (own, opp));
                    assert!(found, "{mv} from {own:x} {opp:x}");
                }
            }
        }
    }
}
