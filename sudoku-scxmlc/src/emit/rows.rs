//! The table row of each state and transition, as the plan gives it: what the generated
//! `__S::row(..)` / `__T::row(..)` lines hold, and what the build-time precomputation of
//! macrosteps ([`super::quiet`]) runs on. One mapping serves both, so they cannot differ.

use crate::plan::Plan;
use crate::runtime::{Domain, StateKind};

/// A state's row: the arguments of [`StateInfo::row`](crate::runtime::StateInfo::row).
pub(super) struct StateArgs<'p> {
    pub(super) id: &'p str,
    pub(super) kind: StateKind,
    /// `None` for the root.
    pub(super) parent: Option<usize>,
    pub(super) descendants_end: usize,
    pub(super) children: &'p [usize],
    pub(super) initial: Option<usize>,
    pub(super) transitions: std::ops::Range<usize>,
    pub(super) onentry: std::ops::Range<usize>,
    pub(super) onexit: std::ops::Range<usize>,
    pub(super) donedata: Option<usize>,
    /// The state's `<history>` children.
    pub(super) history: Vec<usize>,
    pub(super) line: u32,
}

/// A transition's row: the arguments of
/// [`TransitionInfo::row`](crate::runtime::TransitionInfo::row).
pub(super) struct TransitionArgs<'p> {
    pub(super) source: usize,
    pub(super) events: &'p [String],
    pub(super) cond: Option<usize>,
    pub(super) targets: &'p [usize],
    pub(super) internal: bool,
    pub(super) content: Option<usize>,
    pub(super) domain: Domain,
    pub(super) line: u32,
}

/// The row of state `i` (document order).
pub(super) fn state(plan: &Plan, i: usize) -> StateArgs<'_> {
    let s = &plan.chart.states[i];
    StateArgs {
        id: &s.id,
        kind: s.kind,
        parent: s.parent.get(),
        descendants_end: plan.descendants_end(i),
        children: &s.children,
        initial: s.initial.get(),
        transitions: s.transitions.iter(),
        onentry: plan.onentry(i),
        onexit: plan.onexit(i),
        donedata: plan.state_done_data(i),
        history: s
            .children
            .iter()
            .copied()
            .filter(|&c| plan.chart.states[c].kind.is_history())
            .collect(),
        line: s.line,
    }
}

/// The row of transition `i` (document order).
pub(super) fn transition(plan: &Plan, i: usize) -> TransitionArgs<'_> {
    let t = &plan.chart.transitions[i];
    TransitionArgs {
        source: t.source,
        events: t.events(),
        cond: plan.transition_cond(i),
        targets: &t.targets,
        internal: t.internal,
        content: plan.transition_block(i),
        domain: plan.domains[i],
        line: t.line,
    }
}
