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

use super::envelope::{ChartEvent, Envelope, Untyped};
use super::fast_path::{FastPath, Step as FastStep};
use super::panic::guarded;
use super::state_set::StateSet;
use super::steps::{StepFn, Stepper};
use super::{
    descriptor_matches, BlockIndex, Context, Domain, Event, ExecError, RuntimeError, StateIndex,
    StateInfo, StateKind, Tables, TransitionIndex, TransitionInfo,
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
    /// Whether some state has an eventless `<transition>` (otherwise every macrostep skips
    /// `selectEventlessTransitions`).
    has_eventless: bool,
    /// The last state entered (by a microstep, a precomputed macrostep or a restore): in a
    /// chart without parallel states, whenever it runs, the one active atomic state (entry
    /// order ends with the deepest state entered). [`leaf`](Self::leaf) checks it anyway;
    /// the lane ([`exact_leaf`](Self::exact_leaf)) trusts it.
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

/// The out-parameters of Appendix D's `computeEntrySet`.
#[derive(Default)]
pub(super) struct EntrySets {
    pub(super) to_enter: StateSet,
    pub(super) for_default_entry: StateSet,
    /// `defaultHistoryContent`: (parent of the history state, content of its default transition).
    pub(super) default_history_content: Vec<(StateIndex, BlockIndex)>,
}

/// The parts of the interpreter the entry-set computation reads.
pub(super) struct Shape<'a> {
    pub(super) states: &'static [StateInfo],
    pub(super) transitions: &'static [TransitionInfo],
    pub(super) history: &'a [Vec<StateIndex>],
    pub(super) history_recorded: &'a StateSet,
}

/// History default transitions that target history states are followed at most this deep
/// (malformed tables could make them cycle).
const MAX_HISTORY_DEPTH: usize = 64;

