//! Compile-fail tests: a wrong chart gives located errors (`CHART:LINE:COL: message`, the chart
//! line and a caret), never a panic and never an error inside generated code.
#![cfg(feature = "compiler")]

use std::path::Path;
use sudoku_scxmlc::{Config, Error};

fn errors(chart: &str) -> String {
    match Config::new().generate(Path::new("bad.scxml"), chart) {
        Ok(_) => panic!("chart compiled, expected an error:\n{chart}"),
        Err(e @ Error::Chart { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

const HEAD: &str = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#;

#[test]
fn unknown_target() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"idle\">\n    <transition event=\"go\" target=\"solvd\"/>\n  </state>\n  <state id=\"solved\"/>\n</scxml>\n"
    );
    assert_eq!(
        errors(&chart),
        "bad.scxml:3:36: error: `solvd` is not a state id\n  |\n3 |     <transition event=\"go\" target=\"solvd\"/>\n  |                                    ^^^^^\n  = help: did you mean `solved`?\ncould not compile `bad.scxml`: 1 error"
    );
}

#[test]
fn duplicate_id() {
    let chart = format!("{HEAD}>\n  <state id=\"a\"/>\n  <final id=\"a\"/>\n</scxml>\n");
    assert_eq!(
        errors(&chart),
        "bad.scxml:3:14: error: duplicate state id `a`\n  |\n3 |   <final id=\"a\"/>\n  |              ^\n  = help: `a` is already the id of the state at line 2\ncould not compile `bad.scxml`: 1 error"
    );
}

#[test]
fn bad_event_names() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\">\n    <transition event=\"ok a..b\"/>\n    <onentry><raise event=\"x.*\"/></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.starts_with("bad.scxml:3:27: error: `a..b` is not a valid event descriptor\n"),
        "{out}"
    );
    assert!(
        out.contains("bad.scxml:4:28: error: `x.*` is not a valid event name\n"),
        "{out}"
    );
    assert!(
        out.ends_with("could not compile `bad.scxml`: 2 errors"),
        "{out}"
    );
}

#[test]
fn rust_syntax_error_in_cond() {
    let chart = format!(
        "{HEAD} datamodel=\"rust\">\n  <state id=\"a\">\n    <transition cond=\"x == == 1\" target=\"a\"/>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.starts_with("bad.scxml:3:28: error: invalid Rust expression: "),
        "{out}"
    );
    assert!(
        out.contains("3 |     <transition cond=\"x == == 1\" target=\"a\"/>\n"),
        "{out}"
    );
}

#[test]
fn every_problem_is_reported_in_one_run() {
    let chart = format!(
        "{HEAD} datamodel=\"rust\">\n  <state id=\"a\" initial=\"zz\">\n    <state id=\"b\"/>\n    <transition target=\"nowhere\"/>\n    <bogus/>\n  </state>\n  <parallel id=\"b\"/>\n</scxml>\n"
    );
    let out = errors(&chart);
    for needle in [
        "bad.scxml:2:26: error: `zz` is not a state id",
        "bad.scxml:4:25: error: `nowhere` is not a state id",
        "bad.scxml:5:6: error: `<bogus>` is not an SCXML element",
        "bad.scxml:7:17: error: duplicate state id `b`",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
}

#[test]
fn a_misspelt_element_gets_the_closest_allowed_one() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\">\n    <transtion event=\"go\" target=\"a\"/>\n    <zzzzzz/>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.contains("bad.scxml:3:6: error: `<transtion>` is not an SCXML element"),
        "{out}"
    );
    assert!(out.contains("did you mean `<transition>`?"), "{out}");
    assert_eq!(
        out.matches("did you mean").count(),
        1,
        "none for `<zzzzzz>`: {out}"
    );
}

