//! The node columns of a tree that several threads grow at once (tree parallelism).
//!
//! CITE: Enzenberger & Müller, "A lock-free multithreaded Monte-Carlo tree search
//! algorithm", ACG 2009 (as in Fuego): the nodes live in a preallocated arena whose slots
//! are handed out by an atomic counter, statistics are updated with relaxed atomics, and
//! a node's children become visible by one release store of their number, after their
//! fields are written. A leaf is expanded by the one thread that claims it (its child
//! count set to [`EXPANDING`]); the others treat it as a leaf meanwhile and play out from
//! it.
//!
//! Virtual loss (CITE: Chaslot, Winands & van den Herik, "Parallel Monte-Carlo Tree
//! Search", CG 2008): a node's visit is counted when a thread descends into it and its
//! result only when the playout is backed up, so until then the node counts as lost for
//! the player who moved into it and the other threads are steered elsewhere. Visits and
//! wins are exact (atomic additions); AMAF counts are updated by relaxed load and store,
//! so two threads updating one child at the same instant may lose one update (as in
//! Fuego: rare, and AMAF values are estimates anyway). Wins are counted in half points,
//! so that the draws of the literal rule (½) add exactly.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use super::tree::{Grow, HIT_LEN, Node, Nodes, Scratch, Store, max_of, value};
use crate::games::mobius::notation::MobiusMove;

/// Child count of a leaf that a thread is expanding.
const EXPANDING: u32 = u32::MAX;

/// A result (0, ½ or 1) in half points.
#[inline(always)]
fn half_points(result: f32) -> u32 {
    (result * 2.0) as u32
}

/// A count of half points as points.
#[inline(always)]
fn points(half: u32) -> f32 {
    // Below 2³¹, converted through `i32`, which is cheaper.
    half as i32 as f32 * 0.5
}

/// Visits (low 32 bits) and wins in half points (high 32 bits) in one word, so that one
/// load reads both and one addition updates both.
#[inline(always)]
fn pack(visits: u32, half: u32) -> u64 {
    u64::from(visits) | u64::from(half) << 32
}

/// The visits and the wins (in points) of a packed word.
#[inline(always)]
fn unpack(word: u64) -> (u32, f32) {
    (word as u32, points((word >> 32) as u32))
}

/// The columns of [`Nodes`] as atomics in an arena of fixed capacity, the statistics
/// packed ([`pack`]). Node 0 is the root.
pub(super) struct SharedNodes {
    mv: Box<[AtomicU32]>,
    children: Box<[AtomicU32]>,
    first_child: Box<[AtomicU32]>,
    /// Visits and wins.
    own: Box<[AtomicU64]>,
    /// AMAF visits and wins.
    amaf: Box<[AtomicU64]>,
    /// Slots handed out (every slot below has been written).
    len: AtomicUsize,
    /// An expansion did not fit: no more expansions until the tree is collected.
    full: AtomicBool,
}

/// `n` atomics at 0, from zeroed memory (pages are touched only as the tree grows).
fn zeroed<T: Zeroed>(n: usize) -> Box<[T]> {
    // SAFETY: `T` is an atomic integer, which has the representation of its integer, so
    // all zero bytes are a valid value.
    unsafe { Box::<[T]>::new_zeroed_slice(n).assume_init() }
}

/// The atomic integers, valid when all their bytes are zero.
trait Zeroed {}
impl Zeroed for AtomicU32 {}
impl Zeroed for AtomicU64 {}

impl SharedNodes {
    /// An arena of `capacity` nodes holding a fresh root.
    pub fn new(capacity: usize) -> SharedNodes {
        SharedNodes {
            mv: zeroed(capacity),
            children: zeroed(capacity),
            first_child: zeroed(capacity),
            own: zeroed(capacity),
            amaf: zeroed(capacity),
            len: AtomicUsize::new(1),
            full: AtomicBool::new(false),
        }
    }

    /// Maximum number of nodes.
    pub fn capacity(&self) -> usize {
        self.mv.len()
    }

    /// True once an expansion did not fit.
    pub fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// Replaces the contents by `nodes` (fewer than the capacity), clearing `full`. Only
    /// while no other thread uses the nodes (a search pauses its other threads).
    pub fn load(&self, nodes: &Nodes) {
        assert!(nodes.len() <= self.capacity());
        for i in 0..nodes.len() {
            self.write(i, nodes.node(i));
        }
        self.len.store(nodes.len(), Relaxed);
        self.full.store(false, Relaxed);
    }

    /// Writes node `i`.
    fn write(&self, i: usize, n: Node) {
        self.mv[i].store(u32::from(n.mv.0), Relaxed);
        self.first_child[i].store(n.first_child, Relaxed);
        self.own[i].store(pack(n.visits, half_points(n.wins)), Relaxed);
        self.amaf[i].store(pack(n.amaf_visits, half_points(n.amaf_wins)), Relaxed);
        self.children[i].store(u32::from(n.children), Release);
    }
}

