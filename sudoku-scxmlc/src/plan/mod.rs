//! Stage 3: [`Chart`] → [`Plan`]. Decides at build time everything that does not depend on run
//! time: the descendant ranges of states (document order makes them contiguous), transition
//! domains (SCXML 1.0, Appendix D, `getTransitionDomain`/`findLCCA`) where no target is a
//! history state, the numbering of conditions, blocks and done data in the emitted tables, and
//! the Rust names of states and events.

use crate::chart::{Block, Chart, Cond, DatamodelKind, DoneData};
use crate::diagnostic::Diagnostic;
use crate::ident;
use crate::runtime::{Domain, StateKind};
use std::collections::HashMap;

/// A chart with everything precomputed for emission.
#[derive(Debug)]
pub struct Plan {
    /// The validated chart.
    pub chart: Chart,
    /// Rust type name of the machine (`Sudoku`).
    pub type_name: String,
    /// Per state: one past its last descendant.
    pub descendants_end: Vec<usize>,
    /// Per transition: its domain.
    pub domains: Vec<Domain>,
    /// Per state: the `State` variant, `None` for the root and history states.
    pub variants: Vec<Option<String>>,
    /// Event constants: (constant name, event name, chart line).
    pub events: Vec<(String, String, u32)>,
    /// Table conditions: (transition index, condition).
    pub conditions: Vec<(usize, Cond)>,
    /// Per transition: its index in [`Plan::conditions`].
    pub transition_cond: Vec<Option<usize>>,
    /// Table blocks in emission order.
    pub blocks: Vec<Block>,
    /// Per state: block indices of its `<onentry>` elements.
    pub onentry: Vec<Vec<usize>>,
    /// Per state: block indices of its `<onexit>` elements.
    pub onexit: Vec<Vec<usize>>,
    /// Per transition: block index of its content.
    pub transition_block: Vec<Option<usize>>,
    /// Block index of the top-level script.
    pub script_block: Option<usize>,
    /// Done data in emission order: (state index, done data).
    pub done_data: Vec<(usize, DoneData)>,
    /// Per state: index into [`Plan::done_data`].
    pub state_done_data: Vec<Option<usize>>,
    /// Per `<invoke>`: block index of its `<finalize>`.
    pub invoke_finalize: Vec<Option<usize>>,
    /// Per entry of `chart.children`: the plan of that chart (type name `Invoked`).
    pub children: Vec<Plan>,
}

