//! A match's numbers: results, Elo, the SPRT, standings and summaries, rating lists,
//! and the merge of sharded matches.

pub mod elo;
pub mod ratings;
pub mod sprt;
