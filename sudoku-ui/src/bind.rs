//! The glue between the window and the state machine, in the manner of Qt's `mainwindow.cpp`.
//!
//! `Game` callbacks become machine events ([`Session::submit`]); machine notifications (the
//! typed `updateGUI`/`view` through `observe`, the others through `connect_to_event`) become
//! `Game` properties ([`show`]). No Sudoku rule is decided here:
//! whether a click counts, what a button means and whether the grid is solved is the chart's
//! business. The window also hosts the services the chart asks for: the puzzle generator
//! ([`Worker`]), the file chooser and the puzzle library.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use scxml_chart_view::ChartMonitor;
use serde_json::{json, Value};
use slint::{ComponentHandle, VecModel};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::Level;
use sudoku_machine::game::{Phase, View, ViewUpdate};
use sudoku_machine::puzzle::Puzzle;
use sudoku_machine::{events, Event as GameEvent, Sudoku};
use sudoku_scxmlc::runtime::Event;

use crate::autosave::{Autosave, AutosaveError};
use crate::library::{Library, Source};
use crate::open::{browse, chooser_available, read_puzzle_file, OpenError};
use crate::records::RecordBook;
use crate::session::{self, real_clock, Clock, Session};
use crate::show::{glossary, show};
use crate::worker::Worker;
use crate::{keys, AppWindow, CellData, ChartRow, Game};

/// How the window is set up: where the game is saved and which clock it runs on.
#[derive(Clone)]
pub struct Config {
    /// The save folder (see [`crate::autosave`]); `None` plays without saving.
    pub save_dir: Option<PathBuf>,
    /// Real time, for the game's clock ([`real_clock`] by default).
    pub clock: Clock,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            save_dir: None,
            clock: real_clock(),
        }
    }
}

/// The running game: the window, the session (machine, clock, save) and the services.
///
/// Built by [`init`]. The machine's observers hold only weak handles to the window.
pub struct Ui {
    window: AppWindow,
    session: Session,
    library: Library,
    records: RecordBook,
    worker: Worker,
    /// Feeds the live chart view.
    _chart: ChartMonitor,
}

/// A shown Slint window keeps itself alive, and with it the callbacks that hold the
/// session: hiding it on drop lets the session (and its save folder's lock) go.
impl Drop for Ui {
    fn drop(&mut self) {
        let _ = self.window.hide();
    }
}

impl Ui {
    /// The Slint window.
    pub fn window(&self) -> &AppWindow {
        &self.window
    }

    /// The state machine behind the window.
    pub fn machine(&self) -> &Sudoku {
        self.session.machine()
    }

    /// The session: the machine with its clock and save.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The player's records (games solved, best times), as kept in `records.json`.
    pub fn records(&self) -> sudoku_machine::game::Records {
        self.records.records()
    }

    /// Whether a puzzle is being generated now.
    pub fn generating(&self) -> bool {
        self.worker.busy()
    }

