//! `ugine spsa`: tunes an engine's spin options by SPSA ([`crate::tune::spsa`]) with the
//! runner's games: the same engine processes ([`ProcessPlayer`]), referee ([`play_game`]),
//! openings and limits as `ugine match` (docs/tuning.md).
//!
//! With `concurrency` C, iterations run C at a time from the θ at the start of their
//! batch, and their updates are applied in iteration order, so at fixed nodes or depth
//! the run depends only on the settings, the seed and C.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::r#match::LimitArgs;
use crate::core::words::split_words;
use crate::core::{Outcome, Rng, Side};
use crate::runner::note;
use crate::runner::players::Player;
use crate::runner::players::process::{Deadlines, ProcessPlayer};
use crate::runner::players::spec::EngineSpec;
use crate::runner::records::opening::{Opening, generate_openings, load_openings};
use crate::runner::records::record::Termination;
use crate::runner::referee::Referee;
use crate::runner::schedule::GameId;
use crate::runner::tournament::config::MatchConfig;
use crate::runner::tournament::game::{GameSetup, TimeControl, play_game};
use crate::tune::spsa::{Perturbation, Spsa, SpsaParam};

/// `ugine spsa`: SPSA tuning of an engine's spin options (docs/tuning.md).
#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
    /// The engine, as for `ugine match`: "cmd=PROGRAM [arg=…]… [option.NAME=VALUE]…".
    #[arg(long, value_name = "SPEC")]
    pub engine: String,
    /// A tuned spin option: "Name=start,min,max,c_end,r_end"; repeatable.
    #[arg(long = "param", value_name = "NAME=START,MIN,MAX,C_END,R_END", required = true)]
    pub param: Vec<String>,
    /// Number of iterations (perturbations).
    #[arg(long)]
    pub iterations: usize,
    /// Games per iteration (even: pairs with seats swapped).
    #[arg(long, default_value_t = 2)]
    pub games_per_iteration: usize,
    /// Iterations played at once (each game needs about one core).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// An option "Name=value" sent to both engines; rule options also set the referee's
    /// rules. Repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub option: Vec<String>,
    /// Opening file (default: `ugine genfens` openings from --seed and --plies).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random plies of each generated opening (games without random setups).
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// Seed of the generated openings and of the perturbations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adjudicate a draw after this many engine moves.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Exponent α of the step gain a_k.
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    /// Exponent γ of the perturbation c_k.
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// The stability constant A as a fraction of the iterations.
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
}

/// `(name, value)` options of parameter values, rounded to integers.
fn as_options(params: &[SpsaParam], values: &[f64]) -> Vec<(String, String)> {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| (p.name.clone(), (v.round() as i64).to_string()))
        .collect()
}

/// The games of one iteration, from θ⁺'s side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Score {
    wins: u32,
    losses: u32,
    draws: u32,
    /// Games that did not end normally (time losses, crashes, …), described.
    abnormal: Vec<String>,
}

/// Everything the iterations share.
struct Run {
    game: String,
    engine: EngineSpec,
    /// `Game` first, then the options of `--option`.
    options: Vec<(String, String)>,
    referee: Referee,
    openings: Vec<Opening>,
    tc: TimeControl,
    deadlines: Deadlines,
    pairs: usize,
    max_plies: Option<usize>,
}

impl Run {
    /// Plays iteration `p`: its pairs of games between θ⁺ and θ⁻.
    fn play(&self, params: &[SpsaParam], p: &Perturbation) -> anyhow::Result<Score> {
        let mut referee = self.referee.session()?;
        let player = |name: &str, values: &[f64]| {
            let command = self.engine.command(&self.options, &as_options(params, values));
            ProcessPlayer::new(name, command, self.deadlines)
        };
        let mut plus = player("plus", &p.plus);
        let mut minus = player("minus", &p.minus);
        let mut score = Score::default();
        for j in 0..self.pairs {
            let round = (p.k - 1) * self.pairs + j;
            let opening = &self.openings[round % self.openings.len()];
            for seat in 0..2u8 {
                let id = GameId { pairing: 0, round, seat };
                let setup = GameSetup {
                    id,
                    game: &self.game,
                    options: &self.options,
                    opening,
                    tc: &self.tc,
                    max_plies: self.max_plies,
                };
                let (players, plus_side): ([&mut dyn Player; 2], Side) = if seat == 0 {
                    ([&mut plus, &mut minus], Side::P1)
                } else {
                    ([&mut minus, &mut plus], Side::P2)
                };
                let rec = play_game(players, referee.as_mut(), &setup);
                match rec.result {
                    Outcome::Draw => score.draws += 1,
                    Outcome::Win(s) if s == plus_side => score.wins += 1,
                    Outcome::Win(_) => score.losses += 1,
                }
                if rec.termination != Termination::Normal {
                    score.abnormal.push(format!(
                        "game {id}: {} {}",
                        rec.termination.as_str(),
                        rec.detail
                    ));
                }
            }
        }
        Ok(score)
    }
}

