//! Qt's traffic-light example chart (`charts/trafficlight.scxml`, null datamodel, delayed
//! sends), compiled unchanged and driven on the virtual clock: the light cycles on time,
//! `smash` makes it blink, `repair` restarts it.

use scxml_examples::trafficlight::{events, State, TrafficLightStateMachine as Light};
use std::time::Duration;

#[test]
fn cycles_on_time_blinks_when_smashed_and_restarts_when_repaired() {
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

#[test]
fn one_long_advance_fires_every_due_event_in_order() {
    let light = Light::new();
    let entered = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    for state in [
        State::Red,
        State::RedGoingGreen,
        State::Green,
        State::GreenGoingRed,
    ] {
        let log = entered.clone();
        light.connect_to_state(state, move |on| {
            if on {
                log.borrow_mut().push(state.id());
            }
        });
    }
    light.start();
    light.advance_time(Duration::from_secs(9)); // a whole cycle and one more step
    assert_eq!(
        *entered.borrow(),
        [
            "greenGoingRed",
            "red",
            "redGoingGreen",
            "green",
            "greenGoingRed",
            "red"
        ]
    );
    assert_eq!(light.now(), Duration::from_secs(9));
    assert_eq!(light.time_until_next(), Some(Duration::from_secs(3)));
}