    /// Opens the puzzle file at `path`, adds it to the chooser and asks the machine to play
    /// it (which asks the player first when a game is in progress).
    ///
    /// # Errors
    ///
    /// Returns the [`OpenError`] when the file cannot be read or parsed; the current game and
    /// the chooser are left as they were.
    pub fn open_puzzle_file(&self, path: impl AsRef<Path>) -> Result<(), OpenError> {
        open_file(&self.session, &self.library, path.as_ref())
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

/// Builds the window and the machine without saving, with the first of `puzzles` loaded and
/// ready to play.
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
pub fn init(puzzles: Vec<Puzzle>) -> Result<Ui, slint::PlatformError> {
    init_with(puzzles, Config::default())
}

/// Like [`init`], keeping the game in the save folder `dir` (see [`crate::autosave`]): the
/// saved game is restored, with its puzzle selected in the chooser, instead of loading the
/// first puzzle, and every event is saved. A save that cannot be restored is set aside and
/// the window says so.
///
/// # Errors
///
/// Fails when the platform cannot create the window.
pub fn init_with_autosave(
    puzzles: Vec<Puzzle>,
    dir: Option<PathBuf>,
) -> Result<Ui, slint::PlatformError> {
    init_with(
        puzzles,
        Config {
            save_dir: dir,
            ..Config::default()
        },
    )
}

/// Builds the window as `config` says; see [`init`] and [`init_with_autosave`].
///
/// # Errors
///
/// Fails when the platform cannot create the window.
///
/// # Panics
///
/// If the machine rejects the first puzzle as its initial value, which a [`Grid`] never is.
pub fn init_with(puzzles: Vec<Puzzle>, config: Config) -> Result<Ui, slint::PlatformError> {
    let window = AppWindow::new()?;
    let game = window.global::<Game>();
    let (library, library_notice) = Library::new(
        puzzles,
        config.save_dir.as_ref().map(|d| d.join("library.json")),
    );

    let (save, restored, notice) = match &config.save_dir {
        Some(dir) => open_save(dir),
        None => (None, None, None),
    };
    // The records are the folder's: only the window that holds it (its save) keeps them, so
    // that a second window cannot write over the first one's games; that one shows them.
    let (records, records_notice) = match &config.save_dir {
        Some(dir) if save.is_some() => RecordBook::new(Some(dir.join("records.json"))),
        Some(dir) => RecordBook::read_only(dir.join("records.json")),
        None => RecordBook::new(None),
    };
    let fresh = restored.is_none();
    let machine = restored.unwrap_or_else(|| {
        let machine = Sudoku::new();
        let first = library.get(0).unwrap_or(Puzzle {
            name: String::new(),
            givens: Grid::default(),
            level: None,
        });
        machine
            .set_initial_values(json!({
                "initState": first.givens,
                "autoplay": true,
                "puzzle": { "name": first.name, "level": first.level },
            }))
            .expect("a Grid, a bool and a name are valid initial values");
        machine
    });
    let session = Session::new(machine, save, config.clock.clone());
    let worker = Worker::default();

    let cells = Rc::new(VecModel::from(vec![CellData::default(); 81]));
    game.set_cells(cells.clone().into());
    game.set_puzzle_names(library.labels().into());
    game.set_glossary(glossary());
    for notice in notice.iter().chain(&library_notice).chain(&records_notice) {
        add_notice(&game, notice);
    }
    let w = window.as_weak();
    library.on_store_error(move |message| {
        if let Some(window) = w.upgrade() {
            add_notice(&window.global::<Game>(), &message);
        }
    });
    let w = window.as_weak();
    session.on_save_error(move |message| {
        if let Some(window) = w.upgrade() {
            add_notice(&window.global::<Game>(), &message);
        }
    });

    let phase = Rc::new(RefCell::new(Phase::Unsolved));
    let out_of_view = Rc::new(OutOfView::default());
    observe(
        &window,
        &session,
        &library,
        &worker,
        cells,
        phase.clone(),
        out_of_view.clone(),
    );
    bind_callbacks(&window, &session, &library, phase, out_of_view);
    crate::export::bind(&window, &library);
    let w = window.as_weak();
    crate::records::bind(&window, session.machine(), &records, move |message| {
        if let Some(window) = w.upgrade() {
            add_notice(&window.global::<Game>(), message);
        }
    });

    let s = session.clone();
    window.window().on_close_requested(move || {
        s.compact();
        slint::CloseRequestResponse::HideWindow
    });

    if fresh {
        session.machine().start();
        session.compact();
        session.resume_timers();
    } else {
        session.compact();
        session.resume_timers();
        session.submit(events::RESUMED, Value::Null);
        session.submit(events::WINDOW_SHOWN, Value::Null);
        // The journal's replay updated a screen nobody saw: the window asks for all of it.
        session.submit(events::REDRAW, Value::Null);
    }

    let chart = watch_chart(&window, session.machine());
    Ok(Ui {
        window,
        session,
        library,
        records,
        worker,
        _chart: chart,
    })
}

/// Opens the save folder: the machine of the saved game, and what to tell the player (a
/// save that could not be used is set aside; a damaged journal is replayed up to the damage
/// and a copy kept; a folder another window holds is left alone and this window plays
/// unsaved).
fn open_save(dir: &Path) -> (Option<Autosave>, Option<Sudoku>, Option<String>) {
    let (mut save, found) = match Autosave::open(dir) {
        Ok(opened) => opened,
        Err(AutosaveError::Busy { path }) => {
            let notice = format!(
                "Another Sudoku window is playing the game saved in {}. This window starts a \
                 new game and does not save it, nor count it in your records, so that the two \
                 cannot overwrite each other; puzzles you open or generate here are kept.",
                path.display()
            );
            eprintln!("sudoku: {notice}");
            return (None, None, Some(notice));
        }
        Err(error) => {
            let notice = format!(
                "Your saved game cannot be opened ({error}). A new game was started; it is not \
                 saved."
            );
            eprintln!("sudoku: {notice}");
            return (None, None, Some(notice));
        }
    };
    let problem = match found {
        Ok(None) => return (Some(save), None, None),
        Ok(Some(restored)) => match session::restore(&restored) {
            Ok(machine) => {
                let notice = restored.damage.map(|(path, line, reason)| {
                    let kept = match save.keep_damaged_journal() {
                        Ok(copy) => format!("a copy was kept as {}", copy.display()),
                        Err(e) => format!("no copy could be kept ({e})"),
                    };
                    format!(
                        "Your saved game was restored up to the moves before line {line} of {}, \
                         which is damaged ({reason}); moves after it are lost, and {kept}.",
                        path.display()
                    )
                });
                if let Some(notice) = &notice {
                    eprintln!("sudoku: {notice}");
                }
                return (Some(save), Some(machine), notice);
            }
            Err(problem) => format!(
                "{}: {problem}",
                dir.join(crate::autosave::SNAPSHOT).display()
            ),
        },
        Err(AutosaveError::Invalid { path, message }) => format!("{}: {message}", path.display()),
        Err(e) => e.to_string(),
    };
    let (notice, keep_saving) = match save.set_aside() {
        Ok(Some(moved)) => (
            format!(
                "Your saved game could not be restored ({problem}). It was moved to {} and a \
                 new game was started.",
                moved.display()
            ),
            true,
        ),
        Ok(None) => (
            format!("Your saved game could not be restored ({problem}). A new game was started."),
            true,
        ),
        Err(error) => (
            format!(
                "Your saved game could not be restored ({problem}), nor moved aside ({error}). \
                 A new game was started, which is not saved so that it cannot overwrite the \
                 old one."
            ),
            false,
        ),
    };
    eprintln!("sudoku: {notice}");
    (keep_saving.then_some(save), None, Some(notice))
}

/// Shows `notice` in the window, after any notice already shown.
fn add_notice(game: &Game, notice: &str) {
    let shown = game.get_notice();
    if shown.is_empty() {
        game.set_notice(notice.into());
    } else if !shown.contains(notice) {
        game.set_notice(format!("{shown}\n\n{notice}").into());
    }
}

/// Machine notifications → the window, and the chart's requests → the services.
/// What the window last told the machine about its board being out of view: covered by a
/// dialog of the window's own, or the window minimised.
#[derive(Default)]
struct OutOfView {
    covered: Cell<bool>,
    minimized: Cell<bool>,
}

#[allow(
    clippy::too_many_arguments,
    reason = "the window's parts the observer updates, each shared with a callback"
)]
fn observe(
    window: &AppWindow,
    session: &Session,
    library: &Library,
    worker: &Worker,
    cells: Rc<VecModel<CellData>>,
    phase: Rc<RefCell<Phase>>,
    out_of_view: Rc<OutOfView>,
) {
    let machine = session.machine();
    let w = window.as_weak();
    let weak = session.downgrade();
    let lib = library.clone();
    let current = Rc::new(RefCell::new(None::<Grid>));
    // The screen as the updates so far left it.
    let screen = Rc::new(RefCell::new(View::default()));
    // `updateGUI` and `view` are typed (their `<param>`s have Rust types): what changed of
    // the view arrives as the machine built it, without JSON, and is applied to the screen.
    machine.observe(move |event: &GameEvent| {
        let Some(window) = w.upgrade() else { return };
        let update: &ViewUpdate = match event {
            GameEvent::UpdateGui(update) => {
                if let Some(givens) = &update.initState {
                    *current.borrow_mut() = Some(**givens);
                }
                &update.view
            }
            GameEvent::View(shown) => &shown.view,
            _ => return,
        };
        update.apply(&mut screen.borrow_mut());
        let view = screen.borrow();
        let was = std::mem::replace(&mut *phase.borrow_mut(), view.phase);
        // Back from a question to a game whose board was out of view when the question came
        // (the Open dialog, Enter, then Keep my game): the question heard no window events, so
        // the board being in view again is told once more, after this update.
        if view.phase == Phase::Hidden
            && was != Phase::Hidden
            && !out_of_view.covered.get()
            && !out_of_view.minimized.get()
        {
            let s = weak.clone();
            slint::Timer::single_shot(std::time::Duration::ZERO, move || {
                if let Some(s) = s.upgrade() {
                    s.submit(events::WINDOW_SHOWN, Value::Null);
                }
            });
        }
        let game = window.global::<Game>();
        show(&game, &cells, update);
        // The chooser shows the puzzle being played (it snaps back after a cancelled choice).
        if let Some(givens) = *current.borrow() {
            // In edit mode the view's heading names the draft, not the puzzle: a puzzle the
            // chooser lacks waits for a view about it to be added under its own name.
            if lib.index_of(&givens).is_none() && !view.game_info {
                return;
            }
            let index = lib.index_of(&givens).unwrap_or_else(|| {
                let level = view.level.to_lowercase().parse::<Level>().ok();
                lib.add(
                    Puzzle {
                        name: view.puzzle.clone(),
                        givens,
                        level,
                    },
                    Source::File,
                )
            });
            game.set_current_puzzle(index as i32);
        }
    });

    let w = window.as_weak();
    machine.connect_to_event("clock", move |event: &Event| {
        if let (Some(window), Ok(clock)) = (w.upgrade(), event.param::<String>("clock")) {
            window.global::<Game>().set_clock(clock.into());
        }
    });

    // Observers hold the session weakly: the machine they observe belongs to it.
    let (s, wk, lib) = (session.downgrade(), worker.clone(), library.clone());
    machine.connect_to_event(events::GENERATE_REQUEST, move |event: &Event| {
        let level = match event.param::<Level>("level") {
            Ok(level) => level,
            Err(error) => {
                eprintln!("sudoku-ui: ignoring a generate.request without a level: {error}");
                return;
            }
        };
        let (s, lib) = (s.clone(), lib.clone());
        wk.request(level, move |made| {
            if let Ok(puzzle) = serde_json::from_value::<GeneratedPuzzle>(made.clone()) {
                lib.add(
                    Puzzle {
                        name: puzzle.name,
                        givens: puzzle.init_state,
                        level: Some(puzzle.level),
                    },
                    Source::Generated,
                );
            }
            if let Some(s) = s.upgrade() {
                s.submit(events::GENERATED, made);
            }
        });
    });
    let wk = worker.clone();
    machine.connect_to_event(events::GENERATE_CANCEL, move |_| wk.cancel());

    let (s, lib) = (session.downgrade(), library.clone());
    machine.connect_to_event(events::PUZZLE_CREATED, move |event: &Event| {
        match event.param::<sudoku_machine::game::LoadRequest>("puzzle") {
            // A typed puzzle the chooser already lists (the current one, unchanged, or one
            // typed in again) is played under the chooser's name, so the panel and the
            // chooser agree.
            Ok(made) if lib.index_of(&made.givens).is_some() => {
                let listed = lib.index_of(&made.givens).and_then(|i| lib.get(i));
                if let (Some(listed), Some(s)) = (listed, s.upgrade()) {
                    load(&s, &listed);
                }
            }
            Ok(made) => {
                lib.add(
                    Puzzle {
                        name: made.name,
                        givens: made.givens,
                        level: made.level,
                    },
                    Source::Mine,
                );
            }
            Err(error) => {
                eprintln!("sudoku-ui: ignoring a puzzle.created without a puzzle: {error}")
            }
        }
    });

    machine.connect_to_error(|error| eprintln!("sudoku: {error}"));
}

