//! The full verification pass of `ugine morris-db verify`: every stored value must equal
//! the value computed from its successors' stored values, every blocked position must be
//! a loss in 0, and exactly the unused slots are marked unused. By induction on the
//! distance, a table that passes has every win, loss and distance right (a win in `d`
//! needs a successor lost in `d - 1`, down to a blocked position), so the draws are right
//! too.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::thread;

use super::index::Class;
use super::probe::MorrisDb;
use super::progress::Progress;

/// Slots handed to a thread at a time.
const CHUNK: u64 = 1 << 12;

/// Checks every slot of `class` (held by `db`, with the classes its moves lead to);
/// returns the number of inconsistent slots and the first few of them described.
pub fn verify_class(
    db: &MorrisDb,
    class: Class,
    threads: usize,
    show_progress: bool,
) -> (u64, Vec<String>) {
    let table = db.table(class).expect("the class to verify is held");
    let slots = class.slots();
    let progress =
        Progress::new(format!("verify {}v{}", class.own, class.opp), slots, show_progress);
    let next = AtomicU64::new(0);
    let bad = AtomicU64::new(0);
    let reported = AtomicUsize::new(0);
    let samples = std::sync::Mutex::new(Vec::new());
    thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut moves = Vec::with_capacity(256);
                loop {
                    let start = next.fetch_add(CHUNK, Relaxed);
                    if start >= slots {
                        break;
                    }
                    for slot in start..(start + CHUNK).min(slots) {
                        let (own, opp) = class.position(slot);
                        let stored = table.get(slot);
                        let expected = if class.slot(own, opp) != slot {
                            None
                        } else {
                            db.value_by_moves(own, opp, &mut moves).map(|(_, v)| v)
                        };
                        if stored != expected {
                            bad.fetch_add(1, Relaxed);
                            if reported.fetch_add(1, Relaxed) < 5
                                && let Ok(mut v) = samples.lock()
                            {
                                v.push(format!(
                                    "slot {slot} (own {own:06x}, opp {opp:06x}): stored {stored:?}, \
                                     successors give {expected:?}"
                                ));
                            }
                        }
                    }
                    progress.add(CHUNK.min(slots - start));
                }
            });
        }
    });
    let bad = bad.into_inner();
    progress.finish(if bad == 0 { "ok".into() } else { format!("{bad} inconsistent") });
    (bad, samples.into_inner().unwrap_or_default())
}
