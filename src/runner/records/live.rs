//! The live file of a match: the games in progress, beside the record file
//! (`<records>.live`), for `ugine gui --watch`. The record file holds a game only once it
//! has ended; the live file holds, for every game under way (one per worker), its
//! players, opening, moves so far, clocks and number, and is rewritten whenever a move is
//! played.
//!
//! It never slows or stops a match: the game loops only update a table in memory
//! ([`LiveFile::update`]); a thread of its own writes the file (a temporary file renamed
//! over it, so a reader never sees half a file), at most every [`MIN_GAP`], and again
//! every [`HEARTBEAT`] when nothing changes. A write that fails is logged (once, until
//! one succeeds again) and the match goes on. The file is removed when the match ends;
//! a match killed before that leaves a file that [`LiveSnapshot::stale`] recognizes: its
//! process is gone (same host) or it has not been written for [`STALE_AFTER`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The format version written in every live file.
pub const LIVE_VERSION: u32 = 1;
/// An unchanged live file is written again this often (its `updated_ms` is the match's
/// heartbeat).
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// A live file whose heartbeat is older than this belongs to a match that no longer runs.
pub const STALE_AFTER: Duration = Duration::from_secs(10);
/// The shortest time between two writes: a match of very fast moves writes its live file
/// at most this often (the latest moves are always in the next write).
pub const MIN_GAP: Duration = Duration::from_millis(50);

/// The live file of a record file: the same path with `.live` added
/// (`m.ugr` → `m.ugr.live`, `shard-2-of-4.ugr` → `shard-2-of-4.ugr.live`).
pub fn live_path(records: &Path) -> PathBuf {
    let mut s = records.as_os_str().to_os_string();
    s.push(".live");
    PathBuf::from(s)
}

/// Milliseconds since the Unix epoch.
pub fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// This machine's name (empty when unknown).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// One game in progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    /// `pairing.round.seat`, as in the record file.
    pub id: String,
    /// The game's number in this run's schedule (1-based) and the number of games in it.
    pub number: usize,
    pub total: usize,
    pub game: String,
    /// The match-wide options (`Game` first), as recorded.
    pub options: Vec<(String, String)>,
    /// The engines: p1, p2.
    pub players: [String; 2],
    /// The opening: position string (`None`: the game's start position) and moves.
    pub fen: Option<String>,
    pub opening: Vec<String>,
    /// The engines' moves so far, their times and the mover's evaluations (`+0.32/12`).
    pub moves: Vec<String>,
    pub times_ms: Vec<u64>,
    pub evals: Vec<Option<String>>,
    /// The clocks (p1, p2) when the last move was played (with `tc`).
    pub clock_ms: Option<[u64; 2]>,
    /// `p1` or `p2`.
    pub to_move: String,
    /// When the game started and when its last move (or its start) was played.
    pub started_ms: u64,
    pub moved_ms: u64,
}

/// The content of a live file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveSnapshot {
    pub version: u32,
    /// The match's process and machine.
    pub pid: u32,
    pub host: String,
    /// When the file was written (the heartbeat).
    pub updated_ms: u64,
    /// The games in progress, in the order of their workers.
    pub games: Vec<LiveGame>,
}

impl LiveSnapshot {
    /// Reads a live file.
    pub fn read(path: &Path) -> Result<LiveSnapshot, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: not a live file: {e}", path.display()))
    }

    /// Why this file's games are no longer in progress, at `now_ms`: its match's process
    /// is gone (when it ran on this machine), or its heartbeat stopped. `None`: alive.
    pub fn stale(&self, now_ms: u64) -> Option<String> {
        if !self.host.is_empty()
            && self.host == host_name()
            && Path::new("/proc/self").exists()
            && !Path::new(&format!("/proc/{}", self.pid)).exists()
        {
            return Some(format!("its match (process {}) no longer runs", self.pid));
        }
        let age = now_ms.saturating_sub(self.updated_ms);
        if age > STALE_AFTER.as_millis() as u64 {
            return Some(format!("its match has not written it for {} s", age / 1000));
        }
        None
    }
}

/// What the writer thread shares with the game loops.
#[derive(Default)]
struct Table {
    games: BTreeMap<usize, LiveGame>,
    dirty: bool,
    stop: bool,
}

/// The live file of a running match: [`update`](LiveFile::update) it from any thread;
/// dropping it stops its writer and removes the file.
pub struct LiveFile {
    path: PathBuf,
    shared: Arc<(Mutex<Table>, Condvar)>,
    writer: Option<JoinHandle<()>>,
}

