//! Diagnostics at the right place of the file: code errors inside values and text that hold
//! entity or character references, CDATA sections or several lines; bad references at the
//! reference; each mistake once; everything in source order.
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

/// The `file:line:column` positions of the errors in `out`, in order.
fn positions(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(|l| {
            l.split(": ")
                .next()
                .unwrap()
                .trim_start_matches("bad.scxml:")
        })
        .collect()
}

/// The `line:column` (1-based, column in characters) of the `nth` (0-based) occurrence of
/// `needle` in `chart`: where an error must point.
fn at(chart: &str, needle: &str, nth: usize) -> String {
    let (offset, _) = chart
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("no {needle:?} #{nth}"));
    let before = &chart[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    format!("{line}:{column}")
}

/// The caret line under the snippet of the error at `position`.
fn caret<'a>(out: &'a str, position: &str) -> &'a str {
    let mut lines = out
        .lines()
        .skip_while(|l| !l.starts_with(&format!("bad.scxml:{position}:")));
    lines
        .nth(3)
        .unwrap_or_else(|| panic!("no error at {position}:\n{out}"))
}

/// The source columns (1-based, inclusive) a caret line marks.
fn caret_columns(caret: &str) -> (usize, usize) {
    let bar = caret.find('|').expect("a snippet line") + 2;
    let start = caret.find('^').expect("a caret") - bar + 1;
    (start, start + caret.matches('^').count() - 1)
}

const RUST: &str = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:rs="urn:sudoku-scxmlc:rust" version="1.0" datamodel="rust" initial="a">"#;

#[test]
fn rust_errors_after_references_are_at_their_file_column() {
    let chart = format!(
        "{RUST}\n  <datamodel><data id=\"x\" rs:type=\"u32\" expr=\"1\"/></datamodel>\n  <state id=\"a\">\n    \
         <transition event=\"go\" cond=\"*x &lt; 3 &amp;&amp; (1 +)\" target=\"b\"/>\n    \
         <transition event=\"go\"\n        cond=\"*x &lt; 3 &amp;&amp;\n(*x +)\" target=\"b\"/>\n    \
         <onentry><script>\n      let a = \"&lt;&lt;&lt;&lt;\"; let b = ;\n    </script></onentry>\n  \
         </state>\n  <state id=\"b\"/>\n</scxml>\n"
    );
    let out = errors(&chart);
    // The `)` of `(1 +)`, the `)` of `(*x +)` on the line after the `&amp;`s, the `;` of
    // `let b = ;`.
    let want = [
        at(&chart, ")\" target", 0),
        at(&chart, ")\" target", 1),
        at(&chart, ";\n    </script>", 0),
    ];
    assert_eq!(positions(&out), want, "{out}");
    assert_eq!(want[0], "4:59");
    assert!(out.contains(&format!("bad.scxml:{}: error: invalid Rust expression: unexpected end of input, expected an expression\n", want[0])), "{out}");
    assert_eq!(caret_columns(caret(&out, &want[0])), (59, 59), "{out}");
    assert!(out.ends_with("3 errors"), "{out}");
}

#[test]
fn code_that_ends_too_early_is_marked_at_its_end() {
    // `x <` and `let a = 1 +` end before what they need: the caret goes under their last
    // character (the `&lt;` reference), not their first.
    let chart = format!(
        "{RUST}\n  <datamodel><data id=\"x\" rs:type=\"u32\" expr=\"1\"/></datamodel>\n  <state id=\"a\">\n    \
         <transition event=\"go\" cond=\"*x &lt;\" target=\"b\"/>\n    \
         <onentry><script>let a = 1 +  </script></onentry>\n  </state>\n  <state id=\"b\"/>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = [
        at(&chart, "&lt;\" target", 0),
        at(&chart, "+  </script>", 0),
    ];
    assert_eq!(positions(&out), want, "{out}");
    let (start, end) = caret_columns(caret(&out, &want[0]));
    assert_eq!(end - start, 3, "the whole `&lt;`: {out}");
}

#[test]
fn code_in_cdata_and_text_runs_is_located_in_the_file() {
    // The script's text is three runs: text, a CDATA section (whose `<` are no references),
    // text again; the error is in the last run.
    let chart = format!(
        "{RUST}\n  <state id=\"a\">\n    <onentry><script>let a = \"&amp;\";<![CDATA[ let b = \"<<<<\"; ]]>\n      let c = 1 + ;</script></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert_eq!(positions(&out), [at(&chart, ";</script>", 0)], "{out}");
    // An error inside the CDATA section itself.
    let chart = format!(
        "{RUST}\n  <state id=\"a\">\n    <onentry><script><![CDATA[let b = \"<<<<\";\n let c = * ;]]></script></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert_eq!(positions(&out), [at(&chart, ";]]>", 0)], "{out}");
}

