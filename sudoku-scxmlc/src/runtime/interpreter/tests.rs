//! Unit tests of the interpreter over hand-written tables.

use super::*;
use crate::runtime::{Block, StateInfo, TransitionInfo, NO_STATE};

/// [`StateInfo::row`] without entry/exit blocks or done data, on line 1.
#[allow(clippy::too_many_arguments)]
const fn st(
    id: &'static str,
    kind: StateKind,
    parent: StateIndex,
    descendants_end: StateIndex,
    children: &'static [StateIndex],
    initial: Option<TransitionIndex>,
    transitions: &'static [TransitionIndex],
    history: &'static [StateIndex],
) -> StateInfo {
    StateInfo::row(
        id,
        kind,
        parent,
        descendants_end,
        children,
        initial,
        transitions,
        &[],
        &[],
        None,
        history,
        1,
    )
}

/// [`TransitionInfo::row`] without condition or content, on line 1.
const fn tr(
    source: StateIndex,
    events: &'static [&'static str],
    targets: &'static [StateIndex],
    internal: bool,
    domain: Domain,
) -> TransitionInfo {
    TransitionInfo::row(source, events, None, targets, internal, None, domain, 1)
}

// 0 root
//   1 p (compound, initial a)
//     2 h (deep history, default -> b)
//     3 a (compound, initial a1)
//       4 a1
//     5 b
//   6 out
static STATES: [StateInfo; 7] = [
    st(
        "__root",
        StateKind::Root,
        NO_STATE,
        7,
        &[1, 6],
        Some(0),
        &[],
        &[],
    ),
    st(
        "p",
        StateKind::Compound,
        0,
        6,
        &[2, 3, 5],
        Some(1),
        &[5],
        &[2],
    ),
    st("h", StateKind::DeepHistory, 1, 3, &[], Some(2), &[], &[]),
    st("a", StateKind::Compound, 1, 5, &[4], Some(3), &[], &[]),
    st("a1", StateKind::Atomic, 3, 5, &[], None, &[4, 6], &[]),
    st("b", StateKind::Atomic, 1, 6, &[], None, &[], &[]),
    st("out", StateKind::Atomic, 0, 7, &[], None, &[7], &[]),
];
static TRANSITIONS: [TransitionInfo; 8] = [
    tr(0, &[], &[1], false, Domain::Static(0)),
    tr(1, &[], &[3], false, Domain::Static(1)),
    tr(2, &[], &[5], false, Domain::Static(1)),
    tr(3, &[], &[4], false, Domain::Static(3)),
    // a1 -> b, computed at run time
    tr(4, &["go"], &[5], false, Domain::Dynamic),
    // p -> a1, internal, computed at run time
    tr(1, &["in"], &[4], true, Domain::Dynamic),
    // a1 -> out
    tr(4, &["leave"], &[6], false, Domain::Dynamic),
    // out -> h
    tr(6, &["back"], &[2], false, Domain::Dynamic),
];
static BLOCKS: [Block<()>; 0] = [];
static TABLES: Tables<()> = Tables {
    name: "unit",
    file: "unit.scxml",
    states: &STATES,
    transitions: &TRANSITIONS,
    conditions: &[],
    blocks: &BLOCKS,
    done_data: &[],
    data: &[],
    script: None,
    invokes: &[],
    late_binding: false,
    event_names: &["back", "go", "in", "leave"],
    fast_path: crate::runtime::FastPathCache::new(),
};

fn ids(i: &Interpreter<()>) -> Vec<&'static str> {
    i.ctx
        .configuration
        .iter()
        .map(|s| STATES[s as usize].id)
        .collect()
}

#[test]
fn dynamic_domains_follow_appendix_d() {
    let i = Interpreter::new(&TABLES, ());
    let shape = i.shape();
    let mut tmp = Vec::new();
    // External a1 -> b: LCCA is p.
    assert_eq!(shape.transition_domain(4, &mut tmp), Some(1));
    // Internal p -> a1 with the target inside p: the domain is p itself.
    assert_eq!(shape.transition_domain(5, &mut tmp), Some(1));
    // a1 -> out: the root.
    assert_eq!(shape.transition_domain(6, &mut tmp), Some(0));
    // out -> h, no history yet: the default target b, domain root.
    assert_eq!(shape.transition_domain(7, &mut tmp), Some(0));
    tmp.clear();
    shape.effective_targets(7, &mut tmp);
    assert_eq!(tmp, [5]);
    assert_eq!(shape.find_lcca(4, &[5]), 1);
    assert_eq!(shape.find_lcca(4, &[6]), 0);
    assert_eq!(shape.find_lcca(0, &[1]), 0);
}

#[test]
fn history_is_recorded_on_exit_and_restored() {
    let mut i = Interpreter::new(&TABLES, ());
    i.record_states = true;
    i.start();
    assert_eq!(ids(&i), ["p", "a", "a1"]);
    assert_eq!(
        i.outbox,
        [
            Notification::Entered(1),
            Notification::Entered(3),
            Notification::Entered(4)
        ]
    );
    i.outbox.clear();
    i.process_external(Envelope::Dynamic(Box::new(Event::new(
        "leave",
        Value::Null,
    ))));
    assert_eq!(ids(&i), ["out"]);
    assert_eq!(i.history[2], [4]);
    assert!(i.history_recorded.contains(2));
    let mut tmp = Vec::new();
    i.shape().effective_targets(7, &mut tmp);
    assert_eq!(tmp, [4]);
    i.process_external(Envelope::Dynamic(Box::new(Event::new("back", Value::Null))));
    assert_eq!(ids(&i), ["p", "a", "a1"]);
    i.process_external(Envelope::Dynamic(Box::new(Event::new("go", Value::Null))));
    assert_eq!(ids(&i), ["p", "b"]);
    assert_eq!(i.ctx.event().name, "go");
    i.process_external(Envelope::Dynamic(Box::new(Event::new("in", Value::Null))));
    assert_eq!(ids(&i), ["p", "a", "a1"]);
    assert!(i.running && i.started);
}
