//! A chart that never runs out of work (`charts/livelock.scxml` sends itself an event on every
//! entry): a call returns after `Machine::set_max_steps_per_call` units of work with
//! `RuntimeError::StepLimit`, and the machine goes on where it stopped. Its `<final>` also
//! serves the snapshot of a stopped machine.

mod chart {
    include!(concat!(env!("OUT_DIR"), "/livelock.rs"));
}

use chart::{events, Livelock, State};
use std::cell::RefCell;
use std::rc::Rc;
use sudoku_scxmlc::runtime::RuntimeError;

#[test]
fn a_call_returns_after_the_step_limit_and_the_next_goes_on() {
    let m = Livelock::new();
    m.set_max_steps_per_call(1_000);
    let errors = Rc::new(RefCell::new(Vec::new()));
    let log = errors.clone();
    m.connect_to_error(move |e| log.borrow_mut().push(e.clone()));
    m.start();
    assert!(m.is_active(State::S0));
    {
        let errors = errors.borrow();
        assert_eq!(errors.len(), 1, "{errors:?}");
        match &errors[0] {
            RuntimeError::StepLimit {
                chart,
                steps,
                queued,
            } => {
                assert_eq!(chart, "livelock");
                assert_eq!(*steps, 1_000);
                assert_eq!(*queued, 1);
            }
            other => panic!("expected StepLimit, got {other}"),
        }
    }
    // `halt` queues behind the pending `again`; processing `again` re-enters `s0`, whose new
    // `again` queues behind `halt`, so `halt` is the second event this call processes.
    m.submit_event(events::HALT, ());
    assert_eq!(m.final_state(), Some(State::Done));
    assert!(!m.is_running());
    assert_eq!(errors.borrow().len(), 1);
}

#[test]
fn a_stopped_machine_restores_with_its_final_state() {
    let m = Livelock::new();
    m.set_max_steps_per_call(10);
    m.connect_to_error(|_| {});
    m.start();
    m.submit_event(events::HALT, ());
    assert_eq!(m.final_state_id(), Some("done"));
    let snapshot = m.snapshot().expect("a stopped machine has a snapshot");
    assert_eq!(snapshot.final_state.as_deref(), Some("done"));
    let again = Livelock::restore(&snapshot).expect("restores");
    assert!(!again.is_running());
    assert_eq!(again.final_state(), Some(State::Done));
    // A snapshot naming a state that is not a top-level <final> is refused.
    let mut wrong = snapshot;
    wrong.final_state = Some("s0".into());
    assert!(Livelock::restore(&wrong).is_err());
}
