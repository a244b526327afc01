//! Random walks: random events (with random payloads) and random spans of machine time
//! through each example chart never panic, never raise an error, always leave a legal
//! configuration (`Machine::check_configuration`), and keep each chart's own
//! invariant.

use proptest::collection::vec;
use proptest::prelude::*;
use scxml_examples::{ftpclient, mediaplayer, trafficlight};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use sudoku_scxmlc::runtime::{Chart, Machine, RuntimeError};

/// One step of a walk: an event of the chart's alphabet with a payload, or time passing.
#[derive(Debug, Clone)]
enum Step {
    Event(&'static str, Value),
    Wait(Duration),
}

fn step(alphabet: &'static [&'static str], payloads: Vec<Value>) -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (proptest::sample::select(alphabet), proptest::sample::select(payloads))
            .prop_map(|(e, p)| Step::Event(e, p)),
        1 => (0u64..2500).prop_map(|ms| Step::Wait(Duration::from_millis(ms))),
    ]
}

/// Runs `steps` through a fresh machine of chart `C`, checking the configuration and
/// `invariant` after start and after every step, and that no runtime error was reported
/// (but for the events a stopped machine drops, which it reports as `NotRunning`).
fn walk<C: Chart>(
    steps: &[Step],
    invariant: impl Fn(&Machine<C>) -> Result<(), String>,
) -> Result<(), TestCaseError> {
    let machine = Machine::<C>::new();
    let errors = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&errors);
    machine.connect_to_error(move |e| {
        if !matches!(e, RuntimeError::NotRunning { .. }) {
            log.borrow_mut().push(e.to_string());
        }
    });
    machine.start();
    let check = |after: &str| -> Result<(), TestCaseError> {
        machine
            .check_configuration()
            .and_then(|()| invariant(&machine))
            .map_err(|e| TestCaseError::fail(format!("after {after}: {e}")))?;
        prop_assert!(
            errors.borrow().is_empty(),
            "after {after}: {:?}",
            errors.borrow()
        );
        Ok(())
    };
    check("start")?;
    for (i, s) in steps.iter().enumerate() {
        match s {
            Step::Event(name, data) => machine.submit_event(name, data.clone()),
            Step::Wait(by) => machine.advance_time(*by),
        }
        check(&format!("step {i} ({s:?})"))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// Exactly one lamp state is active while working, one blink state while broken.
    #[test]
    fn trafficlight_shows_one_light(steps in vec(step(&[trafficlight::events::SMASH, trafficlight::events::REPAIR, "never.handled"], vec![Value::Null]), 0..40)) {
        use trafficlight::{State, TrafficLightStateMachineChart as C};
        walk::<C>(&steps, |m| {
            let lit = [State::Red, State::RedGoingGreen, State::Green, State::GreenGoingRed, State::Blinking, State::Unblinking]
                .into_iter()
                .filter(|&s| m.is_active(s))
                .count();
            if lit == 1 && m.is_running() && m.next_deadline().is_some() {
                Ok(())
            } else {
                Err(format!("{lit} light states active, next deadline {:?}", m.next_deadline()))
            }
        })?;
    }

    /// `playing` exactly when the last announcement was `playbackStarted` of the media held.
    #[test]
    fn mediaplayer_announces_what_it_plays(steps in vec(step(&[mediaplayer::events::TAP, "never.handled"], vec![json!({"media": "a"}), json!({"media": "b"}), json!({"media": ""}), json!({}), Value::Null]), 0..40)) {
        use mediaplayer::{MediaPlayerStateMachine, State};
        let machine = MediaPlayerStateMachine::new();
        let last = Rc::new(RefCell::new(None::<(String, String)>));
        let log = Rc::clone(&last);
        machine.connect_to_event("playbackStarted playbackStopped", move |e| {
            *log.borrow_mut() = Some((e.name.clone(), e.param("media").unwrap_or_default()));
        });
        machine.start();
        for s in &steps {
            match s {
                Step::Event(name, data) => machine.submit_event(name, data.clone()),
                Step::Wait(by) => machine.advance_time(*by),
            }
            let playing = machine.is_active(State::Playing);
            let media = machine.with_data(|d| d.media.clone());
            match &*last.borrow() {
                Some((name, m)) if name == "playbackStarted" => {
                    prop_assert!(playing && *m == media, "started {m}, playing {playing}, media {media}");
                }
                _ => prop_assert!(!playing),
            }
        }
        // And the generic checks, on the same steps.
        walk::<mediaplayer::MediaPlayerStateMachineChart>(&steps, |_| Ok(()))?;
    }

    /// Commands and replies in any order: `E` is reached exactly when the machine stops.
    #[test]
    fn ftpclient_stops_only_in_e(steps in vec(step(&[
        ftpclient::events::CMD_USER, ftpclient::events::CMD_PASS, ftpclient::events::CMD_LIST,
        ftpclient::events::CMD_QUIT, "cmd.PASV", ftpclient::events::REPLY_1XX,
        ftpclient::events::REPLY_2XX, ftpclient::events::REPLY_3XX, ftpclient::events::REPLY_4XX,
        ftpclient::events::REPLY_5XX, "submit.cmd.USER",
    ], vec![json!("anonymous"), Value::Null]), 0..40)) {
        use ftpclient::{FtpClientChart as C, State};
        walk::<C>(&steps, |m| {
            let ids = m.active_state_ids();
            match (m.is_running(), m.is_active(State::G)) {
                (true, true) | (false, false) => Ok(()),
                other => Err(format!("running and in G: {other:?}, active {ids:?}")),
            }
        })?;
    }
}
