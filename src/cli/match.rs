//! `ugine match`: engines against each other, refereed by ugine's rules (docs/runner.md).

use std::path::PathBuf;

use clap::Args;

use super::emit;
use crate::core::words::split_words;
use crate::runner::note;
use crate::runner::players::spec::EngineSpec;
use crate::runner::stats::sprt::Sprt;
use crate::runner::tournament::Match;
use crate::runner::tournament::config::MatchConfig;

/// `ugine match`: play engines against each other (see docs/runner.md).
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Config file (settings there are overridden by the flags below).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// An engine, one quoted string of `key=value` words: `"name=<n> cmd=<program>
    /// [arg=<a>]… [option.<Name>=<v>]… [dir=…] [proto=ugi|uci] [seed=…] [depth=…]
    /// [nodes=…] [movetime=…]"` (the last three replace the match's limits; quote a word
    /// with spaces: `'option.Move Overhead=10'`); `cmd=random` (or `name=random`) is the
    /// built-in random mover, `cmd=uct` (or `name=uct`) the built-in plain MCTS. Repeat
    /// for each engine.
    #[arg(long, value_name = "SPEC")]
    pub engine: Vec<String>,
    /// The game (also sent as `setoption name Game value <game>`).
    #[arg(long)]
    pub game: Option<String>,
    /// A match-wide option "Name=value" sent to every engine; rule options also set the
    /// referee's rules. Repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
    /// headtohead (2 engines), gauntlet (first engine against the others), roundrobin.
    #[arg(long)]
    pub format: Option<String>,
    /// Opening rounds per pairing; each round is a pair of games with seats swapped.
    #[arg(long)]
    pub rounds: Option<usize>,
    /// Opening file (default: the start position only).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// sequential or random (shuffled with --seed).
    #[arg(long)]
    pub order: Option<String>,
    /// Seed of the opening order and of the random mover (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Games played at once (default 1).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Game-record file; each finished game is appended at once.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// on (default) or off: keep the games in progress in `<records>.live` beside the
    /// record file (rewritten after every move, removed at the end) for `ugine gui
    /// --watch`.
    #[arg(long, value_name = "on|off")]
    pub live: Option<String>,
    /// Continue the match recorded in --records: recorded games are not replayed.
    #[arg(long)]
    pub resume: bool,
    /// Play only the K-th of N disjoint parts of the match (e.g. 3/8); merge the parts'
    /// records with `ugine merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Shared record directory: this shard records to DIR/shard-K-of-N.ugr, and an SPRT
    /// counts every shard's file there (stopping when the merged result decides).
    #[arg(long, value_name = "DIR")]
    pub record_dir: Option<PathBuf>,
    /// Also append every finished game to this PGN file (for Ordo, BayesElo).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`: stop when a bound is crossed.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Adjudicate a draw after this many engine moves.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// No progress line per game.
    #[arg(long)]
    pub quiet: bool,
    /// Stop the match when one engine disconnects in N games in a row (default 3; 0:
    /// never).
    #[arg(long, value_name = "N")]
    pub disconnect_limit: Option<usize>,
}

impl MatchArgs {
    /// The match configuration: the config file first, then the flags.
    pub fn to_config(&self) -> anyhow::Result<MatchConfig> {
        let mut cfg = MatchConfig::default();
        if let Some(p) = &self.config {
            cfg.load_file(p)?;
        }
        self.limits.apply(&mut cfg)?;
        let mut set = |k: &str, v: Option<String>| -> anyhow::Result<()> {
            match v {
                Some(v) => cfg.apply(k, &v).map_err(|e| anyhow::anyhow!("--{k}: {e}")),
                None => Ok(()),
            }
        };
        set("game", self.game.clone())?;
        set("format", self.format.clone())?;
        set("rounds", self.rounds.map(|n| n.to_string()))?;
        set("openings", self.openings.as_ref().map(|p| p.display().to_string()))?;
        set("order", self.order.clone())?;
        set("seed", self.seed.map(|n| n.to_string()))?;
        set("concurrency", self.concurrency.map(|n| n.to_string()))?;
        set("records", self.records.as_ref().map(|p| p.display().to_string()))?;
        set("live", self.live.clone())?;
        set("shard", self.shard.clone())?;
        set("record-dir", self.record_dir.as_ref().map(|p| p.display().to_string()))?;
        set("pgn", self.pgn.as_ref().map(|p| p.display().to_string()))?;
        set("max-plies", self.max_plies.map(|n| n.to_string()))?;
        set("disconnect-limit", self.disconnect_limit.map(|n| n.to_string()))?;
        for o in &self.option {
            set("option", Some(o.clone()))?;
        }
        if self.resume {
            cfg.resume = true;
        }
        if self.quiet {
            cfg.quiet = true;
        }
        if !self.sprt.is_empty() {
            cfg.sprt = Some(
                Sprt::parse(self.sprt.iter().map(String::as_str))
                    .map_err(|e| anyhow::anyhow!("--sprt: {e}"))?,
            );
        }
        for spec in &self.engine {
            let tokens = split_words(spec).map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
            cfg.engines.push(
                EngineSpec::from_tokens(&tokens).map_err(|e| anyhow::anyhow!("--engine: {e}"))?,
            );
        }
        Ok(cfg)
    }
}

/// The limits per move of a game, shared by `ugine match` and `ugine spsa`.
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Clock per player and increment: `10+0.1` (seconds), `500ms+10ms`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move: `100ms`, `1s`.
    #[arg(long)]
    pub movetime: Option<String>,
    /// Fixed depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Grace over clock or move time before a loss on time (default 100ms).
    #[arg(long)]
    pub margin: Option<String>,
    /// Deadline for a move without time limits (default 60s).
    #[arg(long)]
    pub stall: Option<String>,
}

impl LimitArgs {
    /// Sets the given limits in `cfg` (an error names the flag).
    pub fn apply(&self, cfg: &mut MatchConfig) -> anyhow::Result<()> {
        let limits = [
            ("tc", self.tc.clone()),
            ("movetime", self.movetime.clone()),
            ("depth", self.depth.map(|n| n.to_string())),
            ("nodes", self.nodes.map(|n| n.to_string())),
            ("margin", self.margin.clone()),
            ("stall", self.stall.clone()),
        ];
        for (k, v) in limits {
            if let Some(v) = v {
                cfg.apply(k, &v).map_err(|e| anyhow::anyhow!("--{k}: {e}"))?;
            }
        }
        Ok(())
    }
}

/// Runs `ugine match`: progress on stderr, the summary on stdout. With an SPRT, the last
/// summary line is `SPRT: H1 accepted (pass)`, `SPRT: H0 accepted (fail)` or
/// `SPRT: no decision`.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let cfg = args.to_config()?;
    if cfg.openings.is_none() && cfg.rounds > 1 {
        // As fastchess warns: engines limited by nodes or depth then replay one pair of
        // games round after round, and the result measures nothing but that pair.
        note(
            "warning: no --openings: every round starts from the start position, so engines \
             limited by nodes or depth repeat the same games; give an opening file \
             (`ugine genfens`)",
        );
    }
    let m = Match::new(cfg)?;
    let outcome = m.run()?;
    emit(&m.summary(&outcome))
}
