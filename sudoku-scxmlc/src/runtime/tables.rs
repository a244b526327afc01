//! The static description of a compiled chart: what the generator emits as `static` tables and
//! what the interpreter walks at run time.
//!
//! Everything that can be decided at build time is decided there: states are numbered in
//! document order (so the descendants of a state are the contiguous index range after it),
//! event descriptors are normalized, and the transition domain is precomputed wherever the
//! targets contain no history state (SCXML 1.0, Appendix D, `getTransitionDomain`).

use super::{ChartEvent, Context, ExecError, Untyped};
use serde_json::Value;

/// Index of a state in document order. Index 0 is the `<scxml>` root.
pub type StateIndex = u32;
/// Index of a transition in document order (initial and history default transitions included).
pub type TransitionIndex = u32;
/// Index into [`Tables::conditions`].
pub type ConditionIndex = u32;
/// Index into [`Tables::blocks`].
pub type BlockIndex = u32;
/// Index into [`Tables::done_data`].
pub type DoneDataIndex = u32;

/// The `parent` of the root state.
pub const NO_STATE: StateIndex = StateIndex::MAX;

/// What kind of node a state is (SCXML 1.0, section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StateKind {
    /// The `<scxml>` element itself, treated as a compound state.
    Root,
    /// A `<state>` without child states.
    Atomic,
    /// A `<state>` with child states.
    Compound,
    /// A `<parallel>`.
    Parallel,
    /// A `<final>`.
    Final,
    /// A `<history type="shallow">`.
    ShallowHistory,
    /// A `<history type="deep">`.
    DeepHistory,
}

impl StateKind {
    /// `true` for atomic and final states: the ones without child states.
    pub const fn is_atomic(self) -> bool {
        matches!(self, StateKind::Atomic | StateKind::Final)
    }
    /// `true` for compound states and the root.
    pub const fn is_compound(self) -> bool {
        matches!(self, StateKind::Compound | StateKind::Root)
    }
    /// `true` for both kinds of history pseudo-state.
    pub const fn is_history(self) -> bool {
        matches!(self, StateKind::ShallowHistory | StateKind::DeepHistory)
    }
}

/// One state of the chart, as the generator emits it (with `'static` lists:
/// [`StateInfo`]); its lists borrowed for `'a` where the build-time precomputation of
/// macrosteps describes a chart it is compiling.
#[derive(Debug)]
pub struct StateRow<'a> {
    /// The `id` attribute, or a generated `__state_N` id for a state without one.
    pub id: &'a str,
    /// What kind of state this is.
    pub kind: StateKind,
    /// The parent state, [`NO_STATE`] for the root.
    pub parent: StateIndex,
    /// One past the last descendant: the descendants of state `i` are `i + 1 .. descendants_end`.
    pub descendants_end: StateIndex,
    /// Child states (history states included) in document order.
    pub children: &'a [StateIndex],
    /// For the root and compound states: the initial transition (from the `initial` attribute,
    /// the `<initial>` element, or the first child state). For history states: the default
    /// transition. `None` otherwise.
    pub initial: Option<TransitionIndex>,
    /// The `<transition>` children in document order (not the initial or default ones).
    pub transitions: &'a [TransitionIndex],
    /// One block per `<onentry>` element, in document order.
    pub onentry: &'a [BlockIndex],
    /// One block per `<onexit>` element, in document order.
    pub onexit: &'a [BlockIndex],
    /// For final states: the `<donedata>`.
    pub donedata: Option<DoneDataIndex>,
    /// The history children of this state.
    pub history: &'a [StateIndex],
    /// 1-based line of the element in the chart.
    pub line: u32,
}

