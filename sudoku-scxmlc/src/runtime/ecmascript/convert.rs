//! Values between QuickJS and Rust: `serde_json::Value` ⇄ ECMAScript values.
//!
//! JSON `null` is ECMAScript `null`; `undefined`, functions and symbols become JSON `null`
//! (as `JSON.stringify` drops them); a number with no fractional part that fits in 53 bits
//! becomes a JSON integer, any other finite number a JSON float, `NaN` and the infinities
//! `null` (JSON has no such numbers). An XML value is `{"$xml": markup}` in JSON and a DOM
//! document in ECMAScript (see [`dom`](super::dom)).

use rquickjs::{qjs, Array, Ctx, Object, Type, Value as JsValue};
use serde_json::{Map, Number, Value};

/// Deepest nesting converted; a deeper (or cyclic) value is an error, not a stack overflow.
pub const MAX_DEPTH: usize = 256;

/// `value` as an ECMAScript value in `ctx`.
///
/// # Errors
/// When QuickJS cannot allocate.
pub fn to_js<'js>(ctx: &Ctx<'js>, value: &Value) -> rquickjs::Result<JsValue<'js>> {
    Ok(match value {
        Value::Null => JsValue::new_null(ctx.clone()),
        Value::Bool(b) => JsValue::new_bool(ctx.clone(), *b),
        Value::Number(n) => match n.as_i64() {
            Some(i) if i32::try_from(i).is_ok() => JsValue::new_int(ctx.clone(), i as i32),
            _ => JsValue::new_float(ctx.clone(), n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => rquickjs::String::from_str(ctx.clone(), s)?.into_value(),
        Value::Array(items) => {
            let array = Array::new(ctx.clone())?;
            for (i, item) in items.iter().enumerate() {
                array.set(i, to_js(ctx, item)?)?;
            }
            array.into_value()
        }
        Value::Object(map) => {
            if let Some(markup) = super::dom::xml_markup(map) {
                if let Some(document) = super::dom::document(ctx, markup)? {
                    return Ok(document);
                }
            }
            let object = Object::new(ctx.clone())?;
            for (k, v) in map {
                object.set(k.as_str(), to_js(ctx, v)?)?;
            }
            object.into_value()
        }
    })
}

/// `value` as JSON.
///
/// # Errors
/// A value nested deeper than [`MAX_DEPTH`] (a cycle, say), or a property QuickJS cannot
/// read (a getter that throws): the message says which.
pub fn to_json(value: &JsValue<'_>) -> Result<Value, String> {
    convert(value, 0)
}

fn convert(value: &JsValue<'_>, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "the value is nested deeper than {MAX_DEPTH} levels (or refers to itself)"
        ));
    }
    Ok(match value.type_of() {
        Type::Uninitialized | Type::Undefined | Type::Null => Value::Null,
        Type::Bool => Value::Bool(value.as_bool().unwrap_or(false)),
        Type::Int => Value::from(value.as_int().unwrap_or(0)),
        Type::Float => number(value.as_float().unwrap_or(f64::NAN)),
        Type::String => Value::String(
            value
                .as_string()
                .and_then(|s| s.to_string().ok())
                .unwrap_or_default(),
        ),
        Type::Array => {
            let array = value.as_array().ok_or("an array that is not an array")?;
            let len = array.len();
            let mut items = Vec::with_capacity(len);
            let ctx = value.ctx();
            for i in 0..len {
                // Elements are read raw, and numbers, booleans and null converted without a
                // rquickjs `Value` (which would count references to the context twice per
                // element): a grid of 81 numbers is read on every `<send>` of Qt's Sudoku.
                // SAFETY: `value` is a live array of `ctx`; JS_GetPropertyUint32 returns a new
                // reference (or the exception marker): a scalar holds no reference, anything
                // else is taken over by `from_raw`.
                let raw = unsafe {
                    qjs::JS_GetPropertyUint32(ctx.as_raw().as_ptr(), value.as_raw(), i as u32)
                };
                if let Some(v) = unsafe { scalar(raw) } {
                    items.push(v);
                    continue;
                }
                let item = unsafe { JsValue::from_raw(ctx.clone(), raw) };
                if item.is_exception() {
                    return Err(format!("element {i} could not be read (a getter threw)"));
                }
                items.push(convert(&item, depth + 1)?);
            }
            Value::Array(items)
        }
        Type::Object | Type::Exception | Type::Proxy => {
            let object = value.as_object().ok_or("an object that is not an object")?;
            // A `Date`, a boxed string or number, a DOM node, an object with `toJSON`: what
            // JSON.stringify makes of it (an object returning itself is read as it is).
            if let Ok(to_json) = object.get::<_, rquickjs::Function>("toJSON") {
                let v: JsValue = to_json
                    .call((rquickjs::function::This(object.clone()),))
                    .map_err(|e| e.to_string())?;
                if v.as_object() != Some(object) {
                    return convert(&v, depth + 1);
                }
            }
            let mut map = Map::new();
            for entry in object.props::<String, JsValue>() {
                let (k, v) = entry.map_err(|e| e.to_string())?;
                if v.is_function() || v.is_undefined() || v.is_symbol() {
                    continue;
                }
                map.insert(k, convert(&v, depth + 1)?);
            }
            Value::Object(map)
        }
        Type::BigInt => value
            .as_big_int()
            .and_then(|b| b.clone().to_i64().ok())
            .map_or(Value::Null, Value::from),
        _ => Value::Null,
    })
}

/// A value without references (number, boolean, `null`, `undefined`) as JSON; `None` for
/// anything else.
///
/// # Safety
/// `raw` is a valid `JSValue`.
unsafe fn scalar(raw: qjs::JSValue) -> Option<Value> {
    // SAFETY: reading the tag and the payload of a valid value.
    unsafe {
        match qjs::JS_VALUE_GET_TAG(raw) {
            qjs::JS_TAG_INT => Some(Value::from(qjs::JS_VALUE_GET_INT(raw))),
            qjs::JS_TAG_FLOAT64 => Some(number(qjs::JS_VALUE_GET_FLOAT64(raw))),
            qjs::JS_TAG_BOOL => Some(Value::Bool(qjs::JS_VALUE_GET_BOOL(raw))),
            qjs::JS_TAG_NULL | qjs::JS_TAG_UNDEFINED => Some(Value::Null),
            _ => None,
        }
    }
}

/// An ECMAScript number as JSON.
fn number(f: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if f.fract() == 0.0 && f.abs() < EXACT {
        Value::from(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}
