//! `ugine gui --watch <records>`: a match that `ugine match` is playing or has played,
//! read each time the page asks. From its record file (or every `*.ugr` and `*.records`
//! file of a directory): the standings (W-L-D, score and Elo against the field with its
//! 95% interval) and every finished game, replayable with the rules. From its live file
//! (`<records>.live`, or every `*.live` file of the directory, written by `ugine match`
//! while it runs: `src/runner/records/live.rs`): the games in progress, with their
//! clocks; a live file whose match no longer runs is reported as stale, its games not
//! shown as in progress.
//!
//! A record file is replayed again only when it has changed (its length or time), so
//! that watching a long match costs the machine (and the match) little.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use serde_json::{Value, json};

use super::records::{replay_game, replay_json};
use crate::core::{Outcome, Side};
use crate::runner::records::live::{LiveGame, LiveSnapshot, live_path, unix_ms};
use crate::runner::records::opening::Opening;
use crate::runner::records::record::{Eval, GameRecord, Termination};
use crate::runner::schedule::GameId;
use crate::runner::stats::elo::Wdl;

/// The record files and live files of `path`: itself and its live file, or the record
/// files (`*.ugr`, `*.records`) and `*.live` files of a directory, by name.
fn files(path: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    if !path.is_dir() {
        return Ok((vec![path.to_path_buf()], vec![live_path(path)]));
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut records = Vec::new();
    let mut live = Vec::new();
    for p in entries.flatten().map(|e| e.path()) {
        match p.extension().and_then(|x| x.to_str()) {
            Some("ugr" | "records") => records.push(p),
            Some("live") => live.push(p),
            _ => {}
        }
    }
    records.sort();
    live.sort();
    Ok((records, live))
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
            // As the runner's summary: no Elo until the games support an interval.
            let elo = w.elo().filter(|_| w.sound());
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

/// A record file read and replayed, kept until the file changes.
#[derive(Clone)]
struct Read {
    len: u64,
    modified: Option<SystemTime>,
    games: Vec<Value>,
    errors: Vec<String>,
    records: Vec<GameRecord>,
}

static READ: Mutex<Option<HashMap<PathBuf, Read>>> = Mutex::new(None);

/// The games of record file `f`, replayed (again only when it changed).
fn read_records(f: &Path) -> Result<Read, String> {
    let meta = std::fs::metadata(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
    let (len, modified) = (meta.len(), meta.modified().ok());
    let mut cache = READ.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(r) = cache.get(f)
        && r.len == len
        && r.modified == modified
    {
        return Ok(r.clone());
    }
    let text =
        std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
    let replay = replay_json(&text);
    let read = Read {
        len,
        modified,
        games: replay["games"].as_array().cloned().unwrap_or_default(),
        errors: replay["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| format!("{}: {}", f.display(), e.as_str().unwrap_or_default()))
            .collect(),
        records: text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| GameRecord::parse(l).ok())
            .collect(),
    };
    cache.insert(f.to_path_buf(), read.clone());
    Ok(read)
}

/// A game in progress as the page shows it: as a replayed game (with no result yet),
/// plus its number, clocks, side to move and the milliseconds since its last move.
fn live_game(g: &LiveGame, now_ms: u64) -> Result<Value, String> {
    let id = GameId::parse(&g.id).ok_or_else(|| format!("game id '{}'", g.id))?;
    let rec = GameRecord {
        id,
        game: g.game.clone(),
        options: g.options.clone(),
        engines: g.players.clone(),
        opening: Opening { fen: g.fen.clone(), moves: g.opening.clone() },
        moves: g.moves.clone(),
        times_ms: g.times_ms.clone(),
        evals: g.evals.iter().map(|e| e.as_deref().and_then(Eval::parse)).collect(),
        result: Outcome::Draw,
        termination: Termination::Normal,
        detail: String::new(),
    };
    let mut v = replay_game(&rec)?;
    v["result"] = Value::Null;
    v["termination"] = Value::Null;
    v["live"] = json!(true);
    v["number"] = json!(g.number);
    v["total"] = json!(g.total);
    v["clock_ms"] = json!(g.clock_ms);
    v["to_move"] = json!(g.to_move);
    v["since_ms"] = json!(now_ms.saturating_sub(g.moved_ms));
    v["evals"] = json!(g.evals);
    Ok(v)
}

/// The `watch` message: the files read, the standings, the finished games (as for
/// replay), the games in progress, the live files that are stale and the lines that
/// could not be read.
pub fn watch_json(path: &Path) -> Value {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    let mut records = Vec::new();
    let (files, live_files) = match files(path) {
        Ok(f) => f,
        Err(e) => {
            return json!({ "type": "watch", "files": [], "games": [], "live": [], "stale": [], "standings": [], "errors": [e] });
        }
    };
    for f in &files {
        match read_records(f) {
            Ok(r) => {
                games.extend(r.games);
                errors.extend(r.errors);
                records.extend(r.records);
            }
            Err(e) => errors.push(e),
        }
    }
    let now = unix_ms();
    let mut live = Vec::new();
    let mut stale = Vec::new();
    for f in &live_files {
        // No live file: the match has ended, or has not started, or writes none.
        if !f.exists() {
            continue;
        }
        let snap = match LiveSnapshot::read(f) {
            Ok(s) => s,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        if let Some(why) = snap.stale(now) {
            stale.push(format!(
                "{}: {why}; its {} games in progress are not shown",
                f.display(),
                snap.games.len()
            ));
            continue;
        }
        for g in &snap.games {
            // A game just recorded may still be in the live file for a moment.
            if records.iter().any(|r| r.id.to_string() == g.id && r.game == g.game) {
                continue;
            }
            match live_game(g, now) {
                Ok(v) => live.push(v),
                Err(e) => errors.push(format!("{}: game {}: {e}", f.display(), g.id)),
            }
        }
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    json!({
        "type": "watch",
        "files": names,
        "games": games,
        "live": live,
        "stale": stale,
        "standings": standings(&records),
        "errors": errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::records::live::{LIVE_VERSION, host_name};

    fn line(id: &str, p1: &str, p2: &str, result: &str) -> String {
        format!(
            "id={id}\tgame=morris\toptions=Morris Rules=seed\tp1={p1}\tp2={p2}\topening=startpos\t\
             moves=d1 d7\ttimes=1 1\tresult={result}\ttermination=adjudication\tdetail=test\n"
        )
    }

    #[test]
    fn a_record_file_gives_standings_and_games() {
        let dir = std::env::temp_dir().join(format!("ugine-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
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
        assert!(w["standings"][0]["elo"].is_null(), "two games support no Elo: {w}");
        // A shard's file of a record directory counts too.
        std::fs::write(dir.join("shard-2-of-2.ugr"), line("0.1.0", "a", "b", "p1win")).unwrap();
        let w = watch_json(&dir);
        assert_eq!(w["games"].as_array().unwrap().len(), 3);
        assert_eq!(w["standings"][0]["wins"], 2);
        let _ = std::fs::remove_dir_all(dir);
    }

    fn game(id: &str, moves: &[&str]) -> LiveGame {
        LiveGame {
            id: id.to_string(),
            number: 3,
            total: 10,
            game: "morris".into(),
            options: vec![("Game".into(), "morris".into())],
            players: ["a".into(), "b".into()],
            opening: vec!["d1".into()],
            moves: moves.iter().map(|m| m.to_string()).collect(),
            times_ms: vec![5; moves.len()],
            evals: vec![None; moves.len()],
            clock_ms: Some([1000, 2000]),
            to_move: "p1".into(),
            moved_ms: unix_ms(),
            ..LiveGame::default()
        }
    }

    #[test]
    fn games_in_progress_come_from_the_live_file_unless_it_is_stale() {
        let dir = std::env::temp_dir().join(format!("ugine-watch-live-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rec = dir.join("m.ugr");
        std::fs::write(&rec, line("0.0.0", "a", "b", "p1win")).unwrap();
        let mut snap = LiveSnapshot {
            version: LIVE_VERSION,
            pid: std::process::id(),
            host: host_name(),
            updated_ms: unix_ms(),
            // 0.0.0 is recorded already: shown once, as finished.
            games: vec![game("0.1.0", &["d7", "g1"]), game("0.0.0", &["d7"])],
        };
        std::fs::write(live_path(&rec), serde_json::to_string(&snap).unwrap()).unwrap();
        for path in [rec.clone(), dir.clone()] {
            let w = watch_json(&path);
            assert_eq!(w["games"].as_array().unwrap().len(), 1, "{w}");
            let live = w["live"].as_array().unwrap();
            assert_eq!(live.len(), 1, "{w}");
            let g = &live[0];
            assert_eq!((g["id"].clone(), g["number"].clone()), (json!("0.1.0"), json!(3)));
            assert_eq!(g["result"], Value::Null);
            assert_eq!(g["moves"], json!(["d1", "d7", "g1"]));
            assert_eq!(g["opening_plies"], 1);
            assert_eq!(g["fens"].as_array().unwrap().len(), 4);
            assert_eq!(g["clock_ms"], json!([1000, 2000]));
        }
        snap.updated_ms -= 60_000;
        std::fs::write(live_path(&rec), serde_json::to_string(&snap).unwrap()).unwrap();
        let w = watch_json(&rec);
        assert_eq!(w["live"], json!([]));
        assert!(w["stale"][0].as_str().unwrap().contains("has not written it"), "{w}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