/// The live chart view: the machine's state tree and last events into the `Game` global.
fn watch_chart(window: &AppWindow, machine: &Sudoku) -> ChartMonitor {
    let monitor = ChartMonitor::attach(machine, scxml_chart_view::DEFAULT_EVENTS);
    // The clock's ticks (ten a second) and the search's would push the player's events out.
    monitor.set_quiet(&[
        sudoku_machine::events::TICK,
        sudoku_machine::events::CLOCK,
        sudoku_machine::events::SEARCH_TICK,
    ]);
    let rows = Rc::new(VecModel::<ChartRow>::default());
    let events = Rc::new(VecModel::<slint::SharedString>::default());
    let game = window.global::<Game>();
    game.set_chart_rows(rows.clone().into());
    game.set_chart_events(events.clone().into());
    monitor.feed(rows, events, |row| ChartRow {
        id: row.id.into(),
        depth: row.depth as i32,
        active: row.active,
        kind: row.kind_name().into(),
    });
    monitor
}

/// The `generated` event's data, as the library keeps it.
#[derive(serde::Deserialize)]
struct GeneratedPuzzle {
    #[serde(rename = "initState")]
    init_state: Grid,
    name: String,
    level: Level,
}

/// Asks the machine to play `puzzle`.
fn load(session: &Session, puzzle: &Puzzle) {
    session.submit(
        events::LOAD,
        json!({ "initState": puzzle.givens, "name": puzzle.name, "level": puzzle.level }),
    );
}

