//! The player's records across games (games solved per level, best and average times), kept
//! in `records.json` beside the save, and the Statistics dialog that shows them.
//!
//! The chart says how each game ended (`game.over`, a [`GameOver`]); what counts as help and
//! which time is a record is [`sudoku_machine::game::records`]' business. The window only
//! keeps the file and shows the table: after a solved game with the game's summary on top,
//! and from Game → Statistics….

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use slint::{ComponentHandle, SharedString, VecModel};
use sudoku_machine::engine::Level;
use sudoku_machine::events;
use sudoku_machine::game::records::summary;
use sudoku_machine::game::{clock_text, Ending, GameOver, LevelRecord, Recorded, Records};
use sudoku_scxmlc::runtime::Event;

use crate::os_message::OsMessage;
use crate::store::{self, Read};
use crate::{AppWindow, Game, StatRow};

/// The records and the dialog's rows, shared by the callbacks that read and extend them.
#[derive(Clone)]
pub struct RecordBook {
    records: Rc<RefCell<Records>>,
    rows: Rc<VecModel<StatRow>>,
    file: Option<PathBuf>,
    /// Whether this window writes the file (only the window that holds the save folder does).
    keeps: bool,
}

impl RecordBook {
    /// The records kept in `file` (none kept without one). A file that cannot be read as
    /// records is set aside (`records.json.bad-N`, the last three kept) and the second value says so, for the
    /// window; the records then start again from nothing.
    pub fn new(file: Option<PathBuf>) -> (Self, Option<String>) {
        Self::open(file, true)
    }

    /// The records kept in `file`, shown but never written: a second window on the same
    /// save folder shows the player's records while the first one keeps them. Its own
    /// games are counted until it is closed.
    pub fn read_only(file: PathBuf) -> (Self, Option<String>) {
        Self::open(Some(file), false)
    }

    fn open(file: Option<PathBuf>, keeps: bool) -> (Self, Option<String>) {
        let (records, notice) = match &file {
            None => (Records::default(), None),
            Some(file) => match store::read::<Records>(file) {
                Read::Missing => (Records::default(), None),
                Read::Loaded(mut records) => {
                    records.tidy();
                    (records, None)
                }
                Read::Unreadable(e) => (
                    Records::default(),
                    Some(format!(
                        "Your records could not be read from {} ({}); this session's games \
                         are counted from nothing.",
                        file.display(),
                        OsMessage(&e)
                    )),
                ),
                Read::Damaged { error, aside } => (
                    Records::default(),
                    Some(format!(
                        "Your records could not be read from {} ({error}); {}.",
                        file.display(),
                        store::fate(&aside)
                    )),
                ),
            },
        };
        let book = RecordBook {
            rows: Rc::new(VecModel::from(rows(&records))),
            records: Rc::new(RefCell::new(records)),
            file,
            keeps,
        };
        (book, notice)
    }

    /// The records so far.
    pub fn records(&self) -> Records {
        self.records.borrow().clone()
    }

    /// The dialog's rows: one per level played, easiest first.
    pub fn rows(&self) -> Rc<VecModel<StatRow>> {
        self.rows.clone()
    }

    /// Adds a game that ended and keeps the records in the file.
    ///
    /// # Errors
    /// When the file cannot be written, the message for the window (the game is still
    /// counted until the window is closed).
    pub fn add(&self, game: &GameOver) -> (Recorded, Result<(), String>) {
        let recorded = self.records.borrow_mut().add(game);
        self.rows.set_vec(rows(&self.records.borrow()));
        let Some(file) = self.file.as_ref().filter(|_| self.keeps) else {
            return (recorded, Ok(()));
        };
        let stored = store::write(file, &*self.records.borrow()).map_err(|e| {
            format!(
                "Your records cannot be kept in {} ({}); this game counts until the game is \
                 closed.",
                file.display(),
                OsMessage(&e)
            )
        });
        (recorded, stored)
    }

    /// Forgets every level's counts and times and keeps the empty records in the file.
    ///
    /// # Errors
    /// When the file cannot be written, the message for the window (the records shown are
    /// empty until the window is closed; the file keeps the old ones). A
    /// [`read_only`](Self::read_only) book resets nothing and says where to do it.
    pub fn reset(&self) -> Result<(), String> {
        if !self.keeps {
            return Err("Another Sudoku window keeps your records: reset them there.".into());
        }
        *self.records.borrow_mut() = Records::default();
        self.rows.set_vec(Vec::new());
        let Some(file) = &self.file else {
            return Ok(());
        };
        store::write(file, &Records::default()).map_err(|e| {
            format!(
                "Your records cannot be reset in {} ({}); they are hidden until the game is \
                 closed.",
                file.display(),
                OsMessage(&e)
            )
        })
    }
}

