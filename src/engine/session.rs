//! One game behind a trait object: positions set from text, searches run on a thread.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::core::{
    Game, Limits, OptionKind, OptionSpec, OptionValue, Outcome, Rng, RuleOptions, Side,
};
use crate::search::{Reporter, SearchControl, Searcher, TimeBudget};

/// Called on the search thread when a search ends, with the best move's text.
pub type SearchDone = Box<dyn FnOnce(String) + Send>;

/// SPSA's final learning rate `r_end` in [`Session::spsa_params`] (fishtest's usual).
pub const SPSA_R_END: f64 = 0.002;

/// Everything the protocol loop and the match runner need from a game, without its types.
pub trait Session: Send {
    /// The game's protocol name.
    fn game_name(&self) -> &'static str;
    /// The rule options of this game.
    fn rule_option_specs(&self) -> Vec<OptionSpec>;
    /// Applies a rule option (already checked against its spec). Resets the position to
    /// the start position under the new rules.
    fn set_rule_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String>;
    /// Resizes the search's hash table.
    fn set_hash_mb(&mut self, mb: usize);
    /// Sets the number of search threads.
    fn set_threads(&mut self, threads: usize);
    /// Sets the number of best lines the search reports (`MultiPV`).
    fn set_multipv(&mut self, lines: usize);
    /// The search's own options (see [`Searcher::option_specs`]).
    fn search_option_specs(&self) -> Vec<OptionSpec>;
    /// The search's tunable parameters (see [`Searcher::tuning_specs`]).
    fn tuning_option_specs(&self) -> Vec<OptionSpec>;
    /// The tunable spin options SPSA may tune, as `ugine spsa --param` reads them:
    /// `Name=default,min,max,c_end,r_end` (see [`Searcher::spsa_steps`]; `r_end` is
    /// fishtest's usual 0.002).
    fn spsa_params(&self) -> Vec<String>;
    /// Applies one of the search's own options or tuning knobs (already checked against
    /// its spec).
    fn set_search_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String>;
    /// Sets one of the search's own options or tuning knobs from text, as `setoption`
    /// does: the name matched without regard to case, the value checked against its
    /// spec. On error nothing changes.
    fn set_search_option_text(&mut self, name: &str, value: &str) -> Result<(), String> {
        let spec = self
            .search_option_specs()
            .into_iter()
            .chain(self.tuning_option_specs())
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("'{name}' is not a search option of {}", self.game_name()))?;
        let value = spec.parse_value(value)?;
        self.set_search_option(spec.name, &value)
    }
    /// Forgets the previous game: start position, cleared search tables.
    fn new_game(&mut self);
    /// Sets the position from `fen` (or the start position) and the moves after it, all
    /// or nothing: on error the previous position stays.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Plays one move on the current position, or says why it is not legal.
    fn play_move(&mut self, mv: &str) -> Result<(), String>;
    /// The legal moves of the current position in notation.
    fn legal_moves(&self) -> Vec<String>;
    /// The player to move in the current position.
    fn side_to_move(&self) -> Side;
    /// The outcome of the current position, `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// Why the rules ended the game of the current position ([`Game::ending`]'s reason
    /// as text: "3-fold repetition", "checkmate", …), `None` while it goes on. The match
    /// runner's records and the browser front end both show this text.
    fn end_reason(&self) -> Option<String>;
    /// The position string of the current position.
    fn fen(&self) -> String;
    /// The current position drawn for a person.
    fn render(&self) -> String;
    /// The places of a king in check in the current position (see
    /// [`Game::checked_kings`]).
    fn checked_kings(&self) -> Vec<String>;
    /// The position string of a random start setup (see [`Game::random_setup`]), or
    /// `None` when the game has a single start position.
    fn random_setup_fen(&self, rng: &mut Rng) -> Option<String>;
    /// The position string of a random endgame with `men` men per side (see
    /// [`Game::random_endgame`]), or `None` when the game has none.
    fn random_endgame_fen(&self, men: usize, rng: &mut Rng) -> Option<String>;
    /// Perft of the current position (the game's fastest generator).
    fn perft(&self, depth: u32) -> u64;
    /// Perft of the current position split by first move (moves in notation).
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Starts a search of the current position on its own thread. The reporter receives
    /// `info`; `done` receives the best move. With `infinite`, `done` is called only
    /// after `stop` is raised, even if the search ends earlier. Fails, starting nothing,
    /// when the game is over or a move of `limits.searchmoves` is not legal.
    fn start_search(
        &mut self,
        limits: Limits,
        overhead: Duration,
        stop: Arc<AtomicBool>,
        reporter: Box<dyn Reporter>,
        done: SearchDone,
    ) -> Result<JoinHandle<()>, String>;
}

/// A [`Session`] for game `G` searched by `S`.
pub struct GameSession<G: Game, S: Searcher<G>> {
    options: G::Options,
    position: G,
    searcher: Arc<Mutex<S>>,
    /// The searcher's own options and tuning knobs, read once: asking the searcher
    /// would wait for a running search to end.
    search_options: Vec<OptionSpec>,
    tuning_options: Vec<OptionSpec>,
}

impl<G: Game, S: Searcher<G>> GameSession<G, S> {
    /// A session at the start position under the default rules.
    pub fn new(searcher: S) -> Self {
        let options = G::Options::default();
        GameSession {
            position: G::startpos(&options),
            options,
            search_options: searcher.option_specs(),
            tuning_options: searcher.tuning_specs(),
            searcher: Arc::new(Mutex::new(searcher)),
        }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.position
    }

