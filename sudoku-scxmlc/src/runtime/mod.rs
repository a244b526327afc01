//! The run-time half of `sudoku-scxmlc`: what a generated machine links against.
//!
//! It holds no XML or `syn` code. Generated code names it by absolute path
//! (`::sudoku_scxmlc::runtime`), and a crate that only runs machines depends on
//! `sudoku-scxmlc` with `default-features = false`.
//!
//! The interpreter implements the algorithm of SCXML 1.0, Appendix D, over the static
//! [`Tables`] the generator emits.

mod context;
#[cfg(feature = "ecmascript")]
pub mod ecmascript;
mod envelope;
mod error;
mod event;
pub(crate) mod fast_path;
mod foreach;
mod interpreter;
mod invoke;
mod machine;
mod panic;
mod snapshot;
mod state_set;
mod steps;
mod tables;
mod time;
mod tree;

pub use context::{Context, SendRequest, TypedTarget};
pub use envelope::{
    ChartEvent, Conversion, Envelope, IntoPayload, Meta, Origin, Refused, SendId, Submission,
    TypedEvent, Untyped,
};
pub use error::{ErrorSite, ExecError, InitError, RuntimeError};
pub use event::{descriptor_matches, normalize_descriptor, Event, EventKind};
pub use fast_path::{check_quiet_steps, event_names, FastPathCache};
pub use foreach::{foreach_items, ForeachArray};
pub use invoke::{check_invoke_type, selector_text, spawn, InvokeStart, Session};
pub use machine::{Connection, Machine, WeakMachine, DEFAULT_MAX_STEPS_PER_CALL};
pub use panic::run_chart_code;
pub use snapshot::{PendingEvent, Snapshot, SnapshotError};
pub use steps::{StepFn, Stepper};
pub use tables::{
    Block, BlockIndex, Chart, Condition, ConditionIndex, DataItem, Domain, DoneData, DoneDataIndex,
    Invoke, StateIndex, StateInfo, StateKind, Tables, TransitionIndex, TransitionInfo, NO_STATE,
};
pub use time::parse_delay;
pub use tree::{state_tree, NodeKind, StateNode};

/// Re-exported for the serde derives of generated payload types.
pub use serde;
/// Re-exported so generated code and chart code reach `serde_json` through the runtime.
pub use serde_json;
