//! Warnings for parts of a chart that can never run: states no transition can enter, and
//! transitions an earlier transition of the same state always preempts (SCXML 1.0, 3.13:
//! the first enabled transition in document order wins).

use crate::chart::Chart;
use crate::diagnostic::Diagnostic;
use crate::runtime::{descriptor_matches, StateKind};

/// Warnings kept up to a budget and counted past it: only the first
/// [`MAX_RENDERED`](crate::diagnostic::MAX_RENDERED) warnings of a chart are rendered, and a
/// chart can have one per transition (uSCXML's `Transitions.256` has 65,280 shadowed
/// transitions: 12 MB of messages, docs/scale.md "Compiler memory").
#[derive(Debug)]
pub(crate) struct Warnings {
    /// How many more are kept.
    budget: usize,
    /// The warnings kept, in the order found.
    pub(crate) kept: Vec<Diagnostic>,
    /// How many were found past the budget.
    pub(crate) omitted: usize,
}

impl Warnings {
    /// Keeps up to `budget` warnings.
    pub(crate) fn new(budget: usize) -> Self {
        Warnings {
            budget,
            kept: Vec::new(),
            omitted: 0,
        }
    }

    /// Keeps the warning `make` makes, or counts it when the budget is spent.
    pub(crate) fn push(&mut self, make: impl FnOnce() -> Diagnostic) {
        if self.budget > 0 {
            self.budget -= 1;
            self.kept.push(make());
        } else {
            self.omitted += 1;
        }
    }
}

/// Every warning for `chart`, in document order, into `out`.
pub(crate) fn warnings(chart: &Chart, out: &mut Warnings) {
    let shadowed = shadowed_transitions(chart, out);
    unreachable_states(chart, &shadowed, out);
}

/// States that no transition can enter; `shadowed` transitions (per transition) never
/// fire, so they enter nothing.
fn unreachable_states(chart: &Chart, shadowed: &[bool], out: &mut Warnings) {
    let n = chart.states.len();
    let mut reached = vec![false; n];
    let mut work = vec![0usize];
    reached[0] = true;
    let reach = |s: usize, reached: &mut Vec<bool>, work: &mut Vec<usize>| {
        // Entering a state enters its ancestors too.
        let mut x = Some(s);
        while let Some(i) = x {
            if !reached[i] {
                reached[i] = true;
                work.push(i);
            }
            x = chart.states[i].parent.get();
        }
    };
    while let Some(s) = work.pop() {
        let state = &chart.states[s];
        if state.kind == StateKind::Parallel {
            for &c in &state.children {
                if !chart.states[c].kind.is_history() {
                    reach(c, &mut reached, &mut work);
                }
            }
        }
        let outgoing = state
            .initial
            .get()
            .into_iter()
            .chain(state.transitions.iter());
        for t in outgoing.filter(|&t| !shadowed[t]) {
            for &target in &chart.transitions[t].targets {
                reach(target, &mut reached, &mut work);
            }
        }
        // A history target restores some earlier configuration: its default covers the rest.
        for &c in &state.children {
            if chart.states[c].kind.is_history() && reached[c] {
                if let Some(t) = chart.states[c].initial.get() {
                    for &target in &chart.transitions[t].targets {
                        reach(target, &mut reached, &mut work);
                    }
                }
            }
        }
    }
    let unreachable = chart
        .states
        .iter()
        .enumerate()
        .filter(|&(i, s)| !reached[i] && !s.kind.is_history())
        // Report only the outermost unreachable state of a subtree.
        .filter(|(_, s)| s.parent.get().is_none_or(|p| reached[p]));
    for (_, s) in unreachable {
        out.push(|| {
            let what = if s.generated_id {
                "this state".to_owned()
            } else {
                format!("state `{}`", s.id)
            };
            Diagnostic::warning(
                s.span,
                format!("{what} is unreachable: no transition enters it"),
            )
        });
    }
}

/// Per transition, whether an earlier unconditional transition of the same state always
/// preempts it, with a warning for each that does.
fn shadowed_transitions(chart: &Chart, out: &mut Warnings) -> Vec<bool> {
    let mut shadowed = vec![false; chart.transitions.len()];
    for state in &chart.states {
        for (k, t) in state.transitions.iter().enumerate() {
            let later = &chart.transitions[t];
            let shadow = state.transitions.first(k).iter().find(|&e| {
                let earlier = &chart.transitions[e];
                if earlier.cond().is_some() {
                    return false;
                }
                if earlier.events().is_empty() {
                    // An unconditional eventless transition is taken before any event is
                    // looked at, and again and again: nothing after it can fire.
                    return true;
                }
                !later.events().is_empty()
                    && later.events().iter().all(|d| {
                        earlier
                            .events()
                            .iter()
                            .any(|e| d != "*" && descriptor_matches(e, d))
                    })
            });
            if let Some(e) = shadow {
                shadowed[t] = true;
                let line = chart.transitions[e].line;
                out.push(|| {
                    Diagnostic::warning(later.span, "this transition can never fire").with_help(
                        format!(
                            "the unconditional transition at line {line} matches every event this one matches and comes first"
                        ),
                    )
                });
            }
        }
    }
    shadowed
}
