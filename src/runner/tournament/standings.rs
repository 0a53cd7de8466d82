//! Standings of a match (per pairing and per engine) and their text: the progress line
//! and the final summary.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::core::{Outcome, Side, reason_kind};
use crate::runner::records::record::{GameRecord, Termination};
use crate::runner::stats::elo::{MIN_PAIRS, Penta, Wdl};
use crate::runner::stats::sprt::{Sprt, SprtVerdict};

/// Results of one pairing, from the point of view of its first engine.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    pub penta: Penta,
    /// Pairs with one game finished: round → first engine's half points.
    half_pairs: HashMap<usize, u8>,
}

/// Results of a whole match.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    pairings: Vec<PairingStats>,
    /// Per engine: name, half points, games.
    engines: Vec<(String, u64, u64)>,
    terminations: HashMap<Termination, u64>,
    /// Games ended by the rules, by the kind of their reason ("3-fold repetition",
    /// "no push left"; see [`reason_kind`]), with the results of each kind.
    reasons: BTreeMap<String, ReasonCount>,
    games: u64,
}

/// How many games one kind of ending decided: p1 wins, p2 wins, draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReasonCount {
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub draws: u64,
}

impl Standings {
    /// Empty standings for `names` playing `pairings` (engine indices).
    pub fn new(names: &[String], pairings: &[(usize, usize)]) -> Standings {
        Standings {
            pairings: pairings
                .iter()
                .map(|&(a, b)| PairingStats {
                    first: names[a].clone(),
                    second: names[b].clone(),
                    ..PairingStats::default()
                })
                .collect(),
            engines: names.iter().map(|n| (n.clone(), 0, 0)).collect(),
            ..Standings::default()
        }
    }

    /// The verdict of `sprt` on these standings (an SPRT is a head-to-head test: its one
    /// pairing); `Continue` without one.
    pub fn sprt_verdict(&self, sprt: Option<&Sprt>) -> SprtVerdict {
        sprt.map_or(SprtVerdict::Continue, |s| s.decide(&self.pairing(0).penta))
    }

    /// Standings built from records alone (for `ugine replay`): pairings are found by
    /// their index in the records, engines by name.
    pub fn from_records(records: &[GameRecord]) -> Standings {
        let mut names: Vec<String> = Vec::new();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for r in records {
            let (a, b) = if r.id.seat == 0 { (0, 1) } else { (1, 0) };
            let mut index = |n: &String| match names.iter().position(|x| x == n) {
                Some(i) => i,
                None => {
                    names.push(n.clone());
                    names.len() - 1
                }
            };
            let (ia, ib) = (index(&r.engines[a]), index(&r.engines[b]));
            if pairs.len() <= r.id.pairing {
                pairs.resize(r.id.pairing + 1, (usize::MAX, usize::MAX));
            }
            if pairs[r.id.pairing].0 == usize::MAX {
                pairs[r.id.pairing] = (ia, ib);
            }
        }
        // Pairing indices never seen get a placeholder pair that no record updates.
        let pairs: Vec<(usize, usize)> =
            pairs.into_iter().map(|p| if p.0 == usize::MAX { (0, 0) } else { p }).collect();
        let mut s = Standings::new(&names, &pairs);
        for r in records {
            s.add(r);
        }
        s
    }

    /// Counts one finished game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        *self.terminations.entry(r.termination).or_default() += 1;
        let kind = reason_kind(&r.detail);
        if r.termination.by_rules() && !kind.is_empty() {
            let c = self.reasons.entry(kind.to_string()).or_default();
            match r.result {
                Outcome::Win(Side::P1) => c.p1_wins += 1,
                Outcome::Win(Side::P2) => c.p2_wins += 1,
                Outcome::Draw => c.draws += 1,
            }
        }
        let pts = r.first_engine_points();
        if let Some(p) = self.pairings.get_mut(r.id.pairing) {
            match pts {
                2 => p.wdl.wins += 1,
                1 => p.wdl.draws += 1,
                _ => p.wdl.losses += 1,
            }
            match p.half_pairs.remove(&r.id.round) {
                Some(other) => p.penta.add_pair(other, pts),
                None => {
                    p.half_pairs.insert(r.id.round, pts);
                }
            }
        }
        for (side, name) in r.engines.iter().enumerate() {
            let half = match r.result {
                Outcome::Draw => 1,
                Outcome::Win(s) if s.index() == side => 2,
                Outcome::Win(_) => 0,
            };
            if let Some(e) = self.engines.iter_mut().find(|e| &e.0 == name) {
                e.1 += half;
                e.2 += 1;
            }
        }
    }

    /// The statistics of pairing `i`.
    pub fn pairing(&self, i: usize) -> &PairingStats {
        &self.pairings[i]
    }

    /// Number of games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games ended by the rules, by the kind of their reason, in alphabetical order.
    pub fn reasons(&self) -> impl Iterator<Item = (&str, ReasonCount)> {
        self.reasons.iter().map(|(k, c)| (k.as_str(), *c))
    }

    /// How many games ended with `t`.
    pub fn terminations(&self, t: Termination) -> u64 {
        self.terminations.get(&t).copied().unwrap_or(0)
    }
}

