//! [`Core`]: a running chart owned by its caller, driven through `&mut self`.
//!
//! The runtime has two layers over the interpreter (SCXML 1.0, Appendix D, in
//! `interpreter/`):
//!
//! * [`Core`] owns the interpreter and its event loop: one call processes what it was given
//!   (start, an external event, time) to the end and then returns; callbacks hear what
//!   happened after each macrostep. It holds no `Rc` or `RefCell`, so it is `Send` whenever
//!   the chart's datamodel and events are, and can live in a thread or an async task
//!   (`runtime::driver`, feature `tokio`, runs one on tokio).
//! * [`Machine`](super::Machine) is the Qt-style shared handle (`Rc`, observers that may call
//!   back into the machine, `connect_to_state`, `connect_to_event`): it adds the inbox for
//!   re-entrant calls and the observer lists.
//!
//! Both run the same unit of work ([`Interpreter::work_once`]), the same direct
//! macrostep for an event nothing waits for (`Interpreter::direct_step`) and the chart's
//! typed lane (`runtime/lane.rs`; the core's side is `owned/lane.rs`), so they cannot
//! disagree. The core's typed [`Observer`] is a type parameter, so that telling it inlines
//! into the macrostep (`observer.rs`).

mod lane;
mod observer;

pub use observer::{Events, Observer, States};

use super::envelope::{self, is_plain_external, ChartEvent, Envelope, Submission};
use super::interpreter::{Interpreter, Notification};
use super::snapshot::{Snapshot, SnapshotError};
use super::{
    descriptor_matches, normalize_descriptor, Chart, Event, InitError, RuntimeError,
    DEFAULT_MAX_STEPS_PER_CALL,
};
use serde_json::{Map, Value};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// One unit of work of the event loop: starting (when `start` was asked for and the
    /// machine has not started), one external event with its macrostep, one round of the
    /// invoked sessions, one delayed event due by `advance`, or finishing a time advance
    /// (the clock moves to `advance`, which is cleared). Returns whether it did anything.
    pub(crate) fn work_once(&mut self, start: bool, advance: &mut Option<Duration>) -> bool {
        if !self.started {
            if start {
                self.start();
                return true;
            }
            *advance = None;
            return false;
        }
        if self.running {
            if let Some(event) = self.ctx.external.pop_front() {
                self.process_external(event);
                return true;
            }
            // Invoked children run when this machine is idle; what they send arrives as
            // external events.
            if !self.ctx.children.is_empty() && self.pump_children() {
                return true;
            }
            if let Some(target) = *advance {
                if self.fire_next_due(target) {
                    return true;
                }
            }
        } else {
            self.ctx.external.clear();
            self.ctx.timers.clear();
        }
        if let Some(target) = advance.take() {
            let now = self.ctx.now.max(target);
            super::Session::set_now(self, now);
            return true;
        }
        false
    }

    /// Whether [`work_once`](Self::work_once) might find something to do besides starting
    /// and time: queued events or invoked sessions.
    pub(crate) fn has_queued_work(&self) -> bool {
        self.started && (!self.ctx.external.is_empty() || !self.ctx.children.is_empty())
    }
}

/// Checks initial values for `<data>` items (Qt's `setInitialValues`) on a scratch
/// datamodel of chart `C`.
///
/// # Errors
/// [`InitError::UnknownData`] or [`InitError::WrongType`] for the first value that does not
/// fit.
pub(crate) fn check_initial_values<C: Chart>(map: &Map<String, Value>) -> Result<(), InitError> {
    let tables = C::tables();
    let mut scratch = C::new_data();
    for (id, value) in map {
        let item = tables
            .data
            .iter()
            .find(|d| d.id == id)
            .ok_or_else(|| InitError::UnknownData(id.clone()))?;
        let result = catch_unwind(AssertUnwindSafe(|| (item.set)(&mut scratch, value.clone())))
            .unwrap_or_else(|_| {
                Err(<serde_json::Error as serde::de::Error>::custom(
                    "the datamodel setter panicked",
                ))
            });
        result.map_err(|source| InitError::WrongType {
            id: id.clone(),
            source,
        })?;
    }
    Ok(())
}

