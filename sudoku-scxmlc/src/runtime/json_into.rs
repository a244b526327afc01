//! Serializing into a JSON value that is already there, reusing its allocations.
//!
//! [`to_value_into`] gives the value `serde_json::to_value` gives, written over an existing
//! [`Value`]: an object's entries, an array's elements and a string's buffer are kept and
//! written over where the new value has them, so that serializing values of one shape again
//! and again (an event's payload for the observers connected by descriptor, event after
//! event) allocates only where the new value is larger than the old, instead of building a
//! tree and dropping it every time.

use serde::ser::{self, Serialize};
use serde_json::{Map, Value};

/// serde_json's own serializer into a [`Value`], for what is not written in place.
use serde_json::value::Serializer as Fresh;

/// Writes `value` as JSON over `out`, reusing `out`'s allocations; afterwards `out` equals
/// `serde_json::to_value(value)`.
///
/// Structs, sequences, tuples and strings are written in place. Maps with keys chosen at run
/// time and the data of enum variants other than unit ones are built anew (as by
/// `serde_json::to_value`) and assigned. With serde_json's `preserve_order` feature, a
/// struct's field that was left out of the old value comes last in the object's order (the
/// object is equal all the same).
///
/// # Errors
/// As `serde_json::to_value`: the value's `Serialize` fails, or a map key is not a string
/// or a number. `out` then holds some JSON value, not necessarily the old one.
///
/// ```
/// use sudoku_scxmlc::runtime::{serde_json::json, to_value_into};
/// let mut out = json!({"cells": [[0, 3, 2], [4, 1]], "full": true});
/// #[derive(serde::Serialize)]
/// struct Update { cells: Vec<Vec<u8>> }
/// to_value_into(&Update { cells: vec![vec![0, 4, 2]] }, &mut out).unwrap();
/// assert_eq!(out, json!({"cells": [[0, 4, 2]]}));
/// ```
pub fn to_value_into<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Value,
) -> Result<(), serde_json::Error> {
    value.serialize(Into(out))
}

/// The serializer that writes over the value it holds.
struct Into<'a>(&'a mut Value);

impl Into<'_> {
    /// Writes a value that owns nothing (`null`, a boolean, a number) over the one there,
    /// without calling its destructor when it owns nothing either.
    #[inline]
    fn scalar(self, value: Value) -> Result<(), serde_json::Error> {
        match self.0 {
            Value::Null | Value::Bool(_) | Value::Number(_) => {
                // Owns nothing: forgetting it spares the call to the destructor.
                std::mem::forget(std::mem::replace(self.0, value));
            }
            other => *other = value,
        }
        Ok(())
    }

    /// Assigns a value built by serde_json's serializer.
    #[inline]
    fn set(self, value: Result<Value, serde_json::Error>) -> Result<(), serde_json::Error> {
        *self.0 = value?;
        Ok(())
    }
}

/// A sequence (or tuple) written over an array: `len` elements written so far.
struct Seq<'a> {
    vec: &'a mut Vec<Value>,
    len: usize,
}

/// The array `out` holds (made one if it is not), to write a sequence over.
fn seq(out: &mut Value, len: Option<usize>) -> Seq<'_> {
    if !out.is_array() {
        *out = Value::Array(Vec::with_capacity(len.unwrap_or(0)));
    }
    let Value::Array(vec) = out else {
        unreachable!("made an array above")
    };
    Seq { vec, len: 0 }
}

impl Seq<'_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), serde_json::Error> {
        match self.vec.get_mut(self.len) {
            Some(slot) => value.serialize(Into(slot))?,
            None => {
                let mut slot = Value::Null;
                value.serialize(Into(&mut slot))?;
                self.vec.push(slot);
            }
        }
        self.len += 1;
        Ok(())
    }

    fn finish(self) -> Result<(), serde_json::Error> {
        self.vec.truncate(self.len);
        Ok(())
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Self::Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Self::Error> {
        self.finish()
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Self::Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Self::Error> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Self::Error> {
        self.element(v)
    }
    fn end(self) -> Result<(), Self::Error> {
        self.finish()
    }
}

/// How many keys a struct's fields are recorded in without allocating: structs with more
/// fields record the rest in a `Vec` (only needed when an old key must go).
const KEPT: usize = 8;

/// A struct written over an object: the keys written so far.
struct Struct<'a> {
    map: &'a mut Map<String, Value>,
    /// The first [`KEPT`] keys written.
    keys: [&'static str; KEPT],
    /// The keys written after those.
    more: Vec<&'static str>,
    len: usize,
}

impl ser::SerializeStruct for Struct<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        match self.map.get_mut(key) {
            Some(slot) => value.serialize(Into(slot))?,
            None => {
                let mut slot = Value::Null;
                value.serialize(Into(&mut slot))?;
                self.map.insert(key.to_owned(), slot);
            }
        }
        match self.keys.get_mut(self.len) {
            Some(k) => *k = key,
            None => self.more.push(key),
        }
        self.len += 1;
        Ok(())
    }

    fn end(self) -> Result<(), Self::Error> {
        // Keys of the old object this struct did not write (a field skipped this time).
        if self.map.len() != self.len {
            let written = &self.keys[..self.len.min(KEPT)];
            let more = &self.more;
            self.map
                .retain(|k, _| written.contains(&k.as_str()) || more.contains(&k.as_str()));
        }
        Ok(())
    }
}

