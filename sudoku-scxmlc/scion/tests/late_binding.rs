//! A late-binding chart gives the same snapshot whether its events took the precomputed
//! (quiet) path or the full interpreter: `bound` lists the states with `<data>` only.

mod chart {
    include!(concat!(env!("OUT_DIR"), "/late_binding.rs"));
}

use chart::LateBinding;
use sudoku_scxmlc::runtime::Event;

#[test]
fn snapshots_do_not_depend_on_the_path_events_took() {
    let quiet = LateBinding::new();
    let full = LateBinding::new();
    quiet.start();
    full.start();
    for name in ["go", "go", "b", "go", "go"] {
        quiet.submit_event(name, ());
        full.submit(Event::new(name, ()));
        let (q, f) = (quiet.snapshot().unwrap(), full.snapshot().unwrap());
        assert_eq!(q.configuration, f.configuration, "after {name}");
        assert_eq!(q.bound, f.bound, "after {name}");
        assert_eq!(q.data, f.data, "after {name}");
    }
    assert_eq!(full.snapshot().unwrap().bound, ["b"]);
}
