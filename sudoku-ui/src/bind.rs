//! The glue between the window and the state machine, in the manner of Qt's `mainwindow.cpp`.
//!
//! `Game` callbacks become machine events (`submit_event`); machine notifications
//! (`connect_to_state`, `connect_to_event`) become `Game` property updates and single-row
//! updates of the 81-row cell model. No Sudoku rule is decided here: whether a tap counts,
//! what digit follows and whether the grid is solved is the chart's business.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::json;
use slint::{ComponentHandle, Model, SharedString, VecModel};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::puzzle::Puzzle;
use sudoku_machine::{events, State, Sudoku};
use sudoku_scxmlc::runtime::Event;

use crate::autosave::{self, SavedGame};
use crate::open::{read_puzzle_file, OpenError};
use crate::{AppWindow, CellData, Game};

/// The status text Qt's example shows for a solved grid.
pub const SOLVED_TEXT: &str = "SOLVED !!!";
/// The status text Qt's example shows otherwise.
pub const UNSOLVED_TEXT: &str = "unsolved";

/// The running game: the window and the state machine it drives.
///
/// Built by [`init`]. The machine's observers hold only a weak handle to the window, and the
/// window's callbacks hold the machine, so dropping the `Ui` and the window frees both.
pub struct Ui {
    window: AppWindow,
    machine: Sudoku,
    chooser: Chooser,
}

impl Ui {
    /// The Slint window.
    pub fn window(&self) -> &AppWindow {
        &self.window
    }

    /// The state machine behind the window.
    pub fn machine(&self) -> &Sudoku {
        &self.machine
    }

    /// Opens the puzzle file at `path`, adds it to the chooser, selects it and loads it (see
    /// [`load_puzzle`] for what happens to a game in progress).
    ///
    /// # Errors
    ///
    /// Returns the [`OpenError`] when the file cannot be read or parsed; the current game and
    /// the chooser are left as they were.
    pub fn open_puzzle_file(&self, path: impl AsRef<Path>) -> Result<(), OpenError> {
        let puzzle = read_puzzle_file(path)?;
        let index = self.chooser.add(puzzle);
        self.window
            .global::<Game>()
            .set_current_puzzle(index as i32);
        self.chooser.load(&self.machine, index);
        Ok(())
    }

    /// Like [`Ui::open_puzzle_file`], but on failure shows the "Open" dialog with the path and
    /// the error, as if the player had typed it. Meant for a file named on the command line.
    pub fn open_puzzle_file_or_show_error(&self, path: impl AsRef<Path>) {
        let path = path.as_ref();
        if let Err(error) = self.open_puzzle_file(path) {
            let game = self.window.global::<Game>();
            game.set_open_path(path.display().to_string().into());
            game.set_open_error(error.to_string().into());
            game.set_open_dialog_shown(true);
        }
    }

    /// Shows the window and runs the event loop until it is closed.
    ///
    /// # Errors
    ///
    /// Fails when the platform cannot create the window or run the event loop.
    pub fn run(&self) -> Result<(), slint::PlatformError> {
        self.window.run()
    }
}

/// Builds the window and the machine, connects them, loads the first puzzle and starts the
/// machine, like the constructor of Qt's `MainWindow` followed by `machine.start()`.
///
/// The chooser lists `puzzles` in the given order; the first is the initial grid (an empty
/// grid if there is none).
///
/// ```no_run
/// let puzzle = sudoku_ui::read_puzzle_file("puzzles/sudoku.data")?;
/// let ui = sudoku_ui::init(vec![puzzle])?;
/// ui.run()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// Fails when the platform cannot create the window.
///
/// # Panics
///
/// If the machine rejects a grid as its initial `initState`, which a [`Grid`] always is.
pub fn init(puzzles: Vec<Puzzle>) -> Result<Ui, slint::PlatformError> {
    init_with_autosave(puzzles, None)
}

