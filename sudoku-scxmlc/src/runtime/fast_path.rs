//! Precomputed macrosteps: the answer of SCXML 1.0, Appendix D, for "this atomic state is
//! active and this external event arrives", worked out once per chart wherever it depends on
//! nothing but the configuration.
//!
//! For a chart without `<parallel>` or `<invoke>`, the configuration is the chain of one
//! atomic state and its ancestors. When the event's transition selection
//! (`selectTransitions`) meets no `cond`, and the chosen transition runs no executable content
//! (no `<onexit>`, transition content, `<onentry>`, initial-transition content), touches no
//! history (recording or restoring), enters no `<final>` (no `done.state` event) and leads to
//! a configuration without eventless transitions, the whole macrostep is a fixed exit list
//! and a fixed entry list. [`FastPath`] holds those lists for every (atomic state, event name)
//! pair, computed by the interpreter's own entry-set code ([`Shape`]); the machine applies one
//! with a few bit operations instead of running the algorithm. Every other pair is marked
//! slow (no step) and goes through the full interpreter, so the two paths cannot disagree.
//!
//! The event names looked up are the chart's own descriptors ([`Tables::event_names`], from
//! [`event_names`]): a submitted name that is not exactly one of them takes the full path.
//! Generated code numbers them at build time ([`Chart::event_index`](super::Chart::event_index)
//! is a `match` on the name), so the look-up costs no string search at run time.

use super::interpreter::{EntrySets, Shape};
use super::state_set::StateSet;
use super::{
    descriptor_matches, Chart, Domain, StateIndex, StateKind, StateRow, Tables, TransitionRow,
};
use std::sync::OnceLock;

/// At most this many (state, event name) cells are precomputed per chart (32 bytes each); a
/// larger chart runs every event through the full interpreter.
const MAX_CELLS: usize = 1 << 18;

/// The per-chart cache of precomputed macrosteps, filled on first use.
///
/// Generated tables hold one (`fast_path: FastPathCache::new()`); nothing else needs to touch
/// it.
#[derive(Debug, Default)]
pub struct FastPathCache(OnceLock<Option<FastPath>>);

impl FastPathCache {
    /// An empty cache.
    pub const fn new() -> Self {
        FastPathCache(OnceLock::new())
    }

    /// The precomputed macrosteps of `tables`, computed on the first call; `None` when the
    /// chart has parallel states, invocations, no event names, or too many cells.
    pub(crate) fn get<D, E>(&'static self, tables: &Tables<D, E>) -> Option<&'static FastPath> {
        self.0
            .get_or_init(|| FastPath::build(&ChartRows::of(tables)))
            .as_ref()
    }
}

/// What the precomputation reads of a chart: its state and transition rows, event names and
/// the states whose entry runs `<data>` initialisation, borrowed for `'a` (from the
/// generated `'static` tables at run time, [`ChartRows::of`]; from the rows of the chart
/// being compiled at build time, `emit/quiet.rs`).
pub(crate) struct ChartRows<'a> {
    /// All states in document order; index 0 is the root.
    pub(crate) states: &'a [StateRow<'a>],
    /// All transitions in document order.
    pub(crate) transitions: &'a [TransitionRow<'a>],
    /// [`Tables::event_names`].
    pub(crate) event_names: &'a [&'a str],
    /// With late binding, the states whose `<datamodel>` holds a `<data>` (entering one
    /// runs code); empty with early binding.
    pub(crate) late_data: Vec<StateIndex>,
    /// Whether the chart has an `<invoke>`.
    pub(crate) invokes: bool,
}

impl<'a> ChartRows<'a> {
    /// The rows of generated tables.
    pub(crate) fn of<D, E>(tables: &'a Tables<D, E>) -> Self {
        ChartRows {
            states: tables.states,
            transitions: tables.transitions,
            event_names: tables.event_names,
            late_data: if tables.late_binding {
                tables.data.iter().map(|d| d.state).collect()
            } else {
                Vec::new()
            },
            invokes: !tables.invokes.is_empty(),
        }
    }

