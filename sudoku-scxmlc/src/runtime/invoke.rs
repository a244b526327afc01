//! Invoked child sessions (SCXML 1.0, section 6.4): `<invoke>` of an SCXML chart that was
//! compiled at build time along with its parent.
//!
//! A child runs in the same thread as its parent, on the parent's machine clock. The parent
//! holds each child as a type-erased [`Session`]: it starts the child when the invoking state
//! was entered at the end of a macrostep (Appendix D `mainEventLoop`), hands it the events sent
//! to `#_<invokeid>` (and, with `autoforward`, every external event it processes), runs it
//! whenever the parent is otherwise idle, and turns what the child sends to `#_parent` into
//! external events of the parent. When the child reaches a top-level final state the parent
//! receives `done.invoke.<invokeid>` with the child's `<donedata>`; when the invoking state is
//! exited first, the child is cancelled and sends nothing more.

use super::envelope::{ChartEvent, Envelope};
use super::interpreter::Interpreter;
use super::time::Route;
use super::{Chart, Event, EventKind, StateIndex};
use serde_json::Value;
use std::fmt;
use std::time::Duration;

/// A running invoked session, as its parent sees it. Implemented by the interpreter of every
/// compiled chart; generated code only creates one with [`spawn`].
#[doc(hidden)]
pub trait Session {
    /// Starts the session at machine time `now` with `params` (an object of initial values
    /// for `<data>` items of the same names; other names are ignored), invoked by the session
    /// `parent_session`.
    fn start(&mut self, now: Duration, params: Value, parent_session: &str);
    /// The session id (`_sessionid`).
    fn session_id(&self) -> &str;
    /// Queues an external event.
    fn deliver(&mut self, event: Event);
    /// Processes queued events (and runs the session's own children) until idle. Returns
    /// whether it did anything.
    fn run(&mut self) -> bool;
    /// Moves the events sent to `#_parent` into `out`.
    fn take_outgoing(&mut self, out: &mut Vec<Event>);
    /// Whether the session still runs (it has not reached a top-level final state).
    fn is_running(&self) -> bool;
    /// The `<donedata>` of the top-level final state that stopped it (`Null` without one).
    fn done_data(&self) -> Value;
    /// The earliest pending delayed event of the session and its descendants.
    fn next_deadline(&self) -> Option<Duration>;
    /// Fires the earliest pending delayed event of the session and its descendants if it is
    /// due at or before `limit`, after setting their machine time to its deadline. Returns
    /// whether one fired.
    fn fire_next(&mut self, limit: Duration) -> bool;
    /// Sets the machine time of the session and its descendants.
    fn set_now(&mut self, now: Duration);
    /// The ids of the active states, in document order.
    fn active_state_ids(&self) -> Vec<&'static str>;
}

/// What the generated start function of an `<invoke>` returns: the invoke id and the child,
/// not yet started.
#[doc(hidden)]
pub struct InvokeStart {
    /// The `id` attribute, or the generated `stateid.N` id.
    pub id: String,
    /// The child session.
    pub session: Box<dyn Session>,
    /// The child's initial values from `namelist` and `<param>`.
    pub params: Value,
}

/// Creates a session of chart `C` invoked as `invoke_id`. Called by generated code.
#[doc(hidden)]
pub fn spawn<C: Chart>(invoke_id: &str) -> Box<dyn Session> {
    let mut interpreter = Interpreter::new(C::tables(), C::new_data());
    interpreter.generated = C::STEP;
    interpreter.ctx.invoke_id = Some(invoke_id.to_owned());
    Box::new(interpreter)
}

/// The key a `srcexpr` or `<content expr>` value selects a chart by: a string value as it
/// is, anything else as its JSON text.
#[doc(hidden)]
pub fn selector_text(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// Checks the `type` of an `<invoke>` (SCXML 1.0, 6.4.1): only SCXML children exist.
///
/// # Errors
/// Any other type; the caller raises `error.execution` and does not invoke.
#[doc(hidden)]
pub fn check_invoke_type(type_: Option<&str>) -> Result<(), super::ExecError> {
    match type_ {
        None
        | Some("scxml")
        | Some("http://www.w3.org/TR/scxml/")
        | Some("http://www.w3.org/TR/scxml") => Ok(()),
        Some(other) => Err(super::ExecError::new(format!(
            "<invoke> type `{other}` is not supported (only SCXML children, \
             `http://www.w3.org/TR/scxml/`)"
        ))),
    }
}

/// One invoked child held by its parent's context.
pub(crate) struct Child {
    /// The invoke id.
    pub(crate) id: String,
    /// The invoking state.
    pub(crate) state: StateIndex,
    /// Index into the parent's [`Tables::invokes`](super::Tables::invokes).
    pub(crate) invoke: u32,
    pub(crate) session: Box<dyn Session>,
    /// The child stopped and `done.invoke.<id>` is queued: the child stays until that event
    /// is processed, so `<finalize>` still runs for the events it sent before.
    pub(crate) finished: bool,
}

impl fmt::Debug for Child {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Child")
            .field("id", &self.id)
            .field("state", &self.state)
            .field("running", &self.session.is_running())
            .finish()
    }
}

