//! Events and event descriptors (SCXML 1.0, sections 3.12 and 5.10.1).

use super::ExecError;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::Value;

/// Where an event came from: the `_event.type` field of SCXML 1.0, section 5.10.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    /// Raised by the platform itself (`done.state.*`, `error.*`).
    Platform,
    /// Raised with `<raise>` or `<send target="#_internal">`.
    Internal,
    /// Everything else: `submit_event`, `<send>`, delayed sends.
    #[default]
    External,
}

/// An SCXML event: what `_event` holds while its transitions run, and what
/// `connect_to_event` observers receive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Event {
    /// The event name, e.g. `done.state.game` or `tap`.
    pub name: String,
    /// Platform, internal or external.
    #[serde(rename = "type")]
    pub kind: EventKind,
    /// The payload: for `<send>` an object built from `namelist` and `<param>`, for
    /// `submit_event` whatever the caller passed, `Null` when there is none.
    pub data: Value,
    /// The `id` (or generated id) of the `<send>` that produced this event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sendid: Option<String>,
    /// The URI to reply to, when the event came through an event I/O processor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The type of the I/O processor the event came through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origintype: Option<String>,
    /// The id of the invocation that sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invokeid: Option<String>,
}

impl Event {
    /// An external event with a name and a payload.
    pub fn new(name: impl Into<String>, data: impl Into<Value>) -> Self {
        Event {
            name: name.into(),
            kind: EventKind::External,
            data: data.into(),
            ..Event::default()
        }
    }

    /// An event of the given kind with a name and a payload.
    pub fn with_kind(name: impl Into<String>, kind: EventKind, data: impl Into<Value>) -> Self {
        Event {
            kind,
            ..Event::new(name, data)
        }
    }

    /// Reads the field `key` of an object payload and deserializes it.
    ///
    /// # Errors
    /// When the payload has no such field or it does not deserialize into `T`; inside chart
    /// code the `?` operator turns that into `error.execution`.
    pub fn param<T: DeserializeOwned>(&self, key: &str) -> Result<T, ExecError> {
        let value = self.data.get(key).ok_or_else(|| {
            ExecError::new(format!("event `{}` has no data field `{key}`", self.name))
        })?;
        T::deserialize(value).map_err(|e| {
            ExecError::new(format!(
                "event `{}`: data field `{key}` has the wrong shape: {e}",
                self.name
            ))
        })
    }

    /// Whether this event's name matches an event descriptor list such as `"error.* tap"`
    /// (SCXML 1.0, section 3.12.1).
    pub fn matches(&self, descriptors: &str) -> bool {
        descriptors
            .split_ascii_whitespace()
            .any(|d| descriptor_matches(normalize_descriptor(d), &self.name))
    }
}

/// Strips the optional `.*` or `.` suffix of one event descriptor: `error.*` and `error.`
/// both become `error`. `*` stays `*`, and `.*` (the wildcard suffix on an empty prefix, as
/// W3C test 311 writes it) becomes `*`.
pub fn normalize_descriptor(descriptor: &str) -> &str {
    if descriptor == "*" {
        return descriptor;
    }
    let d = descriptor.strip_suffix(".*").unwrap_or(descriptor);
    let d = d.strip_suffix('.').unwrap_or(d);
    if d.is_empty() {
        "*"
    } else {
        d
    }
}

/// Whether one normalized descriptor matches an event name (SCXML 1.0, section 3.12.1):
/// `*` matches everything; otherwise the descriptor's tokens must be a prefix of the name's
/// tokens, so `error` matches `error` and `error.execution` but not `errors`.
pub fn descriptor_matches(descriptor: &str, name: &str) -> bool {
    if descriptor == "*" {
        return true;
    }
    match name.strip_prefix(descriptor) {
        Some(rest) => rest.is_empty() || rest.starts_with('.'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_match_on_token_boundaries() {
        let cases = [
            ("*", "anything", true),
            ("error", "error", true),
            ("error", "error.execution", true),
            ("error", "errors", false),
            ("error.execution", "error", false),
            ("a.b", "a.b.c", true),
            ("a.b", "a.bc", false),
        ];
        for (d, n, want) in cases {
            assert_eq!(descriptor_matches(d, n), want, "{d} vs {n}");
        }
    }

    #[test]
    fn normalize_strips_wildcard_suffixes() {
        assert_eq!(normalize_descriptor("error.*"), "error");
        assert_eq!(normalize_descriptor("error."), "error");
        assert_eq!(normalize_descriptor("*"), "*");
        assert_eq!(normalize_descriptor(".*"), "*");
        assert_eq!(normalize_descriptor("tap"), "tap");
    }

    #[test]
    fn event_matches_descriptor_lists() {
        let e = Event::new("done.state.game", Value::Null);
        assert!(e.matches("tap done.state"));
        assert!(e.matches("done.*"));
        assert!(!e.matches("tap undo"));
    }

    #[test]
    fn param_reads_typed_fields() {
        let e = Event::new("tap", serde_json::json!({"x": 3, "y": 4}));
        assert_eq!(e.param::<i32>("x").unwrap(), 3);
        assert!(e.param::<i32>("z").is_err());
        assert!(e.param::<String>("x").is_err());
    }
}
