//! How Mabula is searched: the generic Monte Carlo tree search ([`MonteCarlo`]) with
//! informed playouts and a reward that counts the margin, and the exact alpha-beta
//! ([`super::search`]) near the end.
//!
//! The largest group is a global goal that a static evaluation at shallow depth judges
//! badly, while playouts to the end judge it well: measured at 100 ms per move, the
//! alpha-beta alone scored 29.5 % against the plain `uct` baseline.
//!
//! - **Playouts** ([`MabulaPolicy::playout_move`]): with probability `greed` the push
//!   landing next to the most own marbles (the first such from a random start in the
//!   move list), else a uniformly random move. [`MabulaPolicy::playout`] plays exactly
//!   these moves (same random numbers, same choices) from the border marbles' reach,
//!   without listing the moves or hashing the positions: 1.15 times the simulations per
//!   second of the move-list playout.
//! - **RAVE** ([`MabulaPolicy::amaf_key`]): a border square is pushed at most once in a
//!   game, so "this marble pushed to that square" is the same move wherever it is played;
//!   its all-moves-as-first statistics are blended into the tree's values.
//! - **Reward**: `(1 − m)·r + m·d/12` for the side, where `r` is +1/0/−1 for a
//!   win/draw/loss, `d` the score difference (largest group: marbles; product: log2 of the
//!   ratio), clamped to ±12, and `m` the margin weight; so a bigger win is preferred.
//! - **End**: with at most `Mabula Solve Border` border marbles left the alpha-beta is
//!   run first on a third of the time (a subtree as deep as the border marbles is
//!   exact); a solved position plays its proven move, else the Monte Carlo search uses
//!   the rest of the time. With several threads the two run side by side instead, from
//!   [`BESIDE_EXTRA`] more border marbles on: half the threads (at least one) solve for
//!   the whole move while the others grow the tree (past the soft budget, up to the hard
//!   deadline, while the alpha-beta is still solving), and whichever ends first ends the
//!   other (a proven move is played, else the tree's).

use std::sync::Arc;
use std::time::Duration;

use super::board::Mabula;
use super::geometry::{BORDER, TABLES, bits, group_sizes, largest_group, neighbours};
use super::notation::MabulaMove;
use super::options::Scoring;
use super::score::score_of;
use crate::core::{Game, Limits, OptionKind, OptionSpec, OptionValue, Outcome, Rng, Side};
use crate::search::nnue::{Network, load_eval_file};
use crate::search::tunables::{self, Tunable};
use crate::search::{
    AlphaBeta, LeafValue, MctsParams, MonteCarlo, Policy, Prior, Recorder, Reporter, SearchControl,
    SearchResult, Searcher, result_for,
};
use crate::tunable;

/// The Monte Carlo constants (thousandths, the RAVE bias in millionths) and the border
/// where solving starts, and the weight of a network's leaf value against a playout's,
/// as tuning options after the alpha-beta's.
const TUNABLES: [Tunable<MabulaSearch>; 9] = [
    tunable!(
        MabulaSearch,
        "Mabula MCTS Exploration",
        mcts.params.exploration,
        permille,
        0,
        10_000,
        50
    ),
    tunable!(MabulaSearch, "Mabula MCTS Greed", mcts.policy.greed, permille, 0, 1000, 50),
    tunable!(MabulaSearch, "Mabula MCTS Margin", mcts.policy.margin, permille, 0, 400, 20),
    tunable!(MabulaSearch, "Mabula Solve Border", solve_border, uint, 0, 24, 1),
    tunable!(MabulaSearch, "Mabula MCTS RAVE", mcts.policy.rave, switch),
    tunable!(
        MabulaSearch,
        "Mabula MCTS RAVE Bias",
        mcts.params.rave_bias,
        per_million,
        0,
        1_000_000,
        200
    ),
    tunable!(
        MabulaSearch,
        "Mabula EvalFile Weight",
        mcts.policy.network_weight,
        permille,
        0,
        1000,
        50
    ),
    tunable!(MabulaSearch, "Mabula EvalFile Prior", mcts.policy.prior_visits, uint, 0, 1000, 5),
    tunable!(MabulaSearch, "Mabula EvalFile Border", mcts.policy.network_border, uint, 0, 24, 1),
];
/// The option naming a network file that values the leaves (a user's option).
const EVAL_FILE: &str = "Mabula EvalFile";
/// The value of `Mabula EvalFile` for no network: playouts value the leaves.
const NO_NETWORK: &str = "<empty>";