/// Plans a chart.
///
/// # Errors
/// Two state ids or two event names that mangle to the same Rust name.
pub fn plan(
    mut chart: Chart,
    type_name: Option<&str>,
    verbatim_state_names: bool,
) -> Result<Plan, Vec<Diagnostic>> {
    let children = chart
        .children
        .iter_mut()
        .filter_map(|c| c.chart.take())
        .map(|c| plan(*c, Some("Invoked"), verbatim_state_names))
        .collect::<Result<Vec<_>, _>>()?;
    let n = chart.states.len();
    let mut diags = Vec::new();

    // Descendant ranges: states are in document (pre-)order.
    let mut descendants_end = vec![0; n];
    for i in (0..n).rev() {
        descendants_end[i] = chart.states[i]
            .children
            .last()
            .map_or(i + 1, |&last| descendants_end[last]);
    }
    let is_descendant = |s: usize, a: usize| s > a && s < descendants_end[a];

    let domains = chart
        .transitions
        .iter()
        .map(|t| {
            if t.targets.is_empty() {
                return Domain::Targetless;
            }
            if t.targets.iter().any(|&s| chart.states[s].kind.is_history()) {
                return Domain::Dynamic;
            }
            let source_compound = chart.states[t.source].kind.is_compound();
            if t.internal
                && source_compound
                && t.targets.iter().all(|&s| is_descendant(s, t.source))
            {
                return Domain::Static(t.source as u32);
            }
            // findLCCA([source] + targets): the nearest proper ancestor of the source that is
            // compound (or the root) and contains every target.
            let mut anc = chart.states[t.source].parent;
            while let Some(a) = anc {
                if chart.states[a].kind.is_compound()
                    && t.targets.iter().all(|&s| is_descendant(s, a))
                {
                    return Domain::Static(a as u32);
                }
                anc = chart.states[a].parent;
            }
            Domain::Static(0)
        })
        .collect();

    // Names.
    let mut variants = Vec::with_capacity(n);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, s) in chart.states.iter().enumerate() {
        if s.kind == StateKind::Root || s.kind.is_history() {
            variants.push(None);
            continue;
        }
        let v = if verbatim_state_names && !s.generated_id && crate::validate::is_rust_ident(&s.id)
        {
            ident::avoid_state_items(s.id.clone())
        } else {
            ident::state_variant(&s.id, i, s.generated_id)
        };
        if let Some(&other) = seen.get(&v) {
            diags.push(
                Diagnostic::error(
                    s.span,
                    format!(
                        "state ids `{}` and `{}` both become the Rust name `State::{v}`",
                        chart.states[other].id, s.id
                    ),
                )
                .with_help("rename one of them; see the `ident` rules in the crate docs"),
            );
        }
        seen.insert(v.clone(), i);
        variants.push(Some(v));
    }
    let mut events = Vec::new();
    let mut seen_events: HashMap<String, String> = HashMap::new();
    for (i, (name, line, span)) in chart.event_names.iter().enumerate() {
        let c = ident::event_const(name, i);
        if let Some(other) = seen_events.get(&c) {
            diags.push(Diagnostic::error(
                *span,
                format!(
                "event names `{other}` and `{name}` both become the Rust constant `events::{c}`"
            ),
            ));
            continue;
        }
        seen_events.insert(c.clone(), name.clone());
        events.push((c, name.clone(), *line));
    }
    let type_name = type_name.map_or_else(|| ident::type_name(&chart.name), str::to_owned);
    if type_name == "State" {
        // The generated file's `State` is the chart's state type.
        diags.push(
            Diagnostic::error(
                chart.states[0].span,
                format!(
                    "the machine type of chart `{}` would be `State`, the name of its state type",
                    chart.name
                ),
            )
            .with_help("give the chart another `<scxml name>` or `Config::type_name`"),
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }

    // Tables of generated functions.
    let mut conditions = Vec::new();
    let mut transition_cond = Vec::with_capacity(chart.transitions.len());
    let mut blocks = Vec::new();
    let mut transition_block = Vec::with_capacity(chart.transitions.len());
    for (i, t) in chart.transitions.iter().enumerate() {
        transition_cond.push(t.cond.clone().map(|c| {
            conditions.push((i, c));
            conditions.len() - 1
        }));
        transition_block.push(t.content.clone().map(|b| {
            blocks.push(b);
            blocks.len() - 1
        }));
    }
    let mut onentry = Vec::with_capacity(n);
    let mut onexit = Vec::with_capacity(n);
    let mut done_data = Vec::new();
    let mut state_done_data = Vec::with_capacity(n);
    for (i, s) in chart.states.iter().enumerate() {
        let mut push_all = |list: &[Block]| {
            list.iter()
                .map(|b| {
                    blocks.push(b.clone());
                    blocks.len() - 1
                })
                .collect::<Vec<_>>()
        };
        onentry.push(push_all(&s.onentry));
        onexit.push(push_all(&s.onexit));
        state_done_data.push(s.donedata.clone().map(|d| {
            done_data.push((i, d));
            done_data.len() - 1
        }));
    }
    let script_block = chart.script.clone().map(|b| {
        blocks.push(b);
        blocks.len() - 1
    });
    let invoke_finalize = chart
        .invokes
        .iter()
        .map(|i| {
            i.finalize.clone().map(|b| {
                blocks.push(b);
                blocks.len() - 1
            })
        })
        .collect();
    debug_assert!(chart.datamodel == DatamodelKind::Rust || chart.data.is_empty());
    Ok(Plan {
        chart,
        type_name,
        descendants_end,
        domains,
        variants,
        events,
        conditions,
        transition_cond,
        blocks,
        onentry,
        onexit,
        transition_block,
        script_block,
        done_data,
        state_done_data,
        invoke_finalize,
        children,
    })
}
