//! Writing the puzzle being played to a file of the player's choosing ("Save puzzle…"), in
//! a form that [`crate::read_puzzle_file`] and the `sudoku` command read back: Qt's `.data`
//! form for a name ending in `.data` (Qt's example reads it too), else one line of 81 cells
//! after a `#` comment naming the puzzle. Only the givens are written, not the player's
//! entries (the game in progress has its own save).

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use slint::ComponentHandle;
use sudoku_machine::puzzle::{to_line, to_qt_data, Puzzle};

use crate::library::Library;
use crate::open::chooser_available;
use crate::os_message::OsMessage;
use crate::{AppWindow, Game};

/// Why a puzzle was not written. Its `Display` text is what the window shows.
#[derive(Debug)]
pub enum SaveError {
    /// No path was given.
    NoPath,
    /// The file exists; the player has not yet said to replace it.
    Exists(PathBuf),
    /// The file could not be written.
    Write {
        /// The file as given.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::NoPath => f.write_str("enter the path of the file to write"),
            SaveError::Exists(path) => write!(
                f,
                "{} exists already: Save again to replace it",
                path.display()
            ),
            SaveError::Write { path, source } => {
                write!(f, "cannot write {}: {}", path.display(), OsMessage(source))
            }
        }
    }
}

impl std::error::Error for SaveError {}

/// The text written for `puzzle` at `path` (see the [module docs](self)).
pub fn puzzle_text(puzzle: &Puzzle, path: &Path) -> String {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("data"))
    {
        return to_qt_data(&puzzle.givens);
    }
    let level = puzzle
        .level
        .map(|l| format!(" ({})", l.name()))
        .unwrap_or_default();
    // A name over several lines would end the comment early.
    let name: String = puzzle.name.chars().filter(|c| !c.is_control()).collect();
    format!("# {name}{level}\n{}\n", to_line(&puzzle.givens))
}

/// A file name for `puzzle` in the player's home folder, for the dialog to start from:
/// `~/<name>.txt`, with the characters a file name cannot hold replaced by `-`.
pub fn suggested_path(puzzle: &Puzzle) -> String {
    let stem: String = puzzle
        .name
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '-',
            c if c.is_control() => '-',
            c => c,
        })
        .collect();
    let stem = stem.trim();
    format!("~/{}.txt", if stem.is_empty() { "puzzle" } else { stem })
}

/// Writes `puzzle` to `path` (trimmed, a leading `~/` for the home folder). The file is
/// written beside its final name and then renamed, so a failure leaves no half-written
/// file. An existing file is replaced only when `replace` is true.
///
/// # Errors
///
/// [`SaveError::NoPath`] for an empty path, [`SaveError::Exists`] when the file exists and
/// `replace` is false, [`SaveError::Write`] when it cannot be written.
pub fn write_puzzle_file(
    puzzle: &Puzzle,
    path: impl AsRef<Path>,
    replace: bool,
) -> Result<PathBuf, SaveError> {
    let path = crate::open::expand_home(path.as_ref());
    if path.as_os_str().is_empty() {
        return Err(SaveError::NoPath);
    }
    let failed = |source| SaveError::Write {
        path: path.clone(),
        source,
    };
    if path.is_dir() {
        return Err(failed(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a folder",
        )));
    }
    if !replace && path.exists() {
        return Err(SaveError::Exists(path));
    }
    let mut partial = path.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, puzzle_text(puzzle, &path)).map_err(failed)?;
    std::fs::rename(&partial, &path).map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        failed(e)
    })?;
    Ok(path)
}