/// Border marbles left from which the alpha-beta tries to solve first. From 12 it rarely
/// solves in a third of 100 ms, and the Monte Carlo search then loses that third at the
/// push that decides many games; from 11 it usually does.
const SOLVE_BORDER_DEFAULT: u32 = 11;

/// With several threads the alpha-beta runs beside the Monte Carlo search from this many
/// border marbles more than `Mabula Solve Border`: one thread solves 12 border marbles in
/// 64–628 ms (20 positions of self-play), about one move's time at 2 s + 20 ms.
const BESIDE_EXTRA: u32 = 1;

/// The Monte Carlo constants of Mabula: with RAVE, less exploration than the generic
/// default.
const PARAMS: MctsParams = MctsParams { exploration: 0.2, expand_after: 2, rave_bias: 0.01 };

/// The playout policy and reward of Mabula (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct MabulaPolicy {
    /// Probability of the greedy playout move.
    pub greed: f64,
    /// Weight `m` of the score difference in the reward.
    pub margin: f64,
    /// RAVE on: pushes get AMAF keys.
    pub rave: bool,
    /// A network (`Mabula EvalFile`) that values leaves instead of playouts ...
    pub network: Option<Arc<Network>>,
    /// ... or blended with them, at this weight (`Mabula EvalFile Weight`, 0..=1; at 0
    /// the leaves are left to the playouts) ...
    pub network_weight: f64,
    /// ... and whose value of the position after a push is its prior, worth this many
    /// simulations (`Mabula EvalFile Prior`; 0: no prior). Both only in positions with
    /// at most `network_border` border marbles (`Mabula EvalFile Border`): a network
    /// trained on exact labels near the end may judge those better than the rest.
    pub prior_visits: u32,
    pub network_border: u32,
}

impl Default for MabulaPolicy {
    fn default() -> Self {
        MabulaPolicy {
            greed: 0.5,
            margin: 0.1,
            rave: true,
            network: None,
            network_weight: 1.0,
            prior_visits: 0,
            network_border: 24,
        }
    }
}

/// The score of each side under the game's scoring, as a number that grows by about one
/// per marble (product scoring: log2 of the product).
fn scores(pos: &Mabula) -> [f64; 2] {
    let scoring = pos.options().scoring;
    [Side::P1, Side::P2].map(|s| match scoring {
        Scoring::Largest => f64::from(largest_group(pos.men(s))),
        Scoring::Product => f64::from(score_of(&group_sizes(pos.men(s)), scoring)).log2(),
    })
}

impl Policy<Mabula> for MabulaPolicy {
    fn reward(&self, pos: &Mabula, outcome: Outcome, side: Side) -> f64 {
        let s = scores(pos);
        let diff = (s[side.index()] - s[side.opponent().index()]).clamp(-12.0, 12.0);
        (1.0 - self.margin) * result_for(outcome, side) + self.margin * diff / 12.0
    }

    fn playout_move(&self, pos: &Mabula, moves: &[MabulaMove], rng: &mut Rng) -> MabulaMove {
        let r = rng.next_u64();
        let start = (r >> 32) as usize % moves.len();
        // The low 32 bits decide greedy or random.
        if (r & 0xffff_ffff) as f64 >= self.greed * 4_294_967_296.0 {
            return moves[start];
        }
        let own = pos.men(pos.side_to_move());
        let mut best = moves[start];
        let mut best_near = -1;
        for &mv in moves[start..].iter().chain(&moves[..start]) {
            if mv.is_pass() {
                return mv;
            }
            let near = (neighbours(1 << mv.to) & own & !(1 << mv.from)).count_ones() as i32;
            if near > best_near {
                best = mv;
                best_near = near;
            }
        }
        best
    }

