//! `<invoke>` as Qt's example and our routing chart use it, through the generated API.

use scxml_examples::invoke::{events, DirectionsStateMachine, State};
use scxml_examples::invoke_routing::{self, Routing};
use std::time::Duration;
use sudoku_scxmlc::runtime::Event;

#[test]
fn qt_invoke_example_runs_the_child_while_somewhere_is_active() {
    let m = DirectionsStateMachine::new();
    m.start();
    assert!(m.is_active(State::Nowhere));
    assert!(m.invoked().is_empty());
    m.submit_event(events::GO_SOMEWHERE, ());
    let ids = m.invoked();
    assert_eq!(ids.len(), 1);
    // Without an `id`, the invoke id is `<state id>.<n>` (SCXML 1.0, 6.4.1).
    assert!(ids[0].starts_with("somewhere."), "{ids:?}");
    assert_eq!(m.invoked_active_state_ids(&ids[0]), Some(vec!["here"]));
    assert!(m.submit_to_invoked(&ids[0], Event::new("goThere", ())));
    assert_eq!(m.invoked_active_state_ids(&ids[0]), Some(vec!["there"]));
    // The parent's own events do not reach the child (no autoforward).
    m.submit_event("goHere", ());
    assert_eq!(m.invoked_active_state_ids(&ids[0]), Some(vec!["there"]));
    // Leaving the invoking state cancels the child.
    m.submit_event(events::GO_NOWHERE, ());
    assert!(m.is_active(State::Nowhere));
    assert!(m.invoked().is_empty());
    assert!(!m.submit_to_invoked(&ids[0], Event::new("goHere", ())));
    // Entering again starts a fresh child with a new id.
    m.submit_event(events::GO_SOMEWHERE, ());
    let again = m.invoked();
    assert_eq!(again.len(), 1);
    assert_ne!(again[0], ids[0]);
    assert_eq!(m.invoked_active_state_ids(&again[0]), Some(vec!["here"]));
}

#[test]
fn a_session_and_its_child_send_replies_and_done_data() {
    let m = Routing::new();
    let errors = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = errors.clone();
    m.connect_to_error(move |e| log.borrow_mut().push(e.to_string()));
    m.start();
    assert!(m.is_active(invoke_routing::State::Asking));
    assert_eq!(m.invoked_active_state_ids("kid"), Some(vec!["waiting"]));
    // The delayed `<send target="#_kid">` was issued before the child existed; it reaches
    // the child when it fires. The child replies to `_event.origin` (the parent's session),
    // the parent thanks it through the origin of the reply (the child's session), and the
    // child's `done.invoke.kid` carries its donedata.
    m.advance_time(Duration::from_secs(1));
    assert!(!m.is_running());
    assert_eq!(m.final_state(), Some(invoke_routing::State::Finished));
    assert_eq!(
        m.data_value("replies"),
        Some(serde_json::json!(["kid", "bye"]))
    );
    assert_eq!(m.data_value("answer"), Some(serde_json::json!(42)));
    assert!(errors.borrow().is_empty(), "{:?}", errors.borrow());
}
