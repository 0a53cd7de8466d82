//! The `match`, `genfens` and `replay` subcommands: their arguments and what they run.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use crate::core::words::split_words;
use crate::runner::players::spec::EngineSpec;
use crate::runner::tournament::config::MatchConfig;

use crate::core::{Outcome, Rng, Side};
use crate::engine::Session;
use crate::runner::note;
use crate::runner::records::input::{GamesFile, read_games, read_results};
use crate::runner::records::opening::{
    Opening, default_plies, generate_openings, generate_openings_where,
};
use crate::runner::records::replay::validate;
use crate::runner::referee::Referee;
use crate::runner::stats::ratings::{fit, format_ratings};
use crate::runner::stats::sprt::{Sprt, SprtVerdict};
use crate::runner::tournament::Match;
use crate::runner::tournament::merge::merge;
use crate::runner::tournament::standings::{Standings, format_summary};
use crate::search::Score;
use crate::tune::datagen::search;

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
        set("shard", self.shard.clone())?;
        set("record-dir", self.record_dir.as_ref().map(|p| p.display().to_string()))?;
        set("pgn", self.pgn.as_ref().map(|p| p.display().to_string()))?;
        set("max-plies", self.max_plies.map(|n| n.to_string()))?;
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
pub fn run_match(args: &MatchArgs) -> anyhow::Result<()> {
    let m = Match::new(args.to_config()?)?;
    let outcome = m.run()?;
    emit(&m.summary(&outcome))
}

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
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
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
pub fn run_genfens(args: &GenfensArgs) -> anyhow::Result<()> {
    let mut options = Vec::new();
    for o in &args.option {
        let (k, v) =
            o.split_once('=').with_context(|| format!("--option '{o}': expected NAME=VALUE"))?;
        options.push((k.trim().to_string(), v.trim().to_string()));
    }
    let referee = Referee::new(&args.game, &options)?;
    let mut session = referee.session()?;
    if let Some(men) = args.men {
        anyhow::ensure!(
            session.random_endgame_fen(men, &mut Rng::new(args.seed)).is_some(),
            "{} has no random endgame positions with {men} men per side",
            args.game
        );
    }
    let plies = args.plies.unwrap_or_else(|| default_plies(session.as_ref(), 4));
    let openings = match args.balanced {
        None if args.balanced_by_play => play_balanced_openings(session.as_mut(), args, plies)?,
        None => generate_openings(session.as_mut(), args.n, plies, args.men, args.seed),
        Some(cp) => balanced_openings(session.as_mut(), args, plies, cp)?,
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
            args.option.iter().map(|o| format!(" --option '{o}'")).collect::<String>()
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

/// The openings of `ugine genfens --balanced CP`: candidates as without it, each searched
/// afresh (a new game, so a score does not depend on the candidates before it) to
/// `--balance-nodes`; kept when the score is a `cp` score within ±`cp`.
fn balanced_openings(
    session: &mut dyn Session,
    args: &GenfensArgs,
    plies: usize,
    cp: i32,
) -> anyhow::Result<Vec<Opening>> {
    anyhow::ensure!(cp >= 0, "--balanced must be at least 0");
    let judged = format!("within ±{cp} at {} nodes", args.balance_nodes);
    openings_judged(session, args, plies, &judged, |s: &mut dyn Session| {
        Ok(matches!(search(s, args.balance_nodes)?, (_, Some(Score::Cp(v))) if v.abs() <= cp))
    })
}

/// The openings of `ugine genfens --balanced-by-play`: candidates as without it, each
/// played twice from scratch by ugine at `--balance-nodes` against ugine at twice that
/// (seats swapped); kept unless the side to move won both games or lost both.
fn play_balanced_openings(
    session: &mut dyn Session,
    args: &GenfensArgs,
    plies: usize,
) -> anyhow::Result<Vec<Opening>> {
    let n = args.balance_nodes;
    let judged = format!("not decided by the seat at {n} and {} nodes", 2 * n);
    openings_judged(session, args, plies, &judged, |s: &mut dyn Session| {
        let mover = s.side_to_move();
        let mut mover_points = 0.0;
        for mover_nodes in [n, 2 * n] {
            mover_points += match self_play(s, mover, [mover_nodes, 3 * n - mover_nodes])? {
                Outcome::Win(side) if side == mover => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            };
        }
        Ok(mover_points > 0.0 && mover_points < 2.0)
    })
}

/// Plays the current position of `session` to the end: `mover` searches `nodes[0]`
/// nodes per move, the other side `nodes[1]`, every search with cleared tables (so
/// neither side reuses the other's). The position is back where it was afterwards.
fn self_play(session: &mut dyn Session, mover: Side, nodes: [u64; 2]) -> anyhow::Result<Outcome> {
    let start = session.fen();
    let mut moves: Vec<String> = Vec::new();
    let outcome = loop {
        if let Some(o) = session.outcome() {
            break o;
        }
        let limit = if session.side_to_move() == mover { nodes[0] } else { nodes[1] };
        session.new_game();
        let line: Vec<&str> = moves.iter().map(String::as_str).collect();
        session.set_position(Some(&start), &line).map_err(anyhow::Error::msg)?;
        let (mv, _) = search(session, limit)?;
        session.play_move(&mv).map_err(anyhow::Error::msg)?;
        moves.push(mv);
    };
    session.set_position(Some(&start), &[]).map_err(anyhow::Error::msg)?;
    Ok(outcome)
}

/// The candidates of `genfens` (the same, in the same order, as without a filter) for
/// which `balanced` is true, each judged in a new game set to the candidate. Reports on
/// stderr how many candidates it took; an error when 100 candidates per opening (plus
/// 1000) were not enough or a judgement failed.
fn openings_judged(
    session: &mut dyn Session,
    args: &GenfensArgs,
    plies: usize,
    judged: &str,
    mut balanced: impl FnMut(&mut dyn Session) -> anyhow::Result<bool>,
) -> anyhow::Result<Vec<Opening>> {
    let mut candidates = 0usize;
    let mut failure = None;
    let keep = |s: &mut dyn Session, o: &Opening| {
        candidates += 1;
        s.new_game();
        if failure.is_some() || o.check(s).is_err() {
            return false;
        }
        balanced(s).unwrap_or_else(|e| {
            failure = Some(e);
            false
        })
    };
    let max = 100 * args.n + 1000;
    let openings = generate_openings_where(session, args.n, plies, args.men, args.seed, max, keep);
    if let Some(e) = failure {
        return Err(e.context("a balance judgement failed"));
    }
    note(&format!("genfens: kept {} of {candidates} candidates {judged}", openings.len()));
    anyhow::ensure!(
        openings.len() == args.n,
        "only {} of {} openings {judged} after {candidates} candidates",
        openings.len(),
        args.n
    );
    Ok(openings)
}

/// `ugine replay`: validate a game-record file and summarize it.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file, or a PGN file written by `ugine match --pgn`.
    pub file: PathBuf,
}

/// Runs `ugine replay`: one line per invalid game, then the summary. Fails when any
/// record is unreadable or invalid.
pub fn run_replay(args: &ReplayArgs) -> anyhow::Result<()> {
    let GamesFile { records, problems, .. } = read_games(&args.file)?;
    let mut bad = problems.len();
    let mut out = String::new();
    for p in &problems {
        out.push_str(&format!("unreadable: {p}\n"));
    }
    for r in &records {
        if let Err(e) = validate(r) {
            bad += 1;
            out.push_str(&format!("invalid game {}: {e}\n", r.id));
        }
    }
    let standings = Standings::from_records(&records);
    out.push_str(&format!(
        "{} games replayed, {} valid\n",
        records.len() + problems.len(),
        records.len() + problems.len() - bad
    ));
    out.push_str(&format_summary(&standings, None, SprtVerdict::Continue));
    emit(&out)?;
    if bad > 0 {
        bail!("{bad} invalid or unreadable records");
    }
    Ok(())
}

/// `ugine merge`: the statistics of a match played in pieces.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The pieces' record files (or PGN files written by `ugine match --pgn`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs `ugine merge`: checks that the files are pieces of one match and prints the
/// summary `ugine match` prints for the whole match (stdout); which shards were found
/// goes to stderr.
pub fn run_merge(args: &MergeArgs) -> anyhow::Result<()> {
    let (merged, warnings) = merge(&args.files)?;
    for w in warnings {
        note(&format!("warning: {w}"));
    }
    let count = merged.info.shard.count;
    let missing: Vec<String> =
        (1..=count).filter(|k| !merged.shards.contains(k)).map(|k| k.to_string()).collect();
    note(&format!(
        "merged {} files: {} games from {} of {count} shards{}",
        args.files.len(),
        merged.standings.games(),
        merged.shards.len(),
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        }
    ));
    emit(&merged.summary())
}

