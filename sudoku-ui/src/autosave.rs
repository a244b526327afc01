//! The game in progress, kept across runs: the state machine's [`Snapshot`] (its SCXML
//! configuration and datamodel: givens, the grid as filled, the undo stack) and the puzzle it
//! was loaded from, written as JSON after every change the machine shows and read back when
//! the game starts.
//!
//! The file is replaced atomically (written beside it, then renamed), so a crash leaves the
//! previous save whole. A save that cannot be read back (another version of the chart, a
//! damaged file, a cell that is not 0 to 9) is moved aside as `autosave.json.bad` (or
//! `.bad.2`, … so that an earlier one is kept) rather than deleted, and the game starts fresh.

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
    /// The file is JSON of the right shape but not a game this version could have saved.
    #[error("{}: not a saved game: {message}", path.display())]
    Invalid {
        /// The autosave file.
        path: PathBuf,
        /// What is wrong.
        message: String,
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
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(AutosaveError::Io {
                path: path.to_owned(),
                source,
            })
        }
    };
    let game: SavedGame =
        serde_json::from_slice(&bytes).map_err(|source| AutosaveError::Format {
            path: path.to_owned(),
            source,
        })?;
    check(&game).map_err(|message| AutosaveError::Invalid {
        path: path.to_owned(),
        message,
    })?;
    Ok(Some(game))
}

/// What the game itself would never save: a cell outside 0 to 9, or a grid whose givens
/// differ from the puzzle's.
fn check(game: &SavedGame) -> Result<(), String> {
    let grid = |what: &str, grid: &Grid| -> Result<(), String> {
        for (r, row) in grid.0.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                if v > 9 {
                    return Err(format!("{what} has {v} in row {}, column {}", r + 1, c + 1));
                }
            }
        }
        Ok(())
    };
    grid("the puzzle", &game.givens)?;
    for id in ["initState", "currentState"] {
        let Some(value) = game.machine.data.get(id) else {
            return Err(format!("the machine has no `{id}`"));
        };
        let g: Grid = serde_json::from_value(value.clone())
            .map_err(|e| format!("the machine's `{id}`: {e}"))?;
        grid(&format!("the machine's `{id}`"), &g)?;
        for r in 0..9 {
            for c in 0..9 {
                let given = game.givens.0[r][c];
                if given != 0 && g.0[r][c] != given {
                    return Err(format!(
                        "the machine's `{id}` has {} where the puzzle gives {given} (row {}, column {})",
                        g.0[r][c],
                        r + 1,
                        c + 1
                    ));
                }
            }
        }
    }
    Ok(())
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

/// Moves an unreadable save out of the way, so that the next save does not overwrite what the
/// player might want to recover: to `autosave.json.bad`, or `autosave.json.bad.2`, … when
/// that exists. Returns where it went.
///
/// # Errors
/// [`AutosaveError::Io`] when the file cannot be moved (a read-only folder); it stays where it
/// is.
pub fn set_aside(path: &Path) -> Result<PathBuf, AutosaveError> {
    let bad = path.with_extension("json.bad");
    let target = std::iter::once(bad.clone())
        .chain((2..).map(|n| PathBuf::from(format!("{}.{n}", bad.display()))))
        .find(|p| !p.exists())
        .unwrap_or(bad);
    std::fs::rename(path, &target)
        .map(|()| target)
        .map_err(|source| AutosaveError::Io {
            path: path.to_owned(),
            source,
        })
}
