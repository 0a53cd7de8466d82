//! The match header that ties a record file to its match (its first line), and the
//! checks of a record against it.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, bail};

use crate::runner::records::record::GameRecord;
use crate::runner::schedule::{Format, Shard, pairings};
use crate::runner::stats::sprt::Sprt;

/// The first word of a record file's header line.
const HEADER_TAG: &str = "#ugine-match";

/// The version of the header this ugine writes (`version=2`). Version 1 headers (before
/// the field existed) wrote the limits and engines as Rust debug text; they still read,
/// but a match cannot be resumed from them.
pub const HEADER_VERSION: u32 = 2;

/// What a record file belongs to: the settings that decide the match's games, written
/// as the file's first line (`#ugine-match key=value …`, values percent-encoded so
/// they hold no blank; readers of records skip `#` lines). Two files belong to one match
/// when their headers agree on everything but the shard index.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchInfo {
    /// The header format's version ([`HEADER_VERSION`] when written by this ugine; 1 for
    /// a header without a `version` field).
    pub version: u32,
    pub shard: Shard,
    /// Engine names in match order.
    pub engines: Vec<String>,
    pub format: Format,
    pub rounds: usize,
    pub sprt: Option<Sprt>,
    /// Every other setting that decides the games (game, options, engine settings
    /// without their paths, openings, seed, limits), compared but not interpreted.
    pub settings: Vec<(String, String)>,
}

impl MatchInfo {
    /// The header as the value of one line (without the leading tag).
    pub fn encode(&self) -> String {
        let mut fields = Vec::new();
        if self.version >= 2 {
            fields.push(("version".to_string(), self.version.to_string()));
        }
        fields.extend([
            ("shard".to_string(), self.shard.to_string()),
            ("engines".to_string(), self.engines.join(";")),
            ("format".to_string(), self.format.as_str().to_string()),
            ("rounds".to_string(), self.rounds.to_string()),
        ]);
        if let Some(s) = &self.sprt {
            fields.push(("sprt".to_string(), s.words()));
        }
        fields.extend(self.settings.iter().cloned());
        fields.iter().map(|(k, v)| format!("{k}={}", escape(v))).collect::<Vec<_>>().join(" ")
    }

    /// The header line of a record file.
    pub fn header_line(&self) -> String {
        format!("{HEADER_TAG} {}", self.encode())
    }

    /// Reads what [`MatchInfo::encode`] wrote.
    pub fn decode(text: &str) -> Result<MatchInfo, String> {
        let mut version = 1;
        let mut shard = None;
        let mut engines = None;
        let mut format = None;
        let mut rounds = None;
        let mut sprt = None;
        let mut settings = Vec::new();
        for word in text.split_whitespace() {
            let (k, v) =
                word.split_once('=').ok_or_else(|| format!("bad header field '{word}'"))?;
            let v = unescape(v)?;
            match k {
                "version" => {
                    version = v.parse().map_err(|_| format!("bad header version '{v}'"))?;
                    if version > HEADER_VERSION {
                        return Err(format!(
                            "match header version {version} is newer than this ugine's ({HEADER_VERSION}): use a newer ugine"
                        ));
                    }
                }
                "shard" => shard = Some(Shard::parse(&v)?),
                "engines" => engines = Some(v.split(';').map(String::from).collect()),
                "format" => format = Some(Format::parse(&v)?),
                "rounds" => rounds = Some(v.parse().map_err(|_| format!("bad rounds '{v}'"))?),
                "sprt" => sprt = Some(Sprt::parse(v.split_whitespace())?),
                _ => settings.push((k.to_string(), v)),
            }
        }
        let missing = |k: &str| format!("header without '{k}'");
        let info = MatchInfo {
            version,
            shard: shard.ok_or_else(|| missing("shard"))?,
            engines: engines.ok_or_else(|| missing("engines"))?,
            format: format.ok_or_else(|| missing("format"))?,
            rounds: rounds.ok_or_else(|| missing("rounds"))?,
            sprt,
            settings,
        };
        pairings(info.format, info.engines.len()).map_err(|e| e.to_string())?;
        Ok(info)
    }

    /// True when `other` describes the same match (any shard of the same split).
    pub fn same_match(&self, other: &MatchInfo) -> bool {
        MatchInfo { shard: Shard::WHOLE, ..self.clone() }
            == MatchInfo { shard: Shard::WHOLE, ..other.clone() }
            && self.shard.count == other.shard.count
    }

    /// True when `other` is this match with another number of rounds (an extended or
    /// not yet extended match: `--resume` with a larger `--rounds`).
    pub fn same_match_any_rounds(&self, other: &MatchInfo) -> bool {
        self.same_match(&MatchInfo { rounds: self.rounds, ..other.clone() })
    }

    /// The first setting that differs from `other`'s, for error messages.
    pub fn first_difference(&self, other: &MatchInfo) -> String {
        let a = self.encode();
        let b = other.encode();
        let (wa, wb): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
        for (x, y) in wa.iter().zip(&wb) {
            if x != y && !(x.starts_with("shard=") && y.starts_with("shard=")) {
                return format!("'{x}' against '{y}'");
            }
        }
        if self.shard != other.shard {
            return format!("'shard={}' against 'shard={}'", self.shard, other.shard);
        }
        "a different number of settings".to_string()
    }