/// `ugine ratings`: a rating list of every engine in some games.
#[derive(Args, Debug)]
pub struct RatingsArgs {
    /// Record files or PGN files (any PGN with White, Black and Result tags).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The engine whose rating is fixed (default: the first engine in the games).
    #[arg(long)]
    pub anchor: Option<String>,
    /// The anchor's rating.
    #[arg(long, default_value_t = 0.0)]
    pub anchor_elo: f64,
    /// Virtual draws between every two engines that met (keeps the ratings of engines
    /// that won or lost every game finite).
    #[arg(long, default_value_t = 0.0)]
    pub prior: f64,
}

/// Runs `ugine ratings`.
pub fn run_ratings(args: &RatingsArgs) -> anyhow::Result<()> {
    let mut games = Vec::new();
    for f in &args.files {
        games.extend(read_results(f)?);
    }
    let r = fit(&games, args.anchor.as_deref(), args.anchor_elo, args.prior)
        .map_err(anyhow::Error::msg)?;
    let anchor = args.anchor.clone().unwrap_or_else(|| games[0].0.clone());
    let mut note = format!("{anchor} anchored at {}", args.anchor_elo);
    if args.prior > 0.0 {
        note.push_str(&format!("; prior {} draws per pair", args.prior));
    }
    emit(&format!("{} games\n{}", games.len(), format_ratings(&r, &note)))
}

