//! Finished games from a file of either kind ugine writes: a record file (`--records`)
//! or PGN (`--pgn`), told apart by content (PGN starts with a `[` tag).

use std::path::Path;

use anyhow::{Context, bail};

use crate::runner::records::header::{MatchInfo, read_header};
use crate::runner::records::pgn::parse_pgn;
use crate::runner::records::record::{GameRecord, read_records};

/// The games of one file and the match it belongs to.
pub struct GamesFile {
    /// The match header (`None` for a record file written before headers existed).
    pub info: Option<MatchInfo>,
    pub records: Vec<GameRecord>,
    /// Unreadable games, each with its place in the file.
    pub problems: Vec<String>,
}

/// Reads a record file or a PGN file.
pub fn read_games(path: &Path) -> anyhow::Result<GamesFile> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !text.trim_start().starts_with('[') {
        let (records, problems) = read_records(path)?;
        return Ok(GamesFile { info: read_header(path)?, records, problems });
    }
    let games = parse_pgn(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{}: bad PGN", path.display()))?;
    let mut info: Option<MatchInfo> = None;
    let mut records = Vec::new();
    let mut problems = Vec::new();
    for (i, g) in games.iter().enumerate() {
        if let Some(h) = g.tag("UgineMatch") {
            let h = MatchInfo::decode(h).map_err(anyhow::Error::msg).with_context(|| {
                format!("{}: game {}: bad UgineMatch tag", path.display(), i + 1)
            })?;
            match &info {
                None => info = Some(h),
                Some(first) if *first != h => bail!(
                    "{}: game {} belongs to another match than the first game ({})",
                    path.display(),
                    i + 1,
                    first.first_difference(&h)
                ),
                Some(_) => {}
            }
        }
        match g.to_record() {
            Ok(r) => records.push(r),
            Err(e) => problems.push(format!("game {}: {e}", i + 1)),
        }
    }
    Ok(GamesFile { info, records, problems })
}

/// The players and outcome of every finished game of a record file or of any PGN file
/// (only `White`, `Black` and `Result` are needed, as for Ordo): `(p1, p2, outcome)`.
/// Unfinished PGN games (`*`) are skipped.
pub fn read_results(path: &Path) -> anyhow::Result<Vec<(String, String, crate::core::Outcome)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !text.trim_start().starts_with('[') {
        let (records, problems) = read_records(path)?;
        if let Some(p) = problems.first() {
            bail!("{}: {p}", path.display());
        }
        return Ok(records
            .into_iter()
            .map(|r| {
                let [a, b] = r.engines;
                (a, b, r.result)
            })
            .collect());
    }
    let games = parse_pgn(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{}: bad PGN", path.display()))?;
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let (Some(w), Some(b)) = (g.tag("White"), g.tag("Black")) else {
            bail!("{}: game {} has no White or Black tag", path.display(), i + 1);
        };
        let result = g.tag("Result").unwrap_or(&g.result);
        let outcome = match result {
            "1-0" => crate::core::Outcome::Win(crate::core::Side::P1),
            "0-1" => crate::core::Outcome::Win(crate::core::Side::P2),
            "1/2-1/2" => crate::core::Outcome::Draw,
            _ => continue,
        };
        out.push((w.to_string(), b.to_string(), outcome));
    }
    Ok(out)
}
