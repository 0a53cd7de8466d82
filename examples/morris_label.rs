//! Exact Morris labels from the endgame databases (`ugine morris-db build`), for
//! `datagen` positions: every position of a class the databases hold (both hands empty)
//! becomes a line whose result is its exact value (`| exact`, for `ugine train`), when
//! the value holds under the default move limit (a win or loss in at most the plies
//! left before the limit draws; a database draw is a draw). Other positions are copied as
//! they are.
//!
//! ```sh
//! ugine morris-db build --rules seed --men 4 --dir db
//! cargo run --release --example morris_label -- --db db --data d.data -o l.data
//! ```
//!
//! Prints how many positions were labelled and copied.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use ugine::core::{Game, Side};
use ugine::games::morris::db::{DbValue, MorrisDb};
use ugine::games::morris::{Morris, MorrisOptions, MorrisRules};

#[derive(Parser)]
struct Cli {
    /// The database directory.
    #[arg(long)]
    db: PathBuf,
    /// `datagen` lines of Morris under the default rules (seed), or the standard rules.
    #[arg(long)]
    data: PathBuf,
    /// The rule set of the data.
    #[arg(long, default_value = "seed")]
    rules: String,
    #[arg(short)]
    o: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let rules = if cli.rules == "standard" { MorrisRules::Standard } else { MorrisRules::Seed };
    let opts = MorrisOptions { rules, ..MorrisOptions::default() };
    let (db, errors) = MorrisDb::open(&cli.db, rules);
    for e in errors {
        eprintln!("skipped {e}");
    }
    let input = std::io::BufReader::new(
        std::fs::File::open(&cli.data).with_context(|| format!("{}", cli.data.display()))?,
    );
    let mut out = std::io::BufWriter::new(std::fs::File::create(&cli.o)?);
    let (mut labelled, mut copied) = (0, 0);
    let mut by_value = [0usize; 3];
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let fen = line.split(" | ").next().unwrap_or("");
        let pos = Morris::from_fen(fen, &opts)
            .with_context(|| format!("{}:{}", cli.data.display(), i + 1))?;
        let left = opts.move_limit.saturating_sub(pos.quiet_plies());
        let value = if pos.outcome().is_some() { None } else { db.probe(&pos) };
        let stm = pos.side_to_move();
        let result = match value {
            Some(DbValue::Draw) => Some((Outcome3::Draw, "draw")),
            Some(DbValue::Win(d)) if u32::from(d) <= left => {
                Some((Outcome3::Win, if stm == Side::P1 { "p1win" } else { "p2win" }))
            }
            Some(DbValue::Loss(d)) if u32::from(d) <= left => {
                Some((Outcome3::Loss, if stm == Side::P1 { "p2win" } else { "p1win" }))
            }
            _ => None,
        };
        match result {
            Some((v, result)) => {
                let side = if stm == Side::P1 { "p1" } else { "p2" };
                writeln!(out, "{fen} | {side} | 0 | {result} | exact")?;
                labelled += 1;
                by_value[v as usize] += 1;
            }
            None => {
                writeln!(out, "{line}")?;
                copied += 1;
            }
        }
    }
    out.flush()?;
    println!(
        "{labelled} labelled (side to move: {} wins, {} draws, {} losses), {copied} copied",
        by_value[0], by_value[1], by_value[2]
    );
    Ok(())
}

/// The exact value of a labelled position for its side to move.
#[derive(Clone, Copy)]
enum Outcome3 {
    Win = 0,
    Draw = 1,
    Loss = 2,
}
