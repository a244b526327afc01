//! Events as the machine holds them: typed where the chart says what they carry, as JSON
//! only where nothing does.
//!
//! A chart compiled by `sudoku-scxmlc` has a generated `enum Event` with one variant per
//! event name it uses ([`ChartEvent`]). Every event of one of those names travels through
//! the queues, the timers and `_event` as that enum ([`Envelope::Typed`]), with its payload
//! as a Rust value; any other name travels as a plain [`Event`] ([`Envelope::Dynamic`]).
//! JSON is produced only when someone asks for it: chart code reading the untyped
//! `_event`, an observer connected by descriptor string, a `<send>` to another session, a
//! snapshot. The other fields of SCXML 1.0, 5.10.1 (`sendid`, `origin`, ...) are kept in
//! [`Meta`] in a form that needs no formatting.

use super::{Event, EventKind};
use serde_json::Value;

/// A `<param>` value as the field type of a typed payload: the value itself, or a clone of
/// what a reference points to (chart code binds data items as references). Generated code
/// calls it; `T` is the field's type.
pub trait IntoPayload<T> {
    /// The value as a `T`.
    fn into_payload(self) -> T;
}

impl<T> IntoPayload<T> for T {
    #[inline]
    fn into_payload(self) -> T {
        self
    }
}

impl<T: Clone> IntoPayload<T> for &T {
    #[inline]
    fn into_payload(self) -> T {
        self.clone()
    }
}

/// What [`Machine::submit`](super::Machine::submit) takes: the chart's typed `Event`
/// (generated code implements this for it), or a plain [`Event`] with any name.
pub trait Submission<E> {
    /// The event as the machine holds it.
    ///
    /// # Errors
    /// A plain event whose data does not fit the payload type the chart gives its name.
    fn into_envelope(self) -> Result<Envelope<E>, Refused>;

    /// The event as the chart's typed event with nothing besides (no send id, origin or
    /// invoke id), when it is one (the generated `Event` always is); `Err` gives it back.
    /// The machine's fast paths take such an event without building an [`Envelope`].
    #[doc(hidden)]
    #[inline(always)]
    fn into_typed(self) -> Result<E, Self>
    where
        Self: Sized,
    {
        Err(self)
    }
}

impl<E: ChartEvent> Submission<E> for Event {
    fn into_envelope(self) -> Result<Envelope<E>, Refused> {
        Envelope::from_event(self)
    }
}

/// An event whose data does not fit the payload type the chart gives its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The event's name.
    pub name: String,
    /// Why its data does not fit.
    pub reason: String,
}

/// The typed events of a compiled chart: the generated `enum Event` implements it.
pub trait ChartEvent: Sized + 'static {
    /// The event's name, as the chart spells it (`"updateGUI"`).
    fn name(&self) -> &'static str;

    /// The event called `name` with the JSON payload `data`, as this type
    /// ([`Conversion::Typed`]); [`Conversion::Untyped`] (with `data` given back) when the
    /// chart has no event of that name; [`Conversion::Invalid`] (why) when `data` does not
    /// fit the payload type the chart gives the name.
    fn from_json(name: &str, data: Value) -> Conversion<Self>;

    /// The payload as JSON, as the string API, snapshots and other sessions see it
    /// (`Null` for an event that carries nothing).
    ///
    /// # Errors
    /// When the payload does not serialize.
    fn to_json(&self) -> Result<Value, serde_json::Error>;

    /// [`to_json`](Self::to_json) written over `out`, reusing its allocations where it
    /// can (see [`to_value_into`](super::to_value_into)): observers by descriptor hear
    /// event after event through one reused [`Event`]. The default assigns `to_json`'s
    /// value.
    ///
    /// # Errors
    /// When the payload does not serialize (`out` then holds some JSON value).
    fn to_json_into(&self, out: &mut Value) -> Result<(), serde_json::Error> {
        *out = self.to_json()?;
        Ok(())
    }

    /// Whether the event carries nothing (a payload-free variant, or JSON `null`).
    fn is_plain(&self) -> bool;

    /// The payload, when it is JSON already (an event the chart gives no Rust type), so that
    /// `_event` reads it without a copy; `None` (the default) for a typed payload.
    fn json_payload(&self) -> Option<&Value> {
        None
    }

    /// [`json_payload`](Self::json_payload), mutable: observers are lent the payload (moved
    /// out and back) instead of a copy.
    fn json_payload_mut(&mut self) -> Option<&mut Value> {
        None
    }
}

