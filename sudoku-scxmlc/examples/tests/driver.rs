//! The tokio driver of the owned core, on tokio's paused clock (so time is exact): the
//! traffic light's delayed events fire on time, submitted events are processed when they
//! arrive, and the driver hands the core back when stopped.

use scxml_examples::trafficlight::{self, State, TrafficLightStateMachineChart};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use sudoku_scxmlc::runtime::{driver, Core};
use tokio::time::{sleep, Instant};

/// A current-thread runtime whose clock starts paused and advances when every task waits.
fn paused_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

#[test]
fn delayed_events_fire_on_the_clock_and_submitted_ones_when_they_arrive() {
    paused_runtime().block_on(async {
        let t0 = Instant::now();
        // (milliseconds since the start, state) of every entry into red or blinking.
        let entries = Arc::new(Mutex::new(Vec::new()));
        let mut core = Core::<TrafficLightStateMachineChart>::new();
        for state in [State::Red, State::Green, State::Blinking] {
            let e = entries.clone();
            core.on_state(state, move |entered| {
                if entered {
                    e.lock().unwrap().push((t0.elapsed().as_millis(), state));
                }
            });
        }
        let (driver, handle) = driver::spawn(core);
        let task = tokio::spawn(driver.run());
        // Yellow for 1 s, red for 3 s, yellow for 1 s, then green.
        sleep(Duration::from_millis(5_500)).await;
        handle
            .submit_event(trafficlight::events::SMASH, ())
            .unwrap();
        sleep(Duration::from_millis(500)).await;
        handle.stop().unwrap();
        let core = task.await.unwrap();
        assert_eq!(
            *entries.lock().unwrap(),
            [
                (1_000, State::Red),
                (5_000, State::Green),
                (5_500, State::Blinking)
            ]
        );
        assert!(!core.is_running());
        assert_eq!(core.now(), Duration::from_millis(6_000));
        assert!(handle
            .submit_event(trafficlight::events::REPAIR, ())
            .is_err());
    });
}

#[test]
fn the_driver_ends_when_every_handle_is_dropped() {
    paused_runtime().block_on(async {
        let (driver, handle) = driver::spawn(Core::<TrafficLightStateMachineChart>::new());
        let task = tokio::spawn(driver.run());
        sleep(Duration::from_millis(1_500)).await;
        drop(handle);
        let core = task.await.unwrap();
        // It still runs (nobody stopped it), at the time the last handle went.
        assert!(core.is_active(State::Red));
        assert!(core.now() >= Duration::from_millis(1_500));
    });
}
