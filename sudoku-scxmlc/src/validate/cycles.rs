//! A warning for eventless transitions without `cond` that take the machine round in a
//! circle: once entered, such a loop never ends a macrostep (the run-time bound,
//! `Machine::set_max_microsteps`, abandons it and reports `RuntimeError::MacrostepLimit`).
//!
//! Each atomic state outside `<parallel>` has at most one *forced* successor: the atomic
//! state its first eventless transition (its own, else its nearest ancestor's, SCXML 1.0
//! 3.13) enters by default, when that transition has no `cond`. A state whose first eventless
//! transition has a `cond`, or targets a history state or something inside a `<parallel>`,
//! has none, as has a top-level `<final>` (the machine stops). A targetless forced transition
//! is a loop by itself. The forced successors form a functional graph; its cycles are the
//! loops.

use crate::chart::Chart;
use crate::diagnostic::Diagnostic;
use crate::runtime::StateKind;

/// One warning per loop of forced eventless transitions, at its first transition in
/// document order.
pub fn warnings(chart: &Chart) -> Vec<Diagnostic> {
    let n = chart.states.len();
    let in_parallel = |s: usize| {
        let mut p = chart.states[s].parent.get();
        while let Some(a) = p {
            if chart.states[a].kind == StateKind::Parallel {
                return true;
            }
            p = chart.states[a].parent.get();
        }
        false
    };
    // successor[s] = (transition, next atomic state, or `s` itself for a targetless one).
    let successor: Vec<Option<(usize, usize)>> = (0..n)
        .map(|s| {
            let state = &chart.states[s];
            let atomic = matches!(state.kind, StateKind::Atomic | StateKind::Final);
            if !atomic
                || in_parallel(s)
                || (state.kind == StateKind::Final && state.parent.get() == Some(0))
            {
                return None;
            }
            let t = first_eventless(chart, s)?;
            let tr = &chart.transitions[t];
            if tr.cond().is_some() {
                return None;
            }
            match &*tr.targets {
                [] => Some((t, s)),
                [target] => default_atomic(chart, *target).map(|next| (t, next)),
                _ => None,
            }
        })
        .collect();
    // Colour the functional graph: 0 unseen, 1 on the current path, 2 done.
    let mut colour = vec![0u8; n];
    let mut out = Vec::new();
    for start in 0..n {
        let mut path = Vec::new();
        let mut s = start;
        while colour[s] == 0 {
            colour[s] = 1;
            path.push(s);
            match successor[s] {
                Some((_, next)) => s = next,
                None => break,
            }
        }
        if colour[s] == 1 && successor[s].is_some() {
            // `s` is on the current path: the path from `s` on is a new cycle.
            let at = path.iter().position(|&p| p == s).unwrap_or(0);
            out.push(describe(chart, &path[at..], &successor));
        }
        for p in path {
            colour[p] = 2;
        }
    }
    out.sort_by_key(|d| d.span.start);
    out
}

/// The first eventless `<transition>` of `s` or of its nearest ancestor that has one.
fn first_eventless(chart: &Chart, s: usize) -> Option<usize> {
    let mut x = Some(s);
    while let Some(i) = x {
        if let Some(t) = chart.states[i]
            .transitions
            .iter()
            .find(|&t| chart.transitions[t].events().is_empty())
        {
            return Some(t);
        }
        x = chart.states[i].parent.get();
    }
    None
}

/// The atomic state entering `s` by default ends in, unless that involves a `<parallel>` or
/// a history state (then it depends on more than one state or on the past).
fn default_atomic(chart: &Chart, mut s: usize) -> Option<usize> {
    loop {
        let state = &chart.states[s];
        match state.kind {
            StateKind::Atomic | StateKind::Final => return Some(s),
            StateKind::Compound => {
                let t = state.initial.get()?;
                match &*chart.transitions[t].targets {
                    [only] if !chart.states[*only].kind.is_history() => {
                        // The initial state may be deeper than a child: its ancestors between
                        // must not be parallel.
                        let mut p = chart.states[*only].parent.get();
                        while let Some(a) = p.filter(|&a| a != s) {
                            if chart.states[a].kind == StateKind::Parallel {
                                return None;
                            }
                            p = chart.states[a].parent.get();
                        }
                        s = *only;
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

fn describe(chart: &Chart, cycle: &[usize], successor: &[Option<(usize, usize)>]) -> Diagnostic {
    let mut steps: Vec<(usize, String)> = cycle
        .iter()
        .filter_map(|&s| successor[s].map(|(t, next)| (t, s, next)))
        .map(|(t, s, next)| {
            let tr = &chart.transitions[t];
            let to = if tr.targets.is_empty() {
                "itself (targetless)".to_owned()
            } else {
                format!("`{}`", chart.states[next].id)
            };
            (
                t,
                format!("`{}` → {to} (line {})", chart.states[s].id, tr.line),
            )
        })
        .collect();
    // Start the description at the transition first in document order.
    let first = steps
        .iter()
        .enumerate()
        .min_by_key(|(_, (t, _))| chart.transitions[*t].span.start)
        .map_or(0, |(i, _)| i);
    steps.rotate_left(first);
    let span = chart.transitions[steps[0].0].span;
    let path: Vec<String> = steps.into_iter().map(|(_, d)| d).collect();
    Diagnostic::warning(
        span,
        format!(
            "eventless transitions without `cond` loop forever: {}",
            path.join(", ")
        ),
    )
    .with_help("once entered, the macrostep never ends; the machine abandons it after `set_max_microsteps` steps (100,000 by default): give one of them a `cond` or an `event`")
}
