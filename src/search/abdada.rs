//! Which positions the threads of a search are searching now, so that a thread arriving
//! at a move whose position another thread is busy with searches its other moves first
//! (deferral, as in simplified ABDADA) instead of duplicating that work.
//!
//! A small lock-free table of position keys, in sets of four. A thread marks a position
//! before it searches it and clears the mark after; a mark may be lost (a full set
//! overwrites a slot) or cleared by another thread that searched the same position, which
//! only makes a deferral less likely: the table is a hint, never a result.
//!
//! CITE: Weill, "The ABDADA distributed minimax search algorithm" (1996); the simplified
//! form with a table of positions being searched: Kerrigan, "A Simple Shared-Memory
//! Parallel Alpha-Beta" (2020, tckerrigan.com/Chess/Parallel_Search/Simplified_ABDADA).

use std::sync::atomic::{AtomicU64, Ordering};

const WAYS: usize = 4;

/// The positions being searched, by key.
pub(super) struct Searching {
    sets: Vec<[AtomicU64; WAYS]>,
}

impl Searching {
    /// A table of `sets` sets of four keys (a power of two).
    pub(super) fn new(sets: usize) -> Self {
        assert!(sets.is_power_of_two());
        Searching { sets: (0..sets).map(|_| Default::default()).collect() }
    }

    fn set(&self, key: u64) -> &[AtomicU64; WAYS] {
        &self.sets[(key >> 32) as usize & (self.sets.len() - 1)]
    }

    /// True when some thread is searching the position of `key`.
    pub(super) fn contains(&self, key: u64) -> bool {
        self.set(key).iter().any(|k| k.load(Ordering::Relaxed) == key)
    }

    /// Marks the position of `key` as being searched (key 0 is never marked).
    pub(super) fn start(&self, key: u64) {
        let set = self.set(key);
        for k in set {
            let old = k.load(Ordering::Relaxed);
            if old == key {
                return;
            }
            if old == 0 {
                k.store(key, Ordering::Relaxed);
                return;
            }
        }
        set[0].store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`.
    pub(super) fn finish(&self, key: u64) {
        for k in self.set(key) {
            if k.load(Ordering::Relaxed) == key {
                k.store(0, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_marked_until_finished() {
        let t = Searching::new(1);
        assert!(!t.contains(7));
        t.start(7);
        t.start(9);
        assert!(t.contains(7) && t.contains(9));
        t.finish(7);
        assert!(!t.contains(7) && t.contains(9));
    }

    #[test]
    fn a_full_set_overwrites_a_mark_rather_than_drop_the_new_one() {
        let t = Searching::new(1);
        for key in 1..=5 {
            t.start(key);
        }
        assert!(t.contains(5));
        assert_eq!((1..=5).filter(|&k| t.contains(k)).count(), WAYS);
    }
}
