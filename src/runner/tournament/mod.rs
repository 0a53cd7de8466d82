//! Runs a whole match: schedules game pairs over the pairings, plays them on worker
//! threads, appends each record to the record file, keeps the statistics, prints
//! progress, and stops early when the SPRT decides.

pub mod config;
pub mod game;
pub mod merge;
pub mod peers;
pub mod standings;

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

use anyhow::{Context, bail};

use crate::runner::players::spec::EngineSpec;
use crate::runner::tournament::config::MatchConfig;

use crate::core::words::closest;
use crate::core::{Outcome, Rng};
use crate::runner::note;
use crate::runner::players::process::ProcessPlayer;
use crate::runner::players::uct_player::UctPlayer;
use crate::runner::players::{Player, RandomPlayer};
use crate::runner::records::header::{
    HEADER_VERSION, MatchInfo, fingerprint, read_header, rewrite_header,
};
use crate::runner::records::live::{LiveFile, LiveGame, live_path, unix_ms};
use crate::runner::records::opening::{Opening, load_openings};
use crate::runner::records::pgn::PgnWriter;
use crate::runner::records::record::{GameRecord, RecordWriter, Termination, read_records};
use crate::runner::referee::Referee;
use crate::runner::schedule::GameId;
use crate::runner::schedule::{Order, Shard, pairings};
use crate::runner::stats::sprt::SprtVerdict;
use crate::runner::tournament::game::{GameSetup, Progress, play_game_watched};
use crate::runner::tournament::peers::{Peers, prepare_dir};
use crate::runner::tournament::standings::{
    Standings, format_summary, merged_sprt_lines, progress_line,
};

/// A match ready to run: checked configuration, referee, openings and schedule.
pub struct Match {
    cfg: MatchConfig,
    /// Match-wide options as sent to every engine, `Game` first.
    options: Vec<(String, String)>,
    referee: Referee,
    openings: Vec<Opening>,
    pairings: Vec<(usize, usize)>,
}

/// Refuses a match in which an engine has no limit per move at all (no clock, move
/// time, depth or nodes, neither the match's nor its own), unless `stall` was given: its
/// every move would run until the stall deadline and lose. The random mover needs none.
fn check_limits(cfg: &MatchConfig) -> anyhow::Result<()> {
    let tc = &cfg.tc;
    if cfg.stall_given
        || tc.clock.is_some()
        || tc.movetime.is_some()
        || tc.depth.is_some()
        || tc.nodes.is_some()
    {
        return Ok(());
    }
    let unlimited: Vec<&str> = cfg
        .engines
        .iter()
        .filter(|e| !e.is_random() && e.depth.is_none() && e.nodes.is_none())
        .filter(|e| e.movetime.is_none())
        .map(|e| e.name.as_str())
        .collect();
    if !unlimited.is_empty() {
        bail!(
            "no limit per move for {}: give --tc, --movetime, --depth or --nodes (or an engine's own depth=, nodes=, movetime=); to let engines think until the stall deadline ({} ms) give --stall explicitly",
            unlimited.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", "),
            tc.stall.as_millis()
        );
    }
    Ok(())
}

/// Each engine's disconnects in a row, to stop a match whose engine keeps failing.
struct DisconnectCount {
    limit: usize,
    in_a_row: HashMap<String, usize>,
}

impl DisconnectCount {
    fn new(limit: usize) -> DisconnectCount {
        DisconnectCount { limit, in_a_row: HashMap::new() }
    }

    /// Counts a finished game: a disconnect for the loser, a clean game for the others.
    /// Fails when the loser reached the limit.
    fn add(&mut self, rec: &GameRecord) -> anyhow::Result<()> {
        let loser = match (rec.termination, rec.result) {
            (Termination::Disconnect, Outcome::Win(winner)) => {
                Some(&rec.engines[winner.opponent().index()])
            }
            _ => None,
        };
        for name in &rec.engines {
            let n = self.in_a_row.entry(name.clone()).or_default();
            *n = if Some(name) == loser { *n + 1 } else { 0 };
            if self.limit > 0 && *n >= self.limit {
                bail!(
                    "engine '{name}' disconnected in {n} games in a row (last: game {}: {}): the match stops (disconnect-limit {})",
                    rec.id,
                    rec.detail,
                    self.limit
                );
            }
        }
        Ok(())
    }
}

