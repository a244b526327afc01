//! What the entry sets are computed from (SCXML 1.0, Appendix D): the chart's shape (states,
//! transitions, history values) and `computeEntrySet`'s out-parameters; transition domains,
//! `addDescendantStatesToEnter` and `addAncestorStatesToEnter`. The precomputed macrosteps
//! (`fast_path.rs`) use the same code.

use super::*;

/// The out-parameters of Appendix D's `computeEntrySet`.
#[derive(Default)]
pub(in crate::runtime) struct EntrySets {
    pub(in crate::runtime) to_enter: StateSet,
    pub(in crate::runtime) for_default_entry: StateSet,
    /// `defaultHistoryContent`: (parent of the history state, content of its default transition).
    pub(in crate::runtime) default_history_content: Vec<(StateIndex, BlockIndex)>,
}

/// The parts of the interpreter the entry-set computation reads.
pub(in crate::runtime) struct Shape<'a> {
    pub(in crate::runtime) states: &'a [StateRow<'a>],
    pub(in crate::runtime) transitions: &'a [TransitionRow<'a>],
    pub(in crate::runtime) history: &'a [Vec<StateIndex>],
    pub(in crate::runtime) history_recorded: &'a StateSet,
}

/// History default transitions that target history states are followed at most this deep
/// (malformed tables could make them cycle).
const MAX_HISTORY_DEPTH: usize = 64;

impl<'a> Shape<'a> {
    pub(super) fn is_descendant(&self, state: StateIndex, ancestor: StateIndex) -> bool {
        ancestor < state && state < self.states[ancestor as usize].descendants_end
    }

    /// Appendix D `getEffectiveTargetStates`, appended to `out`.
    pub(super) fn effective_targets(&self, t: TransitionIndex, out: &mut Vec<StateIndex>) {
        self.effective_targets_depth(t, out, 0);
    }

    pub(super) fn effective_targets_depth(
        &self,
        t: TransitionIndex,
        out: &mut Vec<StateIndex>,
        depth: usize,
    ) {
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
    pub(super) fn transition_domain(
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
    pub(super) fn find_lcca(&self, head: StateIndex, tail: &[StateIndex]) -> StateIndex {
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
    pub(super) fn initial_targets(&self, state: StateIndex) -> &'a [StateIndex] {
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
    pub(in crate::runtime) fn add_descendant_states_to_enter(
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
    pub(super) fn enter_missing_regions(
        &self,
        parallel: StateIndex,
        sets: &mut EntrySets,
        depth: usize,
    ) {
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
    pub(in crate::runtime) fn add_ancestor_states_to_enter(
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
