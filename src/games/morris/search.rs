//! The Morris search: the generic alpha-beta with the endgame databases as its oracle
//! (option `Morris DB Path`).

use std::path::Path;
use std::sync::Arc;

use super::board::Morris;
use super::db::{Class, DbValue, MorrisDb};
use super::notation::MorrisMove;
use super::options::MorrisRules;
use crate::core::{Game, Limits, OptionKind, OptionSpec, OptionValue};
use crate::search::{AlphaBeta, Oracle, Reporter, SearchControl, Searcher, Verdict};

/// The option naming the database directory (empty: no databases).
pub const DB_PATH: &str = "Morris DB Path";
/// Its default, spelled as UCI engines spell an empty path (a trailing space after
/// `default` would confuse GUIs).
const NO_PATH: &str = "<empty>";

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

/// Alpha-beta with the Morris endgame databases.
pub struct MorrisSearch {
    search: AlphaBeta<Morris>,
    /// What loading the databases found, told at the next search (`info string`).
    note: Option<String>,
}

impl MorrisSearch {
    /// A search with a hash table of about `hash_mb` megabytes and no databases.
    pub fn new(hash_mb: usize) -> MorrisSearch {
        MorrisSearch { search: AlphaBeta::new(hash_mb), note: None }
    }

    /// Loads the databases of both rule sets found in `dir` (empty: none) and returns
    /// what was found.
    fn load(&mut self, dir: &str) -> String {
        if dir.trim().is_empty() || dir.trim() == NO_PATH {
            self.search.set_oracle(None);
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
        self.search.set_oracle(any.then(|| Arc::new(DbOracle { seed, standard }) as _));
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

    fn option_specs(&self) -> Vec<OptionSpec> {
        vec![OptionSpec { name: DB_PATH, kind: OptionKind::Str { default: NO_PATH } }]
    }

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
