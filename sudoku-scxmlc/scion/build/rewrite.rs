//! In-memory rewrite of a SCION chart into a datamodel `sudoku-scxmlc` implements.
//!
//! The SCION charts declare `datamodel="ecmascript"` (or nothing, which means the same to
//! SCION). [`rewrite`] turns a chart that uses no expressions into a `datamodel="null"`
//! chart, and ports every other chart to `datamodel="rust"`, translating each ECMAScript
//! expression and script with the rules of `ecmascript.rs` (values are `serde_json::Value`,
//! operators are the test crate's `js` helpers). Every edit keeps its line count, so the
//! compiler's `CHART:LINE:COL` messages point at the line of the original file (columns after
//! an edit on the same line may shift).
//!
//! This file is a module of the build script and also of the library (`src/lib.rs`), where
//! its unit tests run with `cargo test -p scxml-scion-tests`.

use crate::ecmascript::{self, Globals, Want};

/// `<script src>` files the test data names but does not hold: `group/file` → the ECMAScript
/// they contain. The `script-src` folder has no `.js` files, only a README.md that describes
/// each one ("set `x` to 100", ...); these are those descriptions written as ECMAScript, and
/// they are translated like any inline script. A file next to the chart wins over this table.
pub const SCRIPT_SOURCES: &[(&str, &str)] = &[
    ("script-src/script-0-0.js", "x = 100;"),
    ("script-src/script-1-0.js", "i = 0;"),
    ("script-src/script-1-1.js", "i = i + 1;"),
    ("script-src/script-2-0.js", "i = 0;"),
    ("script-src/script-2-1.js", "i = i + 1;"),
    ("script-src/script-2-2.js", "i = i + 1;"),
    ("script-src/script-2-3.js", "i = i * 2;"),
    ("script-src/script-3-0.js", "function foo() { x = 100; }"),
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
    "sendidexpr",
    "srcexpr",
    "idlocation",
    "namelist",
    "array",
    "item",
    "index",
];

/// The id of the `<state>` that [`port_to_rust`] wraps around the root's children when the
/// root has transitions.
pub const ROOT_WRAPPER: &str = "scion_root";

/// The datamodel a rewritten chart uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Datamodel {
    /// `datamodel="null"`: no expressions, only `In(state)` conditions.
    Null,
    /// `datamodel="rust"`: the chart's ECMAScript was translated to Rust.
    Rust,
    /// `datamodel="ecmascript"`: the chart's own ECMAScript, untranslated.
    Ecmascript,
}

/// A chart ready for the compiler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The chart text, with the same lines as the original.
    pub text: String,
    /// Which datamodel it now declares.
    pub datamodel: Datamodel,
}

/// Rewrites the chart `key` (`group/name`, e.g. `basic/basic0`) for `sudoku-scxmlc`, finding
/// `<script src>` files in [`SCRIPT_SOURCES`] only.
#[allow(
    dead_code,
    reason = "the build script passes its own loader to `rewrite_with`"
)]
///
/// # Errors
/// As [`rewrite_with`].
pub fn rewrite(key: &str, text: &str) -> Result<Rewritten, String> {
    rewrite_with(key, text, &|_| None)
}

/// Rewrites the chart `key` (`group/name`); `load` reads a `<script src>` file named relative
/// to the chart (`None` when there is none: then [`SCRIPT_SOURCES`] is asked).
///
/// # Errors
/// Why the chart cannot be translated, with the line: ECMAScript outside the translated
/// subset, a `<script src>` nobody has, or a location that is not a data id.
pub fn rewrite_with(
    key: &str,
    text: &str,
    load: &dyn Fn(&str) -> Option<String>,
) -> Result<Rewritten, String> {
    if find_ecmascript(text).is_none() {
        return Ok(Rewritten {
            text: set_datamodel(text, "null", ""),
            datamodel: Datamodel::Null,
        });
    }
    let group = key.split('/').next().unwrap_or_default();
    let load = |src: &str| {
        load(src).or_else(|| {
            let k = format!("{group}/{src}");
            SCRIPT_SOURCES
                .iter()
                .find(|(f, _)| *f == k)
                .map(|(_, js)| (*js).to_owned())
        })
    };
    port_to_rust(text, &load).map(|text| Rewritten {
        text,
        datamodel: Datamodel::Rust,
    })
}

