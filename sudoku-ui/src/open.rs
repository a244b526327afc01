//! Reading a player's own puzzle file: Qt's `.data` format or one line of 81 digits, typed
//! as a path or picked with the desktop's file chooser.
//!
//! Parsing is [`sudoku_machine::puzzle::parse`]'s job; this module only adds the file system
//! around it and an error that names the file.

use std::fmt;
use std::path::{Path, PathBuf};

use sudoku_machine::puzzle::{parse, Puzzle, PuzzleError};

use crate::os_message::OsMessage;

/// Why a puzzle file could not be opened. Its `Display` text is what the window shows.
#[derive(Debug)]
pub enum OpenError {
    /// No path was given.
    NoPath,
    /// The file could not be read.
    Read {
        /// The file as given.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file was read but holds no valid puzzle (malformed, or clashing givens).
    Puzzle {
        /// The file as given.
        path: PathBuf,
        /// The parser's message, which names the line.
        source: PuzzleError,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::NoPath => f.write_str("enter the path of a puzzle file"),
            OpenError::Read { path, source } if path.is_dir() => {
                let _ = source;
                write!(f, "{} is a folder, not a puzzle file", path.display())
            }
            OpenError::Read { path, source } => {
                write!(f, "cannot read {}: {}", path.display(), OsMessage(source))
            }
            OpenError::Puzzle { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::NoPath => None,
            OpenError::Read { source, .. } => Some(source),
            OpenError::Puzzle { source, .. } => Some(source),
        }
    }
}

/// Reads and parses the puzzle file at `path`; the puzzle is named after the file's stem and
/// has no level yet (the game grades it when it is loaded).
///
/// Surrounding whitespace is trimmed and a leading `~/` stands for `$HOME`, since the path
/// usually comes from a text field.
///
/// ```no_run
/// let puzzle = sudoku_ui::read_puzzle_file("~/puzzles/hard.data")?;
/// assert_eq!(puzzle.name, "hard");
/// # Ok::<(), sudoku_ui::OpenError>(())
/// ```
///
/// # Errors
///
/// [`OpenError::NoPath`] for an empty path, [`OpenError::Read`] when the file cannot be read,
/// [`OpenError::Puzzle`] when its contents are not a valid puzzle.
pub fn read_puzzle_file(path: impl AsRef<Path>) -> Result<Puzzle, OpenError> {
    let path = expand_home(path.as_ref());
    if path.as_os_str().is_empty() {
        return Err(OpenError::NoPath);
    }
    let bytes = read_small(&path).map_err(|source| OpenError::Read {
        path: path.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| OpenError::Puzzle {
        path: path.clone(),
        source: PuzzleError {
            line: 1,
            message: "the file is not text (UTF-8)".into(),
        },
    })?;
    let givens = parse(&text).map_err(|source| OpenError::Puzzle {
        path: path.clone(),
        source,
    })?;
    let name = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    Ok(Puzzle {
        name,
        givens,
        level: None,
    })
}

/// Asks the desktop's file chooser (the XDG portal on Linux, the system dialog on Windows and
/// macOS) for a puzzle file, without blocking the window: `picked` gets the path, or `None`
/// when the player cancelled or no chooser is available (then the typed path remains).
pub fn browse(picked: impl FnOnce(Option<PathBuf>) + 'static) {
    let dialog = rfd::AsyncFileDialog::new()
        .set_title("Open a puzzle file")
        .add_filter("Sudoku puzzles", &["data", "txt", "sdk"])
        .add_filter("All files", &["*"]);
    let started = slint::spawn_local(async move {
        let file = dialog.pick_file().await;
        picked(file.map(|f| f.path().to_path_buf()));
    });
    if let Err(e) = started {
        eprintln!("sudoku: the file chooser cannot run here: {e}");
    }
}

/// The most a puzzle file is read: one puzzle is a few hundred bytes, and a file of
/// thousands of puzzle lines (of which the game plays the first) still fits.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads a regular file of at most [`MAX_FILE_BYTES`]: a device (`/dev/zero`), a pipe or a
/// huge file is refused instead of filling the memory.
fn read_small(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(Error::new(ErrorKind::IsADirectory, "it is a folder"));
    }
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            "it is not a regular file",
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!(
                "it is larger than {} KiB, too large for a puzzle file",
                MAX_FILE_BYTES / 1024
            ),
        ));
    }
    Ok(bytes)
}

/// Whether a desktop file chooser can appear here: on Linux and the BSDs it needs the XDG
/// portal (a D-Bus session) or `zenity`; elsewhere the system always has one.
pub fn chooser_available() -> bool {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return true;
    }
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || std::env::var_os("PATH").is_some_and(|paths| {
            std::env::split_paths(&paths).any(|dir| dir.join("zenity").is_file())
        })
}

/// Trims the path and replaces a leading `~/` by the home directory, where one is known.
pub(crate) fn expand_home(path: &Path) -> PathBuf {
    let Some(text) = path.to_str() else {
        return path.to_path_buf();
    };
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return Path::new(&home).join(rest);
        }
    }
    PathBuf::from(text)
}