/// What [`ChartEvent::from_json`] made of a name and its JSON payload.
#[derive(Debug)]
pub enum Conversion<E> {
    /// An event of the chart, typed.
    Typed(E),
    /// Not a name of the chart: the payload, given back.
    Untyped(Value),
    /// A name of the chart whose payload does not fit its type: why.
    Invalid(String),
}

/// The event type of a chart without typed events (hand-written tables): every event is a
/// plain [`Event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untyped {}

impl ChartEvent for Untyped {
    fn name(&self) -> &'static str {
        match *self {}
    }
    fn from_json(_: &str, data: Value) -> Conversion<Self> {
        Conversion::Untyped(data)
    }
    fn to_json(&self) -> Result<Value, serde_json::Error> {
        match *self {}
    }
    fn is_plain(&self) -> bool {
        match *self {}
    }
}

/// The `sendid` of an event (SCXML 1.0, 5.10.1), formatted only when read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SendId {
    /// Blank: not sent by a `<send>` with `id` or `idlocation`.
    #[default]
    None,
    /// The `id` attribute of the `<send>`.
    Static(&'static str),
    /// A generated id, `send-N`.
    Generated(u64),
    /// Any other id.
    Text(Box<str>),
}

impl SendId {
    /// The id as text.
    pub fn text(&self) -> Option<String> {
        match self {
            SendId::None => None,
            SendId::Static(s) => Some((*s).to_owned()),
            SendId::Generated(n) => Some(format!("send-{n}")),
            SendId::Text(s) => Some(s.to_string()),
        }
    }

    /// Whether the id is `id` (for `<cancel>`), without formatting it.
    pub fn is(&self, id: &str) -> bool {
        match self {
            SendId::None => false,
            SendId::Static(s) => *s == id,
            SendId::Text(s) => &**s == id,
            SendId::Generated(n) => id.strip_prefix("send-").is_some_and(|digits| {
                (digits == "0" || !digits.starts_with('0'))
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && digits.parse::<u64>() == Ok(*n)
            }),
        }
    }

    fn from_text(id: Option<String>) -> Self {
        id.map_or(SendId::None, |id| SendId::Text(id.into_boxed_str()))
    }
}

/// Where an event came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Origin {
    /// Nowhere in particular (submitted by the host, raised).
    #[default]
    None,
    /// This session's own `<send>`: `origin` is `#_scxml_<session id>` and `origintype` the
    /// SCXML event I/O processor.
    OwnSession,
    /// Given as text: `origin` and `origintype` (boxed: rare, and events stay small).
    Text(Box<(Option<String>, Option<String>)>),
}

/// The fields of an event besides its name and data (SCXML 1.0, 5.10.1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Meta {
    /// `_event.type`.
    pub kind: EventKind,
    /// `_event.sendid`.
    pub sendid: SendId,
    /// `_event.origin` and `_event.origintype`.
    pub origin: Origin,
    /// `_event.invokeid`.
    pub invokeid: Option<Box<str>>,
}

impl Meta {
    /// The metadata of a plain event of `kind`.
    pub const fn of(kind: EventKind) -> Self {
        Meta {
            kind,
            sendid: SendId::None,
            origin: Origin::None,
            invokeid: None,
        }
    }
}

/// One event as the machine holds it.
#[derive(Debug, Clone)]
pub enum Envelope<E> {
    /// An event of the chart's names, typed.
    Typed(E, Meta),
    /// Any other event (boxed, so that typed events stay small to move).
    Dynamic(Box<Event>),
    /// No event: `_event` before the first one (as [`Event::default`]).
    Empty,
}

/// `_event` before the first event.
pub(crate) static NO_EVENT: Event = Event {
    name: String::new(),
    kind: EventKind::External,
    data: Value::Null,
    sendid: None,
    origin: None,
    origintype: None,
    invokeid: None,
};

