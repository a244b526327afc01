//! Errors of a running machine.

use std::fmt;

/// A failure inside executable content, a condition or a `<data>` expression. The interpreter
/// turns it into the platform event `error.execution` (SCXML 1.0, section 5.10.2); it never
/// panics the caller.
///
/// Like `anyhow::Error`, it converts from any [`std::error::Error`], so chart code can use `?`
/// on fallible calls. For the same reason it does not implement `std::error::Error` itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecError {
    message: String,
}

impl ExecError {
    /// An error with a message.
    pub fn new(message: impl fmt::Display) -> Self {
        ExecError {
            message: message.to_string(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for ExecError {
    fn from(e: E) -> Self {
        ExecError::new(e)
    }
}

/// A problem the interpreter reports to `connect_to_error` observers (and to `tracing`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// A macrostep ran more microsteps than the limit: an eventless or raise loop that would
    /// never end. The macrostep was abandoned and the internal queue cleared.
    #[error("{chart}: a macrostep ran {microsteps} microsteps without ending (last event `{event}`); abandoned it")]
    MacrostepLimit {
        /// The chart's name.
        chart: String,
        /// How many microsteps ran.
        microsteps: usize,
        /// The name of the event being processed (empty for eventless transitions).
        event: String,
    },
    /// Executable content failed; `error.execution` was raised.
    #[error("{file}:{line}: error.execution: {message}")]
    Execution {
        /// The chart's file name.
        file: String,
        /// 1-based chart line of the failing block or condition.
        line: u32,
        /// What went wrong.
        message: String,
    },
}

/// An error of [`Machine::set_initial_values`](super::Machine::set_initial_values).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InitError {
    /// The values were not a JSON object.
    #[error("initial values must be a JSON object of `<data>` ids to values")]
    NotAnObject,
    /// A key names no `<data>` of the chart.
    #[error("the chart declares no `<data id=\"{0}\">`")]
    UnknownData(String),
    /// A value does not deserialize into the type of its `<data>`.
    #[error("initial value for `{id}` has the wrong shape: {source}")]
    WrongType {
        /// The `<data>` id.
        id: String,
        /// What serde said.
        source: serde_json::Error,
    },
    /// The machine has already started; initial values apply only before `start()`.
    #[error("initial values must be set before start()")]
    AlreadyStarted,
}
