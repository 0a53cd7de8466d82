//! The game-record file: one line per finished game, appended and flushed as soon as
//! the game ends, so an interrupted match loses nothing and can be resumed.
//!
//! A record is a line of tab-separated `key=value` fields (values never contain a tab or
//! a newline; readers ignore unknown keys, so fields can be added):
//!
//! | key | value |
//! |---|---|
//! | `id` | `<pairing>.<round>.<seat>`: pairing index, opening round, 0 when the pairing's first engine is p1, 1 when seats are swapped |
//! | `game` | the game's protocol name |
//! | `options` | the match-wide `setoption` values, `Name=value` joined by `;` |
//! | `p1`, `p2` | engine names |
//! | `opening` | the opening line (`startpos …` or `fen … moves …`) |
//! | `moves` | the moves played by the engines, space-separated (all legal) |
//! | `times` | milliseconds each move took, space-separated |
//! | `evals` | per move, the mover's last reported score and depth (see [`Eval`]), or `-`; space-separated (absent in older files) |
//! | `result` | `p1win`, `p2win` or `draw` (the runner's verdict) |
//! | `termination` | see [`Termination`] |
//! | `detail` | for a game ended by the rules (`normal`, `disagreement`), the rule that ended it as the game's rules word it ([`crate::core::Game::ending`]: `3-fold repetition`, `checkmate`, `no push left, largest group 7-5`), then any notes after `; `; otherwise what went wrong (may be empty) |

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use anyhow::Context;

use crate::core::words::parse_option;

use crate::core::{Outcome, Side};
use crate::runner::records::opening::Opening;
use crate::runner::schedule::GameId;
use crate::search::Score;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The rules ended the game and both engines agreed.
    Normal,
    /// The rules ended the game, but an engine's `query gameover`/`query result` answer
    /// disagreed with the runner (or was missing); the runner's result stands.
    Disagreement,
    /// The side to move sent an illegal or unreadable move and lost.
    IllegalMove,
    /// The side to move exceeded its clock or move time (plus margin) and lost.
    Timeout,
    /// The side to move gave no move within the stall deadline (depth or node limits).
    Stall,
    /// An engine crashed, closed its pipes or failed its handshake and lost.
    Disconnect,
    /// The game reached the runner's ply limit and was declared a draw.
    Adjudication,
}

impl Termination {
    /// Every termination, in display order.
    pub const ALL: [Termination; 7] = [
        Termination::Normal,
        Termination::Disagreement,
        Termination::IllegalMove,
        Termination::Timeout,
        Termination::Stall,
        Termination::Disconnect,
        Termination::Adjudication,
    ];

