//! The shared record directory through which the shards of an SPRT see each other's
//! games (`--record-dir`).

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::runner::note;
use crate::runner::records::header::{MatchInfo, read_header};
use crate::runner::records::record::GameRecord;
use crate::runner::schedule::GameId;
use crate::runner::schedule::Shard;
use crate::runner::tournament::standings::Standings;

/// The other shards' record files in a shared directory, read between games so that
/// an SPRT decides on the games of every shard. Each file is read incrementally: only
/// the complete lines added since the last look.
pub struct Peers {
    me: MatchInfo,
    files: Vec<PeerFile>,
    /// Every peer game read so far, each once.
    records: Vec<GameRecord>,
    seen: HashSet<GameId>,
}

/// One other shard's record file.
struct PeerFile {
    shard: Shard,
    path: PathBuf,
    /// Bytes read so far (up to the end of the last complete line).
    offset: u64,
    /// `None` until its header has been read; `Some(false)` for another match's file.
    counted: Option<bool>,
}

impl Peers {
    pub fn new(dir: &Path, me: MatchInfo) -> Peers {
        let count = me.shard.count;
        let files = (1..=count)
            .filter(|&index| index != me.shard.index)
            .map(|index| {
                let shard = Shard { index, count };
                PeerFile { shard, path: shard.file_in(dir), offset: 0, counted: None }
            })
            .collect();
        Peers { me, files, records: Vec::new(), seen: HashSet::new() }
    }

    /// `own` plus every game the other shards have recorded so far. A peer file of
    /// another match is skipped with a warning (once); a missing file, or a line not
    /// yet complete, is looked at again next time.
    pub fn merged(&mut self, own: &Standings) -> Standings {
        self.refresh();
        let mut all = own.clone();
        for r in &self.records {
            all.add(r);
        }
        all
    }

    fn refresh(&mut self) {
        let pairings = self.me.pairings().len();
        for f in &mut self.files {
            if f.counted.is_none() {
                match read_header(&f.path) {
                    // A peer not yet extended to this run's rounds (or already extended) is the
                    // same match: only its records within this run's rounds count.
                    Ok(Some(h)) if h.same_match_any_rounds(&self.me) => f.counted = Some(true),
                    Ok(Some(h)) => {
                        note(&format!(
                            "warning: {} belongs to another match ({}): not counted",
                            f.path.display(),
                            self.me.first_difference(&h)
                        ));
                        f.counted = Some(false);
                    }
                    Ok(None) | Err(_) => {}
                }
            }
            if f.counted != Some(true) {
                continue;
            }
            for line in read_new_lines(&f.path, &mut f.offset) {
                if line.starts_with('#') || line.trim().is_empty() {
                    continue;
                }
                let Ok(r) = GameRecord::parse(&line) else { continue };
                if r.id.pairing < pairings
                    && r.id.round < self.me.rounds
                    && f.shard.contains(r.id, pairings)
                    && self.seen.insert(r.id)
                {
                    self.records.push(r);
                }
            }
        }
    }
}

/// The complete lines of a file after byte `offset`, moving `offset` past them (nothing
/// when the file cannot be read).
fn read_new_lines(path: &Path, offset: &mut u64) -> Vec<String> {
    let mut buf = Vec::new();
    let read = File::open(path).and_then(|mut f| {
        f.seek(SeekFrom::Start(*offset))?;
        f.read_to_end(&mut buf)
    });
    let Some(end) = read.ok().and_then(|_| buf.iter().rposition(|&b| b == b'\n')) else {
        return Vec::new();
    };
    *offset += end as u64 + 1;
    String::from_utf8_lossy(&buf[..=end]).lines().map(String::from).collect()
}

/// Fails unless `path` can be a shared record directory (it is created when missing).
pub fn prepare_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create record directory {}", dir.display()))?;
    if !dir.is_dir() {
        bail!("{} is not a directory", dir.display());
    }
    Ok(())
}
