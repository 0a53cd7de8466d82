//! Building every class up to a number of men per side, in dependency order (fewer men
//! first), skipping the classes whose files exist (a build resumes class by class).

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use super::super::options::MorrisRules;
use super::file::{class_path, read_class, rules_name, write_class};
use super::index::{Class, MAX_MEN};
use super::probe::{MIN_MEN, MorrisDb};
use super::solve::solve;

/// The classes with at most `max_men` men per side, one of each swapped pair (the one
/// with more men to move), in the order they must be solved.
pub fn build_order(max_men: usize) -> Vec<Class> {
    let mut order = Vec::new();
    for total in 2 * MIN_MEN..=2 * max_men {
        for own in (MIN_MEN..=max_men).rev() {
            let opp = total - own.min(total);
            if (MIN_MEN..=own).contains(&opp) {
                order.push(Class { own, opp });
            }
        }
    }
    order
}

/// Builds (or completes) the database of `rules` up to `max_men` men per side in `dir`,
/// with `threads` threads. Logs one line per class on stderr.
pub fn build(
    dir: &Path,
    rules: MorrisRules,
    max_men: usize,
    threads: usize,
    show_progress: bool,
) -> Result<()> {
    anyhow::ensure!(
        (MIN_MEN..=MAX_MEN).contains(&max_men),
        "men per side must be {MIN_MEN}..={MAX_MEN}"
    );
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut db = MorrisDb::new(rules);
    let start = Instant::now();
    for class in build_order(max_men) {
        let pair = [class, class.swapped()];
        let total = class.own + class.opp;
        // Only the classes one man smaller are exits of this one.
        let stale: Vec<Class> = db.classes().filter(|c| c.own + c.opp + 1 < total).collect();
        stale.into_iter().for_each(|c| db.remove(c));
        if pair.iter().all(|&c| class_path(dir, rules, c).exists()) {
            eprintln!("{} {}v{}: already built", rules_name(rules), class.own, class.opp);
            continue;
        }
        for exit in [
            Class { own: class.opp - 1, opp: class.own },
            Class { own: class.own - 1, opp: class.opp },
        ] {
            if exit.own >= MIN_MEN && db.table(exit).is_none() {
                db.insert(exit, read_class(dir, rules, exit)?);
            }
        }
        let t = Instant::now();
        for (c, table) in solve(&db, class, threads, show_progress) {
            write_class(dir, rules, c, &table)?;
            db.insert(c, table);
        }
        eprintln!(
            "{} {}v{}: {} slots solved in {:.1} s (total {:.1} s)",
            rules_name(rules),
            class.own,
            class.opp,
            pair.iter().take(1 + (class.own != class.opp) as usize).map(|c| c.slots()).sum::<u64>(),
            t.elapsed().as_secs_f64(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
