//! The Morris search: the generic alpha-beta with a network ([`NetAlphaBeta`]) and the
//! endgame databases as its oracle (option `Morris DB Path`). The network (`features.rs`)
//! evaluates instead of the hand evaluation, or blended with it (tuning option `Morris
//! EvalFile Weight`, thousandths of the network). By default ([`DEFAULT_NET`]) an embedded
//! network plays each rule set, the one trained and tested on it: [`EMBEDDED`] the seed
//! rules, [`EMBEDDED_STANDARD`] the standard rules. Option `Morris EvalFile` loads
//! another network (for both rule sets) or, empty, turns the network off.

use std::path::Path;
use std::sync::{Arc, LazyLock};

use super::board::Morris;
use super::db::{Class, DbValue, MorrisDb};
use super::notation::MorrisMove;
use super::options::MorrisRules;
use crate::core::{Game, Limits, OptionKind, OptionSpec, OptionValue};
use crate::search::nnue::Network;
use crate::search::{
    Embedded, NetAlphaBeta, NetOptions, Oracle, Reporter, SearchControl, Searcher, Verdict,
};

/// The option naming the database directory (empty: no databases).
pub const DB_PATH: &str = "Morris DB Path";
/// Its default, spelled as UCI engines spell an empty path (a trailing space after
/// `default` would confuse GUIs).
const NO_PATH: &str = "<empty>";
/// The option naming a network file that evaluates positions (a user's option; empty:
/// the hand evaluation).
pub const EVAL_FILE: &str = "Morris EvalFile";
/// The value of [`EVAL_FILE`] naming the embedded networks, each for its rule set (its
/// default; the name of the seed rules' network).
pub const DEFAULT_NET: &str = "morris-233x64-2026-11-29.nnue";
/// The embedded network of the seed rules (`nets/README.md`): the first refined on
/// placement positions labelled by deeper searches, +18.3 ± 11.4 Elo against it (which
/// scored +21.6 ± 13.0 against the hand evaluation) at 1+0.01 (SPRTs in
/// `docs/strength.md`).
static EMBEDDED: &[u8] = include_bytes!("../../../nets/morris-233x64-2026-11-29.nnue");
/// The embedded network of the standard rules (`nets/README.md`): the second generation
/// refined on placement positions labelled by deeper searches, +9.8 ± 6.9 Elo against
/// it (which scored +28.9 ± 13.3 against the first, and that +15.5 ± 9.7 against the hand
/// evaluation) at 1+0.01, standard rules (SPRTs in `docs/strength.md`).
static EMBEDDED_STANDARD: &[u8] = include_bytes!("../../../nets/morris-std-233x64-2026-11-29.nnue");

/// The embedded network of `pos`'s rules.
fn embedded(pos: &Morris) -> Option<Arc<Network>> {
    use crate::search::nnue::Features;
    fn parse(bytes: &[u8]) -> Arc<Network> {
        Arc::new(
            Network::from_bytes(bytes, Morris::NAME, Morris::FEATURE_COUNT)
                .expect("the embedded Morris network matches the features"),
        )
    }
    static SEED: LazyLock<Arc<Network>> = LazyLock::new(|| parse(EMBEDDED));
    static STANDARD: LazyLock<Arc<Network>> = LazyLock::new(|| parse(EMBEDDED_STANDARD));
    Some(Arc::clone(match pos.options().rules {
        MorrisRules::Seed => &SEED,
        MorrisRules::Standard => &STANDARD,
    }))
}

/// Morris's network options: [`EVAL_FILE`], its weight (a tuning option) and the
/// embedded networks.
const NETWORK_OPTIONS: NetOptions<Morris> = NetOptions {
    file: EVAL_FILE,
    weight: "Morris EvalFile Weight",
    embedded: Some(Embedded { name: DEFAULT_NET, network: embedded }),
};

/// The databases of both rule sets, as the search's oracle.
struct DbOracle {
    seed: MorrisDb,
    standard: MorrisDb,
}

impl DbOracle {
    fn db(&self, pos: &Morris) -> &MorrisDb {
        match pos.options().rules {
            MorrisRules::Seed => &self.seed,
            MorrisRules::Standard => &self.standard,
        }
    }