    /// Whether state `state` has an eventless `<transition>` (one without `event`).
    fn has_eventless_transition(&self, state: StateIndex) -> bool {
        self.states.get(state as usize).is_some_and(|s| {
            s.transitions
                .iter()
                .any(|&t| self.transitions[t as usize].events.is_empty())
        })
    }
}

/// One precomputed macrostep: a single microstep, or nothing (empty lists) when no
/// transition is enabled or the enabled one is targetless and runs no content.
#[derive(Debug)]
pub(crate) struct Step {
    /// States to exit, in exit order (descending document order).
    pub(crate) exit: Box<[StateIndex]>,
    /// States to enter, in entry order (ascending document order).
    pub(crate) enter: Box<[StateIndex]>,
    /// The atomic state active afterwards.
    pub(crate) leaf: StateIndex,
}

impl Step {
    /// Whether the step changes nothing.
    #[cfg(test)]
    pub(crate) fn is_nothing(&self) -> bool {
        self.exit.is_empty() && self.enter.is_empty()
    }
}

/// Checks that a chart's generated [`Chart::quiet_step`] gives exactly the cells the
/// runtime precomputes from its tables (every cell, and `None` past the last). For tests of
/// the generator; a chart without generated steps passes.
///
/// # Errors
/// The first cell where they differ.
pub fn check_quiet_steps<C: Chart>() -> Result<(), String> {
    if !C::QUIET_STEPS {
        return Ok(());
    }
    let tables = C::tables();
    let Some(fast) = tables.fast_path.get(tables) else {
        return Err(format!(
            "{}: generated quiet steps, but the runtime precomputes no macrosteps",
            tables.name
        ));
    };
    let cells = fast.quiet_cells();
    for cell in 0..cells.len() + tables.event_names.len() + 1 {
        let runtime = cells.get(cell).copied().filter(|&r| r != QUIET_SLOW);
        let generated = C::quiet_step(cell);
        if runtime != generated {
            return Err(format!(
                "{}: cell {cell}: the generated quiet step gives {generated:?}, the runtime {runtime:?}",
                tables.name
            ));
        }
    }
    Ok(())
}

/// The event names a chart's precomputed macrosteps are looked up by: every event descriptor
/// of its transitions except `*`, sorted, each once. Generated [`Tables::event_names`] hold
/// this list.
pub fn event_names<'a>(descriptors: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut names: Vec<&str> = descriptors
        .into_iter()
        .filter(|&d| d != "*" && !d.is_empty())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The precomputed macrosteps of one chart (see the module documentation).
#[derive(Debug)]
pub(crate) struct FastPath {
    /// The number of event names ([`Tables::event_names`]).
    names: usize,
    /// The distinct steps, owned here; the cells index them.
    steps: Box<[Step]>,
    /// `cells[state * names.len() + name]`: the index of its step in `steps`, or
    /// [`NO_STEP`] when the full interpreter must run.
    cells: Box<[u32]>,
    /// The same cells for a machine nobody observes, which keeps only its atomic state:
    /// the row (`state * names.len()`) of the atomic state active afterwards, or
    /// [`QUIET_SLOW`].
    quiet: Box<[u32]>,
}

/// A cell of [`FastPath::quiet_cells`] that is not precomputed.
pub(crate) const QUIET_SLOW: u32 = u32::MAX;

/// A cell of `FastPath::cells` without a step.
const NO_STEP: u32 = u32::MAX;

impl FastPath {
    /// The macrostep of the event name `name` (its index in [`Tables::event_names`])
    /// arriving while the atomic state `leaf` is active; `None` when the full interpreter
    /// must run.
    #[inline(always)]
    pub(crate) fn step(&self, leaf: StateIndex, name: usize) -> Option<&Step> {
        let i = *self.cells.get(leaf as usize * self.names + name)?;
        self.steps.get(i as usize)
    }

