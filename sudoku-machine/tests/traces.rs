//! The behaviour traces of Qt's SCXML Sudoku example (`shared/reference/qt-sudoku/README.md`),
//! run against the machine generated from `chart/sudoku.scxml`. The machine is driven only
//! through the generated API and only with Qt's events (`setup`, `start`, `stop`, `tap`,
//! `undo`), started as Qt's window starts it (`initState` set, no `autoplay`); what the game
//! added is tested in `game.rs`.

use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use sudoku_machine::datamodel::Grid;
use sudoku_machine::game::ViewUpdate;
use sudoku_machine::{events, puzzle, State, Sudoku};
use sudoku_scxmlc::runtime::Event;

const NEARLY_SOLVED: &str = include_str!("../../puzzles/nearly-solved-sudoku.data");
const QT_SUDOKU: &str = include_str!("../../puzzles/sudoku.data");

/// What the GUI sees: each `updateGUI` with the states active at that moment.
#[derive(Debug, Clone, PartialEq)]
struct Update {
    current: Grid,
    init: Grid,
    solved: bool,
    playing: bool,
}

struct Harness {
    machine: Sudoku,
    updates: Rc<RefCell<Vec<Update>>>,
}

impl Harness {
    fn new(puzzle: &str) -> Self {
        let grid = puzzle::parse(puzzle).unwrap();
        let machine = Sudoku::new();
        machine
            .set_initial_values(json!({ "initState": grid }))
            .unwrap();
        let updates = Rc::new(RefCell::new(Vec::new()));
        let (log, m) = (updates.clone(), machine.downgrade());
        // Qt's window redraws from `currentState` and `initState`; ours come with a full
        // update, and an incremental one names the cells that changed and their digits.
        let grids = RefCell::new((Grid::default(), Grid::default()));
        machine.connect_to_event(events::UPDATE_GUI, move |e: &Event| {
            let m = m.upgrade().unwrap();
            let mut grids = grids.borrow_mut();
            let update: ViewUpdate = e.param("view").unwrap();
            if update.full {
                *grids = (
                    e.param("currentState").unwrap(),
                    e.param("initState").unwrap(),
                );
            } else {
                assert!(e.data["currentState"].is_null() && e.data["initState"].is_null());
                for change in &update.cells {
                    let at = usize::from(change.at);
                    grids.0 .0[at / 9][at % 9] = change.cell.value;
                }
            }
            log.borrow_mut().push(Update {
                current: grids.0,
                init: grids.1,
                solved: m.is_active(State::Solved),
                playing: m.is_active(State::Playing),
            });
        });
        machine.start();
        Harness { machine, updates }
    }

    fn tap(&self, x: i64, y: i64) {
        self.machine
            .submit_event(events::TAP, json!({ "x": x, "y": y }));
    }

    fn take(&self) -> Vec<Update> {
        std::mem::take(&mut *self.updates.borrow_mut())
    }

    /// The active states of Qt's chart (`game`, `idle`, `unsolved`, `solved`, `playing`): the
    /// states our chart adds inside them (`session`, `running`, `pen`, ...) are left out, so
    /// these traces compare the configuration with the one Qt's chart would be in.
    fn states(&self) -> Vec<State> {
        const QT: [State; 5] = [
            State::Game,
            State::Idle,
            State::Unsolved,
            State::Solved,
            State::Playing,
        ];
        self.machine
            .active_states()
            .into_iter()
            .filter(|s| QT.contains(s))
            .collect()
    }
}

#[test]
fn start_up_restarts_and_updates_the_gui() {
    let h = Harness::new(NEARLY_SOLVED);
    let init = puzzle::parse(NEARLY_SOLVED).unwrap();
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    let updates = h.take();
    assert_eq!(updates.len(), 1, "one updateGUI at start-up");
    assert_eq!(updates[0].current, init);
    assert_eq!(updates[0].init, init);
    assert!(!updates[0].playing && !updates[0].solved);
}

#[test]
fn start_enters_playing_and_restarts() {
    let h = Harness::new(QT_SUDOKU);
    h.take();
    h.machine.submit_event(events::START, ());
    assert_eq!(h.states(), [State::Game, State::Playing]);
    let updates = h.take();
    assert_eq!(updates.len(), 1);
    assert!(updates[0].playing);
    assert_eq!(updates[0].current, updates[0].init);
}

