//! The game the window plays, on top of Qt's example: the player's grid with pencil marks,
//! undo and redo, the selection, hints, the clock, options, the question before a game is
//! discarded, and the view the window draws.
//!
//! These are the types and rules of the chart's datamodel (`chart/sudoku.scxml`); the chart
//! decides which of them apply in which state and calls them from its transitions, as Qt's
//! chart calls the helpers of `sudoku.js`. Nothing here knows about a window.
//!
//! | data item | type | holds |
//! |---|---|---|
//! | `initState` | [`Grid`](crate::datamodel::Grid) | the puzzle's givens (Qt's) |
//! | `puzzle` | [`PuzzleInfo`] | its name, grade and solution |
//! | `play` | [`Play`] | the attempt: digits, notes, moves, selection, time, hints, message |
//! | `settings` | [`Settings`] | mistake checking, hint limit, theme |
//! | `pending` | [`Pending`] | what waits for the player's confirmation |
//! | `screen` | [`Screen`] | what the window was last sent (not saved) |
//!
//! [`view()`] turns them into what the window shows, [`Screen::show`] into what changed of
//! it since the last `updateGUI` ([`ViewUpdate`]); [`check()`] tells a saved game from a
//! forged or damaged one.

pub mod board;
pub mod check;
pub mod draft;
pub mod hints;
pub mod history;
pub mod info;
pub mod panel;
pub mod play;
pub mod records;
pub mod screen;
pub mod search;
pub mod settings;
pub mod view;

pub use board::Board;
pub use check::check;
pub use draft::{Draft, Verdict};
pub use hints::{hint, ShownHint};
pub use history::{Change, Content, History, Move, MoveKind};
pub use info::{is_loadable, load_refusal, LoadRequest, PuzzleInfo, Solution};
pub use play::{Direction, Notes, Play};
pub use records::{Ending, GameOver, LevelRecord, Recorded, Records};
pub use screen::{CellChange, Screen, ViewUpdate};
pub use search::{trace_lines, trace_text, Outcome, Search, StepKind};
pub use settings::{requested_level, CheckMode, Pending, Settings, Theme};
pub use view::{clock_text, view, CellView, Controls, Panel, Phase, SearchView, View};
