//! The per-event cost of two charts in the ecmascript datamodel beside Qt's `qscxmlc`
//! (QScxmlStateMachine with QJSEngine):
//!
//! - the counter chart (one `cond`, one `<assign>`), and the same chart in the rust
//!   datamodel;
//! - Qt's original Sudoku chart with its `sudoku.js`: one `tap` on an empty cell while
//!   `playing` runs `isValidPosition()`, `calculateCurrentState()` and `isSolved()`, raises
//!   `update`, and sends `updateGUI` with both grids to an observer (as Qt's window receives
//!   it: the event's data as JSON).
//!
//! `cargo run --release -p scxml-ecmascript-examples --bin ecmascript-bench [EVENTS]`
//!
//! With `QT_BENCH` naming Qt's side (`qt-bench/build.sh` builds it from the same charts), Qt
//! is measured in the same run: three rounds, Qt's program then ours, and each side's fastest
//! round is compared (the machine is shared: a round's load falls on both sides alike only
//! when they alternate). Without it, Qt's figures measured on this machine before (issue 14)
//! stand in.

use scxml_ecmascript_examples::counter::Counter;
use scxml_ecmascript_examples::counter_rust::RustCounter;
use scxml_ecmascript_examples::sudoku::{events, Sudoku};
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

/// Qt 6's `qscxmlc` counter chart on this machine, µs per event (issue 14), when Qt's side
/// is not run.
const QT_COUNTER_US: f64 = 18.6;
/// Qt 6's original Sudoku example on this machine, µs per tap (issue 14), when Qt's side is
/// not run.
const QT_TAP_US: f64 = 61.0;
/// Rounds of the side-by-side comparison with Qt.
const ROUNDS: usize = 3;
/// Qt's example grid (`charts/data/sudoku.data`): 9 lines of 9 comma-separated digits.
const QT_SUDOKU: &str = include_str!("../../charts/data/sudoku.data");

/// µs per call of `f`, over `n` calls.
fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

/// One tap on cell (`x`, `y`): a function of its own, so that a profile can collect only
/// the taps (`valgrind --tool=callgrind --toggle-collect='*tap_cell*'`).
#[inline(never)]
fn tap_cell(sudoku: &Sudoku, x: usize, y: usize) {
    sudoku.submit_event(events::TAP, json!({ "x": x, "y": y }));
}

/// One event of the ecmascript counter, likewise (`--toggle-collect='*tick_counter*'`).
#[inline(never)]
fn tick_counter(counter: &Counter) {
    counter.submit_event("tick", Value::Null);
}

/// µs per event of the ecmascript counter, the rust counter and the Sudoku tap, `events`
/// counter events and `events / 10` taps, each after a warm-up.
fn ours(events: u32) -> (f64, f64, f64) {
    let js = Counter::new();
    js.start();
    let rust = RustCounter::new();
    rust.start();
    // Warm-up: compile the snippets, fill the caches.
    for _ in 0..1_000 {
        tick_counter(&js);
        rust.submit_event("tick", Value::Null);
    }
    let js_us = per_call(events, || tick_counter(&js));
    let rust_us = per_call(events, || rust.submit_event("tick", Value::Null));
    let counted = js.data_value("count").and_then(|v| v.as_u64()).unwrap_or(0);
    assert_eq!(counted, u64::from(events) + 1_000, "every tick counted");

    let grid: Vec<Vec<i64>> = QT_SUDOKU
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|d| d.trim().parse().unwrap()).collect())
        .collect();
    let empty: Vec<(usize, usize)> = (0..81)
        .map(|i| (i / 9, i % 9))
        .filter(|&(x, y)| grid[x][y] == 0)
        .collect();
    let sudoku = Sudoku::new();
    sudoku
        .set_initial_values(json!({ "initState": grid }))
        .expect("a grid");
    let updates = Rc::new(Cell::new(0u64));
    let seen = Rc::clone(&updates);
    let _gui = sudoku.connect_to_event(events::UPDATE_GUI, move |e| {
        // What Qt's window reads: the current grid.
        assert!(e.data["currentState"].is_array());
        seen.set(seen.get() + 1);
    });
    sudoku.start();
    sudoku.submit_event(events::START, Value::Null);
    let taps = (events / 10).max(1);
    // Each tap goes to the next empty cell, so values cycle and the grid never solves.
    let mut next = 0usize;
    let mut tap = || {
        let (x, y) = empty[next % empty.len()];
        next += 1;
        tap_cell(&sudoku, x, y);
    };
    for _ in 0..1_000 {
        tap();
    }
    updates.set(0);
    let tap_us = per_call(taps, &mut tap);
    assert_eq!(updates.get(), u64::from(taps), "every tap updated the GUI");
    (js_us, rust_us, tap_us)
}

/// Qt's side (the program `QT_BENCH` names), run with `events` and Qt's grid: µs per counter
/// event and per tap, from its output lines `counter US` and `tap US`.
fn qt(program: &str, events: u32) -> Result<(f64, f64), String> {
    let grid = std::env::temp_dir().join("ecmascript-bench-sudoku.data");
    std::fs::write(&grid, QT_SUDOKU).map_err(|e| format!("{}: {e}", grid.display()))?;
    let out = std::process::Command::new(program)
        .arg(events.to_string())
        .arg(&grid)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{program} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let figure = |name: &str| -> Result<f64, String> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
            .ok_or_else(|| format!("{program} printed no `{name}` line: {text}"))
    };
    Ok((figure("counter ")?, figure("tap ")?))
}

fn main() {
    let events: u32 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);
    let qt_program = std::env::var("QT_BENCH").ok();
    let min = |a: f64, b: f64| a.min(b);
    let (mut js_us, mut rust_us, mut tap_us) = (f64::MAX, f64::MAX, f64::MAX);
    let (mut qt_counter, mut qt_tap) = (QT_COUNTER_US, QT_TAP_US);
    let source = match &qt_program {
        Some(program) => {
            (qt_counter, qt_tap) = (f64::MAX, f64::MAX);
            for _ in 0..ROUNDS {
                match qt(program, events) {
                    Ok((c, t)) => (qt_counter, qt_tap) = (min(qt_counter, c), min(qt_tap, t)),
                    Err(e) => {
                        eprintln!("{e}");
                        std::process::exit(1);
                    }
                }
                let (j, r, t) = ours(events);
                (js_us, rust_us, tap_us) = (min(js_us, j), min(rust_us, r), min(tap_us, t));
            }
            format!("measured in this run, fastest of {ROUNDS} rounds each")
        }
        None => {
            (js_us, rust_us, tap_us) = ours(events);
            "measured before; QT_BENCH unset".to_owned()
        }
    };
    let taps = (events / 10).max(1);

    println!("counter chart, {events} events, µs per event:");
    println!("  Qt qscxmlc (ecmascript)                   {qt_counter:>8.3}   ({source})");
    println!(
        "  sudoku-scxmlc ecmascript                  {js_us:>8.3}   ({:.1}x faster than Qt)",
        qt_counter / js_us
    );
    println!(
        "  sudoku-scxmlc rust                        {rust_us:>8.3}   ({:.1}x faster than ecmascript)",
        js_us / rust_us
    );
    println!("Qt's Sudoku chart with sudoku.js, {taps} taps, µs per tap:");
    println!("  Qt qscxmlc (ecmascript)                   {qt_tap:>8.3}   ({source})");
    println!(
        "  sudoku-scxmlc ecmascript                  {tap_us:>8.3}   ({:.1}x faster than Qt)",
        qt_tap / tap_us
    );
}
