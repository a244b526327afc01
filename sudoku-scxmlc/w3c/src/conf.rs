//! What the rewritten tests' Rust expressions call: the Rust side of the `conf:` vocabulary
//! (see `build/rewrite.rs`). Test variables are `serde_json::Value`s; these helpers give them
//! the ECMAScript meaning the tests were written for.

use serde_json::Value;
use sudoku_scxmlc::runtime::{Event, ExecError};

/// Any serializable value as a JSON value (`Null` if it does not serialize).
pub fn json(v: impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// ECMAScript's `a + b`: the sum when both are numbers, otherwise the concatenation of their
/// texts (see [`text`]).
pub fn add(a: &Value, b: impl Into<Value>) -> Value {
    let b = b.into();
    match (a, &b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => Value::from(x.wrapping_add(y)),
            _ => Value::from(num(a) + num(&b)),
        },
        _ => Value::String(text(a) + &text(&b)),
    }
}

/// A value as a number: numbers as they are, numeric strings parsed, anything else NaN.
pub fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => s.trim().parse().unwrap_or(f64::NAN),
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => f64::NAN,
    }
}

/// A value as text: a string's contents, `""` for null, JSON for anything else.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// ECMAScript truthiness: `null`, `false`, `0`, NaN and `""` are false.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// An expression that cannot be evaluated (`conf:illegalExpr`, `conf:nonBoolean`): always
/// `Err`, which the machine turns into `error.execution`.
///
/// # Errors
/// Always.
pub fn illegal() -> Result<Value, ExecError> {
    Err(ExecError::new(
        "conf:illegalExpr: an expression that cannot be evaluated",
    ))
}

/// A condition that cannot be evaluated as a boolean (`conf:nonBoolean`): always `Err`.
///
/// # Errors
/// Always.
pub fn non_boolean() -> Result<bool, ExecError> {
    Err(ExecError::new(
        "conf:nonBoolean: a condition that is not a boolean",
    ))
}

/// `_event` as a JSON object with the fields of SCXML 1.0, section 5.10.1.
pub fn event_value(e: &Event) -> Value {
    json(e)
}

/// One field of `_event` (`name`, `type`, `sendid`, `origin`, `origintype`, `invokeid`,
/// `data`) as a value; `Null` when the field has no value.
pub fn event_field(e: &Event, field: &str) -> Value {
    let opt = |v: &Option<String>| v.clone().map_or(Value::Null, Value::String);
    match field {
        "name" => Value::String(e.name.clone()),
        "type" => json(e.kind),
        "sendid" => opt(&e.sendid),
        "origin" => opt(&e.origin),
        "origintype" => opt(&e.origintype),
        "invokeid" => opt(&e.invokeid),
        "data" => e.data.clone(),
        _ => Value::Null,
    }
}

/// Whether `_event` holds an event: before the first event it is the empty default.
pub fn is_bound(e: &Event) -> bool {
    !e.name.is_empty()
}

/// `conf:eventFieldsAreBound`: every field of SCXML 1.0, 5.10.1 is present on `_event`. In
/// Rust they are fields of [`Event`], so they always are; this checks that the serialized
/// form (what a chart sees through [`event_value`]) has the two that are always set.
pub fn fields_bound(e: &Event) -> bool {
    let v = event_value(e);
    ["name", "type"].iter().all(|k| v.get(k).is_some())
}
