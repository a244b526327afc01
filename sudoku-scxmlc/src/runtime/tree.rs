//! A chart's state hierarchy as data, for tools that draw it (a live state-tree view, a
//! debugger): every state with its parent, depth and kind, in document order.

use super::tables::{Chart, StateKind, NO_STATE};

/// What a state is, for drawing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A `<state>` without child states.
    Atomic,
    /// A `<state>` with child states: exactly one child is active when it is.
    Compound,
    /// A `<parallel>`: all its children are active when it is.
    Parallel,
    /// A `<final>`.
    Final,
}

/// One state of the hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateNode<S> {
    /// The state.
    pub state: S,
    /// Its `id` in the chart.
    pub id: &'static str,
    /// Its parent state; `None` for a top-level state (a child of `<scxml>`).
    pub parent: Option<S>,
    /// How deep it is: 0 for a top-level state.
    pub depth: usize,
    /// What it is.
    pub kind: NodeKind,
}

/// Every state of the chart `C` (history pseudo-states excluded) in document order, which is
/// also a depth-first order of the tree: a state's descendants follow it.
///
/// ```
/// use sudoku_scxmlc::runtime::{state_tree, NodeKind};
/// # use sudoku_scxmlc::runtime::*;
/// # fn show<C: Chart>() {
/// for node in state_tree::<C>() {
///     println!("{}{}{}", "  ".repeat(node.depth), node.id, if node.kind == NodeKind::Parallel { " (parallel)" } else { "" });
/// }
/// # }
/// ```
pub fn state_tree<C: Chart>() -> Vec<StateNode<C::State>> {
    let states = C::tables().states;
    let mut depth = vec![0usize; states.len()];
    let mut nodes = Vec::with_capacity(states.len());
    for (index, info) in states.iter().enumerate() {
        let kind = match info.kind {
            StateKind::Atomic => NodeKind::Atomic,
            StateKind::Compound => NodeKind::Compound,
            StateKind::Parallel => NodeKind::Parallel,
            StateKind::Final => NodeKind::Final,
            StateKind::Root | StateKind::ShallowHistory | StateKind::DeepHistory => continue,
        };
        let Some(state) = C::state(index as u32) else {
            continue;
        };
        let parent = (info.parent != NO_STATE)
            .then(|| C::state(info.parent))
            .flatten();
        if info.parent != NO_STATE {
            depth[index] = if parent.is_some() {
                depth[info.parent as usize] + 1
            } else {
                0
            };
        }
        nodes.push(StateNode {
            state,
            id: info.id,
            parent,
            depth: depth[index],
            kind,
        });
    }
    nodes
}
