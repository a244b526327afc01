//! Rust names: ids and event names that differ only in punctuation or case compile (each
//! gets its own name, see `ident` and `validate/names.rs`), and `rs:name` chooses a state's
//! name; what is wrong with an `rs:name` is a located error. (The generated machines run in
//! `scion/tests/qt_compat.rs`.)
#![cfg(feature = "compiler")]

use std::path::Path;
use sudoku_scxmlc::{Config, Error};

const HEAD: &str = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:rs="urn:sudoku-scxmlc:rust" version="1.0""#;

fn generate(chart: &str) -> Result<sudoku_scxmlc::Generated, String> {
    match Config::new().generate(Path::new("n.scxml"), chart) {
        Ok(g) => Ok(g),
        Err(e @ Error::Chart { .. }) => Err(e.to_string()),
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

#[test]
fn clashing_pretty_names_get_suffixes_in_document_order() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"s.1\"><transition event=\"a.b\" target=\"s1\"/></state>\n  <state id=\"s1\"><transition event=\"a-b\" target=\"S_1\"/></state>\n  <final id=\"S_1\"/>\n</scxml>\n"
    );
    let code = generate(&chart).unwrap().code;
    for needle in [
        "S1 = 1,",
        "S1_2 = 2,",
        "S1_3 = 3,",
        "pub const A_B: &str = \"a.b\";",
        "pub const A_B_2: &str = \"a-b\";",
    ] {
        assert!(code.contains(needle), "missing {needle:?} in\n{code}");
    }
}

#[test]
fn rs_name_names_the_variant() {
    let chart =
        format!("{HEAD}>\n  <state id=\"wait-for-reply\" rs:name=\"Waiting\"/>\n</scxml>\n");
    let code = generate(&chart).unwrap().code;
    assert!(code.contains("Waiting = 1,"), "{code}");
    assert!(code.contains("`<state id=\"wait-for-reply\">`"), "{code}");
}

#[test]
fn a_wrong_rs_name_is_a_located_error() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\" rs:name=\"not ok\"/>\n  <state id=\"b\" rs:name=\"ALL\"/>\n  <state id=\"c\" rs:name=\"Same\"/>\n  <final id=\"d\" rs:name=\"Same\"/>\n  <transition rs:name=\"X\"/>\n</scxml>\n"
    );
    let out = generate(&chart).unwrap_err();
    for needle in [
        "n.scxml:2:26: error: `rs:name=\"not ok\"` is not a Rust identifier",
        "n.scxml:3:26: error: `rs:name=\"ALL\"` is the name of an item of `State` (ALL, id, from_id)",
        "n.scxml:5:26: error: duplicate `rs:name=\"Same\"`\n",
        "= help: the state at line 4 already has this Rust name",
        "n.scxml:6:4: error: `<transition>` is not allowed inside `<scxml>`",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    // Each mistake once (a misplaced element is not validated further).
    assert!(
        out.ends_with("could not compile `n.scxml`: 4 errors"),
        "{out}"
    );
}

#[test]
fn a_history_without_default_warns_and_says_what_it_enters() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"p\" initial=\"y\">\n    <history id=\"h\"/>\n    <state id=\"x\"/>\n    <state id=\"y\"><transition event=\"e\" target=\"h\"/></state>\n  </state>\n</scxml>\n"
    );
    let warnings = generate(&chart).unwrap().warnings.join("");
    assert!(
        warnings.starts_with("n.scxml:3:6: warning: history state `h` has no default `<transition>`; until it has a history it enters `p`'s initial state `y`\n"),
        "{warnings}"
    );
    assert!(
        warnings.contains("= help: SCXML 1.0 (3.10.2) requires the default transition"),
        "{warnings}"
    );
}

#[test]
fn an_empty_chart_warns() {
    let warnings = generate(&format!("{HEAD}/>")).unwrap().warnings.join("");
    assert!(
        warnings.starts_with("n.scxml:1:2: warning: the chart has no states"),
        "{warnings}"
    );
}
