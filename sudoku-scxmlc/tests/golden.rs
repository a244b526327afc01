//! Golden tests of the generated code: each chart in `tests/golden/` is compiled and its output
//! compared with the committed snapshot in `tests/snapshots/`. Review changes with
//! `cargo insta review` (or `INSTA_UPDATE=always cargo test` and `git diff`).
#![cfg(feature = "compiler")]

use std::path::Path;

#[test]
fn features_chart() {
    let path = Path::new("tests/golden/features.scxml");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let generated = sudoku_scxmlc::Config::new().generate(path, &text).unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    insta::assert_snapshot!("features", generated.code);
}

#[test]
fn features_chart_with_a_newtype_state() {
    let path = Path::new("tests/golden/features.scxml");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let generated = sudoku_scxmlc::Config::new()
        .state_enum_limit(0)
        .generate(path, &text)
        .unwrap();
    insta::assert_snapshot!("features_newtype", generated.code);
}

#[test]
fn lamp_chart_with_precomputed_steps() {
    let path = Path::new("tests/golden/lamp.scxml");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let generated = sudoku_scxmlc::Config::new().generate(path, &text).unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    insta::assert_snapshot!("lamp", generated.code);
}
