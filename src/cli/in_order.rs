//! Work items run on several threads whose results are handed on in item order, so a
//! command's output depends only on its inputs, never on `--concurrency` (`datagen`'s
//! games, `relabel`'s positions).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// Runs items `0..items` on `workers` threads (at least one, at most one per item).
/// Each thread first makes its own state with `init` (a session, say), then takes the
/// next item and calls `work` on it; `sink` gets every result in item order. The first
/// error (of `init`, `work` or `sink`) stops the run and is returned; items then still
/// running finish, and no later result is handed on.
pub fn run_in_order<S, T: Send>(
    items: usize,
    workers: usize,
    init: impl Fn() -> anyhow::Result<S> + Sync,
    work: impl Fn(&mut S, usize) -> anyhow::Result<T> + Sync,
    mut sink: impl FnMut(usize, T) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = channel::<(usize, anyhow::Result<T>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.max(1)) {
            let tx = tx.clone();
            let (next, failed, init, work) = (&next, &failed, &init, &work);
            scope.spawn(move || {
                let mut state = match init() {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = tx.send((0, Err(e)));
                        return;
                    }
                };
                while !failed.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= items {
                        break;
                    }
                    if tx.send((i, work(&mut state, i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Items finish in any order; they are handed on in order.
        let mut pending = BTreeMap::new();
        let mut done = 0;
        for (i, result) in rx {
            let stop = |e: anyhow::Error| {
                failed.store(true, Ordering::SeqCst);
                Err(e)
            };
            match result {
                Ok(r) => pending.insert(i, r),
                Err(e) => return stop(e),
            };
            while let Some(r) = pending.remove(&done) {
                if let Err(e) = sink(done, r) {
                    return stop(e);
                }
                done += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_item_order_whatever_the_workers() {
        for workers in [1, 3, 8] {
            let mut seen = Vec::new();
            run_in_order(
                20,
                workers,
                || Ok(()),
                |_, i| {
                    // Later items finish first.
                    std::thread::sleep(std::time::Duration::from_millis((20 - i as u64) % 4));
                    Ok(i * 10)
                },
                |i, r| {
                    seen.push((i, r));
                    Ok(())
                },
            )
            .expect("runs");
            let want: Vec<(usize, usize)> = (0..20).map(|i| (i, i * 10)).collect();
            assert_eq!(seen, want, "{workers} workers");
        }
    }

    #[test]
    fn the_first_error_stops_the_run_and_is_returned() {
        let mut handed = Vec::new();
        let e = run_in_order(
            50,
            2,
            || Ok(()),
            |_, i| if i == 5 { anyhow::bail!("item {i} failed") } else { Ok(i) },
            |i, _| {
                handed.push(i);
                Ok(())
            },
        )
        .expect_err("item 5 fails");
        assert_eq!(e.to_string(), "item 5 failed");
        assert!(handed.iter().all(|&i| i < 5), "{handed:?}");
        let e = run_in_order(
            3,
            2,
            || -> anyhow::Result<()> { anyhow::bail!("no session") },
            |_, i| Ok(i),
            |_, _| Ok(()),
        )
        .expect_err("init fails");
        assert_eq!(e.to_string(), "no session");
    }
}