    /// The moves of [`MabulaPolicy::playout_move`], chosen from the mover's border
    /// marbles and their reach instead of a move list, played without hashing.
    fn playout(
        &self,
        mut pos: Mabula,
        rng: &mut Rng,
        _moves: &mut Vec<MabulaMove>,
        played: &mut Vec<(u16, Side)>,
    ) -> (Mabula, Outcome) {
        let lines = &TABLES.lines;
        let greedy_below = self.greed * 4_294_967_296.0;
        loop {
            let me = pos.side_to_move();
            let own = pos.men(me);
            // The mover's pushable border marbles and how far each may travel.
            let mut marbles = [(0u8, 0usize); 12];
            let (mut n, mut total) = (0, 0);
            for b in bits(own & BORDER) {
                let reach = pos.max_push(b) as usize;
                if reach > 0 {
                    marbles[n] = (b, reach);
                    n += 1;
                    total += reach;
                }
            }
            if n == 0 {
                if !pos.can_push(me.opponent()) {
                    pos.rehash();
                    let outcome = pos.outcome().expect("neither side can push");
                    return (pos, outcome);
                }
                // A pass draws its random number too, as `playout_move` does.
                rng.next_u64();
                pos.push_unhashed(0, 0);
                continue;
            }
            let r = rng.next_u64();
            // The move list's order: marbles by square, then by length. The high 32 bits
            // pick where to start in it (the random move), the low ones greedy or not.
            let mut start = (r >> 32) as usize % total;
            let mut m0 = 0;
            while start >= marbles[m0].1 {
                start -= marbles[m0].1;
                m0 += 1;
            }
            let (from, k) = if (r & 0xffff_ffff) as f64 >= greedy_below {
                (marbles[m0].0, start + 1)
            } else {
                // The first push with the most own neighbours, from the start on round
                // the list.
                let mut best = (marbles[m0].0, start + 1);
                let mut best_near = -1;
                let (b0, reach0) = marbles[m0];
                let segments = std::iter::once((b0, start, reach0))
                    .chain(marbles[m0 + 1..n].iter().map(|&(b, reach)| (b, 0, reach)))
                    .chain(marbles[..m0].iter().map(|&(b, reach)| (b, 0, reach)))
                    .chain(std::iter::once((b0, 0, start)));
                for (b, lo, hi) in segments {
                    let others = own & !(1 << b);
                    for (k, &to) in lines[b as usize].iter().enumerate().take(hi).skip(lo) {
                        let near = (neighbours(1 << to) & others).count_ones() as i32;
                        if near > best_near {
                            best = (b, k + 1);
                            best_near = near;
                        }
                    }
                }
                best
            };
            if let Some(key) = self.amaf_key(MabulaMove { from, to: lines[from as usize][k - 1] }) {
                played.push((key, me));
            }
            pos.push_unhashed(from, k);
        }
    }

    /// The network's expected score for the side to move, as a reward (2p − 1), at the
    /// weight of `Mabula EvalFile Weight`.
    fn leaf_value(&self, pos: &Mabula) -> Option<LeafValue> {
        let net = self.network.as_ref().filter(|_| self.network_weight > 0.0)?;
        if pos.border_marbles() > self.network_border {
            return None;
        }
        let value = 2.0 * f64::from(net.win_probability_of(pos)) - 1.0;
        Some(LeafValue { value, weight: self.network_weight })
    }

    /// The network's value of the position after `mv` for its player, worth
    /// `Mabula EvalFile Prior` simulations.
    fn prior(&self, pos: &Mabula, mv: MabulaMove) -> Option<Prior> {
        let net = self.network.as_ref().filter(|_| self.prior_visits > 0)?;
        let mut after = *pos;
        after.play(mv);
        if after.border_marbles() > self.network_border {
            return None;
        }
        let value = 2.0 * f64::from(net.win_probability_of(&after)) - 1.0;
        let value = if after.side_to_move() == pos.side_to_move() { value } else { -value };
        Some(Prior { value, visits: self.prior_visits })
    }

