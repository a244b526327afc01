//! Typed events on a warmed, observed machine allocate nothing: a counting allocator (per
//! thread, so that tests running at the same time do not count each other) around 1,000
//! events after 100 to warm the machine's buffers up.

use scxml_bench::{counter, toggle};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use sudoku_scxmlc::runtime::{Core, Events, States};

/// The system allocator, counting the allocations of each thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the count is a
// thread-local `Cell` with a constant initializer, which itself never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_observed_toggle_allocates_nothing_per_typed_event() {
    let m = toggle::Toggle::new();
    let entries = Rc::new(Cell::new(0u64));
    let e = entries.clone();
    m.connect_to_state(toggle::State::On, move |on| e.set(e.get() + u64::from(on)));
    let heard = Rc::new(Cell::new(0u64));
    let h = heard.clone();
    m.observe(move |_| h.set(h.get() + 1));
    m.start();
    for _ in 0..100 {
        m.submit(toggle::Event::Toggle);
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            m.submit(toggle::Event::Toggle);
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 observed toggle events");
    assert_eq!((entries.get(), heard.get()), (550, 1100));
}

#[test]
fn the_observed_counter_allocates_nothing_per_typed_event() {
    let m = counter::Counter::new();
    let heard = Rc::new(Cell::new(0u64));
    let h = heard.clone();
    m.observe(move |e| h.set(h.get() + u64::from(*e == counter::Event::Inc)));
    m.start();
    for _ in 0..100 {
        m.submit(counter::Event::Inc);
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            m.submit(counter::Event::Inc);
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 observed counter events");
    assert_eq!((m.with_data(|d| d.count), heard.get()), (1100, 1100));
}

#[test]
fn the_counter_allocates_nothing_per_typed_event_unobserved() {
    let m = counter::Counter::new();
    m.start();
    for _ in 0..100 {
        m.submit(counter::Event::Inc);
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            m.submit(counter::Event::Inc);
        }
    });
    assert_eq!(n, 0);
    assert_eq!(m.with_data(|d| d.count), 1100);
}

#[test]
fn named_events_of_the_chart_allocate_nothing_with_typed_and_state_observers() {
    // `submit_event` with a name of the chart and no data types the event and takes the
    // same lane as `submit`.
    let m = toggle::Toggle::new();
    let entries = Rc::new(Cell::new(0u64));
    let e = entries.clone();
    m.connect_to_state(toggle::State::On, move |on| e.set(e.get() + u64::from(on)));
    let heard = Rc::new(Cell::new(0u64));
    let h = heard.clone();
    m.observe(move |_| h.set(h.get() + 1));
    m.start();
    for _ in 0..100 {
        m.submit_event(toggle::events::TOGGLE, ());
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            m.submit_event(toggle::events::TOGGLE, ());
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 observed toggle events by name");
    assert_eq!((entries.get(), heard.get()), (550, 1100));
}

#[test]
fn an_observer_that_submits_again_allocates_nothing_once_warm() {
    // Each `inc` the observer hears below 2,000 submits another: re-entrant submissions are
    // queued and processed after the observer returns, from buffers that are reused.
    let m = counter::Counter::new();
    let weak = m.downgrade();
    let heard = Rc::new(Cell::new(0u64));
    let h = heard.clone();
    m.observe(move |_| {
        h.set(h.get() + 1);
        if h.get() % 2 == 1 {
            if let Some(m) = weak.upgrade() {
                m.submit(counter::Event::Inc);
            }
        }
    });
    m.start();
    for _ in 0..100 {
        m.submit(counter::Event::Inc);
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            m.submit(counter::Event::Inc);
        }
    });
    assert_eq!(
        n, 0,
        "allocations in 1,000 counter events with re-entrant submissions"
    );
    assert_eq!((m.with_data(|d| d.count), heard.get()), (2200, 2200));
}

#[test]
fn the_owned_toggle_allocates_nothing_per_typed_event_with_a_typed_observer() {
    let mut entries = 0u64;
    let mut core = Core::<toggle::ToggleChart, _>::with_observer(States(|state, entered| {
        entries += u64::from(state == toggle::State::On && entered);
    }));
    core.start();
    for _ in 0..100 {
        core.submit(toggle::Event::Toggle).unwrap();
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            core.submit(toggle::Event::Toggle).unwrap();
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 owned observed toggle events");
    assert!(core.is_active(toggle::State::Off));
    drop(core);
    assert_eq!(entries, 550);
}

#[test]
fn the_owned_toggle_allocates_nothing_per_typed_event_with_boxed_callbacks() {
    let mut core = Core::<toggle::ToggleChart>::new();
    let entries = Arc::new(AtomicU64::new(0));
    let e = entries.clone();
    core.on_state(toggle::State::On, move |on| {
        e.fetch_add(u64::from(on), Ordering::Relaxed);
    });
    let heard = Arc::new(AtomicU64::new(0));
    let h = heard.clone();
    core.observe(move |_| {
        h.fetch_add(1, Ordering::Relaxed);
    });
    core.start();
    for _ in 0..100 {
        core.submit(toggle::Event::Toggle).unwrap();
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            core.submit(toggle::Event::Toggle).unwrap();
        }
        // By name: the same lane.
        for _ in 0..1000 {
            core.submit_event(toggle::events::TOGGLE, ()).unwrap();
        }
    });
    assert_eq!(
        n, 0,
        "allocations in 2,000 owned toggle events, boxed callbacks"
    );
    assert_eq!(
        (
            entries.load(Ordering::Relaxed),
            heard.load(Ordering::Relaxed)
        ),
        (1050, 2100)
    );
}

#[test]
fn the_owned_counter_allocates_nothing_per_typed_event() {
    let mut heard = 0u64;
    let mut core = Core::<counter::CounterChart, _>::with_observer(Events(|e: &counter::Event| {
        heard += u64::from(*e == counter::Event::Inc);
    }));
    core.start();
    for _ in 0..100 {
        core.submit(counter::Event::Inc).unwrap();
    }
    let n = allocations(|| {
        for _ in 0..1000 {
            core.submit(counter::Event::Inc).unwrap();
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 owned observed counter events");
    let count = core.data().count;
    drop(core);
    assert_eq!((count, heard), (1100, 1100));
    let mut quiet = Core::<counter::CounterChart>::new();
    quiet.start();
    quiet.submit(counter::Event::Inc).unwrap();
    let n = allocations(|| {
        for _ in 0..1000 {
            quiet.submit(counter::Event::Inc).unwrap();
        }
    });
    assert_eq!(
        n, 0,
        "allocations in 1,000 owned counter events, unobserved"
    );
    assert_eq!(quiet.data().count, 1001);
}

#[test]
fn the_counter_allocates_for_events_through_the_string_api_with_observers() {
    // The string API's observers hear an `Event` with a `String` name: that allocates, and
    // the test shows the counting works.
    let m = counter::Counter::new();
    m.connect_to_event(counter::events::INC, |_| {});
    m.start();
    m.submit_event(counter::events::INC, ());
    let n = allocations(|| m.submit_event(counter::events::INC, ()));
    assert!(n > 0);
}
