//! `ugine bench`: every implemented game's fixed positions searched to fixed limits,
//! single thread, fresh tables per position. The node count is a signature of the search
//! (identical from run to run); the last line gives the total nodes and nodes/second.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};

use crate::core::Limits;
use crate::engine::{GameEntry, Session, registry};
use crate::search::{Reporter, SearchInfo};

/// Keeps the node count of the latest report.
struct NodeCounter(Arc<AtomicU64>);

impl Reporter for NodeCounter {
    fn info(&mut self, info: &SearchInfo) {
        self.0.store(info.nodes, Ordering::Relaxed);
    }
}

/// One bench position's result.
pub struct PositionResult {
    /// Nodes searched (the signature).
    pub nodes: u64,
    /// Wall-clock time of the search.
    pub time: Duration,
    /// The move the search chose.
    pub best: String,
}

/// Runs one single-thread search of the session's position to `limits` (never a time
/// limit); returns the nodes it reported and the move it chose.
pub fn search(session: &mut dyn Session, limits: Limits) -> Result<(u64, String)> {
    session.set_threads(1);
    let nodes = Arc::new(AtomicU64::new(0));
    let best = Arc::new(Mutex::new(String::new()));
    let best_out = Arc::clone(&best);
    let handle = session
        .start_search(
            limits,
            Duration::ZERO,
            Arc::new(AtomicBool::new(false)),
            Box::new(NodeCounter(Arc::clone(&nodes))),
            Box::new(move |mv| *best_out.lock().unwrap_or_else(|e| e.into_inner()) = mv),
        )
        .map_err(|e| anyhow!("{e}"))?;
    handle.join().map_err(|_| anyhow!("the search panicked"))?;
    let best = best.lock().map(|b| b.clone()).unwrap_or_default();
    Ok((nodes.load(Ordering::Relaxed), best))
}

/// Searches every bench position of `entry` to its fixed limit, single thread, fresh
/// tables per position.
pub fn search_game(entry: &GameEntry) -> Result<Vec<PositionResult>> {
    let mut session = (entry.make)(16);
    let mut results = Vec::new();
    for (i, fen) in entry.bench_positions.iter().enumerate() {
        let context = || format!("{} bench position {}", entry.name, i + 1);
        session.new_game();
        let fen = (*fen != "startpos").then_some(*fen);
        session.set_position(fen, &[]).map_err(|e| anyhow!("{}: {e}", context()))?;
        let start = Instant::now();
        let (nodes, best) = search(&mut *session, (entry.bench_limits)()).with_context(context)?;
        results.push(PositionResult { nodes, time: start.elapsed(), best });
    }
    Ok(results)
}

/// Runs the bench of `game` (or of every implemented game) and writes the report.
pub fn run(game: Option<&str>, out: &mut dyn Write) -> Result<()> {
    let games: Vec<_> = registry()
        .into_iter()
        .filter(|g| game.is_none_or(|name| g.name.eq_ignore_ascii_case(name)))
        .collect();
    if games.is_empty() {
        return Err(anyhow!("unknown game '{}'", game.unwrap_or_default()));
    }
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for entry in games {
        for (i, r) in search_game(&entry)?.iter().enumerate() {
            total_nodes += r.nodes;
            total_time += r.time;
            writeln!(
                out,
                "{:<14} {:>2}  {:>10} nodes {:>7} ms  bestmove {}",
                entry.name,
                i + 1,
                r.nodes,
                r.time.as_millis(),
                r.best
            )
            .context("write bench report")?;
        }
    }
    let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "Bench: {total_nodes} nodes {nps} nps").context("write bench report")?;
    Ok(())
}
