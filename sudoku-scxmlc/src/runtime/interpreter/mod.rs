//! The SCXML interpretation algorithm of SCXML 1.0, Appendix D, over the static [`Tables`].
//!
//! Names follow the appendix (`select_transitions`, `compute_exit_set`,
//! `add_descendant_states_to_enter`, ...). The differences are representation only:
//! * states are indices in document order, so entry order is ascending index order, exit order
//!   descending, and `isDescendant(a, b)` is `b < a < descendants_end(b)`;
//! * the exit set of one transition is "active states inside its domain", a range query on the
//!   configuration bitset; the domain comes precomputed from the tables unless a target is a
//!   history state ([`Domain::Dynamic`]);
//! * the `<scxml>` root (index 0) is never in the configuration;
//! * every call of generated code is guarded by `catch_unwind`: an `Err` or a panic becomes
//!   the platform event `error.execution` (SCXML 1.0, section 5.10.2);
//! * a macrostep is bounded by `max_microsteps`.
//!
//! The interpreter does not own its event loop: [`Machine`](super::Machine) calls
//! [`Interpreter::start`] once and then [`Interpreter::process_external`] per external event,
//! and collects the [`Notification`]s each call leaves in the outbox.
//!
//! The interpreter's parts: this module holds its state, start, stop and the external
//! event's entry point; `macrostep.rs` the macrostep (Appendix D `mainEventLoop`'s inner
//! loop, invocations, the microstep bound, the top-level `<final>`); `microstep.rs` the
//! selection of transitions and the exits and entries of a microstep; `shape.rs` what the
//! entry sets are computed from (domains, `computeEntrySet`); `precomputed.rs` the
//! interpreter's side of precomputed, generated and lane macrosteps (and of the quiet path).

use super::envelope::{ChartEvent, Envelope, Untyped};
use super::fast_path::{FastPath, Step as FastStep};
use super::panic::guarded;
use super::state_set::StateSet;
use super::steps::{StepFn, Stepper};
use super::{
    descriptor_matches, BlockIndex, Context, Domain, Event, ExecError, RuntimeError, StateIndex,
    StateKind, StateRow, Tables, TransitionIndex, TransitionRow,
};
use serde_json::{Map, Value};

/// How many microsteps' first transitions the interpreter keeps, to name the loop that hit
/// the microstep bound.
const RECENT_MICROSTEPS: usize = 64;

/// The default bound of microsteps per macrostep.
pub(crate) const DEFAULT_MAX_MICROSTEPS: usize = 100_000;

/// Something observers must hear about, in the order it happened.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Notification {
    /// A state was added to the configuration.
    Entered(StateIndex),
    /// A state was removed from the configuration.
    Exited(StateIndex),
    /// An external event was dequeued (recorded only when event observers exist): the
    /// interpreter keeps it ([`Interpreter::lend_observed`]) until it is delivered.
    Event,
    /// A problem was reported (boxed, so that the frequent entries and exits stay small).
    Error(Box<RuntimeError>),
    /// A `<log>` ran (recorded only when log observers exist): label and value.
    Log(Box<(String, Value)>),
}

