//! What the headless window tests share: the window on Slint's testing backend with a mock
//! clock, and a player's hands and eyes on it (widgets found by accessible label, keys sent as
//! a keyboard sends them, what the cells, buttons, status, clock and message say).

#![allow(dead_code, reason = "each test file uses its own part")]

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use i_slint_backend_testing::ElementHandle;
use slint::platform::{Key, WindowEvent};
use slint::{ComponentHandle, SharedString};
use sudoku_machine::puzzle::{parse, Puzzle};
use sudoku_ui::{Config, Game, Ui};

pub const NEARLY_SOLVED: &str = include_str!("../../../puzzles/nearly-solved-sudoku.data");
pub const QT: &str = include_str!("../../../puzzles/sudoku.data");

pub fn puzzle(name: &str, text: &str) -> Puzzle {
    Puzzle {
        name: name.into(),
        givens: parse(text).expect("bundled puzzle parses"),
        level: None,
    }
}

/// Qt's example first (so the game opens on it), then the nearly solved one.
pub fn puzzles() -> Vec<Puzzle> {
    vec![puzzle("qt", QT), puzzle("nearly solved", NEARLY_SOLVED)]
}

/// The test's real time, moved by hand with [`Harness::wait`].
pub struct Harness {
    pub ui: Ui,
    pub now: Rc<Cell<Duration>>,
}

pub fn start_with(puzzles: Vec<Puzzle>, save_dir: Option<PathBuf>) -> Harness {
    thread_local!(static BACKEND: () = i_slint_backend_testing::init_no_event_loop());
    BACKEND.with(|()| {});
    let now = Rc::new(Cell::new(Duration::ZERO));
    let clock = now.clone();
    let ui = sudoku_ui::init_with(
        puzzles,
        Config {
            save_dir,
            clock: Rc::new(move || clock.get()),
        },
    )
    .expect("window builds");
    ui.window().show().expect("window shows");
    Harness { ui, now }
}

pub fn start() -> Harness {
    start_with(puzzles(), None)
}

impl Harness {
    /// Lets `ms` of real time pass: the clock moves and Slint's timers fire.
    pub fn wait(&self, ms: u64) {
        for _ in 0..ms / 50 {
            self.now.set(self.now.get() + Duration::from_millis(50));
            i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(50));
        }
    }

    /// The one element with this accessible label.
    pub fn find(&self, label: &str) -> ElementHandle {
        let mut found = ElementHandle::find_by_accessible_label(self.ui.window(), label);
        let element = found
            .next()
            .unwrap_or_else(|| panic!("no element labelled {label:?}"));
        assert!(
            found.next().is_none(),
            "several elements labelled {label:?}"
        );
        element
    }

    pub fn exists(&self, label: &str) -> bool {
        ElementHandle::find_by_accessible_label(self.ui.window(), label)
            .next()
            .is_some()
    }

    pub fn press(&self, label: &str) {
        self.find(label).invoke_accessible_default_action();
    }

    /// Presses the open question's button that goes ahead (its label may also be a
    /// toolbar button's, as Stop's is).
    pub fn confirm(&self) {
        let mut found = ElementHandle::find_by_element_id(self.ui.window(), "ConfirmDialog::go");
        let button = found.next().expect("a question is open");
        assert!(found.next().is_none(), "one question at a time");
        button.invoke_accessible_default_action();
    }

    pub fn enabled(&self, label: &str) -> bool {
        self.find(label)
            .accessible_enabled()
            .expect("has accessible-enabled")
    }

    pub fn value(&self, label: &str) -> String {
        self.find(label)
            .accessible_value()
            .unwrap_or_default()
            .to_string()
    }

    pub fn cell(&self, row: usize, col: usize) -> ElementHandle {
        self.find(&format!("cell {row} {col}"))
    }

    pub fn click(&self, row: usize, col: usize) {
        self.cell(row, col).invoke_accessible_default_action();
    }

    pub fn digit(&self, row: usize, col: usize) -> String {
        self.cell(row, col)
            .accessible_value()
            .unwrap_or_default()
            .to_string()
    }

    /// The cell's marks as the window describes them (`entry, mistake, selected, notes 13`).
    pub fn marks(&self, row: usize, col: usize) -> String {
        self.cell(row, col)
            .accessible_description()
            .unwrap_or_default()
            .to_string()
    }

    pub fn key(&self, text: impl Into<SharedString>) {
        let text = text.into();
        let window = self.ui.window().window();
        window.dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
        window.dispatch_event(WindowEvent::KeyReleased { text });
    }

    pub fn ctrl(&self, text: &str, shift: bool) {
        let window = self.ui.window().window();
        let press = |k: SharedString| window.dispatch_event(WindowEvent::KeyPressed { text: k });
        let release = |k: SharedString| window.dispatch_event(WindowEvent::KeyReleased { text: k });
        press(Key::Control.into());
        if shift {
            press(Key::Shift.into());
        }
        press(text.into());
        release(text.into());
        if shift {
            release(Key::Shift.into());
        }
        release(Key::Control.into());
    }

    pub fn status(&self) -> String {
        self.value("Status")
    }

    pub fn message(&self) -> String {
        self.value("Message")
    }

    pub fn clock(&self) -> String {
        self.value("Clock")
    }

    pub fn game(&self) -> Game<'_> {
        self.ui.window().global::<Game>()
    }

    /// The first empty cells of Qt's puzzle, in reading order.
    pub fn empty(&self, n: usize) -> (usize, usize) {
        let g = parse(QT).unwrap();
        (0..81)
            .map(|i| (i / 9, i % 9))
            .filter(|&(r, c)| g.0[r][c] == 0)
            .nth(n)
            .unwrap()
    }
}

pub fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("sudoku-ui-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("temp file writes");
    path
}

pub fn save_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-ui-save-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