    /// A push's border square and stop square. A border square is pushed at most once
    /// in a game (it is never refilled), so a key names one marble's one push.
    fn amaf_key(&self, mv: MabulaMove) -> Option<u16> {
        (self.rave && !mv.is_pass()).then(|| u16::from(mv.from) * 64 + u16::from(mv.to))
    }
}

/// The searcher of Mabula: Monte Carlo tree search, alpha-beta near the end.
pub struct MabulaSearch {
    mcts: MonteCarlo<Mabula, MabulaPolicy>,
    alphabeta: AlphaBeta<Mabula>,
    /// At most this many border marbles left: try to solve with the alpha-beta first.
    solve_border: u32,
    /// Threads of the whole search (`Threads`).
    threads: usize,
}

impl MabulaSearch {
    /// A search with about `hash_mb` megabytes for each of its two searches' tables.
    pub fn new(hash_mb: usize) -> MabulaSearch {
        MabulaSearch {
            mcts: MonteCarlo::new(hash_mb, PARAMS, MabulaPolicy::default()),
            alphabeta: AlphaBeta::new(hash_mb),
            solve_border: SOLVE_BORDER_DEFAULT,
            threads: 1,
        }
    }

    /// Threads of the alpha-beta when it runs beside the Monte Carlo search.
    fn beside_threads(&self) -> usize {
        (self.threads / 2).max(1)
    }

