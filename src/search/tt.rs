//! The transposition table shared by every thread of a search, without locks.
//!
//! Each entry is two atomic words: `data` (move, score, depth, bound, generation packed
//! in 64 bits) and `check = key ^ data`. A reader loads both and accepts the entry only
//! when `check ^ data` gives back its key, so an entry torn by two threads writing at
//! once reads as a miss, never as a wrong result. A move read from the table is only a
//! hint: the search plays it only if it is among the legal moves it generated.
//! Entries sit in buckets of four, each bucket one aligned cache line (one memory access
//! per probe, which the search starts early with [`TranspositionTable::prefetch`]); a
//! new result replaces the same position's entry, else the bucket's least valuable one
//! (shallow, or from an older search).
//!
//! CITE: Hyatt & Mann, "A lock-less transposition table implementation for parallel
//! search chess engines" (2002); buckets and aging as in Stockfish's `tt.cpp`.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// A move that fits in 31 bits, for storing in the table.
pub trait PackedMove: Copy {
    /// The move as a number below 2^31, or `None` when it cannot be stored (the entry
    /// then keeps no move).
    fn pack(self) -> Option<u32>;
    /// The move packed as `bits`. Any number may come back from a torn entry: this must
    /// not panic, and the search checks the result against its legal moves.
    fn unpack(bits: u32) -> Self;
}

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    pub mv: Option<M>,
    pub score: i32,
    /// The depth searched; [`MAX_DEPTH`] marks a result that is exact for any depth.
    pub depth: i32,
    pub bound: Bound,
}

/// The largest depth an entry records.
pub const MAX_DEPTH: i32 = 255;

const BUCKET: usize = 4;
const GENERATIONS: u8 = 64;

/// Field layout of the `data` word.
fn pack_data(mv: u32, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (mv as u64)
        | (score as i16 as u16 as u64) << 32
        | (depth.clamp(0, MAX_DEPTH) as u64) << 48
        | bound << 56
        | ((generation % GENERATIONS) as u64) << 58
}

fn data_move(d: u64) -> u32 {
    d as u32
}
fn data_score(d: u64) -> i32 {
    (d >> 32) as u16 as i16 as i32
}
fn data_depth(d: u64) -> i32 {
    ((d >> 48) & 0xFF) as i32
}
fn data_bound(d: u64) -> Option<Bound> {
    match (d >> 56) & 3 {
        1 => Some(Bound::Exact),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Upper),
        _ => None,
    }
}
fn data_generation(d: u64) -> u8 {
    (d >> 58) as u8
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The slots one key may occupy, aligned on a cache line (64 bytes) so that a probe
/// reads one line, not two.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

/// A fixed-size hash table of search results, indexed by position hash, safe to share.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let count = (mb * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(count);
        buckets.resize_with(count, Bucket::default);
        TranspositionTable { buckets, generation: AtomicU8::new(0) }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) % GENERATIONS, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        // Multiply-shift maps the key uniformly onto the buckets without a modulo.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i].0
    }

    /// Asks the processor to start loading the bucket of `key` into the cache, so that a
    /// [`TranspositionTable::probe`] of it soon after does not wait for memory. Changes
    /// nothing else (no effect on other processors than x86-64).
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint to the cache; it reads nothing the program
            // sees and cannot fault, and SSE (which provides it) is part of every x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe<M: PackedMove>(&self, key: u64) -> Option<Entry<M>> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data != key || data == 0 {
                return None;
            }
            let bound = data_bound(data)?;
            let mv = data_move(data);
            Some(Entry {
                mv: (mv != 0).then(|| M::unpack(mv - 1)),
                score: data_score(data),
                depth: data_depth(data),
                bound,
            })
        })
    }

    /// Stores a result. A missing move keeps the move already stored for the position.
    /// `score` must fit in 16 bits (the search's scores do).
    pub fn store<M: PackedMove>(
        &self,
        key: u64,
        mv: Option<M>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        let mut old_move = 0;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                victim = slot;
                old_move = data_move(data);
                break;
            }
            // Worth keeping: depth, minus a penalty per search since it was written.
            let age = (generation + GENERATIONS - data_generation(data)) % GENERATIONS;
            let worth = if data == 0 { i32::MIN } else { data_depth(data) - 8 * age as i32 };
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        let mv = mv.and_then(PackedMove::pack).map_or(old_move, |m| m + 1);
        let data = pack_data(mv, score, depth, bound, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| &b.0)
            .take(sample)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && data_generation(d) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct M(u32);
    impl PackedMove for M {
        fn pack(self) -> Option<u32> {
            (self.0 < 1 << 31).then_some(self.0)
        }
        fn unpack(bits: u32) -> Self {
            M(bits)
        }
    }

    #[test]
    fn stores_and_reads_back_every_field() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Some(M(7)), -29_990, 13, Bound::Lower);
        let e = tt.probe::<M>(42).expect("stored");
        assert_eq!(e, Entry { mv: Some(M(7)), score: -29_990, depth: 13, bound: Bound::Lower });
        assert!(tt.probe::<M>(43).is_none());
    }

    #[test]
    fn a_store_without_move_keeps_the_old_move() {
        let tt = TranspositionTable::new(1);
        tt.store(5, Some(M(0)), 10, 3, Bound::Exact);
        tt.store::<M>(5, None, 20, 4, Bound::Upper);
        let e = tt.probe::<M>(5).expect("stored");
        assert_eq!((e.mv, e.score, e.depth), (Some(M(0)), 20, 4));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(9, Some(M(1)), 1, 1, Bound::Exact);
        // Another thread's data lands in the slot without its check word.
        let slot = tt.bucket(9).iter().find(|s| s.data.load(Ordering::Relaxed) != 0).unwrap();
        slot.data.store(pack_data(3, 77, 9, Bound::Exact, 0), Ordering::Relaxed);
        assert!(tt.probe::<M>(9).is_none());
    }

    #[test]
    fn a_full_bucket_keeps_the_deepest_entries() {
        let tt = TranspositionTable::new(0); // one bucket: every key collides
        for key in 1..=4u64 {
            tt.store(key, Some(M(key as u32)), 0, key as i32 * 2, Bound::Exact);
        }
        tt.store(100, Some(M(100)), 0, 5, Bound::Exact);
        assert!(tt.probe::<M>(1).is_none(), "the shallowest entry is replaced");
        for key in [2u64, 3, 4, 100] {
            assert!(tt.probe::<M>(key).is_some(), "key {key} kept");
        }
    }
}
