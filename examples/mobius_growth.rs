//! Does a long Mobius search keep growing its tree? Searches the start position for
//! `<seconds>` (default 60) at `Hash <mb>` (default 16), in two parts on the same tree
//! (all but the last 10 s, then the last 10 s), and prints the playouts and the nodes
//! expanded in each part:
//!
//! ```sh
//! cargo run --release --example mobius_growth [-- <seconds> <mb>]
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ugine::core::Game;
use ugine::games::mobius::{Mcts, MctsParams, Mobius, MobiusOptions};
use ugine::search::{Reporter, SearchControl, SearchInfo, TimeBudget};

/// Keeps the last report.
struct Last(Option<SearchInfo>);

impl Reporter for Last {
    fn info(&mut self, info: &SearchInfo) {
        self.0 = Some(info.clone());
    }
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let seconds = args.first().copied().unwrap_or(60).max(11);
    let mb = args.get(1).copied().unwrap_or(16) as usize;
    let pos = Mobius::startpos(&MobiusOptions::default());
    let mut mcts = Mcts::new(mb, MctsParams::default());
    for (part, secs) in [("first", seconds - 10), ("last", 10)] {
        let t = Duration::from_secs(secs);
        let budget = TimeBudget { soft: None, hard: t };
        let ctl = SearchControl::new(Arc::new(AtomicBool::new(false)), Some(budget), None, None);
        let mut last = Last(None);
        let (mv, _) = mcts.run(&pos, &ctl, &mut last);
        let info = last.0.expect("a final report");
        println!(
            "{part} {secs:>3} s: {:>9} playouts, {:>9} nodes expanded, hashfull {}, best {mv}",
            info.nodes,
            mcts.expanded_nodes(),
            info.hashfull.unwrap_or(0)
        );
    }
}
