//! In-memory rewrite of a SCION chart into a datamodel `sudoku-scxmlc` implements.
//!
//! The SCION charts declare `datamodel="ecmascript"`. [`rewrite`] turns a chart that uses no
//! expressions into a `datamodel="null"` chart, and ports the few charts listed in [`PORTS`]
//! to `datamodel="rust"` by replacing each ECMAScript expression with the Rust one the table
//! gives. Every edit stays on its line, so the compiler's `CHART:LINE:COL` messages point at
//! the line of the original file (columns after an edit on the same line may shift).
//!
//! This file is a module of the build script and also of the library (`src/lib.rs`), where
//! its unit tests run with `cargo test -p scxml-scion-tests`.

/// The namespace of the rust datamodel's attributes (`rs:type`).
pub const RUST_NS: &str = "urn:sudoku-scxmlc:rust";

/// Charts ported to the rust datamodel: `group/name` → exact ECMAScript `cond`/`expr` text →
/// Rust. Data fields are typed `i64`; an expression is `&i64` in Rust, hence the derefs.
/// Integer literals (`<data expr="0">`) are the same in both languages and need no entry.
pub const PORTS: &[(&str, &[(&str, &str)])] = &[
    (
        "more-parallel/test10",
        &[
            ("x +1", "*x + 1"),
            ("x + 1", "*x + 1"),
            ("x === 2", "*x == 2"),
            ("x === 6", "*x == 6"),
            ("x === 8", "*x == 8"),
        ],
    ),
    (
        "more-parallel/test10b",
        &[
            ("x +1", "*x + 1"),
            ("x + 1", "*x + 1"),
            ("x === 2", "*x == 2"),
            ("x === 4", "*x == 4"),
            ("x === 6", "*x == 6"),
        ],
    ),
    (
        "targetless-transition/test0",
        &[("i === 100", "*i == 100"), ("i + 1", "*i + 1")],
    ),
    (
        "targetless-transition/test1",
        &[
            ("i * 2", "*i * 2"),
            ("Math.pow(i,3)", "i.pow(3)"),
            ("i === 8", "*i == 8"),
        ],
    ),
    (
        "targetless-transition/test2",
        &[
            ("i * 2", "*i * 2"),
            ("Math.pow(i,3)", "i.pow(3)"),
            ("i + 2", "*i + 2"),
            ("i === 27", "*i == 27"),
        ],
    ),
];

/// Attributes whose value is an expression (or a data location) in the SCXML datamodels.
const EXPRESSION_ATTRIBUTES: &[&str] = &[
    "cond",
    "expr",
    "location",
    "eventexpr",
    "targetexpr",
    "typeexpr",
    "delayexpr",
    "srcexpr",
    "idlocation",
    "namelist",
    "array",
    "item",
    "index",
];

/// The datamodel a rewritten chart uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Datamodel {
    /// `datamodel="null"`: no expressions, only `In(state)` conditions.
    Null,
    /// `datamodel="rust"`: the chart was ported through [`PORTS`].
    Rust,
}

/// A chart ready for the compiler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The chart text, with the same lines as the original.
    pub text: String,
    /// Which datamodel it now declares.
    pub datamodel: Datamodel,
}

/// Rewrites the chart `key` (`group/name`, e.g. `basic/basic0`) for `sudoku-scxmlc`.
///
/// # Errors
/// Why the chart needs ECMAScript, with the line: an expression that is not `In(state)`, a
/// `<script>` or `<data>`, or (for a chart in [`PORTS`]) an expression the table lacks.
pub fn rewrite(key: &str, text: &str) -> Result<Rewritten, String> {
    if let Some((_, table)) = PORTS.iter().find(|(k, _)| *k == key) {
        return port_to_rust(text, table).map(|text| Rewritten {
            text,
            datamodel: Datamodel::Rust,
        });
    }
    if let Some(reason) = find_ecmascript(text) {
        return Err(reason);
    }
    Ok(Rewritten {
        text: set_datamodel(text, "null", ""),
        datamodel: Datamodel::Null,
    })
}