/// Like [`init`], keeping the game in progress in the file `autosave` (see
/// [`crate::autosave`]): a game saved there is restored, with its puzzle selected in the
/// chooser (added if it came from a file), instead of loading the first puzzle; and every
/// change the machine shows (`updateGUI`) is saved. A save that cannot be restored is set
/// aside with a message on standard error, and the game starts fresh.
///
/// # Errors
///
/// Fails when the platform cannot create the window.
///
/// # Panics
///
/// If the machine rejects a grid as its initial `initState`, which a [`Grid`] always is.
pub fn init_with_autosave(
    puzzles: Vec<Puzzle>,
    autosave: Option<PathBuf>,
) -> Result<Ui, slint::PlatformError> {
    let window = AppWindow::new()?;
    let restored = autosave.as_deref().and_then(restore);
    let machine = restored
        .as_ref()
        .map_or_else(Sudoku::new, |(machine, _)| machine.clone());
    let game = window.global::<Game>();

    let cells = Rc::new(VecModel::from(vec![CellData::default(); 81]));
    game.set_cells(cells.clone().into());
    let chooser = Chooser::new(puzzles);
    if let Some((_, puzzle)) = &restored {
        chooser.current.set(chooser.add(puzzle.clone()));
    }
    game.set_puzzle_names(chooser.names.clone().into());
    game.set_current_puzzle(chooser.current.get() as i32);
    game.set_status(UNSOLVED_TEXT.into());

    bind_callbacks(&window, &machine, &chooser);
    observe_machine(&window, &machine, cells);
    if let Some(path) = autosave {
        keep_saving(&machine, &chooser, path);
    }

    if restored.is_some() {
        // The restored machine is running: its flags come from its configuration, and its
        // grid from the `updateGUI` that the chart's `update` event sends.
        game.set_playing(machine.is_active(State::Playing));
        let solved = machine.is_active(State::Solved);
        game.set_solved(solved);
        game.set_status(if solved { SOLVED_TEXT } else { UNSOLVED_TEXT }.into());
        machine.submit_event(events::UPDATE, ());
    } else {
        let initial = chooser.grid(0).unwrap_or(Grid([[0; 9]; 9]));
        machine
            .set_initial_values(json!({ "initState": initial }))
            .expect("a Grid is a valid initState");
        machine.start();
    }

    Ok(Ui {
        window,
        machine,
        chooser,
    })
}

/// The machine and puzzle saved at `path`, if there is a save that restores.
fn restore(path: &Path) -> Option<(Sudoku, Puzzle)> {
    let problem = match autosave::read(path) {
        Ok(None) => return None,
        Ok(Some(saved)) => match Sudoku::restore(&saved.machine) {
            Ok(machine) => return Some((machine, saved.puzzle())),
            Err(error) => format!("{}: {error}", path.display()),
        },
        Err(error) => error.to_string(),
    };
    match autosave::set_aside(path) {
        Ok(moved) => eprintln!(
            "sudoku: starting a new game; the saved game could not be restored ({problem}) and was moved to {}",
            moved.display()
        ),
        Err(error) => eprintln!(
            "sudoku: starting a new game; the saved game could not be restored ({problem}) nor moved aside ({error})"
        ),
    }
    None
}

/// Saves the game at `path` whenever the machine shows a change. A failure is reported once
/// on standard error; the game goes on.
fn keep_saving(machine: &Sudoku, chooser: &Chooser, path: PathBuf) {
    let weak = machine.downgrade();
    let chooser = chooser.clone();
    let mut reported = false;
    machine.connect_to_event(events::UPDATE_GUI, move |_| {
        let Some(machine) = weak.upgrade() else {
            return;
        };
        let Some(puzzle) = chooser.puzzle(chooser.current.get()) else {
            return;
        };
        let result = machine
            .snapshot()
            .map_err(|e| e.to_string())
            .and_then(|snapshot| {
                let game = SavedGame {
                    puzzle: puzzle.name,
                    givens: puzzle.givens,
                    machine: snapshot,
                };
                autosave::write(&path, &game).map_err(|e| e.to_string())
            });
        if let Err(error) = result {
            if !reported {
                eprintln!("sudoku: cannot save the game: {error}");
                reported = true;
            }
        }
    });
}

/// Hands the puzzle's grid to the machine with `setup`. The chart ignores `setup` while
/// `playing` (Qt's example simply submits it); here a game in progress is stopped first so
/// that choosing a puzzle always shows it.
pub fn load_puzzle(machine: &Sudoku, grid: &Grid) {
    if machine.is_active(State::Playing) {
        machine.submit_event(events::STOP, ());
    }
    machine.submit_event(events::SETUP, json!({ "initState": grid }));
}