#[test]
fn a_caret_at_a_reference_covers_the_reference() {
    // `1 < > 2`: the `>`, written `&gt;`, is where an expression must be.
    let chart = format!(
        "{RUST}\n  <state id=\"a\"><transition event=\"go\" cond=\"1 &lt; &gt; 2\" target=\"a\"/></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = at(&chart, "&gt; 2", 0);
    assert_eq!(positions(&out), [want.as_str()], "{out}");
    assert_eq!(caret_columns(caret(&out, &want)), (53, 56), "{out}");
}

#[test]
fn an_unknown_in_id_after_references_is_underlined_in_the_file() {
    let chart = format!(
        "{RUST}\n  <state id=\"a\"><transition event=\"go\" cond=\"1 &lt; 2 &amp;&amp; In(&quot;nowhere&quot;)\" target=\"a\"/></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = at(&chart, "&quot;nowhere", 0);
    assert_eq!(positions(&out), [want.as_str()], "{out}");
    // `"nowhere"` as written: `&quot;nowhere&quot;`, 19 characters.
    let (start, end) = caret_columns(caret(&out, &want));
    assert_eq!(end + 1 - start, 19, "{out}");
}

#[cfg(feature = "ecmascript")]
#[test]
fn ecmascript_errors_after_references_are_at_their_file_column() {
    let head = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">"#;
    let chart = format!(
        "{head}\n  <state id=\"a\">\n    <transition event=\"go\" cond=\"true &amp;&amp; (1 +)\" target=\"b\"/>\n    \
         <transition event=\"go\"\n        cond=\"true &amp;&amp;\n              (1 +)\" target=\"b\"/>\n    \
         <transition event=\"go\"\n        cond=\"true &amp;&amp;\n(1 +)\" target=\"b\"/>\n    \
         <onentry><script>var s = \"&lt;&lt;\";\n var t = ;</script></onentry>\n  </state>\n  <state id=\"b\"/>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = [
        at(&chart, ")\" target", 0),
        at(&chart, ")\" target", 1),
        at(&chart, ")\" target", 2),
        at(&chart, ";</script>", 0),
    ];
    assert_eq!(positions(&out), want, "{out}");
}

#[test]
fn a_bad_reference_is_reported_at_the_reference() {
    let head = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">"#;
    let chart = format!(
        "{head}\n  <state id=\"a\">\n    <transition event=\"go&foo;\" target=\"a\"/>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = at(&chart, "&foo;", 0);
    assert_eq!(
        out.lines().next().unwrap(),
        format!("bad.scxml:{want}: error: malformed attribute value: unknown entity `&foo;`"),
        "{out}"
    );
    assert_eq!(caret_columns(caret(&out, &want)), (26, 30), "{out}");
    assert!(out.ends_with("1 error"), "{out}");
    // In text, a character reference to no character, after a good reference.
    let chart = format!(
        "{head}\n  <state id=\"a\"><onentry><log label=\"x\" expr=\"1\">a &amp; &#0; b</log></onentry></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = at(&chart, "&#0;", 0);
    assert_eq!(
        out.lines().next().unwrap(),
        format!("bad.scxml:{want}: error: malformed text: `&#0;` is not a character reference XML allows"),
        "{out}"
    );
    assert_eq!(caret_columns(caret(&out, &want)), (58, 61), "{out}");
    // A lone `&`.
    let chart = format!(
        "{head}\n  <state id=\"a\"><transition event=\"a & b\" target=\"a\"/></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = at(&chart, "& b", 0);
    assert!(
        out.starts_with(&format!("bad.scxml:{want}: error: malformed attribute value: `&` that starts no reference (no `;` ends it)\n")),
        "{out}"
    );
}

#[test]
fn an_unknown_attribute_is_one_error_on_every_element() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/charts/diagnostics");
    let chart = std::fs::read_to_string(dir.join("unknown_attribute_everywhere.scxml")).unwrap();
    let out = errors(&chart);
    let foo: Vec<&str> = out
        .lines()
        .filter(|l| l.ends_with("has no attribute `foo`"))
        .collect();
    // Every `foo="…"` of the chart, once each, and nothing else.
    let written = chart.matches(" foo=\"").count();
    assert_eq!(foo.len(), written, "{out}");
    let mut unique = foo.clone();
    unique.dedup();
    assert_eq!(unique.len(), written, "{out}");
    for element in [
        "scxml",
        "datamodel",
        "data",
        "parallel",
        "state",
        "initial",
        "transition",
        "log",
        "history",
        "onentry",
        "raise",
        "if",
        "elseif",
        "else",
        "foreach",
        "assign",
        "send",
        "param",
        "cancel",
        "script",
        "onexit",
        "invoke",
        "content",
        "finalize",
        "final",
        "donedata",
    ] {
        assert!(
            foo.iter()
                .any(|l| l.contains(&format!("`<{element}>` has no attribute"))),
            "`<{element}>`:\n{out}"
        );
    }
    assert!(out.ends_with(&format!("{written} errors")), "{out}");
}

#[test]
fn diagnostics_are_in_source_order() {
    // The unknown element is found by the state's check, the unknown attribute by its
    // transition's, later; the report lists them as the file does.
    let head = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="c">"#;
    let chart = format!(
        "{head}\n  <state id=\"c\">\n    <transition event=\"x\" target=\"c\" foo=\"bar\"/>\n    <unknownelem/>\n    <transition event=\"y\" target=\"nowhere\"/>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    let want = [
        at(&chart, "foo=", 0),
        at(&chart, "unknownelem", 0),
        at(&chart, "nowhere", 0),
    ];
    assert_eq!(positions(&out), want, "{out}");
}

#[test]
fn check_counts_the_warnings() {
    let head = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">"#;
    let chart = format!(
        "{head}\n  <state id=\"a\"><transition event=\"e\" target=\"b\"/></state>\n  <state id=\"b\"/>\n  <state id=\"orphan\"/>\n  <state id=\"orphan2\"/>\n</scxml>\n"
    );
    let checked = Config::new()
        .check(Path::new("warn.scxml"), chart.as_str())
        .unwrap();
    assert_eq!(checked.warning_count, 2, "{:?}", checked.warnings);
    assert_eq!(checked.warnings.len(), 2);
    assert!(
        checked.warnings[0].starts_with("warn.scxml:4:"),
        "{:?}",
        checked.warnings
    );
    assert!(
        checked.warnings[1].starts_with("warn.scxml:5:"),
        "{:?}",
        checked.warnings
    );
}

#[test]
fn a_json_error_in_data_content_is_at_its_byte() {
    let chart = format!(
        "{RUST}\n  <datamodel><data id=\"d\" rs:type=\"String\">{{\"a\": \"&lt;&lt;\",\n    \"b\": tru }}</data></datamodel>\n  <state id=\"a\"/>\n</scxml>\n"
    );
    let out = errors(&chart);
    // serde_json stops at the byte after `tru`, which should have been `e`.
    let want = at(&chart, " }</data>", 0);
    assert!(
        out.starts_with(&format!(
            "bad.scxml:{want}: error: data content is not valid JSON: expected ident\n"
        )),
        "{out}"
    );
}

#[test]
fn a_bad_token_after_references_is_underlined_as_written() {
    let head = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">"#;
    let chart = format!(
        "{head}\n  <state id=\"a\"><transition event=\"&#x61;&#x62; x.. b x..\" target=\"a&#x62; &#x62;zz\"/></state>\n</scxml>\n"
    );
    let out = errors(&chart);
    // The second `x..` at its own place, not at the first; each target word as written.
    let want = [
        at(&chart, "x..", 0),
        at(&chart, "x..", 1),
        at(&chart, "a&#x62;", 0),
        at(&chart, "&#x62;zz", 0),
    ];
    assert_eq!(positions(&out), want, "{out}");
    assert_eq!(
        caret_columns(caret(&out, &want[3])).1 - caret_columns(caret(&out, &want[3])).0 + 1,
        8,
        "{out}"
    );
    assert!(out.contains("error: `bzz` is not a state id"), "{out}");
}

#[test]
fn an_undeclared_rs_prefix_says_how_to_declare_it() {
    let chart = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="rust" initial="a">
  <datamodel><data id="n" rs:type="u32" expr="0"/></datamodel>
  <state id="a"><x:thing xmlns:y="urn:y"/></state>
</scxml>
"#;
    let out = errors(chart);
    assert!(
        out.contains("attribute `rs:type` uses the undeclared namespace prefix `rs`"),
        "{out}"
    );
    assert!(
        out.contains(r#"xmlns:rs="urn:sudoku-scxmlc:rust""#),
        "the help names the declaration: {out}"
    );
    assert!(
        out.contains("`<x:thing>` uses the undeclared namespace prefix `x`"),
        "{out}"
    );
}
