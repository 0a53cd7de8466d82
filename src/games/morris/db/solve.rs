//! Retrograde analysis of one class together with its swapped class: (own, opp) and
//! (opp, own) lead into each other by every move that removes nothing, while a removal
//! leads into a class with one man fewer, solved before (an *exit*).
//!
//! Layer by layer (CITE: Gasser 1996; Gévay & Danner 2015, predecessor generation and
//! re-checking candidates): layer 0 holds the positions whose side to move is blocked.
//! A position is decided at layer `n` (odd: won, even: lost) when it is a *candidate*,
//! i.e. the predecessor by an unmove of a position decided at layer `n - 1`, or a position
//! whose exits alone make `n` the layer to look at, and the forward moves confirm it:
//! for odd `n`, some move leads to a position lost in fewer than `n` plies; for even `n`,
//! every move leads to a position won in fewer than `n` plies. Re-checking every candidate
//! with the game's own move generator makes the result independent of duplicates among
//! the candidates (symmetric positions) and of unmoves that are not real moves. Positions
//! never decided are draws. Within a layer, threads decide disjoint slots and read only
//! values of earlier layers, so the result does not depend on the threads' timing.

use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering::Relaxed};
use std::thread;

use super::super::notation::MorrisMove;
use super::super::options::{MorrisOptions, MorrisRules};
use super::index::Class;
use super::moves::{db_options, legal_moves, successor, unmoves};
use super::probe::MorrisDb;
use super::progress::Progress;
use super::value::{DbValue, Packed, UNKNOWN, UNUSED, code, decode};

/// Slots handed to a thread at a time.
const CHUNK: usize = 1 << 12;

/// The state of one retrograde analysis.
struct Solver<'a> {
    /// The classes with fewer men (exits), already solved.
    exits: &'a MorrisDb,
    rules: MorrisRules,
    opts: MorrisOptions,
    /// The class and, when different, its swapped class.
    classes: Vec<Class>,
    /// The first global slot of each class, and the total.
    offsets: Vec<u64>,
    /// Working codes of every global slot (see [`super::value`]).
    codes: Vec<AtomicU16>,
    threads: usize,
}

impl Solver<'_> {
    /// The global slot of a position when its class is one of the two being solved.
    #[inline]
    fn index(&self, own: u32, opp: u32) -> Option<usize> {
        let class = Class::of(own, opp);
        let k = self.classes.iter().position(|&c| c == class)?;
        Some((self.offsets[k] + class.slot(own, opp)) as usize)
    }

    /// The class number and the position of a global slot.
    fn position(&self, g: usize) -> (usize, u64, (u32, u32)) {
        let k = (self.classes.len() == 2 && g as u64 >= self.offsets[1]) as usize;
        let slot = g as u64 - self.offsets[k];
        (k, slot, self.classes[k].position(slot))
    }

    /// The value of a position reached by a move, as known before layer `n`: a win or
    /// loss in `n` plies or more counts as unknown, in the two classes being solved as in
    /// the exits (else a position would be decided before its layer, and its
    /// predecessors, tried at the next layer, would not see it yet).
    #[inline]
    fn known(&self, own: u32, opp: u32, n: u16) -> Option<DbValue> {
        let v = match self.index(own, opp) {
            Some(g) => match self.codes[g].load(Relaxed) {
                UNKNOWN => return None,
                c => decode(c),
            },
            None => self
                .exits
                .lookup(own, opp)
                .unwrap_or_else(|| panic!("class {:?} must be solved first", Class::of(own, opp))),
        };
        match v {
            DbValue::Win(d) | DbValue::Loss(d) if d >= n => None,
            v => Some(v),
        }
    }

    /// The code of the position at layer `n` if the forward moves decide it there.
    fn decide(&self, own: u32, opp: u32, n: u16, moves: &mut Vec<MorrisMove>) -> Option<u16> {
        legal_moves(&self.opts, own, opp, moves);
        let next = moves.iter().map(|&mv| {
            let (a, b) = successor(own, opp, mv);
            self.known(a, b, n)
        });
        if n % 2 == 1 {
            // Any move to a decided loss: it is a loss in n - 1 plies, or this position
            // would have been decided at an earlier layer.
            let mut next = next;
            next.any(|v| matches!(v, Some(DbValue::Loss(_)))).then(|| code(n))
        } else {
            let mut longest = 0;
            for v in next {
                match v {
                    Some(DbValue::Win(d)) => longest = longest.max(d + 1),
                    _ => return None,
                }
            }
            debug_assert_eq!(longest, n, "a loss would have been found at an earlier layer");
            Some(code(longest))
        }
    }

    /// Decides slot `g` (position `own`, `opp`) at layer `n` if it is still unknown and
    /// the moves allow; a newly decided slot is pushed on `out`.
    fn try_decide(
        &self,
        g: usize,
        pos: (u32, u32),
        n: u16,
        moves: &mut Vec<MorrisMove>,
        out: &mut Vec<u32>,
    ) {
        if self.codes[g].load(Relaxed) != UNKNOWN {
            return;
        }
        if let Some(c) = self.decide(pos.0, pos.1, n, moves)
            && self.codes[g].compare_exchange(UNKNOWN, c, Relaxed, Relaxed).is_ok()
        {
            out.push(g as u32);
        }
    }

    /// Runs `work(i, moves, out)` for every `i < total` on all threads, in chunks, and
    /// returns what the threads pushed.
    fn parallel<T: Send>(
        &self,
        total: usize,
        work: impl Fn(usize, &mut Vec<MorrisMove>, &mut Vec<T>) + Sync,
        progress: Option<&Progress>,
    ) -> Vec<Vec<T>> {
        let next = AtomicUsize::new(0);
        thread::scope(|s| {
            let handles: Vec<_> = (0..self.threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut moves = Vec::with_capacity(256);
                        let mut out = Vec::new();
                        loop {
                            let start = next.fetch_add(CHUNK, Relaxed);
                            if start >= total {
                                break;
                            }
                            let end = (start + CHUNK).min(total);
                            for i in start..end {
                                work(i, &mut moves, &mut out);
                            }
                            if let Some(p) = progress {
                                p.add((end - start) as u64);
                            }
                        }
                        out
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("solver thread")).collect()
        })
    }

    /// Layer 0 and the exits: marks unused slots, decides blocked positions (returned),
    /// and files every position under the layer its exits point to.
    fn init(&self, progress: &Progress) -> (Vec<u32>, Vec<Vec<u32>>) {
        enum Found {
            Blocked(u32),
            Candidate(u16, u32),
        }
        let total = *self.offsets.last().expect("offsets") as usize;
        let found = self.parallel(
            total,
            |g, moves, out| {
                let (k, slot, (own, opp)) = self.position(g);
                if self.classes[k].slot(own, opp) != slot {
                    self.codes[g].store(UNUSED, Relaxed);
                    return;
                }
                legal_moves(&self.opts, own, opp, moves);
                if moves.is_empty() {
                    self.codes[g].store(code(0), Relaxed);
                    out.push(Found::Blocked(g as u32));
                    return;
                }
                let (mut win, mut loss, mut all_win, mut exits) = (u16::MAX, 0, true, 0);
                for &mv in moves.iter().filter(|m| m.captured().is_some()) {
                    let (a, b) = successor(own, opp, mv);
                    exits += 1;
                    match self.known(a, b, u16::MAX) {
                        Some(DbValue::Loss(d)) => win = win.min(d + 1),
                        Some(DbValue::Win(d)) => loss = loss.max(d + 1),
                        _ => all_win = false,
                    }
                }
                if win != u16::MAX {
                    out.push(Found::Candidate(win, g as u32));
                } else if exits > 0 && all_win {
                    out.push(Found::Candidate(loss, g as u32));
                }
            },
            Some(progress),
        );
        let mut blocked = Vec::new();
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        for f in found.into_iter().flatten() {
            match f {
                Found::Blocked(g) => blocked.push(g),
                Found::Candidate(n, g) => {
                    let n = n as usize;
                    if buckets.len() <= n {
                        buckets.resize(n + 1, Vec::new());
                    }
                    buckets[n].push(g);
                }
            }
        }
        (blocked, buckets)
    }

    /// Decides layer `n` from the positions decided at layer `n - 1` and the exit
    /// candidates of layer `n`; returns the positions decided.
    fn layer(&self, n: u16, previous: &[u32], candidates: &[u32]) -> Vec<u32> {
        let found = self.parallel(
            previous.len() + candidates.len(),
            |i, moves, out| {
                if let Some(&g) = previous.get(i) {
                    let (_, _, (own, opp)) = self.position(g as usize);
                    unmoves(self.rules, own, opp, |p, q| {
                        let g = self.index(p, q).expect("an unmove stays in the pair");
                        self.try_decide(g, (p, q), n, moves, out);
                    });
                } else {
                    let g = candidates[i - previous.len()] as usize;
                    let (_, _, pos) = self.position(g);
                    self.try_decide(g, pos, n, moves, out);
                }
            },
            None,
        );
        found.concat()
    }
}

