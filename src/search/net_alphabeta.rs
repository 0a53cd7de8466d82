//! The generic alpha-beta with a network option: `<Game> EvalFile` (a user's option)
//! loads a network file that evaluates instead of the hand evaluation, or names the
//! networks built into the engine (its default, for a game that has them; each position
//! is played by the one of its rules); empty means the hand evaluation. The tuning option
//! `<Game> EvalFile Weight` blends the network with the hand evaluation (thousandths of
//! the network). A game whose search needs nothing more plays with this (Morpiae); one
//! with more holds it inside its own (Morris, with its databases).

use std::sync::Arc;

use super::nnue::{Features, NetEval, Network, load_eval_file};
use super::{AlphaBeta, Evaluate, Reporter, SearchControl, Searcher};
use crate::core::{Limits, OptionKind, OptionSpec, OptionValue};

/// The networks built into the engine for a game: the name that selects them (the file
/// option's default) and the one that plays a position (by its rules; `None`: the hand
/// evaluation).
pub struct Embedded<G> {
    pub name: &'static str,
    pub network: fn(&G) -> Option<Arc<Network>>,
}

impl<G> Clone for Embedded<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Embedded<G> {}

/// A game's network options.
pub struct NetOptions<G> {
    /// The file option.
    pub file: &'static str,
    /// The weight option, a tuning knob in thousandths (default 1000: the network alone).
    pub weight: &'static str,
    /// The built-in networks, the file option's default (`None`: the default is empty,
    /// the hand evaluation).
    pub embedded: Option<Embedded<G>>,
}

impl<G> Clone for NetOptions<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for NetOptions<G> {}

/// The value of an empty file option.
const EMPTY: &str = "<empty>";

/// SPSA's final perturbation of the weight (thousandths).
const WEIGHT_STEP: f64 = 50.0;

/// What the file option chose.
#[derive(Clone)]
enum Choice {
    /// The hand evaluation.
    Hand,
    /// The built-in network of each position's rules.
    Embedded,
    /// A network read from a file.
    File(Arc<Network>),
}

/// [`AlphaBeta`] with a network: a built-in one or one loaded from a file.
pub struct NetAlphaBeta<G: Evaluate + Features> {
    search: AlphaBeta<G>,
    options: NetOptions<G>,
    choice: Choice,
    weight: i32,
    /// The network and weight the alpha-beta has (`None`: not set since a change).
    applied: Option<(Option<Arc<Network>>, i32)>,
}

impl<G: Evaluate + Features> NetAlphaBeta<G> {
    /// A search with a hash table of about `hash_mb` megabytes and the default network
    /// (the built-in ones, if the game has them).
    pub fn new(hash_mb: usize, options: NetOptions<G>) -> NetAlphaBeta<G> {
        let choice = if options.embedded.is_some() { Choice::Embedded } else { Choice::Hand };
        NetAlphaBeta {
            search: AlphaBeta::new(hash_mb),
            options,
            choice,
            weight: 1000,
            applied: None,
        }
    }

    /// The alpha-beta inside (to set an oracle, or search without the network choice).
    pub fn alpha_beta(&mut self) -> &mut AlphaBeta<G> {
        &mut self.search
    }

    /// The network that plays `pos` (`None`: the hand evaluation).
    pub fn network_for(&self, pos: &G) -> Option<Arc<Network>> {
        match (&self.choice, self.options.embedded) {
            (Choice::File(net), _) => Some(Arc::clone(net)),
            (Choice::Embedded, Some(embedded)) => (embedded.network)(pos),
            _ => None,
        }
    }

    /// Hands the alpha-beta the network that plays `pos` and its weight, unless it has
    /// them.
    pub fn prepare(&mut self, pos: &G) {
        let net = self.network_for(pos);
        let same = |(old, w): &(Option<Arc<Network>>, i32)| {
            *w == self.weight
                && match (old, &net) {
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                    (None, None) => true,
                    _ => false,
                }
        };
        if self.applied.as_ref().is_some_and(same) {
            return;
        }
        let dynamic = net.clone().map(|n| n as Arc<dyn NetEval<G>>);
        self.search.set_network(dynamic, self.weight);
        self.applied = Some((net, self.weight));
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
        let default = self.options.embedded.map_or(EMPTY, |e| e.name);
        specs.push(OptionSpec { name: self.options.file, kind: OptionKind::Str { default } });
        specs
    }

