//! PGN export of finished games, as cutegames writes it, so rating tools (Ordo,
//! BayesElo) can read ugine's matches; and the reader that turns ugine's PGN back into
//! game records (`ugine replay`, `ugine merge`, `ugine ratings`).
//!
//! A game is the seven-tag roster (`Event`, `Site`, `Date`, `Round`, `White` = p1,
//! `Black` = p2, `Result`), then `FEN` and `SetUp` when the opening has a position
//! string, `Variant` (the game), `PlyCount`, `Termination` (PGN's words), and ugine's own
//! tags `UgineId` (`pairing.round.seat`), `UgineOptions` (match-wide options),
//! `UgineTermination` (the record's termination word), `UgineDetail` (the record's detail,
//! when there is one) and `UgineMatch` (the match header, see
//! [`crate::runner::records::header::MatchInfo`]). The movetext holds the opening's moves
//! (each followed by `{book}`) and the engines' moves, each followed by the mover's last
//! reported score and depth and the time used, as cutechess writes them
//! (`{+0.32/12 0.171s}`; `{0.171s}` without a score; `{171ms}` in files written before),
//! numbered in pairs from the first mover, then the game's end in cutechess's words
//! (`{Draw by 3-fold repetition}`, `{White mates}`, `{Black loses on time: …}`,
//! `{White wins: blocked}`; see [`end_comment`]) and the result. White is always p1.
//!
//! Files written before the `UgineTermination` tag existed end with
//! `{<termination>[: detail]}` instead; the reader still takes that.
//!
//! Ordo reads only the `White`, `Black` and `Result` tags (line by line); BayesElo reads
//! the seven-tag roster and skips the movetext token by token up to the result, so moves
//! in any game's notation are fine as long as they hold no `[`, `{`, `;` or `*` (true of
//! all five games).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::core::{Outcome, Side};
use crate::runner::records::opening::Opening;
use crate::runner::records::record::{Eval, GameRecord, Termination, parse_options};
use crate::runner::schedule::GameId;

/// The PGN result token of an outcome.
fn result_token(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Side::P1) => "1-0",
        Outcome::Win(Side::P2) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// PGN's `Termination` word for a termination.
fn termination_tag(t: Termination) -> &'static str {
    match t {
        Termination::Normal | Termination::Disagreement => "normal",
        Termination::IllegalMove => "rules infraction",
        Termination::Timeout | Termination::Stall => "time forfeit",
        Termination::Disconnect => "abandoned",
        Termination::Adjudication => "adjudication",
    }
}

/// PGN's seat word of a side: White is p1, Black is p2, whatever the game's colours.
fn seat(side: Side) -> &'static str {
    match side {
        Side::P1 => "White",
        Side::P2 => "Black",
    }
}

/// The comment that closes a game's movetext: the end in cutechess's words, then the
/// record's detail. A game ended by the rules reads `Draw by <reason>`, `<seat> mates`
/// (checkmate) or `<seat> wins: <reason>`; the others name the side at fault
/// (`Black loses on time: …`, `White disconnects: …`).
pub fn end_comment(rec: &GameRecord) -> String {
    let detail = rec.detail.as_str();
    let with_detail = |head: String| {
        if detail.is_empty() { head } else { format!("{head}: {detail}") }
    };
    let loser = |s: Side| seat(s.opponent());
    match (rec.termination, rec.result) {
        (t, Outcome::Draw) if t.by_rules() && !detail.is_empty() => format!("Draw by {detail}"),
        (t, Outcome::Win(s)) if t.by_rules() => match detail.strip_prefix("checkmate") {
            Some(rest) => format!("{} mates{rest}", seat(s)),
            None => with_detail(format!("{} wins", seat(s))),
        },
        (Termination::Adjudication, Outcome::Draw) => with_detail("Draw by adjudication".into()),
        (Termination::Adjudication, Outcome::Win(s)) => {
            with_detail(format!("{} wins by adjudication", seat(s)))
        }
        (Termination::Timeout, Outcome::Win(s)) => {
            with_detail(format!("{} loses on time", loser(s)))
        }
        (Termination::Stall, Outcome::Win(s)) => {
            with_detail(format!("{}'s connection stalls", loser(s)))
        }
        (Termination::Disconnect, Outcome::Win(s)) => {
            with_detail(format!("{} disconnects", loser(s)))
        }
        (Termination::IllegalMove, Outcome::Win(s)) => {
            with_detail(format!("{} makes an illegal move", loser(s)))
        }
        (_, Outcome::Draw) => with_detail("Draw".into()),
        (_, Outcome::Win(s)) => with_detail(format!("{} wins", seat(s))),
    }
}

