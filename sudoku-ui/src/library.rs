//! The puzzles the chooser lists: the bundled ones, then those the player opened or
//! generated, each with its level. The player's own (opened and generated) are kept across
//! runs in `library.json` next to the save; the last [`KEPT_GENERATED`] generated puzzles
//! are kept. Two windows may share the folder: each write first takes in what the other
//! stored, so neither loses the other's puzzles.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use slint::{SharedString, VecModel};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::game::LoadRequest;
use sudoku_machine::puzzle::Puzzle;

use crate::os_message::OsMessage;
use crate::store::{self, Read};

/// Generated puzzles kept in the chooser.
pub const KEPT_GENERATED: usize = 10;

/// Where a puzzle came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Shipped with the game.
    Bundled,
    /// Opened from a file.
    File,
    /// Made by the generator.
    Generated,
    /// Typed in by the player in edit mode.
    Mine,
}

/// One puzzle of the chooser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The puzzle, with its level.
    pub puzzle: Puzzle,
    /// Where it came from.
    pub source: Source,
}

impl Entry {
    /// What the chooser shows: `name · Level`.
    pub fn label(&self) -> String {
        match self.puzzle.level {
            Some(level) => format!("{} · {}", self.puzzle.name, level.label()),
            None => self.puzzle.name.clone(),
        }
    }
}

#[derive(Default, Serialize, Deserialize)]
struct Stored {
    puzzles: Vec<Entry>,
}

/// The chooser's puzzles and their labels, shared by the callbacks that read and extend it.
#[derive(Clone)]
pub struct Library {
    entries: Rc<RefCell<Vec<Entry>>>,
    labels: Rc<VecModel<SharedString>>,
    file: Option<PathBuf>,
    /// Stored puzzles that cannot be played: not listed, written back with the others.
    unlisted: Rc<RefCell<Vec<Entry>>>,
    on_store_error: Rc<RefCell<Option<StoreErrorHandler>>>,
}

/// Why a stored puzzle cannot be played, or `None`.
fn problem(entry: &Entry) -> Option<String> {
    LoadRequest {
        givens: entry.puzzle.givens,
        name: String::new(),
        level: None,
    }
    .problem()
}

/// What [`Library::on_store_error`] calls with the message for the window.
type StoreErrorHandler = Box<dyn Fn(String)>;

impl Library {
    /// The bundled `puzzles`, then the player's puzzles stored in `file` (if given). A file
    /// that cannot be read as puzzles is set aside (renamed `library.json.bad-N`, the last
    /// three kept) and the second value says so, for the window. A stored puzzle that cannot
    /// be played (a cell above 9, clashing givens: a hand-edited file) is not listed but kept
    /// in the file, and the second value names it.
    pub fn new(puzzles: Vec<Puzzle>, file: Option<PathBuf>) -> (Self, Option<String>) {
        let library = Library {
            entries: Rc::default(),
            labels: Rc::new(VecModel::default()),
            file,
            unlisted: Rc::default(),
            on_store_error: Rc::default(),
        };
        for puzzle in puzzles {
            library.push(Entry {
                puzzle,
                source: Source::Bundled,
            });
        }
        let (stored, mut notice) = library.read_stored();
        let refused = library.take_in(stored.puzzles);
        if !refused.is_empty() {
            let file = library
                .file
                .as_ref()
                .expect("stored puzzles come from a file");
            notice = Some(format!(
                "Puzzles in {} that cannot be played are not listed (they stay in the file): {}.",
                file.display(),
                refused.join("; ")
            ));
        }
        (library, notice)
    }

    /// Lists the stored `entries` this library does not list yet and keeps aside those that
    /// cannot be played; returns the newly kept-aside ones, as "“name”: why".
    fn take_in(&self, entries: Vec<Entry>) -> Vec<String> {
        let mut refused = Vec::new();
        for entry in entries {
            let givens = entry.puzzle.givens;
            if entry.source == Source::Bundled || self.index_of(&givens).is_some() {
                continue;
            }
            let Some(why) = problem(&entry) else {
                self.push(entry);
                continue;
            };
            let mut unlisted = self.unlisted.borrow_mut();
            if !unlisted.iter().any(|e| e.puzzle.givens == givens) {
                refused.push(format!("“{}”: {why}", entry.puzzle.name));
                unlisted.push(entry);
            }
        }
        refused
    }

