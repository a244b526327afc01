//! Golden tests of the generated code: each chart in `tests/golden/` is compiled and its output
//! compared with the committed snapshot in `tests/snapshots/`. Review changes with
//! `cargo insta review` (or `INSTA_UPDATE=always cargo test` and `git diff`).
#![cfg(feature = "compiler")]

use std::path::Path;

/// The code generated for `tests/golden/NAME.scxml` with `config`; the chart has no warnings.
fn generate(name: &str, config: &sudoku_scxmlc::Config) -> String {
    let path = Path::new("tests/golden").join(format!("{name}.scxml"));
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    let generated = config.generate(&path, &text).unwrap();
    assert!(generated.warnings.is_empty(), "{:?}", generated.warnings);
    generated.code
}

#[test]
fn features_chart() {
    let code = generate("features", &sudoku_scxmlc::Config::new());
    insta::assert_snapshot!("features", code);
}

#[test]
fn features_chart_with_a_newtype_state() {
    let code = generate("features", sudoku_scxmlc::Config::new().state_enum_limit(0));
    insta::assert_snapshot!("features_newtype", code);
}

#[test]
fn lamp_chart_with_precomputed_steps() {
    let code = generate("lamp", &sudoku_scxmlc::Config::new());
    insta::assert_snapshot!("lamp", code);
}

/// A ring of `n` states, each with its own transition on `go`: `n` arms in `step`.
fn ring(n: usize) -> String {
    let mut s = String::from(
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\"Ring\">\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "<state id=\"s{i}\"><transition event=\"go\" target=\"s{}\"/></state>\n",
            (i + 1) % n
        ));
    }
    s + "</scxml>\n"
}

#[test]
fn generated_macrosteps_are_bounded_by_their_arms() {
    let config = sudoku_scxmlc::Config::new();
    let small = config.generate(Path::new("ring.scxml"), ring(512)).unwrap();
    assert!(small.code.contains("fn step("));
    // One arm more: `step` would be one item too big to format cheaply (docs/scale.md).
    let big = config.generate(Path::new("ring.scxml"), ring(513)).unwrap();
    assert!(!big.code.contains("fn step("));
    assert!(!big.code.contains("const STEP"));
}
