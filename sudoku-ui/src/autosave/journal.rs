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

/// The latest machine time a journal line may carry, in milliseconds (about 35 years): a
/// larger one is damage, not play.
pub const MAX_TIME_MS: u64 = 1 << 40;

/// A journal as read: the entries up to the first damaged line, and that damage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// The entries that read back, in order: every one before the damage.
    pub entries: Vec<Entry>,
    /// The first damaged line (1-based) and what is wrong with it, if any.
    pub damage: Option<(usize, String)>,
}

/// Reads a journal's text.
///
/// A last line without its newline is the write a crash interrupted: it is dropped, as it
/// never completed (each line is written with its newline in one call). A line that does not
/// parse, a
/// time going backwards or a time past [`MAX_TIME_MS`] is damage: reading stops there, and
/// the entries before it are kept.
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let last = i + 1 == lines.len();
        // The last line without its newline is the write a crash interrupted.
        if last && !complete {
            break;
        }
        let entry = match serde_json::from_str::<Entry>(line) {
            Ok(entry) => entry,
            Err(e) => {
                parsed.damage = Some((i + 1, e.to_string()));
                break;
            }
        };
        let previous = parsed.entries.last().map_or(0, |e| e.t);
        let problem = if entry.t > MAX_TIME_MS {
            Some(format!("the time {} ms is out of range", entry.t))
        } else if entry.t < previous {
            Some("the time goes backwards".to_owned())
        } else {
            None
        };
        if let Some(problem) = problem {
            parsed.damage = Some((i + 1, problem));
            break;
        }
        parsed.entries.push(entry);
    }
    parsed
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
        assert_eq!(parse(&text).entries, [a.clone(), b.clone()]);
        // Cut anywhere inside the last line: only the whole lines come back, and that is no
        // damage.
        for cut in text.len() - b.line().len()..text.len() {
            let cut_short = parse(&text[..cut]);
            assert_eq!(cut_short.entries, std::slice::from_ref(&a), "cut at {cut}");
            assert_eq!(cut_short.damage, None);
        }
        assert_eq!(parse(""), Parsed::default());
    }

    #[test]
    fn damage_stops_the_reading_and_keeps_what_came_before() {
        let a = Entry::time(Duration::from_secs(1)).line();
        let broken = parse(&format!("{a}garbage\n{a}"));
        assert_eq!(broken.entries.len(), 1);
        assert_eq!(broken.damage.as_ref().map(|d| d.0), Some(2));
        let late = Entry::time(Duration::from_secs(9)).line();
        let backwards = parse(&format!("{late}{a}"));
        assert_eq!(backwards.entries.len(), 1);
        assert_eq!(
            backwards.damage,
            Some((2, "the time goes backwards".into()))
        );
        let huge = parse("{\"t\":18446744073709551615}\n");
        assert!(huge.entries.is_empty());
        assert!(huge.damage.unwrap().1.contains("out of range"));
    }
}