    /// The stored puzzles, or none and a notice when the file is damaged.
    fn read_stored(&self) -> (Stored, Option<String>) {
        let Some(file) = &self.file else {
            return (Stored::default(), None);
        };
        match store::read::<Stored>(file) {
            Read::Missing => (Stored::default(), None),
            Read::Loaded(stored) => (stored, None),
            Read::Unreadable(e) => (
                Stored::default(),
                Some(format!(
                    "Your puzzles could not be read from {} ({}); the chooser lists the \
                     bundled ones only.",
                    file.display(),
                    OsMessage(&e)
                )),
            ),
            Read::Damaged { error, aside } => {
                let fate = store::fate(&aside);
                (
                    Stored::default(),
                    Some(format!(
                        "Your opened and generated puzzles could not be read from {} ({error}); {fate}.",
                        file.display()
                    )),
                )
            }
        }
    }

    fn push(&self, entry: Entry) {
        self.labels.push(entry.label().into());
        self.entries.borrow_mut().push(entry);
    }

    /// The labels, as the chooser's model.
    pub fn labels(&self) -> Rc<VecModel<SharedString>> {
        self.labels.clone()
    }

    /// The puzzle at `index`.
    pub fn get(&self, index: usize) -> Option<Puzzle> {
        self.entries.borrow().get(index).map(|e| e.puzzle.clone())
    }

