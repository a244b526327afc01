//! Qt's traffic-light chart (`charts/trafficlight.scxml`, BSD-3-Clause), compiled unchanged:
//! `working` cycles red → red-going-green → green → green-going-red → red on delayed
//! `<send>`s (3 s red, 1 s yellow, 3 s green, 1 s yellow; it starts yellow, going red), `smash`
//! breaks it into a blinking yellow (1 s on, 1 s off), `repair` restarts it.
//!
//! ```
//! use scxml_examples::trafficlight::{events, State, TrafficLightStateMachine};
//! use std::time::Duration;
//!
//! let light = TrafficLightStateMachine::new();
//! light.start();
//! assert!(light.is_active(State::GreenGoingRed));
//! light.advance_time(Duration::from_secs(1));
//! assert!(light.is_active(State::Red));
//! light.submit_event(events::SMASH, ());
//! assert!(light.is_active(State::Blinking));
//! ```

include!(concat!(env!("OUT_DIR"), "/trafficlight.rs"));