/// The interpreter core of one machine: datamodel, context, history and scratch buffers.
pub(crate) struct Interpreter<D: 'static, E: 'static = Untyped> {
    pub(crate) tables: &'static Tables<D, E>,
    pub(crate) data: D,
    pub(crate) ctx: Context<E>,
    /// Whether `start` has run.
    pub(crate) started: bool,
    /// Appendix D's `running`: started and no top-level final state reached.
    pub(crate) running: bool,
    pub(crate) max_microsteps: usize,
    /// Values for `<data>` ids given by `set_initial_values`.
    pub(crate) initial_values: Map<String, Value>,
    /// What observers must hear about.
    pub(crate) outbox: Vec<Notification>,
    /// Record entered and exited states in the outbox.
    pub(crate) record_states: bool,
    /// Record dequeued external events in the outbox.
    pub(crate) record_events: bool,
    /// The external event of the last macrostep, kept for event observers when `_event` moved
    /// on to an internal event ([`Notification::Event`]).
    observed: Option<Envelope<E>>,
    /// The external event of the last macrostep is still `_event` and observers must hear it.
    observed_pending: bool,
    /// History values, indexed by the history state's index.
    history: Vec<Vec<StateIndex>>,
    /// History states that have a recorded value.
    history_recorded: StateSet,
    /// The top-level `<final>` whose entry stopped the machine.
    pub(crate) final_state: Option<StateIndex>,
    /// Late binding: the states whose `<data>` items have their values.
    pub(crate) data_bound: StateSet,
    /// Appendix D `statesToInvoke`: entered states with `<invoke>`s, invoked at the end of
    /// the macrostep.
    states_to_invoke: StateSet,
    /// The `<donedata>` of the top-level final state that stopped the machine.
    pub(crate) done_data: Value,
    /// The states with an eventless `<transition>`, in document order:
    /// `selectEventlessTransitions` finds nothing unless one of them is active, which a look
    /// at each tells without walking the configuration's transitions.
    eventless_states: Box<[StateIndex]>,
    /// The last state entered (by a microstep, a precomputed macrostep or a restore): in a
    /// chart without parallel states, whenever it runs, the one active atomic state (entry
    /// order ends with the deepest state entered). [`leaf`](Self::leaf) checks it anyway;
    /// the lane of a chart of more than 64 states ([`exact_leaf`](Self::exact_leaf)) trusts
    /// it. The precomputed microsteps of a smaller chart's lane write the configuration word
    /// and not this (that lane reads the word).
    pub(crate) leaf_hint: StateIndex,
    /// A ring of the first transition of each of the last [`RECENT_MICROSTEPS`] microsteps.
    recent: Vec<TransitionIndex>,
    /// Microsteps recorded in `recent` since the machine started.
    recent_count: usize,
    /// The chart's generated macrosteps (`Chart::step`), used while `precomputed`.
    pub(crate) generated: Option<StepFn<D, E>>,
    /// Precomputed and generated macrosteps apply (`Machine::set_precomputed_steps`).
    pub(crate) precomputed: bool,
    /// The chart's precomputed macrosteps, once looked up (`fast_path_known`).
    fast_path: Option<&'static FastPath>,
    /// Whether `fast_path` has been looked up.
    fast_path_known: bool,
    scratch: Scratch,
}

/// Buffers reused across microsteps so a microstep allocates nothing once warmed up.
#[derive(Default)]
struct Scratch {
    atomic: Vec<StateIndex>,
    enabled: Vec<TransitionIndex>,
    /// The conflict-free transitions and the domain of each (`None`: empty exit set).
    filtered: Vec<(TransitionIndex, Option<StateIndex>)>,
    remove: Vec<usize>,
    exit_set: StateSet,
    entry: EntrySets,
    targets: Vec<StateIndex>,
}

mod macrostep;
mod microstep;
mod precomputed;
mod shape;

