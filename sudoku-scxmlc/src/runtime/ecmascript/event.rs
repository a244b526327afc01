//! `_event` (SCXML 1.0, 5.10.1) as an ECMAScript object: made from the envelope of the event
//! being processed, with QuickJS's own calls (one prototype holding the fields that may have no
//! value, atoms for the field names, shapes kept alive between events).

use super::{engine, to_js, ChartEvent, Context, Envelope, EventKind, ExecError};
use rquickjs::{qjs, Ctx, Value as JsValue};
use serde_json::Value;

/// What every `_event` is made from: the atoms of its field names ([`EVENT_FIELDS`]) and its
/// prototype ([`event_proto`]).
pub(super) struct EventTemplate<'js> {
    pub(super) atoms: [qjs::JSAtom; 7],
    pub(super) types: [qjs::JSAtom; 3],
    pub(super) proto: JsValue<'js>,
}

/// The names of the fields of `_event` (SCXML 1.0, 5.10.1), in the order [`event_object`]
/// sets them.
pub(super) const EVENT_FIELDS: [&str; 7] = [
    "name",
    "type",
    "sendid",
    "origin",
    "origintype",
    "invokeid",
    "data",
];

/// The values of `_event.type` (SCXML 1.0, 5.10.1), in the order of [`EventKind`]'s
/// `Platform`, `Internal`, `External`.
pub(super) const EVENT_TYPES: [&str; 3] = ["platform", "internal", "external"];

/// The fields of `_event` read from the envelope, borrowing its JSON payload when it has one.
struct EventFields<'a> {
    name: &'a str,
    kind: EventKind,
    sendid: Option<std::borrow::Cow<'a, str>>,
    origin: Option<std::borrow::Cow<'a, str>>,
    origintype: Option<&'a str>,
    invokeid: Option<&'a str>,
    data: &'a Value,
}

impl<'a> EventFields<'a> {
    fn of<E: ChartEvent>(ctx: &'a Context<E>) -> Self {
        use crate::runtime::envelope::Origin;
        use std::borrow::Cow;
        if let Envelope::Typed(e, meta) = ctx.current() {
            if let Some(data) = e.json_payload() {
                let (origin, origintype) = match &meta.origin {
                    Origin::None => (None, None),
                    Origin::OwnSession => (
                        Some(Cow::Owned(format!("#_scxml_{}", ctx.session_id()))),
                        Some(crate::runtime::context::SCXML_PROCESSOR),
                    ),
                    Origin::Text(text) => (text.0.as_deref().map(Cow::Borrowed), text.1.as_deref()),
                };
                return EventFields {
                    name: e.name(),
                    kind: meta.kind,
                    sendid: meta.sendid.text().map(Cow::Owned),
                    origin,
                    origintype,
                    invokeid: meta.invokeid.as_deref(),
                    data,
                };
            }
        }
        let e = ctx.event();
        EventFields {
            name: &e.name,
            kind: e.kind,
            sendid: e.sendid.as_deref().map(Cow::Borrowed),
            origin: e.origin.as_deref().map(Cow::Borrowed),
            origintype: e.origintype.as_deref(),
            invokeid: e.invokeid.as_deref(),
            data: &e.data,
        }
    }
}

/// The prototype of every `_event`: the fields of SCXML 1.0, 5.10.1 that may have no value
/// (`sendid`, `origin`, `origintype`, `invokeid`, `data`), each `undefined`. An `_event` then
/// has own members only for the fields with a value (`name` and `type` always), as Qt's
/// datamodel makes it too, and every field is still there for `'sendid' in _event` and
/// `typeof _event.sendid` (`'undefined'`); a chart storing into a field of `_event` makes
/// it an own member of that object.
pub(super) fn event_proto<'js>(
    c: &Ctx<'js>,
    atoms: &[qjs::JSAtom; 7],
) -> rquickjs::Result<JsValue<'js>> {
    let p = c.as_raw().as_ptr();
    // SAFETY: `JS_NewObject` returns a new reference (or the exception marker).
    let object_proto = unsafe {
        let o = JsValue::from_raw(c.clone(), qjs::JS_NewObject(p));
        let proto = JsValue::from_raw(c.clone(), qjs::JS_GetPrototype(p, o.as_raw()));
        if proto.is_exception() {
            return Err(rquickjs::Error::Exception);
        }
        proto
    };
    let fields = atoms[2..]
        .iter()
        .map(|&a| (a, JsValue::new_undefined(c.clone())));
    new_object(c, &object_proto, fields)
}