/// A tag value with PGN's escapes (`\\`, `\"`), on one line.
fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r', '\t'], " ")
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// One game as PGN text (ending with a blank line). `first` is the side to move at the
/// opening's position string (or the start position); `info` the encoded match header.
pub fn game_to_pgn(rec: &GameRecord, first: Side, info: &str, date: &str) -> String {
    let mut tags = vec![
        ("Event", "ugine match".to_string()),
        ("Site", "ugine".to_string()),
        ("Date", date.to_string()),
        ("Round", (rec.id.round + 1).to_string()),
        ("White", rec.engines[0].clone()),
        ("Black", rec.engines[1].clone()),
        ("Result", result_token(rec.result).to_string()),
    ];
    if let Some(fen) = &rec.opening.fen {
        tags.push(("FEN", fen.clone()));
        tags.push(("SetUp", "1".to_string()));
    }
    tags.push(("Variant", rec.game.clone()));
    tags.push(("PlyCount", (rec.opening.moves.len() + rec.moves.len()).to_string()));
    tags.push(("Termination", termination_tag(rec.termination).to_string()));
    tags.push(("UgineId", rec.id.to_string()));
    let options: Vec<String> = rec.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    tags.push(("UgineOptions", options.join(";")));
    tags.push(("UgineTermination", rec.termination.to_string()));
    if !rec.detail.is_empty() {
        tags.push(("UgineDetail", rec.detail.clone()));
    }
    tags.push(("UgineMatch", info.to_string()));
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(&v)));
    }
    out.push('\n');

    let mut tokens = Vec::new();
    let start = usize::from(first == Side::P2);
    if start == 1 {
        tokens.push("1...".to_string());
    }
    let book = rec.opening.moves.iter().map(|m| (m, "book".to_string()));
    let evals = rec.evals.iter().copied().chain(std::iter::repeat(None));
    let played = rec
        .moves
        .iter()
        .zip(rec.times_ms.iter().zip(evals))
        .map(|(m, (t, e))| (m, move_comment_text(e, *t)));
    for (ply, (m, comment)) in (start..).zip(book.chain(played)) {
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(m.clone());
        tokens.push(format!("{{{comment}}}"));
    }
    tokens.push(format!("{{{}}}", end_comment(rec).replace('{', "(").replace('}', ")")));
    tokens.push(result_token(rec.result).to_string());
    out.push_str(&wrap(&tokens, 80));
    out.push_str("\n\n");
    out
}

/// Joins tokens with blanks into lines of at most `width` characters (a longer token
/// gets a line of its own).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(t);
        line_len += t.len();
    }
    out
}

/// A PGN file open for appending, one game at a time.
pub struct PgnWriter {
    file: File,
    /// The encoded match header written into every game's `UgineMatch` tag.
    info: String,
    date: String,
}

impl PgnWriter {
    /// Opens (creating if needed) `path` for appending.
    pub fn append(path: &Path, info: String) -> anyhow::Result<PgnWriter> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open PGN file {}", path.display()))?;
        Ok(PgnWriter { file, info, date: today() })
    }

    /// Appends one game and flushes it.
    pub fn write(&mut self, rec: &GameRecord, first: Side) -> anyhow::Result<()> {
        let text = game_to_pgn(rec, first, &self.info, &self.date);
        self.file.write_all(text.as_bytes()).context("cannot write the PGN file")?;
        self.file.flush().context("cannot flush the PGN file")
    }
}

