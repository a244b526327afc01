//! The traffic-light window on Slint's headless testing backend: the lamps follow the
//! machine as Slint's (mocked) timers drive its virtual clock, and the Smash and Repair
//! buttons submit events. Widgets are found by accessible label; nothing waits for real time.

use i_slint_backend_testing::{get_mocked_time, mock_elapsed_time, ElementHandle};
use scxml_examples::trafficlight::State;
use scxml_examples::window::{init, TrafficLightUi};
use slint::ComponentHandle;
use std::time::Duration;

fn start_ui() -> TrafficLightUi {
    i_slint_backend_testing::init_no_event_loop();
    // The window's clock is Slint's mocked time, moved by `mock_elapsed_time`.
    let ui = init(|| Duration::from_millis(get_mocked_time())).expect("window builds");
    ui.window().show().expect("window shows");
    ui
}

/// The one element with this accessible label.
fn find(ui: &TrafficLightUi, label: &str) -> ElementHandle {
    let mut found = ElementHandle::find_by_accessible_label(ui.window(), label);
    let element = found
        .next()
        .unwrap_or_else(|| panic!("no element labelled {label:?}"));
    assert!(
        found.next().is_none(),
        "several elements labelled {label:?}"
    );
    element
}

/// The lamps lit, as the window shows them: `"red"`, `"yellow"`, `"green"` or `""`.
fn lit(ui: &TrafficLightUi) -> String {
    let lamps: Vec<&str> = ["red", "yellow", "green"]
        .into_iter()
        .filter(|lamp| {
            let value = find(ui, &format!("{lamp} lamp")).accessible_value();
            match value.as_deref() {
                Some("on") => true,
                Some("off") => false,
                other => panic!("{lamp} lamp shows {other:?}"),
            }
        })
        .collect();
    lamps.join(" ")
}

fn status(ui: &TrafficLightUi) -> String {
    find(ui, "status")
        .accessible_value()
        .unwrap_or_default()
        .to_string()
}

fn wait(ms: u64) {
    mock_elapsed_time(Duration::from_millis(ms));
}

#[test]
fn lamps_follow_the_timers_and_the_buttons() {
    let ui = start_ui();
    let start = get_mocked_time();
    let machine_time = |ui: &TrafficLightUi| ui.machine().now().as_millis() as u64;

    assert_eq!(lit(&ui), "yellow"); // greenGoingRed
    assert_eq!(status(&ui), "working");
    wait(999);
    assert_eq!(lit(&ui), "yellow");
    wait(1); // 1 s: the timer fires, the machine goes red
    assert_eq!(lit(&ui), "red");
    assert_eq!(machine_time(&ui), get_mocked_time() - start);
    wait(3000); // 4 s
    assert_eq!(lit(&ui), "yellow");
    assert!(ui.machine().is_active(State::RedGoingGreen));
    wait(1000); // 5 s
    assert_eq!(lit(&ui), "green");
    wait(1500); // 6.5 s: green until 8 s

    find(&ui, "Smash").invoke_accessible_default_action();
    assert_eq!(status(&ui), "broken");
    assert_eq!(lit(&ui), "yellow"); // blinking
    assert_eq!(
        machine_time(&ui),
        6500,
        "the button synced the machine's clock first"
    );
    wait(1000); // 7.5 s: unblink
    assert_eq!(lit(&ui), "");
    wait(500); // 8 s: the stale startGoingRed changes nothing
    assert_eq!(lit(&ui), "");
    wait(500); // 8.5 s: blink
    assert_eq!(lit(&ui), "yellow");

    find(&ui, "Repair").invoke_accessible_default_action();
    assert_eq!(status(&ui), "working");
    assert!(ui.machine().is_active(State::GreenGoingRed));
    wait(1000); // 9.5 s: one second after the repair
    assert_eq!(lit(&ui), "red");
    assert_eq!(machine_time(&ui), get_mocked_time() - start);
    assert_eq!(machine_time(&ui), 9500);
    assert_eq!(ui.machine().time_until_next(), Some(Duration::from_secs(3)));
}

/// The states the chart view lights, as the window shows them, in document order.
fn lit_states(ui: &TrafficLightUi) -> Vec<String> {
    let mut found = Vec::new();
    for id in [
        "working",
        "yellow",
        "red",
        "green",
        "greenGoingRed",
        "redGoingGreen",
        "broken",
        "blinking",
        "unblinking",
    ] {
        let state = find(ui, &format!("state {id}"));
        if state.accessible_value().as_deref() == Some("active") {
            found.push(id.to_owned());
        }
    }
    found
}

#[test]
fn the_chart_view_lights_the_active_states_and_lists_the_last_events() {
    let ui = start_ui();
    let chart = |ui: &TrafficLightUi| {
        ElementHandle::find_by_accessible_label(ui.window(), "chart view")
            .next()
            .is_some()
    };
    assert!(!chart(&ui), "hidden until asked for");
    find(&ui, "Chart").invoke_accessible_default_action();
    assert!(chart(&ui));
    assert_eq!(lit_states(&ui), ["working", "yellow", "greenGoingRed"]);
    wait(1000);
    assert_eq!(lit_states(&ui), ["working", "red"]);
    find(&ui, "Smash").invoke_accessible_default_action();
    assert_eq!(lit_states(&ui), ["broken", "blinking"]);
    let events: Vec<String> = (0..8)
        .map_while(|i| {
            ElementHandle::find_by_accessible_label(ui.window(), &format!("event {i}"))
                .next()
                .and_then(|e| e.accessible_value())
                .map(|v| v.to_string())
        })
        .collect();
    assert_eq!(events, ["goRed", "smash"], "oldest first");
    find(&ui, "Hide chart").invoke_accessible_default_action();
    assert!(!chart(&ui));
}