/// Binds the "Save the puzzle" dialog's callbacks: the puzzle saved is the chooser's current
/// one. A typed path that names an existing file is refused once and written when the player
/// presses Save again on the same path; a path from the desktop's chooser (which asks about
/// replacing by itself) is written at once.
pub(crate) fn bind(window: &AppWindow, library: &Library) {
    let game = window.global::<Game>();
    let current = |game: &Game, library: &Library| {
        usize::try_from(game.get_current_puzzle())
            .ok()
            .and_then(|i| library.get(i))
    };
    // The existing file the player was warned about, replaced if Save is pressed again.
    let warned: Rc<RefCell<Option<PathBuf>>> = Rc::default();
    let (w, lib, warn) = (window.as_weak(), library.clone(), warned.clone());
    let save = Rc::new(move |path: &str, replace: bool| {
        let Some(window) = w.upgrade() else { return };
        let game = window.global::<Game>();
        let Some(puzzle) = current(&game, &lib) else {
            game.set_save_error("no puzzle is being played".into());
            return;
        };
        let again = warn.borrow().as_deref() == Some(&*crate::open::expand_home(Path::new(path)));
        match write_puzzle_file(&puzzle, path, replace || again) {
            Ok(_) => {
                warn.take();
                game.set_save_error("".into());
                game.set_save_dialog_shown(false);
            }
            Err(error) => {
                *warn.borrow_mut() = match &error {
                    SaveError::Exists(path) => Some(path.clone()),
                    _ => None,
                };
                game.set_save_error(error.to_string().into());
            }
        }
    });
    let s = save.clone();
    game.on_save_file(move |path| s(path.as_str(), false));

    let (w, lib) = (window.as_weak(), library.clone());
    game.on_prepare_save(move || {
        let Some(window) = w.upgrade() else { return };
        let game = window.global::<Game>();
        warned.take();
        if let Some(puzzle) = current(&game, &lib) {
            if game.get_save_path().is_empty() {
                game.set_save_path(suggested_path(&puzzle).into());
            }
        }
    });

    let (w, lib) = (window.as_weak(), library.clone());
    game.on_browse_save(move || {
        let Some(window) = w.upgrade() else { return };
        let game = window.global::<Game>();
        if !chooser_available() {
            game.set_save_error(
                "No file chooser is available on this desktop (no XDG portal and no zenity): \
                 type the file's path above."
                    .into(),
            );
            return;
        }
        let name = current(&game, &lib)
            .map(|p| suggested_path(&p))
            .unwrap_or_default();
        let name = name.trim_start_matches("~/").to_owned();
        let dialog = rfd::AsyncFileDialog::new()
            .set_title("Save the puzzle")
            .set_file_name(name)
            .add_filter("Sudoku puzzles", &["txt", "data", "sdk"]);
        let (w, save) = (w.clone(), save.clone());
        let started = slint::spawn_local(async move {
            if let (Some(file), Some(window)) = (dialog.save_file().await, w.upgrade()) {
                let text = file.path().display().to_string();
                window.global::<Game>().set_save_path(text.as_str().into());
                save(&text, true);
            }
        });
        if let Err(e) = started {
            eprintln!("sudoku: the file chooser cannot run here: {e}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_machine::engine::Level;
    use sudoku_machine::puzzle::parse;

    const LINE: &str =
        "...26.7.168..7..9.19...45..82.1...4...46.29...5...3.28..93...74.4..5..367.3.18...";

    fn puzzle() -> Puzzle {
        Puzzle {
            name: "Puzzle 01".into(),
            givens: parse(LINE).unwrap(),
            level: Some(Level::Easy),
        }
    }

    #[test]
    fn both_forms_read_back() {
        let dir = std::env::temp_dir().join(format!("sudoku-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["p.data", "p.txt"] {
            let path = dir.join(name);
            let _ = std::fs::remove_file(&path);
            assert_eq!(write_puzzle_file(&puzzle(), &path, false).unwrap(), path);
            let back = crate::read_puzzle_file(&path).unwrap();
            assert_eq!(back.givens, puzzle().givens, "{name}");
            // A second save asks first, then replaces.
            let again = write_puzzle_file(&puzzle(), &path, false).unwrap_err();
            assert!(again
                .to_string()
                .ends_with("exists already: Save again to replace it"));
            write_puzzle_file(&puzzle(), &path, true).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(dir.join("p.txt")).unwrap(),
            format!("# Puzzle 01 (easy)\n{LINE}\n")
        );
        assert!(std::fs::read_to_string(dir.join("p.data"))
            .unwrap()
            .starts_with("0, 0, 0, 2, 6, 0, 7, 0, 1\n"));
        let folder = write_puzzle_file(&puzzle(), &dir, false).unwrap_err();
        assert_eq!(
            folder.to_string(),
            format!("cannot write {}: it is a folder", dir.display())
        );
        let missing = write_puzzle_file(&puzzle(), dir.join("no/such/p.txt"), false).unwrap_err();
        assert!(!missing.to_string().contains("os error"), "{missing}");
        assert!(matches!(
            write_puzzle_file(&puzzle(), " ", false),
            Err(SaveError::NoPath)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn suggested_names_are_file_names() {
        let mut p = puzzle();
        assert_eq!(suggested_path(&p), "~/Puzzle 01.txt");
        p.name = "a/b: c?".into();
        assert_eq!(suggested_path(&p), "~/a-b- c-.txt");
        p.name = " ".into();
        assert_eq!(suggested_path(&p), "~/puzzle.txt");
    }
}
