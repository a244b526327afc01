//! The compiler's feature chart compiled with `Config::state_newtype(true)`: `State` is a
//! newtype with one constant per state (the form large charts choose) and the
//! machine behaves exactly as with the enum.

mod chart {
    include!(concat!(env!("OUT_DIR"), "/features_newtype.rs"));
}

use chart::{events, Features, FeaturesChart, State};
use serde_json::json;
use std::time::Duration;
use sudoku_scxmlc::runtime::Chart;

#[test]
fn constants_name_the_states_like_enum_variants() {
    assert_eq!(State::ALL.len(), 7);
    assert_eq!(State::ALL[0], State::Main);
    assert_eq!(State::Counting.id(), "counting");
    assert_eq!(State::from_id("timed-out"), Some(State::TimedOut));
    assert_eq!(State::from_id("timing.history"), None);
    assert_eq!(State::from_id("nope"), None);
    assert_eq!(format!("{:?}", State::TimedOut), "TimedOut");
    assert_eq!(State::TimedOut.to_string(), "timed-out");
    // Constants work as patterns.
    let kind = |s: State| match s {
        State::Counted | State::TimedOut => "end",
        _ => "other",
    };
    assert_eq!(kind(State::Counted), "end");
    assert_eq!(kind(State::Waiting), "other");
    // Index 0 is the root and history states have no constant.
    assert_eq!(FeaturesChart::state(0), None);
    for (i, info) in FeaturesChart::tables().states.iter().enumerate().skip(1) {
        let state = FeaturesChart::state(i as u32);
        assert_eq!(state.is_none(), info.kind.is_history(), "{}", info.id);
        if let Some(s) = state {
            assert_eq!(FeaturesChart::index(s), i as u32);
            assert_eq!(s.id(), info.id);
        }
    }
    assert_eq!(FeaturesChart::state(1000), None);
}

#[test]
fn the_machine_runs_as_with_the_enum() {
    let m = Features::new();
    m.start();
    assert_eq!(
        m.active_states(),
        [
            State::Main,
            State::Counter,
            State::Counting,
            State::Timing,
            State::Waiting
        ]
    );
    for _ in 0..3 {
        m.submit_event(events::TICK, ());
    }
    assert!(m.is_active(State::Counted));
    assert_eq!(m.data_value("sum"), Some(json!(6)));
    m.advance_time(Duration::from_secs(1));
    assert!(m.is_active(State::TimedOut));
}