#[test]
fn taps_cycle_an_empty_cell_through_every_digit() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, ());
    h.take();
    for expected in (1..=9).chain([0]) {
        h.tap(0, 0);
        let updates = h.take();
        assert_eq!(updates.len(), 1);
        assert_eq!(updates[0].current.0[0][0], expected);
    }
}

#[test]
fn taps_on_givens_outside_the_grid_or_while_idle_are_ignored() {
    let h = Harness::new(QT_SUDOKU);
    let init = puzzle::parse(QT_SUDOKU).unwrap();
    assert_eq!(init.0[0][3], 2, "row 0, column 3 is a given");
    h.tap(0, 0); // idle: no transition for tap
    h.machine.submit_event(events::START, ());
    h.take();
    h.tap(0, 3);
    h.tap(9, 0);
    h.tap(0, -1);
    h.machine.submit_event(events::TAP, json!({ "x": "a" }));
    h.machine.submit_event(events::TAP, ());
    assert!(h.take().is_empty(), "no updateGUI for ignored taps");
    assert_eq!(h.states(), [State::Game, State::Playing]);
    h.tap(0, 0);
    assert_eq!(h.take()[0].current.0[0][0], 1, "the idle tap did not count");
}

#[test]
fn undo_reverses_the_last_move() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, ());
    h.tap(0, 0);
    h.tap(0, 0);
    h.tap(0, 1);
    h.take();
    h.machine.submit_event(events::UNDO, ());
    let u = h.take();
    assert_eq!(u.len(), 1);
    assert_eq!((u[0].current.0[0][0], u[0].current.0[0][1]), (2, 0));
    h.machine.submit_event(events::UNDO, ());
    h.machine.submit_event(events::UNDO, ());
    assert_eq!(h.take().last().unwrap().current.0[0][0], 0);
    // An empty undo stack changes nothing, but the chart still updates the GUI.
    h.machine.submit_event(events::UNDO, ());
    let u = h.take();
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].current, u[0].init);
}

#[test]
fn solving_tap_raises_solved_before_update() {
    let h = Harness::new(NEARLY_SOLVED);
    let solved_changes = Rc::new(RefCell::new(Vec::new()));
    let log = solved_changes.clone();
    h.machine
        .connect_to_state(State::Solved, move |active| log.borrow_mut().push(active));
    h.machine.submit_event(events::START, ());
    h.take();
    for _ in 0..3 {
        h.tap(0, 0);
    }
    let u = h.take();
    assert_eq!(u.len(), 3);
    assert!(u.iter().all(|u| u.playing && !u.solved));
    h.tap(0, 0);
    let u = h.take();
    assert_eq!(u.len(), 1);
    assert!(
        u[0].solved && !u[0].playing,
        "the GUI sees idle/solved: {u:?}"
    );
    assert_eq!(u[0].current.0[0][0], 4);
    assert!(sudoku_machine::datamodel::is_solved(&u[0].current));
    assert_eq!(h.states(), [State::Game, State::Idle, State::Solved]);
    assert_eq!(*solved_changes.borrow(), [true]);
    // Solved is idle: further taps are ignored.
    h.tap(0, 0);
    assert!(h.take().is_empty());
}

#[test]
fn stop_goes_to_unsolved_without_update() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, ());
    h.tap(0, 0);
    h.take();
    h.machine.submit_event(events::STOP, ());
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    assert!(h.take().is_empty());
    assert!(!h.machine.is_active(State::Playing));
}

#[test]
fn setup_while_idle_loads_a_new_grid() {
    let h = Harness::new(NEARLY_SOLVED);
    h.take();
    let other = puzzle::parse(QT_SUDOKU).unwrap();
    h.machine
        .submit_event(events::SETUP, json!({ "initState": other }));
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    let u = h.take();
    assert_eq!(u.len(), 1);
    assert_eq!((u[0].init, u[0].current), (other, other));
    // While playing, setup is not handled.
    h.machine.submit_event(events::START, ());
    h.take();
    h.machine.submit_event(
        events::SETUP,
        json!({ "initState": puzzle::parse(NEARLY_SOLVED).unwrap() }),
    );
    assert!(h.take().is_empty());
    assert!(h.machine.is_active(State::Playing));
}

