//! `charts/invoke_routing.scxml`: a session and the child it invokes talk through
//! `#_<invokeid>`, `_event.origin` and `done.invoke.<id>` (see `tests/invoke.rs`).

include!(concat!(env!("OUT_DIR"), "/invoke_routing.rs"));
