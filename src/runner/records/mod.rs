//! What a match reads and writes: openings, game records, record-file headers, the
//! shared record directory of shards, the live file of the games in progress, PGN, and
//! the re-validation of recorded games.

pub mod balance;
pub mod header;
pub mod input;
pub mod live;
pub mod opening;
pub mod pgn;
pub mod record;
pub mod replay;