    /// A database value as a verdict under the position's move limit: exact only when the
    /// game cannot reach the limit before the distance (captures reset the count, so this
    /// is on the safe side).
    fn verdict(pos: &Morris, v: DbValue) -> Verdict {
        let limit = pos.options().move_limit;
        let left = if limit == 0 { u32::MAX } else { limit.saturating_sub(pos.quiet_plies()) };
        match v {
            DbValue::Win(d) if d as u32 <= left => Verdict::Win(d as u32),
            DbValue::Win(d) => Verdict::LikelyWin(d as u32),
            DbValue::Loss(d) if d as u32 <= left => Verdict::Loss(d as u32),
            DbValue::Loss(d) => Verdict::LikelyLoss(d as u32),
            DbValue::Draw => Verdict::Draw,
        }
    }
}

impl Oracle<Morris> for DbOracle {
    fn probe(&self, pos: &Morris) -> Option<Verdict> {
        Some(Self::verdict(pos, self.db(pos).probe(pos)?))
    }

    fn best_move(&self, pos: &Morris) -> Option<(MorrisMove, Verdict)> {
        let (mv, v) = self.db(pos).best_move(pos)?;
        Some((mv, Self::verdict(pos, v)))
    }

    fn describe(&self, pos: &Morris) -> String {
        let stm = pos.side_to_move();
        let class = Class::of(pos.men(stm), pos.men(stm.opponent()));
        format!("Morris DB class {}v{}", class.own, class.opp)
    }
}

/// The classes of a database, as `3v3 4v3 …`.
fn class_list(db: &MorrisDb) -> String {
    let list: Vec<String> = db.classes().map(|c| format!("{}v{}", c.own, c.opp)).collect();
    if list.is_empty() { "none".into() } else { list.join(" ") }
}

/// Alpha-beta with a network and the Morris endgame databases.
pub struct MorrisSearch {
    search: NetAlphaBeta<Morris>,
    /// What loading the databases found, told at the next search (`info string`).
    note: Option<String>,
}

impl MorrisSearch {
    /// A search with a hash table of about `hash_mb` megabytes, no databases and the
    /// embedded networks.
    pub fn new(hash_mb: usize) -> MorrisSearch {
        MorrisSearch { search: NetAlphaBeta::new(hash_mb, NETWORK_OPTIONS), note: None }
    }

    /// Loads the databases of both rule sets found in `dir` (empty: none) and returns
    /// what was found.
    fn load(&mut self, dir: &str) -> String {
        if dir.trim().is_empty() || dir.trim() == NO_PATH {
            self.search.alpha_beta().set_oracle(None);
            return "Morris DB off".into();
        }
        let (seed, mut errors) = MorrisDb::open(Path::new(dir), MorrisRules::Seed);
        let (standard, more) = MorrisDb::open(Path::new(dir), MorrisRules::Standard);
        errors.extend(more);
        let mut note = format!(
            "Morris DB {dir}: seed classes {}; standard classes {}",
            class_list(&seed),
            class_list(&standard)
        );
        for e in errors {
            note.push_str(&format!("; skipped {e}"));
        }
        let any = seed.classes().next().is_some() || standard.classes().next().is_some();
        let oracle = any.then(|| Arc::new(DbOracle { seed, standard }) as _);
        self.search.alpha_beta().set_oracle(oracle);
        note
    }
}

impl Searcher<Morris> for MorrisSearch {
    fn set_hash_mb(&mut self, mb: usize) {
        self.search.set_hash_mb(mb);
    }

    fn set_threads(&mut self, threads: usize) {
        self.search.set_threads(threads);
    }

    fn set_multipv(&mut self, lines: usize) {
        self.search.set_multipv(lines);
    }