/// The live file of a running match, with the games' numbers in the schedule.
struct Live<'a> {
    file: &'a LiveFile,
    numbers: &'a HashMap<GameId, usize>,
    total: usize,
}

impl Live<'_> {
    /// Worker `slot`'s game of `setup` between `players` (p1, p2) before its next move.
    fn progress(&self, slot: usize, setup: &GameSetup, players: &[String; 2], p: &Progress) {
        self.file.update(slot, |g| {
            let id = setup.id.to_string();
            if g.id != id || p.moves.len() < g.moves.len() {
                let now = unix_ms();
                *g = LiveGame {
                    id,
                    number: self.numbers.get(&setup.id).copied().unwrap_or(0),
                    total: self.total,
                    game: setup.game.to_string(),
                    options: setup.options.to_vec(),
                    players: players.clone(),
                    fen: setup.opening.fen.clone(),
                    opening: setup.opening.moves.clone(),
                    started_ms: now,
                    moved_ms: now,
                    ..LiveGame::default()
                };
            }
            if p.moves.len() > g.moves.len() {
                g.moved_ms = unix_ms();
            }
            let n = g.moves.len();
            g.moves.extend_from_slice(&p.moves[n..]);
            g.times_ms.extend_from_slice(&p.times_ms[n.min(p.times_ms.len())..]);
            g.evals.extend(p.evals[n.min(p.evals.len())..].iter().map(|e| e.map(|e| e.text())));
            g.clock_ms = p.clock.map(|c| c.map(|t| t.as_millis() as u64));
            g.to_move = if p.to_move == crate::core::Side::P1 { "p1" } else { "p2" }.to_string();
        });
    }
}

/// How a match ended.
pub struct MatchOutcome {
    pub standings: Standings,
    /// The SPRT verdict (`Continue` without SPRT or without a decision); for a shard
    /// with a shared record directory, the verdict on the games of every shard.
    pub verdict: SprtVerdict,
    /// A shard with a shared record directory: the games of every shard at the last
    /// check (the SPRT's data).
    pub merged: Option<Standings>,
    /// Where this run's SPRT decided: its data's games and LLR then. The verdict stands
    /// from there on: the games in progress at that moment are played out and counted,
    /// but cannot take it back (a sequential test stops at its first crossing).
    pub decided_at: Option<(u64, f64)>,
}