/// `Elo +12.3 ± 4.5`, or `Elo n/a` while the pairs cannot support an interval
/// ([`Penta::sound`]): too few, or all scored alike.
fn fmt_elo(p: &PairingStats) -> String {
    match p.penta.elo().filter(|_| p.penta.sound()) {
        Some(e) => format!("Elo {:+.1} ± {:.1}", e.elo, e.error),
        None => "Elo n/a".to_string(),
    }
}

/// One line per finished game: `[done/total] first vs second: W-L-D … Elo … (LLR …)`,
/// for the pairing of the game just finished.
pub fn progress_line(
    s: &Standings,
    last: &GameRecord,
    total: usize,
    sprt: Option<&Sprt>,
) -> String {
    let p = &s.pairings[last.id.pairing];
    let mut line = format!(
        "[{}/{total}] {} vs {}: W-L-D {}-{}-{}  {}",
        s.games,
        p.first,
        p.second,
        p.wdl.wins,
        p.wdl.losses,
        p.wdl.draws,
        fmt_elo(p)
    );
    if let Some(sp) = sprt {
        let (lo, hi) = sp.bounds();
        let _ = write!(line, "  LLR {:.2} ({lo:.2}, {hi:.2})", sp.llr(&p.penta));
    }
    if last.termination != Termination::Normal {
        let _ = write!(line, "  [game {}: {} {}]", last.id, last.termination, last.detail);
    }
    line
}

/// The lines a shard adds to its summary: the SPRT on the games of every shard.
pub fn merged_sprt_lines(all: &Standings, sprt: &Sprt, verdict: SprtVerdict) -> String {
    let (lo, hi) = sprt.bounds();
    let p = &all.pairings[0];
    format!(
        "all shards: games {}  W-L-D {}-{}-{}  LLR {:.2} ({lo:.2}, {hi:.2})\nSPRT (all shards): {}\n",
        p.wdl.games(),
        p.wdl.wins,
        p.wdl.losses,
        p.wdl.draws,
        sprt.llr(&p.penta),
        verdict.words()
    )
}

/// The end-of-match summary: per pairing W/L/D, pentanomial counts, Elo ± 95%, nElo,
/// LOS (and the SPRT); per engine points; terminations.
pub fn format_summary(s: &Standings, sprt: Option<&Sprt>, verdict: SprtVerdict) -> String {
    let mut out = String::new();
    for p in &s.pairings {
        if p.wdl.games() == 0 {
            continue;
        }
        let _ = writeln!(out, "{} vs {}", p.first, p.second);
        let _ = writeln!(
            out,
            "  games {}  W-L-D {}-{}-{}  score {:.1}%",
            p.wdl.games(),
            p.wdl.wins,
            p.wdl.losses,
            p.wdl.draws,
            100.0 * p.wdl.score().unwrap_or(0.0)
        );
        let c = p.penta.counts;
        let _ = writeln!(
            out,
            "  pairs {}  pentanomial [LL, LD, DD+WL, WD, WW] = [{}, {}, {}, {}, {}]",
            p.penta.pairs(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        let _ = write!(out, "  {}", fmt_elo(p));
        if p.penta.sound() {
            if let Some((n, e)) = p.penta.nelo() {
                let _ = write!(out, "  nElo {n:+.1} ± {e:.1}");
            }
            if let Some(l) = p.penta.los() {
                let _ = write!(out, "  LOS {:.1}%", 100.0 * l);
            }
        } else {
            let _ = write!(
                out,
                " (an interval needs {MIN_PAIRS} pairs not all scored alike; {} so far)",
                p.penta.pairs()
            );
        }
        out.push('\n');
        if let Some(sp) = sprt {
            let (lo, hi) = sp.bounds();
            let llr = sp.llr(&p.penta);
            let _ = writeln!(
                out,
                "  SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lo:.2}, {hi:.2})",
                sp.elo0, sp.elo1, sp.alpha, sp.beta
            );
            let _ = writeln!(out, "SPRT: {}", verdict.words());
        }
    }
    if s.pairings.len() > 1 {
        let mut rows: Vec<_> = s.engines.iter().filter(|e| e.2 > 0).collect();
        rows.sort_by(|a, b| (b.1 * a.2).cmp(&(a.1 * b.2)));
        let _ = writeln!(out, "standings");
        for (name, half, games) in rows {
            let _ = writeln!(
                out,
                "  {name:<20} {:>6.1} / {games:<5} {:.1}%",
                *half as f64 / 2.0,
                50.0 * *half as f64 / *games as f64
            );
        }
    }
    let _ = write!(out, "terminations:");
    for t in Termination::ALL {
        let n = s.terminations(t);
        if n > 0 {
            let _ = write!(out, " {t} {n}");
        }
    }
    out.push('\n');
    // One line per kind of ending by the rules: `  3-fold repetition 5 (draws 5)`.
    for (kind, c) in s.reasons() {
        let mut parts = Vec::new();
        for (n, what) in [(c.p1_wins, "p1 wins"), (c.p2_wins, "p2 wins"), (c.draws, "draws")] {
            if n > 0 {
                parts.push(format!("{what} {n}"));
            }
        }
        let total = c.p1_wins + c.p2_wins + c.draws;
        let _ = writeln!(out, "  {kind} {total} ({})", parts.join(", "));
    }
    out
}