impl<E: ChartEvent> Envelope<E> {
    /// `event` typed when its name is one of the chart's.
    ///
    /// # Errors
    /// Its data does not fit the payload type the chart gives its name.
    pub fn from_event(event: Event) -> Result<Self, Refused> {
        let Event {
            name,
            kind,
            data,
            sendid,
            origin,
            origintype,
            invokeid,
        } = event;
        match E::from_json(&name, data) {
            Conversion::Typed(e) => {
                let origin = if origin.is_none() && origintype.is_none() {
                    Origin::None
                } else {
                    Origin::Text(Box::new((origin, origintype)))
                };
                Ok(Envelope::Typed(
                    e,
                    Meta {
                        kind,
                        sendid: SendId::from_text(sendid),
                        origin,
                        invokeid: invokeid.map(String::into_boxed_str),
                    },
                ))
            }
            Conversion::Untyped(data) => Ok(Envelope::Dynamic(Box::new(Event {
                name,
                kind,
                data,
                sendid,
                origin,
                origintype,
                invokeid,
            }))),
            Conversion::Invalid(reason) => Err(Refused { name, reason }),
        }
    }

    /// The event's name.
    #[inline]
    pub fn name(&self) -> &str {
        match self {
            Envelope::Typed(e, _) => e.name(),
            Envelope::Dynamic(e) => &e.name,
            Envelope::Empty => "",
        }
    }

    /// `_event.type`.
    pub fn kind(&self) -> EventKind {
        match self {
            Envelope::Typed(_, m) => m.kind,
            Envelope::Dynamic(e) => e.kind,
            Envelope::Empty => EventKind::External,
        }
    }

    /// `_event.sendid`, without formatting: whether it is `id`.
    pub fn has_sendid(&self, id: &str) -> bool {
        match self {
            Envelope::Typed(_, m) => m.sendid.is(id),
            Envelope::Dynamic(e) => e.sendid.as_deref() == Some(id),
            Envelope::Empty => false,
        }
    }

    /// `_event.invokeid`.
    pub fn invokeid(&self) -> Option<&str> {
        match self {
            Envelope::Typed(_, m) => m.invokeid.as_deref(),
            Envelope::Dynamic(e) => e.invokeid.as_deref(),
            Envelope::Empty => None,
        }
    }

    /// The typed event, if it is one.
    #[inline]
    pub fn typed(&self) -> Option<&E> {
        match self {
            Envelope::Typed(e, _) => Some(e),
            Envelope::Dynamic(_) | Envelope::Empty => None,
        }
    }

    /// The data as JSON, borrowed, when the envelope holds it as JSON (a plain event, or a
    /// typed one whose payload is JSON).
    pub fn json_data(&self) -> Option<&Value> {
        match self {
            Envelope::Dynamic(e) => Some(&e.data),
            Envelope::Typed(e, _) => e.json_payload(),
            Envelope::Empty => None,
        }
    }

    /// [`to_event`](Self::to_event) without copying a JSON payload: it is moved into the
    /// returned event, and [`restore_lent`](Self::restore_lent) must give it back before the
    /// envelope is read again (observers hear the event this way).
    pub fn lend_event(&mut self, session: &str) -> Event {
        let mut out = Event::default();
        self.lend_event_into(session, &mut out);
        out
    }

    /// [`lend_event`](Self::lend_event) written over `out`, reusing its allocations (the
    /// name's, the JSON's: a typed payload is serialized into the data `out` holds,
    /// [`ChartEvent::to_json_into`]); [`restore_lent_from`](Self::restore_lent_from) must
    /// give the payload back before the envelope is read again. A machine keeps one such
    /// event for its observers by descriptor, so that a payload of the same shape as the
    /// last one's allocates nothing.
    pub fn lend_event_into(&mut self, session: &str, out: &mut Event) {
        let data = match self {
            Envelope::Dynamic(e) => return std::mem::swap(&mut **e, out),
            Envelope::Typed(e, _) => e.json_payload_mut().map(std::mem::take),
            Envelope::Empty => None,
        };
        match data {
            Some(data) => {
                self.meta_into(session, out);
                out.data = data;
            }
            None => self.to_event_into(session, out),
        }
    }

    /// Takes back the payload [`lend_event`](Self::lend_event) lent.
    pub fn restore_lent(&mut self, mut event: Event) {
        self.restore_lent_from(&mut event);
    }

    /// Takes back the payload [`lend_event_into`](Self::lend_event_into) lent to `out`.
    /// What is left in `out` (its allocations) may be written over by the next
    /// `lend_event_into`.
    pub fn restore_lent_from(&mut self, out: &mut Event) {
        match self {
            Envelope::Dynamic(e) => std::mem::swap(&mut **e, out),
            Envelope::Typed(e, _) => {
                if let Some(v) = e.json_payload_mut() {
                    *v = std::mem::take(&mut out.data);
                }
            }
            Envelope::Empty => {}
        }
    }

