//! A panic in chart code (`charts/panics.scxml`) becomes `error.execution` located at its
//! `<script>` or `cond` (line and column), and is not printed by the panic hook; a panic
//! elsewhere still is. (Alone in its test binary: the panic hook is process-wide.)

mod chart {
    include!(concat!(env!("OUT_DIR"), "/panics.rs"));
}

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use sudoku_scxmlc::runtime::RuntimeError;

#[test]
fn a_panic_in_chart_code_is_reported_at_its_element_and_not_printed() {
    let printed = Arc::new(AtomicUsize::new(0));
    let count = printed.clone();
    std::panic::set_hook(Box::new(move |info| {
        count.fetch_add(1, Ordering::SeqCst);
        eprintln!("{info}");
    }));

    let m = chart::Panics::new();
    let errors = Rc::new(RefCell::new(Vec::new()));
    let log = errors.clone();
    m.connect_to_error(move |e| log.borrow_mut().push(e.clone()));
    m.start();
    m.submit_event(chart::events::SCRIPT, ());
    m.submit_event(chart::events::COND, ());
    assert!(m.is_active(chart::State::Idle));
    let errors = errors.borrow();
    let sites: Vec<(String, u32, u32)> = errors
        .iter()
        .map(|e| match e {
            RuntimeError::Execution {
                element,
                line,
                column,
                message,
                ..
            } => {
                assert!(
                    message.starts_with("chart code panicked at ")
                        && message.contains("index out of bounds"),
                    "{message}"
                );
                (element.clone(), *line, *column)
            }
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(
        sites,
        [
            ("script".to_owned(), 12, 14), // the element name, as for every element
            ("transition".to_owned(), 14, 40), // the `cond` value
        ]
    );
    assert_eq!(
        printed.load(Ordering::SeqCst),
        0,
        "caught panics stay quiet"
    );

    // A panic outside chart code reaches the hook as before.
    let _ = std::panic::catch_unwind(|| panic!("not chart code"));
    assert_eq!(printed.load(Ordering::SeqCst), 1);
}