pub(super) use shape::{EntrySets, Shape};

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// A machine that has not started, over `tables` with the fresh datamodel `data`.
    pub(crate) fn new(tables: &'static Tables<D, E>, data: D) -> Self {
        super::panic::install_hook();
        let n = tables.states.len();
        Interpreter {
            tables,
            data,
            ctx: Context::new(tables.name, tables.states),
            started: false,
            running: false,
            max_microsteps: DEFAULT_MAX_MICROSTEPS,
            initial_values: Map::new(),
            outbox: Vec::new(),
            record_states: false,
            record_events: false,
            observed: None,
            observed_pending: false,
            history: vec![Vec::new(); n],
            history_recorded: StateSet::with_capacity(n),
            final_state: None,
            data_bound: StateSet::with_capacity(n),
            states_to_invoke: StateSet::with_capacity(n),
            done_data: Value::Null,
            eventless_states: (0..n as StateIndex)
                .filter(|&s| tables.has_eventless_transition(s))
                .collect(),
            leaf_hint: 0,
            recent: Vec::new(),
            recent_count: 0,
            generated: None,
            precomputed: true,
            fast_path: None,
            fast_path_known: false,
            scratch: Scratch {
                exit_set: StateSet::with_capacity(n),
                entry: EntrySets {
                    to_enter: StateSet::with_capacity(n),
                    for_default_entry: StateSet::with_capacity(n),
                    default_history_content: Vec::new(),
                },
                ..Scratch::default()
            },
        }
    }

    /// Recorded history values: (history state, the states it restores).
    pub(crate) fn history_values(&self) -> impl Iterator<Item = (StateIndex, &[StateIndex])> {
        self.history_recorded
            .iter()
            .map(|h| (h, self.history[h as usize].as_slice()))
    }

    /// Sets a history value (restoring a snapshot).
    pub(crate) fn set_history(&mut self, h: StateIndex, values: Vec<StateIndex>) {
        self.history[h as usize] = values;
        self.history_recorded.insert(h);
    }

    fn shape(&self) -> Shape<'_> {
        Shape {
            states: self.tables.states,
            transitions: self.tables.transitions,
            history: &self.history,
            history_recorded: &self.history_recorded,
        }
    }

    /// Raises `error.execution` for a failure at chart line `line` and reports it.
    ///
    /// The event's data is an object naming where it happened (the field names SCION uses):
    /// `{"tagname": "log", "line": 12, "column": 9, "reason": "...", "file": "chart.scxml"}`.
    /// `element` and `line` are the site when the error does not carry a finer one.
    fn execution_error(&mut self, element: &'static str, line: u32, error: ExecError) {
        let site = error.site().unwrap_or(super::ErrorSite {
            element,
            line,
            column: 0,
        });
        let message = error.message().to_owned();
        tracing::debug!(
            chart = self.tables.name,
            file = self.tables.file,
            line = site.line,
            column = site.column,
            element = site.element,
            message = message.as_str(),
            "error.execution"
        );
        let data = serde_json::json!({
            "tagname": site.element,
            "line": site.line,
            "column": site.column,
            "reason": message,
            "file": self.tables.file,
        });
        self.ctx.raise_platform("error.execution", data);
        self.outbox
            .push(Notification::Error(Box::new(RuntimeError::Execution {
                file: self.tables.file.to_owned(),
                line: site.line,
                column: site.column,
                element: site.element.to_owned(),
                message,
            })));
    }

    /// Late binding (SCXML 1.0, 5.3): assigns the initial values of the `<data>` items that
    /// `state` declares, the first time it is entered. Values given by `set_initial_values`
    /// were already assigned at start and are kept.
    fn bind_data(&mut self, state: StateIndex) {
        for item in self.tables.data.iter().filter(|d| d.state == state) {
            if self.initial_values.contains_key(item.id) {
                continue;
            }
            let (data, ctx) = (&mut self.data, &self.ctx);
            if let Err(e) = guarded(|| (item.init)(data, ctx)) {
                self.execution_error("data", item.line, e);
            }
        }
    }

    /// Runs one block of executable content; a failure raises `error.execution`.
    fn run_block(&mut self, block: BlockIndex) {
        let Some(b) = self.tables.blocks.get(block as usize) else {
            self.execution_error(
                "executable content",
                0,
                ExecError::new(format!("no block {block} in the tables")),
            );
            return;
        };
        let (data, ctx) = (&mut self.data, &mut self.ctx);
        if let Err(e) = guarded(|| (b.run)(data, ctx)) {
            self.execution_error("executable content", b.line, e);
        }
        self.flush_logs();
    }

    /// Appendix D `conditionMatch`: a transition without `cond` is enabled; an error makes
    /// the condition false and raises `error.execution`.
    fn condition_match(&mut self, t: TransitionIndex) -> bool {
        let Some(cond) = self.tables.transitions[t as usize].cond else {
            return true;
        };
        let Some(c) = self.tables.conditions.get(cond as usize) else {
            self.execution_error(
                "transition",
                0,
                ExecError::new(format!("no condition {cond} in the tables")),
            );
            return false;
        };
        let (data, ctx) = (&self.data, &self.ctx);
        match guarded(|| (c.eval)(data, ctx)) {
            Ok(b) => b,
            Err(e) => {
                self.execution_error("transition", c.line, e);
                false
            }
        }
    }

    /// Interpreter start-up (Appendix D `interpret`, minus the event loop): initialises the
    /// datamodel (early binding), runs the top-level script, enters the initial
    /// configuration and runs the first macrostep. Does nothing when already started.
    pub(crate) fn start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        self.running = true;
        let initial_values = std::mem::take(&mut self.initial_values);
        let late = self.tables.late_binding;
        for item in self.tables.data {
            if late && item.state != 0 && !initial_values.contains_key(item.id) {
                continue; // bound when its state is first entered
            }
            let result = match initial_values.get(item.id) {
                Some(v) => {
                    let data = &mut self.data;
                    guarded(|| (item.set)(data, v.clone()).map_err(ExecError::from))
                }
                None => {
                    let (data, ctx) = (&mut self.data, &self.ctx);
                    guarded(|| (item.init)(data, ctx))
                }
            };
            if let Err(e) = result {
                self.execution_error("data", item.line, e);
            }
        }
        // Kept so that late binding does not overwrite values given by the caller.
        self.initial_values = initial_values;
        if let Some(script) = self.tables.script {
            self.run_block(script);
        }
        self.enter_initial_configuration();
        self.settle(0);
        self.finish_if_stopped();
    }

    /// Stops a running machine as reaching a top-level `<final>` would, but without one:
    /// [`exit_interpreter`](Self::exit_interpreter). Returns whether it was running.
    pub(crate) fn stop(&mut self) -> bool {
        if !(self.started && self.running) {
            return false;
        }
        self.running = false;
        self.final_state = None;
        self.exit_interpreter();
        true
    }

    /// Drops an external event submitted to a machine that has stopped, and reports it.
    pub(crate) fn not_running(&mut self, event: &str) {
        let error = RuntimeError::NotRunning {
            chart: self.tables.name.to_owned(),
            event: event.to_owned(),
            final_state: self
                .final_state
                .map(|f| self.tables.states[f as usize].id.to_owned()),
        };
        tracing::warn!(chart = self.tables.name, "{error}");
        self.outbox.push(Notification::Error(Box::new(error)));
    }

    /// Makes a stopped or finished machine new again, ready for [`start`](Self::start):
    /// the fresh datamodel `data`, an empty configuration, no history, the clock at zero.
    /// The limits and the values of `set_initial_values` are kept.
    pub(crate) fn reset(&mut self, data: D) {
        let mut fresh = Interpreter::new(self.tables, data);
        fresh.max_microsteps = self.max_microsteps;
        fresh.generated = self.generated;
        fresh.precomputed = self.precomputed;
        fresh.initial_values = std::mem::take(&mut self.initial_values);
        fresh.outbox = std::mem::take(&mut self.outbox);
        // Events submitted after `start()` was asked for (by an observer, say) are the new
        // run's: the old run's were dropped when it stopped.
        fresh.ctx.external = std::mem::take(&mut self.ctx.external);
        *self = fresh;
    }

    /// Appendix D's external-event half of `mainEventLoop`, followed by the macrostep it
    /// triggers. Ignored when the machine is not running.
    pub(crate) fn process_external(&mut self, event: Envelope<E>) {
        if !self.running {
            return;
        }
        let event = match self.generated_step(event) {
            Ok(()) => return,
            Err(event) => event,
        };
        self.ctx.set_event(event);
        self.note_observed();
        if !self.ctx.children.is_empty() {
            self.finalize_and_forward();
        }
        self.select_transitions(false);
        let mut steps = 0;
        if !self.scratch.filtered.is_empty() {
            self.microstep();
            steps = 1;
        }
        self.settle(steps);
        self.finish_if_stopped();
    }
}

#[cfg(test)]
mod tests;
