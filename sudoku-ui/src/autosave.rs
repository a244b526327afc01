//! The game in progress, kept across runs: the state machine's [`Snapshot`] (its SCXML
//! configuration and datamodel: givens, the grid as filled, the undo stack) and the puzzle it
//! was loaded from, written as JSON after every change the machine shows and read back when
//! the game starts.
//!
//! The file is replaced atomically (written beside it, then renamed), so a crash leaves the
//! previous save whole. A save that cannot be read back (another version of the chart, a
//! damaged file) is set aside as `autosave.json.bad` rather than deleted, and the game starts
//! fresh.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::puzzle::Puzzle;
use sudoku_scxmlc::runtime::Snapshot;

/// What the autosave file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// The name of the puzzle in the chooser.
    pub puzzle: String,
    /// Its givens (with the name, how the chooser finds or re-adds it).
    pub givens: Grid,
    /// The machine.
    pub machine: Snapshot,
}

impl SavedGame {
    /// The puzzle the game was loaded from.
    pub fn puzzle(&self) -> Puzzle {
        Puzzle {
            name: self.puzzle.clone(),
            givens: self.givens,
        }
    }
}

/// Why the autosave file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum AutosaveError {
    /// The file exists but could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The autosave file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file is not a saved game (damaged, or written by another version).
    #[error("{}: not a saved game: {source}", path.display())]
    Format {
        /// The autosave file.
        path: PathBuf,
        /// Where the JSON did not fit.
        source: serde_json::Error,
    },
}

/// The autosave file in the player's data folder (`~/.local/share/sudoku/autosave.json` on
/// Linux); `None` when the platform has no home folder.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "sudoku").map(|d| d.data_dir().join("autosave.json"))
}

/// Reads the saved game at `path`; `Ok(None)` when there is none.
///
/// # Errors
/// [`AutosaveError::Io`] when the file exists but cannot be read, [`AutosaveError::Format`]
/// when it is not a saved game.
pub fn read(path: &Path) -> Result<Option<SavedGame>, AutosaveError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(AutosaveError::Io {
                path: path.to_owned(),
                source,
            })
        }
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| AutosaveError::Format {
            path: path.to_owned(),
            source,
        })
}

/// Writes `game` to `path` (creating its folder), replacing the file atomically.
///
/// # Errors
/// [`AutosaveError::Io`] when the folder or file cannot be written.
pub fn write(path: &Path, game: &SavedGame) -> Result<(), AutosaveError> {
    let io = |source| AutosaveError::Io {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let text = serde_json::to_string(game).map_err(|source| AutosaveError::Format {
        path: path.to_owned(),
        source,
    })?;
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text).map_err(io)?;
    std::fs::rename(&partial, path).map_err(io)
}

/// Moves an unreadable save out of the way (to `autosave.json.bad`), so that the next save
/// does not overwrite what the player might want to recover.
pub fn set_aside(path: &Path) {
    let _ = std::fs::rename(path, path.with_extension("json.bad"));
}
