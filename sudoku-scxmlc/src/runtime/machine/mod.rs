//! [`Machine`]: the public, cheaply cloneable handle of a running chart, with Qt-SCXML-style
//! observers ([`Machine::connect_to_state`], [`Machine::connect_to_event`],
//! [`Machine::connect_to_error`]) and virtual time ([`Machine::advance_time`]).
//!
//! # Re-entrancy
//! Observers may call any method of the machine (submit events, query states, connect or
//! disconnect observers, read data) from inside their callback. The machine never runs chart
//! code or observers while another call into it is running them: a nested call only queues
//! its work, and the outermost call processes the queue. Observers hear about what happened
//! after the macrostep in which it happened, in the order it happened.

use super::envelope::{self, ChartEvent, Envelope, Submission};
use super::fast_path::QUIET_SLOW;
use super::interpreter::{Interpreter, Notification};
use super::observers::{
    Connection, ErrorSlot, EventSlot, LogSlot, ObserverCell, StateSlot, TypedSlot, Watch,
};
use super::snapshot::{Snapshot, SnapshotError};
use super::{normalize_descriptor, Chart, Event, InitError, RuntimeError, StateIndex};
use serde_json::Value;
use std::cell::{BorrowError, BorrowMutError, Cell, Ref, RefCell, RefMut};
use std::collections::VecDeque;
use std::fmt;
use std::marker::PhantomData;

mod lane;
mod queue;
mod quiet;

use lane::LANE_CLOSED;
use quiet::QuietAt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::{Rc, Weak};
use std::time::Duration;

/// A running instance of the chart `C` (generated code names it, e.g.
/// `pub type Sudoku = Machine<SudokuChart>;`).
///
/// A `Machine` is a handle: `clone()` gives another handle to the same instance. It is neither
/// `Send` nor `Sync`; drive it from one thread.
///
/// Life cycle: [`new`](Machine::new) → optional
/// [`set_initial_values`](Machine::set_initial_values) → [`start`](Machine::start) → events
/// ([`submit_event`](Machine::submit_event)) and time ([`advance_time`](Machine::advance_time))
/// until a top-level `<final>` state is reached or [`stop`](Machine::stop) is called, after
/// which the machine has stopped: every state has been exited (SCXML 1.0, Appendix D
/// `exitInterpreter`), invoked sessions and pending delayed events are cancelled, and events
/// submitted to it are dropped (each reported as [`RuntimeError::NotRunning`]). `start()`
/// then starts it afresh.
pub struct Machine<C: Chart> {
    inner: Rc<Shared<C>>,
}

/// A weak handle to a [`Machine`] that does not keep it alive (for observers that need to
/// reach their own machine without a reference cycle).
pub struct WeakMachine<C: Chart> {
    inner: Weak<Shared<C>>,
}

