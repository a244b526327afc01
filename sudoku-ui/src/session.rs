//! The running game: the state machine, its clock and its autosave.
//!
//! Every event the window submits goes through [`Session::submit`], which first brings the
//! machine's clock up to real time (so that due timers fire first), writes the event to the
//! autosave journal, then hands it to the machine. A Slint timer fires the machine's delayed
//! events (the game clock's ticks) when they are due. [`restore`] rebuilds a machine from a
//! save by replaying its journal, with no observer connected.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use serde_json::Value;
use slint::{Timer, TimerMode};
use sudoku_machine::{game, Sudoku};

use crate::autosave::{Autosave, AutosaveError, Restored};

/// Real time since some fixed start: the session's clock. Tests pass one they move by hand.
pub type Clock = Rc<dyn Fn() -> Duration>;

/// A clock that reads the system's monotonic time.
pub fn real_clock() -> Clock {
    let start = Instant::now();
    Rc::new(move || start.elapsed())
}

/// At least this much machine time between two time entries of the journal, so that a
/// restored game's clock is at most this far behind.
const TIME_ENTRY_EVERY: Duration = Duration::from_secs(5);

/// Told when the game cannot be saved.
type SaveErrorHandler = Box<dyn Fn(String)>;

struct Inner {
    machine: Sudoku,
    save: RefCell<Option<Autosave>>,
    clock: Clock,
    /// The clock's reading when the machine was last advanced.
    last: Cell<Duration>,
    /// The machine time of the last journal entry.
    journaled: Cell<Duration>,
    timer: Timer,
    /// Called with a message when the game cannot be saved (once).
    on_save_error: RefCell<Option<SaveErrorHandler>>,
    save_error_shown: Cell<bool>,
}

/// A handle to the running game; clones share it.
#[derive(Clone)]
pub struct Session(Rc<Inner>);

/// A handle that does not keep the session alive: what the machine's own observers hold, so
/// that dropping the window ends the session (and releases its save folder).
#[derive(Clone)]
pub struct WeakSession(Weak<Inner>);

impl WeakSession {
    /// The session, if it is still running.
    pub fn upgrade(&self) -> Option<Session> {
        self.0.upgrade().map(Session)
    }
}

impl Session {
    /// A session for `machine` (started or restored), saving to `save` if given.
    pub fn new(machine: Sudoku, save: Option<Autosave>, clock: Clock) -> Self {
        let now = clock();
        let journaled = machine.now();
        Session(Rc::new(Inner {
            machine,
            save: RefCell::new(save),
            clock,
            last: Cell::new(now),
            journaled: Cell::new(journaled),
            timer: Timer::default(),
            on_save_error: RefCell::new(None),
            save_error_shown: Cell::new(false),
        }))
    }

    /// A handle that does not keep the session alive.
    pub fn downgrade(&self) -> WeakSession {
        WeakSession(Rc::downgrade(&self.0))
    }

    /// The machine.
    pub fn machine(&self) -> &Sudoku {
        &self.0.machine
    }

    /// Calls `f` with a message the first time the game cannot be saved.
    pub fn on_save_error(&self, f: impl Fn(String) + 'static) {
        *self.0.on_save_error.borrow_mut() = Some(Box::new(f));
    }

    /// Submits an event: the machine catches up with real time, the event is journaled,
    /// then processed; the timer is armed for the next delayed event.
    pub fn submit(&self, name: &str, data: impl Into<Value>) {
        let data = data.into();
        self.catch_up();
        let now = self.0.machine.now();
        self.with_save(|save| save.record(now, name, &data));
        self.0.journaled.set(now);
        self.0.machine.submit_event(name, data);
        self.after_change();
    }

    /// Advances the machine to real time, firing due delayed events, and notes the time in
    /// the journal now and then.
    fn catch_up(&self) {
        let real = (self.0.clock)();
        let by = real.saturating_sub(self.0.last.replace(real));
        if by > Duration::ZERO {
            self.0.machine.advance_time(by);
        }
        let now = self.0.machine.now();
        if now >= self.0.journaled.get() + TIME_ENTRY_EVERY {
            self.with_save(|save| save.record_time(now));
            self.0.journaled.set(now);
        }
    }

    fn after_change(&self) {
        self.arm();
        let due = self
            .0
            .save
            .borrow()
            .as_ref()
            .is_some_and(Autosave::wants_compaction);
        if due {
            self.compact();
        }
    }

    /// Arms the timer for the machine's next delayed event, or stops it.
    fn arm(&self) {
        match self.0.machine.time_until_next() {
            Some(wait) => {
                let weak: Weak<Inner> = Rc::downgrade(&self.0);
                self.0.timer.start(TimerMode::SingleShot, wait, move || {
                    if let Some(inner) = weak.upgrade() {
                        let session = Session(inner);
                        session.catch_up();
                        session.after_change();
                    }
                });
            }
            None => self.0.timer.stop(),
        }
    }

    /// Starts the timer for a machine that already has delayed events (a restored game).
    pub fn resume_timers(&self) {
        self.arm();
    }

    /// Writes a full snapshot and starts a new journal.
    pub fn compact(&self) {
        let snapshot = match self.0.machine.snapshot() {
            Ok(snapshot) => snapshot,
            Err(e) => {
                self.report(format!("cannot save the game: {e}"));
                return;
            }
        };
        self.with_save(|save| save.compact(&snapshot));
    }

    fn with_save(&self, f: impl FnOnce(&mut Autosave) -> Result<(), AutosaveError>) {
        let result = match self.0.save.borrow_mut().as_mut() {
            Some(save) => f(save),
            None => Ok(()),
        };
        if let Err(e) = result {
            self.report(format!(
                "Your game cannot be saved: {e}. It goes on, unsaved."
            ));
        }
    }

    fn report(&self, message: String) {
        if self.0.save_error_shown.replace(true) {
            return;
        }
        eprintln!("sudoku: {message}");
        if let Some(f) = self.0.on_save_error.borrow().as_ref() {
            f(message);
        }
    }
}

/// Rebuilds the machine of a save: restores the snapshot, replays the journal (advancing
/// the clock to each entry's time), and checks the result against the chart's invariants
/// ([`game::check`]) before and after the replay.
///
/// # Errors
/// A sentence saying why the save cannot be used.
pub fn restore(restored: &Restored) -> Result<Sudoku, String> {
    let machine = Sudoku::restore(&restored.snapshot).map_err(|e| e.to_string())?;
    let check = |machine: &Sudoku| -> Result<(), String> {
        let active = machine.active_states();
        machine.with_data(|data| game::check(data, &active))
    };
    check(&machine)?;
    for entry in &restored.journal {
        let now = machine.now();
        if entry.at() > now {
            machine.advance_time(entry.at() - now);
        }
        if let Some(name) = &entry.event {
            machine.submit_event(name, entry.data.clone());
        }
    }
    check(&machine).map_err(|e| format!("after replaying the journal, {e}"))?;
    Ok(machine)
}