/// One game as read from PGN: its tags, its moves with the comment after each, the
/// comment before the result, and the result token.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<(String, Option<String>)>,
    pub last_comment: Option<String>,
    pub result: String,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The game's outcome (`None` for `*`, an unfinished game).
    pub fn outcome(&self) -> Option<Outcome> {
        match self.result.as_str() {
            "1-0" => Some(Outcome::Win(Side::P1)),
            "0-1" => Some(Outcome::Win(Side::P2)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// The game as a ugine record; needs the tags ugine writes (`Variant`, `UgineId`).
    pub fn to_record(&self) -> Result<GameRecord, String> {
        let need = |k: &str| self.tag(k).ok_or_else(|| format!("no {k} tag"));
        let id = GameId::parse(need("UgineId")?).ok_or("bad UgineId tag")?;
        let game = need("Variant")?.to_string();
        let options = parse_options(need("UgineOptions")?)?;
        let result = self.outcome().ok_or_else(|| format!("unfinished game ({})", self.result))?;
        let mut opening = Opening { fen: self.tag("FEN").map(String::from), moves: Vec::new() };
        let (mut moves, mut times_ms, mut evals) = (Vec::new(), Vec::new(), Vec::new());
        for (m, comment) in &self.moves {
            match comment.as_deref() {
                Some("book") if moves.is_empty() => opening.moves.push(m.clone()),
                Some(c) => {
                    let (eval, ms) = move_comment(c).ok_or_else(|| {
                        format!("move {m}: comment '{c}' is not an eval and time")
                    })?;
                    times_ms.push(ms);
                    evals.push(eval);
                    moves.push(m.clone());
                }
                None => {
                    times_ms.push(0);
                    evals.push(None);
                    moves.push(m.clone());
                }
            }
        }
        let (termination, detail) =
            match (self.tag("UgineTermination"), self.last_comment.as_deref()) {
                (Some(t), _) => (
                    Termination::parse(t)
                        .ok_or_else(|| format!("bad UgineTermination tag '{t}'"))?,
                    self.tag("UgineDetail").unwrap_or("").to_string(),
                ),
                // Files from before the UgineTermination tag: `{<termination>[: detail]}`.
                (None, None) => (Termination::Normal, String::new()),
                (None, Some(c)) => {
                    let (word, detail) = c.split_once(": ").unwrap_or((c, ""));
                    let t = Termination::parse(word.trim())
                        .ok_or_else(|| format!("bad termination comment '{c}'"))?;
                    (t, detail.to_string())
                }
            };
        Ok(GameRecord {
            id,
            game,
            options,
            engines: [need("White")?.to_string(), need("Black")?.to_string()],
            opening,
            moves,
            times_ms,
            evals,
            result,
            termination,
            detail,
        })
    }
}

/// An engine move's comment as cutechess writes it: `+0.32/12 0.171s` (score/depth, then
/// seconds), or the time alone (`0.171s`, or `171ms` in files written before).
fn move_comment_text(eval: Option<Eval>, ms: u64) -> String {
    let time = format!("{}.{:03}s", ms / 1000, ms % 1000);
    match eval {
        Some(e) => format!("{} {time}", e.text()),
        None => time,
    }
}

/// Reads a move comment written by [`move_comment_text`] (or an older `<n>ms`).
fn move_comment(c: &str) -> Option<(Option<Eval>, u64)> {
    let (eval, time) = match c.split_once(' ') {
        Some((e, t)) => (Some(Eval::parse(e)?), t),
        None => (None, c),
    };
    let ms = match time.strip_suffix("ms") {
        Some(n) => n.parse().ok()?,
        None => {
            let secs: f64 = time.strip_suffix('s')?.parse().ok()?;
            (secs * 1000.0).round() as u64
        }
    };
    Some((eval, ms))
}

/// Reads every game of a PGN text. Tags, `{…}` and `;` comments, `%` escape lines, move
/// numbers and the result token are understood; variations are not (ugine never writes
/// them).
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let mut chars = text.char_indices().peekable();
    let mut line_start = true;
    while let Some((_, c)) = chars.next() {
        let at_line_start = line_start;
        line_start = c == '\n';
        match c {
            '%' if at_line_start => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line_start = true;
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {}
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line_start = true;
                        break;
                    }
                }
            }
            '[' => {
                if in_movetext {
                    return Err(format!("game {}: tag inside the moves", games.len() + 1));
                }
                let mut body = String::new();
                let mut in_string = false;
                let mut escaped = false;
                loop {
                    let Some((_, c)) = chars.next() else {
                        return Err("unterminated tag".to_string());
                    };
                    if in_string && escaped {
                        escaped = false;
                    } else if in_string && c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        in_string = !in_string;
                    } else if c == ']' && !in_string {
                        break;
                    }
                    body.push(c);
                }
                game.tags.push(parse_tag(&body)?);
            }
            '{' => {
                let mut comment = String::new();
                loop {
                    match chars.next() {
                        Some((_, '}')) => break,
                        Some((_, c)) => comment.push(c),
                        None => return Err("unterminated comment".to_string()),
                    }
                }
                in_movetext = true;
                // The first comment after a move is the move's (`{book}`, `{12ms}`); a
                // second one, before the result, is the game's end.
                match game.moves.last_mut() {
                    Some((_, slot @ None)) => *slot = Some(comment),
                    _ => game.last_comment = Some(comment),
                }
            }
            _ => {
                let mut word = String::from(c);
                while let Some(&(_, n)) = chars.peek() {
                    if n.is_whitespace() || matches!(n, '{' | '[' | ';') {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                in_movetext = true;
                if matches!(word.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.result = word;
                    games.push(std::mem::take(&mut game));
                    in_movetext = false;
                } else if !is_move_number(&word) {
                    // Only a comment after the last move ends the game.
                    game.last_comment = None;
                    game.moves.push((word, None));
                }
            }
        }
    }
    if in_movetext || !game.tags.is_empty() {
        return Err(format!("game {}: no result at the end of the file", games.len() + 1));
    }
    Ok(games)
}

