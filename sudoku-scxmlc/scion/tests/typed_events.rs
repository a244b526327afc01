//! Typed events end to end (`tests/charts/typed_events.scxml`): the generated `Event`
//! submitted and observed without JSON, the string API on the same chart, refused data, typed
//! `<send>` payloads, typed `_event.data` in chart code, snapshots of typed events, and the
//! `<log>` callback.

mod chart {
    use serde::{Deserialize, Serialize};

    /// What `tap` carries.
    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    pub struct Cell {
        pub x: u8,
        pub y: u8,
    }

    include!(concat!(env!("OUT_DIR"), "/typed_events.rs"));
}

use chart::{payloads, Cell, Event, State, Typed};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use sudoku_scxmlc::runtime::{RuntimeError, Snapshot};

/// A started machine with a typed observer, a string observer of `shown`, an error observer
/// and a log observer, each logging into the returned list.
fn machine() -> (Typed, Rc<RefCell<Vec<String>>>) {
    let m = Typed::new();
    let log = Rc::new(RefCell::new(Vec::new()));
    let l = log.clone();
    m.observe(move |e: &Event| l.borrow_mut().push(format!("typed {e:?}")));
    let l = log.clone();
    m.connect_to_event("shown", move |e| {
        l.borrow_mut().push(format!("json {}", e.data))
    });
    let l = log.clone();
    m.connect_to_error(move |e| l.borrow_mut().push(format!("error {e}")));
    let l = log.clone();
    m.connect_to_log(move |label, value| l.borrow_mut().push(format!("log {label} {value}")));
    m.start();
    (m, log)
}

#[test]
fn typed_events_go_in_and_come_out_typed() {
    let (m, log) = machine();
    m.submit(Event::Tap(Cell { x: 1, y: 2 }));
    assert_eq!(
        m.with_data(|d| (d.count, d.last.clone())),
        (1, Cell { x: 1, y: 2 })
    );
    let shown = payloads::Shown {
        count: 1,
        last: Cell { x: 1, y: 2 },
    };
    assert_eq!(
        *log.borrow(),
        [
            // The event first, then what its macrostep did, then the event it sent.
            "typed Tap(Cell { x: 1, y: 2 })".to_owned(),
            "log tapped 1".to_owned(),
            r#"json {"count":1,"last":{"x":1,"y":2}}"#.to_owned(),
            format!("typed {:?}", Event::Shown(shown)),
        ]
    );
}

#[test]
fn the_string_api_types_what_it_submits() {
    let (m, log) = machine();
    m.submit_event("tap", json!({"x": 3, "y": 4}));
    assert_eq!(m.with_data(|d| d.last.clone()), Cell { x: 3, y: 4 });
    // The chart's condition reads the typed `_event.data`: 9 is off the grid.
    m.submit_event("tap", json!({"x": 9, "y": 0}));
    assert_eq!(m.with_data(|d| d.count), 1);
    // Data that does not fit `Cell` is refused before anything runs.
    log.borrow_mut().clear();
    m.submit_event("tap", json!({"x": "three"}));
    m.submit_event("reset", json!(7));
    let log = log.borrow();
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        log[0].starts_with("error Typed: event `tap` dropped: the data of `tap` is not a `Cell`"),
        "{}",
        log[0]
    );
    assert_eq!(
        log[1],
        "error Typed: event `reset` dropped: event `reset` carries no data"
    );
    assert_eq!(m.with_data(|d| d.count), 1);
    assert!(m.is_active(State::Idle));
}

#[test]
fn plain_events_of_the_charts_names_are_typed_too() {
    let (m, log) = machine();
    m.submit(sudoku_scxmlc::runtime::Event::new(
        "tap",
        json!({"x": 0, "y": 5}),
    ));
    assert_eq!(m.with_data(|d| d.last.clone()), Cell { x: 0, y: 5 });
    m.submit(sudoku_scxmlc::runtime::Event::new(
        "tap",
        json!([1, 2, 3, 4]),
    ));
    assert_eq!(m.with_data(|d| d.count), 1);
    assert!(log
        .borrow()
        .iter()
        .any(|l| l.starts_with("error Typed: event `tap` dropped")));
}

#[test]
fn raised_and_delayed_typed_events_survive_a_snapshot() {
    let (m, log) = machine();
    m.submit(Event::Tap(Cell { x: 1, y: 1 }));
    m.submit(Event::Reset);
    assert!(m.is_active(State::Waiting));
    assert_eq!(m.with_data(|d| d.count), 0);
    let saved = serde_json::to_string(&m.snapshot().unwrap()).unwrap();
    assert!(saved.contains(r#""name":"ping""#), "{saved}");
    let snapshot: Snapshot = serde_json::from_str(&saved).unwrap();
    let again = Typed::restore(&snapshot).unwrap();
    let heard = Rc::new(RefCell::new(Vec::new()));
    let h = heard.clone();
    again.observe(move |e: &Event| h.borrow_mut().push(e.clone()));
    again.advance_time(Duration::from_secs(1));
    assert!(again.is_active(State::Idle));
    assert_eq!(*heard.borrow(), [Event::Ping]);
    // `cleared` was only raised: internal events are not observed.
    assert!(!log.borrow().iter().any(|l| l.contains("Cleared")));
}

#[test]
fn a_snapshot_with_data_that_does_not_fit_is_refused() {
    let (m, _) = machine();
    m.submit(Event::Reset);
    let mut snapshot = m.snapshot().unwrap();
    snapshot.pending[0].event.data = json!("surprise");
    let error = Typed::restore(&snapshot).unwrap_err();
    assert_eq!(
        error.to_string(),
        "snapshot event `ping`: event `ping` carries no data"
    );
}

#[test]
fn errors_name_the_event() {
    let (m, _) = machine();
    let errors = Rc::new(RefCell::new(Vec::new()));
    let e = errors.clone();
    m.connect_to_error(move |error| e.borrow_mut().push(error.clone()));
    m.submit_event("ping", json!({"late": true}));
    assert!(matches!(
        &errors.borrow()[..],
        [RuntimeError::EventData { event, .. }] if event == "ping"
    ));
}
