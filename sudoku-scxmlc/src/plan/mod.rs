//! Stage 3: [`Chart`] → [`Plan`]. Decides at build time everything that does not depend on run
//! time: the descendant ranges of states (document order makes them contiguous), transition
//! domains (SCXML 1.0, Appendix D, `getTransitionDomain`/`findLCCA`) where no target is a
//! history state, the numbering of conditions, blocks and done data in the emitted tables, and
//! the Rust names of states and events (chosen by `validate`; the states' stay in the chart).

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
    /// Per state: one past its last descendant (four bytes a state: a chart may have
    /// hundreds of thousands, docs/scale.md "Compiler memory"; so are the other per-state and
    /// per-transition tables).
    descendants_end: Vec<u32>,
    /// Per transition: its domain.
    pub domains: Vec<Domain>,
    /// Event constants: (constant name, event name, chart line).
    pub events: Vec<(String, String, u32)>,
    /// Table conditions: (transition index, condition).
    pub conditions: Vec<(usize, Cond)>,
    /// Per transition: its index in [`Plan::conditions`].
    transition_cond: Vec<Option<u32>>,
    /// Table blocks in emission order.
    pub blocks: Vec<Block>,
    /// Where the blocks of each state start: state `i`'s `<onentry>` blocks are
    /// `state_blocks[2i]..state_blocks[2i + 1]`, its `<onexit>` blocks from there to
    /// `state_blocks[2i + 2]` (they are numbered state by state).
    state_blocks: Vec<u32>,
    /// Per transition: block index of its content.
    transition_block: Vec<Option<u32>>,
    /// Block index of the top-level script.
    pub script_block: Option<usize>,
    /// Done data in emission order: (state index, done data).
    pub done_data: Vec<(usize, DoneData)>,
    /// Per state: index into [`Plan::done_data`].
    state_done_data: Vec<Option<u32>>,
    /// Per `<invoke>`: block index of its `<finalize>`.
    pub invoke_finalize: Vec<Option<usize>>,
    /// Per entry of `chart.children`: the plan of that chart (type name `Invoked`).
    pub children: Vec<Plan>,
}

impl Plan {
    /// One past the last descendant of state `i`.
    pub fn descendants_end(&self, i: usize) -> usize {
        self.descendants_end[i] as usize
    }
    /// State `i`'s `State` variant (chosen by `validate`), `None` for the root and history
    /// states.
    pub fn variant(&self, i: usize) -> Option<&str> {
        self.chart.states[i].rust_name.as_deref()
    }
    /// How many states have a `State` variant.
    pub fn named_states(&self) -> usize {
        self.chart
            .states
            .iter()
            .filter(|s| s.rust_name.is_some())
            .count()
    }
    /// Transition `t`'s index in [`Plan::conditions`].
    pub fn transition_cond(&self, t: usize) -> Option<usize> {
        self.transition_cond[t].map(|c| c as usize)
    }
    /// Transition `t`'s block of content.
    pub fn transition_block(&self, t: usize) -> Option<usize> {
        self.transition_block[t].map(|b| b as usize)
    }
    /// The blocks of state `i`'s `<onentry>` elements.
    pub fn onentry(&self, i: usize) -> std::ops::Range<usize> {
        self.state_blocks[2 * i] as usize..self.state_blocks[2 * i + 1] as usize
    }
    /// The blocks of state `i`'s `<onexit>` elements.
    pub fn onexit(&self, i: usize) -> std::ops::Range<usize> {
        self.state_blocks[2 * i + 1] as usize..self.state_blocks[2 * i + 2] as usize
    }
    /// State `i`'s index into [`Plan::done_data`].
    pub fn state_done_data(&self, i: usize) -> Option<usize> {
        self.state_done_data[i].map(|d| d as usize)
    }
}

/// `i` in four bytes (a chart has at most 64 MB, so fewer than 2^32 of anything).
fn index32(i: usize) -> u32 {
    u32::try_from(i).expect("a chart has fewer than 2^32 states, transitions and blocks")
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
            .map_or(index32(i + 1), |&last| descendants_end[last]);
    }
    let is_descendant = |s: usize, a: usize| s > a && s < descendants_end[a] as usize;

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
            let mut anc = chart.states[t.source].parent.get();
            while let Some(a) = anc {
                if chart.states[a].kind.is_compound()
                    && t.targets.iter().all(|&s| is_descendant(s, a))
                {
                    return Domain::Static(a as u32);
                }
                anc = chart.states[a].parent.get();
            }
            Domain::Static(0)
        })
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
        transition_cond.push(t.take_cond().map(|c| {
            conditions.push((i, c));
            index32(conditions.len() - 1)
        }));
        transition_block.push(t.take_content().map(|b| {
            blocks.push(b);
            index32(blocks.len() - 1)
        }));
    }
    let mut state_blocks = Vec::with_capacity(2 * n + 1);
    let mut done_data = Vec::new();
    let mut state_done_data = Vec::with_capacity(n);
    for (i, s) in chart.states.iter_mut().enumerate() {
        let (exit, dd) = match s.extras.as_deref_mut() {
            Some(x) => (std::mem::take(&mut x.onexit), x.donedata.take()),
            None => (Box::default(), None),
        };
        state_blocks.push(index32(blocks.len()));
        blocks.extend(std::mem::take(&mut s.onentry).into_vec());
        state_blocks.push(index32(blocks.len()));
        blocks.extend(exit.into_vec());
        state_done_data.push(dd.map(|d| {
            done_data.push((i, *d));
            index32(done_data.len() - 1)
        }));
    }
    state_blocks.push(index32(blocks.len()));
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
        events,
        conditions,
        transition_cond,
        blocks,
        state_blocks,
        transition_block,
        script_block,
        done_data,
        state_done_data,
        invoke_finalize,
        children,
    }
}
