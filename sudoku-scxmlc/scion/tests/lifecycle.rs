//! `Machine::stop` and `Machine::start` on a stopped machine (`charts/lifecycle.scxml`):
//! stopping exits the configuration and cancels timers and invocations; events sent to a
//! stopped machine are reported; starting again begins afresh.

mod chart {
    include!(concat!(env!("OUT_DIR"), "/lifecycle.rs"));
}

use chart::{events, Lifecycle, State};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use sudoku_scxmlc::runtime::RuntimeError;

type Log<T> = Rc<RefCell<Vec<T>>>;

/// A machine whose entries and exits of `working`, and whose errors, are logged.
fn observed() -> (Lifecycle, Log<String>, Log<RuntimeError>) {
    let m = Lifecycle::new();
    let log = Rc::new(RefCell::new(Vec::new()));
    let l = log.clone();
    m.connect_to_state(State::Working, move |on| {
        l.borrow_mut().push(format!("working: {on}"));
    });
    let errors = Rc::new(RefCell::new(Vec::new()));
    let e = errors.clone();
    m.connect_to_error(move |err| e.borrow_mut().push(err.clone()));
    (m, log, errors)
}

#[test]
fn stop_exits_every_state_and_cancels_timers_and_invocations() {
    let (m, log, errors) = observed();
    m.start();
    m.advance_time(Duration::from_millis(1500)); // one tick: working re-entered
    assert_eq!(m.with_data(|d| (d.entries, d.exits)), (2, 1));
    assert_eq!(m.invoked(), ["helper"]);
    assert!(m.time_until_next().is_some());
    log.borrow_mut().clear();

    m.stop();
    assert!(!m.is_running());
    assert_eq!(m.final_state(), None);
    assert!(m.active_states().is_empty());
    assert_eq!(*log.borrow(), ["working: false"]);
    assert_eq!(m.with_data(|d| d.exits), 2, "<onexit> ran");
    assert!(m.invoked().is_empty());
    assert_eq!(m.time_until_next(), None);
    m.advance_time(Duration::from_secs(5));
    assert_eq!(m.with_data(|d| d.entries), 2, "no tick after stop");

    m.submit_event(events::FINISH, ());
    assert_eq!(m.final_state(), None);
    let errors = errors.borrow();
    assert!(
        matches!(&errors[..], [RuntimeError::NotRunning { event, final_state: None, .. }] if event == "finish"),
        "{errors:?}"
    );
    assert_eq!(
        errors[0].to_string(),
        "Lifecycle: event `finish` dropped: the machine has stopped (stop() was called); start() starts it afresh"
    );
    m.stop(); // stopping a stopped machine does nothing
    assert_eq!(*log.borrow(), ["working: false"]);
}

#[test]
fn start_after_stop_begins_afresh() {
    let (m, log, _) = observed();
    m.start();
    m.advance_time(Duration::from_millis(2500));
    assert_eq!(m.with_data(|d| d.entries), 3);
    m.stop();
    log.borrow_mut().clear();

    m.start();
    assert!(m.is_running());
    assert_eq!(*log.borrow(), ["working: true"], "observers stay connected");
    assert_eq!(m.now(), Duration::ZERO);
    assert_eq!(
        m.with_data(|d| (d.entries, d.exits)),
        (1, 0),
        "a fresh datamodel"
    );
    assert_eq!(m.invoked(), ["helper"]);
    assert_eq!(m.time_until_next(), Some(Duration::from_secs(1)));
    m.start(); // starting a running machine does nothing
    assert_eq!(m.with_data(|d| d.entries), 1);
}

#[test]
fn start_after_a_top_level_final_begins_afresh() {
    let (m, _, errors) = observed();
    m.start();
    m.submit_event(events::FINISH, ());
    assert_eq!(m.final_state(), Some(State::Done));
    m.submit_event(events::TICK, ());
    assert_eq!(
        errors.borrow()[0].to_string(),
        "Lifecycle: event `tick` dropped: the machine has stopped (it reached the top-level final state `done`); start() starts it afresh"
    );

    // Initial values of a stopped machine apply to the next run.
    m.set_initial_values(json!({"start_value": 9})).unwrap();
    m.start();
    assert!(m.is_active(State::Working));
    assert_eq!(m.final_state(), None);
    assert_eq!(m.with_data(|d| (d.entries, d.start_value)), (1, 9));
    assert!(
        m.set_initial_values(json!({"start_value": 1})).is_err(),
        "running"
    );
}

#[test]
fn start_and_stop_from_an_observer_take_effect_after_the_macrostep() {
    let m = Lifecycle::new();
    let weak = m.downgrade();
    m.connect_to_state(State::Done, move |on| {
        if on {
            if let Some(m) = weak.upgrade() {
                m.start();
            }
        }
    });
    m.start();
    m.submit_event(events::FINISH, ());
    assert!(m.is_active(State::Working), "restarted by the observer");
    assert_eq!(m.with_data(|d| d.entries), 1);

    let weak = m.downgrade();
    m.connect_to_event("tick", move |_| {
        if let Some(m) = weak.upgrade() {
            m.stop();
        }
    });
    m.advance_time(Duration::from_secs(1));
    assert!(!m.is_running());
    assert_eq!(
        m.with_data(|d| d.entries),
        2,
        "the tick's macrostep ran first"
    );
}