struct Shared<C: Chart> {
    core: RefCell<Interp<C>>,
    /// External events submitted while the core was borrowed (from chart code).
    inbox: RefCell<VecDeque<Envelope<C::Event>>>,
    /// An outermost call is processing; nested calls only queue.
    processing: Cell<bool>,
    start_requested: Cell<bool>,
    /// `start()` was called: a stopped machine starts afresh at the next step.
    restart_requested: Cell<bool>,
    /// `stop()` was called: the machine stops at the next step.
    stop_requested: Cell<bool>,
    /// At most this many units of work (start, an external event, a due timer) per outermost
    /// call ([`Machine::set_max_steps_per_call`]).
    max_steps_per_call: Cell<usize>,
    /// Machine time to advance to once the queued events are processed.
    advance_target: Cell<Option<Duration>>,
    /// Precomputed macrosteps apply ([`Machine::set_precomputed_steps`]).
    precomputed: Cell<bool>,
    /// Which kinds of observer are connected (some may have been disconnected since: it is
    /// brought up to date after each delivery).
    watch: Cell<Watch>,
    /// The observers, copy-on-write (a delivery holds a snapshot).
    observers: ObserverCell<C::Event>,
    /// A reused notification buffer.
    spare: RefCell<Vec<Notification>>,
    /// The event the last delivery lent the observers connected by descriptor: the next
    /// one is written over it ([`Envelope::lend_event_into`]), reusing its allocations.
    spare_event: RefCell<Event>,
    /// Nothing is queued, processing or observed (no state or event observer connected),
    /// and the interpreter is [prepared](Interpreter::prepare_quiet) for precomputed
    /// macrosteps: `submit_event` may apply one by moving `quiet_at`'s row alone. Set after each
    /// outermost call that processed events; cleared when that starts, when an observer
    /// connects, and while user code runs with the interpreter borrowed.
    quiet: Cell<bool>,
    /// The chart's [`quiet cells`](super::fast_path::FastPath::quiet_cells).
    quiet_cells: Cell<&'static [u32]>,
    /// Where the quiet macrosteps are: the row of the active atomic state in
    /// `quiet_cells`, and the last event they processed ([`QuietAt`]).
    quiet_at: QuietAt,
    /// The chart's typed lane ([`Chart::lane`], `runtime/lane.rs`): [`LANE_OPEN`] while
    /// nothing is queued, processing or advancing, the machine runs with precomputed steps
    /// on, no observer connected by descriptor string is there, and the interpreter records
    /// what the observers connected now need; [`LANE_RUNNING`] while a lane step's
    /// delivery to the observers runs (during the step itself the borrowed interpreter makes
    /// nested calls queue). Anything that queues work, changes the observers or runs the
    /// queue closes it ([`LANE_CLOSED`]); the queue's loop opens it again when it ends.
    lane: Cell<u8>,
    _chart: PhantomData<C>,
}

/// The interpreter of a machine of chart `C`.
type Interp<C> = Interpreter<<C as Chart>::Data, <C as Chart>::Event>;

/// The default of [`Machine::set_max_steps_per_call`].
pub const DEFAULT_MAX_STEPS_PER_CALL: usize = 1_000_000;

/// Resets the `processing` flag even when an observer panics.
struct ProcessingGuard<'a>(&'a Cell<bool>);

impl Drop for ProcessingGuard<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

impl<C: Chart> Clone for Machine<C> {
    fn clone(&self) -> Self {
        Machine {
            inner: Rc::clone(&self.inner),
        }
    }
}

impl<C: Chart> Clone for WeakMachine<C> {
    fn clone(&self) -> Self {
        WeakMachine {
            inner: Weak::clone(&self.inner),
        }
    }
}

impl<C: Chart> Default for Machine<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Chart> fmt::Debug for Machine<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Machine");
        d.field("chart", &C::tables().name);
        match self.try_core() {
            Ok(core) => {
                let ids: Vec<_> = core
                    .ctx
                    .configuration
                    .iter()
                    .map(|s| core.tables.states[s as usize].id)
                    .collect();
                d.field("started", &core.started)
                    .field("running", &core.running)
                    .field("now", &core.ctx.now)
                    .field("active", &ids);
            }
            Err(_) => {
                d.field("busy", &true);
            }
        }
        d.finish()
    }
}

impl<C: Chart> fmt::Debug for WeakMachine<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WeakMachine")
            .field("chart", &C::tables().name)
            .field("alive", &(self.inner.strong_count() > 0))
            .finish()
    }
}

impl<C: Chart> WeakMachine<C> {
    /// The machine, if some [`Machine`] handle still keeps it alive.
    pub fn upgrade(&self) -> Option<Machine<C>> {
        self.inner.upgrade().map(|inner| Machine { inner })
    }
}

