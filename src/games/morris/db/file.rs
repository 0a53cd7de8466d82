//! One file per solved class: `<rules>_<own>_<opp>.mdb` in the database directory.
//!
//! Layout (little-endian): the 8-byte magic `UGMORRDB`, a version byte, the rules byte
//! (0 seed, 1 standard), the men of the side to move and of the other side, 4 zero
//! bytes, the number of slots (`u64`), then the 2-bit win/draw/loss array and the
//! distance byte array of [`Packed`]. Files are written to a temporary name and renamed,
//! so a file that exists is complete.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::super::options::MorrisRules;
use super::index::Class;
use super::value::Packed;

const MAGIC: &[u8; 8] = b"UGMORRDB";
const VERSION: u8 = 1;
const HEADER: usize = 24;

/// The protocol word of a rule set, used in file names.
pub fn rules_name(rules: MorrisRules) -> &'static str {
    match rules {
        MorrisRules::Seed => "seed",
        MorrisRules::Standard => "standard",
    }
}

/// The path of a class's file.
pub fn class_path(dir: &Path, rules: MorrisRules, class: Class) -> PathBuf {
    dir.join(format!("{}_{}_{}.mdb", rules_name(rules), class.own, class.opp))
}

fn header(rules: MorrisRules, class: Class, slots: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8] = VERSION;
    h[9] = (rules == MorrisRules::Standard) as u8;
    h[10] = class.own as u8;
    h[11] = class.opp as u8;
    h[16..].copy_from_slice(&slots.to_le_bytes());
    h
}

/// Writes a solved class (atomically: temporary file, then rename).
pub fn write_class(dir: &Path, rules: MorrisRules, class: Class, table: &Packed) -> Result<()> {
    let path = class_path(dir, rules, class);
    let tmp = path.with_extension("tmp");
    let mut f = fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    f.write_all(&header(rules, class, table.len()))?;
    f.write_all(&table.wdl)?;
    f.write_all(&table.moves)?;
    f.sync_all()?;
    fs::rename(&tmp, &path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

/// Reads a class's file, checking its header and size.
pub fn read_class(dir: &Path, rules: MorrisRules, class: Class) -> Result<Packed> {
    let path = class_path(dir, rules, class);
    let bytes = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let slots = class.slots();
    let wdl_len = slots.div_ceil(4) as usize;
    if bytes.len() < HEADER || bytes[..HEADER] != header(rules, class, slots) {
        bail!("{}: not a {} database of class {class:?}", path.display(), rules_name(rules));
    }
    if bytes.len() != HEADER + wdl_len + slots as usize {
        bail!("{}: wrong size (truncated?)", path.display());
    }
    let wdl = bytes[HEADER..HEADER + wdl_len].to_vec();
    let moves = bytes[HEADER + wdl_len..].to_vec();
    Ok(Packed { wdl, moves })
}
