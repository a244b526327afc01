//! The [`Context`]: what generated executable content and conditions see of the running
//! machine besides its datamodel — `_event`, `In()`, `_name`, `_sessionid`, the event queues,
//! `<raise>`, `<send>`, `<cancel>` and `<log>`.

use super::envelope::{ChartEvent, Envelope, Meta, Origin, SendId, TypedEvent, Untyped};
use super::invoke::Child;
use super::state_set::StateSet;
use super::time::{Route, Timers};
use super::{Event, EventKind, ExecError, StateIndex, StateInfo};
use serde_json::Value;
use std::cell::OnceCell;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The type URI of the SCXML event I/O processor (SCXML 1.0, appendix C.1).
pub(crate) const SCXML_PROCESSOR: &str = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor";

static NEXT_SESSION: AtomicU64 = AtomicU64::new(1);

/// A `<send>` after its attributes and children were evaluated (SCXML 1.0, section 6.2).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SendRequest {
    /// The event name (`event` / `eventexpr`).
    pub event: String,
    /// `target` / `targetexpr`; `None` sends to this machine's external queue.
    pub target: Option<String>,
    /// `type` / `typeexpr`; `None`, `"scxml"` and the SCXML processor URI are supported.
    pub type_: Option<String>,
    /// The `id` attribute; `None` makes [`Context::send`] generate one.
    pub id: Option<String>,
    /// `delay` / `delayexpr`, already parsed (see [`parse_delay`](super::parse_delay)).
    pub delay: Duration,
    /// The payload built from `namelist`, `<param>` and `<content>`; `Null` when there is none.
    pub data: Value,
    /// Whether the event carries a generated send id in `_event.sendid` (the `<send>` has
    /// `idlocation`). Without `id` or `idlocation` the field stays blank (SCXML 1.0, 5.10.1).
    pub expose_generated_id: bool,
}

/// Where a typed `<send>` goes (the targets the generator resolves at build time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypedTarget {
    /// No `target`: this session's external queue.
    Own,
    /// `target="#_internal"`.
    Internal,
}

/// The run-time state that executable content reaches besides the datamodel.
///
/// Generated conditions receive `&Context<Event>`, generated blocks `&mut Context<Event>`,
/// where `Event` is the chart's generated event type.
#[derive(Debug)]
pub struct Context<E = Untyped> {
    pub(crate) states: &'static [StateInfo],
    pub(crate) configuration: StateSet,
    pub(crate) internal: VecDeque<Envelope<E>>,
    pub(crate) external: VecDeque<Envelope<E>>,
    pub(crate) timers: Timers<E>,
    /// `_event`.
    pub(crate) event: Envelope<E>,
    /// `_event` as a plain [`Event`], made when chart code first asks for it.
    event_view: OnceCell<Event>,
    /// How many times `_event` was replaced ([`Context::event_serial`]).
    event_serial: u64,
    pub(crate) now: Duration,
    name: &'static str,
    session_id: String,
    pub(crate) next_send_id: u64,
    ids: OnceCell<HashMap<&'static str, StateIndex>>,
    io_processors: OnceCell<Value>,
    /// When this session was invoked: its invoke id.
    pub(crate) invoke_id: Option<String>,
    /// When this session was invoked: the invoking session's id.
    pub(crate) parent_session: Option<String>,
    /// Events sent to `#_parent`, collected by the parent.
    pub(crate) to_parent: Vec<Event>,
    /// The sessions this one invoked, in invocation order.
    pub(crate) children: Vec<Child>,
    next_invoke_id: u64,
    /// `<log>` records for log observers, when some are connected.
    pub(crate) logs: Option<Vec<(String, Value)>>,
}