impl<C: Chart> Machine<C> {
    /// A machine that has not started: nothing is active, the datamodel is
    /// [`Chart::new_data`] until [`start`](Machine::start) initialises it.
    pub fn new() -> Self {
        Machine {
            inner: Rc::new(Shared {
                core: RefCell::new({
                    let mut core = Interpreter::new(C::tables(), C::new_data());
                    core.generated = C::STEP;
                    core
                }),
                inbox: RefCell::new(VecDeque::new()),
                processing: Cell::new(false),
                start_requested: Cell::new(false),
                restart_requested: Cell::new(false),
                stop_requested: Cell::new(false),
                max_steps_per_call: Cell::new(DEFAULT_MAX_STEPS_PER_CALL),
                advance_target: Cell::new(None),
                precomputed: Cell::new(true),
                watch: Cell::new(Watch::default()),
                observers: ObserverCell::default(),
                spare: RefCell::new(Vec::new()),
                spare_event: RefCell::new(Event::default()),
                quiet: Cell::new(false),
                quiet_cells: Cell::new(&[]),
                quiet_at: QuietAt::new(0),
                lane: Cell::new(LANE_CLOSED),
                _chart: PhantomData,
            }),
        }
    }

    /// The machine's state as a [`Snapshot`] (configuration, history values, datamodel,
    /// pending delayed events, queued events, clock) that serializes with serde.
    ///
    /// # Errors
    /// [`SnapshotError::NotStarted`] before [`start`](Machine::start);
    /// [`SnapshotError::Data`] when a `<data>` value does not serialize.
    pub fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        self.loud(|| self.core().snapshot())
    }

    /// A machine that continues from `snapshot`: started, with the snapshot's configuration,
    /// history, datamodel, clock and pending events. Nothing runs while restoring (no
    /// `<onentry>`, no `<data>` expressions, no state observers: connect them afterwards and
    /// read the configuration with [`active_states`](Machine::active_states)). Queued events
    /// are processed by the next call that processes events. Only an ECMAScript chart's
    /// top-level `<script>` runs again, for the functions it defines (no snapshot holds them).
    ///
    /// # Errors
    /// When the snapshot is of another chart, names unknown states or data, holds a value
    /// that does not fit its `<data>` type, or (for a running machine) lists states that are
    /// not a legal configuration ([`SnapshotError::IllegalConfiguration`]).
    pub fn restore(snapshot: &Snapshot) -> Result<Self, SnapshotError> {
        let machine = Machine::new();
        machine.inner.core.borrow_mut().restore(snapshot)?;
        machine.inner.quiet.set(machine.is_quiet());
        machine.inner.lane.set(machine.lane_state());
        Ok(machine)
    }

    /// A weak handle that does not keep the machine alive.
    pub fn downgrade(&self) -> WeakMachine<C> {
        WeakMachine {
            inner: Rc::downgrade(&self.inner),
        }
    }

    /// The core, for reading.
    ///
    /// # Panics
    /// When called from the chart's own executable content while it runs (chart code reaches
    /// the machine through its [`Context`](super::Context) instead).
    fn core(&self) -> Ref<'_, Interp<C>> {
        self.catch_up();
        self.inner.core.try_borrow().unwrap_or_else(|_| {
            panic!(
                "{}: Machine queried from the chart's own executable content; use the Context",
                C::tables().name
            )
        })
    }

    /// The core, for reading; `Err` while the chart's own executable content runs.
    fn try_core(&self) -> Result<Ref<'_, Interp<C>>, BorrowError> {
        self.catch_up();
        self.inner.core.try_borrow()
    }

    /// The core, for changing; `Err` while it is borrowed (from the chart's own executable
    /// content, or a `with_data` closure).
    fn core_mut(&self) -> Result<RefMut<'_, Interp<C>>, BorrowMutError> {
        self.catch_up();
        self.inner.core.try_borrow_mut()
    }

    /// Whether [`quiet_move`](Self::quiet_move) can move at all. A chart whose generated
    /// `quiet_step` is `None` throughout (the generator found no cell: it then inlines the
    /// lane at the call site, `Chart::LANE_AT_CALL_SITE`) never moves quietly, so the
    /// interpreter never has to [catch up](Self::catch_up) with it.
    const QUIET_MOVES: bool = !(C::QUIET_STEPS && C::LANE_AT_CALL_SITE);

    /// Hands the quiet macrosteps' progress (atomic state, last event) to the interpreter.
    #[inline]
    fn catch_up(&self) {
        let shared = &*self.inner;
        if !Self::QUIET_MOVES {
            // The event is written only by `quiet_move`, which returns at once here.
            debug_assert!(shared.quiet_at.is_caught_up());
            return;
        }
        if !shared.quiet_at.is_caught_up() {
            if let Ok(mut core) = shared.core.try_borrow_mut() {
                let event = shared.quiet_at.event();
                core.catch_up_quiet(shared.quiet_at.row(), event as usize);
                shared.quiet_at.caught_up();
            }
        }
    }

    /// Runs `f`, which may run user code while the interpreter is borrowed, with the quiet
    /// path off: an event submitted from it is queued and processed afterwards, and so are a
    /// [`start`](Machine::start) and an [`advance_time`](Machine::advance_time) it requested.
    fn loud<R>(&self, f: impl FnOnce() -> R) -> R {
        self.catch_up();
        let shared = &*self.inner;
        let was_quiet = shared.quiet.replace(false);
        let r = f();
        let requested = !shared.inbox.borrow().is_empty()
            || shared.advance_target.get().is_some()
            || (shared.start_requested.get()
                && shared.core.try_borrow().is_ok_and(|core| !core.started));
        if requested {
            self.drain();
        } else if was_quiet {
            shared.quiet.set(self.is_quiet());
        }
        r
    }

    /// Bounds every macrostep to `n` steps (at least 1; the default is 100 000). A step is a
    /// microstep or an internal event that enabled no transition (so a loop of failing
    /// conditions raising `error.execution` is bounded too). A macrostep that would run more
    /// is abandoned where it stands, its internal queue cleared, and
    /// [`RuntimeError::MacrostepLimit`] reported to error observers (and `tracing::error!`);
    /// the machine keeps running and handles the next event normally.
    pub fn set_max_microsteps(&self, n: usize) {
        if let Ok(mut core) = self.core_mut() {
            core.max_microsteps = n.max(1);
        }
    }

    /// Bounds the work one call does (`start`, `submit_event`, `advance_time`, ...) to `n`
    /// units (at least 1; the default is [`DEFAULT_MAX_STEPS_PER_CALL`], a million): starting,
    /// one external event with its macrostep, or one due delayed event. A chart that keeps
    /// sending itself events without delay never runs out of work; at the bound the call
    /// returns, [`RuntimeError::StepLimit`] is reported to error observers (and
    /// `tracing::error!`), and the events still queued wait for the next call that processes
    /// events.
    pub fn set_max_steps_per_call(&self, n: usize) {
        self.inner.max_steps_per_call.set(n.max(1));
    }

    /// Gives `<data>` items values that replace their `expr` at start-up (like Qt's
    /// `setInitialValues`). `values` is a JSON object of data ids to values; later calls add
    /// to and override earlier ones.
    ///
    /// # Errors
    /// [`InitError::NotAnObject`], [`InitError::UnknownData`] for an id the chart does not
    /// declare, [`InitError::WrongType`] for a value that does not deserialize into the
    /// field's type (checked now, on a scratch datamodel), [`InitError::AlreadyStarted`]
    /// while the machine runs (after [`start`](Machine::start), until it stops; the values of
    /// a stopped machine apply when it is started again). On error nothing is stored.
    pub fn set_initial_values(&self, values: impl Into<Value>) -> Result<(), InitError> {
        let Value::Object(map) = values.into() else {
            return Err(InitError::NotAnObject);
        };
        {
            let shared = &*self.inner;
            let core = self.core();
            if core.running
                || (!core.started && shared.start_requested.get())
                || shared.restart_requested.get()
            {
                return Err(InitError::AlreadyStarted);
            }
        }
        super::owned::check_initial_values::<C>(&map)?;
        let mut core = self.inner.core.borrow_mut();
        core.initial_values.extend(map);
        Ok(())
    }

    /// Starts the machine (SCXML 1.0, Appendix D `interpret`): initialises the datamodel,
    /// runs the top-level script, enters the initial configuration and runs the first
    /// macrostep, then processes the external events submitted before. Does nothing while
    /// the machine runs.
    ///
    /// A machine that has stopped (it reached a top-level `<final>`, or [`stop`](Machine::stop)
    /// was called) starts afresh, as a new machine would: a fresh datamodel (with the values
    /// of [`set_initial_values`](Machine::set_initial_values)), no history, the clock at
    /// zero, nothing queued; [`final_state`](Machine::final_state) is cleared. Observers stay
    /// connected and hear the new entries.
    pub fn start(&self) {
        self.inner.start_requested.set(true);
        self.inner.restart_requested.set(true);
        self.drain();
    }

    /// Stops a running machine (SCXML 1.0, Appendix D `exitInterpreter`, without a
    /// top-level `<final>`): cancels its invoked sessions, exits every active state in
    /// exit order (running each `<onexit>`; state observers hear the exits), and drops the
    /// queued events and the pending delayed `<send>`s. Afterwards
    /// [`is_running`](Machine::is_running) is `false`, [`final_state`](Machine::final_state)
    /// is `None`, events submitted are dropped (reported as [`RuntimeError::NotRunning`]), and
    /// [`start`](Machine::start) starts it afresh. Does nothing on a machine that is not
    /// running. Inside an observer or chart code, the machine stops once the current
    /// macrostep has ended.
    pub fn stop(&self) {
        self.inner.stop_requested.set(true);
        self.drain();
    }

    /// Whether the machine has started and has not reached a top-level final state.
    pub fn is_running(&self) -> bool {
        let core = self.core();
        core.started && core.running
    }

    /// The top-level `<final>` state whose entry stopped the machine (SCXML 1.0, 3.7), once
    /// it has stopped; `None` while it runs or before it starts. It is no longer active by
    /// then: reaching a top-level final state exits every state.
    pub fn final_state(&self) -> Option<C::State> {
        self.core().final_state.and_then(C::state)
    }

    /// The `id` of [`final_state`](Machine::final_state), for states without an enum
    /// variant too.
    pub fn final_state_id(&self) -> Option<&'static str> {
        let states = C::tables().states;
        self.core().final_state.map(|s| states[s as usize].id)
    }

    /// The invoke ids of the sessions this machine invoked (SCXML 1.0, 6.4) that still run,
    /// in invocation order (Qt's `invokedServices`).
    pub fn invoked(&self) -> Vec<String> {
        self.core()
            .ctx
            .children
            .iter()
            .filter(|c| !c.finished)
            .map(|c| c.id.clone())
            .collect()
    }

    /// The active state ids of the invoked session `id`, in document order; `None` when this
    /// machine runs no session with that id.
    pub fn invoked_active_state_ids(&self, id: &str) -> Option<Vec<&'static str>> {
        let core = self.core();
        let child = core
            .ctx
            .children
            .iter()
            .find(|c| c.id == id && !c.finished)?;
        Some(child.session.active_state_ids())
    }

    /// Sends `event` to the invoked session `id`, as `<send target="#_id">` would, and lets it
    /// run. Returns `false` (and sends nothing) when no such session runs, or when called
    /// from this machine's own executable content.
    pub fn submit_to_invoked(&self, id: &str, event: Event) -> bool {
        {
            let Ok(mut core) = self.core_mut() else {
                return false;
            };
            let Some(child) = core
                .ctx
                .children
                .iter_mut()
                .find(|c| c.id == id && !c.finished)
            else {
                return false;
            };
            child.session.deliver(event);
        }
        self.drain();
        true
    }

    /// Queues an external event named `name` with payload `data` (`()` for none) and
    /// processes it (Qt's `submitEvent`). Before [`start`](Machine::start) the event waits;
    /// after the machine stopped it is dropped and reported to error observers as
    /// [`RuntimeError::NotRunning`]. Inside an observer it is processed once the observer
    /// returns.
    ///
    /// When the macrostep for the active atomic state and `name` depends on nothing but the
    /// configuration (no `cond`, no executable content, no history, no `<final>`, no
    /// eventless transition after it; in a chart without `<parallel>` or `<invoke>`), it was
    /// precomputed on first use and the event is processed without building an [`Event`] or
    /// running the interpreter; the effect is the same. [`submit`](Machine::submit) always
    /// runs the interpreter.
    #[inline]
    pub fn submit_event(&self, name: &str, data: impl Into<Value>) {
        let shared = &*self.inner;
        let data = data.into();
        if shared.quiet.get() && data.is_null() && self.quiet_move(name) {
            // `Null` owns nothing; forgetting it spares a call to its destructor.
            std::mem::forget(data);
            return;
        }
        self.submit_event_observed(name, data);
    }

    /// For a quiet machine (nobody observes, nothing waits): the precomputed macrostep of
    /// the event `name` without data, by moving the atomic state alone (the interpreter
    /// catches up when it is next used). `false` when none is precomputed.
    #[inline(always)]
    fn quiet_move(&self, name: &str) -> bool {
        let shared = &*self.inner;
        // `quiet` is set only with precomputed steps on (`is_quiet`), and turning them off
        // clears it: every caller has checked it.
        debug_assert!(shared.precomputed.get() && shared.quiet.get());
        if !Self::QUIET_MOVES {
            return false;
        }
        let Some(index) = C::event_index(name) else {
            return false;
        };
        let cell = shared.quiet_at.row() as usize + index;
        let row = if C::QUIET_STEPS {
            // Generated code: a branch per cell instead of a load chained to the last
            // event's.
            C::quiet_step(cell)
        } else {
            shared.quiet_cells.get().get(cell).copied()
        };
        match row.filter(|&r| r != QUIET_SLOW) {
            Some(row) => {
                shared.quiet_at.moved(row, index as u32);
                true
            }
            None => false,
        }
    }

    /// [`submit_event`](Machine::submit_event) when the machine is not quiet or the
    /// macrostep was not precomputed.
    #[inline(never)]
    fn submit_event_observed(&self, name: &str, data: Value) {
        match envelope::external::<C::Event>(name, data) {
            Ok(event) => self.submit_envelope(event),
            Err(why) => self.refuse(name, why),
        }
    }

    /// Queues an event on the external queue and processes it like
    /// [`submit_event`](Machine::submit_event): the chart's typed `Event`
    /// (`machine.submit(Event::Tap(cell))`), or a plain [`Event`] of any name and kind (an
    /// event of one of the chart's names is typed first; one whose data does not fit the
    /// payload type the chart gives its name is dropped and reported to error observers as
    /// [`RuntimeError::EventData`]).
    #[inline(always)]
    pub fn submit(&self, event: impl Submission<C::Event>) {
        let event = match event.into_typed() {
            Ok(e) => return self.submit_typed(e),
            Err(event) => event,
        };
        match event.into_envelope() {
            Ok(Envelope::Typed(e, _))
                if self.inner.quiet.get() && e.is_plain() && self.quiet_move(e.name()) => {}
            Ok(event) => self.submit_envelope(event),
            Err(refused) => self.refuse(&refused.name, refused.reason),
        }
    }

    /// Makes precomputed macrosteps apply (`true`, the default) or sends every event through
    /// the full interpreter (`false`): for tests that compare the two, and for debugging.
    /// The effect on the machine is the same either way.
    pub fn set_precomputed_steps(&self, on: bool) {
        self.inner.precomputed.set(on);
        self.inner.lane.set(LANE_CLOSED);
        if !on {
            self.catch_up();
            self.inner.quiet.set(false);
        }
        if let Ok(mut core) = self.core_mut() {
            core.precomputed = on;
        }
    }

    /// Whether `state` is in the active configuration.
    pub fn is_active(&self, state: C::State) -> bool {
        self.core().ctx.configuration.contains(C::index(state))
    }

    /// The active states in document order (ancestors before descendants).
    pub fn active_states(&self) -> Vec<C::State> {
        self.core()
            .ctx
            .configuration
            .iter()
            .filter_map(C::state)
            .collect()
    }

    /// Checks that the active configuration is legal (SCXML 1.0, 3.11), as it must be between
    /// two macrosteps: every active state's parent is active, each active compound state has
    /// exactly one active child, each active parallel state has all its regions active, no
    /// history state is active; and a machine that stopped (or has not started) has nothing
    /// active. For tests and debugging: a failure is a bug in the runtime.
    ///
    /// # Errors
    /// What is wrong, naming the first offending state.
    pub fn check_configuration(&self) -> Result<(), String> {
        let core = self.core();
        let configuration: Vec<StateIndex> = core.ctx.configuration.iter().collect();
        if !(core.started && core.running) {
            return if configuration.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "not running, yet {:?} are active",
                    self.active_state_ids()
                ))
            };
        }
        super::snapshot::check_legal(C::tables().states, &configuration)
    }

    /// The ids of all active states in document order (the root excluded).
    pub fn active_state_ids(&self) -> Vec<&'static str> {
        let states = C::tables().states;
        self.core()
            .ctx
            .configuration
            .iter()
            .map(|s| states[s as usize].id)
            .collect()
    }

    /// The ids of the active atomic and final states, sorted by id.
    pub fn active_atomic_state_ids(&self) -> Vec<&'static str> {
        let states = C::tables().states;
        let mut ids: Vec<_> = self
            .core()
            .ctx
            .configuration
            .iter()
            .filter(|&s| states[s as usize].kind.is_atomic())
            .map(|s| states[s as usize].id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Calls `f(true)` whenever `state` is entered and `f(false)` whenever it is exited
    /// (Qt's `connectToState`), after the macrostep in which it happened. Not called for the
    /// current configuration at the time of connecting.
    pub fn connect_to_state(&self, state: C::State, f: impl FnMut(bool) + 'static) -> Connection {
        let index = C::index(state);
        self.connect(Box::new(f) as Box<dyn FnMut(bool)>, |obs, slot| {
            let slot: StateSlot = slot;
            obs.states.push((index, slot));
        })
    }

    /// Connects an observer whose kind puts the machine off the quiet path and the lane's
    /// current recording: `add` puts its slot onto its list.
    fn connect<F: ?Sized + 'static>(
        &self,
        f: Box<F>,
        add: impl FnOnce(&mut super::observers::Observers<C::Event>, Rc<super::observers::Slot<F>>),
    ) -> Connection {
        self.inner.quiet.set(false);
        self.inner.lane.set(LANE_CLOSED);
        let connection = self.inner.observers.connect(f, add);
        // Read after `connect` returns: a callback it dropped may have connected more.
        let watch = self.inner.observers.with(|lists| lists.watch());
        self.inner.watch.set(watch);
        connection
    }

    /// Calls `f(&event)` for every external event the machine dequeues whose name matches
    /// the descriptor list `descriptors` (e.g. `"tap error.*"`, SCXML 1.0, 3.12.1; `"*"` for
    /// all): submitted events, events the chart `<send>`s to itself and delayed events.
    /// Called after the macrostep the event started.
    pub fn connect_to_event(
        &self,
        descriptors: &str,
        f: impl FnMut(&Event) + 'static,
    ) -> Connection {
        let descriptors: Vec<String> = descriptors
            .split_ascii_whitespace()
            .map(|d| normalize_descriptor(d).to_owned())
            .collect();
        self.connect(Box::new(f) as Box<dyn FnMut(&Event)>, |obs, slot| {
            let slot: EventSlot = slot;
            obs.events.push((descriptors, slot));
        })
    }

    /// Calls `f(&error)` for every [`RuntimeError`]: failed executable content (which also
    /// raised `error.execution`) and abandoned macrosteps.
    pub fn connect_to_error(&self, f: impl FnMut(&RuntimeError) + 'static) -> Connection {
        // Error observers change nothing the machine records: no `watch`, no lane to close.
        self.inner
            .observers
            .connect(Box::new(f) as Box<dyn FnMut(&RuntimeError)>, |obs, slot| {
                let slot: ErrorSlot = slot;
                obs.errors.push(slot);
            })
    }

    /// Calls `f(&event)` for every external event of the chart's names that the machine
    /// dequeues, typed (the generated `Event`): submitted events, events the chart `<send>`s
    /// to itself and delayed events, after the macrostep the event started. Events of other
    /// names (submitted by name only) reach only [`connect_to_event`](Machine::connect_to_event)
    /// observers.
    pub fn observe(&self, f: impl FnMut(&C::Event) + 'static) -> Connection {
        self.connect(Box::new(f) as Box<dyn FnMut(&C::Event)>, |obs, slot| {
            let slot: TypedSlot<C::Event> = slot;
            obs.typed.push(slot);
        })
    }

    /// Calls `f(label, value)` for every `<log>` the chart runs (SCXML 1.0, 4.6; Qt's `log`
    /// signal), after the macrostep in which it ran. Every `<log>` is also a `tracing`
    /// `info!` record with target `scxml`.
    pub fn connect_to_log(&self, f: impl FnMut(&str, &Value) + 'static) -> Connection {
        self.connect(Box::new(f) as Box<dyn FnMut(&str, &Value)>, |obs, slot| {
            let slot: LogSlot = slot;
            obs.logs.push(slot);
        })
    }

    /// The machine time: zero at start, moved only by [`advance_time`](Machine::advance_time).
    pub fn now(&self) -> Duration {
        self.core().ctx.now
    }

    /// The machine time at which the earliest pending delayed `<send>` is due; `None` when
    /// nothing is pending (or the machine is not running).
    pub fn next_deadline(&self) -> Option<Duration> {
        let core = self.core();
        if core.running {
            core.next_deadline_tree()
        } else {
            None
        }
    }

    /// How long until [`next_deadline`](Machine::next_deadline), from [`now`](Machine::now).
    pub fn time_until_next(&self) -> Option<Duration> {
        let core = self.core();
        if !core.running {
            return None;
        }
        let now = core.ctx.now;
        core.next_deadline_tree().map(|d| d.saturating_sub(now))
    }

    /// Moves machine time forward by `by`. Delayed events due by then fire one at a time in
    /// deadline order (equal deadlines in send order), each with the machine time set to its
    /// deadline and processed as an external event with its macrostep (it may schedule more
    /// events, which fire too if due); then the time is `now + by`. Before
    /// [`start`](Machine::start) it does nothing. Inside an observer (or a
    /// [`with_data`](Machine::with_data) closure) the advance happens once the observer
    /// (closure) returns and the events queued before it are processed.
    pub fn advance_time(&self, by: Duration) {
        let Ok(core) = self.try_core() else {
            tracing::warn!(
                chart = C::tables().name,
                "advance_time called from the chart's own executable content; ignored"
            );
            return;
        };
        if !core.started {
            return;
        }
        let target = core.ctx.now.saturating_add(by);
        drop(core);
        let target = match self.inner.advance_target.get() {
            Some(t) => t.max(target),
            None => target,
        };
        self.inner.advance_target.set(Some(target));
        self.drain();
    }

    /// Runs `f` on the datamodel.
    ///
    /// # Panics
    /// When called from the chart's own executable content while it runs.
    pub fn with_data<R>(&self, f: impl FnOnce(&C::Data) -> R) -> R {
        self.loud(|| f(&self.core().data))
    }

    /// The value of the `<data>` item `id` as JSON ([`DataItem::get`](super::DataItem::get));
    /// `None` for an unknown id or a value that does not serialize.
    pub fn data_value(&self, id: &str) -> Option<Value> {
        let item = C::tables().data.iter().find(|d| d.id == id)?;
        self.loud(|| {
            let core = self.core();
            catch_unwind(AssertUnwindSafe(|| (item.get)(&core.data)))
                .ok()?
                .ok()
        })
    }
}
