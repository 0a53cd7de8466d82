//! The network file: little-endian, in this order
//!
//! | field | type |
//! |---|---|
//! | magic `UGNN` | 4 bytes |
//! | version ([`VERSION`]) | u32 |
//! | game name length `n` (1–32) | u8 |
//! | game name (`Game::NAME`, ASCII) | `n` bytes |
//! | input features `F` | u32 |
//! | accumulator size `H` (1–[`MAX_HIDDEN`]) | u32 |
//! | scale (`cp` per unit of the output logit) | f32 |
//! | base: 0 the network alone, 1 added to the game's hand evaluation (version 2 only) | u8 |
//! | first layer weights, feature by feature (`F × H`), × [`QA`](super::QA) | i16 |
//! | first layer biases (`H`), × [`QA`](super::QA) | i16 |
//! | output weights, side to move's `H` then opponent's `H`, × [`QB`](super::QB) | i16 |
//! | output bias, × `QA · QB` | i32 |
//! | FNV-1a 64 of every byte before it | u64 |
//!
//! Version 1 files (without the base byte: the network alone) are read as well.
//!
//! A file is refused, with a [`NetError`] that says why, when anything does not match:
//! magic, version, game, feature count, sizes, length or checksum.

use std::fmt;

use super::network::Network;

/// The first four bytes of a network file.
pub const MAGIC: &[u8; 4] = b"UGNN";
/// The format version this build writes; it reads this one and version 1.
pub const VERSION: u32 = 2;
/// The largest accumulator a file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    NotANetwork,
    /// A version this build does not read.
    Version(u32),
    /// Made for another game.
    WrongGame { file: String, expected: String },
    /// Another number of input features than the game has.
    WrongFeatures { file: usize, expected: usize },
    /// An accumulator size outside 1..=[`MAX_HIDDEN`], or a bad game name.
    BadHeader(String),
    /// The file ends before its weights do.
    Truncated { needed: usize, length: usize },
    /// Bytes after the checksum.
    TrailingBytes(usize),
    /// The checksum does not match the contents.
    Checksum,
    /// Some sum of first-layer rows (of accumulator unit `unit`) could leave the
    /// accumulator's 16-bit range: `low..=high`.
    Overflow { unit: usize, low: i32, high: i32 },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANetwork => write!(f, "not a ugine network file (no UGNN magic)"),
            NetError::Version(v) => {
                write!(f, "network format version {v}, this build reads versions 1 to {VERSION}")
            }
            NetError::WrongGame { file, expected } => {
                write!(f, "the network is for the game '{file}', not '{expected}'")
            }
            NetError::WrongFeatures { file, expected } => write!(
                f,
                "the network has {file} input features, the game has {expected} (an older \
                 or newer feature set)"
            ),
            NetError::BadHeader(why) => write!(f, "malformed network header: {why}"),
            NetError::Truncated { needed, length } => {
                write!(f, "truncated network file: {length} bytes, at least {needed} needed")
            }
            NetError::TrailingBytes(n) => write!(f, "{n} unexpected bytes after the network"),
            NetError::Checksum => write!(f, "network checksum mismatch (corrupted file)"),
            NetError::Overflow { unit, low, high } => write!(
                f,
                "accumulator unit {unit} can sum to {low}..={high}, beyond the 16-bit \
                 accumulator (-32768..=32767): first-layer weights too large"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Reads the file's fields in order, failing on a short file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self.at + n;
        let out = self
            .bytes
            .get(self.at..end)
            .ok_or(NetError::Truncated { needed: end, length: self.bytes.len() })?;
        self.at = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], NetError> {
        Ok(self.take(N)?.try_into().expect("N bytes taken"))
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let raw = self.take(2 * n)?;
        Ok(raw.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
    }
}

