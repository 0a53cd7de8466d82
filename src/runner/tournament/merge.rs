//! `ugine merge`: the statistics of a match played in pieces (shards, or an interrupted
//! run and its resumption in other files), exactly as one run would print them.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::bail;

use crate::runner::records::header::{MatchInfo, check_record};
use crate::runner::records::input::read_games;
use crate::runner::schedule::GameId;
use crate::runner::stats::sprt::SprtVerdict;
use crate::runner::tournament::standings::{Standings, format_summary};

/// The games of every piece, checked to form one match.
pub struct Merged {
    /// The match (its shard field is that of the first file).
    pub info: MatchInfo,
    pub standings: Standings,
    pub verdict: SprtVerdict,
    /// Shard indices present among the files, sorted, without repeats.
    pub shards: Vec<usize>,
}

impl Merged {
    /// The summary, in the format of `ugine match`.
    pub fn summary(&self) -> String {
        format_summary(&self.standings, self.info.sprt.as_ref(), self.verdict)
    }
}

/// Reads every file (record files or PGN written by `ugine match`) and checks that they
/// belong to one match: same settings and number of shards, every game in its file's
/// shard and seats, no game twice. Warnings (a last line cut short by a crash) are
/// returned with the result.
pub fn merge(paths: &[PathBuf]) -> anyhow::Result<(Merged, Vec<String>)> {
    if paths.is_empty() {
        bail!("nothing to merge: give the record or PGN files of the match");
    }
    let mut warnings = Vec::new();
    let mut first: Option<MatchInfo> = None;
    let mut standings = None;
    let mut seen: HashMap<GameId, usize> = HashMap::new();
    let mut shards = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let file = read_games(path)?;
        let Some(info) = file.info else {
            bail!(
                "{}: no match header (a file written by an older ugine): its settings cannot be checked",
                path.display()
            );
        };
        for p in &file.problems {
            if p.ends_with("incomplete last line skipped") {
                warnings.push(format!("{}: {p}", path.display()));
            } else {
                bail!("{}: {p}", path.display());
            }
        }
        match &first {
            Some(f) if !f.same_match(&info) => bail!(
                "{} and {} belong to different matches: {}",
                paths[0].display(),
                path.display(),
                f.first_difference(&info)
            ),
            Some(_) => {}
            None => {
                standings = Some(Standings::new(&info.engines, &info.pairings()));
                first = Some(info.clone());
            }
        }
        let s = standings.as_mut().expect("set with the first file");
        for r in &file.records {
            check_record(r, &info).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            if let Some(j) = seen.insert(r.id, i) {
                bail!(
                    "game {} is recorded twice: in {} and in {}",
                    r.id,
                    paths[j].display(),
                    path.display()
                );
            }
            s.add(r);
        }
        shards.push(info.shard.index);
    }
    let info = first.expect("at least one file");
    let standings = standings.expect("at least one file");
    shards.sort_unstable();
    shards.dedup();
    let verdict = standings.sprt_verdict(info.sprt.as_ref());
    Ok((Merged { info, standings, verdict, shards }, warnings))
}