/// The table's rows for `records`.
fn rows(records: &Records) -> Vec<StatRow> {
    records.levels.iter().map(row).collect()
}

fn row(r: &LevelRecord) -> StatRow {
    let level = r.level.map_or("Ungraded", Level::label);
    let time = |t: Option<u64>| SharedString::from(t.map_or("–".to_owned(), clock_text));
    StatRow {
        level: level.into(),
        solved: r.solved.to_string().into(),
        unaided: r.unaided.to_string().into(),
        best: time(r.best),
        average: time(r.average()),
        revealed: r.revealed.to_string().into(),
    }
}

/// Counts each game that ends, shows the Statistics dialog after a solved one, and forgets
/// the records when the player confirms "Reset statistics".
/// `on_store_error` hears the message when the records cannot be written.
pub(crate) fn bind(
    window: &AppWindow,
    machine: &sudoku_machine::Sudoku,
    book: &RecordBook,
    on_store_error: impl Fn(&str) + 'static,
) {
    let game = window.global::<Game>();
    game.set_stats_rows(book.rows().into());
    let on_store_error = Rc::new(on_store_error);
    let (b, heard) = (book.clone(), on_store_error.clone());
    game.on_reset_records(move || {
        if let Err(message) = b.reset() {
            eprintln!("sudoku: {message}");
            heard(&message);
        }
    });
    let (w, book) = (window.as_weak(), book.clone());
    machine.connect_to_event(events::GAME_OVER, move |event: &Event| {
        let over = match event.param::<GameOver>("result") {
            Ok(over) => over,
            Err(error) => {
                eprintln!("sudoku-ui: ignoring a game.over without a result: {error}");
                return;
            }
        };
        let (recorded, stored) = book.add(&over);
        if let Err(message) = stored {
            eprintln!("sudoku: {message}");
            on_store_error(&message);
        }
        if over.outcome == Ending::Solved {
            if let Some(window) = w.upgrade() {
                let game = window.global::<Game>();
                game.set_stats_headline(summary(&over, recorded).into());
                game.set_stats_shown(true);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use slint::Model;

    fn solved(level: Option<Level>, seconds: u64) -> GameOver {
        GameOver {
            outcome: Ending::Solved,
            puzzle: "p".into(),
            level,
            seconds,
            hints: 0,
            solution_checked: false,
        }
    }

    #[test]
    fn records_are_kept_across_runs_and_a_damaged_file_is_set_aside() {
        let dir = std::env::temp_dir().join(format!("sudoku-records-{}", std::process::id()));
        let file = dir.join("records.json");
        let (book, notice) = RecordBook::new(Some(file.clone()));
        assert!(notice.is_none() && book.rows().row_count() == 0);
        let (recorded, stored) = book.add(&solved(Some(Level::Hard), 245));
        assert_eq!(recorded, Recorded::NewBest { previous: None });
        assert!(stored.is_ok());
        assert!(book.add(&solved(None, 30)).1.is_ok());

        let (again, notice) = RecordBook::new(Some(file.clone()));
        assert!(notice.is_none());
        assert_eq!(again.records(), book.records());
        let hard = again.rows().row_data(0).unwrap();
        assert_eq!(
            (
                hard.level.as_str(),
                hard.solved.as_str(),
                hard.best.as_str()
            ),
            ("Hard", "1", "4:05")
        );
        assert_eq!(again.rows().row_data(1).unwrap().level, "Ungraded");

        std::fs::write(&file, "{\"levels\": 7}").unwrap();
        let (damaged, notice) = RecordBook::new(Some(file.clone()));
        let notice = notice.unwrap();
        assert!(
            notice.starts_with("Your records could not be read from ")
                && notice.contains("records.json.bad-1"),
            "{notice}"
        );
        assert_eq!(damaged.records(), Records::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn records_that_cannot_be_written_are_counted_and_reported() {
        let blocker =
            std::env::temp_dir().join(format!("sudoku-records-blocker-{}", std::process::id()));
        std::fs::write(&blocker, "not a folder").unwrap();
        let (book, _) = RecordBook::new(Some(blocker.join("records.json")));
        let (_, stored) = book.add(&solved(Some(Level::Easy), 60));
        let message = stored.unwrap_err();
        assert!(
            message.starts_with("Your records cannot be kept in ") && !message.contains("os error"),
            "{message}"
        );
        assert_eq!(book.records().levels[0].solved, 1, "still counted");
        std::fs::remove_file(&blocker).unwrap();
    }
}
