//! Per-class counts of `ugine morris-db stats`.

use super::index::Class;
use super::value::{DbValue, Packed};

/// What a class holds, counting each position once up to symmetry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassStats {
    /// Positions (used slots).
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win and the longest loss, in plies.
    pub longest_win: u16,
    pub longest_loss: u16,
}

/// Counts the values of a class's table.
pub fn class_stats(table: &Packed) -> ClassStats {
    let mut s = ClassStats::default();
    for slot in 0..table.len() {
        match table.get(slot) {
            None => continue,
            Some(DbValue::Win(d)) => {
                s.wins += 1;
                s.longest_win = s.longest_win.max(d);
            }
            Some(DbValue::Loss(d)) => {
                s.losses += 1;
                s.longest_loss = s.longest_loss.max(d);
            }
            Some(DbValue::Draw) => s.draws += 1,
        }
        s.positions += 1;
    }
    s
}

/// The header of [`stats_line`]'s table.
pub const STATS_HEADER: &str = "class  positions       win      draw      loss  longest-win  longest-loss  (side to move first)";

/// One line of the stats table.
pub fn stats_line(class: Class, s: &ClassStats) -> String {
    format!(
        "{}v{}  {:>10} {:>9} {:>9} {:>9}  {:>11}  {:>12}",
        class.own, class.opp, s.positions, s.wins, s.draws, s.losses, s.longest_win, s.longest_loss
    )
}
