//! `done.state` events of `<parallel>` states nested three levels deep
//! (`tests/charts/nested_parallel_done.scxml`: `outer` ⊃ `middle` ⊃ regions `r1`, `r2`).
//!
//! Appendix D's `enterStates` raises `done.state.P` for the parent `P` of an entered
//! `<final>`, and `done.state.G` for its grandparent `G` when `G` is a `<parallel>` whose
//! children are all in final states, and no further. So when `r1` completes `middle` (both
//! regions final) and with it `outer` (whose other child `other` is final too), the chart
//! hears `done.state.r1` and `done.state.middle`, but not `done.state.outer`: `outer` is the
//! great-grandparent of the `<final>`. uSCXML raises a done event for every ancestor that is
//! complete, `outer` included. sudoku-scxmlc follows Appendix D (docs/conformance.md).

mod chart {
    include!(concat!(env!("OUT_DIR"), "/nested_parallel_done.rs"));
}

use chart::{events, NestedParallelDone, State};
use std::cell::RefCell;
use std::rc::Rc;

#[test]
fn done_state_is_raised_for_the_parent_and_a_parallel_grandparent_only() {
    let m = NestedParallelDone::new();
    let heard = Rc::new(RefCell::new(Vec::new()));
    let log = heard.clone();
    m.connect_to_event("heard", move |e| log.borrow_mut().push(e.name.clone()));
    m.start();
    // Entering `r2_done` and `other_done` completes `r2` and `other`; `middle` waits for `r1`.
    assert_eq!(*heard.borrow(), ["heard.r2", "heard.other"]);
    heard.borrow_mut().clear();

    m.submit_event(events::GO, ());
    assert_eq!(*heard.borrow(), ["heard.r1", "heard.middle"]);
    // Every state of `outer` is complete, yet `done.state.outer` was not raised.
    assert!(m.is_active(State::Outer));
    assert_eq!(
        m.active_atomic_state_ids(),
        ["other_done", "r1_done", "r2_done"]
    );
}
