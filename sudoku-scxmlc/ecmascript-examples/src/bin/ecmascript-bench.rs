//! The per-event cost of the counter chart (one `cond`, one `<assign>`) in the ecmascript
//! datamodel, beside the same chart in the rust datamodel, both measured in this run, and
//! Qt's `qscxmlc` figure measured on this machine (18.6 µs per event, QJSEngine).
//!
//! `cargo run --release -p scxml-ecmascript-examples --bin ecmascript-bench [EVENTS]`

use scxml_ecmascript_examples::{counter::Counter, counter_rust::RustCounter};
use serde_json::Value;
use std::time::Instant;

/// Qt 6's `qscxmlc` counter chart on this machine, µs per event (issue 14).
const QT_COUNTER_US: f64 = 18.6;

fn main() {
    let events: u32 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);
    let js = Counter::new();
    js.start();
    let rust = RustCounter::new();
    rust.start();
    // Warm-up: compile the snippets, fill the caches.
    for _ in 0..1_000 {
        js.submit_event("tick", Value::Null);
        rust.submit_event("tick", Value::Null);
    }
    let t = Instant::now();
    for _ in 0..events {
        js.submit_event("tick", Value::Null);
    }
    let js_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(events);
    let t = Instant::now();
    for _ in 0..events {
        rust.submit_event("tick", Value::Null);
    }
    let rust_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(events);
    let counted = js.data_value("count").and_then(|v| v.as_u64()).unwrap_or(0);
    assert_eq!(counted, u64::from(events) + 1_000, "every tick counted");
    println!("counter chart, {events} events, µs per event:");
    println!("  Qt qscxmlc (ecmascript, measured before)  {QT_COUNTER_US:>8.3}");
    println!(
        "  sudoku-scxmlc ecmascript                  {js_us:>8.3}   ({:.1}x faster than Qt)",
        QT_COUNTER_US / js_us
    );
    println!(
        "  sudoku-scxmlc rust                        {rust_us:>8.3}   ({:.1}x faster than ecmascript)",
        js_us / rust_us
    );
}