impl Match {
    /// Checks the configuration: engines and format, game and rule options, openings.
    pub fn new(mut cfg: MatchConfig) -> anyhow::Result<Match> {
        if let Some(i) = cfg.options.iter().position(|(k, _)| k.eq_ignore_ascii_case("Game")) {
            let (_, g) = cfg.options.remove(i);
            if cfg.game.is_empty() {
                cfg.game = g;
            } else if !cfg.game.eq_ignore_ascii_case(&g) {
                bail!("game '{}' and option Game={g} disagree", cfg.game);
            }
        }
        if cfg.game.is_empty() {
            bail!("no game given (--game <name>)");
        }
        let mut options = vec![("Game".to_string(), cfg.game.clone())];
        options.extend(cfg.options.iter().cloned());
        let referee = Referee::new(&cfg.game, &options)?;
        let mut names = HashSet::new();
        for e in &cfg.engines {
            if !names.insert(e.name.as_str()) {
                bail!("two engines are named '{}': give them distinct names", e.name);
            }
            if let Some((k, _)) = e.options.iter().find(|(k, _)| referee.is_rule_option(k)) {
                bail!(
                    "engine '{}' sets rule option '{k}': rule options must be match-wide (--option) so the referee uses them too",
                    e.name
                );
            }
        }
        check_limits(&cfg)?;
        let pairings = pairings(cfg.format, cfg.engines.len())?;
        let mut openings = match &cfg.openings {
            Some(p) => load_openings(p)?,
            None => vec![Opening::startpos()],
        };
        let mut check = referee.session()?;
        for (i, o) in openings.iter().enumerate() {
            o.check(check.as_mut())
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("opening {} ('{o}') is not valid", i + 1))?;
        }
        if cfg.order == Order::Random {
            Rng::new(cfg.seed).shuffle(&mut openings);
        }
        if cfg.sprt.is_some() && pairings.len() != 1 {
            bail!("an SPRT needs a match of exactly two engines");
        }
        if let Some(dir) = &cfg.record_dir {
            if cfg.records.is_some() {
                bail!(
                    "--records and --record-dir exclude each other: in a record directory each shard writes shard-K-of-N.ugr"
                );
            }
            prepare_dir(dir)?;
            cfg.records = Some(cfg.shard.file_in(dir));
        }
        if cfg.resume && cfg.records.is_none() {
            bail!("--resume needs a record file (--records or --record-dir)");
        }
        Ok(Match { cfg, options, referee, openings, pairings })
    }

    /// The engines' names of game `id`: (p1, p2).
    fn seats(&self, id: GameId) -> (usize, usize) {
        let (a, b) = self.pairings[id.pairing];
        if id.seat == 0 { (a, b) } else { (b, a) }
    }

    fn opening(&self, id: GameId) -> &Opening {
        &self.openings[id.round % self.openings.len()]
    }

    /// Every game of this run's shard of the match in schedule order: round by round,
    /// each pairing's pair together.
    fn schedule(&self) -> Vec<GameId> {
        let mut ids = Vec::new();
        for round in 0..self.cfg.rounds {
            for pairing in 0..self.pairings.len() {
                for seat in 0..2 {
                    let id = GameId { pairing, round, seat };
                    if self.cfg.shard.contains(id, self.pairings.len()) {
                        ids.push(id);
                    }
                }
            }
        }
        ids
    }

    /// The match header of this run's record file: every setting that decides the
    /// games, and the shard.
    pub fn info(&self) -> MatchInfo {
        let joined = |kv: &[(String, String)]| {
            kv.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(";")
        };
        let openings: Vec<String> = self.openings.iter().map(Opening::to_string).collect();
        let mut settings = vec![
            ("game".to_string(), self.cfg.game.clone()),
            ("options".to_string(), joined(&self.options)),
            (
                "openings".to_string(),
                format!("{}:{:016x}", openings.len(), fingerprint(&openings.join("\n"))),
            ),
            ("seed".to_string(), self.cfg.seed.to_string()),
        ];
        settings.extend(self.cfg.tc.words());
        if let Some(n) = self.cfg.max_plies {
            settings.push(("max-plies".to_string(), n.to_string()));
        }
        for (i, e) in self.cfg.engines.iter().enumerate() {
            settings.push((format!("engine{}", i + 1), e.settings_words()));
        }
        MatchInfo {
            version: HEADER_VERSION,
            shard: self.cfg.shard,
            engines: self.cfg.engines.iter().map(|e| e.name.clone()).collect(),
            format: self.cfg.format,
            rounds: self.cfg.rounds,
            sprt: self.cfg.sprt,
            settings,
        }
    }

    /// Reads the games already recorded (for `--resume`), checking they belong to this
    /// match, and the number of rounds recorded when this run extends the match to more.
    fn recorded(&self) -> anyhow::Result<(Vec<GameRecord>, Option<usize>)> {
        let Some(path) = self.cfg.records.as_ref().filter(|p| self.cfg.resume && p.exists()) else {
            return Ok((Vec::new(), None));
        };
        let mut extended_from = None;
        match read_header(path)? {
            Some(h) if h.version != HEADER_VERSION => bail!(
                "{}: its match header is version {} and this ugine writes version {HEADER_VERSION}: `ugine replay`, `merge` and `ratings` read it, but it cannot be resumed; continue the match in a new record file",
                path.display(),
                h.version
            ),
            Some(h) => {
                let me = self.info();
                if h.shard == me.shard && h.rounds != me.rounds && h.same_match_any_rounds(&me) {
                    if h.rounds > me.rounds {
                        bail!(
                            "{}: recorded as a match of {} rounds: --rounds {} would leave recorded games out; a match can be extended, not shortened",
                            path.display(),
                            h.rounds,
                            me.rounds
                        );
                    }
                    extended_from = Some(h.rounds);
                } else if h != me {
                    bail!(
                        "{}: recorded with other settings ({}): resume with the same settings",
                        path.display(),
                        me.first_difference(&h)
                    );
                }
            }
            // Appending to a file that is not a match's record would damage it.
            None if std::fs::metadata(path)?.len() > 0 => bail!(
                "{}: not a ugine match record file (its first line is not a '#ugine-match' header): --resume leaves it untouched; give the record file of the match to continue",
                path.display()
            ),
            None => {}
        }
        let (records, problems) = read_records(path)?;
        for p in problems {
            note(&format!("warning: {}: {p}", path.display()));
        }
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for r in records {
            if r.id.pairing >= self.pairings.len() || r.id.round >= self.cfg.rounds {
                continue;
            }
            let (p1, p2) = self.seats(r.id);
            let expected = [&self.cfg.engines[p1].name, &self.cfg.engines[p2].name];
            if r.engines[0] != *expected[0]
                || r.engines[1] != *expected[1]
                || !r.game.eq_ignore_ascii_case(&self.cfg.game)
                || r.opening != *self.opening(r.id)
            {
                bail!(
                    "{}: game {} does not belong to this match (other engines, game or opening): resume with the same settings",
                    path.display(),
                    r.id
                );
            }
            if !self.cfg.shard.contains(r.id, self.pairings.len()) {
                bail!(
                    "{}: game {} belongs to shard {}, not {}: resume each shard with its own record file",
                    path.display(),
                    r.id,
                    Shard::of(r.id, self.pairings.len(), self.cfg.shard.count),
                    self.cfg.shard
                );
            }
            if seen.insert(r.id) {
                out.push(r);
            }
        }
        Ok((out, extended_from))
    }

    /// Starts every engine process and waits for its handshake, before any game is
    /// played or recorded: an engine that cannot start would otherwise lose every game
    /// of the match. The error lists every engine that failed.
    fn check_engines(&self) -> anyhow::Result<()> {
        let mut failures = Vec::new();
        let mut announced: Vec<String> = Vec::new();
        for (i, e) in self.cfg.engines.iter().enumerate() {
            if e.is_random() || e.is_uct() {
                continue;
            }
            let mut player = self.process_player(i);
            match player.check_start() {
                Ok(()) => announced.extend(player.announced_names()),
                Err(why) => failures.push(why),
            }
        }
        if !failures.is_empty() {
            bail!("{}\nno game was played", failures.join("\n"));
        }
        self.check_options(&announced)
    }

    /// Refuses a match-wide option that is neither a rule option of the game nor
    /// announced by any engine (`announced`): a misspelt name would otherwise be ignored
    /// by every engine and the match would quietly play without it.
    fn check_options(&self, announced: &[String]) -> anyhow::Result<()> {
        let rules = self.referee.rule_option_names();
        for (k, _) in &self.options {
            let known = |n: &String| n.eq_ignore_ascii_case(k);
            if k.eq_ignore_ascii_case("Game")
                || rules.iter().any(known)
                || announced.iter().any(known)
            {
                continue;
            }
            let names: Vec<&str> = rules.iter().chain(announced).map(String::as_str).collect();
            let near = closest(k, &names);
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(
                    " (did you mean {}?)",
                    near.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(" or ")
                )
            };
            bail!(
                "option '{k}' is not a rule option of {} and no engine announces it{hint}",
                self.cfg.game
            );
        }
        Ok(())
    }

    fn process_player(&self, index: usize) -> ProcessPlayer {
        let e = &self.cfg.engines[index];
        ProcessPlayer::new(&e.name, e.command(&self.options, &[]), self.cfg.deadlines)
    }

    fn make_player(&self, index: usize) -> anyhow::Result<Box<dyn Player>> {
        let e: &EngineSpec = &self.cfg.engines[index];
        if e.is_random() {
            let seed = e.seed.unwrap_or(self.cfg.seed) ^ (index as u64).wrapping_mul(0x9e37_79b9);
            return Ok(Box::new(RandomPlayer::new(&e.name, self.referee.session()?, seed)));
        }
        if e.is_uct() {
            let seed = e.seed.unwrap_or(self.cfg.seed);
            return Ok(Box::new(UctPlayer::new(e, &self.cfg.game, &self.referee, seed)?));
        }
        Ok(Box::new(self.process_player(index)))
    }

    /// Plays the match to the end (or to the SPRT's decision), writing records and
    /// printing progress to stderr. Returns the standings.
    pub fn run(&self) -> anyhow::Result<MatchOutcome> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if self.cfg.concurrency > cores {
            note(&format!(
                "warning: concurrency {} exceeds the {cores} available cores: engines will share cores and time controls will be unreliable",
                self.cfg.concurrency
            ));
        }
        let names: Vec<String> = self.cfg.engines.iter().map(|e| e.name.clone()).collect();
        let mut standings = Standings::new(&names, &self.pairings);
        let (done, extended_from) = self.recorded()?;
        let done_ids: HashSet<GameId> = done.iter().map(|r| r.id).collect();
        for r in &done {
            standings.add(r);
        }
        if !done.is_empty() {
            note(&format!("resuming: {} games already recorded", done.len()));
        }
        if let Some(before) = extended_from {
            note(&format!("extending the match from {before} to {} rounds", self.cfg.rounds));
        }
        let mut peers = self.peers();
        let (mut verdict, mut merged) = self.sprt_verdict(&standings, peers.as_mut());
        let queue: VecDeque<GameId> =
            self.schedule().into_iter().filter(|id| !done_ids.contains(id)).collect();
        let total = done.len() + queue.len();
        if verdict == SprtVerdict::Continue && !queue.is_empty() {
            self.check_engines()?;
        }
        let mut writer = match &self.cfg.records {
            Some(p) => {
                let empty = !p.exists() || std::fs::metadata(p)?.len() == 0;
                if !self.cfg.resume && !empty {
                    bail!(
                        "record file {} already exists: use --resume to continue it, or another file",
                        p.display()
                    );
                }
                if extended_from.is_some() {
                    rewrite_header(p, &self.info())?;
                }
                let mut w = RecordWriter::append(p)?;
                if empty {
                    w.write_line(&self.info().header_line())?;
                }
                Some(w)
            }
            None => None,
        };
        let mut pgn = match &self.cfg.pgn {
            Some(p) => Some(PgnWriter::append(p, self.info().encode())?),
            None => None,
        };
        if verdict != SprtVerdict::Continue || queue.is_empty() {
            return Ok(MatchOutcome { standings, verdict, merged, decided_at: None });
        }
        // The games in progress, for `ugine gui --watch` (removed when `live` drops).
        let live_file = match &self.cfg.records {
            Some(p) if self.cfg.live => Some(LiveFile::start(live_path(p))),
            _ => None,
        };
        let numbers: HashMap<GameId, usize> =
            self.schedule().into_iter().enumerate().map(|(i, id)| (id, i + 1)).collect();
        let live = live_file.as_ref().map(|file| Live { file, numbers: &numbers, total });
        let queue = Mutex::new(queue);
        let stop = AtomicBool::new(false);
        let mut decided_at = None;
        let disconnects = Mutex::new(DisconnectCount::new(self.cfg.disconnect_limit));
        let (tx, rx) = channel::<anyhow::Result<GameRecord>>();
        let workers = self.cfg.concurrency.min(total.max(1));
        std::thread::scope(|scope| -> anyhow::Result<()> {
            for slot in 0..workers {
                let tx = tx.clone();
                let (queue, stop, disconnects) = (&queue, &stop, &disconnects);
                let live = live.as_ref().map(|l| (l, slot));
                scope.spawn(move || {
                    if let Err(e) = self.worker(queue, stop, disconnects, &tx, live) {
                        let _ = tx.send(Err(e));
                    }
                });
            }
            drop(tx);
            let mut result = Ok(());
            for msg in rx {
                let rec = match msg {
                    Ok(r) => r,
                    Err(e) => {
                        stop.store(true, Ordering::SeqCst);
                        result = Err(e);
                        continue;
                    }
                };
                if let Some(w) = writer.as_mut()
                    && let Err(e) = w.write(&rec)
                {
                    stop.store(true, Ordering::SeqCst);
                    result = Err(e);
                }
                // Recorded: no longer in progress (removed only now, so that a watcher
                // always finds the game in one of the two files).
                if let Some(l) = &live_file {
                    l.remove_game(&rec.id.to_string());
                }
                if let Some(w) = pgn.as_mut()
                    && let Err(e) = self.first_mover(&rec).and_then(|side| w.write(&rec, side))
                {
                    stop.store(true, Ordering::SeqCst);
                    result = Err(e);
                }
                standings.add(&rec);
                if !self.cfg.quiet {
                    note(&progress_line(&standings, &rec, total, self.cfg.sprt.as_ref()));
                }
                // Once decided, the verdict stands (see `MatchOutcome::decided_at`).
                if verdict == SprtVerdict::Continue {
                    (verdict, merged) = self.sprt_verdict(&standings, peers.as_mut());
                    if verdict != SprtVerdict::Continue {
                        stop.store(true, Ordering::SeqCst);
                        decided_at = self.sprt_point(merged.as_ref().unwrap_or(&standings));
                    }
                }
            }
            result
        })?;
        Ok(MatchOutcome { standings, verdict, merged, decided_at })
    }

    /// The other shards' record files when this run is one shard of an SPRT with a
    /// shared record directory.
    fn peers(&self) -> Option<Peers> {
        if self.cfg.sprt.is_none() || self.cfg.shard.count == 1 {
            return None;
        }
        match &self.cfg.record_dir {
            Some(dir) => Some(Peers::new(dir, self.info())),
            None => {
                note(&format!(
                    "warning: shard {} of an SPRT without --record-dir: this shard cannot see the others and plays all its games; `ugine merge` evaluates the SPRT",
                    self.cfg.shard
                ));
                None
            }
        }
    }

    /// The SPRT verdict on `standings`, or with `peers` on the games of every shard
    /// (returned too).
    fn sprt_verdict(
        &self,
        standings: &Standings,
        peers: Option<&mut Peers>,
    ) -> (SprtVerdict, Option<Standings>) {
        let Some(s) = &self.cfg.sprt else { return (SprtVerdict::Continue, None) };
        match peers {
            Some(p) => {
                let all = p.merged(standings);
                (all.sprt_verdict(Some(s)), Some(all))
            }
            None => (standings.sprt_verdict(Some(s)), None),
        }
    }

    /// The games and LLR of an SPRT's data (`None` without SPRT).
    fn sprt_point(&self, data: &Standings) -> Option<(u64, f64)> {
        let s = self.cfg.sprt.as_ref()?;
        let p = data.pairing(0);
        Some((p.wdl.games(), s.llr(&p.penta)))
    }

    /// The side to move at the start of a recorded game's opening (PGN numbers moves
    /// from it).
    fn first_mover(&self, rec: &GameRecord) -> anyhow::Result<crate::core::Side> {
        let mut s = self.referee.session()?;
        s.set_position(rec.opening.fen.as_deref(), &[]).map_err(anyhow::Error::msg)?;
        Ok(s.side_to_move())
    }

    /// One worker: its own engine processes and referee; plays games from the queue until
    /// it is empty or the match stops.
    fn worker(
        &self,
        queue: &Mutex<VecDeque<GameId>>,
        stop: &AtomicBool,
        disconnects: &Mutex<DisconnectCount>,
        tx: &std::sync::mpsc::Sender<anyhow::Result<GameRecord>>,
        live: Option<(&Live, usize)>,
    ) -> anyhow::Result<()> {
        let mut players: HashMap<usize, Box<dyn Player>> = HashMap::new();
        let mut referee = self.referee.session()?;
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let Some(id) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                break;
            };
            let (i1, i2) = self.seats(id);
            for i in [i1, i2] {
                if let Entry::Vacant(slot) = players.entry(i) {
                    slot.insert(self.make_player(i)?);
                }
            }
            let mut p1 = players.remove(&i1).context("player missing")?;
            let mut p2 = players.remove(&i2).context("player missing")?;
            let setup = GameSetup {
                id,
                game: &self.cfg.game,
                options: &self.options,
                opening: self.opening(id),
                tc: &self.cfg.tc,
                max_plies: self.cfg.max_plies,
            };
            let names = [p1.name().to_string(), p2.name().to_string()];
            let watch = |p: &Progress| {
                if let Some((l, slot)) = live {
                    l.progress(slot, &setup, &names, p);
                }
            };
            let rec =
                play_game_watched([p1.as_mut(), p2.as_mut()], referee.as_mut(), &setup, &watch);
            players.insert(i1, p1);
            players.insert(i2, p2);
            // The disconnect limit is counted here, before the next game is taken, so
            // that no further game starts once it is reached (games under way on other
            // workers are still recorded).
            let over = disconnects.lock().unwrap_or_else(|e| e.into_inner()).add(&rec);
            if over.is_err() {
                stop.store(true, Ordering::SeqCst);
            }
            if tx.send(Ok(rec)).is_err() {
                break;
            }
            over?;
        }
        Ok(())
    }

    /// The summary printed at the end.
    pub fn summary(&self, outcome: &MatchOutcome) -> String {
        let data = outcome.merged.as_ref().unwrap_or(&outcome.standings);
        let decided = outcome
            .decided_at
            .map(|at| decision_note(at, data.pairing(0).wdl.games()))
            .unwrap_or_default();
        let Some(all) = &outcome.merged else {
            return format_summary(&outcome.standings, self.cfg.sprt.as_ref(), outcome.verdict)
                + &decided;
        };
        // A shard: its own games, then the SPRT on every shard's games.
        let own = outcome.standings.sprt_verdict(self.cfg.sprt.as_ref());
        let mut out = format_summary(&outcome.standings, self.cfg.sprt.as_ref(), own);
        if let Some(s) = &self.cfg.sprt {
            out.push_str(&merged_sprt_lines(all, s, outcome.verdict));
        }
        out + &decided
    }
}

/// The line that says where an SPRT decided, when games in progress then were played
/// out after it (`at`: the games and LLR at the decision; `games`: the games now); empty
/// when it decided on the last game.
fn decision_note((at, llr): (u64, f64), games: u64) -> String {
    if games <= at {
        return String::new();
    }
    format!(
        "SPRT decided after game {at} (LLR {llr:.2}); the {} games then in progress were \
         played out and are counted above\n",
        games - at
    )
}

#[cfg(test)]
mod tests {
    use super::decision_note;

    #[test]
    fn a_decision_before_the_last_game_says_where_it_was_reached() {
        assert_eq!(
            decision_note((926, 2.9912), 928),
            "SPRT decided after game 926 (LLR 2.99); the 2 games then in progress were \
             played out and are counted above\n"
        );
        assert_eq!(decision_note((928, 2.99), 928), "", "decided on the last game");
    }
}
