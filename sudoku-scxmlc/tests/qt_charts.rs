//! Qt's own charts (`tests/charts/qt`, see its README): `sudoku-scxmlc check` accepts every
//! valid chart Qt's compiler tests compile and refuses every one its parser tests reject,
//! each with a located error; charts of other datamodels (ECMAScript, Qt's C++ one) are
//! refused at their `datamodel` attribute.
#![cfg(feature = "compiler")]

use std::path::{Path, PathBuf};
use sudoku_scxmlc::{read_chart, Config};

fn chart(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/charts/qt")
        .join(name)
}

fn check(name: &str) -> Result<Vec<String>, String> {
    let path = chart(name);
    let text = read_chart(&path).map_err(|e| e.to_string())?;
    Config::new()
        .check(&path, &text)
        .map(|c| c.warnings)
        .map_err(|e| e.to_string())
}

#[test]
fn charts_qt_compiles_are_accepted() {
    for name in [
        "compiled/eventnames2.scxml",
        "compiled/topmachine.scxml",
        "compiled/submachineA.scxml",
        "compiled/submachineB.scxml",
        "parser/namespaces1.scxml",
        "statemachine/test1.scxml",
        "examples/invoke.scxml",
        "examples/trafficlight.scxml",
    ] {
        if let Err(e) = check(name) {
            panic!("{name} is refused:\n{e}");
        }
        // And the whole pipeline generates code for it.
        let path = chart(name);
        let text = read_chart(&path).unwrap();
        Config::new()
            .generate(&path, &text)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn charts_qts_parser_rejects_are_refused_with_located_errors() {
    let cases = [
        ("parser/test1.scxml", "test1.scxml:5:43: error: `b` is not a state id"),
        (
            "parser/invalidRoot3.scxml",
            "invalidRoot3.scxml:9:1: error: malformed XML: ill-formed document: expected `</scxma>`, but `</scxml>` was found",
        ),
    ];
    for (name, want) in cases {
        let err = check(name).expect_err(name);
        assert!(err.contains(want), "{name}: missing {want:?} in\n{err}");
    }
}

#[test]
fn charts_of_the_cplusplus_datamodel_are_refused_at_their_datamodel() {
    let err = check("examples/mediaplayer.scxml").expect_err("mediaplayer");
    assert!(
        err.contains("mediaplayer.scxml:11:16:") && err.contains("datamodel is not supported"),
        "{err}"
    );
}

#[cfg(feature = "ecmascript")]
#[test]
fn ecmascript_charts_compile_unchanged() {
    for name in [
        "examples/calculator.scxml",
        "examples/ftpclient-simpleftp.scxml",
        "statemachine/finalizeOnDoneInvokeEvent.scxml",
    ] {
        if let Err(e) = check(name) {
            panic!("{name}:\n{e}");
        }
    }
}