    /// How many puzzles are listed.
    pub fn len(&self) -> usize {
        self.entries.borrow().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the puzzle with these givens.
    pub fn index_of(&self, givens: &Grid) -> Option<usize> {
        self.entries
            .borrow()
            .iter()
            .position(|e| e.puzzle.givens == *givens)
    }

    /// Calls `f` with a message for the player whenever the player's puzzles cannot be
    /// written to the library's file (they stay listed until the game is closed), or the file
    /// was found damaged when writing.
    pub fn on_store_error(&self, f: impl Fn(String) + 'static) {
        *self.on_store_error.borrow_mut() = Some(Box::new(f));
    }

    /// Adds a puzzle (unless one with the same givens is listed) and returns its index. The
    /// player's puzzles are stored, together with those another window on the same folder
    /// stored meanwhile (which this library then lists too).
    pub fn add(&self, puzzle: Puzzle, source: Source) -> usize {
        if let Some(index) = self.index_of(&puzzle.givens) {
            return index;
        }
        // The other window's puzzles first: they were added before this one.
        self.take_in_stored();
        if let Some(index) = self.index_of(&puzzle.givens) {
            return index;
        }
        let givens = puzzle.givens;
        self.push(Entry { puzzle, source });
        // Generated ones may have come from the other window too.
        self.forget_old_generated();
        self.store();
        self.index_of(&givens).expect("just added")
    }

    /// Lists the puzzles the file holds that this library does not: another window on the
    /// same save folder may have stored some since this one read the file, and writing
    /// without them would lose them. A file damaged meanwhile is set aside and reported.
    fn take_in_stored(&self) {
        let Some(file) = &self.file else { return };
        match store::read::<Stored>(file) {
            Read::Loaded(stored) => {
                self.take_in(stored.puzzles);
            }
            Read::Damaged { error, aside } => self.report(format!(
                "Your puzzles file {} was damaged ({error}); {}, and this window's puzzles \
                 are written anew.",
                file.display(),
                store::fate(&aside)
            )),
            // Nothing there yet, or nothing readable: the write says what is wrong.
            Read::Missing | Read::Unreadable(_) => {}
        }
    }

    /// Tells the player (stderr and the window) what went wrong with the file.
    fn report(&self, message: String) {
        eprintln!("sudoku: {message}");
        if let Some(f) = &*self.on_store_error.borrow() {
            f(message);
        }
    }

    fn forget_old_generated(&self) {
        let generated: Vec<usize> = self
            .entries
            .borrow()
            .iter()
            .enumerate()
            .filter(|(_, e)| e.source == Source::Generated)
            .map(|(i, _)| i)
            .collect();
        if generated.len() > KEPT_GENERATED {
            for &i in generated[..generated.len() - KEPT_GENERATED].iter().rev() {
                self.entries.borrow_mut().remove(i);
                self.labels.remove(i);
            }
        }
    }

    fn store(&self) {
        let Some(file) = &self.file else { return };
        let stored = Stored {
            puzzles: self
                .entries
                .borrow()
                .iter()
                .filter(|e| e.source != Source::Bundled)
                .chain(self.unlisted.borrow().iter())
                .cloned()
                .collect(),
        };
        let written = store::write(file, &stored);
        if let Err(e) = written {
            let message = format!(
                "Your puzzles cannot be kept in {} ({}); the chooser lists them until the \
                 game is closed.",
                file.display(),
                OsMessage(&e)
            );
            self.report(message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slint::Model;
    use sudoku_machine::engine::Level;

    fn puzzle(name: &str, seed: u8) -> Puzzle {
        let mut givens = Grid::default();
        givens.0[0][0] = seed % 9 + 1;
        givens.0[4][4] = 1 + (seed / 9) % 9;
        Puzzle {
            name: name.into(),
            givens,
            level: Some(Level::Hard),
        }
    }

    #[test]
    fn the_player_s_puzzles_are_kept_and_generated_ones_capped() {
        let file = std::env::temp_dir().join(format!("sudoku-library-{}.json", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let (lib, _) = Library::new(vec![puzzle("bundled", 0)], Some(file.clone()));
        assert_eq!(lib.labels().row_data(0).unwrap(), "bundled · Hard");
        assert_eq!(
            lib.add(puzzle("again", 0), Source::File),
            0,
            "same givens: listed once"
        );
        let mine = lib.add(puzzle("mine", 1), Source::File);
        for n in 0..KEPT_GENERATED as u8 + 3 {
            lib.add(puzzle(&format!("gen {n}"), 10 + n), Source::Generated);
        }
        assert_eq!(lib.len(), 2 + KEPT_GENERATED);
        let (again, notice) = Library::new(vec![puzzle("bundled", 0)], Some(file.clone()));
        assert_eq!(notice, None);
        assert_eq!(again.len(), 2 + KEPT_GENERATED);
        assert_eq!(again.get(mine).unwrap().name, "mine");
        assert_eq!(
            again.get(2).unwrap().name,
            "gen 3",
            "the oldest generated ones went"
        );
        // A damaged file is set aside and reported.
        std::fs::write(&file, "{ not puzzles").unwrap();
        let (damaged, notice) = Library::new(vec![puzzle("bundled", 0)], Some(file.clone()));
        assert_eq!(damaged.len(), 1);
        assert!(notice.unwrap().contains("could not be read"));
        assert!(file.with_extension("json.bad-1").exists());
        std::fs::remove_file(file.with_extension("json.bad-1")).unwrap();
    }

    #[test]
    fn two_windows_on_one_folder_keep_each_other_s_puzzles() {
        let file =
            std::env::temp_dir().join(format!("sudoku-library-two-{}.json", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let bundled = || vec![puzzle("bundled", 0)];
        let (first, _) = Library::new(bundled(), Some(file.clone()));
        let (second, _) = Library::new(bundled(), Some(file.clone()));
        let a = first.add(puzzle("first's", 1), Source::File);
        assert_eq!(first.get(a).unwrap().name, "first's");
        let b = second.add(puzzle("second's", 2), Source::Mine);
        assert_eq!(
            second.get(b).unwrap().name,
            "second's",
            "the index is the added one's"
        );
        assert!(
            second.index_of(&puzzle("", 1).givens).is_some(),
            "the second window lists what the first stored"
        );
        let (later, notice) = Library::new(bundled(), Some(file.clone()));
        assert_eq!(notice, None);
        let names: Vec<_> = (0..later.len())
            .map(|i| later.get(i).unwrap().name)
            .collect();
        assert_eq!(names, ["bundled", "first's", "second's"]);
        // A file damaged between two writes is set aside and said, and the write goes on.
        std::fs::write(&file, "{ damaged").unwrap();
        let heard = Rc::new(RefCell::new(Vec::new()));
        let h = heard.clone();
        first.on_store_error(move |message| h.borrow_mut().push(message));
        first.add(puzzle("third", 3), Source::File);
        assert_eq!(heard.borrow().len(), 1);
        assert!(
            heard.borrow()[0].contains("was damaged"),
            "{:?}",
            heard.borrow()
        );
        assert!(file.with_extension("json.bad-1").exists());
        let (after, notice) = Library::new(bundled(), Some(file.clone()));
        assert_eq!(notice, None);
        let names: Vec<_> = (0..after.len())
            .map(|i| after.get(i).unwrap().name)
            .collect();
        assert_eq!(
            names,
            ["bundled", "first's", "third"],
            "what the first window listed (the damaged file, with the second's, is kept aside)"
        );
        std::fs::remove_file(file.with_extension("json.bad-1")).unwrap();
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn the_cap_on_generated_puzzles_holds_across_two_windows() {
        let file =
            std::env::temp_dir().join(format!("sudoku-library-cap-{}.json", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let (first, _) = Library::new(vec![], Some(file.clone()));
        let (second, _) = Library::new(vec![], Some(file.clone()));
        second.add(puzzle("second's gen", 40), Source::Generated);
        for n in 0..KEPT_GENERATED as u8 {
            first.add(puzzle(&format!("gen {n}"), 10 + n), Source::Generated);
        }
        second.add(puzzle("opened", 60), Source::File);
        let Read::Loaded(back) = store::read::<Stored>(&file) else {
            panic!("written")
        };
        let generated = back
            .puzzles
            .iter()
            .filter(|e| e.source == Source::Generated);
        assert_eq!(
            generated.count(),
            KEPT_GENERATED,
            "the oldest generated one went"
        );
        assert!(!back.puzzles.iter().any(|e| e.puzzle.name == "second's gen"));
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn a_stored_puzzle_that_cannot_be_played_is_not_listed_but_kept() {
        let file = std::env::temp_dir().join(format!(
            "sudoku-library-unplayable-{}.json",
            std::process::id()
        ));
        let mut bad = puzzle("Evil", 1);
        bad.givens.0[8][8] = 200;
        let stored = Stored {
            puzzles: vec![
                Entry {
                    puzzle: bad,
                    source: Source::File,
                },
                Entry {
                    puzzle: puzzle("fine", 2),
                    source: Source::File,
                },
            ],
        };
        store::write(&file, &stored).unwrap();
        let (lib, notice) = Library::new(vec![], Some(file.clone()));
        let notice = notice.expect("the player is told");
        assert!(
            notice.starts_with("Puzzles in ")
                && notice.ends_with(
                    "(they stay in the file): “Evil”: the puzzle has a cell that is not a digit."
                ),
            "{notice}"
        );
        assert_eq!(lib.len(), 1);
        assert_eq!(lib.get(0).unwrap().name, "fine");
        lib.add(puzzle("new", 3), Source::Mine);
        let Read::Loaded(back) = store::read::<Stored>(&file) else {
            panic!("written back")
        };
        let names: Vec<_> = back
            .puzzles
            .iter()
            .map(|e| e.puzzle.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["fine", "new", "Evil"],
            "the unplayable one is not lost"
        );
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn a_puzzle_that_cannot_be_stored_is_reported_for_the_window() {
        // The library's folder is a plain file: nothing can be written under it.
        let blocker = std::env::temp_dir().join(format!("sudoku-blocker-{}", std::process::id()));
        std::fs::write(&blocker, "not a folder").unwrap();
        let (lib, notice) = Library::new(vec![], Some(blocker.join("library.json")));
        let notice = notice.expect("the file under a plain file cannot be read either");
        assert!(
            notice.contains("could not be read") && !notice.contains("os error"),
            "{notice}"
        );
        let heard = Rc::new(RefCell::new(Vec::new()));
        let h = heard.clone();
        lib.on_store_error(move |message| h.borrow_mut().push(message));
        let index = lib.add(puzzle("mine", 1), Source::Mine);
        assert_eq!(lib.get(index).unwrap().name, "mine", "still listed");
        let heard = heard.borrow();
        assert_eq!(heard.len(), 1);
        assert!(
            heard[0].starts_with("Your puzzles cannot be kept in "),
            "{}",
            heard[0]
        );
        assert!(!heard[0].contains("os error"), "{}", heard[0]);
        std::fs::remove_file(&blocker).unwrap();
    }
}
