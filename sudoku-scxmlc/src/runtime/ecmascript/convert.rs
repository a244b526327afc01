//! Values between QuickJS and Rust: `serde_json::Value` ⇄ ECMAScript values.
//!
//! JSON `null` is ECMAScript `null`; `undefined`, functions and symbols become JSON `null`
//! (as `JSON.stringify` drops them); a number with no fractional part that fits in 53 bits
//! becomes a JSON integer, any other finite number a JSON float, `NaN` and the infinities
//! `null` (JSON has no such numbers). An XML value is `{"$xml": markup}` in JSON and a DOM
//! document in ECMAScript (see [`dom`](super::dom)).

use rquickjs::{qjs, Ctx, Type, Value as JsValue};
use serde_json::{Map, Number, Value};

/// Deepest nesting converted; a deeper (or cyclic) value is an error, not a stack overflow.
pub const MAX_DEPTH: usize = 256;

/// `value` as an ECMAScript value in `ctx`.
///
/// # Errors
/// When QuickJS cannot allocate.
pub fn to_js<'js>(ctx: &Ctx<'js>, value: &Value) -> rquickjs::Result<JsValue<'js>> {
    // SAFETY: `to_js_raw` returns a new reference, which `from_raw` takes over.
    unsafe {
        let raw = to_js_raw(ctx, value, 0)?;
        Ok(JsValue::from_raw(ctx.clone(), raw))
    }
}

