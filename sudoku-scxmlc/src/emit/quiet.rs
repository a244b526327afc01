//! Macrosteps precomputed at build time for an unobserved machine: the generated
//! `Chart::quiet_step`, a `match` from (atomic state, event name) cell to the atomic state
//! active afterwards, for charts of at most [`QUIET_STEP_LIMIT`] cells.
//!
//! The cells are the runtime's own ([`FastPath`](crate::runtime) of `runtime/fast_path.rs`),
//! computed here on the chart's table rows ([`super::rows`]) exactly as the running machine
//! computes them on the generated tables. As code rather than a table, each step is a
//! predictable branch and a constant: a toggle event costs the unobserved machine about what
//! a hand-written `match` costs, where a table look-up would chain each event's load to the
//! previous one.

use super::rows;
use crate::plan::Plan;
use crate::runtime::fast_path::{ChartRows, FastPath, QUIET_SLOW};
use crate::runtime::{StateRow, TransitionRow, NO_STATE};

/// Charts with at most this many (state, event name) cells get a generated `quiet_step`;
/// larger ones look their steps up in the runtime's table.
pub(super) const QUIET_STEP_LIMIT: usize = 1024;

/// One precomputed cell of the unobserved machine.
pub(super) struct QuietStep {
    /// `state * event_names.len() + event name`.
    pub(super) cell: usize,
    /// `state * event_names.len()` of the atomic state active afterwards.
    pub(super) next_row: u32,
    /// "`state` + `event` -> `state`", for the generated comment.
    pub(super) what: String,
    /// The macrostep's single microstep, when observers must hear it: the states it exits
    /// (in exit order), the states it enters (in entry order) and the atomic state active
    /// afterwards.
    pub(super) transit: Option<Transit>,
}

/// The exits and entries of one precomputed microstep.
pub(super) struct Transit {
    /// In exit order.
    pub(super) exit: Vec<u32>,
    /// In entry order.
    pub(super) enter: Vec<u32>,
    /// The atomic state active afterwards.
    pub(super) leaf: u32,
}

/// The chart's precomputed cells (those the running machine would also precompute); `None`
/// when it has none or more than [`QUIET_STEP_LIMIT`] cells.
///
/// The runtime's precomputation runs on rows that borrow the plan and lists made here for
/// the duration of the call (the runtime's rows hold `u32` indices where the plan holds
/// `usize`): nothing outlives it.
pub(super) fn quiet_steps(plan: &Plan) -> Option<Vec<QuietStep>> {
    let names = super::event_names(plan);
    let states = &plan.chart.states;
    if names.is_empty()
        || !plan.chart.invokes.is_empty()
        || states.len().saturating_mul(names.len()) > QUIET_STEP_LIMIT
    {
        return None;
    }
    let index = |i: usize| -> Option<u32> { u32::try_from(i).ok() };
    let list = |v: &[usize]| -> Option<Vec<u32>> { v.iter().map(|&i| index(i)).collect() };
    // The lists each row names, made first so that the rows can borrow them.
    let state_args: Vec<_> = (0..states.len()).map(|i| rows::state(plan, i)).collect();
    let mut state_lists = Vec::with_capacity(states.len());
    for r in &state_args {
        state_lists.push([
            list(r.children)?,
            list(&r.transitions.clone().collect::<Vec<_>>())?,
            list(&r.onentry.clone().collect::<Vec<_>>())?,
            list(&r.onexit.clone().collect::<Vec<_>>())?,
            list(&r.history)?,
        ]);
    }
    let transition_args: Vec<_> = (0..plan.chart.transitions.len())
        .map(|i| rows::transition(plan, i))
        .collect();
    let mut transition_lists = Vec::with_capacity(transition_args.len());
    for r in &transition_args {
        let events: Vec<&str> = r.events.iter().map(String::as_str).collect();
        transition_lists.push((events, list(r.targets)?));
    }
    let mut state_rows = Vec::with_capacity(states.len());
    for (r, [children, transitions, onentry, onexit, history]) in
        state_args.iter().zip(&state_lists)
    {
        state_rows.push(StateRow::row(
            r.id,
            r.kind,
            r.parent.map_or(Some(NO_STATE), index)?,
            index(r.descendants_end)?,
            children,
            r.initial.map(index).unwrap_or(None),
            transitions,
            onentry,
            onexit,
            r.donedata.map(index).unwrap_or(None),
            history,
            r.line,
        ));
    }
    let mut transition_rows = Vec::with_capacity(transition_args.len());
    for (r, (events, targets)) in transition_args.iter().zip(&transition_lists) {
        transition_rows.push(TransitionRow::row(
            index(r.source)?,
            events,
            r.cond.map(index).unwrap_or(None),
            targets,
            r.internal,
            r.content.map(index).unwrap_or(None),
            r.domain,
            r.line,
        ));
    }
    // Late binding makes entering a state with `<data>` run code: only the states matter.
    let late_data = if plan.chart.late_binding {
        plan.chart
            .data
            .iter()
            .map(|d| index(d.state))
            .collect::<Option<_>>()?
    } else {
        Vec::new()
    };
    let rows = ChartRows {
        states: &state_rows,
        transitions: &transition_rows,
        event_names: &names,
        late_data,
        invokes: false,
    };
    let fast = FastPath::build(&rows)?;
    let n = names.len();
    let id = |row: usize| -> &str { states.get(row / n).map_or("?", |s| &*s.id) };
    Some(
        fast.quiet_cells()
            .iter()
            .enumerate()
            .filter(|(_, &next)| next != QUIET_SLOW)
            .map(|(cell, &next_row)| {
                let transit = index(cell / n)
                    .and_then(|leaf| fast.step(leaf, cell % n))
                    .map(|step| Transit {
                        exit: step.exit.to_vec(),
                        enter: step.enter.to_vec(),
                        leaf: step.leaf,
                    });
                QuietStep {
                    cell,
                    next_row,
                    what: format!(
                        "`{}` + `{}` -> `{}`",
                        id(cell),
                        names[cell % n],
                        id(next_row as usize)
                    ),
                    transit,
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_states_of_a_chart_without_parallel_states_get_their_steps() {
        let chart = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="off">
            <state id="off"><transition event="toggle" target="on"/></state>
            <state id="on"><transition event="toggle" target="off"/><transition event="stop" target="end"/></state>
            <final id="end"/>
        </scxml>"#;
        let plan = crate::config::plan_for_tests(chart);
        let steps = quiet_steps(&plan).expect("precomputed");
        let described: Vec<(usize, u32, &str)> = steps
            .iter()
            .map(|s| (s.cell, s.next_row, s.what.as_str()))
            .collect();
        // Names: ["stop", "toggle"]; states: 0 root, 1 off, 2 on, 3 end. Entering `end` (a
        // <final>) stops the machine: `on` + `stop` is not precomputed. `stop` in `off` does
        // nothing, nor does any event in `end`.
        assert_eq!(
            described,
            [
                (2, 2, "`off` + `stop` -> `off`"),
                (3, 4, "`off` + `toggle` -> `on`"),
                (5, 2, "`on` + `toggle` -> `off`"),
                (6, 6, "`end` + `stop` -> `end`"),
                (7, 6, "`end` + `toggle` -> `end`"),
            ]
        );
    }

    #[test]
    fn parallel_charts_have_none() {
        let chart = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
            <parallel id="p"><state id="a"><transition event="e" target="a"/></state><state id="b"/></parallel>
        </scxml>"#;
        assert!(quiet_steps(&crate::config::plan_for_tests(chart)).is_none());
    }
}
