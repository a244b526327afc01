//! Each benchmark case beside its twin, in one process, interleaved:
//!
//! ```text
//! cargo run --release -p scxml-bench --example side_by_side [ROUNDS]
//! ```
//!
//! prints one line per case, `CASE ours_ns=X twin_ns=Y ratio=R`: nanoseconds per event of
//! the generated machine (`ours`) and of its twin, each the median over ROUNDS rounds
//! (default 31), and the median of the per-round ratios ours/twin (below 1: ours is faster).
//! Each round runs both sides on the same number of events, alternating which goes first.
//! The twins are the same behaviour written by hand in Rust (`scxml_bench::twins`); the
//! `/statig` lines compare with the same machine written with the `statig` crate.
//!
//! Cases: `toggle-quiet` (the toggle, nobody observing), `toggle-observed` (one observer of
//! `on`, as a window would connect it), `counter` (one `cond` and one `<assign>` per event),
//! `counter-observed` (an observer of every `inc`), `sudoku-tap-observed` (Qt's `tap` on the
//! game's chart while a game runs, with an observer of `updateGUI` as the window has; the
//! twin calls the chart's datamodel functions and hands what `updateGUI` carries, the view's
//! changes and Qt's grids with a full update, to a callback). Lines ending in `-string` drive the machine through the string API
//! (`submit_event`, `connect_to_event`), the others through the typed API; the
//! `/json-twin` line compares the string tap with its twin written in the same style (the
//! tap's JSON read by hand, `updateGUI`'s JSON built for the callback). Lines ending in
//! `-owned` drive the owned core (`runtime::Core`, `&mut self`) through the typed API with
//! its typed observer (a type parameter: the closure inlines); `-owned-boxed` the same core
//! with its boxed callbacks (`on_state`, `observe`), the shape of the twins' observers.

use scxml_bench::twins::{CounterEvent, CounterTwin, TapTwin, ToggleEvent, ToggleTwin};
use scxml_bench::{counter, toggle};
use serde_json::json;
use statig::blocking::IntoStateMachineExt as _;
use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;
use sudoku_machine::datamodel::Position;
use sudoku_machine::{events, puzzle, Sudoku, SudokuChart};
use sudoku_scxmlc::runtime::{Core, Events, States};

/// The statig versions of the toggle and the counter.
mod with_statig {
    pub use counter::{Counter, CounterEvent};
    pub use toggle::{Toggle, ToggleEvent};

    /// The toggle with statig.
    mod toggle {
        use statig::prelude::*;

        /// The toggle's event.
        pub enum ToggleEvent {
            Toggle,
        }

        /// The toggle; `observer`, when set, hears `on`'s entries (`true`) and exits (`false`).
        #[derive(Default)]
        pub struct Toggle {
            pub observer: Option<Box<dyn FnMut(bool)>>,
        }

        #[state_machine(initial = "State::off()")]
        impl Toggle {
            #[state]
            fn off(event: &ToggleEvent) -> Outcome<State> {
                match event {
                    ToggleEvent::Toggle => Transition(State::on()),
                }
            }

            #[state(entry_action = "enter_on", exit_action = "exit_on")]
            fn on(event: &ToggleEvent) -> Outcome<State> {
                match event {
                    ToggleEvent::Toggle => Transition(State::off()),
                }
            }

            #[action]
            fn enter_on(&mut self) {
                if let Some(f) = &mut self.observer {
                    f(true);
                }
            }

            #[action]
            fn exit_on(&mut self) {
                if let Some(f) = &mut self.observer {
                    f(false);
                }
            }
        }
    }

    /// The counter with statig.
    mod counter {
        use statig::prelude::*;

        /// The counter's event.
        pub enum CounterEvent {
            Inc,
        }

        /// An observer of every event.
        pub type Observer = Box<dyn FnMut(&CounterEvent)>;

        /// The counter; `observer`, when set, hears every event.
        #[derive(Default)]
        pub struct Counter {
            pub count: u64,
            pub observer: Option<Observer>,
        }

