//! Diagnostics that tell the truth: every mistake once, in one build, at the right place,
//! with the real file names; and what the chart's comments say lands on the right state.
#![cfg(feature = "compiler")]

use std::path::Path;
use sudoku_scxmlc::{Config, Error};

const HEAD: &str = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0""#;

fn errors_at(path: &Path, chart: &str) -> String {
    match Config::new().generate(path, chart) {
        Ok(_) => panic!("chart compiled, expected an error:\n{chart}"),
        Err(e @ Error::Chart { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

fn errors(chart: &str) -> String {
    errors_at(Path::new("bad.scxml"), chart)
}

#[test]
fn every_user_error_in_one_build() {
    // An unknown target (found while resolving transitions) and a machine type named
    // `State` (a naming problem, once found by the planner after the first build failed).
    let chart = format!(
        "{HEAD} name=\"state\">\n  <state id=\"a\"><transition target=\"nowhere\"/></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.contains("bad.scxml:2:37: error: `nowhere` is not a state id"),
        "{out}"
    );
    assert!(
        out.contains("bad.scxml:1:68: error: the machine type of chart `state` would be `State`"),
        "{out}"
    );
    assert!(out.ends_with("2 errors"), "{out}");
}

#[test]
fn an_id_with_spaces_is_one_error() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"not ok\"><transition event=\"e\" target=\"not ok\"/></state>\n  <state id=\"b\"><transition event=\"e\" target=\"not ok\"/></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.starts_with(
            "bad.scxml:2:14: error: state id `not ok` must be a non-empty name without spaces\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("could not compile `bad.scxml`: 1 error"),
        "{out}"
    );
}

#[test]
fn an_xml_declaration_after_a_comment_is_refused() {
    let chart =
        format!("<!-- a chart -->\n<?xml version=\"1.0\"?>\n{HEAD}><state id=\"a\"/></scxml>\n");
    let out = errors(&chart);
    assert!(
        out.starts_with("bad.scxml:2:1: error: the XML declaration `<?xml ...?>` must be at the very start of the chart\n"),
        "{out}"
    );
    // At the start it is fine, also after a byte-order mark.
    let ok = format!("\u{FEFF}<?xml version=\"1.0\"?>\n{HEAD}><state id=\"a\"/></scxml>\n");
    Config::new().generate(Path::new("ok.scxml"), &ok).unwrap();
}

#[test]
fn a_byte_order_mark_shifts_no_column() {
    let chart = format!("\u{FEFF}{HEAD}><state id=\"a\" colour=\"red\"/></scxml>\n");
    let out = errors(&chart);
    assert!(
        out.starts_with(&format!(
            "bad.scxml:1:76: error: `<state>` has no attribute `colour`\n  |\n1 | {HEAD}><state id=\"a\" colour=\"red\"/></scxml>\n  | {}^^^^^^\n",
            " ".repeat(75)
        )),
        "{out}"
    );
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("scxmlc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_error_in_a_file_uri_child_names_the_real_path() {
    let dir = temp_dir("file-uri");
    let child = dir.join("child.scxml");
    std::fs::write(
        &child,
        format!("{HEAD}>\n  <state id=\"c\"><transition target=\"zz\"/></state>\n</scxml>\n"),
    )
    .unwrap();
    let parent = format!(
        "{HEAD}>\n  <state id=\"p\"><invoke src=\"file://{}\"/></state>\n</scxml>\n",
        child.display()
    );
    let out = errors_at(&dir.join("parent.scxml"), &parent);
    let located = format!("{}:2:37: error: `zz` is not a state id", child.display());
    assert!(out.contains(&located), "missing {located:?} in\n{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_remote_src_says_only_local_files_are_compiled_in() {
    let dir = temp_dir("remote");
    let chart = format!(
        "{HEAD}>\n  <state id=\"p\"><invoke src=\"http://example.com/child.scxml\"/></state>\n</scxml>\n"
    );
    let out = errors_at(&dir.join("c.scxml"), &chart);
    assert!(
        out.contains("c.scxml:2:30: error: `http://example.com/child.scxml` is not a local file: only local files can be compiled in, not `http:` URIs"),
        "{out}"
    );
    assert!(!out.contains("No such file"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn comments_document_the_element_that_follows_them() {
    let chart = format!(
        "{HEAD}>\n  <!-- The game. -->\n  <state id=\"game\">\n    <!-- Waiting. -->\n    <state id=\"idle\"/>\n    <state id=\"playing\">\n      <state id=\"inner\"/>\n      <!-- Nothing follows this one. -->\n    </state>\n  </state>\n</scxml>\n"
    );
    let code = Config::new()
        .generate(Path::new("c.scxml"), &chart)
        .unwrap()
        .code;
    let doc_of = |variant: &str| -> String {
        let at = code
            .find(&format!("    {variant} = "))
            .unwrap_or_else(|| panic!("{variant} in\n{code}"));
        let before = &code[..at];
        let start = before.trim_end().rfind(" = ").map_or(0, |i| i);
        before[start..].to_owned()
    };
    assert!(doc_of("Game").contains("The game."), "{}", doc_of("Game"));
    assert!(doc_of("Idle").contains("Waiting."), "{}", doc_of("Idle"));
    assert!(
        !doc_of("Playing").contains("```text"),
        "{}",
        doc_of("Playing")
    );
    assert!(!doc_of("Inner").contains("```text"), "{}", doc_of("Inner"));
    assert!(!code.contains("Nothing follows"), "{code}");
}

#[test]
fn in_with_a_literal_id_is_checked_and_resolved_at_build_time() {
    let head = format!("{HEAD} datamodel=\"rust\">");
    let chart = format!(
        "{head}\n  <state id=\"playing\">\n    <transition cond='In(\"playng\") &amp;&amp; In(\"playing\")' target=\"playing\"/>\n    <onentry><script>let _ = In('x');</script></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.contains("bad.scxml:3:26: error: `In(\"playng\")`: `playng` is not a state id\n"),
        "{out}"
    );
    assert!(out.contains("= help: did you mean `playing`?"), "{out}");
    assert!(
        out.contains("\n  |                          ^^^^^^^^\n"),
        "the caret covers the literal: {out}"
    );
    assert!(
        out.contains("bad.scxml:4:33: error: `In(\"x\")`: `x` is not a state id"),
        "{out}"
    );
    assert!(out.ends_with("2 errors"), "{out}");

    // A known id is looked up at build time; a computed one at run time.
    let chart = format!(
        "{head}\n  <state id=\"a\">\n    <transition cond='In(\"a\") || In(&amp;String::from(\"b\"))' target=\"a\"/>\n  </state>\n</scxml>\n"
    );
    let code = Config::new()
        .generate(Path::new("c.scxml"), &chart)
        .unwrap()
        .code;
    assert!(
        code.contains("__ctx.is_in(1) || In(&String::from(\"b\"))"),
        "{code}"
    );
}

#[test]
fn chart_code_never_reaches_the_emitters_placeholders() {
    // Chart code spelling the emitter's old placeholders (and one in a multi-line string)
    // is emitted as written: no panic, no statement replaced by a comment or a table.
    let chart = format!(
        "{HEAD} datamodel=\"rust\">\n  <state id=\"a\">\n    <onentry><script>__scxml_comment!(7);</script></onentry>\n    <onentry><script>__scxml_table!(0);</script></onentry>\n    <onentry><script>let _s = \"\n__scxml_comment!(0);\n\";</script></onentry>\n  </state>\n</scxml>\n"
    );
    let code = Config::new()
        .generate(Path::new("c.scxml"), &chart)
        .unwrap()
        .code;
    assert!(code.contains("__scxml_comment!(7);"), "{code}");
    assert!(code.contains("__scxml_table!(0);"), "{code}");
    assert!(
        code.contains("\n__scxml_comment!(0);\n"),
        "the string is kept verbatim:\n{code}"
    );
}

#[test]
fn a_long_comment_is_shortened_in_the_docs() {
    let comment = "word ".repeat(20_000);
    let chart = format!("{HEAD}>\n  <!-- {comment} -->\n  <state id=\"a\"/>\n</scxml>\n");
    let code = Config::new()
        .generate(Path::new("c.scxml"), &chart)
        .unwrap()
        .code;
    assert!(code.len() < 10_000, "{} bytes", code.len());
    assert!(
        code.contains("/// … (98000 more characters in the comment before c.scxml:3)"),
        "{code}"
    );
}

#[test]
fn a_generated_file_too_big_for_rustc_warns_with_its_size() {
    let chart = format!("{HEAD}>\n  <state id=\"a\"/>\n</scxml>\n");
    let g = Config::new()
        .large_output_warning(1_000)
        .generate(Path::new("c.scxml"), &chart)
        .unwrap();
    let w = g.warnings.join("");
    assert!(
        w.starts_with(&format!(
            "c.scxml: warning: the generated file is {:.1} MB, large for rustc",
            g.code.len() as f64 / 1e6
        )),
        "{w}"
    );
    assert!(Config::new()
        .generate(Path::new("c.scxml"), &chart)
        .unwrap()
        .warnings
        .is_empty());
}

#[test]
fn compile_streams_to_the_output_and_leaves_an_unchanged_file_alone() {
    let dir = temp_dir("stream");
    let chart = dir.join("c.scxml");
    std::fs::write(&chart, format!("{HEAD}>\n  <state id=\"a\"/>\n</scxml>\n")).unwrap();
    let out = Config::new().out_dir(&dir).compile(&chart).unwrap();
    let first = std::fs::metadata(&out).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    Config::new().out_dir(&dir).compile(&chart).unwrap();
    assert_eq!(std::fs::metadata(&out).unwrap().modified().unwrap(), first);
    let generated = Config::new()
        .generate(&chart, std::fs::read_to_string(&chart).unwrap())
        .unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), generated.code);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_unconditional_eventless_cycle_warns() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"start\"><transition event=\"go\" target=\"a\"/></state>\n  <state id=\"a\"><transition target=\"b\"/></state>\n  <state id=\"b\">\n    <state id=\"b1\"><transition target=\"a\"/></state>\n  </state>\n  <state id=\"spin\"><transition event=\"e\"/><transition/></state>\n  <state id=\"guarded\"><transition cond=\"In(start)\" target=\"start\"/></state>\n</scxml>\n"
    );
    let w = Config::new()
        .generate(Path::new("c.scxml"), &chart)
        .unwrap()
        .warnings
        .join("");
    assert!(
        w.contains("c.scxml:3:18: warning: eventless transitions without `cond` loop forever: `a` → `b1` (line 3), `b1` → `a` (line 5)\n"),
        "{w}"
    );
    assert!(
        w.contains("warning: eventless transitions without `cond` loop forever: `spin` → itself (targetless) (line 7)"),
        "{w}"
    );
    assert_eq!(w.matches("loop forever").count(), 2, "{w}");
}

#[test]
fn not_well_formed_xml_is_refused() {
    let cases = [
        (
            format!(
                "{HEAD}><state id=\"a\"><onentry><log label=\"a<b\"/></onentry></state></scxml>"
            ),
            "bad.scxml:1:98: error: `<` is not allowed in an attribute value",
        ),
        (
            format!("{HEAD}><!-- a -- b --><state id=\"a\"/></scxml>"),
            "bad.scxml:1:69: error: `--` is not allowed inside an XML comment",
        ),
        (
            format!("{HEAD}><!-- a ---><state id=\"a\"/></scxml>"),
            "error: an XML comment cannot end with `--->`",
        ),
    ];
    for (chart, want) in cases {
        let out = errors(&chart);
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}
