//! Stage 3: [`Chart`] → [`Plan`]. Decides at build time everything that does not depend on run
//! time: the descendant ranges of states (document order makes them contiguous), transition
//! domains (SCXML 1.0, Appendix D, `getTransitionDomain`/`findLCCA`) where no target is a
//! history state, the numbering of conditions, blocks and done data in the emitted tables, and
//! the Rust names of states and events (chosen by `validate`).

use crate::chart::{Block, Chart, Cond, DatamodelKind, DoneData};
use crate::runtime::Domain;

/// A chart with everything precomputed for emission.
#[derive(Debug)]
pub struct Plan {
    /// The validated chart; its conditions, blocks of executable content and done data have
    /// moved into the tables below.
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
    pub onentry: Vec<Box<[usize]>>,
    /// Per state: block indices of its `<onexit>` elements.
    pub onexit: Vec<Box<[usize]>>,
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

/// Plans a valid chart. Planning finds no user errors: `validate` reported them all.
pub fn plan(mut chart: Chart) -> Plan {
    let children = chart
        .children
        .iter_mut()
        .filter_map(|c| c.chart.take())
        .map(|c| plan(*c))
        .collect();
    let n = chart.states.len();

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

    // Names (chosen by `validate`, which reports every problem with them), moved here.
    let variants = chart
        .states
        .iter_mut()
        .map(|s| s.rust_name.take().map(String::from))
        .collect();
    let events = chart
        .event_consts
        .iter()
        .zip(&chart.event_names)
        .map(|(c, (name, line, _))| (c.clone(), name.clone(), *line))
        .collect();
    let type_name = chart.type_name.clone();

    // Tables of generated functions. Conditions, blocks and done data move out of the chart
    // into the plan's tables (the emitter reads them only there): copies would double the
    // memory of a chart with much executable content.
    let mut conditions = Vec::new();
    let mut transition_cond = Vec::with_capacity(chart.transitions.len());
    let mut blocks = Vec::new();
    let mut transition_block = Vec::with_capacity(chart.transitions.len());
    for (i, t) in chart.transitions.iter_mut().enumerate() {
        transition_cond.push(t.cond.take().map(|c| {
            conditions.push((i, *c));
            conditions.len() - 1
        }));
        transition_block.push(t.content.take().map(|b| {
            blocks.push(*b);
            blocks.len() - 1
        }));
    }
    let mut onentry = Vec::with_capacity(n);
    let mut onexit = Vec::with_capacity(n);
    let mut done_data = Vec::new();
    let mut state_done_data = Vec::with_capacity(n);
    for (i, s) in chart.states.iter_mut().enumerate() {
        let mut push_all = |list: Box<[Block]>| {
            list.into_vec()
                .into_iter()
                .map(|b| {
                    blocks.push(b);
                    blocks.len() - 1
                })
                .collect::<Box<[_]>>()
        };
        let (exit, dd) = match s.extras.as_deref_mut() {
            Some(x) => (std::mem::take(&mut x.onexit), x.donedata.take()),
            None => (Box::default(), None),
        };
        onentry.push(push_all(std::mem::take(&mut s.onentry)));
        onexit.push(push_all(exit));
        state_done_data.push(dd.map(|d| {
            done_data.push((i, *d));
            done_data.len() - 1
        }));
    }
    let script_block = chart.script.take().map(|b| {
        blocks.push(b);
        blocks.len() - 1
    });
    let invoke_finalize = chart
        .invokes
        .iter_mut()
        .map(|i| {
            i.finalize.take().map(|b| {
                blocks.push(b);
                blocks.len() - 1
            })
        })
        .collect();
    debug_assert!(chart.datamodel != DatamodelKind::Null || chart.data.is_empty());
    Plan {
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
    }
}