impl<'a> StateRow<'a> {
    /// A state, from its fields in declaration order: one row per state in generated tables.
    #[allow(
        clippy::too_many_arguments,
        reason = "one positional row per state keeps generated tables compact"
    )]
    pub const fn row(
        id: &'a str,
        kind: StateKind,
        parent: StateIndex,
        descendants_end: StateIndex,
        children: &'a [StateIndex],
        initial: Option<TransitionIndex>,
        transitions: &'a [TransitionIndex],
        onentry: &'a [BlockIndex],
        onexit: &'a [BlockIndex],
        donedata: Option<DoneDataIndex>,
        history: &'a [StateIndex],
        line: u32,
    ) -> Self {
        StateRow {
            id,
            kind,
            parent,
            descendants_end,
            children,
            initial,
            transitions,
            onentry,
            onexit,
            donedata,
            history,
            line,
        }
    }
}

/// A state of generated tables: [`StateRow`] with `'static` lists.
pub type StateInfo = StateRow<'static>;

/// The transition domain of a transition, as far as the generator could decide it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// A targetless transition: it exits and enters nothing.
    Targetless,
    /// Precomputed at build time.
    Static(StateIndex),
    /// Some target is a history state: computed from the history value at run time.
    Dynamic,
}

/// One transition, as the generator emits it (with `'static` lists: [`TransitionInfo`]);
/// its lists borrowed for `'a` where the build-time precomputation of macrosteps describes
/// a chart it is compiling.
#[derive(Debug)]
pub struct TransitionRow<'a> {
    /// The source state (for an initial transition: the compound state; for a history default
    /// transition: the history state).
    pub source: StateIndex,
    /// Normalized event descriptors (`foo.*` and `foo.` become `foo`; `*` stays). Empty for an
    /// eventless transition.
    pub events: &'a [&'a str],
    /// The `cond` attribute, if any.
    pub cond: Option<ConditionIndex>,
    /// Target states in document order of the `target` attribute.
    pub targets: &'a [StateIndex],
    /// `type="internal"`.
    pub internal: bool,
    /// The executable content, if any.
    pub content: Option<BlockIndex>,
    /// The transition domain.
    pub domain: Domain,
    /// 1-based line of the element in the chart.
    pub line: u32,
}

impl<'a> TransitionRow<'a> {
    /// A transition, from its fields in declaration order: one row per transition in
    /// generated tables.
    #[allow(
        clippy::too_many_arguments,
        reason = "one positional row per transition keeps generated tables compact"
    )]
    pub const fn row(
        source: StateIndex,
        events: &'a [&'a str],
        cond: Option<ConditionIndex>,
        targets: &'a [StateIndex],
        internal: bool,
        content: Option<BlockIndex>,
        domain: Domain,
        line: u32,
    ) -> Self {
        TransitionRow {
            source,
            events,
            cond,
            targets,
            internal,
            content,
            domain,
            line,
        }
    }
}

/// A transition of generated tables: [`TransitionRow`] with `'static` lists.
pub type TransitionInfo = TransitionRow<'static>;

/// A compiled `cond`.
pub struct Condition<D, E = Untyped> {
    /// 1-based chart line of the attribute.
    pub line: u32,
    /// Evaluates the condition. An `Err` makes the condition false and raises `error.execution`.
    pub eval: fn(&D, &Context<E>) -> Result<bool, ExecError>,
}

/// A compiled block of executable content (`<onentry>`, `<onexit>`, a transition's content).
pub struct Block<D, E = Untyped> {
    /// 1-based chart line of the element holding the block.
    pub line: u32,
    /// Runs the block. An `Err` ends the block and raises `error.execution`.
    pub run: fn(&mut D, &mut Context<E>) -> Result<(), ExecError>,
}

/// A compiled `<donedata>`.
pub struct DoneData<D, E = Untyped> {
    /// 1-based chart line of the `<donedata>` element.
    pub line: u32,
    /// Evaluates the done data into the `data` of the `done.state.ID` event.
    pub eval: fn(&D, &Context<E>) -> Result<Value, ExecError>,
}

