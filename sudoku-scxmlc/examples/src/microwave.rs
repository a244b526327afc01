//! A microwave oven (`charts/microwave.scxml`), the chart `sudoku-scxmlc/GUIDE.md` teaches the
//! rust datamodel with.
//!
//! Two regions run in parallel: the `oven` (`off`, or `on` and then `idle` or `cooking`) and
//! the `door` (`closed` or `open`). Turned on, the oven cooks while the door is closed
//! (`In("closed")`), counting seconds with a delayed `time` event, and turns itself off with
//! a `beep` once `timer` reaches `cook_time`. `set.cook_time` with `{"seconds": N}` changes
//! the cooking time while on.
//!
//! ```
//! use scxml_examples::microwave::{events, Microwave, State};
//! use std::time::Duration;
//!
//! let oven = Microwave::new();
//! oven.start();
//! oven.submit_event(events::TURN_ON, ());
//! assert!(oven.is_active(State::Cooking));
//! oven.advance_time(Duration::from_secs(5));
//! assert!(oven.is_active(State::Off));
//! ```

include!(concat!(env!("OUT_DIR"), "/microwave.rs"));
