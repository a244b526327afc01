//! Runs the compiler's feature chart (`sudoku-scxmlc/tests/golden/features.scxml`): the code
//! pinned by the golden snapshot compiles and behaves as the chart says.

mod chart {
    include!(concat!(env!("OUT_DIR"), "/features.rs"));
}

use chart::{events, Features, State};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use sudoku_scxmlc::runtime::Event;

fn record(m: &Features, descriptor: &str) -> Rc<RefCell<Vec<Event>>> {
    let log = Rc::new(RefCell::new(Vec::new()));
    let sink = log.clone();
    m.connect_to_event(descriptor, move |e| sink.borrow_mut().push(e.clone()));
    log
}

#[test]
fn counts_reports_and_times_out() {
    let m = Features::new();
    let reports = record(&m, events::REPORT);
    m.start();
    assert_eq!(
        m.active_state_ids(),
        ["main", "counter", "counting", "timing", "waiting"]
    );
    assert_eq!(m.next_deadline(), Some(Duration::from_secs(1)));
    m.submit_event(events::TICK, ());
    m.submit_event(events::TICK, ());
    assert!(m.is_active(State::Counting));
    assert_eq!(m.data_value("count"), Some(json!(2)));
    m.submit_event(events::TICK, ());
    assert!(m.is_active(State::Counted));
    assert_eq!(m.data_value("sum"), Some(json!(6)));
    assert_eq!(m.data_value("index"), Some(json!(2)));
    // done.state.counter carried {count: 3}; `timed-out` is not active, sum is 6: report.
    let r = reports.borrow();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].data, json!({"sum": 6, "payload": {"level": 1}}));
    drop(r);
    m.advance_time(Duration::from_millis(999));
    assert!(m.is_active(State::Waiting));
    m.advance_time(Duration::from_millis(1));
    assert!(m.is_active(State::TimedOut));
    assert_eq!(m.next_deadline(), None);
}

#[test]
fn cancel_uses_the_send_id_stored_by_idlocation() {
    let m = Features::new();
    m.start();
    let id = m.data_value("timer").unwrap();
    assert!(
        id.as_str().is_some_and(|s| !s.is_empty()),
        "idlocation stored {id}"
    );
    m.submit_event(events::CANCEL, ());
    assert_eq!(m.next_deadline(), None);
    m.advance_time(Duration::from_secs(5));
    assert!(m.is_active(State::Waiting));
}

#[test]
fn state_names_and_ids_round_trip() {
    assert_eq!(State::TimedOut.id(), "timed-out");
    assert_eq!(State::from_id("timed-out"), Some(State::TimedOut));
    assert_eq!(State::from_id("nope"), None);
    assert_eq!(State::ALL.len(), 7);
    assert_eq!(State::Main.to_string(), "main");
}