#[test]
fn malformed_setup_data_raises_error_execution_and_keeps_the_grid() {
    let h = Harness::new(NEARLY_SOLVED);
    let before = h.take()[0].init;
    let errors = Rc::new(RefCell::new(0));
    let count = errors.clone();
    h.machine
        .connect_to_error(move |_| *count.borrow_mut() += 1);
    h.machine
        .submit_event(events::SETUP, json!({ "initState": "not a grid" }));
    assert_eq!(*errors.borrow(), 1, "error.execution was reported");
    // The assign failed, so the rest of the block (raise restart) was skipped; the transition
    // itself was taken (idle → unsolved) and the grid is unchanged.
    assert!(h.take().is_empty());
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    h.machine.submit_event(events::START, ());
    assert_eq!(h.take()[0].init, before);
}

#[test]
fn observers_may_submit_events_re_entrantly() {
    let h = Harness::new(QT_SUDOKU);
    let m = h.machine.clone();
    // Start playing as soon as the machine enters `unsolved` — from inside the notification.
    h.machine.connect_to_state(State::Unsolved, move |active| {
        if active {
            m.submit_event(events::START, ());
        }
    });
    h.machine.submit_event(
        events::SETUP,
        json!({ "initState": puzzle::parse(QT_SUDOKU).unwrap() }),
    );
    assert_eq!(h.states(), [State::Game, State::Playing]);
}

#[test]
fn initial_values_are_checked() {
    let m = Sudoku::new();
    assert!(m.set_initial_values(json!({ "initState": [[1]] })).is_err());
    assert!(m.set_initial_values(json!({ "nope": 1 })).is_err());
    assert!(m.set_initial_values(json!([1, 2])).is_err());
    m.start();
    assert!(m.is_running());
    assert!(m
        .set_initial_values(json!({ "initState": Grid::default() }))
        .is_err());
}

/// The JSON an observer by descriptor hears is written over the last event's (the runtime
/// reuses its allocations, `to_value_into`): after every tap and undo (and the full updates
/// of the start) it is the
/// JSON serde builds afresh from the typed payload, whether the observer is alone (the
/// payload lent) or beside a typed one (copied).
#[test]
fn the_json_observers_hear_is_that_of_the_typed_payload() {
    let grid = puzzle::parse(QT_SUDOKU).unwrap();
    // A few empty cells, the first two of one row: their digits clash now and then.
    let empty: Vec<(usize, usize)> = (0..81)
        .filter(|&i| grid.0[i / 9][i % 9] == 0)
        .map(|i| (i / 9, i % 9))
        .take(4)
        .collect();
    // `by_descriptor`, `typed`: which observers listen; the JSON heard by the first one
    // there, in order.
    let run = |by_descriptor: bool, typed: bool| {
        let machine = Sudoku::new();
        machine
            .set_initial_values(json!({ "initState": grid }))
            .unwrap();
        let heard = Rc::new(RefCell::new(Vec::new()));
        if by_descriptor {
            let h = heard.clone();
            machine.connect_to_event(events::UPDATE_GUI, move |e: &Event| {
                h.borrow_mut().push(e.data.clone());
            });
        }
        if typed {
            let h = heard.clone();
            machine.observe(move |e| {
                if let sudoku_machine::Event::UpdateGui(u) = e {
                    if !by_descriptor {
                        h.borrow_mut().push(serde_json::to_value(u).unwrap());
                    }
                }
            });
        }
        machine.start();
        machine.submit_event(events::START, ());
        for i in 0..120 {
            match i % 29 {
                7 | 19 | 28 => machine.submit_event(events::UNDO, ()),
                _ => {
                    let (x, y) = empty[i % empty.len()];
                    machine.submit_event(events::TAP, json!({"x": x, "y": y}));
                }
            }
        }
        heard.take()
    };
    let fresh = run(false, true);
    assert!(fresh.len() > 100, "{} updates", fresh.len());
    assert!(
        fresh.iter().any(|v| v["currentState"].is_array()),
        "full ones"
    );
    assert_eq!(run(true, false), fresh, "lent");
    assert_eq!(run(true, true), fresh, "copied");
}