/// Readies the chart `key` (`group/name`) for the `ecmascript` datamodel with its own
/// ECMAScript, untranslated: `datamodel="ecmascript"` on the root (SCION's charts declare it
/// or leave it out, which means the same to SCION), a `<script src>` that `load` cannot read
/// inlined from [`SCRIPT_SOURCES`] (the suite does not hold those files), and the root's
/// transitions wrapped as [`port_to_rust`] wraps them. Lines are kept.
///
/// # Errors
/// A `<script src>` that neither `load` nor [`SCRIPT_SOURCES`] has.
pub fn for_ecmascript(
    key: &str,
    text: &str,
    load: &dyn Fn(&str) -> Option<String>,
) -> Result<Rewritten, String> {
    let tags = tags(text);
    let group = key.split('/').next().unwrap_or_default();
    let mut edits = Vec::new();
    for tag in tags.iter().filter(|t| local_name(t.name) == "script") {
        let Some(src) = tag.attr("src") else {
            continue;
        };
        let src = unescape(src);
        if load(&src).is_some() {
            continue; // the compiler reads it, relative to the chart
        }
        let k = format!("{group}/{src}");
        let Some((_, js)) = SCRIPT_SOURCES.iter().find(|(f, _)| *f == k) else {
            return Err(format!(
                "line {}: <script src=\"{src}\"> is not available",
                line_of(text, tag.start)
            ));
        };
        let end = element_end(text, tag);
        let newlines = text[tag.start..end.1].matches('\n').count();
        edits.push((
            tag.start,
            end.1 - tag.start,
            format!(
                "<{n}>{}{}</{n}>",
                escape(js),
                "\n".repeat(newlines),
                n = tag.name
            ),
        ));
    }
    edits.extend(wrap_root_transitions(text, &tags));
    let text = apply(text, edits);
    Ok(Rewritten {
        text: set_datamodel(&text, "ecmascript", ""),
        datamodel: Datamodel::Ecmascript,
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

/// Ports a chart to the rust datamodel: `datamodel="rust"` on the root, every expression
/// attribute and `<script>` translated from ECMAScript (a `<script src>` is read with `load`
/// and inlined), and, when the root holds `<transition>`s (SCION treats `<scxml>` as a state;
/// SCXML 1.0 does not allow them there), the root's states and transitions wrapped in a
/// `<state id="scion_root">` that takes over the root's `initial`.
///
/// # Errors
/// ECMAScript outside the translated subset, a `<script src>` that `load` cannot find, a
/// `<data src>`, or a location that is not a data id.
pub fn port_to_rust(text: &str, load: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let tags = tags(text);
    let mut globals = Globals::default();
    for tag in &tags {
        if local_name(tag.name) == "data" {
            if let Some(id) = tag.attr("id") {
                globals.data.push(id.to_owned());
            }
        }
    }
    // The scripts' sources first: their function declarations are visible everywhere.
    let mut scripts = Vec::new();
    for tag in tags.iter().filter(|t| local_name(t.name) == "script") {
        let line = line_of(text, tag.start);
        let end = element_end(text, tag);
        let source = match tag.attr("src") {
            Some(src) => load(&unescape(src))
                .ok_or_else(|| format!("line {line}: <script src=\"{src}\"> is not available"))?,
            None if tag.self_closing => String::new(),
            None => unescape_text(&text[tag.end..end.0]),
        };
        if let Ok(stmts) = ecmascript::parse_script(&source) {
            globals.functions.extend(ecmascript::functions(&stmts));
        }
        scripts.push((tag, end.1, source));
    }
    let mut edits = Vec::new();
    for (tag, end, source) in scripts {
        let line = line_of(text, tag.start);
        let code = ecmascript::script(&source, &globals)
            .map_err(|e| format!("line {line}: <script>: {e}"))?;
        let newlines = text[tag.start..end].matches('\n').count();
        edits.push((
            tag.start,
            end - tag.start,
            format!(
                "<{n}>{}{}</{n}>",
                escape(&code),
                "\n".repeat(newlines),
                n = tag.name
            ),
        ));
    }
    for tag in &tags {
        let elem = local_name(tag.name);
        if elem == "data" && tag.attr("src").is_some() {
            return Err(format!(
                "line {}: <data src> is not translated",
                line_of(text, tag.start)
            ));
        }
        for attr in &tag.attrs {
            let line = line_of(text, attr.value_start);
            let value = unescape(attr.value);
            let want = match attr.name {
                "cond" => Want::Bool,
                "expr" | "array" => Want::Value,
                "eventexpr" | "targetexpr" | "typeexpr" | "delayexpr" | "sendidexpr"
                | "srcexpr" => Want::String,
                "location" | "idlocation" | "item" | "index" | "namelist" => {
                    if let Some(bad) = value
                        .split_whitespace()
                        .find(|id| !globals.data.iter().any(|d| d == id))
                    {
                        return Err(format!(
                            "line {line}: {}=\"{}\": `{bad}` is not a data id",
                            attr.name, attr.value
                        ));
                    }
                    continue;
                }
                _ => continue,
            };
            let rust = ecmascript::expression(&value, &globals, want)
                .map_err(|e| format!("line {line}: {}=\"{}\": {e}", attr.name, attr.value))?;
            // A value spread over lines keeps them, as trailing white space.
            let newlines = "\n".repeat(attr.value.matches('\n').count());
            edits.push((
                attr.value_start,
                attr.value.len(),
                escape(&rust) + &newlines,
            ));
        }
    }
    edits.extend(wrap_root_transitions(text, &tags));
    let text = apply(text, edits);
    Ok(set_datamodel(&text, "rust", ""))
}

/// The edits that wrap the root's children in `<state id="scion_root">` when the root has a
/// `<transition>` child; none otherwise.
fn wrap_root_transitions(text: &str, tags: &[Tag<'_>]) -> Vec<(usize, usize, String)> {
    let Some(root) = tags.iter().find(|t| local_name(t.name) == "scxml") else {
        return Vec::new();
    };
    let children = || tags.iter().filter(|t| t.depth == root.depth + 1);
    if !children().any(|t| local_name(t.name) == "transition") {
        return Vec::new();
    }
    let Some(first) = children()
        .find(|t| ["state", "parallel", "final", "transition"].contains(&local_name(t.name)))
    else {
        return Vec::new();
    };
    let Some(close) = text.rfind(&format!("</{}", root.name)) else {
        return Vec::new();
    };
    let prefix = &root.name[..root.name.len() - local_name(root.name).len()];
    let mut edits = Vec::new();
    let mut initial = String::new();
    if let Some(a) = root.attrs.iter().find(|a| a.name == "initial") {
        initial = format!(" initial=\"{}\"", a.value);
        edits.push((
            a.name_start,
            a.value_start + a.value.len() + 1 - a.name_start,
            String::new(),
        ));
    }
    edits.push((
        first.start,
        0,
        format!("<{prefix}state id=\"{ROOT_WRAPPER}\"{initial}>"),
    ));
    edits.push((close, 0, format!("</{prefix}state>")));
    edits
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
    /// Byte offset just after the closing `>`.
    end: usize,
    /// `<tag/>`.
    self_closing: bool,
    /// How many elements enclose it (the root has depth 0).
    depth: usize,
    attrs: Vec<Attr<'a>>,
}

impl Tag<'_> {
    /// The value of attribute `name`, as written.
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|a| a.name == name).map(|a| a.value)
    }
}

/// An attribute of a [`Tag`], its value as written (not unescaped).
#[derive(Debug)]
struct Attr<'a> {
    name: &'a str,
    value: &'a str,
    /// Byte offset of the name's first character.
    name_start: usize,
    /// Byte offset of the value's first character.
    value_start: usize,
}