    /// The pairings of the match (engine indices); empty when the format does not fit
    /// the engines (a decoded header is checked for that).
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        pairings(self.format, self.engines.len()).unwrap_or_default()
    }
}

/// Percent-encodes blanks, `%`, quotes and backslashes (so a value is one word, and fits
/// in a PGN tag too).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_whitespace() || matches!(c, '%' | '"' | '\\') || c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3).ok_or_else(|| format!("bad escape in '{s}'"))?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| format!("bad escape in '{s}'"))?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("bad escape in '{s}'"))
}

/// The 64-bit FNV-1a hash of a text (a short fingerprint of the opening list).
pub fn fingerprint(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The header of a record file, `None` when its first line is not one (a file written
/// before headers existed, or an empty file).
pub fn read_header(path: &Path) -> anyhow::Result<Option<MatchInfo>> {
    let file =
        File::open(path).with_context(|| format!("cannot open record file {}", path.display()))?;
    let mut first = String::new();
    BufReader::new(file).read_line(&mut first).context("cannot read the record file")?;
    match first.trim_end().strip_prefix(HEADER_TAG) {
        Some(rest) => MatchInfo::decode(rest)
            .map(Some)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{}: bad match header", path.display())),
        None => Ok(None),
    }
}

/// Replaces the match header of the record file at `path` by `info`'s (when a resumed
/// match is extended to more rounds), keeping every other line. The new file is written
/// beside the old one and renamed over it, so a crash leaves one or the other whole.
pub fn rewrite_header(path: &Path, info: &MatchInfo) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read record file {}", path.display()))?;
    let rest = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with(HEADER_TAG) => rest,
        _ => bail!("{}: its first line is not a match header", path.display()),
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".header-tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, format!("{}\n{rest}", info.header_line()))
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot replace record file {}", path.display()))
}

/// Checks that a record of `info`'s match is where it should be: in range, in the
/// file's shard, with the engines its seat says. Returns what is wrong.
pub fn check_record(r: &GameRecord, info: &MatchInfo) -> Result<(), String> {
    let pairings = info.pairings();
    let Some(&(a, b)) = pairings.get(r.id.pairing) else {
        return Err(format!("game {}: no pairing {} in this match", r.id, r.id.pairing));
    };
    if r.id.round >= info.rounds {
        return Err(format!(
            "game {}: round {} beyond the match's {}",
            r.id, r.id.round, info.rounds
        ));
    }
    let shard = Shard::of(r.id, pairings.len(), info.shard.count);
    if shard != info.shard {
        return Err(format!("game {} belongs to shard {shard}, not {}", r.id, info.shard));
    }
    let (p1, p2) = if r.id.seat == 0 { (a, b) } else { (b, a) };
    if r.engines[0] != info.engines[p1] || r.engines[1] != info.engines[p2] {
        return Err(format!(
            "game {}: played by {} and {}, but the match seats {} and {}",
            r.id, r.engines[0], r.engines[1], info.engines[p1], info.engines[p2]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_read_back_and_compare() {
        let info = MatchInfo {
            version: HEADER_VERSION,
            shard: Shard { index: 2, count: 3 },
            engines: vec!["new one".to_string(), "base".to_string()],
            format: Format::HeadToHead,
            rounds: 100,
            sprt: Some(Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap()),
            settings: vec![(
                "options".to_string(),
                "Game=morris;Morris Rules=100% \"x\"".to_string(),
            )],
        };
        let line = info.header_line();
        assert!(!line.contains('"') && line.split(' ').count() == 8, "{line}");
        assert!(line.starts_with("#ugine-match version=2 shard=2/3 "), "{line}");
        let back = MatchInfo::decode(line.strip_prefix(HEADER_TAG).unwrap()).unwrap();
        assert_eq!(back, info);
        let other_shard = MatchInfo { shard: Shard { index: 3, count: 3 }, ..info.clone() };
        assert!(info.same_match(&other_shard));
        let other_split = MatchInfo { shard: Shard { index: 2, count: 4 }, ..info.clone() };
        assert!(!info.same_match(&other_split));
        let other_rounds = MatchInfo { rounds: 99, ..info.clone() };
        assert!(!info.same_match(&other_rounds));
        assert!(info.same_match_any_rounds(&other_rounds));
        assert!(!info.same_match_any_rounds(&MatchInfo { rounds: 99, ..other_split }));
        assert_eq!(info.first_difference(&other_rounds), "'rounds=100' against 'rounds=99'");
    }

    #[test]
    fn a_header_without_a_version_is_version_1_and_a_newer_one_is_refused() {
        let old = " shard=1/1 engines=a;b format=headtohead rounds=2 game=morris \
                   limits=TimeControl%20{%20clock:%20None}";
        assert_eq!(MatchInfo::decode(old).unwrap().version, 1);
        let newer =
            MatchInfo::decode(" version=3 shard=1/1 engines=a;b format=headtohead rounds=2");
        assert!(newer.unwrap_err().contains("version 3 is newer than this ugine's (2)"));
    }
}