impl Shape<'_> {
    fn is_descendant(&self, state: StateIndex, ancestor: StateIndex) -> bool {
        ancestor < state && state < self.states[ancestor as usize].descendants_end
    }

    /// Appendix D `getEffectiveTargetStates`, appended to `out`.
    fn effective_targets(&self, t: TransitionIndex, out: &mut Vec<StateIndex>) {
        self.effective_targets_depth(t, out, 0);
    }

    fn effective_targets_depth(&self, t: TransitionIndex, out: &mut Vec<StateIndex>, depth: usize) {
        for &s in self.transitions[t as usize].targets {
            if self.states[s as usize].kind.is_history() {
                if self.history_recorded.contains(s) {
                    for &h in &self.history[s as usize] {
                        if !out.contains(&h) {
                            out.push(h);
                        }
                    }
                } else if let Some(default) = self.states[s as usize].initial {
                    if depth < MAX_HISTORY_DEPTH {
                        self.effective_targets_depth(default, out, depth + 1);
                    }
                }
            } else if !out.contains(&s) {
                out.push(s);
            }
        }
    }

    /// Appendix D `getTransitionDomain`; `None` for a targetless transition. Uses the
    /// precomputed domain unless it is [`Domain::Dynamic`]. `scratch` is clobbered.
    fn transition_domain(
        &self,
        t: TransitionIndex,
        scratch: &mut Vec<StateIndex>,
    ) -> Option<StateIndex> {
        let info = &self.transitions[t as usize];
        match info.domain {
            Domain::Targetless => None,
            Domain::Static(d) => Some(d),
            Domain::Dynamic => {
                scratch.clear();
                self.effective_targets(t, scratch);
                if scratch.is_empty() {
                    return None;
                }
                let source = info.source;
                if info.internal
                    && self.states[source as usize].kind.is_compound()
                    && scratch.iter().all(|&s| self.is_descendant(s, source))
                {
                    return Some(source);
                }
                Some(self.find_lcca(source, scratch))
            }
        }
    }

    /// Appendix D `findLCCA([head] + tail)`: the nearest compound (or root) proper ancestor
    /// of `head` that has every state of `tail` as a descendant.
    fn find_lcca(&self, head: StateIndex, tail: &[StateIndex]) -> StateIndex {
        let mut anc = self.states[head as usize].parent;
        while (anc as usize) < self.states.len() {
            if self.states[anc as usize].kind.is_compound()
                && tail.iter().all(|&s| self.is_descendant(s, anc))
            {
                return anc;
            }
            anc = self.states[anc as usize].parent;
        }
        0
    }

    /// The initial transition of a compound state and its targets; falls back to the first
    /// child state when the tables give none.
    fn initial_targets(&self, state: StateIndex) -> &'static [StateIndex] {
        let info = &self.states[state as usize];
        match info.initial {
            Some(t) => self.transitions[t as usize].targets,
            None => {
                let first = info
                    .children
                    .iter()
                    .position(|&c| !self.states[c as usize].kind.is_history());
                match first {
                    Some(i) => &info.children[i..=i],
                    None => &[],
                }
            }
        }
    }

    /// Appendix D `addDescendantStatesToEnter`.
    pub(super) fn add_descendant_states_to_enter(
        &self,
        state: StateIndex,
        sets: &mut EntrySets,
        depth: usize,
    ) {
        let info = &self.states[state as usize];
        if info.kind.is_history() {
            if self.history_recorded.contains(state) {
                let value = &self.history[state as usize];
                for &s in value {
                    self.add_descendant_states_to_enter(s, sets, depth);
                }
                for &s in value {
                    self.add_ancestor_states_to_enter(s, info.parent, sets, depth);
                }
            } else if let Some(default) = info.initial {
                if depth >= MAX_HISTORY_DEPTH {
                    return;
                }
                let t = &self.transitions[default as usize];
                if let Some(content) = t.content {
                    match sets
                        .default_history_content
                        .iter_mut()
                        .find(|(p, _)| *p == info.parent)
                    {
                        Some(slot) => slot.1 = content,
                        None => sets.default_history_content.push((info.parent, content)),
                    }
                }
                for &s in t.targets {
                    self.add_descendant_states_to_enter(s, sets, depth + 1);
                }
                for &s in t.targets {
                    self.add_ancestor_states_to_enter(s, info.parent, sets, depth + 1);
                }
            }
            return;
        }
        sets.to_enter.insert(state);
        match info.kind {
            StateKind::Compound | StateKind::Root => {
                sets.for_default_entry.insert(state);
                let targets = self.initial_targets(state);
                for &s in targets {
                    self.add_descendant_states_to_enter(s, sets, depth);
                }
                for &s in targets {
                    self.add_ancestor_states_to_enter(s, state, sets, depth);
                }
            }
            StateKind::Parallel => self.enter_missing_regions(state, sets, depth),
            _ => {}
        }
    }

    /// For each child region of a parallel state that has no state to enter yet, enter it.
    fn enter_missing_regions(&self, parallel: StateIndex, sets: &mut EntrySets, depth: usize) {
        for &child in self.states[parallel as usize].children {
            let c = &self.states[child as usize];
            if c.kind.is_history() {
                continue;
            }
            // `statesToEnter.some(s => isDescendant(s, child))`.
            if !sets.to_enter.any_in_range(child + 1, c.descendants_end) {
                self.add_descendant_states_to_enter(child, sets, depth);
            }
        }
    }

    /// Appendix D `addAncestorStatesToEnter(state, ancestor)`; the root is never added.
    pub(super) fn add_ancestor_states_to_enter(
        &self,
        state: StateIndex,
        ancestor: StateIndex,
        sets: &mut EntrySets,
        depth: usize,
    ) {
        let mut anc = self.states[state as usize].parent;
        while anc != ancestor && anc != 0 && (anc as usize) < self.states.len() {
            sets.to_enter.insert(anc);
            if self.states[anc as usize].kind == StateKind::Parallel {
                self.enter_missing_regions(anc, sets, depth);
            }
            anc = self.states[anc as usize].parent;
        }
    }
}

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
            has_eventless: (0..n as StateIndex).any(|s| tables.has_eventless_transition(s)),
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

    /// The chart's precomputed macrosteps, if it has any.
    #[inline(always)]
    fn fast_path(&mut self) -> Option<&'static FastPath> {
        if self.fast_path_known {
            self.fast_path
        } else {
            self.look_up_fast_path()
        }
    }

    #[cold]
    fn look_up_fast_path(&mut self) -> Option<&'static FastPath> {
        self.fast_path_known = true;
        self.fast_path = self.tables.fast_path.get(self.tables);
        self.fast_path
    }

    /// When the machine may become quiet, the precomputed cells for a machine nobody
    /// observes ([`FastPath::quiet_cells`]) and the row of the active atomic state in them:
    /// the machine is running, nothing is queued, no session is invoked and the chart has
    /// precomputed macrosteps. While quiet, the machine keeps the atomic state and the last
    /// event itself and hands them back with [`catch_up_quiet`](Self::catch_up_quiet) before
    /// anything else touches the interpreter.
    pub(crate) fn prepare_quiet(&mut self) -> Option<(&'static [u32], u32)> {
        if !self.running
            || !self.ctx.external.is_empty()
            || !self.ctx.internal.is_empty()
            || !self.ctx.children.is_empty()
            || !self.outbox.is_empty()
        {
            return None;
        }
        let fast = self.fast_path()?;
        let leaf = self.ctx.configuration.last()?;
        if !self.tables.states[leaf as usize].kind.is_atomic() {
            return None;
        }
        self.leaf_hint = leaf;
        Some((fast.quiet_cells(), fast.row(leaf)))
    }

    /// Brings the interpreter up to date after quiet macrosteps (see
    /// [`prepare_quiet`](Self::prepare_quiet)): the configuration becomes the atomic state of
    /// `row` and its ancestors, and `_event` the plain external event with name index
    /// `event` and no data. Their effect is exactly that of
    /// [`process_external`](Self::process_external) on each event in turn: precomputed
    /// macrosteps run no executable content, so nothing else could have seen the states in
    /// between.
    pub(crate) fn catch_up_quiet(&mut self, row: u32, event: usize) {
        let Some(fast) = self.fast_path else {
            return;
        };
        let leaf = fast.leaf_of_row(row);
        let states = self.tables.states;
        let config = &mut self.ctx.configuration;
        config.clear();
        let mut s = leaf;
        while s != 0 && (s as usize) < states.len() {
            config.insert(s);
            s = states[s as usize].parent;
        }
        self.leaf_hint = leaf;
        if let Some(name) = fast.name(event) {
            let event = self.ctx.envelope(Event::new(name, Value::Null));
            self.ctx.set_event(event);
        }
    }

    /// The chart's generated macrostep for `event` ([`Stepper`]), when one applies: the
    /// machine is running with nothing queued and no session invoked, and the generated code
    /// covers the event. `Err` gives the event back.
    #[inline]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(crate) fn generated_step(&mut self, event: Envelope<E>) -> Result<(), Envelope<E>> {
        match self.generated {
            Some(step)
                if self.precomputed
                    && self.running
                    && self.ctx.internal.is_empty()
                    && self.ctx.children.is_empty() =>
            {
                step(&mut Stepper::new(self), event)
            }
            _ => Err(event),
        }
    }

    /// Processes the external event `event` at once, when the machine is running with
    /// nothing queued and no session invoked: by its precomputed macrostep when the chart has
    /// one for the active atomic state and the event's name index `name` (its index in
    /// [`Tables::event_names`]; [`FastPath`](super::fast_path)), else by the chart's generated macrostep.
    /// `Err` gives the event back untouched (the queue and the full interpreter take it).
    #[inline]
    #[allow(
        clippy::result_large_err,
        reason = "the event is given back untouched, by move: nothing is allocated"
    )]
    pub(crate) fn direct_step(
        &mut self,
        event: Envelope<E>,
        name: Option<usize>,
    ) -> Result<(), Envelope<E>> {
        if !self.running
            || !self.ctx.external.is_empty()
            || !self.ctx.internal.is_empty()
            || !self.ctx.children.is_empty()
        {
            return Err(event);
        }
        if let (Some(name), Some(fast)) = (name, self.fast_path()) {
            if let Some(step) = fast.step(self.leaf(), name) {
                self.run_fast_macrostep(step, event);
                return Ok(());
            }
        }
        match self.generated {
            Some(step) if self.precomputed => step(&mut Stepper::new(self), event),
            _ => Err(event),
        }
    }

    /// The active atomic state of a running chart without `<parallel>`, as the lane reads
    /// it: [`leaf_hint`](Self::leaf_hint), which every change of the configuration keeps.
    #[inline(always)]
    pub(crate) fn exact_leaf(&self) -> StateIndex {
        debug_assert!(
            !self.running || self.ctx.configuration.last() == Some(self.leaf_hint),
            "the leaf hint {} is not the active atomic state {:?}",
            self.leaf_hint,
            self.ctx.configuration.last()
        );
        self.leaf_hint
    }

    /// The active atomic state of a chart without `<parallel>`.
    #[inline]
    pub(crate) fn leaf(&self) -> StateIndex {
        if self.ctx.configuration.contains(self.leaf_hint) {
            self.leaf_hint
        } else {
            self.ctx.configuration.last().unwrap_or(0)
        }
    }

    /// Appendix D `mainEventLoop` up to the selection, for an external event a generated
    /// macrostep processes: it becomes `_event`, and observers will hear it.
    #[inline]
    pub(crate) fn begin_external(&mut self, event: Envelope<E>) {
        self.ctx.set_event(event);
        self.note_observed();
    }

    /// Records `t` as the first transition of a microstep (to name a loop that hits the
    /// microstep bound).
    #[inline]
    pub(crate) fn note_microstep(&mut self, t: TransitionIndex) {
        let at = self.recent_count % RECENT_MICROSTEPS;
        if let Some(slot) = self.recent.get_mut(at) {
            *slot = t;
        } else {
            self.recent.push(t);
        }
        self.recent_count += 1;
    }

    /// Appendix D `microstep([t])` for the transition `t` a generated macrostep selected.
    pub(crate) fn microstep_of(&mut self, t: TransitionIndex) {
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        let domain = self.shape().transition_domain(t, &mut tmp);
        self.scratch.targets = tmp;
        self.scratch.filtered.clear();
        self.scratch.filtered.push((t, domain));
        self.microstep();
    }

    /// The rest of the macrostep of an external event a generated macrostep processed,
    /// after `microsteps` microsteps; then a stop, if a top-level final state was reached.
    #[inline]
    pub(crate) fn finish_external(&mut self, microsteps: usize) {
        if self.ctx.internal.is_empty() && !self.has_eventless && self.tables.invokes.is_empty() {
            // Nothing raised, nothing eventless, nothing to invoke: the macrostep is over
            // (what `settle` would find).
            if !self.running {
                self.finish_if_stopped();
            }
            return;
        }
        self.settle(microsteps);
        self.finish_if_stopped();
    }

    /// After a generated macrostep that left nothing queued: the row of the active atomic
    /// state in the quiet cells ([`prepare_quiet`](Self::prepare_quiet)).
    #[inline]
    pub(crate) fn quiet_row_now(&self) -> Option<u32> {
        let fast = self.fast_path?;
        (self.running && self.ctx.external.is_empty() && self.outbox.is_empty())
            .then(|| fast.row(self.leaf()))
    }

    /// Raises `error.execution` for a failure at chart line `line` and reports it.
    #[cold]
    pub(crate) fn report_execution_error(
        &mut self,
        element: &'static str,
        line: u32,
        e: ExecError,
    ) {
        self.execution_error(element, line, e);
    }

    /// Hands the `<log>` records of the last block to the log observers.
    #[inline]
    pub(crate) fn flush_logs(&mut self) {
        if let Some(logs) = &mut self.ctx.logs {
            if !logs.is_empty() {
                self.outbox.extend(
                    logs.drain(..)
                        .map(|record| Notification::Log(Box::new(record))),
                );
            }
        }
    }

    /// `_event` becomes the internal event `event`; the external event observers have not
    /// heard yet is kept for them.
    pub(crate) fn set_internal_event(&mut self, event: Envelope<E>) {
        let previous = self.ctx.replace_event(event);
        if self.observed_pending {
            self.observed_pending = false;
            self.observed = Some(previous);
        }
    }

    /// Notes that observers must hear `_event`, the external event just dequeued.
    #[inline]
    fn note_observed(&mut self) {
        if self.record_events {
            self.observed = None;
            self.observed_pending = true;
            self.outbox.push(Notification::Event);
        }
    }

    /// The external event that the last [`Notification::Event`] stands for, lent to the
    /// observers: give it back with [`return_observed`](Self::return_observed). `_event` is
    /// [`Event::default`] in between (nothing runs chart code then).
    pub(crate) fn lend_observed(&mut self) -> (Envelope<E>, bool) {
        match self.observed.take() {
            Some(e) => (e, false),
            None => {
                self.observed_pending = false;
                (std::mem::take(&mut self.ctx.event), true)
            }
        }
    }

    /// Takes back what [`lend_observed`](Self::lend_observed) lent.
    pub(crate) fn return_observed(&mut self, event: Envelope<E>, was_current: bool) {
        if was_current {
            self.ctx.event = event;
        }
    }

    /// Processes the external event `event` by the macrostep `step` that
    /// [`direct_step`](Self::direct_step) found for it. The effect is exactly that
    /// of [`process_external`](Self::process_external): `_event` is set, the outbox records
    /// what observers must hear, and the configuration changes by the step's exit and entry
    /// lists.
    #[inline(always)]
    pub(crate) fn run_fast_macrostep(&mut self, step: &FastStep, event: Envelope<E>) {
        self.ctx.set_event(event);
        self.note_observed();
        for &s in step.exit.iter() {
            self.ctx.configuration.remove(s);
            if self.record_states {
                self.outbox.push(Notification::Exited(s));
            }
        }
        for &s in step.enter.iter() {
            self.ctx.configuration.insert(s);
            if self.record_states {
                self.outbox.push(Notification::Entered(s));
            }
        }
        self.leaf_hint = step.leaf;
    }

    /// The exits and entries of a precomputed microstep ([`Lane::transit`]): the effect on
    /// the configuration of the interpreter's microstep for a transition that runs no
    /// executable content and touches no history and no `<final>`. Nothing is recorded
    /// for the observers: the machine tells them from the same lists.
    ///
    /// [`Lane::transit`]: super::lane::Lane::transit
    #[inline(always)]
    pub(crate) fn transit(
        &mut self,
        exit: &[StateIndex],
        enter: &[StateIndex],
        leaf: StateIndex,
        word: u64,
    ) {
        // The whole configuration as one word: written, not read, so that consecutive
        // moves do not wait for each other.
        if word == 0 || !self.ctx.configuration.set_only_word(word) {
            self.ctx.configuration.exchange(exit, enter);
        }
        debug_assert!(self.ctx.configuration.last() == Some(leaf));
        self.leaf_hint = leaf;
    }

    /// Finishes the macrostep of an external event a lane step began
    /// ([`LaneEnd::Continue`](super::lane::LaneEnd)) after `microsteps` microsteps: the
    /// event becomes `_event` (no code the lane ran reads it), observers will hear it before
    /// what the lane recorded, and the interpreter runs the rest of the macrostep.
    #[cold]
    pub(crate) fn lane_continue(&mut self, event: Envelope<E>, microsteps: usize) {
        self.ctx.set_event(event);
        if self.record_events {
            self.observed = None;
            self.observed_pending = true;
            self.outbox.insert(0, Notification::Event);
        }
        self.settle(microsteps);
        self.finish_if_stopped();
    }

    /// Appendix D `mainEventLoop` for the external event in `ctx.event`: runs the
    /// `<finalize>` of the invocation it came from, and forwards it to every child invoked
    /// with `autoforward`.
    fn finalize_and_forward(&mut self) {
        let from = self.ctx.event.invokeid().map(str::to_owned);
        for i in 0..self.ctx.children.len() {
            let Some(child) = self.ctx.children.get(i) else {
                break;
            };
            let Some(inv) = self.tables.invokes.get(child.invoke as usize) else {
                continue;
            };
            if from.as_deref() == Some(child.id.as_str()) {
                if let Some(block) = inv.finalize {
                    self.run_block(block);
                }
            }
            if inv.autoforward {
                let event = self.ctx.event.to_event(self.ctx.session_id());
                if let Some(child) = self.ctx.children.get_mut(i) {
                    child.session.deliver(event);
                }
            }
        }
        // The child's last event: it is gone now.
        if let Some(id) = from {
            let done = self.ctx.event.name().strip_prefix("done.invoke.") == Some(id.as_str());
            if done {
                self.ctx.children.retain(|c| !(c.finished && c.id == id));
            }
        }
    }

    /// The macrostep, then the invocations of the states it entered (Appendix D: after the
    /// internal queue is empty, `statesToInvoke` are invoked in entry order; if that raised
    /// internal events, another macrostep follows).
    fn settle(&mut self, steps: usize) {
        self.macrostep_from(steps);
        while self.running && !self.states_to_invoke.is_empty() {
            let states: Vec<StateIndex> = self.states_to_invoke.iter().collect();
            self.states_to_invoke.clear();
            for s in states {
                for k in 0..self.tables.invokes.len() {
                    if self.tables.invokes[k].state == s {
                        self.invoke(k);
                    }
                }
            }
            if self.ctx.internal.is_empty() {
                break;
            }
            self.macrostep_from(0);
        }
    }

    /// Appendix D `invoke`: evaluates the `<invoke>` and starts the child; an error raises
    /// `error.execution` and invokes nothing.
    fn invoke(&mut self, k: usize) {
        let inv = &self.tables.invokes[k];
        let (data, ctx) = (&mut self.data, &mut self.ctx);
        match guarded(|| (inv.start)(data, ctx)) {
            Ok(start) => {
                let mut session = start.session;
                let parent = self.ctx.session_id().to_owned();
                session.start(self.ctx.now, start.params, &parent);
                self.ctx.children.push(super::invoke::Child {
                    id: start.id,
                    state: inv.state,
                    invoke: k as u32,
                    session,
                    finished: false,
                });
            }
            Err(e) => {
                let e = e.at("invoke", inv.line, inv.column);
                self.execution_error("invoke", inv.line, e);
            }
        }
    }

    /// Appendix D's inner loop of `mainEventLoop`: eventless transitions first, then one
    /// internal event, until neither enables anything. At most `max_microsteps` steps (a
    /// microstep or an internal event that enabled nothing) run; `steps` already ran.
    fn macrostep_from(&mut self, mut steps: usize) {
        while self.running {
            let mut event_driven = false;
            self.select_transitions(true);
            if self.scratch.filtered.is_empty() {
                let Some(event) = self.ctx.internal.pop_front() else {
                    break;
                };
                // The chart's generated step for the internal event, when it covers it (and
                // the bound is not reached, which the path below reports).
                let event = match self.generated {
                    Some(step) if self.precomputed && steps < self.max_microsteps => {
                        match step(&mut Stepper::internal(self), event) {
                            Ok(()) => {
                                steps += 1;
                                continue;
                            }
                            Err(event) => event,
                        }
                    }
                    _ => event,
                };
                self.set_internal_event(event);
                self.select_transitions(false);
                event_driven = true;
            }
            if steps >= self.max_microsteps {
                self.ctx.internal.clear();
                let error = RuntimeError::MacrostepLimit {
                    chart: self.tables.name.to_owned(),
                    microsteps: steps,
                    event: if event_driven {
                        self.ctx.event.name().to_owned()
                    } else {
                        String::new()
                    },
                    cycle: self.recent_cycle(),
                };
                tracing::error!(chart = self.tables.name, "{error}");
                self.outbox.push(Notification::Error(Box::new(error)));
                return;
            }
            if !self.scratch.filtered.is_empty() {
                self.microstep();
            }
            steps += 1;
        }
    }

    /// The loop the last microsteps went round, as `source → targets (file:line)` per
    /// transition, starting with the one first in document order; empty when the last
    /// microsteps do not repeat (with a period of up to half of [`RECENT_MICROSTEPS`]).
    fn recent_cycle(&self) -> Vec<String> {
        let n = self.recent_count.min(RECENT_MICROSTEPS);
        // The last `n` first-transitions, oldest first.
        let last: Vec<TransitionIndex> = (self.recent_count - n..self.recent_count)
            .map(|i| self.recent[i % RECENT_MICROSTEPS])
            .collect();
        let Some(period) = (1..=n / 2).find(|&p| {
            let tail = &last[n - 2 * p..];
            tail[..p] == tail[p..]
        }) else {
            return Vec::new();
        };
        let mut cycle = last[n - period..].to_vec();
        let first = (0..period).min_by_key(|&i| cycle[i]).unwrap_or(0);
        cycle.rotate_left(first);
        let states = self.tables.states;
        cycle
            .into_iter()
            .map(|t| {
                let info = &self.tables.transitions[t as usize];
                let targets: Vec<&str> = info
                    .targets
                    .iter()
                    .map(|&s| states[s as usize].id)
                    .collect();
                let to = if targets.is_empty() {
                    "(targetless)".to_owned()
                } else {
                    targets.join(" ")
                };
                format!(
                    "{} → {to} ({}:{})",
                    states[info.source as usize].id, self.tables.file, info.line
                )
            })
            .collect()
    }

    /// When a top-level final state was reached: Appendix D `exitInterpreter`, then drop
    /// every queued and delayed event.
    fn finish_if_stopped(&mut self) {
        if self.running {
            return;
        }
        let states = self.tables.states;
        self.final_state = self.ctx.configuration.iter().find(|&s| {
            states[s as usize].parent == 0 && states[s as usize].kind == StateKind::Final
        });
        // Appendix D `exitInterpreter`: an invoked session returns its final's done data.
        if let Some(dd) = self
            .final_state
            .and_then(|f| states[f as usize].donedata)
            .and_then(|d| self.tables.done_data.get(d as usize))
        {
            let (data, ctx) = (&self.data, &self.ctx);
            match guarded(|| (dd.eval)(data, ctx)) {
                Ok(v) => self.done_data = v,
                Err(e) => self.execution_error("donedata", dd.line, e),
            }
        }
        self.exit_interpreter();
    }

    /// What stopping a session does (Appendix D `exitInterpreter`, after the done data):
    /// cancels the invoked sessions, exits every active state in exit order (running each
    /// `<onexit>`), and drops every queued event and pending delayed `<send>`.
    fn exit_interpreter(&mut self) {
        self.ctx.children.clear();
        self.states_to_invoke.clear();
        // Exit every active state in exit order, each onexit block separately.
        let mut order = std::mem::take(&mut self.scratch.atomic);
        order.clear();
        order.extend(self.ctx.configuration.iter_rev());
        for &s in &order {
            for &b in self.tables.states[s as usize].onexit {
                self.run_block(b);
            }
            self.ctx.configuration.remove(s);
            if self.record_states {
                self.outbox.push(Notification::Exited(s));
            }
        }
        self.scratch.atomic = order;
        self.ctx.internal.clear();
        self.ctx.external.clear();
        self.ctx.timers.clear();
    }

    /// Appendix D `selectEventlessTransitions` (`eventless`) or `selectTransitions(_event)`,
    /// followed by `removeConflictingTransitions`; the result is left in `scratch.filtered`.
    fn select_transitions(&mut self, eventless: bool) {
        if eventless && !self.has_eventless {
            // Nothing to select: the chart has no eventless `<transition>`.
            self.scratch.filtered.clear();
            return;
        }
        let mut atomic = std::mem::take(&mut self.scratch.atomic);
        let mut enabled = std::mem::take(&mut self.scratch.enabled);
        atomic.clear();
        enabled.clear();
        let states = self.tables.states;
        atomic.extend(
            self.ctx
                .configuration
                .iter()
                .filter(|&s| states[s as usize].kind.is_atomic()),
        );
        for &atom in &atomic {
            let mut s = atom;
            'ancestors: while (s as usize) < states.len() {
                for &t in states[s as usize].transitions {
                    let info = &self.tables.transitions[t as usize];
                    let matches = if eventless {
                        info.events.is_empty()
                    } else {
                        let name = self.ctx.event.name();
                        info.events.iter().any(|d| descriptor_matches(d, name))
                    };
                    if matches && self.condition_match(t) {
                        if !enabled.contains(&t) {
                            enabled.push(t);
                        }
                        break 'ancestors;
                    }
                }
                s = states[s as usize].parent;
            }
        }
        self.scratch.atomic = atomic;
        self.remove_conflicting_transitions(&enabled);
        self.scratch.enabled = enabled;
    }

    /// Appendix D `removeConflictingTransitions`: two transitions conflict when their exit
    /// sets intersect; a transition whose source is a descendant of the other's source
    /// preempts it, otherwise the earlier one (in selection order) wins.
    fn remove_conflicting_transitions(&mut self, enabled: &[TransitionIndex]) {
        let mut filtered = std::mem::take(&mut self.scratch.filtered);
        let mut remove = std::mem::take(&mut self.scratch.remove);
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        filtered.clear();
        let shape = self.shape();
        let config = &self.ctx.configuration;
        let states = self.tables.states;
        for &t1 in enabled {
            let d1 = shape.transition_domain(t1, &mut tmp);
            let source1 = self.tables.transitions[t1 as usize].source;
            let mut preempted = false;
            remove.clear();
            if let Some(d1) = d1 {
                let (lo1, hi1) = (d1 + 1, states[d1 as usize].descendants_end);
                for (i, &(t2, d2)) in filtered.iter().enumerate() {
                    let Some(d2) = d2 else { continue };
                    let (lo2, hi2) = (d2 + 1, states[d2 as usize].descendants_end);
                    // Both exit sets are the configuration restricted to a range.
                    if !config.any_in_range(lo1.max(lo2), hi1.min(hi2)) {
                        continue;
                    }
                    let source2 = self.tables.transitions[t2 as usize].source;
                    if shape.is_descendant(source1, source2) {
                        remove.push(i);
                    } else {
                        preempted = true;
                        break;
                    }
                }
            }
            if !preempted {
                for &i in remove.iter().rev() {
                    filtered.remove(i);
                }
                filtered.push((t1, d1));
            }
        }
        self.scratch.filtered = filtered;
        self.scratch.remove = remove;
        self.scratch.targets = tmp;
    }

    /// Appendix D `microstep` over `scratch.filtered`.
    fn microstep(&mut self) {
        let filtered = std::mem::take(&mut self.scratch.filtered);
        if let Some(&(t, _)) = filtered.first() {
            // The first transition of each of the last microsteps, to name a loop.
            self.note_microstep(t);
        }
        self.exit_states(&filtered);
        for &(t, _) in &filtered {
            if let Some(content) = self.tables.transitions[t as usize].content {
                self.run_block(content);
            }
        }
        self.enter_states(&filtered);
        self.scratch.filtered = filtered;
    }

    /// Appendix D `exitStates`: records history, then runs the onexit blocks of the exit set
    /// in exit order and removes the states from the configuration.
    fn exit_states(&mut self, transitions: &[(TransitionIndex, Option<StateIndex>)]) {
        let states = self.tables.states;
        let mut exit_set = std::mem::take(&mut self.scratch.exit_set);
        exit_set.clear();
        // computeExitSet; the domains were computed during selection, before anything changed.
        for &(_, domain) in transitions {
            if let Some(d) = domain {
                let hi = states[d as usize].descendants_end;
                let mut lo = d + 1;
                while let Some(s) = self.ctx.configuration.first_in_range(lo, hi) {
                    exit_set.insert(s);
                    lo = s + 1;
                }
            }
        }
        // Record history before any state leaves the configuration.
        for s in exit_set.iter_rev() {
            for &h in states[s as usize].history {
                let deep = states[h as usize].kind == StateKind::DeepHistory;
                let value = &mut self.history[h as usize];
                value.clear();
                let end = states[s as usize].descendants_end;
                let mut lo = s + 1;
                while let Some(c) = self.ctx.configuration.first_in_range(lo, end) {
                    let keep = if deep {
                        states[c as usize].kind.is_atomic()
                    } else {
                        states[c as usize].parent == s
                    };
                    if keep {
                        value.push(c);
                    }
                    lo = c + 1;
                }
                self.history_recorded.insert(h);
            }
        }
        for s in exit_set.iter_rev() {
            for &b in states[s as usize].onexit {
                self.run_block(b);
            }
            // Appendix D `exitStates`: cancel the invocations of the exited state.
            self.states_to_invoke.remove(s);
            if !self.ctx.children.is_empty() {
                self.ctx.children.retain(|c| c.state != s);
            }
            self.ctx.configuration.remove(s);
            if self.record_states {
                self.outbox.push(Notification::Exited(s));
            }
        }
        self.scratch.exit_set = exit_set;
    }

    /// Appendix D `enterStates` for the transitions of a microstep.
    fn enter_states(&mut self, transitions: &[(TransitionIndex, Option<StateIndex>)]) {
        let mut sets = std::mem::take(&mut self.scratch.entry);
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        sets.to_enter.clear();
        sets.for_default_entry.clear();
        sets.default_history_content.clear();
        {
            // computeEntrySet: the domain is recomputed because exiting may have changed a
            // history value a target refers to.
            let shape = self.shape();
            for &(t, _) in transitions {
                let info = &self.tables.transitions[t as usize];
                for &s in info.targets {
                    shape.add_descendant_states_to_enter(s, &mut sets, 0);
                }
                let Some(domain) = shape.transition_domain(t, &mut tmp) else {
                    continue;
                };
                tmp.clear();
                shape.effective_targets(t, &mut tmp);
                for &s in &tmp {
                    shape.add_ancestor_states_to_enter(s, domain, &mut sets, 0);
                }
            }
        }
        self.scratch.targets = tmp;
        self.scratch.entry = sets;
        self.enter_computed_states();
    }

    /// `enterStates([doc.initial.transition])`: the root's initial transition, whose domain
    /// is the root. (An `<scxml>` has no `<initial>` element, so this transition has no
    /// content.)
    fn enter_initial_configuration(&mut self) {
        let mut sets = std::mem::take(&mut self.scratch.entry);
        let mut tmp = std::mem::take(&mut self.scratch.targets);
        sets.to_enter.clear();
        sets.for_default_entry.clear();
        sets.default_history_content.clear();
        tmp.clear();
        {
            let shape = self.shape();
            let targets = shape.initial_targets(0);
            for &s in targets {
                shape.add_descendant_states_to_enter(s, &mut sets, 0);
            }
            match self.tables.states[0].initial {
                Some(t) => shape.effective_targets(t, &mut tmp),
                None => tmp.extend_from_slice(targets),
            }
            for &s in &tmp {
                shape.add_ancestor_states_to_enter(s, 0, &mut sets, 0);
            }
        }
        self.scratch.targets = tmp;
        self.scratch.entry = sets;
        self.enter_computed_states();
    }

    /// The second half of Appendix D `enterStates`, over `scratch.entry`.
    fn enter_computed_states(&mut self) {
        let sets = std::mem::take(&mut self.scratch.entry);
        let states = self.tables.states;
        for s in sets.to_enter.iter() {
            let info = &states[s as usize];
            self.ctx.configuration.insert(s);
            self.leaf_hint = s;
            if self.record_states {
                self.outbox.push(Notification::Entered(s));
            }
            if self.tables.invokes.iter().any(|i| i.state == s) {
                self.states_to_invoke.insert(s);
            }
            if self.tables.late_binding && !self.data_bound.contains(s) {
                self.data_bound.insert(s);
                self.bind_data(s);
            }
            for &b in info.onentry {
                self.run_block(b);
            }
            if sets.for_default_entry.contains(s) {
                if let Some(t) = info.initial {
                    if let Some(content) = self.tables.transitions[t as usize].content {
                        self.run_block(content);
                    }
                }
            }
            if let Some(&(_, content)) = sets.default_history_content.iter().find(|(p, _)| *p == s)
            {
                self.run_block(content);
            }
            if info.kind == StateKind::Final {
                if info.parent == 0 {
                    self.running = false;
                } else {
                    self.raise_done(s);
                }
            }
        }
        self.scratch.entry = sets;
    }

    /// Raises `done.state.<parent>` for an entered final state, and `done.state.<grandparent>`
    /// when the grandparent is a parallel state whose regions are all final.
    fn raise_done(&mut self, final_state: StateIndex) {
        let states = self.tables.states;
        let info = &states[final_state as usize];
        let parent = info.parent;
        let data = match info
            .donedata
            .and_then(|d| self.tables.done_data.get(d as usize))
        {
            Some(dd) => {
                let (data, ctx) = (&self.data, &self.ctx);
                match guarded(|| (dd.eval)(data, ctx)) {
                    Ok(v) => v,
                    Err(e) => {
                        self.execution_error("donedata", dd.line, e);
                        Value::Null
                    }
                }
            }
            None => Value::Null,
        };
        self.ctx
            .raise_platform(format!("done.state.{}", states[parent as usize].id), data);
        let grandparent = states[parent as usize].parent;
        if (grandparent as usize) < states.len()
            && states[grandparent as usize].kind == StateKind::Parallel
            && states[grandparent as usize]
                .children
                .iter()
                .filter(|&&c| !states[c as usize].kind.is_history())
                .all(|&c| self.is_in_final_state(c))
        {
            self.ctx.raise_platform(
                format!("done.state.{}", states[grandparent as usize].id),
                Value::Null,
            );
        }
    }

    /// Appendix D `isInFinalState`.
    fn is_in_final_state(&self, s: StateIndex) -> bool {
        let states = self.tables.states;
        let info = &states[s as usize];
        match info.kind {
            StateKind::Compound | StateKind::Root => info.children.iter().any(|&c| {
                states[c as usize].kind == StateKind::Final && self.ctx.configuration.contains(c)
            }),
            StateKind::Parallel => info
                .children
                .iter()
                .filter(|&&c| !states[c as usize].kind.is_history())
                .all(|&c| self.is_in_final_state(c)),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{Block, NO_STATE};

    /// [`StateInfo::row`] without entry/exit blocks or done data, on line 1.
    #[allow(clippy::too_many_arguments)]
    const fn st(
        id: &'static str,
        kind: StateKind,
        parent: StateIndex,
        descendants_end: StateIndex,
        children: &'static [StateIndex],
        initial: Option<TransitionIndex>,
        transitions: &'static [TransitionIndex],
        history: &'static [StateIndex],
    ) -> StateInfo {
        StateInfo::row(
            id,
            kind,
            parent,
            descendants_end,
            children,
            initial,
            transitions,
            &[],
            &[],
            None,
            history,
            1,
        )
    }

    /// [`TransitionInfo::row`] without condition or content, on line 1.
    const fn tr(
        source: StateIndex,
        events: &'static [&'static str],
        targets: &'static [StateIndex],
        internal: bool,
        domain: Domain,
    ) -> TransitionInfo {
        TransitionInfo::row(source, events, None, targets, internal, None, domain, 1)
    }

    // 0 root
    //   1 p (compound, initial a)
    //     2 h (deep history, default -> b)
    //     3 a (compound, initial a1)
    //       4 a1
    //     5 b
    //   6 out
    static STATES: [StateInfo; 7] = [
        st(
            "__root",
            StateKind::Root,
            NO_STATE,
            7,
            &[1, 6],
            Some(0),
            &[],
            &[],
        ),
        st(
            "p",
            StateKind::Compound,
            0,
            6,
            &[2, 3, 5],
            Some(1),
            &[5],
            &[2],
        ),
        st("h", StateKind::DeepHistory, 1, 3, &[], Some(2), &[], &[]),
        st("a", StateKind::Compound, 1, 5, &[4], Some(3), &[], &[]),
        st("a1", StateKind::Atomic, 3, 5, &[], None, &[4, 6], &[]),
        st("b", StateKind::Atomic, 1, 6, &[], None, &[], &[]),
        st("out", StateKind::Atomic, 0, 7, &[], None, &[7], &[]),
    ];
    static TRANSITIONS: [TransitionInfo; 8] = [
        tr(0, &[], &[1], false, Domain::Static(0)),
        tr(1, &[], &[3], false, Domain::Static(1)),
        tr(2, &[], &[5], false, Domain::Static(1)),
        tr(3, &[], &[4], false, Domain::Static(3)),
        // a1 -> b, computed at run time
        tr(4, &["go"], &[5], false, Domain::Dynamic),
        // p -> a1, internal, computed at run time
        tr(1, &["in"], &[4], true, Domain::Dynamic),
        // a1 -> out
        tr(4, &["leave"], &[6], false, Domain::Dynamic),
        // out -> h
        tr(6, &["back"], &[2], false, Domain::Dynamic),
    ];
    static BLOCKS: [Block<()>; 0] = [];
    static TABLES: Tables<()> = Tables {
        name: "unit",
        file: "unit.scxml",
        states: &STATES,
        transitions: &TRANSITIONS,
        conditions: &[],
        blocks: &BLOCKS,
        done_data: &[],
        data: &[],
        script: None,
        invokes: &[],
        late_binding: false,
        event_names: &["back", "go", "in", "leave"],
        fast_path: super::super::FastPathCache::new(),
    };

    fn ids(i: &Interpreter<()>) -> Vec<&'static str> {
        i.ctx
            .configuration
            .iter()
            .map(|s| STATES[s as usize].id)
            .collect()
    }

    #[test]
    fn dynamic_domains_follow_appendix_d() {
        let i = Interpreter::new(&TABLES, ());
        let shape = i.shape();
        let mut tmp = Vec::new();
        // External a1 -> b: LCCA is p.
        assert_eq!(shape.transition_domain(4, &mut tmp), Some(1));
        // Internal p -> a1 with the target inside p: the domain is p itself.
        assert_eq!(shape.transition_domain(5, &mut tmp), Some(1));
        // a1 -> out: the root.
        assert_eq!(shape.transition_domain(6, &mut tmp), Some(0));
        // out -> h, no history yet: the default target b, domain root.
        assert_eq!(shape.transition_domain(7, &mut tmp), Some(0));
        tmp.clear();
        shape.effective_targets(7, &mut tmp);
        assert_eq!(tmp, [5]);
        assert_eq!(shape.find_lcca(4, &[5]), 1);
        assert_eq!(shape.find_lcca(4, &[6]), 0);
        assert_eq!(shape.find_lcca(0, &[1]), 0);
    }

    #[test]
    fn history_is_recorded_on_exit_and_restored() {
        let mut i = Interpreter::new(&TABLES, ());
        i.record_states = true;
        i.start();
        assert_eq!(ids(&i), ["p", "a", "a1"]);
        assert_eq!(
            i.outbox,
            [
                Notification::Entered(1),
                Notification::Entered(3),
                Notification::Entered(4)
            ]
        );
        i.outbox.clear();
        i.process_external(Envelope::Dynamic(Box::new(Event::new(
            "leave",
            Value::Null,
        ))));
        assert_eq!(ids(&i), ["out"]);
        assert_eq!(i.history[2], [4]);
        assert!(i.history_recorded.contains(2));
        let mut tmp = Vec::new();
        i.shape().effective_targets(7, &mut tmp);
        assert_eq!(tmp, [4]);
        i.process_external(Envelope::Dynamic(Box::new(Event::new("back", Value::Null))));
        assert_eq!(ids(&i), ["p", "a", "a1"]);
        i.process_external(Envelope::Dynamic(Box::new(Event::new("go", Value::Null))));
        assert_eq!(ids(&i), ["p", "b"]);
        assert_eq!(i.ctx.event().name, "go");
        i.process_external(Envelope::Dynamic(Box::new(Event::new("in", Value::Null))));
        assert_eq!(ids(&i), ["p", "a", "a1"]);
        assert!(i.running && i.started);
    }
}
