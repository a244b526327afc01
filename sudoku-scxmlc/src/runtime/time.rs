//! Machine time: delay parsing and the queue of delayed `<send>`s.
//!
//! A machine never reads a wall clock. Its time is a [`Duration`] since `start()` that only
//! moves when the host calls [`Machine::advance_time`](super::Machine::advance_time); a delayed
//! send (SCXML 1.0, section 6.2.4) is due at the machine time of the send plus its delay.

use super::envelope::Envelope;
use super::ExecError;
use std::collections::BTreeMap;
use std::time::Duration;

/// Parses an SCXML delay: a CSS2 time value (SCXML 1.0, section 6.2.4 and the
/// `Duration` data type): a non-negative decimal number followed by `ms` or `s`, such as
/// `"10ms"`, `"1s"`, `"1.5s"`, `".5s"` or `"0s"`. Surrounding whitespace is ignored.
///
/// # Errors
/// An [`ExecError`] (so `<send>` raises `error.execution`) for an empty string, a missing or
/// unknown unit, a sign, an exponent or any other malformed number.
pub fn parse_delay(s: &str) -> Result<Duration, ExecError> {
    let t = s.trim();
    let bad = || ExecError::new(format!("`{s}` is not a delay such as `500ms` or `1.5s`"));
    let (number, scale_ms) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1u64)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000u64)
    } else {
        return Err(bad());
    };
    // CSS2 <number>: `[0-9]+` or `[0-9]*.[0-9]+`.
    let (int, frac) = match number.split_once('.') {
        Some((i, f)) if !f.is_empty() => (i, f),
        Some(_) => return Err(bad()),
        None if !number.is_empty() => (number, ""),
        None => return Err(bad()),
    };
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    // Whole milliseconds-or-seconds part.
    let whole: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    // The value in nanoseconds: whole * scale + fraction * scale, fraction truncated to ns.
    let scale_ns = scale_ms * 1_000_000;
    let mut nanos: u128 = u128::from(whole) * u128::from(scale_ns);
    let mut unit = u128::from(scale_ns);
    for digit in frac.bytes() {
        unit /= 10;
        if unit == 0 {
            break;
        }
        nanos += u128::from(digit - b'0') * unit;
    }
    let secs = u64::try_from(nanos / 1_000_000_000).map_err(|_| bad())?;
    Ok(Duration::new(secs, (nanos % 1_000_000_000) as u32))
}

/// Where a delayed event goes when it fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// This session's external queue.
    Own,
    /// The invoking session (`#_parent`).
    Parent,
    /// The invoked session with this invoke id (`#_<invokeid>`).
    Child(String),
}

/// Pending delayed events ordered by `(deadline, sequence number)`, so events with equal
/// deadlines fire in the order they were sent.
#[derive(Debug)]
pub(crate) struct Timers<E> {
    queue: BTreeMap<(Duration, u64), (Route, Envelope<E>)>,
    next_seq: u64,
}

impl<E> Default for Timers<E> {
    fn default() -> Self {
        Timers {
            queue: BTreeMap::new(),
            next_seq: 0,
        }
    }
}

impl<E: super::ChartEvent> Timers<E> {
    /// Schedules `event` for this session's external queue at `deadline`.
    pub(crate) fn schedule(&mut self, deadline: Duration, event: Envelope<E>) {
        self.schedule_to(deadline, Route::Own, event);
    }

    /// Schedules `event` for `route` at `deadline`.
    pub(crate) fn schedule_to(&mut self, deadline: Duration, route: Route, event: Envelope<E>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.queue.insert((deadline, seq), (route, event));
    }

    /// Drops every pending event whose `sendid` is `sendid` (`<cancel>`, SCXML 1.0, 6.3).
    pub(crate) fn cancel(&mut self, sendid: &str) {
        self.queue.retain(|_, (_, e)| !e.has_sendid(sendid));
    }

    /// The earliest deadline.
    pub(crate) fn next_deadline(&self) -> Option<Duration> {
        self.queue.first_key_value().map(|((d, _), _)| *d)
    }

    /// Removes and returns the earliest event if it is due at or before `limit`.
    pub(crate) fn pop_due(&mut self, limit: Duration) -> Option<(Duration, Route, Envelope<E>)> {
        if self.next_deadline()? > limit {
            return None;
        }
        self.queue.pop_first().map(|((d, _), (r, e))| (d, r, e))
    }

    /// The pending events for this session's own queue in firing order, with their
    /// deadlines.
    pub(crate) fn pending(&self) -> impl Iterator<Item = (Duration, &Envelope<E>)> {
        self.queue
            .iter()
            .filter(|(_, (r, _))| *r == Route::Own)
            .map(|((d, _), (_, e))| (*d, e))
    }

    /// Drops everything.
    pub(crate) fn clear(&mut self) {
        self.queue.clear();
    }

    /// How many events are pending.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{Event, Untyped};
    use serde_json::Value;

    #[test]
    fn parses_css2_time_values() {
        let ms = Duration::from_millis;
        let cases = [
            ("10ms", ms(10)),
            ("1s", ms(1000)),
            ("1.5s", ms(1500)),
            (".5s", ms(500)),
            ("0s", ms(0)),
            ("0ms", ms(0)),
            (" 250ms\n", ms(250)),
            ("0.0015s", Duration::from_micros(1500)),
            ("1.25ms", Duration::from_micros(1250)),
            ("3600s", Duration::from_secs(3600)),
        ];
        for (s, want) in cases {
            assert_eq!(parse_delay(s), Ok(want), "{s:?}");
        }
    }

    #[test]
    fn rejects_malformed_delays() {
        for s in [
            "",
            " ",
            "10",
            "s",
            "ms",
            ".s",
            "-1s",
            "+1s",
            "1e3ms",
            "1 s",
            "1min",
            "1h",
            "1.2.3s",
            "2.ms",
            "1.s",
            "abc",
            "1S",
            "1MS",
            "10 ms",
            "1,5s",
            "99999999999999999999999s",
        ] {
            let err = parse_delay(s).expect_err(s);
            assert!(err.message().contains("is not a delay"), "{s:?}: {err}");
        }
    }

    #[test]
    fn timers_fire_by_deadline_then_send_order_and_cancel_by_id() {
        let ms = Duration::from_millis;
        let ev = |name: &str, id: &str| {
            Envelope::<Untyped>::Dynamic(Box::new(Event {
                sendid: Some(id.to_owned()),
                ..Event::new(name, Value::Null)
            }))
        };
        let mut t = Timers::default();
        t.schedule(ms(20), ev("c", "x"));
        t.schedule(ms(10), ev("a", "y"));
        t.schedule(ms(10), ev("b", "z"));
        t.schedule(ms(15), ev("gone", "x"));
        assert_eq!(t.next_deadline(), Some(ms(10)));
        t.cancel("x");
        assert_eq!(t.len(), 2);
        assert!(t.pop_due(ms(9)).is_none());
        let (d, _, e) = t.pop_due(ms(10)).unwrap();
        assert_eq!((d, e.name()), (ms(10), "a"));
        let (_, _, e) = t.pop_due(ms(100)).unwrap();
        assert_eq!(e.name(), "b");
        assert!(t.pop_due(ms(1000)).is_none());
        assert_eq!(t.next_deadline(), None);
        t.schedule(ms(1), ev("d", "w"));
        t.clear();
        assert_eq!(t.len(), 0);
    }
}
