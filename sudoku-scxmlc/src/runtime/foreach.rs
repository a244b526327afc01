//! The collections `<foreach array>` accepts with the rust datamodel (SCXML 1.0, section 4.6).

use super::ExecError;
use serde_json::Value;
use std::collections::VecDeque;

/// A collection `<foreach>` can iterate: it yields a shallow copy of its items, so the body may
/// change the collection without changing the iteration (as the spec requires).
pub trait ForeachArray {
    /// The item type assigned to `item`.
    type Item;
    /// The items in order.
    ///
    /// # Errors
    /// When the value is not a collection (a JSON value that is not an array).
    fn foreach_items(self) -> Result<Vec<Self::Item>, ExecError>;
}

impl<T: Clone> ForeachArray for &Vec<T> {
    type Item = T;
    fn foreach_items(self) -> Result<Vec<T>, ExecError> {
        Ok(self.clone())
    }
}

impl<T: Clone> ForeachArray for &[T] {
    type Item = T;
    fn foreach_items(self) -> Result<Vec<T>, ExecError> {
        Ok(self.to_vec())
    }
}

impl<T: Clone, const N: usize> ForeachArray for &[T; N] {
    type Item = T;
    fn foreach_items(self) -> Result<Vec<T>, ExecError> {
        Ok(self.to_vec())
    }
}

impl<T: Clone> ForeachArray for &VecDeque<T> {
    type Item = T;
    fn foreach_items(self) -> Result<Vec<T>, ExecError> {
        Ok(self.iter().cloned().collect())
    }
}

impl<T> ForeachArray for Vec<T> {
    type Item = T;
    fn foreach_items(self) -> Result<Vec<T>, ExecError> {
        Ok(self)
    }
}

impl<T, const N: usize> ForeachArray for [T; N] {
    type Item = T;
    fn foreach_items(self) -> Result<Vec<T>, ExecError> {
        Ok(self.into())
    }
}

impl ForeachArray for &Value {
    type Item = Value;
    fn foreach_items(self) -> Result<Vec<Value>, ExecError> {
        match self {
            Value::Array(items) => Ok(items.clone()),
            other => Err(ExecError::new(format!(
                "`<foreach>` needs an array, not `{other}`"
            ))),
        }
    }
}

impl ForeachArray for Value {
    type Item = Value;
    fn foreach_items(self) -> Result<Vec<Value>, ExecError> {
        (&self).foreach_items()
    }
}

/// The items of a `<foreach array>` collection; generated code calls this.
///
/// # Errors
/// See [`ForeachArray::foreach_items`].
pub fn foreach_items<A: ForeachArray>(array: A) -> Result<Vec<A::Item>, ExecError> {
    array.foreach_items()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_items_of_every_supported_collection() {
        let v = vec![1, 2, 3];
        assert_eq!(foreach_items(&v).unwrap(), [1, 2, 3]);
        assert_eq!(foreach_items(&[4, 5]).unwrap(), [4, 5]);
        let j = serde_json::json!([1, "a"]);
        assert_eq!(foreach_items(&j).unwrap().len(), 2);
        assert!(foreach_items(&serde_json::json!({"a": 1})).is_err());
    }
}