#[test]
fn structural_rules() {
    let cases: &[(&str, &str)] = &[
        ("<scxml version=\"1.0\"/>", "the root element must be"),
        (
            r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="2.0"><state/></scxml>"#,
            "unsupported SCXML version `2.0`",
        ),
        (
            &format!("{HEAD} datamodel=\"xpath\"><state/></scxml>"),
            "the `xpath` datamodel is not supported",
        ),
        (
            &format!("{HEAD}><state id=\"a\" initial=\"b\"/><state id=\"b\"/></scxml>"),
            "state `a` has no child states, so it cannot have `initial`",
        ),
        (
            &format!("{HEAD}><state id=\"p\" initial=\"q\"><state id=\"x\"/></state><state id=\"q\"/></scxml>"),
            "initial state `q` is not a descendant of `p`",
        ),
        (
            &format!("{HEAD}><final id=\"f\"><transition target=\"f\"/></final></scxml>"),
            "`<transition>` is not allowed inside `<final>`",
        ),
        (
            &format!("{HEAD}><state id=\"a\" colour=\"red\"/></scxml>"),
            "`<state>` has no attribute `colour`",
        ),
        (
            &format!("{HEAD}><state id=\"a\"><transition cond=\"x &gt; 1\"/></state></scxml>"),
            "the null datamodel only has `In(state)` conditions",
        ),
        (
            &format!("{HEAD} datamodel=\"rust\"><datamodel><data id=\"type\"/></datamodel><state/></scxml>"),
            "data id `type` is not usable as a Rust name",
        ),
        (
            &format!("{HEAD}><state id=\"a\"><onentry><send event=\"e\" delay=\"soon\"/></onentry></state></scxml>"),
            "invalid `delay`",
        ),
        (
            &format!("{HEAD} name=\"state\"><state id=\"a\"/></scxml>"),
            "the machine type of chart `state` would be `State`, the name of its state type",
        ),
        ("<!DOCTYPE scxml [<!ENTITY x \"y\">]><scxml/>", "DOCTYPE declarations are not allowed"),
        (&format!("{HEAD}><state id=\"a\">"), "is never closed"),
        (&format!("{HEAD}><state id=\"a\"></stat></scxml>"), "malformed XML"),
    ];
    for (chart, needle) in cases {
        let out = errors(chart);
        assert!(
            out.contains(needle),
            "missing {needle:?} for {chart}\n{out}"
        );
        assert!(out.starts_with("bad.scxml:"), "not located: {out}");
    }
}