/// `value` as a new reference to an ECMAScript value of `ctx`, built with QuickJS's own calls
/// (arrays in one `JS_NewArrayFrom`, members defined by atom): `_event.data` is made this way
/// for every event that carries data.
///
/// # Safety
/// `ctx` is the context the value is made for; the result is a new reference the caller owns.
unsafe fn to_js_raw(ctx: &Ctx<'_>, value: &Value, depth: usize) -> rquickjs::Result<qjs::JSValue> {
    let c = ctx.as_raw().as_ptr();
    // SAFETY: every reference made here is either returned or freed here.
    unsafe {
        let raw = match value {
            Value::Null => qjs::JS_NULL,
            Value::Bool(b) => {
                if *b {
                    qjs::JS_TRUE
                } else {
                    qjs::JS_FALSE
                }
            }
            Value::Number(n) => match n.as_i64() {
                Some(i) if i32::try_from(i).is_ok() => qjs::JS_MKVAL(qjs::JS_TAG_INT, i as i32),
                _ => qjs::JS_NewFloat64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => qjs::JS_NewStringLen(c, s.as_ptr().cast(), s.len() as _),
            // Deeper than any JSON that arrives parsed (serde_json stops at 128): built in
            // Rust, it would overflow this recursion's stack.
            Value::Array(_) | Value::Object(_) if depth > MAX_DEPTH => {
                return Err(rquickjs::Exception::throw_range(
                    ctx,
                    &format!("the value is nested deeper than {MAX_DEPTH} levels"),
                ));
            }
            Value::Array(items) => {
                let mut raws = Vec::with_capacity(items.len());
                for item in items {
                    match to_js_raw(ctx, item, depth + 1) {
                        Ok(r) => raws.push(r),
                        Err(e) => {
                            for r in raws {
                                qjs::JS_FreeValue(c, r);
                            }
                            return Err(e);
                        }
                    }
                }
                // Takes over the elements' references, even when it fails.
                qjs::JS_NewArrayFrom(c, raws.len() as _, raws.as_ptr())
            }
            Value::Object(map) => {
                if let Some(markup) = super::dom::xml_markup(map) {
                    if let Some(document) = super::dom::document(ctx, markup)? {
                        return Ok(qjs::JS_DupValue(c, document.as_raw()));
                    }
                }
                let object = qjs::JS_NewObject(c);
                if qjs::JS_IsException(object) {
                    return Err(rquickjs::Error::Exception);
                }
                for (k, v) in map {
                    let v = match to_js_raw(ctx, v, depth + 1) {
                        Ok(v) => v,
                        Err(e) => {
                            qjs::JS_FreeValue(c, object);
                            return Err(e);
                        }
                    };
                    let atom = qjs::JS_NewAtomLen(c, k.as_ptr().cast(), k.len() as _);
                    if atom == 0 {
                        qjs::JS_FreeValue(c, v);
                        qjs::JS_FreeValue(c, object);
                        return Err(rquickjs::Error::Exception);
                    }
                    // A member of its own (as `JSON.parse` makes it: `__proto__` too);
                    // `JS_DefinePropertyValue` takes over `v`.
                    let done =
                        qjs::JS_DefinePropertyValue(c, object, atom, v, qjs::JS_PROP_C_W_E as i32);
                    qjs::JS_FreeAtom(c, atom);
                    if done < 0 {
                        qjs::JS_FreeValue(c, object);
                        return Err(rquickjs::Error::Exception);
                    }
                }
                object
            }
        };
        if qjs::JS_IsException(raw) {
            return Err(rquickjs::Error::Exception);
        }
        Ok(raw)
    }
}

/// `value` as JSON.
///
/// # Errors
/// A value nested deeper than [`MAX_DEPTH`] (a cycle, say), or a property QuickJS cannot
/// read (a getter that throws): the message says which.
pub fn to_json(value: &JsValue<'_>) -> Result<Value, String> {
    let ctx = value.ctx();
    let c = ctx.as_raw().as_ptr();
    // SAFETY: `value` is a live value of its context; the atom is a new reference, freed here.
    unsafe {
        if let Some(v) = scalar(value.as_raw()) {
            return Ok(v);
        }
        let length = qjs::JS_NewAtomLen(c, c"length".as_ptr(), 6);
        if length == 0 {
            return Err("QuickJS could not make the atom `length`".to_owned());
        }
        let v = convert_raw(ctx, value.as_raw(), 0, length);
        qjs::JS_FreeAtom(c, length);
        v
    }
}

/// `raw` (a value of `ctx`, borrowed) as JSON. Scalars, strings and arrays are read with
/// QuickJS's own calls, without a rquickjs `Value` per element (each would count a reference
/// to the context up and down): Qt's Sudoku sends two 9×9 grids on every tap.
///
/// # Safety
/// `raw` is a valid value of `ctx`, alive for the call.
unsafe fn convert_raw(
    ctx: &Ctx<'_>,
    raw: qjs::JSValue,
    depth: usize,
    length: qjs::JSAtom,
) -> Result<Value, String> {
    too_deep(depth)?;
    // SAFETY: the caller's promise; every reference taken here is freed here.
    unsafe {
        if let Some(v) = scalar(raw) {
            return Ok(v);
        }
        let c = ctx.as_raw().as_ptr();
        match qjs::JS_VALUE_GET_TAG(raw) {
            qjs::JS_TAG_STRING => {
                let mut len = 0;
                let text = qjs::JS_ToCStringLen2(c, &mut len, raw, false);
                if text.is_null() {
                    return Err("a string QuickJS could not read".to_owned());
                }
                let bytes = std::slice::from_raw_parts(text.cast::<u8>(), len as usize);
                let s = String::from_utf8_lossy(bytes).into_owned();
                qjs::JS_FreeCString(c, text);
                Ok(Value::String(s))
            }
            qjs::JS_TAG_OBJECT if qjs::JS_IsArray(raw) => convert_array(ctx, raw, depth, length),
            _ => {
                let value = JsValue::from_raw(ctx.clone(), qjs::JS_DupValue(c, raw));
                convert_object(&value, depth, length)
            }
        }
    }
}

/// The error for a value read from QuickJS at `depth` past [`MAX_DEPTH`] (a cycle, say).
fn too_deep(depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "the value is nested deeper than {MAX_DEPTH} levels (or refers to itself)"
        ));
    }
    Ok(())
}