/// A map, tuple variant or struct variant: built by serde_json's serializer, assigned at
/// the end.
struct Built<'a, S> {
    out: &'a mut Value,
    inner: S,
}

impl<S: ser::SerializeMap<Ok = Value, Error = serde_json::Error>> ser::SerializeMap
    for Built<'_, S>
{
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Self::Error> {
        self.inner.serialize_key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.inner.serialize_value(value)
    }
    fn end(self) -> Result<(), Self::Error> {
        *self.out = self.inner.end()?;
        Ok(())
    }
}

impl<S: ser::SerializeTupleVariant<Ok = Value, Error = serde_json::Error>>
    ser::SerializeTupleVariant for Built<'_, S>
{
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.inner.serialize_field(value)
    }
    fn end(self) -> Result<(), Self::Error> {
        *self.out = self.inner.end()?;
        Ok(())
    }
}

impl<S: ser::SerializeStructVariant<Ok = Value, Error = serde_json::Error>>
    ser::SerializeStructVariant for Built<'_, S>
{
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.inner.serialize_field(key, value)
    }
    fn end(self) -> Result<(), Self::Error> {
        *self.out = self.inner.end()?;
        Ok(())
    }
}

/// The serializer types of serde_json's own serializer, for [`Built`].
type FreshMap = <Fresh as ser::Serializer>::SerializeMap;
type FreshTupleVariant = <Fresh as ser::Serializer>::SerializeTupleVariant;
type FreshStructVariant = <Fresh as ser::Serializer>::SerializeStructVariant;