    /// The cells for a machine nobody observes, indexed like the steps
    /// (`state * names.len() + name`): the [`row`](Self::row) of the atomic state active
    /// after the macrostep, or [`QUIET_SLOW`].
    pub(crate) fn quiet_cells(&self) -> &[u32] {
        &self.quiet
    }

    /// The first index of `leaf`'s cells in [`quiet_cells`](Self::quiet_cells).
    pub(crate) fn row(&self, leaf: StateIndex) -> u32 {
        (leaf as usize * self.names) as u32
    }

    /// The atomic state whose [`row`](Self::row) is `row`.
    pub(crate) fn leaf_of_row(&self, row: u32) -> StateIndex {
        (row as usize / self.names.max(1)) as StateIndex
    }

    /// The precomputed macrosteps of the chart `rows` describes; `None` when it has parallel
    /// states, invocations, no event names, or too many cells.
    pub(crate) fn build(rows: &ChartRows<'_>) -> Option<FastPath> {
        let states = rows.states;
        if rows.invokes || states.iter().any(|s| s.kind == StateKind::Parallel) {
            return None;
        }
        let names = rows.event_names;
        if names.is_empty() || states.len().saturating_mul(names.len()) > MAX_CELLS {
            return None;
        }
        let mut cells = vec![NO_STEP; states.len() * names.len()];
        let mut steps: Vec<Step> = Vec::new();
        let mut add = |exit: Vec<StateIndex>, enter: Vec<StateIndex>, leaf: StateIndex| {
            steps.push(Step {
                exit: exit.into_boxed_slice(),
                enter: enter.into_boxed_slice(),
                leaf,
            });
            // At most MAX_CELLS steps.
            (steps.len() - 1) as u32
        };
        let no_history = StateSet::default();
        let shape = Shape {
            states,
            transitions: rows.transitions,
            history: &[],
            history_recorded: &no_history,
        };
        let mut sets = EntrySets::default();
        for leaf in 1..states.len() as StateIndex {
            if !states[leaf as usize].kind.is_atomic() {
                continue;
            }
            // One "nothing happens" step per atomic state, shared by its event names.
            let mut nothing = None;
            for (n, name) in names.iter().enumerate() {
                cells[leaf as usize * names.len() + n] =
                    match classify(rows, &shape, &mut sets, leaf, name) {
                        Classified::Slow => NO_STEP,
                        Classified::Nothing => {
                            *nothing.get_or_insert_with(|| add(vec![], vec![], leaf))
                        }
                        Classified::Step { exit, enter, leaf } => add(exit, enter, leaf),
                    };
            }
        }
        let quiet = cells
            .iter()
            .map(|&c| {
                match steps
                    .get(c as usize)
                    .map(|step| u32::try_from(step.leaf as usize * names.len()))
                {
                    Some(Ok(row)) if row != QUIET_SLOW => row,
                    _ => QUIET_SLOW,
                }
            })
            .collect();
        Some(FastPath {
            names: names.len(),
            steps: steps.into_boxed_slice(),
            cells: cells.into_boxed_slice(),
            quiet,
        })
    }
}

/// What [`classify`] found for one (atomic state, event name) pair.
enum Classified {
    /// The full interpreter must run.
    Slow,
    /// The event is consumed and the configuration stays.
    Nothing,
    /// One microstep with these exit and entry lists, leaving `leaf` the active atomic state.
    Step {
        exit: Vec<StateIndex>,
        enter: Vec<StateIndex>,
        leaf: StateIndex,
    },
}

