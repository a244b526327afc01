//! The traffic light's Slint window, driven by the compiled chart.
//!
//! The window only binds: `connect_to_state` observers light the lamps (red: `red`; yellow:
//! `yellow` or `blinking`; green: `green`), the Smash and Repair buttons call
//! `submit_event`, and a [`slint::Timer`] drives the delayed `<send>`s: it is armed for
//! [`time_until_next`](sudoku_scxmlc::runtime::Machine::time_until_next) and, when it fires,
//! moves the machine's virtual clock forward by the time that really passed
//! ([`advance_time`](sudoku_scxmlc::runtime::Machine::advance_time)).
//!
//! The Chart button shows the live chart view of `scxml-chart-view` (the Sudoku game's): the
//! chart's state tree with the active states lit, and the last events.
//!
//! Where "really passed" comes from is the caller's clock: [`init`] takes a function that
//! returns the time since some fixed origin. `main` passes a wall clock; the headless test
//! passes Slint's mocked time, so nothing in the tests waits.

use crate::trafficlight::{events, State, TrafficLightStateMachine};
use scxml_chart_view::ChartMonitor;
use slint::{ComponentHandle, SharedString, Timer, TimerMode, VecModel};
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

mod markup {
    slint::include_modules!();
}

/// The window compiled from `ui/window.slint`: the `red`, `yellow`, `green` and `status`
/// properties, and the `smash` and `repair` callbacks.
pub use markup::{ChartRow, TrafficLightWindow};

/// The window and the machine it shows, wired together by [`init`].
pub struct TrafficLightUi {
    window: TrafficLightWindow,
    clocked: Rc<Clocked>,
    /// Feeds the chart view.
    _chart: ChartMonitor,
}

/// The machine, the caller's clock, and the timer that fires its delayed events.
struct Clocked {
    light: TrafficLightStateMachine,
    clock: Box<dyn Fn() -> Duration>,
    /// The clock reading that the machine's time corresponds to.
    synced: Cell<Duration>,
    timer: Timer,
}

impl Clocked {
    /// Moves the machine's time forward by the clock time passed since the last sync; due
    /// delayed events fire.
    fn sync(&self) {
        let now = (self.clock)();
        let by = now.saturating_sub(self.synced.get());
        self.synced.set(now);
        self.light.advance_time(by);
    }

    /// Arms the timer for the machine's next delayed event (or stops it when none is pending).
    fn arm(self: &Rc<Self>) {
        match self.light.time_until_next() {
            Some(wait) => {
                let weak = Rc::downgrade(self);
                self.timer.start(TimerMode::SingleShot, wait, move || {
                    if let Some(clocked) = weak.upgrade() {
                        clocked.sync();
                        clocked.arm();
                    }
                });
            }
            None => self.timer.stop(),
        }
    }

    /// Submits a user event at the current clock time.
    fn submit(self: &Rc<Self>, event: &str) {
        self.sync();
        self.light.submit_event(event, ());
        self.arm();
    }
}

/// Builds the window and a started traffic-light machine driven by `clock`, which returns
/// the time passed since a fixed origin (it must never go back).
///
/// # Errors
/// Fails when the platform cannot create the window.
pub fn init(
    clock: impl Fn() -> Duration + 'static,
) -> Result<TrafficLightUi, slint::PlatformError> {
    let window = TrafficLightWindow::new()?;
    let light = TrafficLightStateMachine::new();

    // Any lamp state changing redraws every lamp from the configuration.
    let weak = window.as_weak();
    let machine = light.downgrade();
    let show = move |_entered: bool| {
        let (Some(window), Some(light)) = (weak.upgrade(), machine.upgrade()) else {
            return;
        };
        window.set_red(light.is_active(State::Red));
        window.set_yellow(light.is_active(State::Yellow) || light.is_active(State::Blinking));
        window.set_green(light.is_active(State::Green));
        let broken = light.is_active(State::Broken);
        window.set_status(if broken { "broken" } else { "working" }.into());
    };
    for state in [
        State::Red,
        State::Yellow,
        State::Green,
        State::Blinking,
        State::Broken,
    ] {
        light.connect_to_state(state, show.clone());
    }

    let clocked = Rc::new(Clocked {
        synced: Cell::new(clock()),
        clock: Box::new(clock),
        light,
        timer: Timer::default(),
    });
    let c = Rc::clone(&clocked);
    window.on_smash(move || c.submit(events::SMASH));
    let c = Rc::clone(&clocked);
    window.on_repair(move || c.submit(events::REPAIR));

    let chart = ChartMonitor::attach(&clocked.light, scxml_chart_view::DEFAULT_EVENTS);
    let rows = Rc::new(VecModel::<ChartRow>::default());
    let last = Rc::new(VecModel::<SharedString>::default());
    window.set_chart_rows(rows.clone().into());
    window.set_chart_events(last.clone().into());
    chart.feed(rows, last, |row| ChartRow {
        id: row.id.into(),
        depth: row.depth as i32,
        active: row.active,
        kind: row.kind_name().into(),
    });

    clocked.light.start();
    clocked.arm();
    Ok(TrafficLightUi {
        window,
        clocked,
        _chart: chart,
    })
}

impl TrafficLightUi {
    /// The Slint window.
    pub fn window(&self) -> &TrafficLightWindow {
        &self.window
    }

    /// The machine the window shows.
    pub fn machine(&self) -> &TrafficLightStateMachine {
        &self.clocked.light
    }

    /// Shows the window and runs the event loop until it is closed.
    ///
    /// # Errors
    /// Fails when the platform cannot show the window or run the event loop.
    pub fn run(&self) -> Result<(), slint::PlatformError> {
        self.window.run()
    }
}

/// Opens the window on a wall clock and runs it until it is closed.
///
/// # Errors
/// Fails when the platform cannot create the window or run the event loop.
pub fn run() -> Result<(), slint::PlatformError> {
    let origin = Instant::now();
    init(move || origin.elapsed())?.run()
}