    /// The alpha-beta's knobs, then the network's weight.
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        let mut specs = self.search.tuning_specs();
        let kind = OptionKind::Spin { default: i64::from(self.weight), min: 0, max: 1000 };
        specs.push(OptionSpec { name: self.options.weight, kind });
        specs
    }

    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        let mut steps = self.search.spsa_steps();
        steps.push((self.options.weight, WEIGHT_STEP));
        steps
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match value {
            OptionValue::Text(path) if name.eq_ignore_ascii_case(self.options.file) => {
                let path = path.trim();
                self.choice = match self.options.embedded {
                    Some(embedded) if path == embedded.name => Choice::Embedded,
                    _ => match load_eval_file::<G>(self.options.file, path)? {
                        Some(net) => Choice::File(net),
                        None => Choice::Hand,
                    },
                };
                self.applied = None;
                Ok(())
            }
            OptionValue::Int(w) if name.eq_ignore_ascii_case(self.options.weight) => {
                self.weight = (*w).clamp(0, 1000) as i32;
                self.applied = None;
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
        self.prepare(pos);
        self.search.search(pos, root_moves, limits, ctl, reporter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::morpiae::{BENCH_POSITIONS, Morpiae, MorpiaeOptions, NETWORK_OPTIONS};
    use crate::search::nnue::Features;
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

    /// The bench positions.
    fn bench_positions() -> Vec<Morpiae> {
        let opts = MorpiaeOptions::default();
        let read = |fen: &&str| match *fen {
            "startpos" => Morpiae::startpos(&opts),
            fen => Morpiae::from_fen(fen, &opts).unwrap(),
        };
        BENCH_POSITIONS.iter().map(read).collect()
    }

    /// A depth-5 search of every bench position.
    fn searches(search: &mut Search) -> Vec<SearchResult<<Morpiae as Game>::Move>> {
        bench_positions()
            .into_iter()
            .map(|pos| {
                search.new_game();
                search.prepare(&pos);
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
        let start = Morpiae::startpos(&MorpiaeOptions::default());
        assert!(search.network_for(&start).is_none(), "the hand evaluation by default");
        let (good, net) = network_file("morpiae", "good.nnue");
        search.set_option(NETWORK_OPTIONS.file, &text(&good)).unwrap();
        assert_eq!(search.network_for(&start).as_deref(), Some(&net));
        let (morris, _) = network_file("morris", "morris.nnue");
        for (bad, why) in
            [(good.with_file_name("missing.nnue"), "No such file"), (morris, "'morris'")]
        {
            let err = search.set_option(NETWORK_OPTIONS.file, &text(&bad)).unwrap_err();
            assert!(err.starts_with("Morpiae EvalFile '"), "{err}");
            assert!(err.contains(why) && err.contains("unchanged"), "{err}");
            assert_eq!(search.network_for(&start).as_deref(), Some(&net), "kept");
        }
        search.set_option(NETWORK_OPTIONS.file, &OptionValue::Text("<empty>".into())).unwrap();
        assert!(search.network_for(&start).is_none());
    }

    #[test]
    fn the_network_evaluates_and_weight_zero_is_the_hand_evaluation() {
        let mut plain = AlphaBeta::<Morpiae>::new(4);
        let hand: Vec<_> = bench_positions()
            .into_iter()
            .map(|pos| {
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

    /// A network trained on the hand evaluation adds to it: with every weight zero but
    /// the output bias, each evaluation is the hand one plus that bias in `cp` (50 for
    /// the side to move, so a depth-1 search, whose leaves are the opponent's, scores 50
    /// less and keeps its move).
    #[test]
    fn a_network_on_the_hand_evaluation_adds_to_it() {
        let mut plain = AlphaBeta::<Morpiae>::new(4);
        let ctl = SearchControl::fixed(Some(1), None);
        let positions = bench_positions();
        let hand: Vec<_> = positions
            .iter()
            .map(|pos| {
                plain.new_game();
                plain.run(pos, &ctl, &mut NullReporter)
            })
            .collect();
        let features = Morpiae::FEATURE_COUNT;
        let (zeros, bias) = (vec![0.0; features * 4], vec![0.0; 4]);
        let w = crate::search::nnue::FloatWeights {
            l1_weights: &zeros,
            l1_bias: &bias,
            l2_weights: &[0.0; 8],
            l2_bias: 0.5,
        };
        let net = Network::from_float("morpiae", features, 4, 100.0, &w).with_on_hand(true);
        let mut search = Search::new(4, NETWORK_OPTIONS);
        search.choice = Choice::File(Arc::new(net));
        for (pos, hand) in positions.iter().zip(&hand) {
            search.new_game();
            search.prepare(pos);
            let result = search.search.run(pos, &ctl, &mut NullReporter);
            assert_eq!(result.best(), hand.best());
            assert_eq!(result.score(), hand.score() - 50, "{result:?} {hand:?}");
        }
    }
}