/// Checks that the engine announces every parameter as a `spin` option whose range holds
/// the parameter's.
fn check_options(announced: &[String], params: &[SpsaParam]) -> anyhow::Result<()> {
    for p in params {
        let Some(text) = announced.iter().find(|t| {
            t.strip_prefix("name ")
                .and_then(|r| r.split_once(" type "))
                .is_some_and(|(n, _)| n.trim().eq_ignore_ascii_case(&p.name))
        }) else {
            bail!("the engine has no option '{}'", p.name);
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let after = |key: &str| {
            words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1)?.parse::<f64>().ok())
        };
        let spin = words.windows(2).any(|w| w == ["type", "spin"]);
        match (spin, after("min"), after("max")) {
            (true, Some(min), Some(max)) if min <= p.min && p.max <= max => {}
            (true, Some(min), Some(max)) => bail!(
                "--param '{}': the range {}..{} exceeds the engine's {min}..{max}",
                p.name,
                p.min,
                p.max
            ),
            _ => bail!("option '{}' is not a spin option: 'option {text}'", p.name),
        }
    }
    Ok(())
}

/// The settings of the run, checked: engine, referee, openings, limits.
fn prepare(args: &SpsaArgs) -> anyhow::Result<(Run, Vec<SpsaParam>)> {
    if args.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    if args.games_per_iteration == 0 || args.games_per_iteration % 2 == 1 {
        bail!("--games-per-iteration must be even (pairs of games with seats swapped)");
    }
    let mut cfg = MatchConfig::default();
    args.limits.apply(&mut cfg)?;
    for o in &args.option {
        cfg.apply("option", o).map_err(|e| anyhow::anyhow!("--option: {e}"))?;
    }
    let tc = cfg.tc;
    if tc.clock.is_none() && tc.movetime.is_none() && tc.depth.is_none() && tc.nodes.is_none() {
        bail!("give a limit per move: --tc, --movetime, --depth or --nodes");
    }
    let tokens = split_words(&args.engine).map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
    let mut tokens = tokens;
    if !tokens.iter().any(|t| t.starts_with("name=")) {
        tokens.push("name=engine".to_string());
    }
    let engine = EngineSpec::from_tokens(&tokens).map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
    if engine.is_random() || engine.is_uct() {
        bail!("--engine: the built-in baselines have no options to tune: give a program (cmd=…)");
    }
    let mut options = vec![("Game".to_string(), args.game.clone())];
    options.extend(cfg.options);
    let referee = Referee::new(&args.game, &options)?;
    if let Some((k, _)) = engine.options.iter().find(|(k, _)| referee.is_rule_option(k)) {
        bail!(
            "--engine sets rule option '{k}': give rule options with --option so the referee uses them too"
        );
    }
    let params: Vec<SpsaParam> = args
        .param
        .iter()
        .map(|s| SpsaParam::parse(s))
        .collect::<Result<_, _>>()
        .map_err(anyhow::Error::msg)?;
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            bail!("--param '{}' is given twice", p.name);
        }
    }
    let pairs = args.games_per_iteration / 2;
    let mut check = referee.session()?;
    let openings = match &args.openings {
        Some(path) => {
            let openings = load_openings(path)?;
            for (i, o) in openings.iter().enumerate() {
                o.check(check.as_mut())
                    .map_err(anyhow::Error::msg)
                    .with_context(|| format!("opening {} ('{o}') is not valid", i + 1))?;
            }
            openings
        }
        None => {
            generate_openings(check.as_mut(), args.iterations * pairs, args.plies, None, args.seed)
        }
    };
    let run = Run {
        game: args.game.clone(),
        engine,
        options,
        referee,
        openings,
        tc,
        deadlines: cfg.deadlines,
        pairs,
        max_plies: args.max_plies,
    };
    // Start the engine once: a misspelt option would otherwise tune nothing, silently.
    let mut probe =
        ProcessPlayer::new("probe", run.engine.command(&run.options, &[]), run.deadlines);
    probe
        .new_game(GameId { pairing: 0, round: 0, seat: 0 })
        .map_err(|e| anyhow::anyhow!("cannot start the engine: {e}"))?;
    check_options(probe.announced_options(), &params)?;
    Ok((run, params))
}

