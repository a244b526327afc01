//! The Slint front end of the Sudoku game.
//!
//! The one design decision: the window only binds. The markup in `ui/` draws the grid, the
//! panel and the dialogs and declares the `Game` global; [`init`] (in `bind.rs`) talks to the
//! [`sudoku_machine::Sudoku`] state machine only through the generated API: `submit_event`
//! (through [`session::Session::submit`], which also journals it), `observe` for the
//! machine's typed `updateGUI`/`view` (what changed of what to show and which controls
//! work, applied to the screen the window keeps; no JSON in between), `connect_to_event` for `clock` and the generator requests, and `snapshot`/`restore` for the [`autosave`]. Every rule stays in the
//! chart and its datamodel.
//!
//! | module | holds |
//! |---|---|
//! | `bind` | building the window, the callbacks → events, notifications → properties |
//! | [`session`] | the machine with its clock (a Slint timer fires delayed events) and journal |
//! | [`autosave`] | the save: snapshot + append-only journal, compaction, set-aside |
//! | [`library`] | the chooser's puzzles, the player's kept across runs |
//! | [`records`] | the player's records (games solved, best times) and the Statistics dialog |
//! | `store` | the JSON files kept beside the save: read, set aside when damaged, written atomically |
//! | `worker` | puzzle generation on a thread, cancellable |
//! | `keys` | which key submits which event |
//! | `show` | the machine's view → `Game` properties |
//! | `open` | reading a puzzle file, the desktop's file chooser |
//! | `export` | writing the puzzle being played to a file (Save puzzle…) |
//! | [`os_message`] | an I/O error's words without Rust's `(os error N)` (the window's and the command's) |
//!
//! ```no_run
//! let puzzle = sudoku_ui::read_puzzle_file("puzzles/sudoku.data")?;
//! sudoku_ui::run(vec![puzzle])?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

slint::include_modules!();

pub mod autosave;
mod bind;
mod export;
mod keys;
pub mod library;
mod open;
pub mod os_message;
pub mod records;
pub mod session;
mod show;
mod store;
mod worker;

pub use bind::{init, init_with, init_with_autosave, Config, Ui};
pub use export::{write_puzzle_file, SaveError};
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

/// Like [`run`], with the game kept in the player's save folder ([`autosave::default_dir`]):
/// the game in progress when the window was last closed (or killed) comes back. Then opens
/// the puzzle file `file` (say, from the command line), which asks before it replaces a game
/// in progress. A bad file does not stop the game: the window opens with the error shown in
/// its "Open" dialog.
///
/// # Errors
///
/// Fails when the platform cannot create the window or run the event loop.
pub fn run_with_file(
    puzzles: Vec<Puzzle>,
    file: Option<&std::path::Path>,
) -> Result<(), slint::PlatformError> {
    let ui = init_with_autosave(puzzles, autosave::default_dir())?;
    if let Some(file) = file {
        ui.open_puzzle_file_or_show_error(file);
    }
    ui.run()
}