impl LiveFile {
    /// Starts the writer of `path` (the file is written at once, with no game).
    pub fn start(path: PathBuf) -> LiveFile {
        let shared =
            Arc::new((Mutex::new(Table { dirty: true, ..Table::default() }), Condvar::new()));
        let (p, s) = (path.clone(), shared.clone());
        let writer = std::thread::Builder::new()
            .name("live-file".to_string())
            .spawn(move || write_loop(&p, &s))
            .map_err(|e| {
                log::warn!("{}: no live file (cannot start its thread: {e})", path.display())
            })
            .ok();
        LiveFile { path, shared, writer }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Changes the game of `slot` (a worker) in place and marks the file for writing.
    pub fn update(&self, slot: usize, change: impl FnOnce(&mut LiveGame)) {
        let (lock, cv) = &*self.shared;
        let mut t = lock.lock().unwrap_or_else(|e| e.into_inner());
        change(t.games.entry(slot).or_default());
        // Only a change the writer has not seen yet needs to wake it.
        if !t.dirty {
            t.dirty = true;
            cv.notify_one();
        }
    }

    /// Game `id` has ended (it is in the record file now).
    pub fn remove_game(&self, id: &str) {
        let (lock, cv) = &*self.shared;
        let mut t = lock.lock().unwrap_or_else(|e| e.into_inner());
        let before = t.games.len();
        t.games.retain(|_, g| g.id != id);
        if t.games.len() != before {
            t.dirty = true;
            cv.notify_one();
        }
    }
}

impl Drop for LiveFile {
    fn drop(&mut self) {
        {
            let (lock, cv) = &*self.shared;
            lock.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
            cv.notify_one();
        }
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        if let Err(e) = std::fs::remove_file(&self.path)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            log::warn!("cannot remove the live file {}: {e}", self.path.display());
        }
    }
}

/// The writer thread: writes the table when it changed (at most every [`MIN_GAP`]) or
/// when the heartbeat is due, until told to stop.
fn write_loop(path: &Path, shared: &(Mutex<Table>, Condvar)) {
    let (lock, cv) = shared;
    let pid = std::process::id();
    let host = host_name();
    let tmp = {
        let mut s = path.as_os_str().to_os_string();
        s.push(".tmp");
        PathBuf::from(s)
    };
    let mut failing = false;
    loop {
        let games = {
            let t = lock.lock().unwrap_or_else(|e| e.into_inner());
            let (mut t, _) = cv
                .wait_timeout_while(t, HEARTBEAT, |t| !t.dirty && !t.stop)
                .unwrap_or_else(|e| e.into_inner());
            if t.stop {
                break;
            }
            t.dirty = false;
            t.games.values().cloned().collect::<Vec<_>>()
        };
        let snap = LiveSnapshot {
            version: LIVE_VERSION,
            pid,
            host: host.clone(),
            updated_ms: unix_ms(),
            games,
        };
        let written = serde_json::to_vec(&snap)
            .map_err(std::io::Error::other)
            .and_then(|json| std::fs::write(&tmp, json))
            .and_then(|()| std::fs::rename(&tmp, path));
        match written {
            Err(e) if !failing => {
                failing = true;
                log::warn!(
                    "cannot write the live file {} (the match goes on): {e}",
                    path.display()
                );
            }
            Err(_) => {}
            Ok(()) if failing => {
                failing = false;
                log::warn!("the live file {} is written again", path.display());
            }
            Ok(()) => {}
        }
        std::thread::sleep(MIN_GAP);
    }
    let _ = std::fs::remove_file(&tmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ugine-live-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn wait_for(path: &Path, pred: impl Fn(&LiveSnapshot) -> bool) -> LiveSnapshot {
        for _ in 0..200 {
            if let Ok(s) = LiveSnapshot::read(path)
                && pred(&s)
            {
                return s;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("{}: never as expected", path.display());
    }

    #[test]
    fn games_are_written_updated_removed_and_the_file_goes_with_the_match() {
        let d = scratch("writer");
        let path = live_path(&d.join("m.ugr"));
        assert!(path.ends_with("m.ugr.live"));
        let live = LiveFile::start(path.clone());
        wait_for(&path, |s| s.games.is_empty() && s.pid == std::process::id());
        live.update(1, |g| {
            g.id = "0.0.1".into();
            g.moves = vec!["d1".into()];
        });
        live.update(0, |g| g.id = "0.0.0".into());
        let s = wait_for(&path, |s| s.games.len() == 2);
        assert_eq!(s.games[0].id, "0.0.0", "workers in order");
        assert_eq!(s.games[1].moves, ["d1"]);
        assert_eq!(s.version, LIVE_VERSION);
        assert_eq!(s.stale(unix_ms()), None);
        live.remove_game("0.0.1");
        wait_for(&path, |s| s.games.len() == 1);
        drop(live);
        assert!(!path.exists(), "removed with the match");
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn a_file_of_a_dead_or_silent_match_is_stale() {
        let mut s = LiveSnapshot {
            version: LIVE_VERSION,
            pid: std::process::id(),
            host: host_name(),
            updated_ms: unix_ms(),
            games: Vec::new(),
        };
        assert_eq!(s.stale(unix_ms()), None);
        let old = s.updated_ms + STALE_AFTER.as_millis() as u64 + 1000;
        assert!(s.stale(old).unwrap().contains("has not written it"), "{:?}", s.stale(old));
        // A process that does not exist (pids stop well below this).
        s.pid = u32::MAX - 7;
        assert!(s.stale(unix_ms()).unwrap().contains("no longer runs"));
    }

    #[test]
    fn an_unwritable_live_file_is_only_logged() {
        let live = LiveFile::start(PathBuf::from("/nonexistent-dir-of-ugine/m.ugr.live"));
        live.update(0, |g| g.id = "0.0.0".into());
        std::thread::sleep(MIN_GAP * 3);
        drop(live);
    }
}
