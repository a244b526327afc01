//! Walks of a chart's document that hold nothing: the states counted before the chart's
//! tables are sized, and the states visited in document order.

use crate::parse::Element;

/// Calls `f` with the index and element of each state of the chart whose `<scxml>` is `e`,
/// in document order: the numbering of `Validator::collect_state`, counted from `next`.
/// (Walking the document again costs no memory; a list of the states' elements took eight
/// bytes a state while the document and chart are both alive.)
pub(super) fn for_each_state<'e, 'src>(
    e: &'e Element<'src>,
    next: &mut usize,
    f: &mut impl FnMut(usize, &'e Element<'src>),
) {
    f(*next, e);
    *next += 1;
    for c in e
        .elements()
        .filter(|c| c.is_scxml() && matches!(c.name, "state" | "parallel" | "final" | "history"))
    {
        for_each_state(c, next, f);
    }
}

/// How many states (the root included) and transitions the chart rooted at `root` holds
/// while its document is walked: its `<transition>`s, and the default transition of each
/// history and the initial transition of each state with `initial` or `<initial>`; and at
/// most how many states have an implicit initial transition (made later,
/// `initial::add_implicit_initials`).
pub(super) fn count_states(root: &Element) -> (usize, usize, usize) {
    let (mut states, mut transitions, mut implicit) = (0, 0, 0);
    let mut work = vec![root];
    while let Some(e) = work.pop() {
        states += 1;
        let mut explicit_start = e.name == "history" || e.attr("initial").is_some();
        let mut has_child_states = false;
        for c in e.elements().filter(|c| c.is_scxml()) {
            match c.name {
                "state" | "parallel" | "final" | "history" => {
                    has_child_states |= c.name != "history";
                    work.push(c);
                }
                "transition" => transitions += 1,
                "initial" => explicit_start = true,
                _ => {}
            }
        }
        transitions += usize::from(explicit_start);
        implicit +=
            usize::from(!explicit_start && has_child_states && matches!(e.name, "scxml" | "state"));
    }
    (states, transitions, implicit)
}