/// The start tags of `text`, skipping comments, CDATA, processing instructions, declarations
/// and end tags.
fn tags(text: &str) -> Vec<Tag<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
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
        if rest.starts_with("</") {
            depth = depth.saturating_sub(1);
            i = skip_to(">", start + 1);
            continue;
        }
        if rest.starts_with("<?") || rest.starts_with("<!") {
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
            end: text.len(),
            self_closing: false,
            depth,
            attrs: Vec::new(),
        };
        // Attributes: name = "value" | 'value', until `>`.
        loop {
            while j < bytes.len() && is_space(bytes[j]) {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b'/' {
                tag.self_closing = true;
                j += 1;
                continue;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                break;
            }
            tag.self_closing = false;
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
                name_start,
                value_start,
            });
            j = value_end + 1;
        }
        tag.end = (j + 1).min(text.len());
        if !tag.self_closing {
            depth += 1;
        }
        out.push(tag);
        i = j.min(text.len());
    }
    out
}

/// Where the content of element `tag` ends and where its end tag ends (both `tag.end` for
/// `<tag/>`).
fn element_end(text: &str, tag: &Tag<'_>) -> (usize, usize) {
    if tag.self_closing {
        return (tag.end, tag.end);
    }
    let close = format!("</{}", tag.name);
    let mut from = tag.end;
    // Skip CDATA sections, which may contain `</`.
    loop {
        let cdata = text[from..].find("<![CDATA[").map(|c| from + c);
        let end = text[from..].find(&close).map(|c| from + c);
        match (cdata, end) {
            (Some(c), Some(e)) if c < e => {
                from = text[c..].find("]]>").map_or(text.len(), |x| c + x + 3);
            }
            (_, Some(e)) => {
                let after = text[e..].find('>').map_or(text.len(), |x| e + x + 1);
                return (e, after);
            }
            (_, None) => return (text.len(), text.len()),
        }
    }
}

