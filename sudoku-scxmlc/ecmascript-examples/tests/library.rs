//! XML as a DOM document (SCXML 1.0, B.2.2 and B.2.3) through a whole machine: a `<data>`
//! document read and changed by chart code, seen from Rust as `{"$xml": markup}`, kept by a
//! snapshot, replaced by an `<assign>` of inline XML, and an XML `<content>` that reaches
//! `_event.data` as a document.

use scxml_ecmascript_examples::library::Library;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use sudoku_scxmlc::runtime::Event;

/// The events the machine sends, recorded.
fn record(machine: &Library) -> (Rc<RefCell<Vec<Event>>>, sudoku_scxmlc::runtime::Connection) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = Rc::clone(&seen);
    let connection = machine.connect_to_event("*", move |e| sink.borrow_mut().push(e.clone()));
    (seen, connection)
}

const START: &str = "<books>\n                <book title=\"Dune\" year=\"1965\"/>\n                <book title=\"Solaris\" year=\"1961\"/>\n            </books>";

#[test]
fn a_data_document_is_read_and_changed_by_chart_code() {
    let machine = Library::new();
    let (seen, _c) = record(&machine);
    machine.start();
    assert_eq!(machine.data_value("count"), Some(json!(2)));
    // From Rust, the document is its markup.
    assert_eq!(
        machine.data_value("catalogue"),
        Some(json!({ "$xml": START }))
    );
    machine.submit_event("add", json!({ "title": "Ubik", "year": 1969 }));
    assert_eq!(machine.data_value("count"), Some(json!(3)));
    let titles: Vec<Value> = seen
        .borrow()
        .iter()
        .filter(|e| e.name == "titles")
        .map(|e| e.data["titles"].clone())
        .collect();
    assert_eq!(titles, [json!(["Dune", "Solaris", "Ubik"])]);
    let markup = machine.data_value("catalogue").unwrap()["$xml"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        markup.ends_with("<book title=\"Ubik\" year=\"1969\"/></books>"),
        "{markup}"
    );

    // A snapshot keeps the document as a document.
    let snapshot = machine.snapshot().unwrap();
    let restored = Library::restore(&snapshot).unwrap();
    let (seen, _c) = record(&restored);
    restored.submit_event("add", json!({ "title": "Eon", "year": 1985 }));
    let last = seen.borrow().last().cloned().unwrap();
    assert_eq!(
        last.data["titles"],
        json!(["Dune", "Solaris", "Ubik", "Eon"])
    );
}

#[test]
fn an_assign_of_inline_xml_makes_a_new_document() {
    let machine = Library::new();
    let (seen, _c) = record(&machine);
    machine.start();
    machine.submit_event("reset", Value::Null);
    // Chart code counted the books of the assigned document.
    assert_eq!(machine.data_value("count"), Some(json!(1)));
    let picnic = "<books><book title=\"Roadside Picnic\" year=\"1972\"/></books>";
    assert_eq!(
        machine.data_value("catalogue"),
        Some(json!({ "$xml": picnic }))
    );
    machine.submit_event("add", json!({ "title": "Ubik", "year": 1969 }));
    assert_eq!(machine.data_value("count"), Some(json!(2)));
    assert_eq!(
        seen.borrow().last().map(|e| e.data["titles"].clone()),
        Some(json!(["Roadside Picnic", "Ubik"]))
    );
    // The next `reset` assigns a new document, not the one `add` changed.
    machine.submit_event("reset", Value::Null);
    assert_eq!(machine.data_value("count"), Some(json!(1)));
    assert_eq!(
        machine.data_value("catalogue"),
        Some(json!({ "$xml": picnic }))
    );
}

#[test]
fn xml_content_arrives_as_a_document() {
    let machine = Library::new();
    let (seen, _c) = record(&machine);
    machine.start();
    machine.submit_event("lend", Value::Null);
    let seen = seen.borrow();
    let receipt = seen
        .iter()
        .find(|e| e.name == "receipt")
        .expect("a receipt");
    // Observers get the XML value; chart code got a document (it answered `due`).
    assert_eq!(
        receipt.data,
        json!({ "$xml": "<receipt book=\"Dune\"><due>14 days</due></receipt>" })
    );
    let due = seen.iter().find(|e| e.name == "due").expect("an answer");
    assert_eq!(due.data, json!({ "due": "14 days" }));
}

#[test]
fn xml_submitted_from_rust_is_a_document_too() {
    let machine = Library::new();
    let (seen, _c) = record(&machine);
    machine.start();
    machine.submit_event(
        "receipt",
        json!({ "$xml": "<receipt book='Dune'><due>a week</due></receipt>" }),
    );
    let due = seen.borrow().iter().find(|e| e.name == "due").cloned();
    assert_eq!(due.map(|e| e.data), Some(json!({ "due": "a week" })));
}