/// θ with two decimals, in the order of the parameters (progress lines).
fn theta_line(spsa: &Spsa) -> String {
    let values: Vec<String> = spsa.params.iter().map(|p| format!("{:.2}", p.theta)).collect();
    values.join(" ")
}

/// Runs `ugine spsa`: progress on stderr, the final values as `setoption` lines on stdout.
pub fn run(args: &SpsaArgs) -> anyhow::Result<()> {
    let (run, params) = prepare(args)?;
    let mut spsa = Spsa::new(params, args.iterations, args.a_ratio, args.alpha, args.gamma);
    let mut rng = Rng::new(args.seed ^ 0x5350_5341);
    let names: Vec<&str> = spsa.params.iter().map(|p| p.name.as_str()).collect();
    note(&format!(
        "spsa: {} iterations of {} games, {} at once; θ = ({})",
        args.iterations,
        args.games_per_iteration,
        args.concurrency.max(1),
        names.join(", ")
    ));
    note(&format!("[0/{}] θ {}", args.iterations, theta_line(&spsa)));
    let (mut total, mut abnormal) = (Score::default(), 0usize);
    let mut k = 1;
    while k <= args.iterations {
        let batch: Vec<Perturbation> = (k..=args.iterations.min(k + args.concurrency.max(1) - 1))
            .map(|k| spsa.perturb(k, &mut rng))
            .collect();
        let params = &spsa.params;
        let scores: Vec<anyhow::Result<Score>> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                batch.iter().map(|p| scope.spawn(|| run.play(params, p))).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("an iteration panicked"))))
                .collect()
        });
        for (p, score) in batch.iter().zip(scores) {
            let score = score?;
            let r = f64::from(score.wins) - f64::from(score.losses);
            spsa.update(p, r);
            for a in &score.abnormal {
                note(&format!("  {a}"));
            }
            abnormal += score.abnormal.len();
            total.wins += score.wins;
            total.losses += score.losses;
            total.draws += score.draws;
            note(&format!(
                "[{}/{}] θ+ W-L-D {}-{}-{}  θ {}",
                p.k,
                args.iterations,
                score.wins,
                score.losses,
                score.draws,
                theta_line(&spsa)
            ));
        }
        k += batch.len();
    }
    note(&format!(
        "spsa done: θ+ W-L-D {}-{}-{} over all iterations, {abnormal} games not ended normally; θ = {}",
        total.wins,
        total.losses,
        total.draws,
        spsa.params
            .iter()
            .map(|p| format!("{}={:.3}", p.name, p.theta))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut out = String::new();
    for (name, v) in spsa.rounded() {
        out.push_str(&format!("setoption name {name} value {v}\n"));
    }
    use std::io::Write;
    std::io::stdout().lock().write_all(out.as_bytes()).context("cannot write to stdout")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announced_options_are_checked() {
        let announced = vec![
            "name Hash type spin default 16 min 1 max 16384".to_string(),
            "name Morris Search Aspiration type spin default 50 min 0 max 10000".to_string(),
            "name Morris Search LMR In PV type check default false".to_string(),
        ];
        let p = |s: &str| vec![SpsaParam::parse(s).unwrap()];
        assert!(check_options(&announced, &p("morris search aspiration=50,0,200,5,0.002")).is_ok());
        let refused = [
            "Morris Search Aspiration=50,-1,200,5,0.002",
            "Morris Search LMR In PV=0,0,1,1,0.002",
            "Morris Search Nothing=1,0,2,1,0.002",
        ];
        for s in refused {
            assert!(check_options(&announced, &p(s)).is_err(), "{s}");
        }
    }
}
