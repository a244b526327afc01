//! The ECMAScript values and operators that SCION charts use, over [`serde_json::Value`].
//!
//! `build/ecmascript.rs` translates a chart's ECMAScript into rust-datamodel code that calls
//! these functions: every `<data>` without `rs:type` is a `Value` field, every ECMAScript
//! expression becomes an owned `Value` (or a `bool` for comparisons), and the operators keep
//! ECMAScript's meaning (`+` concatenates when either side is a string, `===` compares numbers
//! by value, `undefined` and `null` are both `Value::Null`). A failing expression (an unknown
//! identifier, a syntax error) is an [`ExecError`], which the machine turns into
//! `error.execution`.

pub use sudoku_scxmlc::runtime::serde_json::Value;
use sudoku_scxmlc::runtime::serde_json::{Map, Number};
pub use sudoku_scxmlc::runtime::{Event, ExecError};

/// The result of a translated ECMAScript function.
pub type JsResult = Result<Value, ExecError>;

/// Fails with `message` (`ReferenceError: y is not defined`): what a translated expression
/// that ECMAScript would reject at run time evaluates to.
///
/// # Errors
/// Always.
pub fn throw(message: &str) -> JsResult {
    Err(ExecError::new(message))
}

/// A number as a value: integral numbers become JSON integers, so `2 * 50 === 100` and
/// `x=100` prints without a fraction.
pub fn num(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        // In range and integral, so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(n as i64);
    }
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// ECMAScript `ToNumber` (`NaN` for what is not a number).
pub fn to_number(v: &Value) -> f64 {
    match v {
        Value::Null => f64::NAN,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => {
            let s = s.trim();
            if s.is_empty() {
                0.0
            } else {
                s.parse().unwrap_or(f64::NAN)
            }
        }
        Value::Array(_) | Value::Object(_) => f64::NAN,
    }
}

/// ECMAScript `ToString`.
pub fn to_string(v: &Value) -> String {
    match v {
        Value::Null => "undefined".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{f:.0}"),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(to_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_owned(),
    }
}

/// ECMAScript truthiness (`ToBoolean`).
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// `a + b`: string concatenation when either side is a string, else numeric addition.
pub fn add(a: &Value, b: &Value) -> Value {
    if a.is_string() || b.is_string() || a.is_object() || b.is_object() {
        Value::String(to_string(a) + &to_string(b))
    } else {
        num(to_number(a) + to_number(b))
    }
}

/// `a - b`.
pub fn sub(a: &Value, b: &Value) -> Value {
    num(to_number(a) - to_number(b))
}

/// `a * b`.
pub fn mul(a: &Value, b: &Value) -> Value {
    num(to_number(a) * to_number(b))
}

/// `a / b`.
pub fn div(a: &Value, b: &Value) -> Value {
    num(to_number(a) / to_number(b))
}

/// `a % b`.
pub fn rem(a: &Value, b: &Value) -> Value {
    num(to_number(a) % to_number(b))
}

/// `-a`.
pub fn neg(a: &Value) -> Value {
    num(-to_number(a))
}

/// `Math.pow(a, b)`.
pub fn pow(a: &Value, b: &Value) -> Value {
    num(to_number(a).powf(to_number(b)))
}

/// `a === b`: numbers by value, strings and booleans by content, objects and arrays by
/// content (ECMAScript compares them by identity, which JSON values do not have).
pub fn strict_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => to_number(a) == to_number(b),
        _ => a == b,
    }
}

/// `a == b`: [`strict_eq`], or equal after `ToNumber` when one side is a number or boolean.
pub fn loose_eq(a: &Value, b: &Value) -> bool {
    if strict_eq(a, b) {
        return true;
    }
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Number(_) | Value::Bool(_), _) | (_, Value::Number(_) | Value::Bool(_)) => {
            to_number(a) == to_number(b)
        }
        _ => false,
    }
}

/// `a < b`: strings compare as strings, anything else as numbers.
pub fn lt(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x < y,
        _ => to_number(a) < to_number(b),
    }
}

/// `a <= b`.
pub fn le(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x <= y,
        _ => to_number(a) <= to_number(b),
    }
}

/// `a > b`.
pub fn gt(a: &Value, b: &Value) -> bool {
    lt(b, a)
}