/// A compiled `<invoke>` (SCXML 1.0, 6.4) of an SCXML chart compiled with its parent.
pub struct Invoke<D, E = Untyped> {
    /// The invoking state.
    pub state: StateIndex,
    /// 1-based chart line of the `<invoke>` element.
    pub line: u32,
    /// 1-based column of the `<invoke>` element.
    pub column: u32,
    /// `autoforward="true"`: every external event this session processes is also sent to
    /// the child.
    pub autoforward: bool,
    /// The `<finalize>` block, run on each event from the child before it is processed.
    pub finalize: Option<BlockIndex>,
    /// Evaluates `type`, `id`/`idlocation`, `namelist` and `<param>`, and creates the child.
    /// An `Err` raises `error.execution` and nothing is invoked.
    pub start: fn(&mut D, &mut Context<E>) -> Result<super::InvokeStart, ExecError>,
}

/// A `<data>` item of the datamodel.
pub struct DataItem<D, E = Untyped> {
    /// The `id` attribute.
    pub id: &'static str,
    /// The state whose `<datamodel>` declares it (0: the `<scxml>` root). With late binding
    /// the item gets its value when this state is first entered.
    pub state: StateIndex,
    /// 1-based chart line of the `<data>` element.
    pub line: u32,
    /// Early binding: evaluates `expr` (or leaves the type's default) into the field.
    pub init: fn(&mut D, &Context<E>) -> Result<(), ExecError>,
    /// Sets the field from a JSON value (`set_initial_values`). Fails when the value does not
    /// deserialize into the field's type.
    pub set: fn(&mut D, Value) -> Result<(), serde_json::Error>,
    /// Reads the field as a JSON value.
    pub get: fn(&D) -> Result<Value, serde_json::Error>,
}

/// Everything the interpreter needs to know about one compiled chart.
pub struct Tables<D: 'static, E: 'static = Untyped> {
    /// `<scxml name>`, or the chart's file stem when the attribute is absent.
    pub name: &'static str,
    /// The chart's file name, for messages.
    pub file: &'static str,
    /// All states in document order; index 0 is the root.
    pub states: &'static [StateInfo],
    /// All transitions in document order.
    pub transitions: &'static [TransitionInfo],
    /// Compiled conditions.
    pub conditions: &'static [Condition<D, E>],
    /// Compiled blocks of executable content.
    pub blocks: &'static [Block<D, E>],
    /// Compiled `<donedata>` elements.
    pub done_data: &'static [DoneData<D, E>],
    /// The `<data>` items in document order.
    pub data: &'static [DataItem<D, E>],
    /// The top-level `<script>` block, run once after the datamodel is initialised.
    pub script: Option<BlockIndex>,
    /// The `<invoke>` elements in document order.
    pub invokes: &'static [Invoke<D, E>],
    /// `binding="late"` (SCXML 1.0, 5.3): every field exists from the start, but a `<data>`
    /// inside a state gets its value only when that state is first entered, before its
    /// `<onentry>`. With early binding (the default) all values are assigned at start.
    pub late_binding: bool,
    /// The event descriptors of the chart's transitions, `*` excluded, sorted, each once:
    /// the names whose macrosteps can be precomputed ([`Chart::event_index`] numbers them).
    /// Empty: nothing is precomputed.
    pub event_names: &'static [&'static str],
    /// The chart's precomputed macrosteps, filled on first use (generated code writes
    /// `FastPathCache::new()`).
    pub fast_path: super::FastPathCache,
}

impl<D, E> Tables<D, E> {
    /// Whether state `state` has an eventless `<transition>` (one without `event`).
    pub(crate) fn has_eventless_transition(&self, state: StateIndex) -> bool {
        self.states.get(state as usize).is_some_and(|s| {
            s.transitions
                .iter()
                .any(|&t| self.transitions[t as usize].events.is_empty())
        })
    }
}