/// `Game` callbacks → machine events.
fn bind_callbacks(window: &AppWindow, machine: &Sudoku, chooser: &Chooser) {
    let game = window.global::<Game>();

    let m = machine.clone();
    game.on_cell_tapped(move |row, col| {
        m.submit_event(events::TAP, json!({ "x": row, "y": col }));
    });

    let m = machine.clone();
    game.on_start_stop(move || {
        if m.is_active(State::Playing) {
            m.submit_event(events::STOP, ());
        } else {
            m.submit_event(events::START, ());
        }
    });

    let m = machine.clone();
    game.on_undo(move || m.submit_event(events::UNDO, ()));

    let m = machine.clone();
    let c = chooser.clone();
    game.on_puzzle_chosen(move |index| {
        if let Ok(index) = usize::try_from(index) {
            c.load(&m, index);
        }
    });

    let m = machine.clone();
    let c = chooser.clone();
    let w = window.as_weak();
    game.on_open_file(move |path| {
        let Some(window) = w.upgrade() else { return };
        let game = window.global::<Game>();
        match read_puzzle_file(path.as_str()) {
            Ok(puzzle) => {
                let index = c.add(puzzle);
                game.set_current_puzzle(index as i32);
                game.set_open_error(SharedString::new());
                game.set_open_dialog_shown(false);
                c.load(&m, index);
            }
            Err(error) => game.set_open_error(error.to_string().into()),
        }
    });
}

/// Machine notifications → `Game` properties and cell rows. Like Qt's connections, these
/// observers live as long as the machine.
fn observe_machine(window: &AppWindow, machine: &Sudoku, cells: Rc<VecModel<CellData>>) {
    let w = window.as_weak();
    machine.connect_to_state(State::Playing, move |playing| {
        if let Some(window) = w.upgrade() {
            window.global::<Game>().set_playing(playing);
        }
    });

    let w = window.as_weak();
    machine.connect_to_state(State::Solved, move |solved| {
        if let Some(window) = w.upgrade() {
            let game = window.global::<Game>();
            game.set_solved(solved);
            game.set_status(if solved { SOLVED_TEXT } else { UNSOLVED_TEXT }.into());
        }
    });

    machine.connect_to_event(events::UPDATE_GUI, move |event: &Event| {
        show_grid(&cells, event)
    });
}

/// Copies the `currentState` and `initState` of an `updateGUI` event into the cell model,
/// touching only the rows that changed.
fn show_grid(cells: &VecModel<CellData>, event: &Event) {
    let grids = event
        .param::<Grid>("currentState")
        .and_then(|current| Ok((current, event.param::<Grid>("initState")?)));
    let (current, init) = match grids {
        Ok(grids) => grids,
        Err(error) => {
            eprintln!("sudoku-ui: ignoring an updateGUI event without grids: {error}");
            return;
        }
    };
    for (index, (row, col)) in (0..9).flat_map(|r| (0..9).map(move |c| (r, c))).enumerate() {
        let cell = CellData {
            value: i32::from(current.0[row][col]),
            given: init.0[row][col] != 0,
        };
        if cells.row_data(index).as_ref() != Some(&cell) {
            cells.set_row_data(index, cell);
        }
    }
}

/// The puzzles behind the chooser, shared by the callbacks that read and extend it.
#[derive(Clone)]
struct Chooser {
    puzzles: Rc<RefCell<Vec<Puzzle>>>,
    names: Rc<VecModel<SharedString>>,
    /// The puzzle last loaded.
    current: Rc<Cell<usize>>,
}

impl Chooser {
    fn new(puzzles: Vec<Puzzle>) -> Self {
        let names: Vec<SharedString> = puzzles
            .iter()
            .map(|p| SharedString::from(&p.name))
            .collect();
        Chooser {
            puzzles: Rc::new(RefCell::new(puzzles)),
            names: Rc::new(VecModel::from(names)),
            current: Rc::new(Cell::new(0)),
        }
    }

    fn grid(&self, index: usize) -> Option<Grid> {
        self.puzzles.borrow().get(index).map(|p| p.givens)
    }

    fn puzzle(&self, index: usize) -> Option<Puzzle> {
        self.puzzles.borrow().get(index).cloned()
    }

    /// Adds a puzzle and returns its index; a puzzle already listed under the same name with
    /// the same givens is not added twice.
    fn add(&self, puzzle: Puzzle) -> usize {
        let mut puzzles = self.puzzles.borrow_mut();
        if let Some(index) = puzzles
            .iter()
            .position(|p| p.name == puzzle.name && p.givens == puzzle.givens)
        {
            return index;
        }
        self.names.push(SharedString::from(&puzzle.name));
        puzzles.push(puzzle);
        puzzles.len() - 1
    }

    fn load(&self, machine: &Sudoku, index: usize) {
        if let Some(grid) = self.grid(index) {
            self.current.set(index);
            load_puzzle(machine, &grid);
        }
    }
}