        #[state_machine(initial = "State::counting()")]
        impl Counter {
            #[state]
            fn counting(&mut self, event: &CounterEvent) -> Outcome<State> {
                match event {
                    #[allow(
                        clippy::implicit_saturating_add,
                        reason = "the chart's `cond` and `<assign>`, written out"
                    )]
                    CounterEvent::Inc => {
                        if self.count < u64::MAX {
                            self.count += 1;
                        }
                    }
                }
                if let Some(f) = &mut self.observer {
                    f(event);
                }
                Handled
            }
        }
    }
}

/// How one side runs `n` events.
type Side<'a> = Box<dyn FnMut(u64) + 'a>;

/// Runs both sides `rounds` times on `n` events each, alternating which goes first; prints
/// the case's line.
fn compare(case: &str, rounds: usize, mut ours: Side<'_>, mut twin: Side<'_>) {
    // Warm up, then choose `n` so that the slower side takes about 2 ms per round.
    ours(1000);
    twin(1000);
    let time = |f: &mut Side<'_>, n: u64| {
        let t = Instant::now();
        f(n);
        t.elapsed().as_secs_f64() * 1e9 / n as f64
    };
    let per_event = time(&mut ours, 1000).max(time(&mut twin, 1000)).max(0.1);
    let n = ((2e6 / per_event) as u64).clamp(10, 10_000_000);
    let (mut o, mut t, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (a, b) = if round % 2 == 0 {
            let a = time(&mut ours, n);
            (a, time(&mut twin, n))
        } else {
            let b = time(&mut twin, n);
            (time(&mut ours, n), b)
        };
        o.push(a);
        t.push(b);
        ratios.push(a / b);
    }
    let (o, t, r) = (median(o), median(t), median(ratios));
    println!("{case} ours_ns={o:.2} twin_ns={t:.2} ratio={r:.2}");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(31, |r| r.parse().expect("ROUNDS is a number"));
    println!("# {rounds} interleaved rounds per case; ns per event, medians; ratio = ours / twin");

    // toggle-quiet
    let m = toggle::Toggle::new();
    m.start();
    let mut hand = ToggleTwin::default();
    compare(
        "toggle-quiet",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit(black_box(toggle::Event::Toggle));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    let mut sm = with_statig::Toggle::default().state_machine();
    compare(
        "toggle-quiet/statig",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit(black_box(toggle::Event::Toggle));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                sm.handle(black_box(&with_statig::ToggleEvent::Toggle));
            }
        }),
    );
    let mut core = Core::<toggle::ToggleChart>::new();
    core.start();
    compare(
        "toggle-quiet-owned",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                core.submit(black_box(toggle::Event::Toggle))
                    .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    compare(
        "toggle-quiet-string",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    let mut sm = with_statig::Toggle::default().state_machine();
    compare(
        "toggle-quiet-string/statig",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                sm.handle(black_box(&with_statig::ToggleEvent::Toggle));
            }
        }),
    );

    // toggle-observed
    let seen = Rc::new(Cell::new(0u64));
    let m = toggle::Toggle::new();
    let s = seen.clone();
    m.connect_to_state(toggle::State::On, move |on| s.set(s.get() + u64::from(on)));
    m.start();
    let s = seen.clone();
    let mut hand = ToggleTwin::observed(move |on| s.set(s.get() + u64::from(on)));
    compare(
        "toggle-observed",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit(black_box(toggle::Event::Toggle));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    compare(
        "toggle-observed-string",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    let s = seen.clone();
    let mut sm = with_statig::Toggle {
        observer: Some(Box::new(move |on| s.set(s.get() + u64::from(on)))),
    }
    .state_machine();
    compare(
        "toggle-observed/statig",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit(black_box(toggle::Event::Toggle));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                sm.handle(black_box(&with_statig::ToggleEvent::Toggle));
            }
        }),
    );
    let s = seen.clone();
    let mut core = Core::<toggle::ToggleChart, _>::with_observer(States(move |state, entered| {
        s.set(s.get() + u64::from(state == toggle::State::On && entered));
    }));
    core.start();
    compare(
        "toggle-observed-owned",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                core.submit(black_box(toggle::Event::Toggle))
                    .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    let mut boxed = Core::<toggle::ToggleChart>::new();
    let s = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let b = s.clone();
    boxed.on_state(toggle::State::On, move |on| {
        // One writer: a load and a store, as cheap as the twins' `Cell`.
        b.store(
            b.load(std::sync::atomic::Ordering::Relaxed) + u64::from(on),
            std::sync::atomic::Ordering::Relaxed,
        );
    });
    boxed.start();
    compare(
        "toggle-observed-owned-boxed",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                boxed
                    .submit(black_box(toggle::Event::Toggle))
                    .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(ToggleEvent::Toggle));
            }
        }),
    );
    assert!(seen.get() > 0 && s.load(std::sync::atomic::Ordering::Relaxed) > 0);

    // counter
    let m = counter::Counter::new();
    m.start();
    let mut hand = CounterTwin::default();
    compare(
        "counter",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit(black_box(counter::Event::Inc));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    compare(
        "counter-string",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(counter::events::INC), ());
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    let mut sm = with_statig::Counter::default().state_machine();
    compare(
        "counter/statig",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit(black_box(counter::Event::Inc));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                sm.handle(black_box(&with_statig::CounterEvent::Inc));
            }
        }),
    );
    assert!(m.with_data(|d| d.count) >= hand.count);
    let mut core = Core::<counter::CounterChart>::new();
    core.start();
    compare(
        "counter-owned",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                core.submit(black_box(counter::Event::Inc))
                    .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    assert!(core.data().count > 0);

    // counter-observed
    let heard = Rc::new(Cell::new(0u64));
    let typed = counter::Counter::new();
    let h = heard.clone();
    typed.observe(move |e| h.set(h.get() + u64::from(*e == counter::Event::Inc)));
    typed.start();
    let m = counter::Counter::new();
    let h = heard.clone();
    m.connect_to_event(counter::events::INC, move |_| h.set(h.get() + 1));
    m.start();
    let h = heard.clone();
    let mut hand =
        CounterTwin::observed(move |e| h.set(h.get() + u64::from(*e == CounterEvent::Inc)));
    compare(
        "counter-observed",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                typed.submit(black_box(counter::Event::Inc));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    compare(
        "counter-observed-string",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(counter::events::INC), ());
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    let h = heard.clone();
    let mut sm = with_statig::Counter {
        count: 0,
        observer: Some(Box::new(move |_| h.set(h.get() + 1))),
    }
    .state_machine();
    compare(
        "counter-observed/statig",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                typed.submit(black_box(counter::Event::Inc));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                sm.handle(black_box(&with_statig::CounterEvent::Inc));
            }
        }),
    );
    assert!(typed.with_data(|d| d.count) + m.with_data(|d| d.count) >= hand.count);
    let h = heard.clone();
    let mut core =
        Core::<counter::CounterChart, _>::with_observer(Events(move |e: &counter::Event| {
            h.set(h.get() + u64::from(*e == counter::Event::Inc))
        }));
    core.start();
    compare(
        "counter-observed-owned",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                core.submit(black_box(counter::Event::Inc))
                    .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    let mut boxed = Core::<counter::CounterChart>::new();
    let b = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let bb = b.clone();
    boxed.observe(move |e| {
        // One writer: a load and a store, as cheap as the twins' `Cell`.
        bb.store(
            bb.load(std::sync::atomic::Ordering::Relaxed) + u64::from(*e == counter::Event::Inc),
            std::sync::atomic::Ordering::Relaxed,
        );
    });
    boxed.start();
    compare(
        "counter-observed-owned-boxed",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                boxed
                    .submit(black_box(counter::Event::Inc))
                    .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.handle(black_box(CounterEvent::Inc));
            }
        }),
    );
    assert!(core.data().count > 0 && heard.get() >= core.data().count);
    assert_eq!(
        boxed.data().count,
        b.load(std::sync::atomic::Ordering::Relaxed)
    );

    // sudoku-tap-observed
    let grid = puzzle::parse(include_str!("../../../puzzles/sudoku.data")).expect("a puzzle");
    let typed = Sudoku::new();
    typed
        .set_initial_values(json!({ "initState": grid }))
        .expect("a grid");
    let shown = Rc::new(Cell::new(0u64));
    let s = shown.clone();
    typed.observe(move |e| {
        if let sudoku_machine::Event::UpdateGui(update) = e {
            s.set(
                s.get() + u64::from(update.currentState.is_none() && !update.view.cells.is_empty()),
            );
        }
    });
    typed.start();
    typed.submit(sudoku_machine::Event::Start(serde_json::Value::Null));
    let s = shown.clone();
    let mut hand = TapTwin::new(
        grid,
        Box::new(move |current, _givens, view| {
            s.set(s.get() + u64::from(current.is_none() && !view.cells.is_empty()))
        }),
    );
    compare(
        "sudoku-tap-observed",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                typed.submit(black_box(sudoku_machine::Event::Tap(Position {
                    x: 0,
                    y: 0,
                })));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.tap(black_box(Position { x: 0, y: 0 }));
            }
        }),
    );
    let s = shown.clone();
    let mut core =
        Core::<SudokuChart, _>::with_observer(Events(move |e: &sudoku_machine::Event| {
            if let sudoku_machine::Event::UpdateGui(update) = e {
                s.set(
                    s.get()
                        + u64::from(update.currentState.is_none() && !update.view.cells.is_empty()),
                );
            }
        }));
    core.set_initial_values(json!({ "initState": grid }))
        .expect("a grid");
    core.start();
    core.submit(sudoku_machine::Event::Start(serde_json::Value::Null))
        .expect("the chart runs");
    compare(
        "sudoku-tap-observed-owned",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                core.submit(black_box(sudoku_machine::Event::Tap(Position {
                    x: 0,
                    y: 0,
                })))
                .expect("the chart runs");
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.tap(black_box(Position { x: 0, y: 0 }));
            }
        }),
    );
    let m = Sudoku::new();
    m.set_initial_values(json!({ "initState": grid }))
        .expect("a grid");
    let shown = Rc::new(Cell::new(0u64));
    let s = shown.clone();
    m.connect_to_event(events::UPDATE_GUI, move |e| {
        s.set(s.get() + u64::from(!e.data.is_null()))
    });
    m.start();
    m.submit_event(events::START, ());
    let s = shown.clone();
    let mut hand = TapTwin::new(
        grid,
        Box::new(move |current, _givens, view| {
            s.set(s.get() + u64::from(current.is_none() && !view.cells.is_empty()))
        }),
    );
    compare(
        "sudoku-tap-observed-string",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(events::TAP), json!({"x": 0, "y": 0}));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                hand.tap(black_box(Position { x: 0, y: 0 }));
            }
        }),
    );
    // The same Qt-style tap written by hand in Qt's style: the tap's JSON read into a
    // position, the same game logic, and the callback handed `updateGUI`'s JSON as the
    // string API's observer is.
    let s = shown.clone();
    let mut qt_style = TapTwin::new(
        grid,
        Box::new(move |current, givens, view| {
            let data = json!({ "currentState": current, "initState": givens, "view": view });
            s.set(s.get() + u64::from(!data.is_null()))
        }),
    );
    compare(
        "sudoku-tap-observed-string/json-twin",
        rounds,
        Box::new(|n| {
            for _ in 0..n {
                m.submit_event(black_box(events::TAP), json!({"x": 0, "y": 0}));
            }
        }),
        Box::new(|n| {
            for _ in 0..n {
                let tap = black_box(json!({"x": 0, "y": 0}));
                if let Ok(position) = serde_json::from_value::<Position>(tap) {
                    qt_style.tap(position);
                }
            }
        }),
    );
    assert!(shown.get() > 0);
}
