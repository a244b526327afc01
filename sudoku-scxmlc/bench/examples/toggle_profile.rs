//! Events through one benchmark machine, for profilers and exact instruction counts:
//! `valgrind --tool=callgrind target/release/examples/toggle_profile [MACHINE] [EVENTS]`, with
//! MACHINE one of `toggle` (default), `observed-toggle` (with a state observer),
//! `typed-toggle` and `typed-observed-toggle` (the same through the typed API), `deep-toggle`,
//! `targetless`, `counter` and `observed-counter` (typed, one `cond` and one `<assign>` per
//! event; the second with a typed observer), `hand-written`, `sudoku-tap` (the game's tap on
//! the typed API with a typed observer of `updateGUI`, as the window has), `sudoku-tap-string`
//! (`submit_event` and an observer by descriptor: Qt's style), `sudoku-tap-twin` (the
//! tap's datamodel functions called directly) and `sudoku-tap-json-twin` (the same in Qt's
//! style: the tap's JSON read, `updateGUI`'s JSON built for the callback), the owned core
//! (`runtime::Core`, typed API, a typed observer as a type parameter) as `owned-toggle`,
//! `owned-observed-toggle`, `owned-counter`, `owned-observed-counter` and `owned-sudoku-tap`,
//! the same core with its boxed callbacks (`on_state`, `observe`) as `owned-boxed-toggle` and
//! `owned-boxed-counter`, uSCXML's charts by name (`LCCA.16`, `Transitions.64`: EVENTS is then
//! the run's microsteps), and EVENTS 100000 by default. Instructions per event = (count at N events - count at 0) / N.
use scxml_bench::{counter, deep_toggle, targetless, toggle, HandToggle};
use std::hint::black_box;
use sudoku_scxmlc::runtime::{Core, Events, States};