impl Store for SharedNodes {
    fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    fn node(&self, i: usize) -> Node {
        let children = self.children[i].load(Acquire);
        let (visits, wins) = unpack(self.own[i].load(Relaxed));
        let (amaf_visits, amaf_wins) = unpack(self.amaf[i].load(Relaxed));
        Node {
            mv: self.mv(i),
            // A leaf being expanded is still a leaf.
            children: if children == EXPANDING { 0 } else { children as u8 },
            first_child: self.first_child[i].load(Relaxed),
            visits,
            wins,
            amaf_visits,
            amaf_wins,
        }
    }

    #[inline]
    fn mv(&self, i: usize) -> MobiusMove {
        MobiusMove(self.mv[i].load(Relaxed) as u8)
    }

    #[inline]
    fn visits(&self, i: usize) -> u32 {
        unpack(self.own[i].load(Relaxed)).0
    }

    #[inline]
    fn wins(&self, i: usize) -> f32 {
        unpack(self.own[i].load(Relaxed)).1
    }

    #[inline]
    fn child_range(&self, i: usize) -> Range<usize> {
        let k = self.children[i].load(Acquire);
        if k == 0 || k == EXPANDING {
            return 0..0;
        }
        let first = self.first_child[i].load(Relaxed) as usize;
        first..first + k as usize
    }

    #[inline]
    fn regrow_at(&self, i: usize) -> u32 {
        self.first_child[i].load(Relaxed)
    }

    /// The packed statistics are copied into `scratch` first (relaxed loads do not
    /// vectorize), then blended as [`Nodes`] does, vectorized.
    #[inline]
    fn values(&self, range: Range<usize>, bias: f32, scratch: &mut Scratch) -> f32 {
        let k = range.len();
        let Scratch { values, own, amaf, .. } = scratch;
        let columns = (&self.own[range.clone()], &self.amaf[range]);
        for ((o, a), (so, sa)) in
            columns.0.iter().zip(columns.1).zip(own.iter_mut().zip(amaf.iter_mut()))
        {
            *so = o.load(Relaxed);
            *sa = a.load(Relaxed);
        }
        packed_values(&own[..k], &amaf[..k], bias, values)
    }
}

/// The RAVE-blended values of children whose packed statistics are `own` and `amaf` (as
/// [`Nodes`] computes them for its columns), vectorized.
#[inline]
fn packed_values(own: &[u64], amaf: &[u64], bias: f32, out: &mut [f32; 256]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { packed_values_avx2(own, amaf, bias, out) };
    }
    packed_values_here(own, amaf, bias, out)
}

/// [`packed_values`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn packed_values_avx2(own: &[u64], amaf: &[u64], bias: f32, out: &mut [f32; 256]) -> f32 {
    packed_values_here(own, amaf, bias, out)
}

/// [`packed_values`] for the instruction set of the caller.
#[inline(always)]
fn packed_values_here(own: &[u64], amaf: &[u64], bias: f32, out: &mut [f32; 256]) -> f32 {
    let k = own.len();
    let (own, amaf, out) = (&own[..k], &amaf[..k], &mut out[..k]);
    for i in 0..k {
        let ((n, w), (an, aw)) = (unpack(own[i]), unpack(amaf[i]));
        out[i] = value(n, w, an, aw, bias);
    }
    max_of(out)
}

impl Grow for &SharedNodes {
    #[inline]
    fn claim(&mut self, i: usize) -> bool {
        !self.is_full() && self.children[i].compare_exchange(0, EXPANDING, Acquire, Relaxed).is_ok()
    }

    /// The root is never expanded during a search (it is expanded while the tree is
    /// exclusive, and fits then), so `always` changes nothing here.
    fn add_children(&mut self, node: usize, moves: &[MobiusMove], _always: bool) -> bool {
        let k = moves.len();
        let cap = self.capacity();
        let Ok(first) =
            self.len.fetch_update(Relaxed, Relaxed, |l| (l + k <= cap).then_some(l + k))
        else {
            self.full.store(true, Relaxed);
            self.children[node].store(0, Release);
            return false;
        };
        for (i, &mv) in (first..).zip(moves) {
            self.write(i, Node::fresh(mv));
        }
        self.first_child[node].store(first as u32, Relaxed);
        self.children[node].store(k as u32, Release);
        true
    }

    #[inline]
    fn descend(&mut self, i: usize) {
        self.own[i].fetch_add(1, Relaxed);
    }

    #[inline]
    fn visit(&mut self, i: usize, result: f32) {
        self.own[i].fetch_add(pack(0, half_points(1.0 - result)), Relaxed);
    }

    /// Branch-free: every child is stored, a missed one with its own value.
    #[inline]
    fn amaf(&mut self, range: Range<usize>, hit: &[u8; HIT_LEN], result: f32, _: &mut Scratch) {
        let add = pack(1, half_points(result));
        let columns = (&self.mv[range.clone()], &self.amaf[range]);
        for (mv, a) in columns.0.iter().zip(columns.1) {
            let h = u64::from(hit[mv.load(Relaxed) as usize]);
            a.store(a.load(Relaxed) + h * add, Relaxed);
        }
    }
}