/// `a >= b`.
pub fn ge(a: &Value, b: &Value) -> bool {
    le(b, a)
}

/// `typeof a` (`undefined` for `null` too: the two are one value here).
pub fn type_of(a: &Value) -> Value {
    Value::from(match a {
        Value::Null => "undefined",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) | Value::Object(_) => "object",
    })
}

/// `isNaN(a)`.
pub fn is_nan(a: &Value) -> bool {
    to_number(a).is_nan()
}

/// `a.key`: an object's property, a string's or array's `length`, else `undefined`.
///
/// # Errors
/// A property of `undefined`/`null`, a `TypeError` in ECMAScript.
pub fn get(a: &Value, key: &str) -> JsResult {
    Ok(match (a, key) {
        (Value::Null, _) => {
            return throw(&format!(
                "TypeError: cannot read property '{key}' of undefined"
            ))
        }
        (Value::Object(map), _) => map.get(key).cloned().unwrap_or(Value::Null),
        (Value::String(s), "length") => Value::from(s.encode_utf16().count()),
        (Value::Array(items), "length") => Value::from(items.len()),
        (Value::Array(items), _) => key
            .parse::<usize>()
            .ok()
            .and_then(|i| items.get(i).cloned())
            .unwrap_or(Value::Null),
        _ => Value::Null,
    })
}

/// `a[key]`.
///
/// # Errors
/// As [`get`].
pub fn index(a: &Value, key: &Value) -> JsResult {
    get(a, &to_string(key))
}

/// An object literal `{k: v, ...}`.
pub fn object<'a>(entries: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect::<Map<_, _>>(),
    )
}

/// An array literal `[a, b, ...]`.
pub fn array(items: Vec<Value>) -> Value {
    Value::Array(items)
}

/// `_event` as an ECMAScript object (`name`, `type`, `data`, `sendid`, ...).
///
/// # Errors
/// None in practice: an [`Event`] always serializes.
pub fn event(e: &Event) -> JsResult {
    Ok(sudoku_scxmlc::runtime::serde_json::to_value(e)?)
}

/// `JSON.stringify(a)` (`undefined` stays `undefined`).
pub fn stringify(a: &Value) -> Value {
    match a {
        Value::Null => Value::Null,
        _ => Value::String(a.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_scxmlc::runtime::serde_json::json;

    #[test]
    fn arithmetic_keeps_integers_integral() {
        assert_eq!(add(&json!(99), &json!(1)), json!(100));
        assert_eq!(mul(&json!(100), &json!(2)), json!(200));
        assert_eq!(div(&json!(1), &json!(2)), json!(0.5));
        assert_eq!(pow(&json!(2), &json!(3)), json!(8));
        assert_eq!(neg(&json!(1)), json!(-1));
    }

    #[test]
    fn plus_concatenates_strings() {
        assert_eq!(add(&json!("b, x:"), &json!(6)), json!("b, x:6"));
        assert_eq!(add(&json!(1), &json!("a")), json!("1a"));
    }

    #[test]
    fn equality_and_order() {
        assert!(strict_eq(&json!(100), &json!(100.0)));
        assert!(!strict_eq(&json!(1), &json!("1")));
        assert!(loose_eq(&json!(1), &json!("1")));
        assert!(!strict_eq(&Value::Null, &json!(0)));
        assert!(lt(&json!(99), &json!(100)));
        assert!(!lt(&Value::Null, &json!(100)));
        assert!(lt(&json!("a"), &json!("b")));
    }

    #[test]
    fn truthiness_and_types() {
        assert!(!truthy(&json!(0)) && !truthy(&json!("")) && !truthy(&Value::Null));
        assert!(truthy(&json!({})) && truthy(&json!("0")));
        assert_eq!(type_of(&json!("s")), json!("string"));
        assert!(is_nan(&json!("x")) && !is_nan(&json!(3)));
    }

    #[test]
    fn member_access() {
        let o = object([("p1", json!("v1"))]);
        assert_eq!(get(&o, "p1").unwrap(), json!("v1"));
        assert_eq!(get(&o, "p2").unwrap(), Value::Null);
        assert_eq!(get(&json!("abc"), "length").unwrap(), json!(3));
        assert!(get(&Value::Null, "x").is_err());
        assert_eq!(to_string(&json!(100.0)), "100");
    }
}
