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
//! [`Cell::Slow`] and goes through the full interpreter, so the two paths cannot disagree.
//!
//! The event names looked up are the chart's own descriptors (`normalize_descriptor`d, `*`
//! excluded): a submitted name that is not exactly one of them takes the full path.

use super::interpreter::{EntrySets, Shape};
use super::state_set::StateSet;
use super::{descriptor_matches, Domain, StateIndex, StateKind, Tables};
use std::sync::OnceLock;

/// At most this many (state, event name) cells are precomputed per chart (4 bytes each); a
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
    pub(crate) fn get<D>(&'static self, tables: &Tables<D>) -> Option<&'static FastPath> {
        self.0.get_or_init(|| FastPath::build(tables)).as_ref()
    }
}

/// What one (atomic state, event name) pair does.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cell {
    /// The full interpreter must run.
    Slow,
    /// No transition is enabled (or a targetless one without content): the event is consumed
    /// and the configuration stays.
    Nothing,
    /// Exit and enter the states of this step.
    Step(&'static Step),
}

/// One precomputed microstep.
#[derive(Debug)]
pub(crate) struct Step {
    /// States to exit, in exit order (descending document order).
    pub(crate) exit: Box<[StateIndex]>,
    /// States to enter, in entry order (ascending document order).
    pub(crate) enter: Box<[StateIndex]>,
    /// The atomic state active afterwards.
    pub(crate) leaf: StateIndex,
}

/// The precomputed macrosteps of one chart (see the module documentation).
#[derive(Debug)]
pub(crate) struct FastPath {
    /// The event names, sorted.
    names: Vec<&'static str>,
    /// `cells[state * names.len() + name]`, encoded: 0 slow, 1 nothing, `k + 2` step `k`.
    cells: Vec<u32>,
    steps: Vec<Step>,
}

impl FastPath {
    /// The index of an event name of the chart.
    #[inline(always)]
    pub(crate) fn name_index(&self, name: &str) -> Option<usize> {
        if self.names.len() <= 8 {
            self.names.iter().position(|&n| n == name)
        } else {
            self.names.binary_search(&name).ok()
        }
    }

    /// What happens when `name` (from [`name_index`](Self::name_index)) arrives while the
    /// atomic state `leaf` is active.
    #[inline(always)]
    pub(crate) fn cell(&'static self, leaf: StateIndex, name: usize) -> Cell {
        match self.cells.get(leaf as usize * self.names.len() + name) {
            None | Some(0) => Cell::Slow,
            Some(1) => Cell::Nothing,
            Some(&k) => self
                .steps
                .get(k as usize - 2)
                .map_or(Cell::Slow, Cell::Step),
        }
    }

    fn build<D>(tables: &Tables<D>) -> Option<FastPath> {
        let states = tables.states;
        if !tables.invokes.is_empty() || states.iter().any(|s| s.kind == StateKind::Parallel) {
            return None;
        }
        let mut names: Vec<&'static str> = tables
            .transitions
            .iter()
            .flat_map(|t| t.events.iter().copied())
            .filter(|&d| d != "*" && !d.is_empty())
            .collect();
        names.sort_unstable();
        names.dedup();
        if names.is_empty() || states.len().saturating_mul(names.len()) > MAX_CELLS {
            return None;
        }
        let mut fast = FastPath {
            cells: vec![0; states.len() * names.len()],
            names,
            steps: Vec::new(),
        };
        let no_history = StateSet::default();
        let shape = Shape {
            states,
            transitions: tables.transitions,
            history: &[],
            history_recorded: &no_history,
        };
        let mut sets = EntrySets::default();
        for leaf in 1..states.len() as StateIndex {
            if !states[leaf as usize].kind.is_atomic() {
                continue;
            }
            for n in 0..fast.names.len() {
                let cell = fast.classify(tables, &shape, &mut sets, leaf, fast.names[n]);
                fast.cells[leaf as usize * fast.names.len() + n] = cell;
            }
        }
        Some(fast)
    }

    /// The encoded cell for `name` arriving while `leaf` (and its ancestors) are active.
    fn classify<D>(
        &mut self,
        tables: &Tables<D>,
        shape: &Shape<'_>,
        sets: &mut EntrySets,
        leaf: StateIndex,
        name: &str,
    ) -> u32 {
        const SLOW: u32 = 0;
        const NOTHING: u32 = 1;
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
        let has_eventless = |config: &[StateIndex]| {
            config.iter().any(|&s| {
                states[s as usize]
                    .transitions
                    .iter()
                    .any(|&t| tables.transitions[t as usize].events.is_empty())
            })
        };
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
                && !(tables.late_binding && tables.data.iter().any(|d| d.state == s));
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
        let step = Step {
            exit: exit.into_boxed_slice(),
            enter: enter.into_boxed_slice(),
            leaf: new_leaf,
        };
        self.steps.push(step);
        self.steps.len() as u32 + 1
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
        fast_path: FastPathCache::new(),
    };

    /// The cell as (exit list, entry list, new atomic state), or "slow" / "nothing".
    fn describe(leaf: StateIndex, name: &str) -> String {
        let fast = TABLES
            .fast_path
            .get(&TABLES)
            .expect("the chart has a fast path");
        let Some(n) = fast.name_index(name) else {
            return "unknown name".into();
        };
        match fast.cell(leaf, n) {
            Cell::Slow => "slow".into(),
            Cell::Nothing => "nothing".into(),
            Cell::Step(s) => format!("exit {:?} enter {:?} -> {}", s.exit, s.enter, s.leaf),
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
