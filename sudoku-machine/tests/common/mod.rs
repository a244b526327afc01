//! What the chart tests share: the machine as the window starts it, and what it sends the
//! window (views, clock texts, generation requests, errors), through the generated API only.

#![allow(dead_code, reason = "each test file uses its own part")]

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{json, Value};
use sudoku_machine::datamodel::Grid;
use sudoku_machine::engine::unique_solution;
use sudoku_machine::game::{view, GameOver, View, ViewUpdate};
use sudoku_machine::{events, puzzle, State, Sudoku};
use sudoku_scxmlc::runtime::{Event, RuntimeError};

/// Qt's example puzzle (`puzzles/sudoku.data`): 36 givens, Easy.
pub const QT: &str = include_str!("../../../puzzles/sudoku.data");
pub const NEARLY_SOLVED: &str = include_str!("../../../puzzles/nearly-solved-sudoku.data");

/// What the window hears.
#[derive(Default)]
pub struct Heard {
    pub views: Vec<View>,
    pub clocks: Vec<String>,
    pub requests: Vec<Value>,
    pub cancels: usize,
    pub errors: Vec<String>,
    /// The `puzzle` of each `puzzle.created` (a puzzle typed in edit mode and played).
    pub created: Vec<Value>,
    /// The `result` of each `game.over` (how a game ended, for the window's records).
    pub over: Vec<GameOver>,
}

/// The machine and what it sent the window.
pub struct Game {
    pub machine: Sudoku,
    pub heard: Rc<RefCell<Heard>>,
    pub givens: Grid,
}

impl Game {
    /// The machine as the window starts it: the puzzle set, `autoplay` on.
    pub fn new(text: &str) -> Self {
        let givens = puzzle::parse(text).unwrap();
        let machine = Sudoku::new();
        machine
            .set_initial_values(json!({ "initState": givens, "autoplay": true }))
            .unwrap();
        let game = Game::observe(machine, givens);
        game.machine.start();
        game
    }

    pub fn observe(machine: Sudoku, givens: Grid) -> Self {
        let heard = Rc::new(RefCell::new(Heard::default()));
        let h = heard.clone();
        let m = machine.downgrade();
        machine.connect_to_event("updateGUI view", move |e: &Event| {
            // The window's way: the update applied to the screen the last ones left.
            let update: ViewUpdate = e.param("view").unwrap();
            let mut heard = h.borrow_mut();
            let mut screen = heard.views.last().cloned().unwrap_or_default();
            update.apply(&mut screen);
            // What the window sees is the whole view the machine would build now.
            let m = m.upgrade().unwrap();
            let ids = m.active_state_ids();
            let whole = m.with_data(|d| {
                view(
                    &d.initState,
                    &d.puzzle,
                    &d.play,
                    &d.settings,
                    &d.pending,
                    &d.draft,
                    &d.search,
                    |id| ids.contains(&id),
                )
            });
            assert_eq!(screen, whole, "the updates add up to the view ({update:?})");
            // Qt's grids come with a full update, and only then.
            if e.name == "updateGUI" {
                assert_eq!(e.data["currentState"].is_array(), update.full);
                assert_eq!(e.data["initState"].is_array(), update.full);
            }
            heard.views.push(screen);
        });
        let h = heard.clone();
        machine.connect_to_event("clock", move |e: &Event| {
            h.borrow_mut().clocks.push(e.param("clock").unwrap());
        });
        let h = heard.clone();
        machine.connect_to_event("generate.request", move |e: &Event| {
            h.borrow_mut().requests.push(e.data.clone());
        });
        let h = heard.clone();
        machine.connect_to_event("generate.cancel", move |_| h.borrow_mut().cancels += 1);
        let h = heard.clone();
        machine.connect_to_event("puzzle.created", move |e: &Event| {
            h.borrow_mut().created.push(e.data["puzzle"].clone());
        });
        let h = heard.clone();
        machine.connect_to_event("game.over", move |e: &Event| {
            h.borrow_mut().over.push(e.param("result").unwrap());
        });
        let h = heard.clone();
        machine.connect_to_error(move |e: &RuntimeError| h.borrow_mut().errors.push(e.to_string()));
        Game {
            machine,
            heard,
            givens,
        }
    }

    pub fn send(&self, name: &str, data: Value) -> View {
        self.machine.submit_event(name, data);
        self.view()
    }

    pub fn click(&self, row: usize, col: usize) -> View {
        self.send(events::CLICK, json!({ "x": row, "y": col }))
    }

    pub fn digit(&self, d: u8) -> View {
        self.send(events::DIGIT, json!({ "digit": d }))
    }

    /// Clicks an empty cell and types `d` there.
    pub fn put(&self, row: usize, col: usize, d: u8) -> View {
        self.click(row, col);
        self.digit(d)
    }

    pub fn view(&self) -> View {
        self.heard
            .borrow()
            .views
            .last()
            .cloned()
            .expect("a view was sent")
    }

    pub fn value(&self, row: usize, col: usize) -> u8 {
        self.view().cells[row * 9 + col].value
    }

    pub fn active(&self, state: State) -> bool {
        self.machine.is_active(state)
    }

    pub fn empty_cells(&self) -> Vec<(usize, usize)> {
        (0..81)
            .map(|i| (i / 9, i % 9))
            .filter(|&(r, c)| self.givens.0[r][c] == 0)
            .collect()
    }

    pub fn solution(&self) -> Grid {
        unique_solution(&self.givens).unwrap()
    }

    pub fn errors(&self) -> Vec<String> {
        self.heard.borrow().errors.clone()
    }
}