/// `_event` as an object with the seven fields of SCXML 1.0, 5.10.1: own members for those
/// with a value, in the order of [`EVENT_FIELDS`], the others inherited `undefined` from
/// the template's prototype ([`event_proto`]).
pub(super) fn event_object<'js, E: ChartEvent>(
    c: &Ctx<'js>,
    ctx: &Context<E>,
    template: &EventTemplate<'js>,
) -> Result<JsValue<'js>, ExecError> {
    let e = EventFields::of(ctx);
    let kind = template.types[match e.kind {
        EventKind::Platform => 0,
        EventKind::Internal => 1,
        EventKind::External => 2,
    }];
    // SAFETY: `kind` is an atom of this runtime; the string is a new reference that
    // `from_raw` takes over.
    let kind =
        unsafe { JsValue::from_raw(c.clone(), qjs::JS_AtomToString(c.as_raw().as_ptr(), kind)) };
    if kind.is_exception() {
        return Err(engine(rquickjs::Error::Exception));
    }
    let text = |v: Option<&str>| -> rquickjs::Result<Option<JsValue<'js>>> {
        v.map(|s| Ok(rquickjs::String::from_str(c.clone(), s)?.into_value()))
            .transpose()
    };
    let data = match e.data {
        Value::Null => None,
        d => Some(to_js(c, d).map_err(engine)?),
    };
    let values = (|| -> rquickjs::Result<[Option<JsValue<'js>>; 7]> {
        Ok([
            text(Some(e.name))?,
            Some(kind),
            text(e.sendid.as_deref())?,
            text(e.origin.as_deref())?,
            text(e.origintype)?,
            text(e.invokeid)?,
            data,
        ])
    })()
    .map_err(engine)?;
    let own = template
        .atoms
        .iter()
        .zip(values)
        .filter_map(|(&a, v)| Some((a, v?)));
    new_object(c, &template.proto, own).map_err(engine)
}

/// A new plain object with the prototype `proto` (an object or `null`) and the members
/// `fields` (name atom, value), defined in order as writable, enumerable and configurable own
/// properties (as an object literal makes them).
pub(super) fn new_object<'js>(
    c: &Ctx<'js>,
    proto: &JsValue<'js>,
    fields: impl Iterator<Item = (qjs::JSAtom, JsValue<'js>)>,
) -> rquickjs::Result<JsValue<'js>> {
    let p = c.as_raw().as_ptr();
    // SAFETY: `JS_NewObject` returns a new reference (or the exception marker), which
    // `from_raw` takes over; `JS_DefinePropertyValue` takes over one reference of each value
    // (a new one: the iterator's drops its own). Defining own members skips the prototype
    // chain's lookup for setters that storing them would do.
    let object = unsafe { JsValue::from_raw(c.clone(), qjs::JS_NewObjectProto(p, proto.as_raw())) };
    if object.is_exception() {
        return Err(rquickjs::Error::Exception);
    }
    for (atom, v) in fields {
        let done = unsafe {
            qjs::JS_DefinePropertyValue(
                p,
                object.as_raw(),
                atom,
                qjs::JS_DupValue(p, v.as_raw()),
                qjs::JS_PROP_C_W_E as i32,
            )
        };
        if done < 0 {
            return Err(rquickjs::Error::Exception);
        }
    }
    Ok(object)
}
