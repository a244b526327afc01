//! Writing the puzzle being played (or, in edit mode, the one being typed) to a file of the player's choosing ("Save puzzle…"), in
//! a form that [`crate::read_puzzle_file`] and the `sudoku` command read back: Qt's `.data`
//! form for a name ending in `.data` (Qt's example reads it too), else one line of 81 cells
//! after a `#` comment naming the puzzle. Only the givens are written, not the player's
//! entries (the game in progress has its own save).

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use slint::{ComponentHandle, Model};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::game::Phase;
use sudoku_machine::puzzle::{to_line, to_qt_data, Puzzle};

use crate::library::Library;
use crate::open::chooser_available;
use crate::os_message::OsMessage;
use crate::show::phase_name;
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

/// The path the dialog starts from for `puzzle`: its [`suggested_path`] name, in the folder
/// and with the extension (`.data` or `.txt`) of the `last` path saved to (or typed) when
/// there is one.
pub fn suggested_after(last: &str, puzzle: &Puzzle) -> String {
    let suggested = suggested_path(puzzle);
    let last = last.trim();
    let Some(at) = last.rfind('/') else {
        return suggested;
    };
    let stem = suggested.trim_start_matches("~/").trim_end_matches(".txt");
    let data = Path::new(last)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("data"));
    format!(
        "{}/{stem}.{}",
        &last[..at],
        if data { "data" } else { "txt" }
    )
}

/// Writes `puzzle` to `path` (trimmed, a leading `~/` for the home folder). A new or replaced
/// file is written beside its final name and then renamed, so a failure leaves no
/// half-written file; a replaced file keeps its permissions, and a symbolic link is written
/// through (the file it names is replaced, the link stays). An existing file or link is
/// replaced only when `replace` is true. Returns the path written.
///
/// # Errors
///
/// [`SaveError::NoPath`] for an empty path, [`SaveError::Exists`] when the file exists and
/// `replace` is false, [`SaveError::Write`] when it cannot be written (a folder, a folder
/// that does not exist, no permission).
pub fn write_puzzle_file(
    puzzle: &Puzzle,
    path: impl AsRef<Path>,
    replace: bool,
) -> Result<PathBuf, SaveError> {
    use std::io::{Error, ErrorKind};
    let path = crate::open::expand_home(path.as_ref());
    if path.as_os_str().is_empty() {
        return Err(SaveError::NoPath);
    }
    let failed = |source| SaveError::Write {
        path: path.clone(),
        source,
    };
    if path.is_dir() {
        return Err(failed(Error::new(
            ErrorKind::IsADirectory,
            "it is a folder",
        )));
    }
    let link = path.symlink_metadata().ok();
    if link.is_some() && !replace {
        return Err(SaveError::Exists(path));
    }
    let text = puzzle_text(puzzle, &path);
    // Through a link to a file: that file is the one replaced.
    let target = match &link {
        Some(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(&path) {
            Ok(target) => target,
            // A link to nothing: writing through it creates the file it names.
            Err(_) => {
                return std::fs::write(&path, text)
                    .map(|()| path.clone())
                    .map_err(failed)
            }
        },
        _ => path.clone(),
    };
    let folder = match target.parent() {
        Some(f) if f.as_os_str().is_empty() => Path::new("."),
        Some(f) => f,
        None => Path::new("/"),
    };
    if !folder.is_dir() {
        return Err(failed(Error::new(
            ErrorKind::NotFound,
            format!("the folder {} does not exist", folder.display()),
        )));
    }
    let mut partial = target.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text).map_err(failed)?;
    let kept = std::fs::metadata(&target)
        .map(|meta| std::fs::set_permissions(&partial, meta.permissions()));
    let renamed = match kept {
        Ok(Err(e)) => Err(e),
        _ => std::fs::rename(&partial, &target),
    };
    renamed.map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        failed(e)
    })?;
    Ok(path)
}

/// The puzzle Save writes: in edit mode the givens typed so far (the cells the view marks as
/// givens), else the chooser's current puzzle.
fn shown_puzzle(game: &Game, library: &Library) -> Option<Puzzle> {
    let phase = game.get_phase();
    if phase == phase_name(Phase::Editing) || phase == phase_name(Phase::Reviewed) {
        let mut givens = Grid::default();
        for (i, cell) in game.get_cells().iter().enumerate().take(81) {
            if cell.given {
                givens.0[i / 9][i % 9] = u8::try_from(cell.value).unwrap_or(0);
            }
        }
        return Some(Puzzle {
            name: "My puzzle".into(),
            givens,
            level: None,
        });
    }
    usize::try_from(game.get_current_puzzle())
        .ok()
        .and_then(|i| library.get(i))
}

/// Binds the "Save the puzzle" dialog's callbacks: the puzzle saved is the one on the board
/// ([`shown_puzzle`]). A typed path that names an existing file is refused once and written when the player
/// presses Save again on the same path; a path from the desktop's chooser (which asks about
/// replacing by itself) is written at once.
pub(crate) fn bind(window: &AppWindow, library: &Library) {
    let game = window.global::<Game>();
    // The existing file the player was warned about, replaced if Save is pressed again.
    let warned: Rc<RefCell<Option<PathBuf>>> = Rc::default();
    let (w, lib, warn) = (window.as_weak(), library.clone(), warned.clone());
    let save = Rc::new(move |path: &str, replace: bool| {
        let Some(window) = w.upgrade() else { return };
        let game = window.global::<Game>();
        let Some(puzzle) = shown_puzzle(&game, &lib) else {
            game.set_save_error("no puzzle is being played".into());
            return;
        };
        if puzzle.givens.0.iter().flatten().all(|&d| d == 0) {
            game.set_save_error("the grid has no givens yet: type some first".into());
            return;
        }
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
        if let Some(puzzle) = shown_puzzle(&game, &lib) {
            let last = game.get_save_path();
            game.set_save_path(suggested_after(&last, &puzzle).into());
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
        let name = shown_puzzle(&game, &lib)
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
        assert_eq!(
            missing.to_string(),
            format!(
                "cannot write {}: the folder {} does not exist",
                dir.join("no/such/p.txt").display(),
                dir.join("no/such").display()
            )
        );
        assert!(matches!(
            write_puzzle_file(&puzzle(), " ", false),
            Err(SaveError::NoPath)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_asked_about_and_written_through_and_permissions_kept() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = std::env::temp_dir().join(format!("sudoku-export-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A link to nothing exists too: asked about, then the file it names is made.
        let dangling = dir.join("dangling.txt");
        symlink(dir.join("made.txt"), &dangling).unwrap();
        assert!(matches!(
            write_puzzle_file(&puzzle(), &dangling, false),
            Err(SaveError::Exists(_))
        ));
        write_puzzle_file(&puzzle(), &dangling, true).unwrap();
        assert!(dangling
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::read_to_string(dir.join("made.txt"))
            .unwrap()
            .contains(LINE));
        // A link to a file: the file is replaced (keeping its mode), the link stays.
        let file = dir.join("file.txt");
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.txt");
        symlink(&file, &link).unwrap();
        write_puzzle_file(&puzzle(), &link, true).unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert!(std::fs::read_to_string(&file).unwrap().contains(LINE));
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
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
        p.name = "Puzzle 02".into();
        assert_eq!(suggested_after("", &p), "~/Puzzle 02.txt");
        assert_eq!(
            suggested_after("/tmp/mine/Puzzle 01.data", &p),
            "/tmp/mine/Puzzle 02.data"
        );
        assert_eq!(suggested_after("~/Puzzle 01.txt", &p), "~/Puzzle 02.txt");
    }
}