/// The first place where `text` needs a datamodel with expressions, as
/// `line N: <elem attr="value">`; `None` when the null datamodel can run it.
pub fn find_ecmascript(text: &str) -> Option<String> {
    for tag in tags(text) {
        let elem = local_name(tag.name);
        if elem == "script" || elem == "data" {
            return Some(format!(
                "line {}: <{}> needs an ECMAScript datamodel",
                line_of(text, tag.start),
                tag.name
            ));
        }
        for attr in &tag.attrs {
            if !EXPRESSION_ATTRIBUTES.contains(&attr.name) {
                continue;
            }
            if attr.name == "cond" && is_in_predicate(attr.value) {
                continue;
            }
            return Some(format!(
                "line {}: <{} {}=\"{}\"> is ECMAScript",
                line_of(text, attr.value_start),
                tag.name,
                attr.name,
                attr.value
            ));
        }
    }
    None
}

/// Sets the root's `datamodel` attribute to `value` (inserting it when absent) and inserts
/// `extra` (e.g. ` xmlns:rs="..."`) right after `<scxml`, without adding lines.
pub fn set_datamodel(text: &str, value: &str, extra: &str) -> String {
    let Some(root) = tags(text)
        .into_iter()
        .find(|t| local_name(t.name) == "scxml")
    else {
        return text.to_owned();
    };
    let mut edits = Vec::new();
    match root.attrs.iter().find(|a| a.name == "datamodel") {
        Some(a) => edits.push((a.value_start, a.value.len(), value.to_owned())),
        None => edits.push((root.name_end, 0, format!(" datamodel=\"{value}\""))),
    }
    if !extra.is_empty() {
        edits.push((root.name_end, 0, extra.to_owned()));
    }
    apply(text, edits)
}

/// Ports a chart to the rust datamodel: `datamodel="rust"` and the `rs` namespace on the
/// root, `rs:type="i64"` on every `<data>`, and every `cond`/`expr` replaced through `table`.
///
/// # Errors
/// An expression that is neither an integer literal nor in `table`, a `<script>`, or another
/// expression attribute than `cond`, `expr` and a plain-identifier `location`.
pub fn port_to_rust(text: &str, table: &[(&str, &str)]) -> Result<String, String> {
    let mut edits = Vec::new();
    for tag in tags(text) {
        let elem = local_name(tag.name);
        if elem == "script" {
            return Err(format!(
                "line {}: <script> is not in the port table",
                line_of(text, tag.start)
            ));
        }
        if elem == "data" {
            edits.push((tag.name_end, 0, " rs:type=\"i64\"".to_owned()));
        }
        for attr in &tag.attrs {
            if !EXPRESSION_ATTRIBUTES.contains(&attr.name) {
                continue;
            }
            let line = line_of(text, attr.value_start);
            match attr.name {
                "location" if is_identifier(attr.value) => {}
                "cond" | "expr" if is_integer(attr.value) => {}
                "cond" | "expr" => {
                    let Some((_, rust)) = table.iter().find(|(js, _)| *js == attr.value) else {
                        return Err(format!(
                            "line {line}: {}=\"{}\" is not in the port table",
                            attr.name, attr.value
                        ));
                    };
                    edits.push((attr.value_start, attr.value.len(), escape(rust)));
                }
                _ => {
                    return Err(format!(
                        "line {line}: {}=\"{}\" is not ported",
                        attr.name, attr.value
                    ))
                }
            }
        }
    }
    let text = apply(text, edits);
    Ok(set_datamodel(
        &text,
        "rust",
        &format!(" xmlns:rs=\"{RUST_NS}\""),
    ))
}

/// An XML start (or empty-element) tag.
#[derive(Debug)]
struct Tag<'a> {
    /// The qualified name (`ns0:log`).
    name: &'a str,
    /// Byte offset of `<`.
    start: usize,
    /// Byte offset just after the name.
    name_end: usize,
    attrs: Vec<Attr<'a>>,
}

