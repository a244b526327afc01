//! Qt's original Sudoku chart with its `sudoku.js`, unchanged, passes the behaviour traces of
//! the rust-datamodel port (`sudoku-machine/tests/traces.rs`): the machine is driven only with
//! Qt's events (`setup`, `start`, `stop`, `tap`, `undo`), started as Qt's window starts it
//! (`initState` set with `set_initial_values`), and watched as Qt's window watches it
//! (`updateGUI` events, the `playing` and `solved` states).

use scxml_ecmascript_examples::sudoku::{events, State, Sudoku};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use sudoku_scxmlc::runtime::Event;

const NEARLY_SOLVED: &str = include_str!("../charts/data/nearly-solved-sudoku.data");
const QT_SUDOKU: &str = include_str!("../charts/data/sudoku.data");

/// A grid as the chart holds it: 9 rows of 9 numbers, 0 = empty.
type Grid = Vec<Vec<i64>>;

/// A puzzle in Qt's `.data` form (9 lines of 9 comma-separated digits), as Qt's window reads
/// it before `setInitialValues` or `setup`.
fn parse(data: &str) -> Grid {
    let grid: Grid = data
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|d| d.trim().parse().unwrap()).collect())
        .collect();
    assert!(grid.len() == 9 && grid.iter().all(|r| r.len() == 9));
    grid
}

/// Whether every row, column and box of `grid` holds 1..=9 once each.
fn is_solved(grid: &Grid) -> bool {
    let house_ok = |cells: Vec<i64>| {
        let mut seen = [false; 10];
        cells
            .into_iter()
            .all(|d| (1..=9).contains(&d) && !std::mem::replace(&mut seen[d as usize], true))
    };
    (0..9).all(|i| {
        house_ok(grid[i].clone())
            && house_ok((0..9).map(|j| grid[j][i]).collect())
            && house_ok(
                (0..9)
                    .map(|j| grid[i / 3 * 3 + j / 3][i % 3 * 3 + j % 3])
                    .collect(),
            )
    })
}

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
    errors: Rc<RefCell<Vec<String>>>,
}

impl Harness {
    fn new(puzzle: &str) -> Self {
        let machine = Sudoku::new();
        machine
            .set_initial_values(json!({ "initState": parse(puzzle) }))
            .unwrap();
        let updates = Rc::new(RefCell::new(Vec::new()));
        let (log, m) = (updates.clone(), machine.downgrade());
        machine.connect_to_event(events::UPDATE_GUI, move |e: &Event| {
            let m = m.upgrade().unwrap();
            log.borrow_mut().push(Update {
                current: e.param("currentState").unwrap(),
                init: e.param("initState").unwrap(),
                solved: m.is_active(State::Solved),
                playing: m.is_active(State::Playing),
            });
        });
        let errors = Rc::new(RefCell::new(Vec::new()));
        let sink = errors.clone();
        machine.connect_to_error(move |e| sink.borrow_mut().push(format!("{e:?}")));
        machine.start();
        Harness {
            machine,
            updates,
            errors,
        }
    }

    fn tap(&self, x: i64, y: i64) {
        self.machine
            .submit_event(events::TAP, json!({ "x": x, "y": y }));
    }

    fn take(&self) -> Vec<Update> {
        std::mem::take(&mut *self.updates.borrow_mut())
    }

    fn states(&self) -> Vec<State> {
        self.machine.active_states()
    }
}

#[test]
fn start_up_restarts_and_updates_the_gui() {
    let h = Harness::new(NEARLY_SOLVED);
    let init = parse(NEARLY_SOLVED);
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    let updates = h.take();
    assert_eq!(updates.len(), 1, "one updateGUI at start-up");
    assert_eq!(updates[0].current, init);
    assert_eq!(updates[0].init, init);
    assert!(!updates[0].playing && !updates[0].solved);
    assert!(h.errors.borrow().is_empty(), "{:?}", h.errors.borrow());
}

#[test]
fn start_enters_playing_and_restarts() {
    let h = Harness::new(QT_SUDOKU);
    h.take();
    h.machine.submit_event(events::START, Value::Null);
    assert_eq!(h.states(), [State::Game, State::Playing]);
    let updates = h.take();
    assert_eq!(updates.len(), 1);
    assert!(updates[0].playing);
    assert_eq!(updates[0].current, updates[0].init);
}

#[test]
fn taps_cycle_an_empty_cell_through_every_digit() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, Value::Null);
    h.take();
    for expected in (1..=9).chain([0]) {
        h.tap(0, 0);
        let updates = h.take();
        assert_eq!(updates.len(), 1);
        assert_eq!(updates[0].current[0][0], expected);
    }
    assert!(h.errors.borrow().is_empty(), "{:?}", h.errors.borrow());
}

#[test]
fn taps_on_givens_outside_the_grid_or_while_idle_are_ignored() {
    let h = Harness::new(QT_SUDOKU);
    let init = parse(QT_SUDOKU);
    assert_eq!(init[0][3], 2, "row 0, column 3 is a given");
    h.tap(0, 0); // idle: no transition for tap
    h.machine.submit_event(events::START, Value::Null);
    h.take();
    h.tap(0, 3);
    h.tap(9, 0);
    h.tap(0, -1);
    assert!(h.errors.borrow().is_empty(), "{:?}", h.errors.borrow());
    // Without usable coordinates `isValidPosition()` throws (a TypeError reading
    // `initState["a"][undefined]`, or `_event.data.x` of no data): the `cond` is false and
    // the chart gets error.execution.
    h.machine.submit_event(events::TAP, json!({ "x": "a" }));
    h.machine.submit_event(events::TAP, Value::Null);
    assert_eq!(h.errors.borrow().len(), 2, "{:?}", h.errors.borrow());
    assert!(h.take().is_empty(), "no updateGUI for ignored taps");
    assert_eq!(h.states(), [State::Game, State::Playing]);
    h.tap(0, 0);
    assert_eq!(h.take()[0].current[0][0], 1, "the idle tap did not count");
}