/// An array (`raw`, borrowed, `JS_IsArray`) as JSON: its length read once (`length`: the atom
/// `length`; an integer as QuickJS keeps it, any other value through `JS_GetLength`), then each element
/// with `JS_GetPropertyInt64` (QuickJS's fast path for dense arrays, a hole or an inherited
/// index through the prototype chain). Integers (QuickJS's `JS_TAG_INT`, most numbers in
/// practice) become JSON integers without a float round trip, and nested arrays (grids) are
/// read here too, without passing through [`convert_raw`]'s dispatch again.
///
/// # Safety
/// As [`convert_raw`]; `raw` is an array.
unsafe fn convert_array(
    ctx: &Ctx<'_>,
    raw: qjs::JSValue,
    depth: usize,
    length: qjs::JSAtom,
) -> Result<Value, String> {
    too_deep(depth)?;
    let c = ctx.as_raw().as_ptr();
    // SAFETY: the caller's promise; each element read is a new reference, freed here (an
    // integer holds none).
    unsafe {
        let n = qjs::JS_GetProperty(c, raw, length);
        let mut len = 0i64;
        if qjs::JS_VALUE_GET_TAG(n) == qjs::JS_TAG_INT {
            len = i64::from(qjs::JS_VALUE_GET_INT(n));
        } else {
            qjs::JS_FreeValue(c, n);
            if qjs::JS_GetLength(c, raw, &mut len) < 0 {
                return Err("an array whose length could not be read".to_owned());
            }
        }
        let len = len.max(0);
        // Reserved up front for all but absurd lengths (a sparse `a[1e9] = 1`), which grow.
        let reserved = len.min(1 << 16) as usize;
        let mut items: Vec<Value> = Vec::with_capacity(reserved);
        // Written in place (the length kept in a register across the calls into QuickJS,
        // set once at the end or before an error drops what was written): `push` keeps it
        // in the vector, which costs as much again per element as reading it.
        let slots = items.as_mut_ptr();
        let mut written = 0usize;
        while written < reserved {
            let item = qjs::JS_GetPropertyInt64(c, raw, written as i64);
            let tag = qjs::JS_VALUE_GET_TAG(item);
            // `written < reserved`, the capacity. Each branch writes its own value: merged,
            // the integer's write would copy a whole `Value` (the other branch's shape).
            if tag == qjs::JS_TAG_INT {
                let n = Number::from(qjs::JS_VALUE_GET_INT(item));
                slots.add(written).write(Value::Number(n));
            } else {
                match element(ctx, item, tag, written as i64, depth, length) {
                    Ok(v) => slots.add(written).write(v),
                    Err(e) => {
                        items.set_len(written);
                        return Err(e);
                    }
                }
            }
            written += 1;
        }
        items.set_len(written);
        for i in reserved as i64..len {
            let item = qjs::JS_GetPropertyInt64(c, raw, i);
            let tag = qjs::JS_VALUE_GET_TAG(item);
            items.push(element(ctx, item, tag, i, depth, length)?);
        }
        Ok(Value::Array(items))
    }
}

/// An array's element `i` (`item`, a new reference this takes over, with its tag) as JSON:
/// the path of anything but an integer.
///
/// # Safety
/// As [`convert_raw`]; `item` is what `JS_GetPropertyInt64` returned.
#[inline(never)]
unsafe fn element(
    ctx: &Ctx<'_>,
    item: qjs::JSValue,
    tag: i32,
    i: i64,
    depth: usize,
    length: qjs::JSAtom,
) -> Result<Value, String> {
    // SAFETY: the caller's promise; `item` is freed here.
    unsafe {
        if let Some(v) = scalar(item) {
            return Ok(v);
        }
        if qjs::JS_IsException(item) {
            return Err(format!("element {i} could not be read (a getter threw)"));
        }
        let v = if tag == qjs::JS_TAG_OBJECT && qjs::JS_IsArray(item) {
            convert_array(ctx, item, depth + 1, length)
        } else {
            convert_raw(ctx, item, depth + 1, length)
        };
        qjs::JS_FreeValue(ctx.as_raw().as_ptr(), item);
        v
    }
}

/// An object (not an array), a symbol, a function or a big integer as JSON.
fn convert_object(value: &JsValue<'_>, depth: usize, length: qjs::JSAtom) -> Result<Value, String> {
    let convert = |v: &JsValue<'_>, depth: usize| {
        // SAFETY: `v` is a live value of its context.
        unsafe { convert_raw(v.ctx(), v.as_raw(), depth, length) }
    };
    Ok(match value.type_of() {
        Type::Object | Type::Exception | Type::Proxy | Type::Array => {
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
#[inline(always)]
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