impl<D: 'static, E: ChartEvent> Session for Interpreter<D, E> {
    fn start(&mut self, now: Duration, params: Value, parent_session: &str) {
        self.ctx.now = now;
        self.ctx.parent_session = Some(parent_session.to_owned());
        if let Value::Object(map) = params {
            let ids: Vec<&str> = self.tables.data.iter().map(|d| d.id).collect();
            self.initial_values
                .extend(map.into_iter().filter(|(k, _)| ids.contains(&k.as_str())));
        }
        Interpreter::start(self);
    }

    fn session_id(&self) -> &str {
        self.ctx.session_id()
    }

    fn deliver(&mut self, event: Event) {
        if self.running {
            let event = self.ctx.envelope(event);
            self.ctx.external.push_back(event);
        }
    }

    fn run(&mut self) -> bool {
        let mut did = false;
        while self.running {
            if let Some(event) = self.ctx.external.pop_front() {
                self.process_external(event);
            } else if !self.pump_children() {
                break;
            }
            did = true;
        }
        did
    }

    fn take_outgoing(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.ctx.to_parent);
    }

    fn is_running(&self) -> bool {
        self.running
    }

    fn done_data(&self) -> Value {
        self.done_data.clone()
    }

    fn next_deadline(&self) -> Option<Duration> {
        if self.running {
            self.next_deadline_tree()
        } else {
            None
        }
    }

    fn fire_next(&mut self, limit: Duration) -> bool {
        self.running && self.fire_next_due(limit)
    }

    fn set_now(&mut self, now: Duration) {
        self.ctx.now = now;
        for c in &mut self.ctx.children {
            c.session.set_now(now);
        }
    }

    fn active_state_ids(&self) -> Vec<&'static str> {
        let states = self.tables.states;
        self.ctx
            .configuration
            .iter()
            .map(|s| states[s as usize].id)
            .collect()
    }
}

impl<D: 'static, E: ChartEvent> Interpreter<D, E> {
    /// The earliest pending delayed event here or in an invoked descendant.
    pub(crate) fn next_deadline_tree(&self) -> Option<Duration> {
        let own = self.ctx.timers.next_deadline();
        self.ctx
            .children
            .iter()
            .filter_map(|c| c.session.next_deadline())
            .chain(own)
            .min()
    }

    /// Fires the earliest delayed event of this session or a descendant if due by `limit`,
    /// routing it to its queue; machine time of the whole tree becomes its deadline.
    pub(crate) fn fire_next_due(&mut self, limit: Duration) -> bool {
        let Some(deadline) = self.next_deadline_tree() else {
            return false;
        };
        if deadline > limit {
            return false;
        }
        let now = self.ctx.now.max(deadline);
        self.ctx.now = now;
        for c in &mut self.ctx.children {
            c.session.set_now(now);
        }
        if self.ctx.timers.next_deadline() == Some(deadline) {
            if let Some((_, route, event)) = self.ctx.timers.pop_due(deadline) {
                self.route(route, event);
            }
            return true;
        }
        for c in &mut self.ctx.children {
            if c.session.next_deadline() == Some(deadline) {
                return c.session.fire_next(deadline);
            }
        }
        false
    }

    /// Delivers a delayed event that fired.
    fn route(&mut self, route: Route, event: Envelope<E>) {
        match route {
            Route::Own => self.ctx.external.push_back(event),
            Route::Parent => {
                let event = event.to_event(self.ctx.session_id());
                self.ctx.to_parent.push(event);
            }
            Route::Child(id) => match self
                .ctx
                .children
                .iter()
                .position(|c| c.id == id && !c.finished)
            {
                Some(i) => {
                    let event = match event {
                        Envelope::Dynamic(e) => *e,
                        typed => typed.to_event(self.ctx.session_id()),
                    };
                    self.ctx.children[i].session.deliver(event);
                }
                None => self.ctx.raise_platform(
                    "error.communication",
                    Value::String(format!("invoked session `{id}` is gone")),
                ),
            },
        }
    }

    /// Runs every child until idle and moves what they sent to `#_parent` (and their
    /// `done.invoke.<id>` events) to this session's external queue. Returns whether anything
    /// happened.
    pub(crate) fn pump_children(&mut self) -> bool {
        let mut did = false;
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.ctx.children.len() {
            let child = &mut self.ctx.children[i];
            if child.finished {
                i += 1;
                continue;
            }
            did |= child.session.run();
            child.session.take_outgoing(&mut out);
            did |= !out.is_empty();
            for event in out.drain(..) {
                let event = super::envelope::typed_or_plain(event, self.tables.name);
                self.ctx.external.push_back(event);
            }
            i += 1;
            if child.session.is_running() {
                continue;
            }
            child.finished = true;
            let done = Event {
                invokeid: Some(child.id.clone()),
                ..Event::with_kind(
                    format!("done.invoke.{}", child.id),
                    EventKind::External,
                    child.session.done_data(),
                )
            };
            let done = super::envelope::typed_or_plain(done, self.tables.name);
            self.ctx.external.push_back(done);
            did = true;
        }
        did
    }
}
