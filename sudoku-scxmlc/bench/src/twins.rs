//! The benchmark charts' behaviour written by hand in Rust: what `examples/side_by_side.rs`
//! measures each generated machine against. Each twin does exactly what its chart does for
//! the events the benchmark sends, and tells an observer what a connected observer of the
//! generated machine hears.

use sudoku_machine::datamodel::{is_solved, is_valid_tap, Grid, Position};
use sudoku_machine::game::{
    Draft, Pending, Play, PuzzleInfo, Screen, Search, Settings, ViewUpdate,
};

/// The events of the toggle chart, as an enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToggleEvent {
    /// `toggle`.
    Toggle,
}

/// `charts/toggle.scxml` by hand: `off` and `on`, `toggle` flips them; an optional observer
/// of `on` hears `true` when it is entered and `false` when it is exited (what
/// `connect_to_state(State::On, ..)` hears).
#[derive(Default)]
pub struct ToggleTwin {
    /// Whether `on` is the active state.
    pub on: bool,
    observer: Option<Box<dyn FnMut(bool)>>,
}

impl ToggleTwin {
    /// A toggle in `off` whose `on` is observed by `f`.
    pub fn observed(f: impl FnMut(bool) + 'static) -> Self {
        ToggleTwin {
            on: false,
            observer: Some(Box::new(f)),
        }
    }

    /// Handles one event.
    #[inline]
    pub fn handle(&mut self, event: ToggleEvent) {
        match event {
            ToggleEvent::Toggle => {
                self.on = !self.on;
                if let Some(f) = &mut self.observer {
                    f(self.on);
                }
            }
        }
    }
}

/// The events of the counter chart, as an enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterEvent {
    /// `inc`.
    Inc,
}

/// `charts/counter.scxml` by hand: `inc` adds one while the count is below `u64::MAX`; an
/// optional observer hears every `inc` (what `connect_to_event("inc", ..)` hears).
#[derive(Default)]
pub struct CounterTwin {
    /// The count.
    pub count: u64,
    observer: Option<CounterObserver>,
}

/// An observer of the counter's events.
pub type CounterObserver = Box<dyn FnMut(&CounterEvent)>;

impl CounterTwin {
    /// A counter at zero whose events are observed by `f`.
    pub fn observed(f: impl FnMut(&CounterEvent) + 'static) -> Self {
        CounterTwin {
            count: 0,
            observer: Some(Box::new(f)),
        }
    }

    /// Handles one event.
    #[inline]
    pub fn handle(&mut self, event: CounterEvent) {
        match event {
            #[allow(
                clippy::implicit_saturating_add,
                reason = "the chart's `cond` and `<assign>`, written out"
            )]
            CounterEvent::Inc => {
                if self.count < u64::MAX {
                    self.count += 1;
                }
            }
        }
        if let Some(f) = &mut self.observer {
            f(&event);
        }
    }
}

/// What the Sudoku chart's `updateGUI` carries: what changed of the view, and Qt's two grids
/// (`currentState`, `initState`) with a full update.
pub type GuiCallback = Box<dyn FnMut(Option<&Grid>, Option<&Grid>, &ViewUpdate)>;

/// The Sudoku chart's `tap` while a game runs in pen mode (`running`/`pen`), by hand: the
/// same datamodel functions the chart's transitions call (`is_valid_tap`, `Play::tap_at`,
/// `is_solved`, `Screen::show`, `Screen::with_full`), in the same order, and a
/// callback that receives what the chart's `updateGUI` carries.
pub struct TapTwin {
    /// The puzzle's givens (`initState`).
    pub init_state: Grid,
    /// The other data items of the chart.
    pub puzzle: PuzzleInfo,
    /// The attempt.
    pub play: Play,
    /// The options.
    pub settings: Settings,
    /// The pending confirmation.
    pub pending: Pending,
    /// Edit mode's draft.
    pub draft: Draft,
    /// The animated search.
    pub search: Search,
    /// What the callback was last sent.
    pub screen: Screen,
    /// Whether the grid was solved by the last tap (the chart raises `solved`).
    pub solved: bool,
    gui: GuiCallback,
}

/// The states active while a game runs in pen mode, as `In()` sees them.
fn in_running_pen(id: &str) -> bool {
    matches!(
        id,
        "game" | "desk" | "session" | "playing" | "running" | "pen"
    )
}

impl TapTwin {
    /// A game on `givens`, started as the chart's `restart` starts it.
    pub fn new(givens: Grid, gui: GuiCallback) -> Self {
        let mut twin = TapTwin {
            init_state: givens,
            puzzle: PuzzleInfo::default(),
            play: Play::default(),
            settings: Settings::default(),
            pending: Pending::default(),
            draft: Draft::default(),
            search: Search::default(),
            screen: Screen::default(),
            solved: false,
            gui,
        };
        twin.puzzle.sync(&twin.init_state);
        twin.play.restart(&twin.init_state);
        twin.play.message = twin.puzzle.warning();
        // The chart's start-up `updateGUI`: the whole view.
        twin.update_gui();
        twin
    }

    /// Qt's `tap {x, y}`: the chart's `tap` transition of `running`, then `update`'s
    /// `updateGUI`.
    pub fn tap(&mut self, position: Position) {
        if is_valid_tap(&self.init_state, &position) {
            self.play.tap_at(&self.init_state, &position);
            self.solved = is_solved(&self.play.values);
            self.update_gui();
        }
    }

    /// The chart's `update`: `updateGUI` with what changed of the view.
    pub fn update_gui(&mut self) {
        let view = self.screen.show(
            &self.init_state,
            &self.puzzle,
            &self.play,
            &self.settings,
            &self.pending,
            &self.draft,
            &self.search,
            in_running_pen,
        );
        let current = self.screen.with_full(&self.play.values);
        let givens = self.screen.with_full(&self.init_state);
        (self.gui)(current.as_deref(), givens.as_deref(), &view);
    }
}