    /// The event as a plain [`Event`], its data as JSON; `session` is this session's id (for
    /// `origin`). A payload that does not serialize becomes `null` (and is logged).
    pub fn to_event(&self, session: &str) -> Event {
        match self {
            Envelope::Typed(e, _) => {
                let data = e.to_json().unwrap_or_else(|err| {
                    tracing::warn!(event = e.name(), "event data does not serialize: {err}");
                    Value::Null
                });
                self.to_event_with(session, data)
            }
            _ => self.to_event_with(session, Value::Null),
        }
    }

    /// [`to_event`](Self::to_event) written over `out`, reusing its allocations: its name's
    /// and its data's (a typed payload is serialized into the JSON `out` holds,
    /// [`ChartEvent::to_json_into`]). A payload that does not serialize becomes `null` (and
    /// is logged).
    pub fn to_event_into(&self, session: &str, out: &mut Event) {
        match self {
            Envelope::Typed(e, _) => {
                self.meta_into(session, out);
                if let Err(err) = e.to_json_into(&mut out.data) {
                    tracing::warn!(event = e.name(), "event data does not serialize: {err}");
                    out.data = Value::Null;
                }
            }
            Envelope::Dynamic(e) => out.clone_from(e),
            Envelope::Empty => *out = Event::default(),
        }
    }

    /// The event as a plain [`Event`] with `data` as its data (for a typed envelope; others
    /// keep theirs).
    fn to_event_with(&self, session: &str, data: Value) -> Event {
        match self {
            Envelope::Dynamic(e) => e.as_ref().clone(),
            Envelope::Empty => Event::default(),
            Envelope::Typed(..) => {
                let mut out = Event {
                    data,
                    ..Event::default()
                };
                self.meta_into(session, &mut out);
                out
            }
        }
    }

    /// Writes a typed envelope's name and metadata over `out`'s (reusing the name's buffer);
    /// `out.data` is left as it is. Does nothing for the other envelopes.
    fn meta_into(&self, session: &str, out: &mut Event) {
        let Envelope::Typed(e, meta) = self else {
            return;
        };
        out.name.clear();
        out.name.push_str(e.name());
        out.kind = meta.kind;
        out.sendid = meta.sendid.text();
        match &meta.origin {
            Origin::None => (out.origin, out.origintype) = (None, None),
            Origin::OwnSession => {
                // Written over the last event's text: the observers' copy of every
                // self-sent event has it.
                put(&mut out.origin, &["#_scxml_", session]);
                put(&mut out.origintype, &[super::context::SCXML_PROCESSOR]);
            }
            Origin::Text(text) => (out.origin, out.origintype) = text.as_ref().clone(),
        }
        out.invokeid = meta.invokeid.as_deref().map(str::to_owned);
    }
}

/// Sets `slot` to the concatenation of `parts`, reusing the string it holds.
fn put(slot: &mut Option<String>, parts: &[&str]) {
    let text = slot.get_or_insert_with(String::new);
    text.clear();
    for part in parts {
        text.push_str(part);
    }
}

/// The external event `name` with JSON `data`, typed when the name is one of the chart's.
///
/// # Errors
/// Why `data` does not fit the payload type the chart gives `name`.
pub(crate) fn external<E: ChartEvent>(name: &str, data: Value) -> Result<Envelope<E>, String> {
    match E::from_json(name, data) {
        Conversion::Typed(e) => Ok(Envelope::Typed(e, Meta::of(EventKind::External))),
        Conversion::Untyped(data) => Ok(Envelope::Dynamic(Box::new(Event::new(name, data)))),
        Conversion::Invalid(why) => Err(why),
    }
}

/// `event` typed if its name is one of the chart's and its data fits; otherwise as it is
/// (with its data dropped and a warning logged when the data does not fit: chart code that
/// expects the type then reports it).
pub(crate) fn typed_or_plain<E: ChartEvent>(event: Event, chart: &str) -> Envelope<E> {
    let (name, kind) = (event.name.clone(), event.kind);
    match Envelope::from_event(event) {
        Ok(e) => e,
        Err(refused) => {
            tracing::warn!(chart, event = name.as_str(), "{}", refused.reason);
            Envelope::Dynamic(Box::new(Event::with_kind(name, kind, Value::Null)))
        }
    }
}