/// Writes `text` to stdout; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write to stdout")
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mabula() -> Box<dyn Session> {
        Referee::new("mabula", &[]).unwrap().session().unwrap()
    }

    #[test]
    fn random_setups_get_random_plies_only_when_asked() {
        let mut session = mabula();
        assert_eq!(default_plies(session.as_ref(), 4), 0);
        let morris = Referee::new("morris", &[]).unwrap().session().unwrap();
        assert_eq!(default_plies(morris.as_ref(), 4), 4);
        for o in generate_openings(session.as_mut(), 5, 3, None, 9) {
            assert!(o.fen.is_some(), "{o}");
            assert_eq!(o.moves.len(), 3, "{o}");
            o.check(session.as_mut()).unwrap();
        }
    }

    #[test]
    fn balanced_by_play_drops_the_candidates_that_one_side_wins_from_both_seats() {
        let nodes = 200;
        let mut session = mabula();
        let args = GenfensArgs {
            game: "mabula".into(),
            n: 4,
            seed: 5,
            plies: None,
            men: None,
            option: Vec::new(),
            balanced: None,
            balanced_by_play: true,
            balance_nodes: nodes,
            output: None,
            format: "ugine".into(),
        };
        let kept = play_balanced_openings(session.as_mut(), &args, 0).unwrap();
        let mut expected = Vec::new();
        let mut judged = 0;
        for c in generate_openings(session.as_mut(), 100, 0, None, 5) {
            if expected.len() == 4 {
                break;
            }
            judged += 1;
            session.new_game();
            c.check(session.as_mut()).unwrap();
            let fen = session.fen();
            let mover = session.side_to_move();
            let weaker = self_play(session.as_mut(), mover, [nodes, 2 * nodes]).unwrap();
            let stronger = self_play(session.as_mut(), mover, [2 * nodes, nodes]).unwrap();
            assert_eq!(session.fen(), fen, "self-play puts the position back");
            let one_side_won_both = matches!(weaker, Outcome::Win(_)) && weaker == stronger;
            if !one_side_won_both {
                expected.push(c);
            }
        }
        assert_eq!(kept, expected);
        assert!(judged > 4, "no candidate was dropped: the judge decides nothing");
    }
}