impl<E: ChartEvent> Context<E> {
    /// A context for a chart called `name` with the given states; nothing active, no events.
    pub(crate) fn new(name: &'static str, states: &'static [StateInfo]) -> Self {
        let session = NEXT_SESSION.fetch_add(1, Ordering::Relaxed);
        Context {
            states,
            configuration: StateSet::with_capacity(states.len()),
            internal: VecDeque::new(),
            external: VecDeque::new(),
            timers: Timers::default(),
            event: Envelope::default(),
            event_view: OnceCell::new(),
            event_serial: 0,
            now: Duration::ZERO,
            name,
            session_id: format!("sudoku-scxmlc-{session}"),
            next_send_id: 1,
            ids: OnceCell::new(),
            io_processors: OnceCell::new(),
            invoke_id: None,
            parent_session: None,
            to_parent: Vec::new(),
            children: Vec::new(),
            next_invoke_id: 1,
            logs: None,
        }
    }

    /// `_event` (SCXML 1.0, section 5.10.1): the event being processed, with its data as
    /// JSON (made on first use for a typed event). Before the first event, and while
    /// eventless transitions run at start-up, it is [`Event::default()`].
    pub fn event(&self) -> &Event {
        match &self.event {
            Envelope::Dynamic(e) => e,
            Envelope::Empty => &super::envelope::NO_EVENT,
            typed => self
                .event_view
                .get_or_init(|| typed.to_event(&self.session_id)),
        }
    }

    /// A number that changes whenever `_event` becomes another event (0 before the first):
    /// a datamodel that mirrors `_event` (the ECMAScript one) rebuilds its copy only then.
    pub fn event_serial(&self) -> u64 {
        self.event_serial
    }

    /// `_event` as the machine holds it: typed, for an event of the chart's names.
    pub fn current(&self) -> &Envelope<E> {
        &self.event
    }

