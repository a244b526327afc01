//! Compile-fail tests of the ECMAScript datamodel: a syntax error in any piece of chart
//! ECMAScript fails the build at the chart's line and column (QuickJS compiles, never runs,
//! every expression, location and script at build time).
#![cfg(all(feature = "compiler", feature = "ecmascript"))]

use std::path::Path;
use sudoku_scxmlc::{Config, Error};

fn errors(chart: &str) -> String {
    match Config::new().generate(Path::new("bad.scxml"), chart) {
        Ok(_) => panic!("chart compiled, expected an error:\n{chart}"),
        Err(e @ Error::Chart { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    }
}

const HEAD: &str =
    r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript""#;

#[test]
fn syntax_error_in_cond_is_located() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"n\" expr=\"0\"/></datamodel>\n  <state id=\"a\">\n    <transition event=\"go\" cond=\"n &gt; \"/>\n  </state>\n</scxml>\n"
    );
    assert_eq!(
        errors(&chart),
        "bad.scxml:4:36: error: invalid ECMAScript expression: unexpected token in expression: ')'\n  |\n4 |     <transition event=\"go\" cond=\"n &gt; \"/>\n  |                                    ^^^^\n  = help: with datamodel=\"ecmascript\", conditions, expressions, locations and scripts are ECMAScript\ncould not compile `bad.scxml`: 1 error"
    );
}

#[test]
fn syntax_error_inside_a_script_names_its_line() {
    let chart = format!(
        "{HEAD}>\n  <state id=\"a\">\n    <onentry><script>\n      var x = 1;\n      var y = x +* 2;\n    </script></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.starts_with("bad.scxml:5:18: error: invalid ECMAScript script: unexpected token in expression: '*'\n"),
        "{out}"
    );
}

#[test]
fn a_location_must_be_assignable() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"a\"/></datamodel>\n  <state id=\"s\">\n    <onentry><assign location=\"a + 1\" expr=\"2\"/></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.starts_with("bad.scxml:4:") && out.contains("invalid ECMAScript location"),
        "{out}"
    );
}

#[test]
fn data_ids_are_variable_names() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"var\"/><data id=\"_event\"/></datamodel>\n  <state id=\"s\"/>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.contains("data id `var` is not usable as an ECMAScript variable")
            && out.contains("data id `_event` is not usable"),
        "{out}"
    );
}

#[test]
fn valid_code_compiles_to_snippets_of_the_js_datamodel() {
    let chart = format!(
        "{HEAD} name=\"Counter\">\n  <datamodel><data id=\"count\" expr=\"0\"/></datamodel>\n  <state id=\"s\">\n    <transition event=\"tick\" cond=\"count &lt; 10\">\n      <assign location=\"count\" expr=\"count + 1;\"/>\n    </transition>\n  </state>\n</scxml>\n"
    );
    let code = Config::new()
        .generate(Path::new("counter.scxml"), &chart)
        .expect("compiles")
        .code;
    assert!(
        code.contains("runtime::ecmascript::Js::new(&[\"count\"])"),
        "{code}"
    );
    assert!(code.contains("text: \"count < 10\""), "{code}");
    // The statement's `;` is no part of the value.
    assert!(code.contains("text: \"count + 1\""), "{code}");
}

#[test]
fn xml_content_is_one_element() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"d\"><a/><b/></data></datamodel>\n  <state id=\"s\">\n    <onentry><send event=\"e\"><content><a/> text </content></send></onentry>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.contains("bad.scxml:2:15: error: `<data>` holds 2 elements: XML content is one element (a DOM document)")
            && out.contains("bad.scxml:4:43: error: `<content>` holds XML and text"),
        "{out}"
    );
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"d\" expr=\"1\"><a/></data></datamodel>\n  <state id=\"s\"/>\n</scxml>\n"
    );
    assert!(
        errors(&chart).contains("has more than one of `expr`, `src` and content"),
        "{chart}"
    );
}

#[test]
fn assign_xml_content_is_one_element_without_expr() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"d\"/></datamodel>\n  <state id=\"s\">\n    <onentry><assign location=\"d\" expr=\"1\"><a/></assign></onentry>\n    <onexit><assign location=\"d\"><a/><b/></assign></onexit>\n  </state>\n</scxml>\n"
    );
    let out = errors(&chart);
    assert!(
        out.contains("bad.scxml:4:15: error: `<assign>` has both `expr` and content: XML content is the value")
            && out.contains("bad.scxml:5:14: error: `<assign>` holds 2 elements: XML content is one element (a DOM document)"),
        "{out}"
    );
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"d\"/></datamodel>\n  <state id=\"s\">\n    <onentry><assign location=\"d\">n <a/></assign></onentry>\n  </state>\n</scxml>\n"
    );
    assert!(
        errors(&chart).contains("bad.scxml:4:35: error: `<assign>` holds XML and text"),
        "{}",
        errors(&chart)
    );
}

#[test]
fn assign_xml_content_compiles_to_an_xml_value() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"d\"/></datamodel>\n  <state id=\"s\">\n    <onentry><assign location=\"d\"><p:x xmlns:p=\"urn:p\" a=\"&lt;\"/></assign></onentry>\n  </state>\n</scxml>\n"
    );
    let code = Config::new()
        .generate(Path::new("xml.scxml"), &chart)
        .expect("compiles")
        .code;
    assert!(
        code.contains(".assign_json(")
            && code.contains("ecmascript::dom::xml_value(")
            && code.contains(r#""<p:x xmlns:p=\"urn:p\" a=\"&lt;\"/>""#),
        "{code}"
    );
}

#[test]
fn xml_content_compiles_to_an_xml_value() {
    let chart = format!(
        "{HEAD}>\n  <datamodel><data id=\"d\">\n    <books><book title=\"t &amp; u\"/></books>\n  </data></datamodel>\n  <state id=\"s\">\n    <onentry><send event=\"e\"><content><p:x xmlns:p=\"urn:p\"/></content></send></onentry>\n  </state>\n</scxml>\n"
    );
    let code = Config::new()
        .generate(Path::new("xml.scxml"), &chart)
        .expect("compiles")
        .code;
    // The markup, namespace declared where the chart inherits it, in the `{"$xml": ...}` form.
    assert!(
        code.contains(r#"{\"$xml\":\"<books xmlns=\\\"http://www.w3.org/2005/07/scxml\\\"><book title=\\\"t &amp; u\\\"/></books>\"}"#),
        "{code}"
    );
    assert!(
        code.contains("ecmascript::dom::xml_value(")
            && code.contains(r#""<p:x xmlns:p=\"urn:p\"/>""#),
        "{code}"
    );
}