fn main() {
    let mut args = std::env::args().skip(1);
    let machine = args.next().unwrap_or_else(|| "toggle".into());
    let events: usize = args
        .next()
        .map_or(100_000, |n| n.parse().expect("EVENTS is a number"));
    match machine.as_str() {
        "toggle" => {
            let m = toggle::Toggle::new();
            m.start();
            for _ in 0..events {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
            println!("on: {}", m.is_active(toggle::State::On));
        }
        "observed-toggle" => {
            let (m, entries) = scxml_bench::observed_toggle();
            for _ in 0..events {
                m.submit_event(black_box(toggle::events::TOGGLE), ());
            }
            println!("entries: {}", entries.get());
        }
        "typed-toggle" => {
            let m = toggle::Toggle::new();
            m.start();
            for _ in 0..events {
                m.submit(black_box(toggle::Event::Toggle));
            }
            println!("on: {}", m.is_active(toggle::State::On));
        }
        "typed-observed-toggle" => {
            let (m, entries) = scxml_bench::observed_toggle();
            for _ in 0..events {
                m.submit(black_box(toggle::Event::Toggle));
            }
            println!("entries: {}", entries.get());
        }
        "counter" => {
            let m = counter::Counter::new();
            m.start();
            for _ in 0..events {
                m.submit(black_box(counter::Event::Inc));
            }
            println!("count: {}", m.with_data(|d| d.count));
        }
        "observed-counter" => {
            let m = counter::Counter::new();
            let heard = std::rc::Rc::new(std::cell::Cell::new(0u64));
            let h = heard.clone();
            m.observe(move |_| h.set(h.get() + 1));
            m.start();
            for _ in 0..events {
                m.submit(black_box(counter::Event::Inc));
            }
            println!("heard: {}", heard.get());
        }
        "owned-toggle" => {
            let mut core = Core::<toggle::ToggleChart>::new();
            core.start();
            for _ in 0..events {
                core.submit(black_box(toggle::Event::Toggle))
                    .expect("the chart runs");
            }
            println!("on: {}", core.is_active(toggle::State::On));
        }
        "owned-observed-toggle" => {
            let mut entries = 0u64;
            let mut core =
                Core::<toggle::ToggleChart, _>::with_observer(States(|state, entered| {
                    entries += u64::from(state == toggle::State::On && entered)
                }));
            core.start();
            for _ in 0..events {
                core.submit(black_box(toggle::Event::Toggle))
                    .expect("the chart runs");
            }
            drop(core);
            println!("entries: {entries}");
        }
        "owned-boxed-toggle" => {
            let entries = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
            let e = entries.clone();
            let mut core = Core::<toggle::ToggleChart>::new();
            core.on_state(toggle::State::On, move |on| {
                e.store(
                    e.load(std::sync::atomic::Ordering::Relaxed) + u64::from(on),
                    std::sync::atomic::Ordering::Relaxed,
                );
            });
            core.start();
            for _ in 0..events {
                core.submit(black_box(toggle::Event::Toggle))
                    .expect("the chart runs");
            }
            println!(
                "entries: {}",
                entries.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
        "owned-boxed-counter" => {
            let heard = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
            let h = heard.clone();
            let mut core = Core::<counter::CounterChart>::new();
            core.observe(move |_| {
                h.store(
                    h.load(std::sync::atomic::Ordering::Relaxed) + 1,
                    std::sync::atomic::Ordering::Relaxed,
                );
            });
            core.start();
            for _ in 0..events {
                core.submit(black_box(counter::Event::Inc))
                    .expect("the chart runs");
            }
            println!(
                "heard: {}",
                heard.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
        "owned-counter" => {
            let mut core = Core::<counter::CounterChart>::new();
            core.start();
            for _ in 0..events {
                core.submit(black_box(counter::Event::Inc))
                    .expect("the chart runs");
            }
            println!("count: {}", core.data().count);
        }
        "owned-observed-counter" => {
            let mut heard = 0u64;
            let mut core =
                Core::<counter::CounterChart, _>::with_observer(Events(|_: &counter::Event| {
                    heard += 1;
                }));
            core.start();
            for _ in 0..events {
                core.submit(black_box(counter::Event::Inc))
                    .expect("the chart runs");
            }
            let count = core.data().count;
            drop(core);
            println!("count: {count}, heard: {heard}");
        }
        "owned-sudoku-tap" => owned_sudoku_tap(events),
        name if name.starts_with("Transitions.") || name.starts_with("LCCA.") => {
            let (_, run) = scxml_bench::uscxml::USCXML
                .iter()
                .find(|(chart, _)| *chart == name)
                .unwrap_or_else(|| panic!("`{name}` is not among the compiled uSCXML charts"));
            println!("mark entries: {}", run(events));
        }
        "sudoku-tap" | "sudoku-tap-string" | "sudoku-tap-twin" | "sudoku-tap-json-twin" => {
            sudoku_tap(&machine, events)
        }
        "deep-toggle" => {
            let m = deep_toggle::DeepToggle::new();
            m.start();
            for _ in 0..events {
                m.submit_event(black_box(deep_toggle::events::TOGGLE), ());
            }
            println!("on: {}", m.is_active(deep_toggle::State::On));
        }
        "targetless" => {
            let m = targetless::Targetless::new();
            m.start();
            for _ in 0..events {
                m.submit_event(black_box(targetless::events::PING), ());
            }
            println!("active: {:?}", m.active_state_ids());
        }
        "hand-written" => {
            let mut m = HandToggle::default();
            for _ in 0..events {
                m.submit(black_box("toggle"));
            }
            println!("{:?}", black_box(m));
        }
        other => {
            eprintln!(
                "unknown machine `{other}`: toggle, observed-toggle, typed-toggle, \
                 typed-observed-toggle, owned-toggle, owned-observed-toggle, owned-counter, \
                 owned-observed-counter, owned-boxed-toggle, owned-boxed-counter, owned-sudoku-tap, deep-toggle, targetless, counter, observed-counter, \
                 hand-written, sudoku-tap, sudoku-tap-string, sudoku-tap-twin or \
                 sudoku-tap-json-twin"
            );
            std::process::exit(2);
        }
    }
}

/// `events` taps on the Sudoku chart's first empty cell while a game runs, as `how` says.
fn sudoku_tap(how: &str, events: usize) {
    use sudoku_machine::datamodel::Position;
    use sudoku_machine::{puzzle, Event, Sudoku};
    let grid = puzzle::parse(include_str!("../../../puzzles/sudoku.data")).expect("a puzzle");
    let shown = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let s = shown.clone();
    if how == "sudoku-tap-json-twin" {
        let mut twin = scxml_bench::twins::TapTwin::new(
            grid,
            Box::new(move |current, givens, view| {
                let data = serde_json::json!({
                    "currentState": current, "initState": givens, "view": view
                });
                s.set(s.get() + u64::from(data.get("view").is_some()));
            }),
        );
        for _ in 0..events {
            let tap = black_box(serde_json::json!({"x": 0, "y": 0}));
            if let Ok(position) = serde_json::from_value::<Position>(tap) {
                twin.tap(position);
            }
        }
        println!("shown: {}", shown.get());
        return;
    }
    if how == "sudoku-tap-twin" {
        let mut twin = scxml_bench::twins::TapTwin::new(
            grid,
            Box::new(move |_, _, update| s.set(s.get() + update.cells.len() as u64)),
        );
        for _ in 0..events {
            twin.tap(black_box(Position { x: 0, y: 0 }));
        }
        println!("shown: {}", shown.get());
        return;
    }
    let m = Sudoku::new();
    m.set_initial_values(serde_json::json!({ "initState": grid }))
        .expect("a grid");
    if how == "sudoku-tap" {
        m.observe(move |e| {
            if let Event::UpdateGui(u) = e {
                s.set(s.get() + u.view.cells.len() as u64);
            }
        });
    } else {
        m.connect_to_event("updateGUI view", move |e| {
            s.set(s.get() + u64::from(e.data.get("view").is_some()));
        });
    }
    m.start();
    m.submit_event(sudoku_machine::events::START, ());
    for _ in 0..events {
        if how == "sudoku-tap" {
            m.submit(black_box(Event::Tap(Position { x: 0, y: 0 })));
        } else {
            m.submit_event(
                black_box(sudoku_machine::events::TAP),
                serde_json::json!({"x": 0, "y": 0}),
            );
        }
    }
    println!("shown: {}", shown.get());
}

/// `events` taps on the Sudoku chart's first empty cell while a game runs, on the owned core
/// with a typed observer of `updateGUI`.
fn owned_sudoku_tap(events: usize) {
    use sudoku_machine::datamodel::Position;
    use sudoku_machine::{puzzle, Event, SudokuChart};
    let grid = puzzle::parse(include_str!("../../../puzzles/sudoku.data")).expect("a puzzle");
    let mut shown = 0u64;
    let mut core = Core::<SudokuChart, _>::with_observer(Events(|e: &Event| {
        if let Event::UpdateGui(u) = e {
            shown += u.view.cells.len() as u64;
        }
    }));
    core.set_initial_values(serde_json::json!({ "initState": grid }))
        .expect("a grid");
    core.start();
    core.submit(Event::Start(serde_json::Value::Null))
        .expect("the chart runs");
    for _ in 0..events {
        core.submit(black_box(Event::Tap(Position { x: 0, y: 0 })))
            .expect("the chart runs");
    }
    drop(core);
    println!("shown: {shown}");
}