impl<'a> ser::Serializer for Into<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Built<'a, FreshTupleVariant>;
    type SerializeMap = Built<'a, FreshMap>;
    type SerializeStruct = Struct<'a>;
    type SerializeStructVariant = Built<'a, FreshStructVariant>;

    fn serialize_bool(self, v: bool) -> Result<(), Self::Error> {
        self.scalar(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Self::Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Self::Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Self::Error> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Self::Error> {
        self.scalar(Value::Number(v.into()))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Self::Error> {
        self.set(ser::Serializer::serialize_i128(Fresh, v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Self::Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Self::Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Self::Error> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Self::Error> {
        self.scalar(Value::Number(v.into()))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Self::Error> {
        self.set(ser::Serializer::serialize_u128(Fresh, v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Self::Error> {
        self.set(ser::Serializer::serialize_f32(Fresh, v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Self::Error> {
        self.set(ser::Serializer::serialize_f64(Fresh, v))
    }
    fn serialize_char(self, v: char) -> Result<(), Self::Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Self::Error> {
        match self.0 {
            Value::String(s) => {
                s.clear();
                s.push_str(v);
            }
            other => *other = Value::String(v.to_owned()),
        }
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Self::Error> {
        let mut seq = seq(self.0, Some(v.len()));
        for b in v {
            seq.element(b)?;
        }
        seq.finish()
    }
    fn serialize_none(self) -> Result<(), Self::Error> {
        self.scalar(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Self::Error> {
        self.scalar(Value::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Self::Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Self::Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.set(ser::Serializer::serialize_newtype_variant(
            Fresh, name, index, variant, value,
        ))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, Self::Error> {
        Ok(seq(self.0, len))
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, Self::Error> {
        Ok(seq(self.0, Some(len)))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, Self::Error> {
        Ok(seq(self.0, Some(len)))
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, Self::Error> {
        Ok(Built {
            inner: ser::Serializer::serialize_tuple_variant(Fresh, name, index, variant, len)?,
            out: self.0,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, Self::Error> {
        Ok(Built {
            inner: ser::Serializer::serialize_map(Fresh, len)?,
            out: self.0,
        })
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Self::Error> {
        if !self.0.is_object() {
            *self.0 = Value::Object(Map::new());
        }
        let Value::Object(map) = self.0 else {
            unreachable!("made an object above")
        };
        Ok(Struct {
            map,
            keys: [""; KEPT],
            more: Vec::new(),
            len: 0,
        })
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, Self::Error> {
        Ok(Built {
            inner: ser::Serializer::serialize_struct_variant(Fresh, name, index, variant, len)?,
            out: self.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[derive(Serialize, Clone)]
    enum Kind {
        Unit,
        New(u8),
        Pair(i32, String),
        Named { a: bool, b: Option<f64> },
    }

    /// Shapes that come and go: skipped fields, sequences of any length, enums, maps.
    #[derive(Serialize, Clone)]
    struct Payload {
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        full: bool,
        cells: Vec<Vec<u16>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        panel: Option<Box<Panel>>,
        grid: Option<[[u8; 3]; 2]>,
        kind: Kind,
        tuple: (char, i64, u128),
        map: BTreeMap<String, u8>,
        json: Value,
    }

    /// More fields than a struct records without allocating.
    #[derive(Serialize, Clone, Default)]
    struct Panel {
        f1: String,
        f2: u8,
        f3: bool,
        f4: String,
        f5: i8,
        f6: u32,
        f7: Option<String>,
        f8: f32,
        f9: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        f10: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        f11: String,
    }

    fn payload(i: usize) -> Payload {
        let panel = Panel {
            f1: "x".repeat(i % 4),
            f2: i as u8,
            f3: i.is_multiple_of(2),
            f7: (i.is_multiple_of(3)).then(|| format!("seven {i}")),
            f8: i as f32 / 2.0,
            f10: if i.is_multiple_of(5) {
                "ten".into()
            } else {
                String::new()
            },
            f11: if i % 2 == 1 {
                "eleven".into()
            } else {
                String::new()
            },
            ..Panel::default()
        };
        Payload {
            full: i.is_multiple_of(4),
            cells: (0..i % 5)
                .map(|c| vec![c as u16; 2 + (i + c) % 3])
                .collect(),
            panel: (i % 3 != 1).then(|| Box::new(panel)),
            grid: (i.is_multiple_of(2)).then_some([[i as u8; 3]; 2]),
            kind: match i % 4 {
                0 => Kind::Unit,
                1 => Kind::New(i as u8),
                2 => Kind::Pair(-(i as i32), "p".repeat(i % 3)),
                _ => Kind::Named {
                    a: true,
                    b: (i % 8 == 3).then_some(f64::NAN).or(Some(1.5)),
                },
            },
            tuple: (
                char::from(b'a' + (i % 26) as u8),
                -(i as i64),
                u128::from(i as u64),
            ),
            map: (0..i % 3).map(|k| (format!("k{k}"), k as u8)).collect(),
            json: if i.is_multiple_of(2) {
                json!({"a": [1, {"b": i}], "c": "d"})
            } else {
                json!([i, null, "e"])
            },
        }
    }

    #[test]
    fn values_written_over_others_are_those_serde_json_builds() {
        let mut out = Value::Null;
        for i in 0..40 {
            let p = payload(i * 7 % 23);
            to_value_into(&p, &mut out).unwrap();
            assert_eq!(out, serde_json::to_value(&p).unwrap(), "payload {i}");
        }
        // Over values of any other shape.
        for mut other in [
            json!(null),
            json!(3),
            json!("s"),
            json!([1, 2]),
            json!({"z": 1}),
        ] {
            to_value_into(&payload(3), &mut other).unwrap();
            assert_eq!(other, serde_json::to_value(payload(3)).unwrap());
            to_value_into(&[1u8, 2], &mut other).unwrap();
            assert_eq!(other, json!([1, 2]));
        }
    }

    #[test]
    fn errors_are_serde_json_s() {
        let mut bad = BTreeMap::new();
        bad.insert(vec![1u8], 1u8);
        let mut out = Value::Null;
        assert!(to_value_into(&bad, &mut out).is_err());
        assert!(serde_json::to_value(&bad).is_err());
        let big = u128::MAX;
        assert_eq!(
            to_value_into(&big, &mut out).is_err(),
            serde_json::to_value(big).is_err()
        );
    }
}
