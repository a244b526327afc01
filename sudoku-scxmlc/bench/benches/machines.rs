//! Events per second of generated machines, against a hand-written enum/match machine, and
//! `mark` entries per second on uSCXML's benchmark charts.
//!
//! `cargo bench -p scxml-bench`; `SCXML_BENCH_SIZES=4,16,64,256` adds the 65,538-state uSCXML charts.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use scxml_bench::{deep_toggle, targetless, toggle, uscxml, HandToggle};
use serde_json::json;
use std::hint::black_box;
use sudoku_machine::{events, puzzle, Sudoku};

const EVENTS: u64 = 1000;

fn toggles(c: &mut Criterion) {
    let mut g = c.benchmark_group("events");
    g.throughput(Throughput::Elements(EVENTS));
    g.bench_function("toggle/generated", |b| {
        let m = toggle::Toggle::new();
        m.start();
        b.iter(|| {
            for _ in 0..EVENTS {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
        })
    });
    g.bench_function("deep toggle/generated", |b| {
        let m = deep_toggle::DeepToggle::new();
        m.start();
        b.iter(|| {
            for _ in 0..EVENTS {
                m.submit_event(black_box(deep_toggle::events::TOGGLE), ());
            }
        })
    });
    g.bench_function("toggle/generated, observed", |b| {
        let (m, entries) = scxml_bench::observed_toggle();
        b.iter(|| {
            for _ in 0..EVENTS {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
        });
        assert!(entries.get() > 0);
    });
    g.bench_function("toggle/hand-written", |b| {
        let mut m = HandToggle::default();
        b.iter(|| {
            for _ in 0..EVENTS {
                m.submit(black_box("toggle"));
            }
            black_box(m)
        })
    });
    g.bench_function("targetless/generated", |b| {
        let m = targetless::Targetless::new();
        m.start();
        b.iter(|| {
            for _ in 0..EVENTS {
                m.submit_event(black_box(targetless::events::PING), ());
            }
        })
    });
    g.finish();
}

fn sudoku_taps(c: &mut Criterion) {
    let grid = puzzle::parse(include_str!("../../../puzzles/sudoku.data")).unwrap();
    let mut g = c.benchmark_group("events");
    // Start, then 100 taps on the first empty cell (each one a macrostep that runs the
    // datamodel, raises `update` and sends `updateGUI`).
    g.throughput(Throughput::Elements(101));
    g.bench_function("sudoku/tap trace", |b| {
        b.iter_batched(
            || {
                let m = Sudoku::new();
                m.set_initial_values(json!({ "initState": grid })).unwrap();
                m.start();
                m
            },
            |m| {
                m.submit_event(events::START, ());
                for _ in 0..100 {
                    m.submit_event(events::TAP, json!({"x": 0, "y": 0}));
                }
                m
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn uscxml_marks(c: &mut Criterion) {
    const MICROSTEPS: usize = 10_000;
    let mut g = c.benchmark_group("uscxml");
    for (name, run) in uscxml::USCXML {
        let marks = run(MICROSTEPS) as u64;
        g.throughput(Throughput::Elements(marks));
        g.bench_function(format!("{name}/mark entries"), |b| {
            b.iter(|| black_box(run(MICROSTEPS)))
        });
    }
    g.finish();
}

criterion_group!(benches, toggles, sudoku_taps, uscxml_marks);
criterion_main!(benches);
