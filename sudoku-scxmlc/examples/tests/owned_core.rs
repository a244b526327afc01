//! The owned core (`runtime::Core`, the `&mut self` layer) beside the shared handle
//! (`Machine`): the same charts, the same answers; `Send`, so it runs in another thread.

use scxml_examples::invoke::DirectionsStateMachineChart;
use scxml_examples::microwave::{self, Microwave, MicrowaveChart};
use scxml_examples::trafficlight::{self, TrafficLightStateMachine, TrafficLightStateMachineChart};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use sudoku_scxmlc::runtime::{Core, RuntimeError};

fn assert_send<T: Send>() {}

#[test]
fn the_core_is_send_when_the_datamodel_is() {
    assert_send::<Core<TrafficLightStateMachineChart>>();
    assert_send::<Core<MicrowaveChart>>();
    // A chart that invokes another: its children are `Send` too.
    assert_send::<Core<DirectionsStateMachineChart>>();
}

#[test]
fn the_traffic_light_runs_the_same_on_the_core_and_the_handle() {
    let handle = TrafficLightStateMachine::new();
    let mut core = Core::<TrafficLightStateMachineChart>::new();
    handle.start();
    core.start();
    assert_eq!(core.active_state_ids(), handle.active_state_ids());
    // Time in uneven slices, a smash and a repair: after each, the same states and clock.
    let script: [(u64, Option<&str>); 9] = [
        (500, None),
        (700, None),
        (2_900, None),
        (1_000, None),
        (0, Some(trafficlight::events::SMASH)),
        (1_500, None),
        (600, None),
        (0, Some(trafficlight::events::REPAIR)),
        (4_000, None),
    ];
    for (ms, event) in script {
        match event {
            Some(name) => {
                handle.submit_event(name, ());
                core.submit_event(name, ()).unwrap();
            }
            None => {
                handle.advance_time(Duration::from_millis(ms));
                core.advance_time(Duration::from_millis(ms));
            }
        }
        assert_eq!(
            core.active_state_ids(),
            handle.active_state_ids(),
            "after {ms} ms / {event:?}"
        );
        assert_eq!(core.now(), handle.now());
        assert_eq!(core.next_deadline(), handle.next_deadline());
    }
}

#[test]
fn callbacks_hear_states_typed_events_and_errors() {
    let entered = Arc::new(Mutex::new(Vec::new()));
    let heard = Arc::new(Mutex::new(Vec::new()));
    let errors = Arc::new(Mutex::new(Vec::new()));
    let mut core = Core::<MicrowaveChart>::new();
    let e = entered.clone();
    core.on_state(microwave::State::Cooking, move |on| {
        e.lock().unwrap().push(on)
    });
    let h = heard.clone();
    core.observe(move |event| h.lock().unwrap().push(format!("{event:?}")));
    let x = errors.clone();
    core.on_error(move |error| x.lock().unwrap().push(error.to_string()));
    core.start();
    core.submit(microwave::Event::TurnOn).unwrap();
    assert!(core.is_active(microwave::State::Cooking));
    core.submit_event("set.cook_time", json!({"seconds": 2}))
        .unwrap();
    assert_eq!(core.data().cook_time, 2);
    core.advance_time(Duration::from_secs(2));
    // Cooked: the oven turned itself off and told the world with a typed `beep`.
    assert!(core.is_active(microwave::State::Off));
    assert_eq!(core.data().timer, 2);
    let heard = heard.lock().unwrap().clone();
    assert!(heard.iter().any(|e| e.starts_with("Beep(")), "{heard:?}");
    assert!(heard.iter().any(|e| e == "TurnOn"), "{heard:?}");
    // Entered on turning on, re-entered on each tick, exited when done.
    assert_eq!(entered.lock().unwrap().first(), Some(&true));
    assert_eq!(entered.lock().unwrap().last(), Some(&false));
    // A payload-free event with data is refused, and so is everything after a stop.
    let refused = core.submit_event(microwave::events::TURN_ON, json!(3));
    assert!(
        matches!(refused, Err(RuntimeError::EventData { .. })),
        "{refused:?}"
    );
    core.stop();
    assert!(!core.is_running());
    let dropped = core.submit(microwave::Event::TurnOn);
    assert!(
        matches!(dropped, Err(RuntimeError::NotRunning { .. })),
        "{dropped:?}"
    );
    assert_eq!(errors.lock().unwrap().len(), 2);
    // Started again, it starts afresh.
    core.start();
    assert!(core.is_active(microwave::State::Off));
    assert_eq!(core.data().cook_time, 5);
}

#[test]
fn a_core_runs_in_another_thread() {
    let mut core = Core::<MicrowaveChart>::new();
    core.set_initial_values(json!({"cook_time": 1})).unwrap();
    let worker = std::thread::spawn(move || {
        core.start();
        core.submit(microwave::Event::TurnOn).unwrap();
        core.advance_time(Duration::from_secs(1));
        core
    });
    let core = worker.join().unwrap();
    assert!(core.is_active(microwave::State::Off));
    assert_eq!(core.data().timer, 1);
    // The same with the shared handle, on this thread.
    let handle = Microwave::new();
    handle.set_initial_values(json!({"cook_time": 1})).unwrap();
    handle.start();
    handle.submit(microwave::Event::TurnOn);
    handle.advance_time(Duration::from_secs(1));
    assert_eq!(handle.active_state_ids(), core.active_state_ids());
}

#[test]
fn events_before_start_wait_and_snapshots_restore() {
    let mut core = Core::<MicrowaveChart>::new();
    core.submit(microwave::Event::DoorOpen).unwrap();
    assert!(!core.is_running());
    core.start();
    assert!(core.is_active(microwave::State::Open));
    let snapshot = core.snapshot().unwrap();
    let mut again = Core::<MicrowaveChart>::restore(&snapshot).unwrap();
    assert_eq!(again.active_state_ids(), core.active_state_ids());
    again.submit(microwave::Event::DoorClose).unwrap();
    assert!(again.is_active(microwave::State::Closed));
}