impl Network {
    /// Reads a network file made for `game` with `features` inputs.
    pub fn from_bytes(bytes: &[u8], game: &str, features: usize) -> Result<Network, NetError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4).ok() != Some(MAGIC.as_slice()) {
            return Err(NetError::NotANetwork);
        }
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::Version(version));
        }
        let name_len = usize::from(r.array::<1>()?[0]);
        if !(1..=32).contains(&name_len) {
            return Err(NetError::BadHeader(format!("game name of {name_len} bytes")));
        }
        let name = std::str::from_utf8(r.take(name_len)?)
            .ok()
            .filter(|s| s.is_ascii())
            .ok_or_else(|| NetError::BadHeader("game name is not ASCII".into()))?;
        if name != game {
            return Err(NetError::WrongGame { file: name.into(), expected: game.into() });
        }
        let file_features = r.u32()? as usize;
        if file_features != features {
            return Err(NetError::WrongFeatures { file: file_features, expected: features });
        }
        let hidden = r.u32()? as usize;
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetError::BadHeader(format!(
                "accumulator size {hidden} (1 to {MAX_HIDDEN})"
            )));
        }
        let scale = f32::from_le_bytes(r.array()?);
        if !(scale.is_finite() && scale > 0.0) {
            return Err(NetError::BadHeader(format!("scale {scale}")));
        }
        let on_hand = match version {
            1 => false,
            _ => match r.array::<1>()?[0] {
                0 => false,
                1 => true,
                b => return Err(NetError::BadHeader(format!("base {b} (0 or 1)"))),
            },
        };
        let l1_weights = r.i16s(features * hidden)?;
        let l1_bias = r.i16s(hidden)?;
        let l2_weights = r.i16s(2 * hidden)?;
        let l2_bias = i32::from_le_bytes(r.array()?);
        let body_end = r.at;
        let checksum = u64::from_le_bytes(r.array()?);
        if r.at < bytes.len() {
            return Err(NetError::TrailingBytes(bytes.len() - r.at));
        }
        if checksum != fnv1a(&bytes[..body_end]) {
            return Err(NetError::Checksum);
        }
        let net = Network {
            game: name.to_string(),
            features,
            hidden,
            scale,
            on_hand,
            l1_weights,
            l1_bias,
            l2_weights,
            l2_bias,
        };
        match net.accumulator_overflow() {
            Some((unit, low, high)) => Err(NetError::Overflow { unit, low, high }),
            None => Ok(net),
        }
    }

    /// The file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.l1_weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(self.game.len() as u8);
        out.extend_from_slice(self.game.as_bytes());
        out.extend_from_slice(&(self.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.push(u8::from(self.on_hand));
        for w in self.l1_weights.iter().chain(&self.l1_bias).chain(&self.l2_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.l2_bias.to_le_bytes());
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_network_loads_back_equal() {
        let net = Network::random("mabula", 128, 16, 1);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..4], MAGIC);
        assert_eq!(Network::from_bytes(&bytes, "mabula", 128), Ok(net));
    }

    #[test]
    fn the_base_is_saved_and_a_version_1_file_is_the_network_alone() {
        let net = Network::random("mabula", 128, 16, 4).with_on_hand(true);
        let bytes = net.to_bytes();
        let read = Network::from_bytes(&bytes, "mabula", 128).unwrap();
        assert!(read.on_hand());
        assert_eq!(read, net);
        // The same network as version 1: no base byte, a new checksum.
        let base_at = 4 + 4 + 1 + "mabula".len() + 4 + 4 + 4;
        let mut v1 = bytes[..bytes.len() - 8].to_vec();
        v1[4] = 1;
        v1.remove(base_at);
        let checksum = fnv1a(&v1);
        v1.extend_from_slice(&checksum.to_le_bytes());
        let old = Network::from_bytes(&v1, "mabula", 128).unwrap();
        assert!(!old.on_hand());
        assert_eq!(old, net.with_on_hand(false));
    }

    #[test]
    fn malformed_files_are_refused_with_the_reason() {
        let net = Network::random("mabula", 128, 16, 2);
        let good = net.to_bytes();
        let load = |b: &[u8]| Network::from_bytes(b, "mabula", 128);
        assert_eq!(load(b""), Err(NetError::NotANetwork));
        assert_eq!(load(b"PK\x03\x04 not a net"), Err(NetError::NotANetwork));
        let mut v3 = good.clone();
        v3[4] = 3;
        assert_eq!(load(&v3), Err(NetError::Version(3)));
        let base_at = 4 + 4 + 1 + "mabula".len() + 4 + 4 + 4;
        let mut base = good.clone();
        base[base_at] = 2;
        assert!(matches!(load(&base), Err(NetError::BadHeader(_))), "{:?}", load(&base));
        assert_eq!(
            Network::from_bytes(&good, "morris", 128),
            Err(NetError::WrongGame { file: "mabula".into(), expected: "morris".into() })
        );
        assert_eq!(
            Network::from_bytes(&good, "mabula", 130),
            Err(NetError::WrongFeatures { file: 128, expected: 130 })
        );
        for cut in [5, 20, good.len() / 2, good.len() - 1] {
            assert!(
                matches!(load(&good[..cut]), Err(NetError::Truncated { .. })),
                "cut at {cut}: {:?}",
                load(&good[..cut])
            );
        }
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(load(&longer), Err(NetError::TrailingBytes(1)));
        let mut flipped = good.clone();
        flipped[100] ^= 1;
        assert_eq!(load(&flipped), Err(NetError::Checksum));
        // A huge declared accumulator is refused before anything is allocated.
        let mut huge = good;
        let hidden_at = 4 + 4 + 1 + "mabula".len() + 4;
        huge[hidden_at..hidden_at + 4].copy_from_slice(&(1u32 << 30).to_le_bytes());
        assert!(matches!(load(&huge), Err(NetError::BadHeader(_))));
    }

    #[test]
    fn a_network_whose_accumulator_could_overflow_16_bits_is_refused() {
        let mut net = Network::random("mabula", 128, 16, 3);
        assert_eq!(net.accumulator_overflow(), None);
        // Unit 5: 300 · 112 = 33 600 with every feature active, beyond 32 767 whatever its
        // bias (at most 255 either way).
        for f in 0..112 {
            net.l1_weights[f * 16 + 5] = 300;
        }
        for f in 112..128 {
            net.l1_weights[f * 16 + 5] = -1;
        }
        let bias = i32::from(net.l1_bias[5]);
        let expected = NetError::Overflow { unit: 5, low: bias - 16, high: bias + 33_600 };
        assert_eq!(net.accumulator_overflow(), Some((5, bias - 16, bias + 33_600)));
        assert_eq!(Network::from_bytes(&net.to_bytes(), "mabula", 128), Err(expected));
    }
}
