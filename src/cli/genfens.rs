//! `ugine genfens`: writes an opening file for a game.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::core::Rng;
use crate::runner::records::balance::{Candidates, balanced_by_play, balanced_by_score};
use crate::runner::records::opening::{default_plies, generate_openings};
use crate::runner::referee::Referee;

/// `ugine genfens`: write an opening file.
#[derive(Args, Debug)]
pub struct GenfensArgs {
    /// The game.
    pub game: String,
    /// Number of openings.
    pub n: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies of each opening: from the start position (default 4), or from a
    /// random setup in games that have them (Mabula; default 0, the setup alone).
    #[arg(long, value_name = "K")]
    pub plies: Option<usize>,
    /// Random endgame positions with this many men per side instead (Morris: movement
    /// phase, both hands empty, 3 to 9 men; `--plies` is then ignored).
    #[arg(long, value_name = "N")]
    pub men: Option<usize>,
    /// Rule options "Name=value"; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = crate::core::words::parse_option)]
    pub option: Vec<(String, String)>,
    /// Keep only openings that ugine scores within ±CP for the side to move after a
    /// search of `--balance-nodes` nodes (a forced win or loss is never kept), for matches
    /// that are not decided by the opening.
    #[arg(long, value_name = "CP")]
    pub balanced: Option<i32>,
    /// Keep only openings that ugine does not win or lose by the seat alone: two
    /// self-play games from the opening, one search at `--balance-nodes` and one at twice
    /// that, swapping which plays the side to move; kept unless the same side wins both.
    /// For games where a search's score says little about who wins (Mabula's second
    /// player wins most games between equal engines from any setup).
    #[arg(long, conflicts_with = "balanced")]
    pub balanced_by_play: bool,
    /// Nodes per search of `--balanced` and `--balanced-by-play`.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub balance_nodes: u64,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// `ugine`: opening lines (`startpos moves …`, `fen …`), with a comment header;
    /// `cutegames`: one position string per line (the position after the opening),
    /// for managers that send `position fen <line>`.
    #[arg(long, default_value = "ugine", value_parser = ["ugine", "cutegames"])]
    pub format: String,
}

/// Runs `ugine genfens`.
pub fn run(args: &GenfensArgs) -> anyhow::Result<()> {
    let referee = Referee::new(&args.game, &args.option)?;
    let mut session = referee.session()?;
    if let Some(men) = args.men {
        anyhow::ensure!(
            session.random_endgame_fen(men, &mut Rng::new(args.seed)).is_some(),
            "{} has no random endgame positions with {men} men per side",
            args.game
        );
    }
    let plies = args.plies.unwrap_or_else(|| default_plies(session.as_ref(), 4));
    let wanted = Candidates { n: args.n, plies, men: args.men, seed: args.seed };
    let nodes = args.balance_nodes;
    let openings = match args.balanced {
        None if args.balanced_by_play => balanced_by_play(session.as_mut(), &wanted, nodes)?,
        None => generate_openings(session.as_mut(), args.n, plies, args.men, args.seed),
        Some(cp) => balanced_by_score(session.as_mut(), &wanted, nodes, cp)?,
    };
    let mut text = String::new();
    if args.format == "cutegames" {
        // Position strings only: cutegames reads every line that is not blank and does
        // not start with '#' as an opening, so no header either.
        for o in openings {
            o.check(session.as_mut()).map_err(anyhow::Error::msg)?;
            text.push_str(&session.fen());
            text.push('\n');
        }
    } else {
        text = format!(
            "# ugine genfens {} {} --seed {} {}{}{}\n",
            args.game,
            args.n,
            args.seed,
            match args.men {
                Some(men) => format!("--men {men}"),
                None => format!("--plies {plies}"),
            },
            match args.balanced {
                Some(cp) => format!(" --balanced {cp} --balance-nodes {}", args.balance_nodes),
                None if args.balanced_by_play => {
                    format!(" --balanced-by-play --balance-nodes {}", args.balance_nodes)
                }
                None => String::new(),
            },
            args.option.iter().map(|(k, v)| format!(" --option '{k}={v}'")).collect::<String>()
        );
        for o in openings {
            text.push_str(&o.to_string());
            text.push('\n');
        }
    }
    match &args.output {
        Some(p) => std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display())),
        None => std::io::stdout().write_all(text.as_bytes()).context("cannot write to stdout"),
    }
}
