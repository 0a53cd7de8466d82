//! The generic alpha-beta with a network option: `<Game> EvalFile` (a user's option)
//! loads a network file that evaluates instead of the hand evaluation, and the tuning
//! option `<Game> EvalFile Weight` blends the two (thousandths of the network). A game
//! whose search needs nothing else plays with this; one with more (Morris's databases)
//! holds its own.

use std::sync::Arc;

use super::nnue::{Features, NetEval, Network, load_eval_file};
use super::{AlphaBeta, Evaluate, Reporter, SearchControl, Searcher};
use crate::core::{Limits, OptionKind, OptionSpec, OptionValue};

/// The names of a game's network options.
#[derive(Clone, Copy, Debug)]
pub struct NetOptionNames {
    /// The file option (default empty: the hand evaluation).
    pub file: &'static str,
    /// The weight option, a tuning knob in thousandths (default 1000: the network alone).
    pub weight: &'static str,
}

/// SPSA's final perturbation of the weight (thousandths).
const WEIGHT_STEP: f64 = 50.0;

/// [`AlphaBeta`] with a network loaded from a file.
pub struct NetAlphaBeta<G: Evaluate + Features> {
    search: AlphaBeta<G>,
    names: NetOptionNames,
    network: Option<Arc<Network>>,
    weight: i32,
}

impl<G: Evaluate + Features> NetAlphaBeta<G> {
    /// A search with a hash table of about `hash_mb` megabytes and no network.
    pub fn new(hash_mb: usize, names: NetOptionNames) -> NetAlphaBeta<G> {
        NetAlphaBeta { search: AlphaBeta::new(hash_mb), names, network: None, weight: 1000 }
    }

    /// Hands the network and its weight to the alpha-beta.
    fn apply(&mut self) {
        let net = self.network.clone().map(|n| n as Arc<dyn NetEval<G>>);
        self.search.set_network(net, self.weight);
    }
}

impl<G: Evaluate + Features> Searcher<G> for NetAlphaBeta<G> {
    fn set_hash_mb(&mut self, mb: usize) {
        self.search.set_hash_mb(mb);
    }

    fn set_threads(&mut self, threads: usize) {
        self.search.set_threads(threads);
    }

    fn set_multipv(&mut self, lines: usize) {
        self.search.set_multipv(lines);
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs = self.search.option_specs();
        specs.push(OptionSpec {
            name: self.names.file,
            kind: OptionKind::Str { default: "<empty>" },
        });
        specs
    }

