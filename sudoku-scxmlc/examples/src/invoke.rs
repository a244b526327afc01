//! Qt's invoke example (`charts/invoke.scxml`, BSD-3-Clause), compiled unchanged: while
//! `somewhere` is active it runs the inline child chart `anywhere`, whose states `here` and
//! `there` follow `goThere`/`goHere`; leaving `somewhere` cancels the child.
//!
//! ```
//! use scxml_examples::invoke::{events, DirectionsStateMachine, State};
//! use sudoku_scxmlc::runtime::Event;
//!
//! let directions = DirectionsStateMachine::new();
//! directions.start();
//! directions.submit_event(events::GO_SOMEWHERE, ());
//! let child = directions.invoked()[0].clone();
//! assert_eq!(directions.invoked_active_state_ids(&child), Some(vec!["here"]));
//! directions.submit_to_invoked(&child, Event::new("goThere", ()));
//! assert_eq!(directions.invoked_active_state_ids(&child), Some(vec!["there"]));
//! directions.submit_event(events::GO_NOWHERE, ());
//! assert!(directions.is_active(State::Nowhere) && directions.invoked().is_empty());
//! ```

include!(concat!(env!("OUT_DIR"), "/invoke.rs"));
