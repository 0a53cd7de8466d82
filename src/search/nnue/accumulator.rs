//! The first layer's sums per perspective, refreshed from a position or updated feature
//! by feature.

use super::Features;
use super::network::{Network, QA, QB};
use crate::core::Side;

/// The first layer's output before the clipped ReLU, for each perspective (indexed by
/// [`Side::index`]): the bias plus the rows of the active features. Kept in 16 bits, as
/// NNUE engines keep it (twice the values per vector instruction of 32 bits): a network
/// is refused when some sum of its rows could leave that range
/// ([`Network::accumulator_overflow`]), so no sum along the search can overflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [Vec<i16>; 2],
}

impl Accumulator {
    /// An accumulator holding only the biases (no feature active) of `net`.
    pub fn new(net: &Network) -> Accumulator {
        Accumulator { values: [net.l1_bias.clone(), net.l1_bias.clone()] }
    }

    /// `perspective`'s values.
    pub fn values(&self, perspective: Side) -> &[i16] {
        &self.values[perspective.index()]
    }

    /// Recomputes both perspectives from `pos`'s active features (`scratch` is reused
    /// for the feature lists).
    pub fn refresh<G: Features>(&mut self, net: &Network, pos: &G, scratch: &mut Vec<u32>) {
        for side in [Side::P1, Side::P2] {
            let values = &mut self.values[side.index()];
            values.copy_from_slice(&net.l1_bias);
            scratch.clear();
            pos.active_features(side, scratch);
            for &f in scratch.iter() {
                add_row(values, net.row(f));
            }
        }
    }

    /// Feature `f` became active for `perspective`.
    pub fn add(&mut self, net: &Network, perspective: Side, f: u32) {
        add_row(&mut self.values[perspective.index()], net.row(f));
    }

    /// `self` = `parent` with the rows of `removed` taken away from and those of
    /// `added` put into each perspective (indexed by [`Side::index`]): one move's
    /// update in the search.
    pub fn update_from(
        &mut self,
        net: &Network,
        parent: &Accumulator,
        removed: [&[u32]; 2],
        added: [&[u32]; 2],
    ) {
        for side in 0..2 {
            let (values, from) = (&mut self.values[side], &parent.values[side]);
            if values.len() % TILE != 0 {
                values.copy_from_slice(from);
                removed[side].iter().for_each(|&f| sub_row(values, net.row(f)));
                added[side].iter().for_each(|&f| add_row(values, net.row(f)));
                continue;
            }
            // Tile by tile, each tile held in registers through all the rows: one read of
            // the parent and one write of the child, where row by row reads and writes
            // the child once per changed feature.
            for (t, (out, from)) in
                values.chunks_exact_mut(TILE).zip(from.chunks_exact(TILE)).enumerate()
            {
                let mut tile: [i16; TILE] = from.try_into().expect("a tile");
                let columns = t * TILE..(t + 1) * TILE;
                removed[side]
                    .iter()
                    .for_each(|&f| sub_row(&mut tile, &net.row(f)[columns.clone()]));
                added[side].iter().for_each(|&f| add_row(&mut tile, &net.row(f)[columns.clone()]));
                out.copy_from_slice(&tile);
            }
        }
    }
}

/// The values [`Accumulator::update_from`] keeps in registers at a time: 64 bytes.
const TILE: usize = 32;

/// `values += row`, element by element (the range check of the network rules out
/// overflow).
fn add_row(values: &mut [i16], row: &[i16]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v += w;
    }
}

/// `values -= row`, element by element.
fn sub_row(values: &mut [i16], row: &[i16]) {
    for (v, &w) in values.iter_mut().zip(row) {
        *v -= w;
    }
}

/// The network's output from an accumulator (the second layer), here beside the
/// accumulator it reads so that `network.rs` (the weights) does not name it.
impl Network {
    /// The output in units of `1 / (QA · QB)` of the logit, for `stm` to move.
    pub fn output(&self, acc: &Accumulator, stm: Side) -> i32 {
        let (own, theirs) = self.l2_weights.split_at(self.hidden);
        let layer = |values: &[i16], weights: &[i16]| -> i32 {
            values
                .iter()
                .zip(weights)
                .map(|(&v, &w)| i32::from(v.clamp(0, QA as i16)) * i32::from(w))
                .sum()
        };
        layer(acc.values(stm), own) + layer(acc.values(stm.opponent()), theirs) + self.l2_bias
    }

