//! Robustness (issue 4, item 7): inputs the fuzzer (`fuzz/`) found, plus hand-made hostile
//! charts. Each must compile or fail with a located error (`fuzz.scxml:LINE:COL: ...`) without
//! panicking or overflowing the stack. (How long they take is a benchmark's business, not a
//! test's.)
//!
//! A crash minimised with `cargo fuzz tmin` goes into `tests/fuzz_regressions/` as is; the
//! test below runs every file there.
#![cfg(feature = "compiler")]

use std::path::Path;
use sudoku_scxmlc::Config;

const HEAD: &str = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#;

/// Compiles `text`; returns `Ok(())` or the error text, which must be located.
fn run(text: &str) -> Result<(), String> {
    let result = Config::new().generate(Path::new("fuzz.scxml"), text);
    match result {
        Ok(_) => Ok(()),
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.starts_with("fuzz.scxml:"), "unlocated error: {shown}");
            Err(shown)
        }
    }
}

fn error(text: &str) -> String {
    match run(text) {
        Ok(()) => panic!("compiled, expected an error"),
        Err(e) => e,
    }
}

#[test]
fn stored_fuzz_inputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) != Some("md"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        // The fuzz target skips input that is not UTF-8; converting lossily still tests it.
        let text = String::from_utf8_lossy(&bytes);
        eprintln!("{}", file.display());
        let _ = run(&text);
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    let depth = 100_000;
    let text = format!(
        "{HEAD}>{}{}</scxml>",
        "<state>".repeat(depth),
        "</state>".repeat(depth)
    );
    assert!(error(&text).contains("nested deeper"));
}

#[test]
fn unclosed_deep_nesting_is_an_error() {
    let text = format!("{HEAD}>{}", "<state>".repeat(100_000));
    let _ = error(&text);
}

#[test]
fn entity_bomb_is_refused_and_not_expanded() {
    let mut text =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [\n  <!ENTITY lol \"lol\">\n");
    text.push_str("  <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n");
    for i in 2..=9 {
        let prev = format!("&lol{};", i - 1);
        text.push_str(&format!("  <!ENTITY lol{i} \"{}\">\n", prev.repeat(10)));
    }
    text.push_str("]>\n");
    text.push_str(&format!(
        "{HEAD}><state id=\"&lol9;\"><transition event=\"&lol9;\"/></state></scxml>\n"
    ));
    assert!(error(&text).contains("DOCTYPE"));
}

#[test]
fn undeclared_entities_are_errors() {
    let text = format!("{HEAD}><state id=\"&lol9;\"/></scxml>");
    let _ = error(&text);
    let text = format!("{HEAD}><state id=\"a\">&lol9;</state></scxml>");
    let _ = error(&text);
}

#[test]
fn external_entity_is_refused() {
    let text = format!(
        "<!DOCTYPE scxml [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>{HEAD}><state id=\"&xxe;\"/></scxml>"
    );
    assert!(error(&text).contains("DOCTYPE"));
}

#[test]
fn megabyte_attributes() {
    let big = "a".repeat(1 << 20);
    let _ = run(&format!("{HEAD}><state id=\"{big}\"/></scxml>"));
    let _ = run(&format!("{HEAD} name=\"{big}\"><state id=\"s\"/></scxml>"));
    let _ = run(&format!(
        "{HEAD}><state id=\"s\"><transition event=\"{big}\" target=\"{big}\"/></state></scxml>"
    ));
    let events = "e ".repeat(1 << 19);
    let _ = run(&format!(
        "{HEAD}><state id=\"s\"><transition event=\"{events}\" target=\"s\"/></state></scxml>"
    ));
    let _ = run(&format!(
        "{HEAD} datamodel=\"rust\"><state id=\"s\"><transition cond=\"{}\"/></state></scxml>",
        "!".repeat(1 << 20)
    ));
}

