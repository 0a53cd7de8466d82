//! Endgame databases of the movement phase (both hands empty), built by retrograde
//! analysis for the seed and the standard rules: for every position of a class (`own`
//! men of the side to move against `opp`), its value (win, draw or loss, ignoring the
//! repetition and move-limit draws) and the distance to the end in plies.
//!
//! One job per file: [`symmetry`] (the 16 board symmetries), [`index`] (slots of a class,
//! symmetries folded), [`value`] (values and their stored form), [`mod@file`] (the class
//! files), [`moves`] (forward moves from the game's generator, and unmoves), [`solve`]
//! (retrograde analysis of a class), [`build`] (all classes in dependency order),
//! [`probe`] (the loaded database: values and best moves), [`verify`] (consistency of every
//! stored value), [`crosscheck`] (against plain search), [`plain`] (a second, plain solver
//! of the 3-against-3 class), [`stats`],
//! [`progress`] (the progress bar); the command `ugine morris-db` is `crate::cli::morris_db`.

pub mod build;

pub mod crosscheck;
pub mod file;
pub mod index;
pub mod moves;
pub mod plain;
pub mod probe;
pub mod progress;
pub mod solve;
pub mod stats;
pub mod symmetry;
pub mod value;
pub mod verify;

pub use index::Class;
pub use probe::MorrisDb;
pub use value::DbValue;
