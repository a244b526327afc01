//! The journal's line format: one JSON object per line, appended with one `write` each.
//!
//! ```text
//! {"t":12500,"event":"digit","data":{"digit":5}}
//! {"t":17500}
//! ```
//!
//! `t` is the machine time in milliseconds when the entry was made; an entry with an `event`
//! is an event the window submitted, one without only says that the machine's clock got that
//! far (so that a restored game keeps its time).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One line of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Machine time in milliseconds.
    pub t: u64,
    /// The event submitted at that time, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Its data (`null` for none).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub data: Value,
}

impl Entry {
    /// An event submitted at machine time `now`.
    pub fn event(now: Duration, name: &str, data: Value) -> Self {
        Entry {
            t: millis(now),
            event: Some(name.to_owned()),
            data,
        }
    }

    /// The machine's clock reached `now`.
    pub fn time(now: Duration) -> Self {
        Entry {
            t: millis(now),
            event: None,
            data: Value::Null,
        }
    }

    /// The entry's machine time.
    pub fn at(&self) -> Duration {
        Duration::from_millis(self.t)
    }

    /// The entry as one line, newline included.
    pub fn line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("an entry always serializes");
        line.push('\n');
        line
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Reads a journal's text.
///
/// A last line without its newline, or one that does not parse, is the write a crash
/// interrupted: it is dropped, as it never completed. Any other line that does not parse
/// means the file was damaged.
///
/// # Errors
/// `line N: reason` for a damaged line.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let last = i + 1 == lines.len();
        match serde_json::from_str::<Entry>(line) {
            Ok(entry) if !last || complete => entries.push(entry),
            Ok(_) => {} // torn: the newline never made it
            Err(_) if last => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    for pair in entries.windows(2) {
        if pair[1].t < pair[0].t {
            return Err("the journal's times go backwards".into());
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_round_trip_and_a_torn_last_line_is_dropped() {
        let a = Entry::event(Duration::from_millis(1500), "digit", json!({"digit": 5}));
        let b = Entry::time(Duration::from_secs(7));
        assert_eq!(
            a.line(),
            "{\"t\":1500,\"event\":\"digit\",\"data\":{\"digit\":5}}\n"
        );
        assert_eq!(b.line(), "{\"t\":7000}\n");
        let text = a.line() + &b.line();
        assert_eq!(parse(&text), Ok(vec![a.clone(), b.clone()]));
        // Cut anywhere inside the last line: only the whole lines come back.
        for cut in text.len() - b.line().len()..text.len() {
            assert_eq!(parse(&text[..cut]), Ok(vec![a.clone()]), "cut at {cut}");
        }
        assert_eq!(parse(""), Ok(vec![]));
    }

    #[test]
    fn damage_in_the_middle_is_an_error() {
        let a = Entry::time(Duration::from_secs(1)).line();
        assert!(parse(&format!("{a}garbage\n{a}"))
            .unwrap_err()
            .starts_with("line 2:"));
        let late = Entry::time(Duration::from_secs(9)).line();
        assert!(
            parse(&format!("{late}{a}")).is_err(),
            "time going backwards"
        );
    }
}