type StateCallback = Box<dyn FnMut(bool) + Send>;
type EventCallback = Box<dyn FnMut(&Event) + Send>;
type TypedCallback<E> = Box<dyn FnMut(&E) + Send>;
type ErrorCallback = Box<dyn FnMut(&RuntimeError) + Send>;
type LogCallback = Box<dyn FnMut(&str, &Value) + Send>;

/// The callbacks of a [`Core`].
struct Callbacks<E> {
    states: Vec<(super::StateIndex, StateCallback)>,
    /// The states that `states` names (bit `s % 64`, `state_bit`), so that a delivery
    /// skips the walk of `states` for an exited or entered state nobody watches.
    state_mask: u64,
    events: Vec<(Vec<String>, EventCallback)>,
    typed: Vec<TypedCallback<E>>,
    errors: Vec<ErrorCallback>,
    logs: Vec<LogCallback>,
}

impl<E> Default for Callbacks<E> {
    fn default() -> Self {
        Callbacks {
            states: Vec::new(),
            state_mask: 0,
            events: Vec::new(),
            typed: Vec::new(),
            errors: Vec::new(),
            logs: Vec::new(),
        }
    }
}

/// A running instance of the chart `C`, owned by its caller: the `&mut self` layer of the
/// runtime (see the [module docs](self)), with the typed observer `O` (`()`: none; see
/// [`Observer`]).
///
/// Each call ([`start`](Core::start), [`submit`](Core::submit),
/// [`advance_time`](Core::advance_time), [`stop`](Core::stop)) does its work to the end (the
/// macrosteps it causes, and what they send the machine itself) before it returns, and the
/// callbacks (`on_state`, `observe`, `on_event`, `on_error`, `on_log`) hear what happened
/// after each macrostep, in order. A callback cannot reach the core; to react with an event,
/// hand it to the owner (a channel, a queue) and submit it after the call.
///
/// `Core<C, O>` is `Send` when `C`'s datamodel and events and the observer `O` are (and
/// `Sync` never matters: every method that changes it takes `&mut self`). An event of the
/// chart's typed `Event` that the chart's lane covers runs at the call site of
/// [`submit`](Core::submit) with the observer's calls inlined; everything else takes the
/// interpreter, with the same effect. Time is machine time: it moves only by
/// [`advance_time`](Core::advance_time) (`runtime::driver`, feature `tokio`, ties it to a clock).
pub struct Core<C: Chart, O = ()> {
    interp: Interpreter<C::Data, C::Event>,
    /// [`start`](Core::start) was called and the machine has not started yet.
    start_requested: bool,
    max_steps_per_call: usize,
    callbacks: Callbacks<C::Event>,
    /// The typed observer.
    observer: O,
    /// Whether the chart's lane may take the next typed event (`owned/lane.rs`): the
    /// machine runs and nothing is queued or recorded, precomputed steps are on and no
    /// callback by descriptor string is connected; and whether boxed callbacks of typed
    /// events or states are (the lane's step tells them; the others hear what the
    /// interpreter records). `lane::LANE_*`, set again after every call that is not a lane
    /// step.
    lane: u8,
}

// SAFETY: a `Core` owns everything it holds (no `Rc`, no shared cells; its callbacks are
// `Send` boxes), so moving it to another thread is sound when every value inside is `Send`:
// the datamodel and events of its chart, its observer, and those of the sessions it invokes. The invoked
// sessions are held as `Box<dyn Session>` (not `Send` as a trait object, because an invoked
// chart's datamodel may not be: the ECMAScript one holds its engine by `Rc`); their concrete
// types are the interpreters of the charts listed, recursively, in `C::Invoked`, so requiring
// `C::Invoked: Send` requires exactly those datamodels and events to be `Send`.
unsafe impl<C: Chart, O: Send> Send for Core<C, O>
where
    C::Data: Send,
    C::Event: Send,
    C::Invoked: Send,
{
}

impl<C: Chart> Default for Core<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Chart, O: Observer<C>> fmt::Debug for Core<C, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Core")
            .field("chart", &C::tables().name)
            .field("started", &self.interp.started)
            .field("running", &self.interp.running)
            .field("now", &self.interp.ctx.now)
            .field("active", &self.active_state_ids())
            .finish()
    }
}