/// Applies `(offset, length, replacement)` edits; they must not overlap, and each keeps the
/// number of line breaks it replaces.
fn apply(text: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (at, len, with) in edits {
        debug_assert_eq!(
            with.matches('\n').count(),
            out[at..at + len].matches('\n').count(),
            "an edit must keep its lines"
        );
        out.replace_range(at..at + len, &with);
    }
    out
}

/// An attribute value as the XML parser reads it (the five entities and character
/// references decoded).
fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let Some(semi) = rest.find(';') else { break };
        let entity = &rest[1..semi];
        let decoded = match entity {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Element text as the XML parser reads it: CDATA sections verbatim, entities decoded,
/// comments dropped.
fn unescape_text(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let cdata = rest.find("<![CDATA[");
        let comment = rest.find("<!--");
        match (cdata, comment) {
            (Some(c), m) if m.map_or(true, |m| c < m) => {
                out.push_str(&unescape(&rest[..c]));
                let body = &rest[c + 9..];
                let end = body.find("]]>").unwrap_or(body.len());
                out.push_str(&body[..end]);
                rest = body.get(end + 3..).unwrap_or_default();
            }
            (_, Some(m)) => {
                out.push_str(&unescape(&rest[..m]));
                let body = &rest[m + 4..];
                let end = body.find("-->").unwrap_or(body.len());
                // Keep the comment's line breaks, so lines still count the same.
                out.push_str(&"\n".repeat(body[..end].matches('\n').count()));
                rest = body.get(end + 3..).unwrap_or_default();
            }
            _ => {
                out.push_str(&unescape(rest));
                return out;
            }
        }
    }
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

/// Text safe inside an attribute value (either quote) or element content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: &str = "<?xml version=\"1.0\"?>\n<!-- <data id=\"c\"/> cond=\"x\" -->\n<scxml\n    datamodel=\"ecmascript\"\n    xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n    <transition event=\"t\" target=\"b\" cond=\"In('a')\"/>\n  </state>\n  <state id=\"b\"/>\n</scxml>\n";

    const COUNTER: &str = "<scxml datamodel=\"ecmascript\"\n    xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <datamodel>\n    <data id=\"x\" expr=\"0\"/>\n  </datamodel>\n  <state id=\"a\">\n    <onentry><assign location=\"x\" expr=\"x + 1\"/></onentry>\n    <transition target=\"b\" cond=\"x === 1\"/>\n  </state>\n  <state id=\"b\"/>\n</scxml>\n";

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
    fn port_translates_every_expression_in_place() {
        let r = rewrite("g/counter", COUNTER).unwrap();
        assert_eq!(r.datamodel, Datamodel::Rust);
        assert_eq!(lines(&r.text), lines(COUNTER));
        let expected = COUNTER
            .replace("datamodel=\"ecmascript\"", "datamodel=\"rust\"")
            .replace("expr=\"0\"", "expr=\"crate::js::Value::from(0_i64)\"")
            .replace(
                "expr=\"x + 1\"",
                "expr=\"crate::js::add(x, &amp;crate::js::Value::from(1_i64))\"",
            )
            .replace(
                "cond=\"x === 1\"",
                "cond=\"crate::js::strict_eq(x, &amp;crate::js::Value::from(1_i64))\"",
            );
        assert_eq!(r.text, expected);
    }

    #[test]
    fn entities_are_decoded_before_translation_and_encoded_after() {
        let text = "<scxml><datamodel><data id=\"i\"/></datamodel><state id=\"a\"><transition cond=\"i &lt; 100 &amp;&amp; In('a')\"/><onentry><log expr=\"&quot;A-&gt;B&quot;\"/></onentry></state></scxml>";
        let out = rewrite("g/e", text).unwrap().text;
        assert!(
            out.contains("cond=\"crate::js::lt(i, &amp;crate::js::Value::from(100_i64)) &amp;&amp; In(&quot;a&quot;)\""),
            "{out}"
        );
        assert!(
            out.contains("expr=\"crate::js::Value::from(&quot;A->B&quot;)\""),
            "{out}"
        );
    }

    #[test]
    fn scripts_keep_their_lines_and_src_is_inlined() {
        let text = "<scxml>\n<script src=\"lib.js\"/>\n<datamodel><data id=\"x\"/></datamodel>\n<state id=\"a\"><onentry><script>\n  x = 1;\n  foo();\n</script></onentry></state>\n</scxml>\n";
        let load = |src: &str| (src == "lib.js").then(|| "function foo() { x *= 2; }".to_owned());
        let out = rewrite_with("g/s", text, &load).unwrap().text;
        assert_eq!(lines(&out), lines(text));
        assert!(out.contains("\n<script></script>\n"), "{out}");
        assert!(out.contains("<script>*x = crate::js::Value::from(1_i64); let _ = { let mut foo = || -> crate::js::JsResult { *x = crate::js::mul(x, &amp;crate::js::Value::from(2_i64)); ::core::result::Result::Ok(crate::js::Value::Null) }; foo()? };\n\n\n</script>"), "{out}");
        let missing = rewrite("g/s", text).unwrap_err();
        assert_eq!(missing, "line 2: <script src=\"lib.js\"> is not available");
    }

    #[test]
    fn script_src_table_holds_the_described_files() {
        let text = "<scxml><datamodel><data id=\"x\"/></datamodel><state id=\"a\"><onentry><script src=\"script-0-0.js\"/></onentry></state></scxml>";
        let out = rewrite("script-src/test0", text).unwrap().text;
        assert!(
            out.contains("<script>*x = crate::js::Value::from(100_i64);</script>"),
            "{out}"
        );
    }

    #[test]
    fn root_transitions_get_a_wrapping_state() {
        let text = "<scxml initial=\"b\">\n<datamodel><data id=\"x\"/></datamodel>\n<transition event=\"*\"/>\n<state id=\"a\"/><state id=\"b\"/>\n</scxml>";
        let out = rewrite("g/w", text).unwrap().text;
        assert_eq!(
            out,
            "<scxml datamodel=\"rust\" >\n<datamodel><data id=\"x\"/></datamodel>\n<state id=\"scion_root\" initial=\"b\"><transition event=\"*\"/>\n<state id=\"a\"/><state id=\"b\"/>\n</state></scxml>"
        );
    }

    #[test]
    fn for_ecmascript_keeps_the_script_and_inlines_only_missing_files() {
        let text = "<scxml initial=\"a\">\n<script src=\"lib.js\"/>\n<script src=\"script-0-0.js\"/>\n<transition event=\"*\" cond=\"x &lt; 1\"/>\n<state id=\"a\"/>\n</scxml>";
        let load = |src: &str| (src == "lib.js").then(|| "function foo() {}".to_owned());
        let r = for_ecmascript("script-src/t", text, &load).unwrap();
        assert_eq!(r.datamodel, Datamodel::Ecmascript);
        let out = r.text;
        assert_eq!(lines(&out), lines(text));
        assert_eq!(
            out,
            "<scxml datamodel=\"ecmascript\" >\n<script src=\"lib.js\"/>\n<script>x = 100;</script>\n<state id=\"scion_root\" initial=\"a\"><transition event=\"*\" cond=\"x &lt; 1\"/>\n<state id=\"a\"/>\n</state></scxml>"
        );
        assert_eq!(
            for_ecmascript(
                "g/t",
                "<scxml>\n<script src=\"nowhere.js\"/></scxml>",
                &|_| None
            )
            .unwrap_err(),
            "line 2: <script src=\"nowhere.js\"> is not available"
        );
    }

    #[test]
    fn untranslatable_charts_say_why() {
        let text = "<scxml>\n<datamodel><data id=\"x\"/></datamodel>\n<state id=\"a\"><onentry><script>for (;;) {}</script></onentry></state></scxml>";
        assert_eq!(
            rewrite("g/u", text).unwrap_err(),
            "line 3: <script>: `for` is not translated"
        );
        let loc = "<scxml><datamodel><data id=\"x\"/></datamodel><state id=\"a\"><onentry><assign location=\"y\" expr=\"1\"/></onentry></state></scxml>";
        assert!(rewrite("g/l", loc)
            .unwrap_err()
            .contains("`y` is not a data id"));
    }

    #[test]
    fn element_text_decoding() {
        assert_eq!(unescape("a &lt; b &amp;&amp; &#65;&#x42;"), "a < b && AB");
        assert_eq!(unescape("&bogus; &"), "&bogus; &");
        assert_eq!(
            unescape_text("x &lt; 1<![CDATA[ && y < 2 ]]><!-- a\nb -->;"),
            "x < 1 && y < 2 \n;"
        );
    }
}
