//! The solved classes of one rule set in memory, and probing them: the value of a
//! position and a best move.

use std::collections::BTreeMap;
use std::path::Path;

use super::super::board::Morris;
use super::super::notation::MorrisMove;
use super::super::options::MorrisRules;
use super::file::{class_path, read_class};
use super::index::{Class, MAX_MEN};
use super::moves::{db_options, legal_moves, successor};
use super::value::{DbValue, Packed};
use crate::core::Game;

/// Fewest men a side has in a database class (with two the game is over).
pub const MIN_MEN: usize = 3;

/// Solved classes of one rule set.
#[derive(Clone, Debug)]
pub struct MorrisDb {
    rules: MorrisRules,
    classes: BTreeMap<Class, Packed>,
}

impl MorrisDb {
    /// No class yet.
    pub fn new(rules: MorrisRules) -> MorrisDb {
        MorrisDb { rules, classes: BTreeMap::new() }
    }

    /// Loads every class of `rules` whose file is in `dir`. Unreadable files are
    /// reported in the second result and skipped.
    pub fn open(dir: &Path, rules: MorrisRules) -> (MorrisDb, Vec<String>) {
        let mut db = MorrisDb::new(rules);
        let mut errors = Vec::new();
        for own in MIN_MEN..=MAX_MEN {
            for opp in MIN_MEN..=MAX_MEN {
                let class = Class { own, opp };
                if !class_path(dir, rules, class).exists() {
                    continue;
                }
                match read_class(dir, rules, class) {
                    Ok(t) => db.insert(class, t),
                    Err(e) => errors.push(format!("{e:#}")),
                }
            }
        }
        (db, errors)
    }

    /// The rule set.
    pub fn rules(&self) -> MorrisRules {
        self.rules
    }

    /// Adds (or replaces) a solved class.
    pub fn insert(&mut self, class: Class, table: Packed) {
        self.classes.insert(class, table);
    }

    /// Forgets a class.
    pub fn remove(&mut self, class: Class) {
        self.classes.remove(&class);
    }

    /// The classes held, in order.
    pub fn classes(&self) -> impl Iterator<Item = Class> + '_ {
        self.classes.keys().copied()
    }

    /// The table of a class, if held.
    pub fn table(&self, class: Class) -> Option<&Packed> {
        self.classes.get(&class)
    }

    /// The value of the position with men `own` (side to move) and `opp`, both hands
    /// empty: a loss at once when the side to move has two men, else from its class's
    /// table (`None` when the class is not held).
    #[inline]
    pub fn lookup(&self, own: u32, opp: u32) -> Option<DbValue> {
        if own.count_ones() < MIN_MEN as u32 {
            return Some(DbValue::Loss(0));
        }
        let class = Class::of(own, opp);
        self.classes.get(&class)?.get(class.slot(own, opp))
    }

    /// The men of the side to move and of the other side, when `pos` is a movement-phase
    /// position under this database's rules.
    fn men(&self, pos: &Morris) -> Option<(u32, u32)> {
        let stm = pos.side_to_move();
        let covered = pos.options().rules == self.rules
            && pos.in_hand(stm) == 0
            && pos.in_hand(stm.opponent()) == 0;
        covered.then(|| (pos.men(stm), pos.men(stm.opponent())))
    }

    /// The database value of `pos` (repetition and move-limit draws ignored), when its
    /// class is held. Positions that are over (blocked side to move) are losses in 0.
    pub fn probe(&self, pos: &Morris) -> Option<DbValue> {
        let (own, opp) = self.men(pos)?;
        if opp.count_ones() < MIN_MEN as u32 {
            return None;
        }
        self.lookup(own, opp)
    }

    /// A move that keeps the database value of `pos` (the fastest win, a drawing move, or
    /// the slowest loss) and that value, when every successor is covered.
    pub fn best_move(&self, pos: &Morris) -> Option<(MorrisMove, DbValue)> {
        let (own, opp) = self.men(pos)?;
        match self.value_by_moves(own, opp, &mut Vec::new())? {
            (Some(mv), v) => Some((mv, v)),
            (None, _) => None,
        }
    }

    /// The value of (`own`, `opp`) computed from its successors' values, with a move
    /// that keeps it (`None` when the side to move is blocked: a loss in 0), or `None`
    /// when a successor's class is not held. `moves` is scratch space.
    pub fn value_by_moves(
        &self,
        own: u32,
        opp: u32,
        moves: &mut Vec<MorrisMove>,
    ) -> Option<(Option<MorrisMove>, DbValue)> {
        legal_moves(&db_options(self.rules), own, opp, moves);
        let mut best = (None, DbValue::Loss(0));
        for &mv in moves.iter() {
            let (a, b) = successor(own, opp, mv);
            let v = self.lookup(a, b)?.before();
            if best.0.is_none() || v.preference() > best.1.preference() {
                best = (Some(mv), v);
            }
        }
        Some(best)
    }
}
