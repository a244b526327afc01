//! `sudoku-machine`: everything the Sudoku game knows without a window.
//!
//! - [`datamodel`]: the Rust port of the JavaScript helpers of Qt's SCXML Sudoku example
//!   (`sudoku.js`: `restart`, `isValidPosition`, `calculateCurrentState`, `isOK`, `isSolved`,
//!   `undo`), which the compiled state chart calls from its transitions.
//! - [`game`]: the types and rules of the chart's datamodel beyond Qt's: the player's grid with
//!   notes, undo and redo, selection, hints, clock, options, confirmations, and the view the
//!   window draws; [`game::check`] tells a saved game from a forged one.
//! - [`puzzle`]: reading and writing puzzle files (Qt's `.data` format and the 81-character
//!   line form), with line-accurate errors.
//! - [`engine`]: a solver that counts solutions, used to check that bundled puzzles are unique.
#![warn(missing_docs)]

pub mod datamodel;
pub mod engine;
pub mod game;
pub mod puzzle;

/// The game's state chart, compiled at build time from `chart/sudoku.scxml` (Qt's chart ported
/// to the rust datamodel). Its conditions and scripts call the helpers of [`datamodel`].
mod chart {
    use crate::datamodel::*;
    use crate::game::*;
    include!(concat!(env!("OUT_DIR"), "/sudoku.rs"));
}

pub use chart::{events, payloads, Event, State, Sudoku, SudokuChart, SudokuData};