/// What `name` arriving while `leaf` (and its ancestors) are active does.
fn classify(
    tables: &ChartRows<'_>,
    shape: &Shape<'_>,
    sets: &mut EntrySets,
    leaf: StateIndex,
    name: &str,
) -> Classified {
    use Classified::{Nothing as NOTHING, Slow as SLOW};
    let states = tables.states;
    let chain = |s: StateIndex| -> Vec<StateIndex> {
        let mut chain = Vec::new();
        let mut a = s;
        while a != 0 && (a as usize) < states.len() {
            chain.push(a);
            a = states[a as usize].parent;
        }
        chain.reverse();
        chain
    };
    let has_eventless =
        |config: &[StateIndex]| config.iter().any(|&s| tables.has_eventless_transition(s));
    let before = chain(leaf);
    // selectTransitions: the first matching transition from the atomic state outwards.
    let mut selected = None;
    'states: for &s in before.iter().rev() {
        for &t in states[s as usize].transitions {
            let info = &tables.transitions[t as usize];
            if info.events.iter().any(|d| descriptor_matches(d, name)) {
                if info.cond.is_some() {
                    return SLOW;
                }
                selected = Some(t);
                break 'states;
            }
        }
    }
    let Some(t) = selected else {
        return if has_eventless(&before) {
            SLOW
        } else {
            NOTHING
        };
    };
    let info = &tables.transitions[t as usize];
    if info.content.is_some() {
        return SLOW;
    }
    let domain = match info.domain {
        Domain::Targetless => {
            return if has_eventless(&before) {
                SLOW
            } else {
                NOTHING
            };
        }
        Domain::Dynamic => return SLOW,
        Domain::Static(d) => d,
    };
    // computeExitSet: the active proper descendants of the domain, deepest first.
    let end = states[domain as usize].descendants_end;
    let exit: Vec<StateIndex> = before
        .iter()
        .rev()
        .copied()
        .filter(|&s| domain < s && s < end)
        .collect();
    if exit.iter().any(|&s| {
        let st = &states[s as usize];
        !st.onexit.is_empty() || !st.history.is_empty()
    }) {
        return SLOW;
    }
    // computeEntrySet, with no history recorded.
    sets.to_enter.clear();
    sets.for_default_entry.clear();
    sets.default_history_content.clear();
    for &s in info.targets {
        if states[s as usize].kind.is_history() {
            return SLOW;
        }
        shape.add_descendant_states_to_enter(s, sets, 0);
    }
    for &s in info.targets {
        shape.add_ancestor_states_to_enter(s, domain, sets, 0);
    }
    let enter: Vec<StateIndex> = sets.to_enter.iter().collect();
    for &s in &enter {
        let st = &states[s as usize];
        let plain = matches!(st.kind, StateKind::Atomic | StateKind::Compound)
            && st.onentry.is_empty()
            && !tables.late_data.contains(&s);
        if !plain {
            return SLOW;
        }
        if sets.for_default_entry.contains(s) {
            if let Some(initial) = st.initial {
                let it = &tables.transitions[initial as usize];
                if it.content.is_some()
                    || it
                        .targets
                        .iter()
                        .any(|&x| states[x as usize].kind.is_history())
                {
                    return SLOW;
                }
            }
        }
    }
    let mut after: Vec<StateIndex> = before
        .iter()
        .copied()
        .filter(|s| !exit.contains(s))
        .chain(enter.iter().copied())
        .collect();
    after.sort_unstable();
    after.dedup();
    let Some(&new_leaf) = after.last() else {
        return SLOW;
    };
    // The result must again be one chain ending in an atomic state.
    if !states[new_leaf as usize].kind.is_atomic() || chain(new_leaf) != after {
        return SLOW;
    }
    if has_eventless(&after) {
        return SLOW;
    }
    Classified::Step {
        exit,
        enter,
        leaf: new_leaf,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{StateInfo, TransitionInfo, NO_STATE};

    // 0 root
    //   1 a (compound, initial a1)
    //     2 a1: go -> a2, jump -> b, c [cond] -> b, stay (targetless)
    //     3 a2: go -> a1
    //   4 b (has <onentry>): back -> a
    static STATES: [StateInfo; 5] = [
        StateInfo::row(
            "__root",
            StateKind::Root,
            NO_STATE,
            5,
            &[1, 4],
            Some(0),
            &[],
            &[],
            &[],
            None,
            &[],
            1,
        ),
        StateInfo::row(
            "a",
            StateKind::Compound,
            0,
            4,
            &[2, 3],
            Some(1),
            &[],
            &[],
            &[],
            None,
            &[],
            2,
        ),
        StateInfo::row(
            "a1",
            StateKind::Atomic,
            1,
            3,
            &[],
            None,
            &[2, 3, 4, 5],
            &[],
            &[],
            None,
            &[],
            3,
        ),
        StateInfo::row(
            "a2",
            StateKind::Atomic,
            1,
            4,
            &[],
            None,
            &[6],
            &[],
            &[],
            None,
            &[],
            8,
        ),
        StateInfo::row(
            "b",
            StateKind::Atomic,
            0,
            5,
            &[],
            None,
            &[7],
            &[0],
            &[],
            None,
            &[],
            10,
        ),
    ];
    static TRANSITIONS: [TransitionInfo; 8] = [
        TransitionInfo::row(0, &[], None, &[1], false, None, Domain::Static(0), 1),
        TransitionInfo::row(1, &[], None, &[2], false, None, Domain::Static(1), 2),
        TransitionInfo::row(2, &["go"], None, &[3], false, None, Domain::Static(1), 4),
        TransitionInfo::row(2, &["jump"], None, &[4], false, None, Domain::Static(0), 5),
        TransitionInfo::row(2, &["c"], Some(0), &[4], false, None, Domain::Static(0), 6),
        TransitionInfo::row(2, &["stay"], None, &[], false, None, Domain::Targetless, 7),
        TransitionInfo::row(3, &["go"], None, &[2], false, None, Domain::Static(1), 9),
        TransitionInfo::row(4, &["back"], None, &[1], false, None, Domain::Static(0), 11),
    ];
    static TABLES: Tables<()> = Tables {
        name: "fast",
        file: "fast.scxml",
        states: &STATES,
        transitions: &TRANSITIONS,
        conditions: &[],
        blocks: &[],
        done_data: &[],
        data: &[],
        script: None,
        invokes: &[],
        late_binding: false,
        event_names: &["back", "c", "go", "jump", "stay"],
        fast_path: FastPathCache::new(),
    };

    /// The cell as (exit list, entry list, new atomic state), or "slow" / "nothing".
    fn describe(leaf: StateIndex, name: &str) -> String {
        let fast = TABLES
            .fast_path
            .get(&TABLES)
            .expect("the chart has a fast path");
        let Some(n) = TABLES.event_names.iter().position(|&e| e == name) else {
            return "unknown name".into();
        };
        match fast.step(leaf, n) {
            None => "slow".into(),
            Some(s) if s.is_nothing() => {
                assert_eq!(s.leaf, leaf);
                "nothing".into()
            }
            Some(s) => format!("exit {:?} enter {:?} -> {}", s.exit, s.enter, s.leaf),
        }
    }

    #[test]
    fn cells_hold_exactly_the_macrosteps_that_depend_on_the_configuration_only() {
        assert_eq!(describe(2, "go"), "exit [2] enter [3] -> 3");
        assert_eq!(describe(3, "go"), "exit [3] enter [2] -> 2");
        // Entering `b` runs its <onentry>.
        assert_eq!(describe(2, "jump"), "slow");
        // The `cond` must be evaluated.
        assert_eq!(describe(2, "c"), "slow");
        assert_eq!(describe(2, "stay"), "nothing");
        assert_eq!(describe(2, "back"), "nothing");
        // `a` is entered by default: its initial transition brings `a1`.
        assert_eq!(describe(4, "back"), "exit [4] enter [1, 2] -> 2");
        assert_eq!(describe(4, "go"), "nothing");
        assert_eq!(describe(2, "go.on"), "unknown name");
    }
}