#[allow(
    clippy::derivable_impls,
    reason = "a derive would require `E: Default`"
)]
impl<E> Default for Envelope<E> {
    fn default() -> Self {
        Envelope::Empty
    }
}

/// `_event` in chart code of a transition whose events all carry one declared type `T`:
/// `_event.data` is that Rust value, borrowed.
#[derive(Debug)]
pub struct TypedEvent<'e, T> {
    /// The event's name.
    pub name: &'static str,
    /// `_event.type`.
    pub kind: EventKind,
    /// The payload.
    pub data: &'e T,
    meta: &'e Meta,
}

impl<'e, T> TypedEvent<'e, T> {
    /// A view of a typed event's payload `data` with its name and metadata.
    pub fn new(name: &'static str, data: &'e T, meta: &'e Meta) -> Self {
        TypedEvent {
            name,
            kind: meta.kind,
            data,
            meta,
        }
    }

    /// `_event.sendid`.
    pub fn sendid(&self) -> Option<String> {
        self.meta.sendid.text()
    }

    /// `_event.invokeid`.
    pub fn invokeid(&self) -> Option<&str> {
        self.meta.invokeid.as_deref()
    }
}

/// Whether `meta` is that of an external event submitted by the host (no send id, origin or
/// invoke id): the only kind the lane takes, as it does not keep the metadata.
#[inline(always)]
pub(crate) fn is_plain_external(meta: &Meta) -> bool {
    matches!(
        meta,
        Meta {
            kind: EventKind::External,
            sendid: SendId::None,
            origin: Origin::None,
            invokeid: None,
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_send_ids_compare_without_formatting() {
        let id = SendId::Generated(12);
        assert!(id.is("send-12"));
        assert!(!id.is("send-012"));
        assert!(!id.is("send-1"));
        assert!(!id.is("12"));
        assert_eq!(id.text().as_deref(), Some("send-12"));
        assert!(SendId::Static("tick").is("tick"));
        assert!(!SendId::None.is(""));
    }

    #[test]
    fn untyped_charts_keep_every_event_dynamic() {
        let e = Envelope::<Untyped>::from_event(Event::new("go", 3)).unwrap();
        assert_eq!(e.name(), "go");
        assert!(e.typed().is_none());
        assert_eq!(e.to_event("s").data, Value::from(3));
    }

    /// A chart event whose payload is JSON, as generated code makes it.
    #[derive(Debug, Clone, PartialEq)]
    struct Grid(Value);

    impl ChartEvent for Grid {
        fn name(&self) -> &'static str {
            "grid"
        }
        fn from_json(_: &str, data: Value) -> Conversion<Self> {
            Conversion::Typed(Grid(data))
        }
        fn to_json(&self) -> Result<Value, serde_json::Error> {
            Ok(self.0.clone())
        }
        fn is_plain(&self) -> bool {
            self.0.is_null()
        }
        fn json_payload(&self) -> Option<&Value> {
            Some(&self.0)
        }
        fn json_payload_mut(&mut self) -> Option<&mut Value> {
            Some(&mut self.0)
        }
    }

    #[test]
    fn json_payloads_are_lent_and_given_back() {
        let data = serde_json::json!([[1, 2], [3, 4]]);
        let mut typed = Envelope::Typed(
            Grid(data.clone()),
            Meta {
                sendid: SendId::Generated(7),
                ..Meta::of(EventKind::External)
            },
        );
        assert_eq!(typed.json_data(), Some(&data));
        let lent = typed.lend_event("s");
        assert_eq!((lent.name.as_str(), &lent.data), ("grid", &data));
        assert_eq!(lent.sendid.as_deref(), Some("send-7"));
        // Moved out, not copied, while lent.
        assert_eq!(typed.json_data(), Some(&Value::Null));
        typed.restore_lent(lent);
        assert_eq!(typed.typed(), Some(&Grid(data.clone())));

        let mut plain = Envelope::<Grid>::Dynamic(Box::new(Event::new("other", data.clone())));
        let lent = plain.lend_event("s");
        assert_eq!(lent.data, data);
        plain.restore_lent(lent);
        assert_eq!(plain.to_event("s").data, data);
    }
}