/// Solves `class` and its swapped class; `exits` must hold every class with one man
/// fewer that a removal leads to. Returns the solved classes.
pub fn solve(
    exits: &MorrisDb,
    class: Class,
    threads: usize,
    show_progress: bool,
) -> Vec<(Class, Packed)> {
    let rules = exits.rules();
    let classes = if class.swapped() == class { vec![class] } else { vec![class, class.swapped()] };
    let mut offsets = vec![0];
    for c in &classes {
        offsets.push(offsets.last().expect("offsets") + c.slots());
    }
    let total = *offsets.last().expect("offsets");
    assert!(total < u32::MAX as u64, "slots are numbered in 32 bits");
    let solver = Solver {
        exits,
        rules,
        opts: db_options(rules),
        classes: classes.clone(),
        offsets,
        codes: (0..total).map(|_| AtomicU16::new(UNKNOWN)).collect(),
        threads: threads.max(1),
    };
    let label = format!("{} {}v{}", super::file::rules_name(rules), class.own, class.opp);
    let progress = Progress::new(format!("{label} init "), total, show_progress);
    let (mut previous, mut buckets) = solver.init(&progress);
    progress.finish(format!("{} blocked", previous.len()));

    let layers = Progress::new(format!("{label} solve"), total, show_progress);
    layers.add(previous.len() as u64);
    let mut n: u16 = 1;
    while !previous.is_empty() || (n as usize) < buckets.len() {
        let candidates = buckets.get_mut(n as usize).map(std::mem::take).unwrap_or_default();
        previous = solver.layer(n, &previous, &candidates);
        layers.add(previous.len() as u64);
        layers.status(format!("layer {n}"));
        n = n.checked_add(1).expect("fewer than 65535 layers");
    }
    layers.finish(format!("{} layers", n - 1));

    let codes: Vec<u16> = solver.codes.into_iter().map(AtomicU16::into_inner).collect();
    classes
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let part = &codes[solver.offsets[k] as usize..solver.offsets[k + 1] as usize];
            (c, Packed::from_codes(part).unwrap_or_else(|e| panic!("class {c:?}: {e}")))
        })
        .collect()
}