impl<C: Chart> Core<C> {
    /// A machine that has not started: nothing is active, the datamodel is
    /// [`Chart::new_data`] until [`start`](Core::start) initialises it. It has no typed
    /// observer ([`with_observer`](Core::with_observer) gives it one).
    pub fn new() -> Self {
        Core::with_observer(())
    }

    /// A machine that continues from `snapshot`, as
    /// [`Machine::restore`](super::Machine::restore) does: nothing runs while restoring;
    /// queued events are processed by the next call that processes events.
    ///
    /// # Errors
    /// As [`Machine::restore`](super::Machine::restore).
    pub fn restore(snapshot: &Snapshot) -> Result<Self, SnapshotError> {
        Core::restore_with_observer(snapshot, ())
    }
}

impl<C: Chart, O: Observer<C>> Core<C, O> {
    /// A machine that has not started (as [`new`](Core::new)) whose typed observer is
    /// `observer`.
    pub fn with_observer(observer: O) -> Self {
        let mut interp = Interpreter::new(C::tables(), C::new_data());
        interp.generated = C::STEP;
        let mut core = Core {
            interp,
            start_requested: false,
            max_steps_per_call: DEFAULT_MAX_STEPS_PER_CALL,
            callbacks: Callbacks::default(),
            observer,
            lane: lane::LANE_CLOSED,
        };
        core.settled();
        core
    }

    /// A machine that continues from `snapshot` (as [`restore`](Core::restore)) whose typed
    /// observer is `observer`.
    ///
    /// # Errors
    /// As [`Machine::restore`](super::Machine::restore).
    pub fn restore_with_observer(snapshot: &Snapshot, observer: O) -> Result<Self, SnapshotError> {
        let mut core = Core::with_observer(observer);
        core.interp.restore(snapshot)?;
        core.settled();
        Ok(core)
    }