    /// `_event` in a transition whose events carry `T`: `pick` finds the payload in the
    /// typed event.
    ///
    /// # Errors
    /// When the event is not of such a name (a longer name matched by prefix, or one that
    /// arrived untyped).
    pub fn typed_event<T>(
        &self,
        pick: impl FnOnce(&E) -> Option<&T>,
    ) -> Result<TypedEvent<'_, T>, ExecError> {
        if let Envelope::Typed(e, meta) = &self.event {
            if let Some(data) = pick(e) {
                return Ok(TypedEvent::new(e.name(), data, meta));
            }
        }
        Err(ExecError::new(format!(
            "event `{}` does not carry the data this transition's events are declared with",
            self.event.name()
        )))
    }

    /// Makes `event` the current `_event`.
    #[inline]
    pub(crate) fn set_event(&mut self, event: Envelope<E>) {
        drop(self.replace_event(event));
    }

    /// Makes `event` the current `_event` and returns the previous one.
    #[inline]
    pub(crate) fn replace_event(&mut self, event: Envelope<E>) -> Envelope<E> {
        if self.event_view.get().is_some() {
            self.event_view = OnceCell::new();
        }
        self.event_serial = self.event_serial.wrapping_add(1);
        std::mem::replace(&mut self.event, event)
    }

    /// `In(state)` for a state the generator resolved at build time (SCXML 1.0, 5.9.1):
    /// whether `state` is in the active configuration. The root is never reported active.
    pub fn is_in(&self, state: StateIndex) -> bool {
        self.configuration.contains(state)
    }

    /// `In("id")` with an id known only at run time: whether the state with that id is
    /// active. An unknown id is `false`.
    pub fn is_in_id(&self, id: &str) -> bool {
        let ids = self.ids.get_or_init(|| {
            self.states
                .iter()
                .enumerate()
                .map(|(i, s)| (s.id, i as StateIndex))
                .collect()
        });
        ids.get(id).is_some_and(|&i| self.is_in(i))
    }

    /// `_name` (SCXML 1.0, section 5.10): the chart's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// `_sessionid` (SCXML 1.0, section 5.10): unique per machine in this process, of the
    /// shape `sudoku-scxmlc-N`.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// `_ioprocessors` (SCXML 1.0, section 5.10): one entry per event I/O processor, keyed by
    /// its type URI and by its short name, each an object whose `location` is the address
    /// other sessions send to. Only the SCXML event I/O processor exists:
    /// `{"http://www.w3.org/TR/scxml/#SCXMLEventProcessor": {"location": "#_scxml_<session id>"},
    /// "scxml": {...the same}}`.
    pub fn io_processors(&self) -> &Value {
        self.io_processors.get_or_init(|| {
            let entry = serde_json::json!({ "location": format!("#_scxml_{}", self.session_id) });
            serde_json::json!({ SCXML_PROCESSOR: entry.clone(), "scxml": entry })
        })
    }

    /// The machine time: how long the machine has run, as advanced by
    /// [`Machine::advance_time`](super::Machine::advance_time).
    pub fn now(&self) -> Duration {
        self.now
    }

    /// An event of this chart typed, if its name is one of the chart's (and its data fits;
    /// otherwise it stays as it is, and chart code that expects the type reports it).
    pub(crate) fn envelope(&self, event: Event) -> Envelope<E> {
        super::envelope::typed_or_plain(event, self.name)
    }

    /// `<raise>` (SCXML 1.0, section 4.2): appends an internal event to the internal queue.
    pub fn raise(&mut self, name: &str, data: Value) {
        let event = self.envelope(Event::with_kind(name, EventKind::Internal, data));
        self.internal.push_back(event);
    }

    /// `<raise>` of a typed event.
    #[inline]
    pub fn raise_typed(&mut self, event: E) {
        self.internal
            .push_back(Envelope::Typed(event, Meta::of(EventKind::Internal)));
    }

    /// Appends a platform event (`error.*`, `done.*`) to the internal queue.
    pub(crate) fn raise_platform(&mut self, name: impl Into<String>, data: Value) {
        let event = self.envelope(Event::with_kind(name, EventKind::Platform, data));
        self.internal.push_back(event);
    }

    /// `<send>` of a typed event to this session (SCXML 1.0, 6.2): what [`send`](Self::send)
    /// does for a target of `None` or `#_internal`, without JSON. `id` is the `<send id>`;
    /// returns the send id (`SendId::Generated` when the `<send>` has none).
    ///
    /// # Errors
    /// A delayed send to `#_internal`.
    pub fn send_typed(
        &mut self,
        event: E,
        target: TypedTarget,
        id: Option<&'static str>,
        delay: Duration,
        expose_generated_id: bool,
    ) -> Result<SendId, ExecError> {
        let id = match id {
            Some(id) => SendId::Static(id),
            None => {
                let n = self.next_send_id;
                self.next_send_id += 1;
                SendId::Generated(n)
            }
        };
        let explicit = matches!(id, SendId::Static(_));
        let meta = |kind| Meta {
            kind,
            sendid: if explicit || expose_generated_id {
                id.clone()
            } else {
                SendId::None
            },
            origin: Origin::OwnSession,
            invokeid: None,
        };
        match target {
            TypedTarget::Internal => {
                if !delay.is_zero() {
                    return Err(ExecError::new(
                        "<send target=\"#_internal\"> cannot be delayed",
                    ));
                }
                self.internal
                    .push_back(Envelope::Typed(event, meta(EventKind::Internal)));
            }
            TypedTarget::Own => {
                let event = Envelope::Typed(event, meta(EventKind::External));
                if delay.is_zero() {
                    self.external.push_back(event);
                } else {
                    let due = self.now.saturating_add(delay);
                    self.timers.schedule_to(due, Route::Own, event);
                }
            }
        }
        Ok(id)
    }
    /// `<send>` (SCXML 1.0, section 6.2, with the SCXML event I/O processor of appendix C.1).
    ///
    /// Returns the send id: `request.id`, or a generated `send-N` unique in this machine
    /// (what `idlocation` stores). Targets:
    /// * `None` or `#_scxml_<own session id>`: this machine's external queue, after `delay`
    ///   (a delayed event waits in the timer queue until machine time reaches it). The event
    ///   has kind external, `origintype` the SCXML processor URI and `origin`
    ///   `#_scxml_<session id>`.
    /// * `#_internal`: the internal queue, immediately.
    /// * `#_parent` (in an invoked session): the invoking session's external queue, with
    ///   `invokeid` set to this session's invoke id.
    /// * `#_<invokeid>`: the external queue of the session this one invoked with that id.
    /// * `#_scxml_<session id>` of the invoking session or of one this session invoked (what
    ///   `_event.origin` holds): that session.
    /// * any other `#_...` target: no such session is reachable, so `error.communication` is
    ///   raised on the internal queue (with `sendid` set) and the call still returns `Ok`. A
    ///   delayed send to `#_<invokeid>` is checked when it fires.
    ///
    /// The event's `sendid` is `request.id`, or the generated id when
    /// `request.expose_generated_id` (the `<send>` has `idlocation`), blank otherwise.
    ///
    /// # Errors
    /// An unsupported `type` (anything but `None`, `"scxml"` or
    /// `http://www.w3.org/TR/scxml/#SCXMLEventProcessor`), a target that is not of the form
    /// `#_...`, a delayed send to `#_internal`, or an empty event name; the caller turns it
    /// into `error.execution` (SCXML 1.0, 6.2.4).
    pub fn send(&mut self, request: SendRequest) -> Result<String, ExecError> {
        let SendRequest {
            event,
            target,
            type_,
            id,
            delay,
            data,
            expose_generated_id,
        } = request;
        match type_.as_deref() {
            None | Some("scxml") | Some(SCXML_PROCESSOR) => {}
            Some(other) => {
                return Err(ExecError::new(format!(
                    "<send> type `{other}` is not supported (only the SCXML event processor)"
                )))
            }
        }
        if event.is_empty() {
            return Err(ExecError::new("<send> needs a non-empty event name"));
        }
        let explicit = id.is_some();
        let id = id.unwrap_or_else(|| {
            let n = self.next_send_id;
            self.next_send_id += 1;
            format!("send-{n}")
        });
        let sendid = (explicit || expose_generated_id).then(|| id.clone());
        let origin = format!("#_scxml_{}", self.session_id);
        let route = match target.as_deref() {
            None => Route::Own,
            Some(t) if t == origin => Route::Own,
            Some("#_internal") => {
                if !delay.is_zero() {
                    return Err(ExecError::new(
                        "<send target=\"#_internal\"> cannot be delayed",
                    ));
                }
                let event = self.typed_or_refused(Event {
                    sendid,
                    origin: Some(origin),
                    origintype: Some(SCXML_PROCESSOR.to_owned()),
                    ..Event::with_kind(event, EventKind::Internal, data)
                })?;
                self.internal.push_back(event);
                return Ok(id);
            }
            Some("#_parent") if self.invoke_id.is_some() => Route::Parent,
            Some(t) if t.starts_with("#_scxml_") => {
                // Another session by its id (what `_event.origin` holds): the invoking
                // session or one this session invoked.
                let session = &t["#_scxml_".len()..];
                if self.parent_session.as_deref() == Some(session) {
                    Route::Parent
                } else if let Some(c) = self
                    .children
                    .iter()
                    .find(|c| !c.finished && c.session.session_id() == session)
                {
                    Route::Child(c.id.clone())
                } else {
                    return Ok(self.unreachable(t, id));
                }
            }
            Some(t) if t.starts_with("#_") && t != "#_parent" => {
                // `#_<invokeid>`: a delayed event finds its session when it fires (the
                // invocation may start later in this macrostep).
                let child = &t["#_".len()..];
                if delay.is_zero() && !self.children.iter().any(|c| c.id == child && !c.finished) {
                    return Ok(self.unreachable(t, id));
                }
                Route::Child(child.to_owned())
            }
            Some(other) if !other.starts_with("#_") => {
                // SCXML 1.0, 6.2.4: a target the SCXML event I/O processor does not support
                // is an `error.execution`.
                return Err(ExecError::new(format!(
                    "<send> target `{other}` is not a target of the SCXML event I/O processor \
                     (`#_internal`, `#_parent`, `#_scxml_SESSIONID` or `#_INVOKEID`)"
                )));
            }
            Some(other) => return Ok(self.unreachable(other, id)),
        };
        let event = Event {
            sendid,
            origin: Some(origin),
            origintype: Some(SCXML_PROCESSOR.to_owned()),
            invokeid: if route == Route::Parent {
                self.invoke_id.clone()
            } else {
                None
            },
            ..Event::with_kind(event, EventKind::External, data)
        };
        if !delay.is_zero() {
            let due = self.now.saturating_add(delay);
            let event = match route {
                Route::Own => self.typed_or_refused(event)?,
                _ => Envelope::Dynamic(Box::new(event)),
            };
            self.timers.schedule_to(due, route, event);
            return Ok(id);
        }
        match route {
            Route::Own => {
                let event = self.typed_or_refused(event)?;
                self.external.push_back(event);
            }
            Route::Parent => self.to_parent.push(event),
            Route::Child(child) => {
                if let Some(c) = self.children.iter_mut().find(|c| c.id == child) {
                    c.session.deliver(event);
                }
            }
        }
        Ok(id)
    }

    /// `event` typed for this session's queues.
    ///
    /// # Errors
    /// Its data does not fit the payload type the chart gives its name.
    fn typed_or_refused(&self, event: Event) -> Result<Envelope<E>, ExecError> {
        Envelope::from_event(event)
            .map_err(|r| ExecError::new(format!("<send> of `{}`: {}", r.name, r.reason)))
    }

    /// `error.communication` for a target no session answers to (SCXML 1.0, 6.2.4); the
    /// send itself succeeds and returns its id.
    fn unreachable(&mut self, target: &str, id: String) -> String {
        tracing::debug!(chart = self.name, target, "<send> to an unreachable target");
        let event = self.envelope(Event {
            sendid: Some(id.clone()),
            ..Event::with_kind(
                "error.communication",
                EventKind::Platform,
                Value::String(format!("<send> target `{target}` is not reachable")),
            )
        });
        self.internal.push_back(event);
        id
    }

    /// A new invoke id for an `<invoke>` of `state` without `id` (SCXML 1.0, 6.4.1): of the
    /// form `stateid.N`, unique in this session.
    pub fn generate_invoke_id(&mut self, state: &str) -> String {
        let n = self.next_invoke_id;
        self.next_invoke_id += 1;
        format!("{state}.{n}")
    }

    /// `<cancel>` (SCXML 1.0, section 6.3): drops the pending delayed sends with this id.
    /// Unknown or already delivered ids are ignored.
    pub fn cancel(&mut self, sendid: &str) {
        self.timers.cancel(sendid);
    }

    /// `<log>` (SCXML 1.0, section 4.6): an `info` record with target `scxml` and the fields
    /// `chart`, `label` and `value`.
    /// Log observers (`connect_to_log`) hear it after the macrostep.
    pub fn log(&mut self, label: &str, value: &Value) {
        tracing::info!(target: "scxml", chart = self.name, label, value = %value);
        if let Some(logs) = &mut self.logs {
            logs.push((label.to_owned(), value.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::StateKind;

    static STATES: [StateInfo; 2] = [
        StateInfo {
            id: "__root",
            kind: StateKind::Root,
            parent: crate::runtime::NO_STATE,
            descendants_end: 2,
            children: &[1],
            initial: None,
            transitions: &[],
            onentry: &[],
            onexit: &[],
            donedata: None,
            history: &[],
            line: 1,
        },
        StateInfo {
            id: "a",
            kind: StateKind::Atomic,
            parent: 0,
            descendants_end: 2,
            children: &[],
            initial: None,
            transitions: &[],
            onentry: &[],
            onexit: &[],
            donedata: None,
            history: &[],
            line: 2,
        },
    ];

    fn plain(e: &Envelope<Untyped>) -> &Event {
        match e {
            Envelope::Dynamic(e) => e,
            Envelope::Typed(e, _) => match *e {},
            Envelope::Empty => panic!("no event"),
        }
    }

    fn ctx() -> Context {
        Context::<Untyped>::new("test", &STATES)
    }

    fn req(event: &str) -> SendRequest {
        SendRequest {
            event: event.to_owned(),
            ..SendRequest::default()
        }
    }

    #[test]
    fn session_ids_are_unique_and_event_starts_empty() {
        let (a, b) = (ctx(), ctx());
        assert_ne!(a.session_id(), b.session_id());
        assert!(a.session_id().starts_with("sudoku-scxmlc-"));
        assert_eq!(a.event(), &Event::default());
        assert_eq!(a.name(), "test");
        assert_eq!(a.now(), Duration::ZERO);
    }

    #[test]
    fn in_by_index_and_id() {
        let mut c = ctx();
        assert!(!c.is_in(1) && !c.is_in_id("a"));
        c.configuration.insert(1);
        assert!(c.is_in(1) && c.is_in_id("a"));
        assert!(!c.is_in_id("nope"));
    }

    #[test]
    fn raise_goes_to_the_internal_queue() {
        let mut c = ctx();
        c.raise("go", Value::from(3));
        let Some(Envelope::Dynamic(e)) = c.internal.pop_front() else {
            panic!()
        };
        assert_eq!(
            (e.name.as_str(), e.kind, e.data),
            ("go", EventKind::Internal, Value::from(3))
        );
        assert_eq!(e.sendid, None);
    }

    #[test]
    fn send_to_self_sets_the_origin_fields_and_generates_ids() {
        let mut c = ctx();
        let id1 = c.send(req("a")).unwrap();
        let id2 = c
            .send(SendRequest {
                target: Some(format!("#_scxml_{}", c.session_id())),
                type_: Some("scxml".into()),
                ..req("b")
            })
            .unwrap();
        let id3 = c
            .send(SendRequest {
                id: Some("mine".into()),
                type_: Some(SCXML_PROCESSOR.into()),
                ..req("c")
            })
            .unwrap();
        assert_eq!(
            (id1.as_str(), id2.as_str(), id3.as_str()),
            ("send-1", "send-2", "mine")
        );
        let names: Vec<_> = c.external.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let e = plain(&c.external[0]);
        assert_eq!(e.kind, EventKind::External);
        // Neither `id` nor `idlocation`: `_event.sendid` stays blank (SCXML 1.0, 5.10.1).
        assert_eq!(e.sendid, None);
        assert_eq!(plain(&c.external[2]).sendid.as_deref(), Some("mine"));
        assert_eq!(e.origintype.as_deref(), Some(SCXML_PROCESSOR));
        assert_eq!(e.origin, Some(format!("#_scxml_{}", c.session_id())));
        assert!(c.internal.is_empty());
    }

    #[test]
    fn send_to_internal_and_unreachable_targets() {
        let mut c = ctx();
        c.send(SendRequest {
            target: Some("#_internal".into()),
            data: Value::from("x"),
            ..req("i")
        })
        .unwrap();
        let id = c
            .send(SendRequest {
                target: Some("#_scxml_someone-else".into()),
                ..req("lost")
            })
            .unwrap();
        let i = c.internal.pop_front().unwrap();
        let i = plain(&i).clone();
        assert_eq!((i.name.as_str(), i.kind), ("i", EventKind::Internal));
        let err = c.internal.pop_front().unwrap();
        let err = plain(&err).clone();
        assert_eq!(err.name, "error.communication");
        assert_eq!(err.kind, EventKind::Platform);
        assert_eq!(err.sendid, Some(id));
        assert!(c.external.is_empty());
    }

    #[test]
    fn send_errors() {
        let mut c = ctx();
        assert!(c
            .send(SendRequest {
                type_: Some("http://example.com/basichttp".into()),
                ..req("a")
            })
            .is_err());
        assert!(c
            .send(SendRequest {
                target: Some("#_internal".into()),
                delay: Duration::from_millis(1),
                ..req("a")
            })
            .is_err());
        assert!(c.send(req("")).is_err());
        assert!(c.internal.is_empty() && c.external.is_empty());
    }

    #[test]
    fn delayed_sends_wait_in_timers_and_cancel_removes_them() {
        let mut c = ctx();
        c.now = Duration::from_millis(5);
        let id = c
            .send(SendRequest {
                delay: Duration::from_millis(10),
                expose_generated_id: true, // as with `idlocation`
                ..req("later")
            })
            .unwrap();
        c.send(SendRequest {
            delay: Duration::from_millis(20),
            id: Some("keep".into()),
            ..req("later2")
        })
        .unwrap();
        assert!(c.external.is_empty());
        assert_eq!(c.timers.next_deadline(), Some(Duration::from_millis(15)));
        c.cancel(&id);
        c.cancel("unknown");
        assert_eq!(c.timers.next_deadline(), Some(Duration::from_millis(25)));
    }
}