    /// The output logit: `σ(logit)` predicts the side to move's score.
    pub fn logit(&self, acc: &Accumulator, stm: Side) -> f32 {
        self.output(acc, stm) as f32 / (QA * QB) as f32
    }

    /// The side to move's expected score (1 win, ½ draw, 0 loss).
    pub fn win_probability(&self, acc: &Accumulator, stm: Side) -> f32 {
        1.0 / (1.0 + (-self.logit(acc, stm)).exp())
    }

    /// The side to move's expected score in `pos`, from a freshly refreshed accumulator
    /// (for searches that do not keep one along their moves).
    pub fn win_probability_of<G: Features>(&self, pos: &G) -> f32 {
        let mut acc = Accumulator::new(self);
        acc.refresh(self, pos, &mut Vec::with_capacity(64));
        self.win_probability(&acc, pos.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Rng};
    use crate::games::mabula::{Mabula, MabulaOptions};
    use crate::search::nnue::QA;

    /// Sorted active features of `side`.
    fn active(pos: &Mabula, side: Side) -> Vec<u32> {
        let mut v = Vec::new();
        pos.active_features(side, &mut v);
        v.sort_unstable();
        v
    }

    #[test]
    fn updating_move_by_move_equals_a_refresh_along_random_games() {
        let net = Network::random(Mabula::NAME, Mabula::FEATURE_COUNT, 32, 9);
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(4);
        let (mut scratch, mut moves) = (Vec::new(), Vec::new());
        for _ in 0..20 {
            let mut pos = Mabula::random(&opts, &mut rng);
            let mut acc = Accumulator::new(&net);
            acc.refresh(&net, &pos, &mut scratch);
            while pos.outcome().is_none() {
                let before = [Side::P1, Side::P2].map(|s| active(&pos, s));
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(*rng.choose(&moves));
                let after = [Side::P1, Side::P2].map(|s| active(&pos, s));
                let off = |s: usize| -> Vec<u32> {
                    before[s].iter().copied().filter(|f| !after[s].contains(f)).collect()
                };
                let on = |s: usize| -> Vec<u32> {
                    after[s].iter().copied().filter(|f| !before[s].contains(f)).collect()
                };
                let (removed, added) = ([off(0), off(1)], [on(0), on(1)]);
                let parent = acc.clone();
                let (removed, added) =
                    (removed.each_ref().map(Vec::as_slice), added.each_ref().map(Vec::as_slice));
                acc.update_from(&net, &parent, removed, added);
                let mut fresh = Accumulator::new(&net);
                fresh.refresh(&net, &pos, &mut scratch);
                assert_eq!(acc, fresh, "{}", pos.to_fen());
                let stm = pos.side_to_move();
                assert_eq!(net.output(&acc, stm), net.output(&fresh, stm));
            }
        }
    }

    #[test]
    fn the_output_is_the_clipped_layers_by_hand() {
        let net = Network::random(Mabula::NAME, Mabula::FEATURE_COUNT, 8, 5);
        let pos = Mabula::startpos(&MabulaOptions::default());
        let mut acc = Accumulator::new(&net);
        acc.refresh(&net, &pos, &mut Vec::new());
        let mut expected = net.l2_bias;
        for (k, side) in [Side::P1, Side::P2].into_iter().enumerate() {
            let mut features = Vec::new();
            pos.active_features(side, &mut features);
            for i in 0..8 {
                let sum: i32 = i32::from(net.l1_bias[i])
                    + features
                        .iter()
                        .map(|&f| i32::from(net.l1_weights[f as usize * 8 + i]))
                        .sum::<i32>();
                expected += sum.clamp(0, QA) * i32::from(net.l2_weights[k * 8 + i]);
            }
        }
        assert_eq!(net.output(&acc, Side::P1), expected);
        let p = net.win_probability(&acc, Side::P1);
        assert!((p - 1.0 / (1.0 + (-(expected as f32) / (255.0 * 64.0)).exp())).abs() < 1e-6);
    }
}
