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

#[test]
fn snapshot_round_trips_through_json_and_continues() {
    let m = Features::new();
    m.start();
    m.submit_event(events::TICK, ());
    m.advance_time(Duration::from_millis(400));
    let json = serde_json::to_string(&m.snapshot().unwrap()).unwrap();

    let snapshot: sudoku_scxmlc::runtime::Snapshot = serde_json::from_str(&json).unwrap();
    let r = Features::restore(&snapshot).unwrap();
    assert!(r.is_running());
    assert_eq!(r.active_state_ids(), m.active_state_ids());
    assert_eq!(r.data_value("count"), Some(json!(1)));
    assert_eq!(r.now(), Duration::from_millis(400));
    assert_eq!(r.next_deadline(), Some(Duration::from_secs(1)));
    // Both continue identically.
    for machine in [&m, &r] {
        machine.submit_event(events::TICK, ());
        machine.submit_event(events::TICK, ());
        machine.advance_time(Duration::from_millis(600));
    }
    assert_eq!(r.active_state_ids(), m.active_state_ids());
    assert!(r.is_active(State::TimedOut) && r.is_active(State::Counted));
    assert_eq!(r.data_value("sum"), Some(json!(6)));
}

#[test]
fn restore_rejects_foreign_or_damaged_snapshots() {
    let m = Features::new();
    assert!(m.snapshot().is_err(), "not started");
    m.start();
    let good = m.snapshot().unwrap();
    let mut wrong_chart = good.clone();
    wrong_chart.chart = "other".into();
    assert!(Features::restore(&wrong_chart).is_err());
    let mut unknown_state = good.clone();
    unknown_state.configuration.push("nowhere".into());
    assert!(Features::restore(&unknown_state).is_err());
    let mut bad_data = good.clone();
    bad_data.data.insert("count".into(), json!("three"));
    assert!(Features::restore(&bad_data).is_err());
    let mut unknown_data = good.clone();
    unknown_data.data.insert("nope".into(), json!(1));
    assert!(Features::restore(&unknown_data).is_err());

    // Configurations a running machine cannot be in (SCXML 1.0, 3.11).
    let illegal = |edit: &dyn Fn(&mut Vec<String>)| {
        let mut s = good.clone();
        edit(&mut s.configuration);
        match Features::restore(&s) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("restored {:?}", s.configuration),
        }
    };
    assert_eq!(
        good.configuration,
        ["main", "counter", "counting", "timing", "waiting"]
    );
    assert_eq!(
        illegal(&|c| c.retain(|s| s != "counting")),
        "snapshot configuration is not legal: counter has 0 active child states, not one"
    );
    assert_eq!(
        illegal(&|c| c.push("counted".into())),
        "snapshot configuration is not legal: counter has 2 active child states, not one"
    );
    assert_eq!(
        illegal(&|c| c.retain(|s| s != "timing" && s != "waiting")),
        "snapshot configuration is not legal: parallel `main` is active without its region `timing`"
    );
    assert_eq!(
        illegal(&|c| c.retain(|s| s != "main")),
        "snapshot configuration is not legal: the chart has 0 active child states, not one"
    );

    assert_eq!(
        illegal(&|c| c.clear()),
        "snapshot configuration is not legal: the chart has 0 active child states, not one"
    );
}
