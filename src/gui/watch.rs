//! `ugine gui --watch <records>`: a match that `ugine match` is playing or has played,
//! read from its record file (or every `*.records` file of a directory) each time the
//! page asks: the standings (W-L-D, score and Elo against the field with its 95%
//! interval) and every finished game, replayable with the rules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::records::replay_json;
use crate::core::{Outcome, Side};
use crate::runner::records::record::GameRecord;
use crate::runner::stats::elo::Wdl;

/// The record files of `path`: itself, or the `*.records` files of a directory by name.
fn files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "records"))
        .collect();
    files.sort();
    Ok(files)
}

/// Each engine's wins, draws and losses against the others.
fn standings(records: &[GameRecord]) -> Vec<Value> {
    let mut table: BTreeMap<&str, Wdl> = BTreeMap::new();
    for r in records {
        for (i, name) in r.engines.iter().enumerate() {
            let side = if i == 0 { Side::P1 } else { Side::P2 };
            let w = table.entry(name).or_default();
            match r.result {
                Outcome::Draw => w.draws += 1,
                Outcome::Win(s) if s == side => w.wins += 1,
                Outcome::Win(_) => w.losses += 1,
            }
        }
    }
    let mut rows: Vec<Value> = table
        .into_iter()
        .map(|(name, w)| {
            let elo = w.elo().filter(|e| e.elo.is_finite() && e.error.is_finite());
            json!({
                "engine": name,
                "wins": w.wins, "draws": w.draws, "losses": w.losses,
                "score": w.score(),
                "elo": elo.map(|e| e.elo.round()),
                "error": elo.map(|e| e.error.round()),
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        b["score"].as_f64().partial_cmp(&a["score"].as_f64()).unwrap_or(std::cmp::Ordering::Equal)
    });
    rows
}

/// The `watch` message: the files read, the standings, the games (as for replay) and
/// the lines that could not be read.
pub fn watch_json(path: &Path) -> Value {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    let mut records = Vec::new();
    let files = match files(path) {
        Ok(f) => f,
        Err(e) => {
            return json!({ "type": "watch", "files": [], "games": [], "standings": [], "errors": [e] });
        }
    };
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                errors.push(format!("cannot read {}: {e}", f.display()));
                continue;
            }
        };
        let replay = replay_json(&text);
        games.extend(replay["games"].as_array().cloned().unwrap_or_default());
        for e in replay["errors"].as_array().into_iter().flatten() {
            errors.push(format!("{}: {}", f.display(), e.as_str().unwrap_or_default()));
        }
        records.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .filter_map(|l| GameRecord::parse(l).ok()),
        );
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    json!({
        "type": "watch",
        "files": names,
        "games": games,
        "standings": standings(&records),
        "errors": errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_file_gives_standings_and_games() {
        let dir = std::env::temp_dir().join(format!("ugine-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = |id: &str, p1: &str, p2: &str, result: &str| {
            format!(
                "id={id}\tgame=morris\toptions=Morris Rules=seed\tp1={p1}\tp2={p2}\topening=startpos\t\
                 moves=d1 d7\ttimes=1 1\tresult={result}\ttermination=adjudication\tdetail=test\n"
            )
        };
        let text =
            [line("0.0.0", "a", "b", "p1win"), line("0.0.1", "b", "a", "draw"), "bad\n".into()]
                .concat();
        std::fs::write(dir.join("m.records"), text).unwrap();
        std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
        let w = watch_json(&dir);
        assert_eq!(w["games"].as_array().unwrap().len(), 2);
        assert_eq!(w["errors"].as_array().unwrap().len(), 1, "{w}");
        assert_eq!(w["standings"][0]["engine"], "a");
        assert_eq!(
            (w["standings"][0]["wins"].clone(), w["standings"][0]["draws"].clone()),
            (json!(1), json!(1))
        );
        assert_eq!(w["standings"][1]["losses"], 1);
        assert_eq!(w["standings"][0]["score"], 0.75);
        let _ = std::fs::remove_dir_all(dir);
    }
}