    /// The typed observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// The typed observer, to change.
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }

    /// Makes precomputed macrosteps and the chart's lane apply (`true`, the default) or
    /// sends every event through the full interpreter (`false`), as
    /// [`Machine::set_precomputed_steps`](super::Machine::set_precomputed_steps): the effect
    /// on the machine is the same either way.
    pub fn set_precomputed_steps(&mut self, on: bool) {
        self.interp.precomputed = on;
        self.settled();
    }

    /// The machine's state as a [`Snapshot`] (see [`Machine::snapshot`](super::Machine::snapshot)).
    ///
    /// # Errors
    /// [`SnapshotError::NotStarted`] before [`start`](Core::start); [`SnapshotError::Data`]
    /// when a `<data>` value does not serialize.
    pub fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        self.interp.snapshot()
    }

    /// Gives `<data>` items values that replace their `expr` at start-up (Qt's
    /// `setInitialValues`): a JSON object of data ids to values; later calls add to and
    /// override earlier ones.
    ///
    /// # Errors
    /// As [`Machine::set_initial_values`](super::Machine::set_initial_values); on error
    /// nothing is stored.
    pub fn set_initial_values(&mut self, values: impl Into<Value>) -> Result<(), InitError> {
        let Value::Object(map) = values.into() else {
            return Err(InitError::NotAnObject);
        };
        if self.interp.running || self.start_requested {
            return Err(InitError::AlreadyStarted);
        }
        check_initial_values::<C>(&map)?;
        self.interp.initial_values.extend(map);
        Ok(())
    }

    /// Bounds every macrostep to `n` microsteps (see
    /// [`Machine::set_max_microsteps`](super::Machine::set_max_microsteps)).
    pub fn set_max_microsteps(&mut self, n: usize) {
        self.interp.max_microsteps = n.max(1);
    }

    /// Bounds the units of work of one call (see
    /// [`Machine::set_max_steps_per_call`](super::Machine::set_max_steps_per_call)).
    pub fn set_max_steps_per_call(&mut self, n: usize) {
        self.max_steps_per_call = n.max(1);
    }

    /// Starts the machine (SCXML 1.0, Appendix D `interpret`) and processes the events
    /// submitted before; a machine that stopped starts afresh (a fresh datamodel with the
    /// initial values, no history, the clock at zero). Does nothing while it runs.
    pub fn start(&mut self) {
        if self.interp.started && self.interp.running {
            return;
        }
        if self.interp.started {
            self.interp.reset(C::new_data());
        }
        self.start_requested = true;
        self.run(None);
        self.start_requested = !self.interp.started;
        self.settled();
    }

    /// Stops a running machine as [`Machine::stop`](super::Machine::stop) does: invoked
    /// sessions cancelled, every state exited (state callbacks hear it), queued and delayed
    /// events dropped. Does nothing on a machine that is not running.
    pub fn stop(&mut self) {
        self.record();
        self.interp.stop();
        self.deliver();
        self.settled();
    }

    /// Processes an external event: the chart's typed `Event` or a plain [`Event`] of any
    /// name (typed first when its name is one of the chart's). Before
    /// [`start`](Core::start) it waits in the queue.
    ///
    /// # Errors
    /// [`RuntimeError::EventData`] when the data does not fit the payload type the chart
    /// gives the name; [`RuntimeError::NotRunning`] after the machine stopped. Either way
    /// the event is dropped (and error callbacks hear it too).
    #[inline(always)]
    pub fn submit(&mut self, event: impl Submission<C::Event>) -> Result<(), RuntimeError> {
        let event = match event.into_typed() {
            Ok(e) => return self.submit_typed(e),
            Err(event) => event,
        };
        match event.into_envelope() {
            Ok(event) => self.submit_envelope(event),
            Err(refused) => Err(self.refused(&refused.name, refused.reason)),
        }
    }

    /// Processes the external event `name` with JSON `data` (`()` for none), as Qt's
    /// `submitEvent`; the event is typed first when its name is one of the chart's.
    ///
    /// # Errors
    /// As [`submit`](Core::submit).
    pub fn submit_event(&mut self, name: &str, data: impl Into<Value>) -> Result<(), RuntimeError> {
        match envelope::external::<C::Event>(name, data.into()) {
            Ok(event) => self.submit_envelope(event),
            Err(why) => Err(self.refused(name, why)),
        }
    }

    /// Moves machine time forward by `by`, firing the delayed events due by then in
    /// deadline order, each with its macrostep (see
    /// [`Machine::advance_time`](super::Machine::advance_time)). Before
    /// [`start`](Core::start) it does nothing.
    pub fn advance_time(&mut self, by: Duration) {
        if !self.interp.started {
            return;
        }
        let target = self.interp.ctx.now.saturating_add(by);
        self.run(Some(target));
        self.settled();
    }

    /// Calls `f(true)` whenever `state` is entered and `f(false)` whenever it is exited,
    /// after the macrostep in which it happened.
    pub fn on_state(&mut self, state: C::State, f: impl FnMut(bool) + Send + 'static) {
        let index = C::index(state);
        self.callbacks.state_mask |= crate::runtime::observers::state_bit(index);
        self.callbacks.states.push((index, Box::new(f)));
        self.settled();
    }

    /// Calls `f(&event)` for every external event of the chart's names that the machine
    /// dequeues, typed, after the macrostep the event started (as
    /// [`Machine::observe`](super::Machine::observe)).
    pub fn observe(&mut self, f: impl FnMut(&C::Event) + Send + 'static) {
        self.callbacks.typed.push(Box::new(f));
        self.settled();
    }

    /// Calls `f(&event)` for every external event the machine dequeues whose name matches
    /// the descriptor list `descriptors` (`"tap error.*"`; `"*"` for all), with its data as
    /// JSON (made only when some descriptor matches).
    pub fn on_event(&mut self, descriptors: &str, f: impl FnMut(&Event) + Send + 'static) {
        let descriptors = descriptors
            .split_ascii_whitespace()
            .map(|d| normalize_descriptor(d).to_owned())
            .collect();
        self.callbacks.events.push((descriptors, Box::new(f)));
        self.settled();
    }

    /// Calls `f(&error)` for every [`RuntimeError`] (failed executable content, abandoned
    /// macrosteps, refused and dropped events).
    pub fn on_error(&mut self, f: impl FnMut(&RuntimeError) + Send + 'static) {
        self.callbacks.errors.push(Box::new(f));
    }

    /// Calls `f(label, value)` for every `<log>` the chart runs (SCXML 1.0, 4.6; Qt's `log`
    /// signal), after the macrostep in which it ran. Every `<log>` is also a `tracing`
    /// `info!` record with target `scxml`.
    pub fn on_log(&mut self, f: impl FnMut(&str, &Value) + Send + 'static) {
        self.callbacks.logs.push(Box::new(f));
        self.settled();
    }

    /// The datamodel.
    pub fn data(&self) -> &C::Data {
        &self.interp.data
    }

    /// Whether the machine has started and has not reached a top-level final state.
    pub fn is_running(&self) -> bool {
        self.interp.started && self.interp.running
    }

    /// Whether `state` is in the active configuration.
    pub fn is_active(&self, state: C::State) -> bool {
        self.interp.ctx.configuration.contains(C::index(state))
    }

    /// The active states in document order (ancestors before descendants).
    pub fn active_states(&self) -> Vec<C::State> {
        self.interp
            .ctx
            .configuration
            .iter()
            .filter_map(C::state)
            .collect()
    }

    /// The ids of all active states in document order.
    pub fn active_state_ids(&self) -> Vec<&'static str> {
        let states = C::tables().states;
        self.interp
            .ctx
            .configuration
            .iter()
            .map(|s| states[s as usize].id)
            .collect()
    }

    /// The top-level `<final>` state whose entry stopped the machine, once it has stopped.
    pub fn final_state(&self) -> Option<C::State> {
        self.interp.final_state.and_then(C::state)
    }

    /// The machine time: zero at start, moved only by [`advance_time`](Core::advance_time).
    pub fn now(&self) -> Duration {
        self.interp.ctx.now
    }

    /// The machine time at which the earliest pending delayed `<send>` is due; `None` when
    /// nothing is pending (or the machine is not running).
    pub fn next_deadline(&self) -> Option<Duration> {
        if self.interp.running {
            self.interp.next_deadline_tree()
        } else {
            None
        }
    }

    /// How long until [`next_deadline`](Core::next_deadline), from [`now`](Core::now).
    pub fn time_until_next(&self) -> Option<Duration> {
        let now = self.interp.ctx.now;
        self.next_deadline().map(|d| d.saturating_sub(now))
    }

    /// Queues or processes an event as it is held: a typed event without metadata by the
    /// lane where it is open.
    pub(crate) fn submit_envelope(
        &mut self,
        event: Envelope<C::Event>,
    ) -> Result<(), RuntimeError> {
        match event {
            Envelope::Typed(e, meta)
                if self.lane != lane::LANE_CLOSED && is_plain_external(&meta) =>
            {
                self.submit_typed(e)
            }
            event => {
                let result = self.process_envelope(event);
                self.settled();
                result
            }
        }
    }

    /// [`submit_envelope`](Self::submit_envelope) past the lane.
    fn process_envelope(&mut self, event: Envelope<C::Event>) -> Result<(), RuntimeError> {
        if self.interp.started && !self.interp.running {
            let name = event.name().to_owned();
            self.interp.not_running(&name);
            let error = self.take_error();
            self.deliver();
            return Err(error.unwrap_or(RuntimeError::NotRunning {
                chart: C::tables().name.to_owned(),
                event: name,
                final_state: None,
            }));
        }
        self.record();
        let name = C::event_index(event.name());
        let event = match self.interp.direct_step(event, name) {
            Ok(()) => {
                self.deliver();
                if self.interp.has_queued_work() {
                    self.run(None);
                }
                return Ok(());
            }
            Err(event) => event,
        };
        self.interp.ctx.external.push_back(event);
        self.run(None);
        Ok(())
    }

    /// The error of the notification the interpreter just recorded (a dropped event).
    fn take_error(&self) -> Option<RuntimeError> {
        match self.interp.outbox.last() {
            Some(Notification::Error(e)) => Some((**e).clone()),
            _ => None,
        }
    }

    /// Reports an event whose data does not fit its name's payload type.
    #[cold]
    fn refused(&mut self, name: &str, reason: String) -> RuntimeError {
        let error = RuntimeError::EventData {
            chart: C::tables().name.to_owned(),
            event: name.to_owned(),
            reason,
        };
        tracing::warn!(chart = C::tables().name, "{error}");
        for f in &mut self.callbacks.errors {
            f(&error);
        }
        error
    }

    /// Runs the event loop until nothing is left to do (or the step bound is reached),
    /// telling the callbacks after each unit of work.
    fn run(&mut self, mut advance: Option<Duration>) {
        let mut steps = 0;
        loop {
            if steps >= self.max_steps_per_call
                && (self.interp.has_queued_work() || advance.is_some())
            {
                let error = RuntimeError::StepLimit {
                    chart: C::tables().name.to_owned(),
                    steps,
                    queued: self.interp.ctx.external.len(),
                };
                tracing::error!(chart = C::tables().name, "{error}");
                for f in &mut self.callbacks.errors {
                    f(&error);
                }
                break;
            }
            self.record();
            let progressed = self.interp.work_once(self.start_requested, &mut advance);
            steps += usize::from(progressed);
            self.deliver();
            if !progressed {
                break;
            }
        }
    }

    /// What the interpreter records for the callbacks there are.
    fn record(&mut self) {
        let c = &self.callbacks;
        self.interp.record_states = O::STATES || !c.states.is_empty();
        self.interp.record_events = O::EVENTS || !c.typed.is_empty() || !c.events.is_empty();
        match (!c.logs.is_empty(), self.interp.ctx.logs.is_some()) {
            (true, false) => self.interp.ctx.logs = Some(Vec::new()),
            (false, true) => self.interp.ctx.logs = None,
            _ => {}
        }
    }

    /// Hands the notifications of the last unit of work to the callbacks.
    fn deliver(&mut self) {
        if self.interp.outbox.is_empty() {
            return;
        }
        let mut batch = std::mem::take(&mut self.interp.outbox);
        let lent = batch
            .iter()
            .any(|n| matches!(n, Notification::Event))
            .then(|| self.interp.lend_observed());
        let callbacks = &mut self.callbacks;
        let observer = &mut self.observer;
        let session = self.interp.ctx.session_id();
        let mut lent = lent;
        let plain = match &mut lent {
            Some((event, _)) if !callbacks.events.is_empty() => {
                let name = event.name();
                callbacks
                    .events
                    .iter()
                    .any(|(ds, _)| ds.iter().any(|d| descriptor_matches(d, name)))
                    .then(|| {
                        // Lent (not copied) unless typed observers read the payload too.
                        if callbacks.typed.is_empty() {
                            event.lend_event(session)
                        } else {
                            event.to_event(session)
                        }
                    })
            }
            _ => None,
        };
        for n in batch.drain(..) {
            match n {
                Notification::Entered(s) | Notification::Exited(s) => {
                    let entered = matches!(n, Notification::Entered(_));
                    if crate::runtime::observers::may_watch(callbacks.state_mask, s) {
                        for (index, f) in &mut callbacks.states {
                            if *index == s {
                                f(entered);
                            }
                        }
                    }
                    if O::STATES {
                        if let Some(state) = C::state(s) {
                            observer.state(state, entered);
                        }
                    }
                }
                Notification::Event => {
                    if let Some(plain) = &plain {
                        for (descriptors, f) in &mut callbacks.events {
                            if descriptors
                                .iter()
                                .any(|d| descriptor_matches(d, &plain.name))
                            {
                                f(plain);
                            }
                        }
                    }
                    if let Some(typed) = lent.as_ref().and_then(|(e, _)| e.typed()) {
                        for f in &mut callbacks.typed {
                            f(typed);
                        }
                        if O::EVENTS {
                            observer.event(typed);
                        }
                    }
                }
                Notification::Error(error) => {
                    for f in &mut callbacks.errors {
                        f(&error);
                    }
                }
                Notification::Log(record) => {
                    for f in &mut callbacks.logs {
                        f(&record.0, &record.1);
                    }
                }
            }
        }
        if let Some((mut event, was_current)) = lent {
            if let Some(plain) = plain {
                event.restore_lent(plain);
            }
            self.interp.return_observed(event, was_current);
        }
        // Keep the buffer's capacity for the next macrostep.
        if self.interp.outbox.is_empty() {
            self.interp.outbox = batch;
        }
    }
}