    /// The alpha-beta's knobs, then the network's weight.
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        let mut specs = self.search.tuning_specs();
        let kind = OptionKind::Spin { default: i64::from(self.weight), min: 0, max: 1000 };
        specs.push(OptionSpec { name: self.names.weight, kind });
        specs
    }

    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        let mut steps = self.search.spsa_steps();
        steps.push((self.names.weight, WEIGHT_STEP));
        steps
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match value {
            OptionValue::Text(path) if name.eq_ignore_ascii_case(self.names.file) => {
                self.network = load_eval_file::<G>(self.names.file, path)?;
                self.apply();
                Ok(())
            }
            OptionValue::Int(w) if name.eq_ignore_ascii_case(self.names.weight) => {
                self.weight = (*w).clamp(0, 1000) as i32;
                self.apply();
                Ok(())
            }
            _ => self.search.set_option(name, value),
        }
    }

    fn new_game(&mut self) {
        self.search.new_game();
    }

    fn expected_moves_left(&self, pos: &G) -> u32 {
        self.search.expected_moves_left(pos)
    }

    fn search(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> G::Move {
        self.search.search(pos, root_moves, limits, ctl, reporter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::morpiae::{BENCH_POSITIONS, Morpiae, MorpiaeOptions, NETWORK_OPTIONS};
    use crate::search::{NullReporter, SearchResult};

    type Search = NetAlphaBeta<Morpiae>;

    fn network_file(game: &str, name: &str) -> (std::path::PathBuf, Network) {
        let dir = std::env::temp_dir().join(format!("ugine-net-ab-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = Network::random(game, Morpiae::FEATURE_COUNT, 16, 5);
        let path = dir.join(name);
        std::fs::write(&path, net.to_bytes()).unwrap();
        (path, net)
    }

    fn text(p: &std::path::Path) -> OptionValue {
        OptionValue::Text(p.display().to_string())
    }

    /// A depth-5 search of every bench position.
    fn searches(search: &mut Search) -> Vec<SearchResult<<Morpiae as Game>::Move>> {
        let opts = MorpiaeOptions::default();
        BENCH_POSITIONS
            .iter()
            .map(|fen| {
                let pos = if *fen == "startpos" {
                    Morpiae::startpos(&opts)
                } else {
                    Morpiae::from_fen(fen, &opts).unwrap()
                };
                search.new_game();
                let ctl = SearchControl::fixed(Some(5), None);
                search.search.run(&pos, &ctl, &mut NullReporter)
            })
            .collect()
    }

    #[test]
    fn the_options_are_announced_and_a_bad_file_keeps_the_network() {
        let mut search = Search::new(1, NETWORK_OPTIONS);
        let file = search.option_specs().into_iter().find(|s| s.name == NETWORK_OPTIONS.file);
        assert_eq!(file.unwrap().kind, OptionKind::Str { default: "<empty>" });
        let weight = search.tuning_specs().into_iter().find(|s| s.name == NETWORK_OPTIONS.weight);
        assert_eq!(weight.unwrap().kind, OptionKind::Spin { default: 1000, min: 0, max: 1000 });
        assert!(search.spsa_steps().contains(&(NETWORK_OPTIONS.weight, WEIGHT_STEP)));
        assert!(search.network.is_none(), "the hand evaluation by default");
        let (good, net) = network_file("morpiae", "good.nnue");
        search.set_option(NETWORK_OPTIONS.file, &text(&good)).unwrap();
        assert_eq!(search.network.as_deref(), Some(&net));
        let (morris, _) = network_file("morris", "morris.nnue");
        for (bad, why) in
            [(good.with_file_name("missing.nnue"), "No such file"), (morris, "'morris'")]
        {
            let err = search.set_option(NETWORK_OPTIONS.file, &text(&bad)).unwrap_err();
            assert!(err.starts_with("Morpiae EvalFile '"), "{err}");
            assert!(err.contains(why) && err.contains("unchanged"), "{err}");
            assert_eq!(search.network.as_deref(), Some(&net), "kept");
        }
        search.set_option(NETWORK_OPTIONS.file, &OptionValue::Text("<empty>".into())).unwrap();
        assert!(search.network.is_none());
    }

    #[test]
    fn the_network_evaluates_and_weight_zero_is_the_hand_evaluation() {
        let mut plain = AlphaBeta::<Morpiae>::new(4);
        let opts = MorpiaeOptions::default();
        let hand: Vec<_> = BENCH_POSITIONS
            .iter()
            .map(|fen| {
                let pos = if *fen == "startpos" {
                    Morpiae::startpos(&opts)
                } else {
                    Morpiae::from_fen(fen, &opts).unwrap()
                };
                plain.new_game();
                plain.run(&pos, &SearchControl::fixed(Some(5), None), &mut NullReporter)
            })
            .collect();
        let mut search = Search::new(4, NETWORK_OPTIONS);
        assert_eq!(searches(&mut search), hand, "no network: the plain alpha-beta");
        search
            .set_option(NETWORK_OPTIONS.file, &text(&network_file("morpiae", "n.nnue").0))
            .unwrap();
        assert_ne!(searches(&mut search), hand, "a network changes the search");
        search.set_option(NETWORK_OPTIONS.weight, &OptionValue::Int(0)).unwrap();
        assert_eq!(searches(&mut search), hand, "weight 0: the hand evaluation alone");
    }
}