    /// The databases' path, then the network's file.
    fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs =
            vec![OptionSpec { name: DB_PATH, kind: OptionKind::Str { default: NO_PATH } }];
        specs.extend(self.search.option_specs());
        specs
    }

    /// The alpha-beta's options, then the network's weight.
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        self.search.tuning_specs()
    }

    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        self.search.spsa_steps()
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        match (name, value) {
            (DB_PATH, OptionValue::Text(dir)) => {
                let note = self.load(dir);
                log::info!("{note}");
                self.note = Some(note);
                Ok(())
            }
            _ => self.search.set_option(name, value),
        }
    }

    fn new_game(&mut self) {
        self.search.new_game();
    }

    fn expected_moves_left(&self, pos: &Morris) -> u32 {
        self.search.expected_moves_left(pos)
    }

    fn search(
        &mut self,
        pos: &Morris,
        root_moves: &[MorrisMove],
        limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MorrisMove {
        if let Some(note) = self.note.take() {
            reporter.note(&note);
        }
        self.search.search(pos, root_moves, limits, ctl, reporter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::morris::{BENCH_POSITIONS, MorrisOptions};
    use crate::search::nnue::{Accumulator, FeatureDelta, Features, NetEval};
    use crate::search::{NullReporter, SearchResult};

    /// A network that never tells a move's delta: the search refreshes its accumulator
    /// at every position it evaluates.
    struct Refreshing(Network);

    impl NetEval<Morris> for Refreshing {
        fn accumulator(&self) -> Accumulator {
            NetEval::<Morris>::accumulator(&self.0)
        }
        fn refresh(&self, pos: &Morris, acc: &mut Accumulator, scratch: &mut Vec<u32>) {
            self.0.refresh(pos, acc, scratch);
        }
        fn move_delta(&self, _: &Morris, _: MorrisMove, _: &mut FeatureDelta) -> bool {
            false
        }
        fn apply(&self, parent: &Accumulator, delta: &FeatureDelta, child: &mut Accumulator) {
            NetEval::<Morris>::apply(&self.0, parent, delta, child);
        }
        fn evaluate(&self, acc: &Accumulator, stm: crate::core::Side) -> i32 {
            NetEval::<Morris>::evaluate(&self.0, acc, stm)
        }
        fn on_hand(&self) -> bool {
            false
        }
    }

    /// A network file of random weights for Morris (or another game's name) in a
    /// scratch directory.
    fn network_file(game: &str, name: &str) -> (std::path::PathBuf, Network) {
        let dir = std::env::temp_dir().join(format!("ugine-morris-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = Network::random(game, Morris::FEATURE_COUNT, 16, 11);
        let path = dir.join(name);
        std::fs::write(&path, net.to_bytes()).unwrap();
        (path, net)
    }

    fn text(p: &std::path::Path) -> OptionValue {
        OptionValue::Text(p.display().to_string())
    }

    #[test]
    fn eval_file_loads_a_network_and_a_bad_file_keeps_the_current_one() {
        let mut search = MorrisSearch::new(1);
        let start = Morris::startpos(&MorrisOptions::default());
        let network = |s: &MorrisSearch| s.search.network_for(&start);
        let seed_net = embedded(&start).unwrap();
        assert_eq!(network(&search).as_deref(), Some(&*seed_net), "the embedded network");
        let spec = search.option_specs().into_iter().find(|s| s.name == EVAL_FILE).unwrap();
        assert_eq!(spec.kind, OptionKind::Str { default: DEFAULT_NET });
        assert!(search.tuning_specs().iter().any(|s| s.name == "Morris EvalFile Weight"));
        let (good, net) = network_file("morris", "good.nnue");
        search.set_option(EVAL_FILE, &text(&good)).unwrap();
        assert_eq!(network(&search).as_deref(), Some(&net));
        let (mabula, _) = network_file("mabula", "mabula.nnue");
        let truncated = good.with_file_name("truncated.nnue");
        std::fs::write(&truncated, &net.to_bytes()[..50]).unwrap();
        for (bad, why) in [
            (good.with_file_name("missing.nnue"), "No such file"),
            (mabula, "for the game 'mabula'"),
            (truncated, "truncated"),
        ] {
            let err = search.set_option(EVAL_FILE, &text(&bad)).unwrap_err();
            assert!(err.starts_with("Morris EvalFile '"), "{err}");
            assert!(err.contains(why) && err.contains("unchanged"), "{err}");
            assert_eq!(network(&search).as_deref(), Some(&net), "kept");
        }
        search.set_option(EVAL_FILE, &OptionValue::Text(NO_PATH.into())).unwrap();
        assert!(network(&search).is_none());
        search.set_option(EVAL_FILE, &OptionValue::Text(DEFAULT_NET.into())).unwrap();
        assert_eq!(network(&search).as_deref(), Some(&*seed_net));
    }

    /// A fixed-depth search of every bench position under `opts` with `search`'s
    /// settings (its network set for the rules, as a search sets it).
    fn searches_under(
        search: &mut MorrisSearch,
        opts: MorrisOptions,
    ) -> Vec<SearchResult<MorrisMove>> {
        BENCH_POSITIONS
            .iter()
            .map(|fen| {
                let pos = if *fen == "startpos" {
                    Morris::startpos(&opts)
                } else {
                    Morris::from_fen(fen, &opts).unwrap()
                };
                search.new_game();
                search.search.prepare(&pos);
                let ctl = SearchControl::fixed(Some(7), None);
                search.search.alpha_beta().run(&pos, &ctl, &mut NullReporter)
            })
            .collect()
    }

    fn searches(search: &mut MorrisSearch) -> Vec<SearchResult<MorrisMove>> {
        searches_under(search, MorrisOptions::default())
    }

    /// A search with the hand evaluation.
    fn hand_search() -> MorrisSearch {
        let mut search = MorrisSearch::new(4);
        search.set_option(EVAL_FILE, &OptionValue::Text(NO_PATH.into())).unwrap();
        search
    }

    /// A search with the network in `bytes` loaded from a file.
    fn search_with(bytes: &[u8], name: &str) -> MorrisSearch {
        let dir = std::env::temp_dir().join(format!("ugine-morris-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let mut search = MorrisSearch::new(4);
        search.set_option(EVAL_FILE, &text(&path)).unwrap();
        search
    }

    #[test]
    fn each_rule_set_plays_its_embedded_network_by_default() {
        let standard = MorrisOptions { rules: MorrisRules::Standard, ..MorrisOptions::default() };
        let seed = MorrisOptions::default();
        let mut default = MorrisSearch::new(4);
        let mut seed_net = search_with(EMBEDDED, "seed.nnue");
        let mut standard_net = search_with(EMBEDDED_STANDARD, "standard.nnue");
        assert_ne!(EMBEDDED, EMBEDDED_STANDARD);
        // The same search switches network with the rules, back and forth.
        for _ in 0..2 {
            let under_seed = searches_under(&mut default, seed);
            assert_eq!(under_seed, searches_under(&mut seed_net, seed));
            assert_ne!(
                under_seed,
                searches(&mut hand_search()),
                "the seed rules play the hand evaluation"
            );
            let under_standard = searches_under(&mut default, standard);
            assert_eq!(under_standard, searches_under(&mut standard_net, standard));
            assert_ne!(
                under_standard,
                searches_under(&mut hand_search(), standard),
                "the standard rules play the hand evaluation"
            );
            assert_ne!(under_standard, searches_under(&mut seed_net, standard));
        }
        // A network the user loads plays both.
        let (path, _) = network_file("morris", "both.nnue");
        default.set_option(EVAL_FILE, &text(&path)).unwrap();
        let mut random = search_with(&std::fs::read(&path).unwrap(), "random.nnue");
        let under_standard = searches_under(&mut default, standard);
        assert_eq!(under_standard, searches_under(&mut random, standard));
        assert_ne!(under_standard, searches_under(&mut standard_net, standard));
        assert_eq!(searches_under(&mut default, seed), searches_under(&mut random, seed));
    }

    #[test]
    fn the_network_changes_the_search_and_weight_0_is_the_hand_evaluation_node_for_node() {
        let (path, _) = network_file("morris", "search.nnue");
        let hand = searches(&mut hand_search());
        let mut with_net = MorrisSearch::new(4);
        with_net.set_option(EVAL_FILE, &text(&path)).unwrap();
        let net = searches(&mut with_net);
        assert_ne!(net, hand, "a random network searched as the hand evaluation");
        assert_eq!(searches(&mut with_net), net, "not deterministic");
        with_net.set_option("Morris EvalFile Weight", &OptionValue::Int(0)).unwrap();
        assert_eq!(searches(&mut with_net), hand);
        with_net.set_option("Morris EvalFile Weight", &OptionValue::Int(1000)).unwrap();
        with_net.set_threads(2);
        with_net.set_threads(1);
        assert_eq!(searches(&mut with_net), net, "the network is lost with the threads");
        with_net.set_option(EVAL_FILE, &OptionValue::Text(String::new())).unwrap();
        assert_eq!(searches(&mut with_net), hand);
    }

    #[test]
    fn the_incremental_search_equals_one_that_refreshes_every_evaluation() {
        let (_, net) = network_file("morris", "refresh.nnue");
        let mut incremental = MorrisSearch::new(4);
        incremental.set_option(EVAL_FILE, &text(&network_file("morris", "inc.nnue").0)).unwrap();
        let mut refreshing = MorrisSearch::new(4);
        searches(&mut refreshing);
        // The network stays: `prepare` sets one only when the choice changes.
        refreshing.search.alpha_beta().set_network(Some(Arc::new(Refreshing(net))), 1000);
        assert_eq!(searches(&mut incremental), searches(&mut refreshing));
    }
}
