//! Warnings for parts of a chart that can never run: states no transition can enter, and
//! transitions an earlier transition of the same state always preempts (SCXML 1.0, 3.13:
//! the first enabled transition in document order wins).

use crate::chart::Chart;
use crate::diagnostic::Diagnostic;
use crate::runtime::{descriptor_matches, StateKind};

/// Every warning for `chart`, in document order.
pub fn warnings(chart: &Chart) -> Vec<Diagnostic> {
    let (shadowed, mut out) = shadowed_transitions(chart);
    out.extend(unreachable_states(chart, &shadowed));
    out
}

/// States that no transition can enter; `shadowed` transitions never fire, so they enter
/// nothing.
fn unreachable_states(chart: &Chart, shadowed: &[usize]) -> Vec<Diagnostic> {
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
            x = chart.states[i].parent;
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
            .into_iter()
            .chain(state.transitions.iter().copied());
        for t in outgoing.filter(|t| !shadowed.contains(t)) {
            for &target in &chart.transitions[t].targets {
                reach(target, &mut reached, &mut work);
            }
        }
        // A history target restores some earlier configuration: its default covers the rest.
        for &c in &state.children {
            if chart.states[c].kind.is_history() && reached[c] {
                if let Some(t) = chart.states[c].initial {
                    for &target in &chart.transitions[t].targets {
                        reach(target, &mut reached, &mut work);
                    }
                }
            }
        }
    }
    chart
        .states
        .iter()
        .enumerate()
        .filter(|&(i, s)| !reached[i] && !s.kind.is_history())
        // Report only the outermost unreachable state of a subtree.
        .filter(|(_, s)| s.parent.is_none_or(|p| reached[p]))
        .map(|(_, s)| {
            let what = if s.generated_id {
                "this state".to_owned()
            } else {
                format!("state `{}`", s.id)
            };
            Diagnostic::warning(
                s.span,
                format!("{what} is unreachable: no transition enters it"),
            )
        })
        .collect()
}

/// Transitions that an earlier unconditional transition of the same state always preempts,
/// with a warning for each.
fn shadowed_transitions(chart: &Chart) -> (Vec<usize>, Vec<Diagnostic>) {
    let mut shadowed = Vec::new();
    let mut out = Vec::new();
    for state in &chart.states {
        for (k, &t) in state.transitions.iter().enumerate() {
            let later = &chart.transitions[t];
            let shadow = state.transitions[..k].iter().find(|&&e| {
                let earlier = &chart.transitions[e];
                if earlier.cond.is_some() {
                    return false;
                }
                if earlier.events.is_empty() {
                    // An unconditional eventless transition is taken before any event is
                    // looked at, and again and again: nothing after it can fire.
                    return true;
                }
                !later.events.is_empty()
                    && later.events.iter().all(|d| {
                        earlier
                            .events
                            .iter()
                            .any(|e| d != "*" && descriptor_matches(e, d))
                    })
            });
            if let Some(&e) = shadow {
                shadowed.push(t);
                let line = chart.transitions[e].line;
                out.push(
                    Diagnostic::warning(later.span, "this transition can never fire").with_help(
                        format!(
                            "the unconditional transition at line {line} matches every event this one matches and comes first"
                        ),
                    ),
                );
            }
        }
    }
    (shadowed, out)
}