/// True for a move number: `12.` or `12...`.
fn is_move_number(w: &str) -> bool {
    let digits = w.trim_end_matches('.');
    digits.len() < w.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `Name "value"` with PGN's escapes.
fn parse_tag(body: &str) -> Result<(String, String), String> {
    let body = body.trim();
    let (name, rest) =
        body.split_once(char::is_whitespace).ok_or_else(|| format!("bad tag '[{body}]'"))?;
    let rest = rest.trim();
    let inner = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("bad tag value in '[{body}]'"))?;
    let mut value = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        value.push(if c == '\\' { it.next().unwrap_or('\\') } else { c });
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    fn record(fen: Option<&str>, termination: Termination, detail: &str) -> GameRecord {
        GameRecord {
            id: GameId { pairing: 1, round: 4, seat: 1 },
            game: "morris".to_string(),
            options: vec![
                ("Game".into(), "morris".into()),
                ("Morris Rules".into(), "standard".into()),
            ],
            engines: ["a \"quoted\" name".to_string(), "b".to_string()],
            opening: Opening {
                fen: fen.map(String::from),
                moves: vec!["d2".to_string(), "d6".to_string()],
            },
            moves: vec!["d3".to_string(), "d7".to_string(), "f4".to_string()],
            times_ms: vec![12, 0, 1500],
            evals: vec![
                Some(Eval { score: Score::Cp(32), depth: 12 }),
                None,
                Some(Eval { score: Score::Mate(-3), depth: 9 }),
            ],
            result: Outcome::Win(Side::P2),
            termination,
            detail: detail.to_string(),
        }
    }

    #[test]
    fn a_game_reads_back_as_it_was_written() {
        let rec = record(None, Termination::Timeout, "p1 used {1210} ms of 1000 ms");
        let text = game_to_pgn(&rec, Side::P1, "shard=1/1", "2026.01.02");
        for tag in [
            "[Event \"ugine match\"]",
            "[Date \"2026.01.02\"]",
            "[Round \"5\"]",
            "[White \"a \\\"quoted\\\" name\"]",
            "[Black \"b\"]",
            "[Result \"0-1\"]",
            "[PlyCount \"5\"]",
            "[Termination \"time forfeit\"]",
            "[UgineId \"1.4.1\"]",
        ] {
            assert!(text.contains(tag), "{tag} missing in\n{text}");
        }
        assert!(!text.contains("[FEN "), "a game from startpos has no FEN tag");
        assert!(
            text.contains(
                "1. d2 {book} d6 {book} 2. d3 {+0.32/12 0.012s} d7 {0.000s} 3. f4 {-M3/9 1.500s}"
            ),
            "{text}"
        );
        assert!(text.contains("{White loses on time: p1 used (1210) ms of 1000 ms} 0-1"), "{text}");
        assert!(text.contains("[UgineTermination \"timeout\"]"), "{text}");
        let games = parse_pgn(&format!("{text}{text}")).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].to_record().unwrap(), rec);
    }

    #[test]
    fn the_end_of_a_game_reads_as_cutechess_writes_it() {
        let end = |termination, result, detail: &str| {
            end_comment(&GameRecord {
                termination,
                result,
                detail: detail.to_string(),
                ..record(None, termination, detail)
            })
        };
        let draw = Outcome::Draw;
        let (white, black) = (Outcome::Win(Side::P1), Outcome::Win(Side::P2));
        assert_eq!(
            end(Termination::Normal, draw, "3-fold repetition"),
            "Draw by 3-fold repetition"
        );
        assert_eq!(end(Termination::Normal, black, "checkmate"), "Black mates");
        assert_eq!(end(Termination::Normal, white, "blocked"), "White wins: blocked");
        assert_eq!(
            end(Termination::Disagreement, draw, "stalemate; p2 (x) says result 'p1win'"),
            "Draw by stalemate; p2 (x) says result 'p1win'"
        );
        assert_eq!(end(Termination::Disconnect, white, "p2: gone"), "Black disconnects: p2: gone");
        assert_eq!(end(Termination::Stall, black, ""), "White's connection stalls");
        assert_eq!(end(Termination::IllegalMove, black, ""), "White makes an illegal move");
        assert_eq!(
            end(Termination::Adjudication, draw, "draw after 9 plies"),
            "Draw by adjudication: draw after 9 plies"
        );
        let rec = record(None, Termination::Normal, "no line left after 9 lines, circles 2-1");
        let text = game_to_pgn(&GameRecord { result: white, ..rec.clone() }, Side::P1, "", "x");
        assert!(
            text.contains("{White wins: no line left after 9 lines, circles 2-1} 1-0"),
            "{text}"
        );
        assert_eq!(parse_pgn(&text).unwrap()[0].to_record().unwrap().detail, rec.detail);
    }

    #[test]
    fn files_from_before_the_termination_tag_still_read() {
        let old = "[White \"a\"]\n[Black \"b\"]\n[Variant \"morris\"]\n[UgineId \"0.0.0\"]\n\
                   [UgineOptions \"\"]\n\n1. d2 {12ms} {timeout: p1 used 5 ms of 1 ms} 0-1\n";
        let rec = parse_pgn(old).unwrap()[0].to_record().unwrap();
        assert_eq!(
            (rec.termination, rec.detail.as_str()),
            (Termination::Timeout, "p1 used 5 ms of 1 ms")
        );
    }

    #[test]
    fn a_position_with_p2_to_move_gets_a_fen_tag_and_numbers_from_black() {
        let fen = "3/3/3/6/3/3/3 b 9 9 0";
        let rec = record(Some(fen), Termination::Normal, "");
        let text = game_to_pgn(&rec, Side::P2, "", "2026.01.02");
        assert!(text.contains(&format!("[FEN \"{fen}\"]\n[SetUp \"1\"]")), "{text}");
        assert!(text.contains("1... d2 {book} 2. d6 {book} d3 {+0.32/12 0.012s}"), "{text}");
        let back = parse_pgn(&text).unwrap()[0].to_record().unwrap();
        assert_eq!(back, rec);
    }

    #[test]
    fn bad_pgn_is_refused() {
        assert!(parse_pgn("[White \"a\"]\n\n1. d2").is_err(), "no result");
        assert!(parse_pgn("[White \"a\"\n").is_err(), "unterminated tag");
        assert!(parse_pgn("1. d2 {oops 1-0").is_err(), "unterminated comment");
        let g = parse_pgn("[White \"a\"]\n[Black \"b\"]\n1. e4 e5 1-0\n").unwrap();
        assert!(g[0].to_record().is_err(), "a foreign game has no UgineId");
        assert_eq!(g[0].outcome(), Some(Outcome::Win(Side::P1)));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