/// An attribute of a [`Tag`], its value as written (not unescaped).
#[derive(Debug)]
struct Attr<'a> {
    name: &'a str,
    value: &'a str,
    /// Byte offset of the value's first character.
    value_start: usize,
}

/// The start tags of `text`, skipping comments, CDATA, processing instructions, declarations
/// and end tags.
fn tags(text: &str) -> Vec<Tag<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = text[i..].find('<') {
        let start = i + off;
        let rest = &text[start..];
        let skip_to = |end: &str, from: usize| {
            text[from..]
                .find(end)
                .map_or(text.len(), |e| from + e + end.len())
        };
        if rest.starts_with("<!--") {
            i = skip_to("-->", start + 4);
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            i = skip_to("]]>", start + 9);
            continue;
        }
        if rest.starts_with("<?") || rest.starts_with("<!") || rest.starts_with("</") {
            i = skip_to(">", start + 1);
            continue;
        }
        let mut j = start + 1;
        while j < bytes.len() && !is_space(bytes[j]) && bytes[j] != b'>' && bytes[j] != b'/' {
            j += 1;
        }
        let mut tag = Tag {
            name: &text[start + 1..j],
            start,
            name_end: j,
            attrs: Vec::new(),
        };
        // Attributes: name = "value" | 'value', until `>`.
        loop {
            while j < bytes.len() && (is_space(bytes[j]) || bytes[j] == b'/') {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                break;
            }
            let name_start = j;
            while j < bytes.len() && !is_space(bytes[j]) && !matches!(bytes[j], b'=' | b'>') {
                j += 1;
            }
            let name = &text[name_start..j];
            while j < bytes.len() && is_space(bytes[j]) {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] != b'=' {
                continue; // malformed: an attribute without value; the compiler will say so
            }
            j += 1;
            while j < bytes.len() && is_space(bytes[j]) {
                j += 1;
            }
            let Some(&quote) = bytes.get(j).filter(|&&b| b == b'"' || b == b'\'') else {
                continue;
            };
            let value_start = j + 1;
            let value_end = text[value_start..]
                .find(quote as char)
                .map_or(text.len(), |e| value_start + e);
            tag.attrs.push(Attr {
                name,
                value: &text[value_start..value_end],
                value_start,
            });
            j = value_end + 1;
        }
        out.push(tag);
        i = j.min(text.len());
    }
    out
}

