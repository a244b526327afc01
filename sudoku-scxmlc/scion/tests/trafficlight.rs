//! Qt's traffic-light example chart (`shared/testdata/charts/qt-examples/trafficlight.scxml`,
//! null datamodel, delayed sends), compiled unchanged and driven on the virtual clock: the
//! light cycles on time, `smash` makes it blink, `repair` restarts it.

#[cfg(trafficlight)]
mod chart {
    include!(concat!(env!("OUT_DIR"), "/trafficlight.rs"));
}

#[cfg(trafficlight)]
#[test]
fn cycles_on_time_blinks_when_smashed_and_restarts_when_repaired() {
    use chart::{events, State, TrafficLightStateMachine as Light};
    use std::time::Duration;
    let ms = Duration::from_millis;
    let light = Light::new();
    light.start();
    let at = |l: &Light| l.active_atomic_state_ids();
    assert_eq!(at(&light), ["greenGoingRed"]);
    assert_eq!(light.next_deadline(), Some(ms(1000)));
    light.advance_time(ms(999));
    assert_eq!(at(&light), ["greenGoingRed"]);
    light.advance_time(ms(1)); // t = 1 s: goRed
    assert_eq!(at(&light), ["red"]);
    light.advance_time(ms(3000)); // t = 4 s: startGoingGreen
    assert_eq!(at(&light), ["redGoingGreen"]);
    assert!(light.is_active(State::Yellow));
    light.advance_time(ms(1000)); // t = 5 s: goGreen
    assert_eq!(at(&light), ["green"]);
    light.advance_time(ms(3000)); // t = 8 s: startGoingRed
    assert_eq!(at(&light), ["greenGoingRed"]);
    light.advance_time(ms(1000)); // t = 9 s
    assert_eq!(at(&light), ["red"]);

    light.advance_time(ms(500)); // t = 9.5 s; startGoingGreen is due at 12 s
    light.submit_event(events::SMASH, ());
    assert_eq!(at(&light), ["blinking"]);
    light.advance_time(ms(1000)); // t = 10.5 s: unblink
    assert_eq!(at(&light), ["unblinking"]);
    light.advance_time(ms(1000)); // t = 11.5 s: blink
    assert_eq!(at(&light), ["blinking"]);
    light.advance_time(ms(500)); // t = 12 s: the stale startGoingGreen is ignored while broken
    assert_eq!(at(&light), ["blinking"]);
    light.advance_time(ms(200)); // t = 12.2 s
    light.submit_event(events::REPAIR, ());
    assert_eq!(at(&light), ["greenGoingRed"]);
    light.advance_time(ms(300)); // t = 12.5 s: the stale unblink is ignored while working
    assert_eq!(at(&light), ["greenGoingRed"]);
    light.advance_time(ms(700)); // t = 13.2 s: goRed
    assert_eq!(at(&light), ["red"]);
}

#[cfg(not(trafficlight))]
#[test]
fn trafficlight_chart_not_found() {
    println!("SKIPPED: ../shared/testdata/charts/qt-examples/trafficlight.scxml not found");
}