#[test]
fn deeply_nested_rust_code() {
    // syn parses expressions recursively; a chart with thousands of nested parentheses or
    // blocks must not blow the stack.
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("-", ""), ("&amp;", "")] {
        let n = 20_000;
        let code = format!("{}1{}", open.repeat(n), close.repeat(n));
        let _ = run(&format!(
            "{HEAD} datamodel=\"rust\"><state id=\"s\"><transition cond=\"{code}\"/></state></scxml>"
        ));
    }
}

#[test]
fn nul_bytes_and_control_characters() {
    let _ = error("\0");
    let _ = error(&format!("{HEAD}>\0</scxml>"));
    let _ = error(&format!("{HEAD}><state id=\"a\0b\"/></scxml>"));
    let _ = error(&format!("{HEAD}><state\0 id=\"a\"/></scxml>"));
    let _ = run(&format!("{HEAD}><state id=\"a\"/><!-- \0 --></scxml>"));
    let _ = run(&format!(
        "{HEAD}><state id=\"a\u{1}\u{7f}\u{feff}\"/></scxml>"
    ));
}

#[test]
fn unbalanced_tags() {
    for text in [
        format!("{HEAD}><state id=\"a\"></scxml>"),
        format!("{HEAD}><state id=\"a\"/></state></scxml>"),
        format!("{HEAD}>"),
        HEAD.to_owned(),
        "</scxml>".to_owned(),
        "<".to_owned(),
        "<scxml".to_owned(),
        format!("{HEAD}><state id=\"a\"/></scxml><scxml/>"),
        format!("{HEAD}><state id=\"a\"/></scxml>trailing"),
        format!("{HEAD}><![CDATA[ unterminated"),
        format!("{HEAD}><!-- unterminated"),
        String::new(),
    ] {
        let _ = error(&text);
    }
}

#[test]
fn ten_thousand_sibling_states() {
    // Linear in the number of states, but a debug build emits slowly: about 30 s here.
    let states: String = (0..10_000)
        .map(|i| format!("\n<state id=\"s{i}\"/>"))
        .collect();
    run(&format!("{HEAD} initial=\"s0\">{states}\n</scxml>")).unwrap();
}

/// Rendering a diagnostic reads its whole line, so thousands of them on one line (a minified
/// chart) were quadratic: at most [`MAX_RENDERED`](sudoku_scxmlc::diagnostic::MAX_RENDERED)
/// are rendered, the rest counted.
#[test]
fn ten_thousand_warnings_on_one_line() {
    let states: String = (0..10_000)
        .map(|i| format!("<state id=\"s{i}\"/>"))
        .collect();
    let generated = Config::new()
        .generate(Path::new("fuzz.scxml"), format!("{HEAD}>{states}</scxml>"))
        .unwrap();
    // s0 is the initial state; the other 9 999 are unreachable. 100 are rendered.
    assert_eq!(generated.warnings.len(), 101);
    assert!(generated.warnings[100].contains("and 9899 more warnings not shown"));
}

#[test]
fn nesting_just_under_the_limit() {
    // A valid chart as deep as the parser allows goes through validate, plan and emit.
    let depth = 500;
    let mut text = format!("{HEAD}>");
    for i in 0..depth {
        text.push_str(&format!("<state id=\"s{i}\">"));
    }
    text.push_str(&format!(
        "<transition event=\"e\" target=\"s0\" cond=\"In('s{}')\"/>",
        depth / 2
    ));
    text.push_str(&"</state>".repeat(depth));
    text.push_str("</scxml>");
    run(&text).unwrap();
}

/// Found by the fuzzer: `syn` skips whitespace around an identifier, so `"index "` passed as
/// a Rust name and the generator panicked making it an `Ident`.
#[test]
fn names_with_surrounding_whitespace_are_located_errors() {
    let e = error(&format!(
        r#"{HEAD} datamodel="rust"><datamodel><data id="index " expr="0"/></datamodel><state id="s"/></scxml>"#
    ));
    assert!(
        e.starts_with("fuzz.scxml:1:")
            && e.contains("data id `index ` is not usable as a Rust name"),
        "{e}"
    );
}