/// Applies `(offset, length, replacement)` edits; they must not overlap.
fn apply(text: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (at, len, with) in edits {
        debug_assert!(!with.contains('\n'), "an edit must not add lines");
        out.replace_range(at..at + len, &with);
    }
    out
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn local_name(qualified: &str) -> &str {
    qualified.rsplit(':').next().unwrap_or(qualified)
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// `In(id)`, `In('id')` or `In("id")` (`&quot;` too), nothing else.
fn is_in_predicate(value: &str) -> bool {
    let v = value.trim();
    let Some(inner) = v.strip_prefix("In(").and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    let inner = inner.trim().replace("&quot;", "\"").replace("&apos;", "'");
    let id = inner.trim_matches(|c| c == '\'' || c == '"');
    !id.is_empty() && !id.contains(|c: char| c.is_whitespace() || "'\"()".contains(c))
}

fn is_integer(value: &str) -> bool {
    let v = value.trim();
    let digits = v.strip_prefix('-').unwrap_or(v);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_identifier(value: &str) -> bool {
    let mut chars = value.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: &str = "<?xml version=\"1.0\"?>\n<!-- <data id=\"c\"/> cond=\"x\" -->\n<scxml\n    datamodel=\"ecmascript\"\n    xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n    <transition event=\"t\" target=\"b\" cond=\"In('a')\"/>\n  </state>\n  <state id=\"b\"/>\n</scxml>\n";

    const COUNTER: &str = "<scxml datamodel=\"ecmascript\"\n    xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <datamodel>\n    <data id=\"x\" expr=\"0\"/>\n  </datamodel>\n  <state id=\"a\">\n    <onentry><assign location=\"x\" expr=\"x + 1\"/></onentry>\n    <transition target=\"b\" cond=\"x === 1\"/>\n  </state>\n  <state id=\"b\"/>\n</scxml>\n";

    const TABLE: &[(&str, &str)] = &[("x + 1", "*x + 1"), ("x === 1", "*x == 1")];

    fn lines(s: &str) -> usize {
        s.lines().count()
    }

    #[test]
    fn plain_chart_becomes_null_with_the_same_lines() {
        let r = rewrite("g/plain", PLAIN).unwrap();
        assert_eq!(r.datamodel, Datamodel::Null);
        assert_eq!(lines(&r.text), lines(PLAIN));
        assert!(r.text.contains("    datamodel=\"null\"\n"));
        // Only the datamodel line changed.
        let changed: Vec<_> = PLAIN
            .lines()
            .zip(r.text.lines())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(changed, [4]);
    }

    #[test]
    fn missing_datamodel_attribute_is_added_on_the_root_line() {
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\"/>\n</scxml>";
        let out = set_datamodel(text, "null", "");
        assert_eq!(
            out.lines().next().unwrap(),
            "<scxml datamodel=\"null\" xmlns=\"http://www.w3.org/2005/07/scxml\">"
        );
    }

    #[test]
    fn expressions_are_ecmascript_but_in_predicates_and_comments_are_not() {
        assert_eq!(find_ecmascript(PLAIN), None);
        assert_eq!(
            find_ecmascript(COUNTER).unwrap(),
            "line 4: <data> needs an ECMAScript datamodel"
        );
        let negated = "<scxml>\n<state id=\"a\">\n<transition cond=\"!In('a')\"/></state></scxml>";
        assert_eq!(
            find_ecmascript(negated).unwrap(),
            "line 3: <transition cond=\"!In('a')\"> is ECMAScript"
        );
        let log = "<ns0:scxml xmlns:ns0=\"x\"><ns0:log expr=\"&quot;hi&quot;\"/></ns0:scxml>";
        assert!(find_ecmascript(log).unwrap().contains("<ns0:log expr="));
        assert!(rewrite("g/log", log).is_err());
    }

    #[test]
    fn in_predicate_forms() {
        assert!(is_in_predicate("In(s1)"));
        assert!(is_in_predicate(" In( 's1' ) "));
        assert!(is_in_predicate("In(&quot;s1&quot;)"));
        assert!(!is_in_predicate("!In('s1')"));
        assert!(!is_in_predicate("In('a') || In('b')"));
    }

    #[test]
    fn port_translates_every_expression_and_types_the_data() {
        let out = port_to_rust(COUNTER, TABLE).unwrap();
        assert_eq!(lines(&out), lines(COUNTER));
        let expected = COUNTER
            .replace(
                "<scxml datamodel=\"ecmascript\"",
                "<scxml xmlns:rs=\"urn:sudoku-scxmlc:rust\" datamodel=\"rust\"",
            )
            .replace("<data id", "<data rs:type=\"i64\" id")
            .replace("expr=\"x + 1\"", "expr=\"*x + 1\"")
            .replace("cond=\"x === 1\"", "cond=\"*x == 1\"");
        assert_eq!(out, expected);
    }

    #[test]
    fn port_rejects_what_the_table_lacks() {
        let err = port_to_rust(COUNTER, &TABLE[..1]).unwrap_err();
        assert_eq!(err, "line 8: cond=\"x === 1\" is not in the port table");
        let script = "<scxml>\n<script>x = 1</script></scxml>";
        assert!(port_to_rust(script, TABLE)
            .unwrap_err()
            .contains("<script>"));
    }

    #[test]
    fn port_escapes_xml() {
        let text = "<scxml><transition cond=\"a &amp;&amp; b\"/></scxml>";
        let out = port_to_rust(text, &[("a &amp;&amp; b", "*a && *b")]).unwrap();
        assert!(out.contains("cond=\"*a &amp;&amp; *b\""), "{out}");
    }

    #[test]
    fn every_port_entry_names_a_distinct_chart() {
        let mut keys: Vec<_> = PORTS.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), PORTS.len());
    }
}
