//! Who plays whom, in what order, and which part of the schedule a run plays.
//!
//! Sharding (`--shard K/N`): the schedule's units are game pairs (one pairing, one
//! opening round, both seats), numbered in schedule order `round · pairings + pairing`;
//! unit `u` belongs to shard `u mod N + 1`. Shards are therefore disjoint, differ in size
//! by at most one pair, keep both games of a pair together, and each plays the earliest
//! rounds first.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::bail;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Exactly two engines.
    HeadToHead,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

impl Format {
    /// The word of the `format` setting.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::HeadToHead => "headtohead",
            Format::Gauntlet => "gauntlet",
            Format::RoundRobin => "roundrobin",
        }
    }

    /// Reads a `format` word.
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "headtohead" | "h2h" | "match" => Ok(Format::HeadToHead),
            "gauntlet" => Ok(Format::Gauntlet),
            "roundrobin" | "rr" => Ok(Format::RoundRobin),
            _ => Err(format!("unknown format '{s}'")),
        }
    }
}

/// In which order the openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    /// Shuffled with the match seed.
    Random,
}

/// The pairings (first engine, second engine) of a format, by engine index.
pub fn pairings(format: Format, engines: usize) -> anyhow::Result<Vec<(usize, usize)>> {
    match format {
        Format::HeadToHead if engines != 2 => {
            bail!("a head-to-head match needs exactly 2 engines, not {engines}")
        }
        _ if engines < 2 => bail!("a match needs at least 2 engines"),
        Format::HeadToHead => Ok(vec![(0, 1)]),
        Format::Gauntlet => Ok((1..engines).map(|j| (0, j)).collect()),
        Format::RoundRobin => {
            Ok((0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j))).collect())
        }
    }
}

/// The part of a match one run plays: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` with `1 ≤ K ≤ N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard must be K/N with 1 <= K <= N (e.g. 3/8), not '{s}'");
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard that plays game `id` of a match with `pairings` pairings.
    pub fn of(id: GameId, pairings: usize, count: usize) -> Shard {
        let unit = id.round * pairings + id.pairing;
        Shard { index: unit % count + 1, count }
    }

    /// True when this shard plays game `id`.
    pub fn contains(&self, id: GameId, pairings: usize) -> bool {
        Shard::of(id, pairings, self.count) == *self
    }

    /// The record file of this shard in a shared record directory.
    pub fn file_in(&self, dir: &Path) -> PathBuf {
        dir.join(format!("shard-{}-of-{}.ugr", self.index, self.count))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Identifies a game of a match: pairing, opening round and seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId {
    /// Index of the engine pairing (0 for a head-to-head match).
    pub pairing: usize,
    /// Index of the opening round within the pairing.
    pub round: usize,
    /// 0: the pairing's first engine is p1; 1: seats swapped.
    pub seat: u8,
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.pairing, self.round, self.seat)
    }
}

impl GameId {
    /// Reads `pairing.round.seat`.
    pub fn parse(s: &str) -> Option<GameId> {
        let mut it = s.split('.');
        let id = GameId {
            pairing: it.next()?.parse().ok()?,
            round: it.next()?.parse().ok()?,
            seat: it.next()?.parse().ok().filter(|s| *s <= 1)?,
        };
        it.next().is_none().then_some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_schedule_into_balanced_disjoint_pairs() {
        let (pairings, rounds, count) = (3, 7, 4);
        let mut sizes = vec![0; count];
        for round in 0..rounds {
            for pairing in 0..pairings {
                let ids = [0, 1].map(|seat| GameId { pairing, round, seat });
                let owners: Vec<usize> = (1..=count)
                    .filter(|&index| {
                        ids.iter().all(|&id| Shard { index, count }.contains(id, pairings))
                    })
                    .collect();
                assert_eq!(owners.len(), 1, "both games of a pair in exactly one shard");
                sizes[owners[0] - 1] += 1;
            }
        }
        // 21 pairs over 4 shards: 6, 5, 5, 5.
        assert_eq!(sizes, [6, 5, 5, 5]);
    }

    #[test]
    fn shard_words() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
