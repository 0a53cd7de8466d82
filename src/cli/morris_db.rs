//! `ugine morris-db build|stats|probe|verify|crosscheck`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, bail};
use clap::{Args, Subcommand, ValueEnum};

use crate::core::Game;
use crate::games::morris::Morris;
use crate::games::morris::MorrisRules;
use crate::games::morris::db::build::build;
use crate::games::morris::db::crosscheck::crosscheck_class;
use crate::games::morris::db::file::rules_name;
use crate::games::morris::db::index::Class;
use crate::games::morris::db::moves::db_options;
use crate::games::morris::db::plain::crosscheck_three_against_three;
use crate::games::morris::db::probe::MorrisDb;
use crate::games::morris::db::stats::{STATS_HEADER, class_stats, stats_line};
use crate::games::morris::db::verify::verify_class;

/// Endgame databases of Nine Men's Morris (movement phase).
#[derive(Args)]
pub struct MorrisDbArgs {
    #[command(subcommand)]
    command: DbCommand,
}

/// A rule set on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    Seed,
    Standard,
}

impl From<RulesArg> for MorrisRules {
    fn from(r: RulesArg) -> MorrisRules {
        match r {
            RulesArg::Seed => MorrisRules::Seed,
            RulesArg::Standard => MorrisRules::Standard,
        }
    }
}

#[derive(Args)]
struct Common {
    /// Database directory.
    #[arg(long, default_value = "morris-db")]
    dir: PathBuf,
    /// Rule set.
    #[arg(long, value_enum, default_value = "seed")]
    rules: RulesArg,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

impl Common {
    fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

#[derive(Subcommand)]
enum DbCommand {
    /// Solve every class up to N men per side (resumes: built classes are skipped).
    Build {
        #[command(flatten)]
        common: Common,
        /// Most men per side.
        #[arg(long)]
        men: usize,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Per class: positions (up to symmetry) and win/draw/loss counts.
    Stats {
        #[command(flatten)]
        common: Common,
    },
    /// The value and a best move of a movement-phase position.
    Probe {
        #[command(flatten)]
        common: Common,
        /// Position string (`W2/1B1/3/1W2B1/3/B1W/3 w 0 0 10`), as one or several words.
        #[arg(required = true, num_args = 1..)]
        position: Vec<String>,
    },
    /// Checks every stored value against its successors' values.
    Verify {
        #[command(flatten)]
        common: Common,
    },
    /// Compares every class with a depth-limited proof search that does not use the
    /// database, on random positions.
    Crosscheck {
        #[command(flatten)]
        common: Common,
        /// Random positions per class.
        #[arg(long, default_value_t = 1000)]
        samples: u64,
        /// Depth in plies of the search: it must find every value of distance up to it.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Seed of the positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead: compare every 3-against-3 position with a second, plain solver
        /// (fixed-point iteration over the game's own moves, no indexing or symmetry).
        #[arg(long)]
        full: bool,
    },
}

/// Runs a `morris-db` subcommand.
pub fn run(args: &MorrisDbArgs) -> Result<()> {
    match &args.command {
        DbCommand::Build { common, men, quiet } => {
            build(&common.dir, common.rules.into(), *men, common.threads(), !quiet)
        }
        DbCommand::Stats { common } => {
            let db = open(common)?;
            println!("{} rules, {}", rules_name(db.rules()), common.dir.display());
            println!("{STATS_HEADER}");
            for class in db.classes() {
                let table = db.table(class).expect("listed class");
                println!("{}", stats_line(class, &class_stats(table)));
            }
            Ok(())
        }
        DbCommand::Probe { common, position } => {
            let db = open(common)?;
            let pos = Morris::from_fen(&position.join(" "), &db_options(common.rules.into()))
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let stm = pos.side_to_move();
            let class = Class::of(pos.men(stm), pos.men(stm.opponent()));
            let Some(value) = db.probe(&pos) else {
                bail!(
                    "class {}v{} (side to move first) is not in the database",
                    class.own,
                    class.opp
                );
            };
            println!("class {}v{} ({} rules)", class.own, class.opp, rules_name(db.rules()));
            println!("value {value}");
            match db.best_move(&pos) {
                Some((mv, _)) => println!("bestmove {mv}"),
                None => println!("bestmove (none)"),
            }
            Ok(())
        }
        DbCommand::Verify { common } => {
            let db = open(common)?;
            let start = Instant::now();
            let mut bad = 0;
            for class in db.classes() {
                let (n, found) = verify_class(&db, class, common.threads(), true);
                found.iter().for_each(|s| eprintln!("  {s}"));
                let verdict = if n == 0 { "ok".into() } else { format!("{n} inconsistent slots") };
                println!("{}v{}: {verdict}", class.own, class.opp);
                bad += n;
            }
            println!("verified in {:.1} s: {bad} problems", start.elapsed().as_secs_f64());
            if bad > 0 {
                bail!("the database is inconsistent");
            }
            Ok(())
        }
        DbCommand::Crosscheck { common, full: true, .. } => {
            let db = open(common)?;
            let start = Instant::now();
            if db.table(Class { own: 3, opp: 3 }).is_none() {
                bail!("class 3v3 is not in the database");
            }
            let c = crosscheck_three_against_three(&db);
            c.mismatches.iter().take(5).for_each(|s| eprintln!("  {s}"));
            println!(
                "3v3, every position against the plain solver in {:.1} s: {} positions, {} won or lost, {} disagree",
                start.elapsed().as_secs_f64(),
                c.checked,
                c.decided,
                c.mismatches.len()
            );
            if !c.mismatches.is_empty() {
                bail!("the database disagrees with the plain solver");
            }
            Ok(())
        }
        DbCommand::Crosscheck { common, samples, depth, seed, full: false } => {
            let db = open(common)?;
            let start = Instant::now();
            let (mut total, mut decided, mut bad) = (0, 0, 0);
            for class in db.classes() {
                let c = crosscheck_class(&db, class, *samples, *depth, *seed);
                c.mismatches.iter().take(5).for_each(|s| eprintln!("  {s}"));
                println!(
                    "{}v{}: {} positions, {} decided within {depth} plies, {} disagree",
                    class.own,
                    class.opp,
                    c.checked,
                    c.decided,
                    c.mismatches.len()
                );
                total += c.checked;
                decided += c.decided;
                bad += c.mismatches.len();
            }
            println!(
                "cross-checked in {:.1} s: {total} positions, {decided} decided, {bad} disagree",
                start.elapsed().as_secs_f64()
            );
            if bad > 0 {
                bail!("the database disagrees with the search");
            }
            Ok(())
        }
    }
}

/// Opens the database of `common`, failing when it holds no class.
fn open(common: &Common) -> Result<MorrisDb> {
    let (db, errors) = MorrisDb::open(&common.dir, common.rules.into());
    errors.iter().for_each(|e| eprintln!("warning: {e}"));
    if db.classes().next().is_none() {
        bail!("no {} class in {}", rules_name(db.rules()), common.dir.display());
    }
    Ok(db)
}