    /// The alpha-beta and the Monte Carlo search side by side (several threads), each
    /// stopping the other when it ends: the alpha-beta's move if it solved the position,
    /// else the tree's. While the alpha-beta runs, the tree goes on past the soft budget
    /// up to the hard deadline (a proven move is worth the time, and the moves after it
    /// are solved in milliseconds). The alpha-beta's reports are passed on only if its
    /// move is played.
    fn search_beside(
        &mut self,
        pos: &Mabula,
        root_moves: &[MabulaMove],
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MabulaMove {
        // The tree may search past the soft budget, up to the hard deadline, only while
        // the alpha-beta is still trying to solve.
        let (ab_ctl, mc_ctl) = (ctl.linked(), ctl.linked().without_soft());
        self.mcts.set_threads(self.threads - self.beside_threads());
        let (alphabeta, mcts) = (&mut self.alphabeta, &mut self.mcts);
        let (solved, mc_best) = std::thread::scope(|scope| {
            let solver = scope.spawn(|| {
                let mut recorder = Recorder::default();
                let result = alphabeta.run_restricted(pos, root_moves, &ab_ctl, &mut recorder);
                if !result.solved {
                    // Back to the soft budget (or until the tree ends by itself).
                    while !ab_ctl.stop_requested() && !ctl.soft_expired(1.0) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                mc_ctl.request_stop();
                (result, recorder)
            });
            let mc_best = mcts.run(pos, root_moves, &mc_ctl, reporter).best();
            ab_ctl.request_stop();
            let solved: Option<(SearchResult<MabulaMove>, Recorder)> =
                solver.join().ok().filter(|(result, _)| result.solved);
            (solved, mc_best)
        });
        self.mcts.set_threads(self.threads);
        match solved {
            Some((result, recorder)) => {
                recorder.replay(reporter);
                result.best()
            }
            None => mc_best,
        }
    }
}

impl Searcher<Mabula> for MabulaSearch {
    fn set_hash_mb(&mut self, mb: usize) {
        self.mcts.set_hash_mb(mb);
        self.alphabeta.set_hash_mb(mb);
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.mcts.set_threads(self.threads);
        // With several threads the alpha-beta only runs beside the tree.
        self.alphabeta.set_threads(self.beside_threads());
    }

    fn set_multipv(&mut self, lines: usize) {
        self.mcts.set_multipv(lines);
        self.alphabeta.set_multipv(lines);
    }

    /// `Mabula EvalFile`: a network for the leaves.
    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![OptionSpec { name: EVAL_FILE, kind: OptionKind::Str { default: NO_NETWORK } }]
    }

    /// The alpha-beta's options, then `TUNABLES` (defaults: the search as made, which
    /// is when a session reads them).
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        let mut specs = self.alphabeta.tuning_specs();
        specs.extend(tunables::named_option_specs(&TUNABLES, self));
        specs
    }

    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        let mut steps = self.alphabeta.spsa_steps();
        steps.extend(tunables::named_spsa_steps(&TUNABLES));
        steps
    }

    fn set_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        if let (EVAL_FILE, OptionValue::Text(path)) = (name, value) {
            let network = load_eval_file::<Mabula>(EVAL_FILE, path)?;
            if network.as_ref().is_some_and(|n| n.on_hand()) {
                return Err(format!(
                    "{EVAL_FILE} '{path}': a network trained on the hand evaluation (--on-hand) \
                     needs the alpha-beta; the Monte Carlo search values leaves by the network \
                     alone; the evaluation is unchanged"
                ));
            }
            self.mcts.policy.network = network;
            return Ok(());
        }
        match tunables::set_named_option(&TUNABLES, self, name, value)? {
            true => Ok(()),
            false => self.alphabeta.set_option(name, value),
        }
    }

    fn new_game(&mut self) {
        self.alphabeta.new_game();
        self.mcts.clear();
    }

    fn expected_moves_left(&self, pos: &Mabula) -> u32 {
        self.alphabeta.expected_moves_left(pos)
    }

    fn search(
        &mut self,
        pos: &Mabula,
        root_moves: &[MabulaMove],
        _limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> MabulaMove {
        if self.threads > 1 && pos.border_marbles() <= self.solve_border + BESIDE_EXTRA {
            return self.search_beside(pos, root_moves, ctl, reporter);
        }
        if pos.border_marbles() <= self.solve_border {
            let result =
                self.alphabeta.run_restricted(pos, root_moves, &ctl.share(1.0 / 3.0), reporter);
            if result.solved || ctl.must_stop(0) {
                return result.best();
            }
        }
        self.mcts.run(pos, root_moves, ctl, reporter).best()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mabula::MabulaOptions;
    use crate::search::{NullReporter, Report, TimeBudget, playout_by_moves};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    /// A position of a seeded random game with `border` border marbles left, and its
    /// legal moves.
    fn position_with_border(border: u32, seed: u64) -> (Mabula, Vec<MabulaMove>) {
        let mut rng = Rng::new(seed);
        let mut pos = Mabula::startpos(&MabulaOptions::default());
        let mut moves = Vec::new();
        while pos.border_marbles() > border {
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(*rng.choose(&moves));
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        (pos, moves)
    }

    fn movetime(ms: u64) -> SearchControl {
        let budget = TimeBudget { soft: None, hard: Duration::from_millis(ms) };
        SearchControl::new(Arc::new(AtomicBool::new(false)), Some(budget), None, None)
    }

    /// Random games from a seeded setup to their end.
    fn finished_games(n: usize) -> Vec<Mabula> {
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(11);
        let mut moves = Vec::new();
        (0..n)
            .map(|_| {
                let mut pos = Mabula::random(&opts, &mut rng);
                while pos.outcome().is_none() {
                    moves.clear();
                    pos.generate_moves(&mut moves);
                    pos.play(*rng.choose(&moves));
                }
                pos
            })
            .collect()
    }

    #[test]
    fn the_reward_has_the_sign_of_the_result_and_grows_with_the_margin() {
        let policy = MabulaPolicy::default();
        for pos in finished_games(50) {
            let outcome = pos.outcome().unwrap();
            let s = scores(&pos);
            for side in [Side::P1, Side::P2] {
                let r = policy.reward(&pos, outcome, side);
                let result = result_for(outcome, side);
                assert_eq!(r.partial_cmp(&0.0), result.partial_cmp(&0.0), "{}", pos.to_fen());
                let diff = s[side.index()] - s[side.opponent().index()];
                let expected = 0.9 * result + 0.1 * diff / 12.0;
                assert!((r - expected).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_fast_playout_plays_the_moves_of_the_move_list_playout() {
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(5);
        for greed in [0.0, 0.5, 1.0] {
            let policy = MabulaPolicy { greed, ..MabulaPolicy::default() };
            for game in 0..60 {
                // Starts from the setup and from a few random pushes in.
                let mut pos = Mabula::random(&opts, &mut rng);
                let mut moves = Vec::new();
                for _ in 0..game % 20 {
                    moves.clear();
                    pos.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(*rng.choose(&moves));
                }
                let seed = rng.next_u64();
                let (mut keys, mut fast_keys) = (Vec::new(), Vec::new());
                let (mut r1, mut r2) = (Rng::new(seed), Rng::new(seed));
                let (end, outcome) = playout_by_moves(&policy, pos, &mut r1, &mut moves, &mut keys);
                let (fast_end, fast_outcome) =
                    policy.playout(pos, &mut r2, &mut moves, &mut fast_keys);
                assert_eq!(fast_end, end, "{}", pos.to_fen());
                assert_eq!(fast_end.hash(), end.hash());
                assert_eq!(fast_outcome, outcome);
                assert_eq!(fast_keys, keys);
                assert_eq!(r1.next_u64(), r2.next_u64());
            }
        }
    }

    #[test]
    fn the_fast_largest_group_is_the_first_group_size() {
        for pos in finished_games(50) {
            for side in [Side::P1, Side::P2] {
                let men = pos.men(side);
                assert_eq!(largest_group(men), group_sizes(men)[0], "{}", pos.to_fen());
            }
        }
    }

    /// A network file of random weights for Mabula (or another game's name) in a
    /// scratch directory.
    fn network_file(game: &str, name: &str) -> (std::path::PathBuf, Network) {
        use crate::search::nnue::Features;
        let dir = std::env::temp_dir().join(format!("ugine-mabula-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = Network::random(game, Mabula::FEATURE_COUNT, 16, 7);
        let path = dir.join(name);
        std::fs::write(&path, net.to_bytes()).unwrap();
        (path, net)
    }

    #[test]
    fn eval_file_loads_a_network_and_a_bad_file_keeps_the_current_one() {
        let mut search = MabulaSearch::new(1);
        assert!(search.option_specs().iter().any(|s| s.name == EVAL_FILE));
        let text = |p: &std::path::Path| OptionValue::Text(p.display().to_string());
        let (good, net) = network_file("mabula", "good.nnue");
        search.set_option(EVAL_FILE, &text(&good)).unwrap();
        assert_eq!(search.mcts.policy.network.as_deref(), Some(&net));
        let (morris, _) = network_file("morris", "morris.nnue");
        let truncated = good.with_file_name("truncated.nnue");
        std::fs::write(&truncated, &net.to_bytes()[..50]).unwrap();
        let on_hand = good.with_file_name("on-hand.nnue");
        std::fs::write(&on_hand, net.clone().with_on_hand(true).to_bytes()).unwrap();
        for (bad, why) in [
            (good.with_file_name("missing.nnue"), "No such file"),
            (morris, "for the game 'morris'"),
            (truncated, "truncated"),
            (on_hand, "needs the alpha-beta"),
        ] {
            let err = search.set_option(EVAL_FILE, &text(&bad)).unwrap_err();
            assert!(err.contains(why) && err.contains("unchanged"), "{err}");
            assert_eq!(search.mcts.policy.network.as_deref(), Some(&net), "kept");
        }
        search.set_option(EVAL_FILE, &OptionValue::Text(NO_NETWORK.into())).unwrap();
        assert!(search.mcts.policy.network.is_none());
    }

    #[test]
    fn with_a_network_leaves_take_its_value_and_the_search_stays_deterministic() {
        let (path, net) = network_file("mabula", "leaves.nnue");
        let mut with_net = MabulaSearch::new(8);
        with_net.set_option(EVAL_FILE, &OptionValue::Text(path.display().to_string())).unwrap();
        let (pos, moves) = position_with_border(18, 3);
        let p = f64::from(net.win_probability_of(&pos));
        let full = LeafValue { value: 2.0 * p - 1.0, weight: 1.0 };
        assert_eq!(with_net.mcts.policy.leaf_value(&pos), Some(full));
        assert_eq!(MabulaPolicy::default().leaf_value(&pos), None, "playouts without one");
        let run = |s: &mut MabulaSearch| {
            s.new_game();
            let ctl = SearchControl::fixed(None, Some(1500));
            s.search(&pos, &moves, &Limits::nodes(1500), &ctl, &mut NullReporter)
        };
        let a = run(&mut with_net);
        assert_eq!(a, run(&mut with_net));
        assert!(moves.contains(&a));
    }

    #[test]
    fn a_network_at_weight_0_searches_as_playouts_alone_and_blends_above() {
        let (path, _) = network_file("mabula", "blend.nnue");
        let (pos, moves) = position_with_border(18, 4);
        let run = |weight: Option<i64>| {
            let mut s = MabulaSearch::new(8);
            if let Some(w) = weight {
                s.set_option(EVAL_FILE, &OptionValue::Text(path.display().to_string())).unwrap();
                s.set_option("Mabula EvalFile Weight", &OptionValue::Int(w)).unwrap();
            }
            let mut recorder = Recorder::default();
            let ctl = SearchControl::fixed(None, Some(1500));
            let best = s.search(&pos, &moves, &Limits::nodes(1500), &ctl, &mut recorder);
            let last = recorder.reports.iter().rev().find_map(|r| match r {
                Report::Info(i) => Some((i.score, i.pv.clone())),
                _ => None,
            });
            (best, last)
        };
        let alone = run(None);
        assert_eq!(run(Some(0)), alone);
        assert_ne!(run(Some(500)).1, alone.1, "half the reward from the network");
    }

    #[test]
    fn the_prior_of_a_push_is_the_network_value_after_it_for_its_player() {
        let (path, net) = network_file("mabula", "prior.nnue");
        let (pos, moves) = position_with_border(18, 5);
        let mut s = MabulaSearch::new(8);
        s.set_option(EVAL_FILE, &OptionValue::Text(path.display().to_string())).unwrap();
        assert_eq!(s.mcts.policy.prior(&pos, moves[0]), None, "no prior by default");
        s.set_option("Mabula EvalFile Prior", &OptionValue::Int(30)).unwrap();
        for &mv in &moves {
            let mut after = pos;
            after.play(mv);
            // The opponent moves next, so the mover's value is the negated one.
            assert_ne!(after.side_to_move(), pos.side_to_move());
            let value = 1.0 - 2.0 * f64::from(net.win_probability_of(&after));
            assert_eq!(s.mcts.policy.prior(&pos, mv), Some(Prior { value, visits: 30 }));
        }
        // The prior changes the search; weight 0 leaves the leaves to the playouts.
        s.set_option("Mabula EvalFile Weight", &OptionValue::Int(0)).unwrap();
        assert_eq!(s.mcts.policy.leaf_value(&pos), None);
        let run = |s: &mut MabulaSearch| {
            s.new_game();
            let mut recorder = Recorder::default();
            let ctl = SearchControl::fixed(None, Some(1500));
            s.search(&pos, &moves, &Limits::nodes(1500), &ctl, &mut recorder);
            recorder.reports
        };
        let with_prior = run(&mut s);
        s.set_option("Mabula EvalFile Prior", &OptionValue::Int(0)).unwrap();
        assert_ne!(run(&mut s), with_prior);
    }

    #[test]
    fn the_network_judges_only_positions_within_its_border() {
        let (path, net) = network_file("mabula", "border.nnue");
        let (pos, moves) = position_with_border(14, 6);
        let mut s = MabulaSearch::new(8);
        s.set_option(EVAL_FILE, &OptionValue::Text(path.display().to_string())).unwrap();
        s.set_option("Mabula EvalFile Prior", &OptionValue::Int(30)).unwrap();
        let value = 2.0 * f64::from(net.win_probability_of(&pos)) - 1.0;
        let leaf = Some(LeafValue { value, weight: 1.0 });
        for (border, judged) in [(24, true), (14, true), (13, false), (0, false)] {
            s.set_option("Mabula EvalFile Border", &OptionValue::Int(border)).unwrap();
            let expected = if judged { leaf } else { None };
            assert_eq!(s.mcts.policy.leaf_value(&pos), expected, "border {border}");
        }
        // A push takes a marble off the border, so its prior needs one border fewer.
        s.set_option("Mabula EvalFile Border", &OptionValue::Int(13)).unwrap();
        assert!(moves.iter().all(|&mv| s.mcts.policy.prior(&pos, mv).is_some()));
        s.set_option("Mabula EvalFile Border", &OptionValue::Int(12)).unwrap();
        assert!(moves.iter().all(|&mv| s.mcts.policy.prior(&pos, mv).is_none()));
    }

    #[test]
    fn a_node_limited_search_is_deterministic_and_legal() {
        let pos = Mabula::startpos(&MabulaOptions::default());
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let run = || {
            let mut s = MabulaSearch::new(8);
            let ctl = SearchControl::fixed(None, Some(2000));
            s.search(&pos, &moves, &Limits::nodes(2000), &ctl, &mut NullReporter)
        };
        let a = run();
        assert_eq!(a, run());
        assert!(moves.contains(&a));
    }

    #[test]
    fn with_threads_a_solved_position_stops_the_tree_and_plays_the_proven_move() {
        let (pos, moves) = position_with_border(8, 5);
        let mut search = MabulaSearch::new(8);
        search.set_threads(2);
        let mut recorder = Recorder::default();
        let started = Instant::now();
        let best =
            search.search(&pos, &moves, &Limits::default(), &movetime(60_000), &mut recorder);
        assert!(started.elapsed() < Duration::from_secs(30), "the solver stopped the tree");
        let notes: Vec<_> = recorder
            .reports
            .iter()
            .filter_map(|r| if let Report::Note(n) = r { Some(n) } else { None })
            .collect();
        assert!(notes.iter().any(|n| n.starts_with("solved: ")), "{notes:?}");
        let Some(Report::Info(last)) =
            recorder.reports.iter().rev().find(|r| matches!(r, Report::Info(_)))
        else {
            panic!("no info");
        };
        assert_eq!(last.pv[0], best.to_string(), "the last line is the proven move's");
        let mut one = MabulaSearch::new(8);
        let proven = one.alphabeta.run(&pos, &SearchControl::unlimited(), &mut NullReporter);
        assert!(proven.solved);
        let mut after = pos;
        after.play(best);
        let reply = one.alphabeta.run(&after, &SearchControl::unlimited(), &mut NullReporter);
        assert!(after.outcome().is_none() && reply.solved);
        assert_eq!(-reply.score().signum(), proven.score().signum(), "the proven result kept");
    }

    #[test]
    fn with_threads_an_unsolved_position_plays_the_trees_move() {
        // 12 border marbles: beside the tree with two threads, not solved in 500 nodes.
        let (pos, moves) = position_with_border(12, 7);
        let ctl = || SearchControl::fixed(None, Some(500));
        let mut two = MabulaSearch::new(8);
        two.set_threads(2);
        let mut recorder = Recorder::default();
        let beside = two.search(&pos, &moves, &Limits::nodes(500), &ctl(), &mut recorder);
        assert!(!recorder.reports.iter().any(|r| matches!(r, Report::Note(_))));
        // The tree had one thread, as `Threads 1` (which does not solve from 12).
        let mut one = MabulaSearch::new(8);
        let alone = one.search(&pos, &moves, &Limits::nodes(500), &ctl(), &mut NullReporter);
        assert_eq!(beside, alone);
    }
}