    /// The word written in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Disagreement => "disagreement",
            Termination::IllegalMove => "illegal-move",
            Termination::Timeout => "timeout",
            Termination::Stall => "stall",
            Termination::Disconnect => "disconnect",
            Termination::Adjudication => "adjudication",
        }
    }

    /// Reads a record word.
    pub fn parse(s: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// True when the game ended by the rules (the final position is over).
    pub fn by_rules(self) -> bool {
        matches!(self, Termination::Normal | Termination::Disagreement)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An engine's last reported score and depth before its move, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: Score,
    pub depth: u32,
}

impl Eval {
    /// cutechess's words: `+0.32/12` (the score in hundredths of the game's unit, as
    /// cutechess writes centipawns in pawns), `+M5/20` or `-M3/9` for a mate in moves.
    pub fn text(&self) -> String {
        let score = match self.score {
            Score::Cp(cp) => {
                format!("{}{:.2}", if cp < 0 { "-" } else { "+" }, cp.abs() as f64 / 100.0)
            }
            Score::Mate(n) => format!("{}M{}", if n < 0 { "-" } else { "+" }, n.abs()),
        };
        format!("{score}/{}", self.depth)
    }

    /// Reads what [`Eval::text`] wrote.
    pub fn parse(s: &str) -> Option<Eval> {
        let (score, depth) = s.split_once('/')?;
        let depth = depth.parse().ok()?;
        let (sign, rest) = match score.as_bytes().first()? {
            b'+' => (1, &score[1..]),
            b'-' => (-1, &score[1..]),
            _ => return None,
        };
        let score = match rest.strip_prefix('M') {
            Some(n) => Score::Mate(sign * n.parse::<i32>().ok()?),
            None => {
                let pawns: f64 = rest.parse().ok()?;
                Score::Cp(sign * (pawns * 100.0).round() as i32)
            }
        };
        Some(Eval { score, depth })
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: GameId,
    pub game: String,
    /// Match-wide options (`Name`, `value`), in the order they were sent.
    pub options: Vec<(String, String)>,
    /// Engine names of p1 and p2.
    pub engines: [String; 2],
    pub opening: Opening,
    pub moves: Vec<String>,
    /// Milliseconds per move, one per entry of `moves`.
    pub times_ms: Vec<u64>,
    /// The mover's last reported score and depth, one per entry of `moves`.
    pub evals: Vec<Option<Eval>>,
    pub result: Outcome,
    pub termination: Termination,
    pub detail: String,
}

/// Reads the `Name=value;Name=value` list of a record's options.
pub(crate) fn parse_options(s: &str) -> Result<Vec<(String, String)>, String> {
    s.split(';').filter(|s| !s.is_empty()).map(parse_option).collect()
}

/// Replaces tabs and line breaks so a value stays inside its field.
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

impl GameRecord {
    /// Points (in half points: 0, 1 or 2) scored by the pairing's first engine.
    pub fn first_engine_points(&self) -> u8 {
        let first = if self.id.seat == 0 { Side::P1 } else { Side::P2 };
        match self.result {
            Outcome::Draw => 1,
            Outcome::Win(s) if s == first => 2,
            Outcome::Win(_) => 0,
        }
    }

    /// The record as one line (without the line break).
    pub fn to_line(&self) -> String {
        let options: Vec<String> =
            self.options.iter().map(|(k, v)| format!("{}={}", clean(k), clean(v))).collect();
        let times: Vec<String> = self.times_ms.iter().map(u64::to_string).collect();
        let evals: Vec<String> =
            self.evals.iter().map(|e| e.map_or_else(|| "-".to_string(), |e| e.text())).collect();
        [
            format!("id={}", self.id),
            format!("game={}", clean(&self.game)),
            format!("options={}", options.join(";")),
            format!("p1={}", clean(&self.engines[0])),
            format!("p2={}", clean(&self.engines[1])),
            format!("opening={}", clean(&self.opening.to_string())),
            format!("moves={}", self.moves.join(" ")),
            format!("times={}", times.join(" ")),
            format!("evals={}", evals.join(" ")),
            format!("result={}", self.result.as_str()),
            format!("termination={}", self.termination),
            format!("detail={}", clean(&self.detail)),
        ]
        .join("\t")
    }

    /// Reads a record line, or says what is wrong with it.
    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let fields: HashMap<&str, &str> =
            line.split('\t').filter_map(|f| f.split_once('=')).collect();
        let get = |k: &str| fields.get(k).copied().ok_or_else(|| format!("no '{k}' field"));
        let id = GameId::parse(get("id")?).ok_or("bad 'id' field")?;
        let options = parse_options(get("options")?)?;
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let times_ms = get("times")?
            .split_whitespace()
            .map(|t| t.parse::<u64>().map_err(|_| format!("bad time '{t}'")))
            .collect::<Result<Vec<_>, _>>()?;
        let moves = words(get("moves")?);
        if times_ms.len() != moves.len() {
            return Err(format!("{} moves but {} times", moves.len(), times_ms.len()));
        }
        let evals = match fields.get("evals") {
            None => vec![None; moves.len()],
            Some(text) => text
                .split_whitespace()
                .map(|t| match t {
                    "-" => Ok(None),
                    t => Eval::parse(t).map(Some).ok_or_else(|| format!("bad eval '{t}'")),
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        if evals.len() != moves.len() {
            return Err(format!("{} moves but {} evals", moves.len(), evals.len()));
        }
        let result = get("result")?;
        let result = Outcome::parse(result).ok_or_else(|| format!("bad result '{result}'"))?;
        let t = get("termination")?;
        Ok(GameRecord {
            id,
            game: get("game")?.to_string(),
            options,
            engines: [get("p1")?.to_string(), get("p2")?.to_string()],
            opening: Opening::parse(get("opening")?)?,
            moves,
            times_ms,
            evals,
            result,
            termination: Termination::parse(t).ok_or_else(|| format!("bad termination '{t}'"))?,
            detail: fields.get("detail").unwrap_or(&"").to_string(),
        })
    }
}

/// A record file open for appending.
pub struct RecordWriter {
    file: File,
}

impl RecordWriter {
    /// Opens (creating if needed) `path` for appending. A last line cut short by a crash
    /// is ended first, so the next record starts on a line of its own.
    pub fn append(path: &Path) -> anyhow::Result<RecordWriter> {
        let cut_short = last_byte(path).is_some_and(|c| c != b'\n');
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open record file {}", path.display()))?;
        if cut_short {
            file.write_all(b"\n").context("cannot write the record file")?;
        }
        Ok(RecordWriter { file })
    }

    /// Appends one line (the match header) and flushes it.
    pub fn write_line(&mut self, line: &str) -> anyhow::Result<()> {
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .context("cannot write the record file")?;
        self.file.flush().context("cannot flush the record file")
    }

    /// Appends one record and flushes it to the operating system at once.
    pub fn write(&mut self, rec: &GameRecord) -> anyhow::Result<()> {
        let mut line = rec.to_line();
        line.push('\n');
        self.file.write_all(line.as_bytes()).context("cannot write the record file")?;
        self.file.flush().context("cannot flush the record file")?;
        Ok(())
    }
}

/// The last byte of a file, `None` when it is empty or cannot be read.
fn last_byte(path: &Path) -> Option<u8> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = File::open(path).ok()?;
    f.seek(SeekFrom::End(-1)).ok()?;
    let mut b = [0u8; 1];
    f.read_exact(&mut b).ok()?;
    Some(b[0])
}

/// Reads every record of a file. A last line without its line break (a write cut short
/// by a crash) is skipped with a warning, as is any unreadable line; each problem is
/// returned with its line number.
pub fn read_records(path: &Path) -> anyhow::Result<(Vec<GameRecord>, Vec<String>)> {
    let file =
        File::open(path).with_context(|| format!("cannot open record file {}", path.display()))?;
    let mut records = Vec::new();
    let mut problems = Vec::new();
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut n = 0;
    loop {
        line.clear();
        let read = reader.read_line(&mut line).context("cannot read the record file")?;
        if read == 0 {
            break;
        }
        n += 1;
        let complete = line.ends_with('\n');
        let text = line.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        match GameRecord::parse(text) {
            Ok(r) if complete => records.push(r),
            Ok(_) => problems.push(format!("line {n}: incomplete last line skipped")),
            Err(e) => problems.push(format!("line {n}: {e}")),
        }
    }
    Ok((records, problems))
}
