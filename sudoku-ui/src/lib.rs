//! The Slint front end of the Sudoku game: a port of the widgets of Qt's SCXML Sudoku example.
//!
//! The one design decision: the window only binds. The markup in `ui/` draws the grid and the
//! buttons and declares the `Game` global; [`init`] (in `bind.rs`) talks to the
//! [`sudoku_machine::Sudoku`] state machine only through `submit_event`, `connect_to_state`,
//! `connect_to_event` and `is_active`, as Qt's `mainwindow.cpp` does (and, for the
//! [`autosave`], `snapshot` and `restore`). The grid shown is the data of the machine's
//! `updateGUI` event, and every rule stays in the chart.
//!
//! ```no_run
//! let puzzle = sudoku_ui::read_puzzle_file("puzzles/sudoku.data")?;
//! sudoku_ui::run(vec![puzzle])?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

slint::include_modules!();

pub mod autosave;
mod bind;
mod open;

pub use bind::{init, init_with_autosave, load_puzzle, Ui, SOLVED_TEXT, UNSOLVED_TEXT};
pub use open::{read_puzzle_file, OpenError};
pub use sudoku_machine::puzzle::Puzzle;

/// Builds the window with [`init`] and runs it until it is closed.
///
/// # Errors
///
/// Fails when the platform cannot create the window or run the event loop.
pub fn run(puzzles: Vec<Puzzle>) -> Result<(), slint::PlatformError> {
    init(puzzles)?.run()
}

/// Like [`run`], with the game kept in the player's autosave file
/// ([`autosave::default_path`]): the game in progress when the window was last closed comes
/// back. Then opens the puzzle file `file` (say, the first command-line argument) before
/// showing the window. A bad file does not stop the game: the window opens with the error shown
/// in its "Open" dialog and the saved game or the first bundled puzzle loaded.
///
/// # Errors
///
/// Fails when the platform cannot create the window or run the event loop.
pub fn run_with_file(
    puzzles: Vec<Puzzle>,
    file: Option<&std::path::Path>,
) -> Result<(), slint::PlatformError> {
    let ui = init_with_autosave(puzzles, autosave::default_path())?;
    if let Some(file) = file {
        ui.open_puzzle_file_or_show_error(file);
    }
    ui.run()
}