#[test]
fn undo_reverses_the_last_move() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, Value::Null);
    h.tap(0, 0);
    h.tap(0, 0);
    h.tap(0, 1);
    h.take();
    h.machine.submit_event(events::UNDO, Value::Null);
    let u = h.take();
    assert_eq!(u.len(), 1);
    assert_eq!((u[0].current[0][0], u[0].current[0][1]), (2, 0));
    h.machine.submit_event(events::UNDO, Value::Null);
    h.machine.submit_event(events::UNDO, Value::Null);
    assert_eq!(h.take().last().unwrap().current[0][0], 0);
    // An empty undo stack changes nothing, but the chart still updates the GUI.
    h.machine.submit_event(events::UNDO, Value::Null);
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
    h.machine.submit_event(events::START, Value::Null);
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
    assert_eq!(u[0].current[0][0], 4);
    assert!(is_solved(&u[0].current));
    assert!(!is_solved(&u[0].init));
    assert_eq!(h.states(), [State::Game, State::Idle, State::Solved]);
    assert_eq!(*solved_changes.borrow(), [true]);
    // Solved is idle: further taps are ignored.
    h.tap(0, 0);
    assert!(h.take().is_empty());
}

#[test]
fn stop_goes_to_unsolved_without_update() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, Value::Null);
    h.tap(0, 0);
    h.take();
    h.machine.submit_event(events::STOP, Value::Null);
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    assert!(h.take().is_empty());
    assert!(!h.machine.is_active(State::Playing));
}

#[test]
fn setup_while_idle_loads_a_new_grid() {
    let h = Harness::new(NEARLY_SOLVED);
    h.take();
    let other = parse(QT_SUDOKU);
    h.machine
        .submit_event(events::SETUP, json!({ "initState": other }));
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    let u = h.take();
    assert_eq!(u.len(), 1);
    assert_eq!((&u[0].init, &u[0].current), (&other, &other));
    // While playing, setup is not handled.
    h.machine.submit_event(events::START, Value::Null);
    h.take();
    h.machine
        .submit_event(events::SETUP, json!({ "initState": parse(NEARLY_SOLVED) }));
    assert!(h.take().is_empty());
    assert!(h.machine.is_active(State::Playing));
}

/// Where Qt's chart and the rust port part: Qt's `<assign>` stores whatever `setup` carries
/// (the port checks it is a grid first), so a `setup` without `initState` makes `initState`
/// `undefined` and the `restart()` that follows throws. The chart reports error.execution,
/// skips the rest of the transition (no `update`), and the next game has no grid either.
#[test]
fn setup_without_a_grid_raises_error_execution() {
    let h = Harness::new(NEARLY_SOLVED);
    h.take();
    h.machine
        .submit_event(events::SETUP, json!({ "grid": "not here" }));
    assert_eq!(h.errors.borrow().len(), 1, "{:?}", h.errors.borrow());
    assert!(h.take().is_empty());
    assert_eq!(h.states(), [State::Game, State::Idle, State::Unsolved]);
    assert_eq!(h.machine.data_value("initState").unwrap(), Value::Null);
    h.machine.submit_event(events::START, Value::Null);
    assert!(h.take().is_empty(), "restart() throws again");
    assert_eq!(h.errors.borrow().len(), 2);
}

#[test]
fn observers_may_submit_events_re_entrantly() {
    let h = Harness::new(QT_SUDOKU);
    let m = h.machine.clone();
    // Start playing as soon as the machine enters `unsolved`, from inside the notification.
    h.machine.connect_to_state(State::Unsolved, move |active| {
        if active {
            m.submit_event(events::START, Value::Null);
        }
    });
    h.machine
        .submit_event(events::SETUP, json!({ "initState": parse(QT_SUDOKU) }));
    assert_eq!(h.states(), [State::Game, State::Playing]);
}

#[test]
fn initial_values_are_checked() {
    let m = Sudoku::new();
    assert!(m.set_initial_values(json!({ "nope": 1 })).is_err());
    assert!(m.set_initial_values(json!([1, 2])).is_err());
    m.set_initial_values(json!({ "initState": parse(QT_SUDOKU) }))
        .unwrap();
    m.start();
    assert!(m.is_running());
    assert!(m
        .set_initial_values(json!({ "initState": parse(NEARLY_SOLVED) }))
        .is_err());
}

/// A snapshot of Qt's chart in the middle of a game restores: the grid, the undo stack and
/// the configuration come back, and the game goes on from there.
#[test]
fn a_snapshot_restores_the_game() {
    let h = Harness::new(QT_SUDOKU);
    h.machine.submit_event(events::START, Value::Null);
    h.tap(0, 0);
    h.tap(0, 0);
    h.tap(0, 1);
    let snapshot = h.machine.snapshot().unwrap();
    let restored = Sudoku::restore(&snapshot).unwrap();
    assert_eq!(restored.active_states(), [State::Game, State::Playing]);
    let grid: Grid = serde_json::from_value(restored.data_value("currentState").unwrap()).unwrap();
    assert_eq!((grid[0][0], grid[0][1]), (2, 1));
    restored.submit_event(events::UNDO, Value::Null);
    let grid: Grid = serde_json::from_value(restored.data_value("currentState").unwrap()).unwrap();
    assert_eq!((grid[0][0], grid[0][1]), (2, 0), "the undo stack came back");
}