/// Reads a puzzle file, adds it to the chooser (a puzzle already listed keeps its entry, with
/// its name and level) and asks the machine to play it.
fn open_file(session: &Session, library: &Library, path: &Path) -> Result<(), OpenError> {
    let puzzle = read_puzzle_file(path)?;
    let index = library.add(puzzle.clone(), Source::File);
    load(session, &library.get(index).unwrap_or(puzzle));
    Ok(())
}

/// `Game` callbacks → machine events.
fn bind_callbacks(
    window: &AppWindow,
    session: &Session,
    library: &Library,
    phase: Rc<RefCell<Phase>>,
    out_of_view: Rc<OutOfView>,
) {
    let game = window.global::<Game>();

    let s = session.clone();
    game.on_cell_clicked(move |row, col| s.submit(events::CLICK, json!({ "x": row, "y": col })));

    let s = session.clone();
    game.on_action(move |event| s.submit(event.as_str(), Value::Null));

    let s = session.clone();
    game.on_digit(move |digit| s.submit(events::DIGIT, json!({ "digit": digit })));

    let s = session.clone();
    game.on_key(move |text, control, shift| {
        // Copied out: submitting the event updates the phase from the machine's view.
        let now = *phase.borrow();
        match keys::event_for(text.as_str(), control, shift, now) {
            Some((event, data)) => {
                s.submit(event, data);
                true
            }
            None => false,
        }
    });

    let s = session.clone();
    game.on_edit(move |from| s.submit(events::EDIT, json!({ "from": from.as_str() })));

    let s = session.clone();
    game.on_search_speed(move |faster| {
        s.submit(
            events::SEARCH_SPEED,
            if faster {
                json!({ "faster": true })
            } else {
                json!({ "slower": true })
            },
        )
    });

    let s = session.clone();
    game.on_new_game(move |level| {
        // The level is kept with the options, as if chosen in the level chooser.
        s.submit(events::SETTINGS, json!({ "level": level.as_str() }));
        s.submit(events::GENERATE, json!({ "level": level.as_str() }));
    });
    let s = session.clone();
    game.on_level_chosen(move |level| {
        s.submit(events::SETTINGS, json!({ "level": level.as_str() }))
    });

    let (s, lib) = (session.clone(), library.clone());
    game.on_puzzle_chosen(move |index| {
        if let Some(puzzle) = usize::try_from(index).ok().and_then(|i| lib.get(i)) {
            load(&s, &puzzle);
        }
    });

    let (s, lib, w) = (session.clone(), library.clone(), window.as_weak());
    let open = Rc::new(move |path: &str| {
        let Some(window) = w.upgrade() else { return };
        let game = window.global::<Game>();
        match open_file(&s, &lib, Path::new(path)) {
            Ok(()) => {
                game.set_open_error("".into());
                game.set_open_dialog_shown(false);
            }
            Err(error) => game.set_open_error(error.to_string().into()),
        }
    });
    let o = open.clone();
    game.on_open_file(move |path| o(path.as_str()));

    let w = window.as_weak();
    game.on_browse(move || {
        let (w, open) = (w.clone(), open.clone());
        if !chooser_available() {
            if let Some(window) = w.upgrade() {
                window.global::<Game>().set_open_error(
                    "No file chooser is available on this desktop (no XDG portal and no \
                     zenity): type the file's path above."
                        .into(),
                );
            }
            return;
        }
        browse(move |picked| {
            if let (Some(path), Some(window)) = (picked, w.upgrade()) {
                let text = path.display().to_string();
                window.global::<Game>().set_open_path(text.as_str().into());
                open(&text);
            }
        });
    });

    let s = session.clone();
    game.on_set_check_solution(move |on| {
        s.submit(
            events::SETTINGS,
            json!({ "check": if on { "solution" } else { "conflicts" } }),
        )
    });
    let s = session.clone();
    game.on_set_theme(move |theme| s.submit(events::SETTINGS, json!({ "theme": theme.as_str() })));

    // Quit closes the window as its close button does (the save compacted), which ends
    // `Ui::run`.
    let (s, w) = (session.clone(), window.as_weak());
    game.on_quit(move || {
        s.compact();
        if let Some(window) = w.upgrade() {
            let _ = window.hide();
        }
    });

    // A menu keeps the keyboard while it closes; hand it back to the game's key handler
    // once it has.
    let w = window.as_weak();
    game.on_refocus(move || {
        let w = w.clone();
        slint::Timer::single_shot(std::time::Duration::ZERO, move || {
            if let Some(window) = w.upgrade() {
                window.invoke_focus_keys();
            }
        });
    });

    // A dialog over the board, like a minimised window, stops the clock.
    let (s, seen) = (session.clone(), out_of_view.clone());
    game.on_board_covered(move |covered| {
        seen.covered.set(covered);
        s.submit(
            if covered {
                events::WINDOW_HIDDEN
            } else {
                events::WINDOW_SHOWN
            },
            Value::Null,
        )
    });

    let s = session.clone();
    game.on_window_minimized(move |minimized| {
        out_of_view.minimized.set(minimized);
        s.submit(
            if minimized {
                events::WINDOW_HIDDEN
            } else {
                events::WINDOW_SHOWN
            },
            Value::Null,
        )
    });
}