    fn with_searcher<T>(&self, f: impl FnOnce(&mut S) -> T) -> T {
        // A poisoned lock means a search thread panicked; its tables are still usable.
        let mut s = self.searcher.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut s)
    }

    /// The moves the search may play at the root: every legal move, or those named by
    /// `go searchmoves` (each must be legal; repeats are ignored).
    fn root_moves(&self, searchmoves: &[String]) -> Result<Vec<G::Move>, String> {
        let mut moves = Vec::new();
        if searchmoves.is_empty() {
            self.position.generate_moves(&mut moves);
            return Ok(moves);
        }
        for text in searchmoves {
            let mv =
                self.position.parse_move(text).map_err(|e| format!("searchmoves '{text}': {e}"))?;
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
        Ok(moves)
    }
}

/// Plays `moves` from `pos`, naming the first one that is not legal (1-based index).
/// `parse_move` refuses every move once the game is over.
pub fn play_moves<G: Game>(pos: &mut G, moves: &[&str]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        let mv = pos.parse_move(text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        pos.play(mv);
    }
    Ok(())
}

impl<G: Game, S: Searcher<G>> Session for GameSession<G, S> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn rule_option_specs(&self) -> Vec<OptionSpec> {
        G::Options::specs()
    }

    fn set_rule_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        let mut options = self.options.clone();
        options.set(name, value)?;
        self.options = options;
        self.position = G::startpos(&self.options);
        Ok(())
    }

    fn set_hash_mb(&mut self, mb: usize) {
        self.with_searcher(|s| s.set_hash_mb(mb));
    }

    fn set_threads(&mut self, threads: usize) {
        self.with_searcher(|s| s.set_threads(threads));
    }

    fn set_multipv(&mut self, lines: usize) {
        self.with_searcher(|s| s.set_multipv(lines));
    }

    fn search_option_specs(&self) -> Vec<OptionSpec> {
        self.search_options.clone()
    }

    fn tuning_option_specs(&self) -> Vec<OptionSpec> {
        self.tuning_options.clone()
    }

    fn spsa_params(&self) -> Vec<String> {
        let steps = self.with_searcher(|s| s.spsa_steps());
        self.tuning_options
            .iter()
            .filter_map(|spec| {
                let OptionKind::Spin { default, min, max } = spec.kind else { return None };
                let (_, step) = steps.iter().find(|(name, _)| *name == spec.name)?;
                Some(format!("{}={default},{min},{max},{step},{SPSA_R_END}", spec.name))
            })
            .collect()
    }

    fn set_search_option(&mut self, name: &str, value: &OptionValue) -> Result<(), String> {
        self.with_searcher(|s| s.set_option(name, value))
    }

    fn new_game(&mut self) {
        self.position = G::startpos(&self.options);
        self.with_searcher(|s| s.new_game());
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let mut pos = match fen {
            None => G::startpos(&self.options),
            Some(f) => G::from_fen(f, &self.options).map_err(|e| e.to_string())?,
        };
        play_moves(&mut pos, moves)?;
        self.position = pos;
        Ok(())
    }

    fn play_move(&mut self, mv: &str) -> Result<(), String> {
        play_moves(&mut self.position, &[mv])
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.position.generate_moves(&mut moves);
        moves.iter().map(|m| m.to_string()).collect()
    }

    fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn end_reason(&self) -> Option<String> {
        self.position.ending().map(|e| e.reason.to_string())
    }

    fn fen(&self) -> String {
        self.position.to_fen()
    }

    fn render(&self) -> String {
        self.position.render()
    }

    fn checked_kings(&self) -> Vec<String> {
        self.position.checked_kings()
    }

    fn random_setup_fen(&self, rng: &mut Rng) -> Option<String> {
        G::random_setup(&self.options, rng).map(|p| p.to_fen())
    }

    fn random_endgame_fen(&self, men: usize, rng: &mut Rng) -> Option<String> {
        G::random_endgame(&self.options, men, rng).map(|p| p.to_fen())
    }

    fn perft(&self, depth: u32) -> u64 {
        self.position.perft(depth)
    }

    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        crate::core::perft_divide(&self.position, depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect()
    }

    fn start_search(
        &mut self,
        limits: Limits,
        overhead: Duration,
        stop: Arc<AtomicBool>,
        mut reporter: Box<dyn Reporter>,
        done: SearchDone,
    ) -> Result<JoinHandle<()>, String> {
        if let Some(o) = self.position.outcome() {
            return Err(format!("the game is over ({}): there is no move to search", o.as_str()));
        }
        let root_moves = self.root_moves(&limits.searchmoves)?;
        let pos = self.position.clone();
        let searcher = Arc::clone(&self.searcher);
        let wait_for_stop = limits.infinite;
        std::thread::Builder::new()
            .name(format!("search-{}", G::NAME))
            .spawn(move || {
                let mut s = searcher.lock().unwrap_or_else(|e| e.into_inner());
                let side = pos.side_to_move();
                let budget =
                    TimeBudget::from_limits(&limits, side, overhead, s.expected_moves_left(&pos));
                let ctl = SearchControl::new(stop, budget, limits.nodes, limits.depth);
                // A bug in a search must not leave the GUI waiting for `bestmove` forever:
                // a panicking search answers with the first legal move instead.
                let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    s.search(&pos, &root_moves, &limits, &ctl, reporter.as_mut())
                }));
                drop(s);
                let best = match searched {
                    Ok(mv) => mv.to_string(),
                    Err(_) => {
                        log::error!(
                            "the {} search panicked; playing the first legal move",
                            G::NAME
                        );
                        root_moves[0].to_string()
                    }
                };
                while wait_for_stop && !ctl.stop_requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                done(best);
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))
    }
}