#[test]
fn build_script_error_shows_the_rendering() {
    let dir = std::env::temp_dir().join(format!("scxmlc-diag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = dir.join("c.scxml");
    std::fs::write(
        &chart,
        format!("{HEAD}><state id=\"a\"><transition target=\"b\"/></state></scxml>"),
    )
    .unwrap();
    let err = Config::new().out_dir(&dir).compile(&chart).unwrap_err();
    let debug = format!("{err:?}");
    assert!(debug.contains("c.scxml:1:"), "{debug}");
    assert!(debug.contains("`b` is not a state id"), "{debug}");
    assert!(
        !dir.join("c.rs").exists(),
        "nothing written for a broken chart"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn warnings_for_unreachable_states_and_shadowed_transitions() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\">\n    <transition event=\"go\" target=\"b\"/>\n    <transition event=\"go\" target=\"c\"/>\n  </state>\n  <state id=\"b\"/>\n  <state id=\"c\"/>\n  <state id=\"island\"><state id=\"inner\"/></state>\n</scxml>\n"
    );
    let generated = Config::new()
        .generate(Path::new("w.scxml"), &chart)
        .unwrap();
    let all = generated.warnings.join("");
    assert_eq!(generated.warnings.len(), 3, "{all}");
    assert!(
        all.contains("w.scxml:4:6: warning: this transition can never fire"),
        "{all}"
    );
    assert!(
        all.contains("w.scxml:7:4: warning: state `c` is unreachable: no transition enters it"),
        "{all}"
    );
    assert!(
        all.contains("w.scxml:8:4: warning: state `island` is unreachable"),
        "{all}"
    );
    assert!(
        !all.contains("`inner`"),
        "only the outermost unreachable state: {all}"
    );
}

/// SCXML 1.0, 5.4 and 6.2.4: a location or namelist name that is not in the datamodel raises
/// `error.execution` when evaluated, so it compiles, with a warning at the chart line.
#[test]
fn undeclared_locations_warn_and_fail_at_run_time() {
    let chart = format!(
        "{HEAD} datamodel=\"rust\">\n  <state id=\"a\"><onentry>\n    <assign location=\"nope\" expr=\"1\"/>\n    <send event=\"e\" namelist=\"gone\"/>\n  </onentry></state>\n</scxml>\n"
    );
    let generated = Config::new()
        .generate(Path::new("w.scxml"), &chart)
        .unwrap();
    let all = generated.warnings.join("");
    assert_eq!(generated.warnings.len(), 2, "{all}");
    assert!(
        all.contains("w.scxml:3:23: warning: `nope` is not a `<data>` id: using this location raises `error.execution` at run time"),
        "{all}"
    );
    assert!(
        all.contains("w.scxml:4:31: warning: `gone` is not a `<data>` id: evaluating this namelist raises `error.execution` at run time"),
        "{all}"
    );
    assert!(generated.code.contains("`nope` is not a valid location"));
    assert!(generated
        .code
        .contains("`gone` in namelist is not a `<data>` id"));
}

#[test]
fn non_utf8_charts_are_located() {
    let dir = std::env::temp_dir().join(format!("scxmlc-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = dir.join("latin1.scxml");
    let mut bytes = format!("{HEAD}>\n  <state id=\"caf").into_bytes();
    bytes.extend([0xE9, b'"', b'/', b'>']);
    std::fs::write(&chart, bytes).unwrap();
    let err = sudoku_scxmlc::read_chart(&chart).unwrap_err().to_string();
    assert!(
        err.contains("latin1.scxml:2:17: error: the chart is not UTF-8 text (byte 0xE9)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn event_names_are_dot_separated_tokens() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\"><onentry><raise event=\"o!\"/></onentry></state>\n</scxml>\n"
    );
    assert!(errors(&chart).contains("`o!` is not a valid event name"));
}

#[test]
fn src_attributes_must_name_regular_files() {
    let dir = std::env::temp_dir().join(format!("scxmlc-src-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("folder")).unwrap();
    let chart = dir.join("c.scxml");
    let text = format!(
        "{HEAD} datamodel=\"rust\">\n  <script src=\"folder\"/>\n  <script src=\"missing.rs\"/>\n  <state id=\"a\"/>\n</scxml>\n"
    );
    let err = Config::new()
        .generate(&chart, &text)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("c.scxml:2:16: error:") && err.contains("is not a regular file"),
        "{err}"
    );
    assert!(err.contains("c.scxml:3:16: error: cannot read"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_syntax_error_in_a_script_file_names_its_line_and_column_there() {
    let dir = std::env::temp_dir().join(format!("scxmlc-script-src-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("helper.rs"),
        "let a = 1;\nlet b = 2;\nlet c = (3 + );\n",
    )
    .unwrap();
    let chart = dir.join("c.scxml");
    let text = format!(
        "{HEAD} datamodel=\"rust\">\n  <state id=\"a\"><onentry><script src=\"helper.rs\"/></onentry></state>\n</scxml>\n"
    );
    let err = Config::new()
        .generate(&chart, &text)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("c.scxml:2:39: error: in `helper.rs:3:14`: invalid Rust statements"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `<invoke>`: errors in an inline child are located in the parent's file; `src` cycles and
/// runaway nesting are errors, not endless recursion.
#[test]
fn invoke_children_errors_cycles_and_depth() {
    let inline = format!(
        "{HEAD}>\n  <state id=\"a\">\n    <invoke>\n      <content>\n        <scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n          <state id=\"c\"><transition target=\"nowhere\"/></state>\n        </scxml>\n      </content>\n    </invoke>\n  </state>\n</scxml>\n"
    );
    let e = errors(&inline);
    assert!(
        e.starts_with("bad.scxml:6:45: error: `nowhere` is not a state id"),
        "{e}"
    );

    let dir = std::env::temp_dir().join(format!("scxmlc-invoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = |src: &str| {
        format!("{HEAD}>\n  <state id=\"s\">\n    <invoke src=\"{src}\"/>\n  </state>\n</scxml>\n")
    };
    std::fs::write(dir.join("a.scxml"), chart("b.scxml")).unwrap();
    std::fs::write(dir.join("b.scxml"), chart("file:a.scxml")).unwrap();
    std::fs::write(dir.join("self.scxml"), chart("self.scxml")).unwrap();
    for file in ["a.scxml", "self.scxml"] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let e = Config::new()
            .generate(&path, &text)
            .unwrap_err()
            .to_string();
        assert!(e.contains("the charts invoke each other in a cycle"), "{e}");
    }
    let missing = dir.join("missing.scxml");
    std::fs::write(&missing, chart("gone.scxml")).unwrap();
    let e = Config::new()
        .generate(&missing, std::fs::read_to_string(&missing).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing.scxml:3:18: error: cannot read"), "{e}");
    std::fs::remove_dir_all(&dir).ok();

    let mut deep = String::from("<final/>");
    for _ in 0..40 {
        deep = format!(
            "<state id=\"s\"><invoke><content><scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">{deep}</scxml></content></invoke></state>"
        );
    }
    let e = errors(&format!("{HEAD}>{deep}</scxml>"));
    assert!(
        e.contains("invoked charts nest more than 32 levels deep"),
        "{e}"
    );
}

/// A literal `<send target>` the SCXML event I/O processor cannot reach compiles (SCXML 1.0,
/// 6.2.4: it raises `error.execution` at run time) with a located warning.
#[test]
fn unsupported_send_targets_warn() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\"><onentry>\n    <send event=\"e\" target=\"nowhere\"/>\n  </onentry></state>\n</scxml>\n"
    );
    let generated = Config::new()
        .generate(Path::new("w.scxml"), &chart)
        .unwrap();
    let all = generated.warnings.join("");
    assert_eq!(generated.warnings.len(), 1, "{all}");
    assert!(
        all.contains(
            "w.scxml:3:29: warning: `nowhere` is not a target of the SCXML event I/O processor"
        ),
        "{all}"
    );
}

#[test]
fn send_with_both_event_and_eventexpr_is_one_error() {
    let chart = format!(
        "{HEAD} datamodel=\"rust\">\n  <state id=\"a\">\n    <onentry><send event=\"e\" eventexpr=\"String::from(&quot;e&quot;)\"/></onentry>\n  </state>\n</scxml>\n"
    );
    let errors = errors(&chart);
    assert!(
        errors.contains("bad.scxml:3:30: error: `<send>` has both `event` and `eventexpr`"),
        "{errors}"
    );
    assert!(
        errors.ends_with("could not compile `bad.scxml`: 1 error"),
        "{errors}"
    );
}
