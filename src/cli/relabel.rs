//! `ugine relabel`: scores the positions of data files again with a deeper search
//! ([`crate::tune::relabel`]), `--concurrency` positions at a time, written in input
//! order ([`super::in_order`]). Progress, and at the end how much the scores changed,
//! go to stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;

use super::in_order::run_in_order;
use super::search_setup::{SearchSetup, output};
use crate::tune::relabel::{ChangeSummary, relabel_line};

/// `ugine relabel`: data lines with the scores of a deeper search (`docs/tuning.md`).
#[derive(Args, Debug)]
pub struct RelabelArgs {
    #[command(flatten)]
    pub setup: SearchSetup,
    /// Data files from `ugine datagen` (select positions first, with grep or awk).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Nodes searched per position.
    #[arg(long)]
    pub nodes: u64,
    /// Positions searched at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `ugine relabel`.
pub fn run(args: &RelabelArgs) -> anyhow::Result<()> {
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    // The options are checked, then every file read, before any search.
    let (referee, _) = args.setup.check()?;
    let mut lines = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        lines.extend(text.lines().enumerate().map(|(i, l)| (path, i + 1, l.to_string())));
    }
    let mut out = output(args.output.as_deref())?;
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut summary = ChangeSummary::default();
    run_in_order(
        lines.len(),
        args.concurrency,
        || args.setup.session(&referee),
        |session, i| {
            let (path, n, line) = &lines[i];
            relabel_line(session.as_mut(), line, args.nodes)
                .map_err(|e| anyhow::anyhow!("{}:{n}: {e:#}", path.display()))
        },
        |i, relabelled| {
            summary.add(&relabelled);
            writeln!(out, "{}", relabelled.line).context("cannot write the data")?;
            if last_report.elapsed().as_millis() >= 1000 || i + 1 == lines.len() {
                last_report = Instant::now();
                // Progress only: a closed stderr must not stop the run.
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "[{}/{}] lines written, {:.1} lines/s",
                    i + 1,
                    lines.len(),
                    (i + 1) as f64 / start.elapsed().as_secs_f64().max(1e-3)
                );
            }
            Ok(())
        },
    )?;
    out.flush().context("cannot write the data")?;
    let _ = writeln!(std::io::stderr().lock(), "{summary}");
    Ok(())
}
