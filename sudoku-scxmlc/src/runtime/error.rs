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
    site: Option<ErrorSite>,
}

/// Where in the chart an [`ExecError`] happened: the element of executable content that
/// failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorSite {
    /// The element's name (`log`, `assign`, `send`, ..., or the block's `onentry`,
    /// `transition`, ...).
    pub element: &'static str,
    /// 1-based chart line of the element.
    pub line: u32,
    /// 1-based column of the element (0 when only the line is known).
    pub column: u32,
}

impl ExecError {
    /// An error with a message.
    pub fn new(message: impl fmt::Display) -> Self {
        ExecError {
            message: message.to_string(),
            site: None,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where it happened, once known.
    pub fn site(&self) -> Option<ErrorSite> {
        self.site
    }

    /// Records the element it happened in, unless a site is already known (the innermost
    /// wins). Generated code calls it for each statement of executable content.
    #[must_use]
    pub fn at(mut self, element: &'static str, line: u32, column: u32) -> Self {
        self.site.get_or_insert(ErrorSite {
            element,
            line,
            column,
        });
        self
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
    #[error("{chart}: a macrostep ran {microsteps} microsteps without ending ({}); abandoned it{}", if event.is_empty() { "on eventless transitions".to_owned() } else { format!("last event `{event}`") }, if cycle.is_empty() { String::new() } else { format!("; it went round the transitions {}", cycle.join(", ")) })]
    MacrostepLimit {
        /// The chart's name.
        chart: String,
        /// How many microsteps ran.
        microsteps: usize,
        /// The name of the event being processed (empty for eventless transitions).
        event: String,
        /// The transitions the last microsteps went round (the first transition of each
        /// microstep), as `source → targets (file:line)`, starting with the one first in
        /// document order; empty when they did not repeat with a period of up to 32.
        cycle: Vec<String>,
    },
    /// One call processed [`Machine::set_max_steps_per_call`](super::Machine::set_max_steps_per_call)
    /// units of work and work remained: a chart that keeps sending itself events. The call
    /// returned; the queued events wait for the next one.
    #[error("{chart}: one call processed {steps} events and {queued} are still queued (a chart that keeps sending itself events?); returning to the caller")]
    StepLimit {
        /// The chart's name.
        chart: String,
        /// How many units of work the call did.
        steps: usize,
        /// External events still queued.
        queued: usize,
    },
    /// An event was submitted to a machine that has stopped (it reached a top-level
    /// `<final>`, or [`Machine::stop`](super::Machine::stop) was called); it was dropped.
    /// [`Machine::start`](super::Machine::start) starts the machine afresh.
    #[error("{chart}: event `{event}` dropped: the machine has stopped ({}); start() starts it afresh", match final_state { Some(f) => format!("it reached the top-level final state `{f}`"), None => "stop() was called".to_owned() })]
    NotRunning {
        /// The chart's name.
        chart: String,
        /// The dropped event's name.
        event: String,
        /// The top-level `<final>` that stopped it, if one did.
        final_state: Option<String>,
    },
    /// An event was submitted with data that does not fit the payload type the chart gives
    /// its name (`<rs:event type>`, or the typed `<param>`s of its `<send>`s); it was dropped.
    #[error("{chart}: event `{event}` dropped: {reason}")]
    EventData {
        /// The chart's name.
        chart: String,
        /// The event's name.
        event: String,
        /// Why its data does not fit.
        reason: String,
    },
    /// Executable content failed; `error.execution` was raised.
    #[error("{file}:{line}:{column}: error.execution in <{element}>: {message}")]
    Execution {
        /// The chart's file name.
        file: String,
        /// 1-based chart line of the failing element.
        line: u32,
        /// 1-based column of the failing element (0 when only the line is known: conditions,
        /// `<data>` and `<donedata>` expressions).
        column: u32,
        /// The failing element (`log`, `assign`, ..., `transition` for a `cond`, `data`).
        element: String,
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
