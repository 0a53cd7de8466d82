//! Does a long Mobius search keep growing its tree? Searches the start position at
//! `Hash <mb>` (default 16) in two parts on the same tree, and prints the playouts and the
//! nodes expanded in each part:
//! - `<seconds>` (default 60): all but the last 10 s, then the last 10 s;
//! - `nodes <n>`: a fixed number of playouts (independent of the machine's load): the
//!   first four fifths, then the last fifth.
//!
//! ```sh
//! cargo run --release --example mobius_growth [-- <seconds> <mb>]
//! cargo run --release --example mobius_growth -- nodes 1000000 1
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ugine::core::Game;
use ugine::games::mobius::{MCTS_PARAMS, Mcts, Mobius, MobiusOptions};
use ugine::search::{Reporter, SearchControl, SearchInfo, TimeBudget};

/// Keeps the last report.
struct Last(Option<SearchInfo>);

impl Reporter for Last {
    fn info(&mut self, info: &SearchInfo) {
        self.0 = Some(info.clone());
    }
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let by_nodes = words.first().is_some_and(|w| w == "nodes");
    let args: Vec<u64> = words.iter().filter_map(|a| a.parse().ok()).collect();
    let mb = args.get(1).copied().unwrap_or(16) as usize;
    // Each part: its name, and its time or playout budget.
    let parts = if by_nodes {
        let n = args.first().copied().unwrap_or(1_000_000).max(5);
        [("first", None, Some(n - n / 5)), ("last", None, Some(n / 5))]
    } else {
        let s = args.first().copied().unwrap_or(60).max(11);
        [("first", Some(s - 10), None), ("last", Some(10), None)]
    };
    let pos = Mobius::startpos(&MobiusOptions::default());
    let mut mcts = Mcts::new(mb, MCTS_PARAMS);
    for (part, secs, nodes) in parts {
        let budget = secs.map(|s| TimeBudget { soft: None, hard: Duration::from_secs(s) });
        let ctl = SearchControl::new(Arc::new(AtomicBool::new(false)), budget, nodes, None);
        let mut last = Last(None);
        let (mv, _) = mcts.run(&pos, &ctl, &mut last);
        let info = last.0.expect("a final report");
        println!(
            "{part} {:>8}: {:>9} playouts, {:>9} nodes expanded, hashfull {}, best {mv}",
            secs.map_or(String::new(), |s| format!("{s} s")),
            info.nodes,
            mcts.expanded_nodes(),
            info.hashfull.unwrap_or(0)
        );
    }
}
