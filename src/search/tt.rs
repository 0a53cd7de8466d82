//! A transposition table generic over the move type: one entry per bucket, replaced
//! when the new entry is deeper or the old one is from an earlier search.

/// What an entry's score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (fail high).
    Lower,
    /// The true value is at most the score (fail low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// A fixed-size hash table of search results, indexed by position hash.
pub struct TranspositionTable<M: Copy> {
    entries: Vec<Option<Entry<M>>>,
    generation: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `mb` megabytes (at least one entry).
    pub fn new(mb: usize) -> Self {
        let size = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let n = (mb * 1024 * 1024 / size).max(1);
        TranspositionTable { entries: vec![None; n], generation: 0 }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key uniformly onto the table without a modulo.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.index(key)].filter(|e| e.key == key)
    }

    /// Stores a result, replacing the old entry when it is shallower, older or the same
    /// position. A missing move keeps the old entry's move for the same position.
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let i = self.index(key);
        let slot = &mut self.entries[i];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.key == key
                    || old.generation != generation
                    || depth as i16 >= old.depth
                    || bound == Bound::Exact
            }
        };
        if replace {
            let mv = mv.or_else(|| slot.filter(|o| o.key == key).and_then(|o| o.mv));
            *slot = Some(Entry { key, mv, score, depth: depth as i16, bound, generation });
        }
    }

    /// Permille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.is_some_and(|e| e.generation == self.generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}