/// A chart compiled by `sudoku-scxmlc`. The generator implements this for a unit struct named
/// `<Name>Chart`; [`Machine`](super::Machine) is generic over it.
pub trait Chart: 'static {
    /// The generated `State` enum: one variant per state id (history states excluded).
    type State: Copy + Eq + std::hash::Hash + std::fmt::Debug + 'static;
    /// The generated datamodel struct (`()` for the null datamodel).
    type Data: 'static;
    /// The generated `enum Event`: one variant per event name the chart uses
    /// ([`Untyped`] for hand-written tables).
    type Event: ChartEvent;
    /// The datamodels, events and invoked charts of every chart this one may invoke, as a
    /// tuple (`()` for none; generated code lists them): [`Core`](super::Core) is `Send` when
    /// they, [`Data`](Chart::Data) and [`Event`](Chart::Event) are.
    type Invoked: 'static;
    /// The static tables.
    fn tables() -> &'static Tables<Self::Data, Self::Event>;
    /// A fresh datamodel with every field at its type's default.
    fn new_data() -> Self::Data;
    /// The enum variant for a state index; `None` for the root and history states.
    fn state(index: StateIndex) -> Option<Self::State>;
    /// The state index of an enum variant.
    fn index(state: Self::State) -> StateIndex;
    /// The position of the event name `name` in [`Tables::event_names`], `None` when the
    /// chart's transitions do not name it exactly. Generated charts answer with a `match`
    /// compiled from the chart; this default searches the table.
    #[inline]
    fn event_index(name: &str) -> Option<usize> {
        Self::tables().event_names.binary_search(&name).ok()
    }
    /// Whether [`quiet_step`](Chart::quiet_step) is implemented: generated charts of at most
    /// 1,024 (state, event name) cells precompute their macrosteps at build time.
    const QUIET_STEPS: bool = false;
    /// For a machine nobody observes: the macrostep of the event name `cell %
    /// event_names.len()` while the atomic state `cell / event_names.len()` is active, as
    /// that state's first cell (`state * event_names.len()`) of the atomic state active
    /// afterwards; `None` when the interpreter must run. Generated as a `match` when
    /// [`QUIET_STEPS`](Chart::QUIET_STEPS) (the same cells the runtime computes on first use
    /// otherwise, see `check_quiet_steps`).
    #[inline]
    fn quiet_step(cell: usize) -> Option<u32> {
        let _ = cell;
        None
    }
    /// The chart's generated macrosteps ([`Stepper`](super::__private::Stepper)): charts without
    /// `<parallel>` or `<invoke>` get them from the generator.
    const STEP: Option<super::__private::StepFn<Self::Data, Self::Event>> = None;
    /// Whether [`lane`](Chart::lane) is implemented: the generator writes it for charts
    /// without `<parallel>`, `<invoke>` or eventless transitions, in the rust or null
    /// datamodel (see `runtime/lane.rs`).
    #[doc(hidden)]
    const LANE: bool = false;
    /// Whether the lane is inlined where `submit` is called (charts without precomputed
    /// quiet cells: there it is the path of every event); otherwise it is one call away, so
    /// that the quiet move before it stays small. With [`QUIET_STEPS`](Chart::QUIET_STEPS)
    /// it says that [`quiet_step`](Chart::quiet_step) is `None` throughout: the machine
    /// then never moves quietly, and skips the check for a quiet move to catch up with.
    #[doc(hidden)]
    const LANE_AT_CALL_SITE: bool = false;
    /// The chart's typed lane: the macrostep of `event` in the active atomic state, written
    /// out by the generator ([`Lane`](super::__private::Lane)); `Declined` where it is not.
    #[doc(hidden)]
    #[inline(always)]
    fn lane(
        lane: &mut super::__private::Lane<'_, Self::Data, Self::Event>,
        event: &Self::Event,
    ) -> super::__private::LaneEnd {
        let _ = (lane, event);
        super::__private::LaneEnd::Declined
    }
}
