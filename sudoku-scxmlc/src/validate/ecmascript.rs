//! ECMAScript datamodel code (SCXML 1.0, B.2): every expression, location and `<script>`
//! compiled, never run, by QuickJS at build time (`JS_EVAL_FLAG_COMPILE_ONLY`), so that a
//! syntax error is a chart error at its line and column, as Rust code's is. The run-time
//! half is `runtime::ecmascript`, which compiles each piece the same way.

use super::code::{locate, CodeKind};
use crate::chart::Code;
use crate::diagnostic::{Diagnostic, SourceFile, Span};

/// How a piece of ECMAScript must compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsKind {
    /// An expression (`cond`, `expr`, `array`, `...expr`).
    Expr,
    /// The left-hand side of an assignment (`location`, `idlocation`).
    Location,
    /// Global code (`<script>`).
    Script,
}

impl From<CodeKind> for JsKind {
    fn from(kind: CodeKind) -> Self {
        match kind {
            CodeKind::Statements => JsKind::Script,
            CodeKind::Expr | CodeKind::Type => JsKind::Expr,
        }
    }
}

/// The source QuickJS compiles for `text` of `kind`, and how many lines come before
/// `text` in it. The run time wraps snippets the same way (`runtime::ecmascript`), so what
/// compiles here compiles there.
fn wrapped(text: &str, kind: JsKind) -> (String, usize) {
    match kind {
        JsKind::Expr => (format!("(\n{text}\n)"), 1),
        JsKind::Location => (format!("(\n{text}\n) = 0"), 1),
        JsKind::Script => (text.to_owned(), 0),
    }
}

thread_local! {
    /// One QuickJS runtime per compiling thread: creating one costs about 100 µs.
    static ENGINE: rquickjs::Context = {
        let runtime = rquickjs::Runtime::new().expect("QuickJS runtime (out of memory?)");
        rquickjs::Context::full(&runtime).expect("QuickJS context (out of memory?)")
    };
}

/// Where and why `source` fails to compile: `(line, column, message)`, both 1-based, in
/// `source`; `None` when it compiles.
fn syntax_error(source: &str) -> Option<(usize, usize, String)> {
    use rquickjs::{qjs, CatchResultExt, Value};
    let Ok(c_source) = std::ffi::CString::new(source) else {
        let at = source.find('\0').unwrap_or(0);
        let line = source[..at].matches('\n').count() + 1;
        let col = at - source[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
        return Some((line, col, "a NUL character".to_owned()));
    };
    ENGINE.with(|engine| {
        engine.with(|c| {
            let flags = (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32;
            // SAFETY: the source and the file name are NUL-terminated and outlive the call;
            // `from_raw` takes over the returned reference.
            let value = unsafe {
                Value::from_raw(
                    c.clone(),
                    qjs::JS_Eval(
                        c.as_raw().as_ptr(),
                        c_source.as_ptr(),
                        source.len() as _,
                        c"chart".as_ptr(),
                        flags,
                    ),
                )
            };
            if !value.is_exception() {
                return None;
            }
            let caught = Err::<(), _>(rquickjs::Error::Exception).catch(&c).err()?;
            let (message, stack) = match caught {
                rquickjs::CaughtError::Exception(e) => (
                    e.message().unwrap_or_default(),
                    e.stack().unwrap_or_default(),
                ),
                other => (other.to_string(), String::new()),
            };
            // `    at chart:LINE:COLUMN`
            let (line, col) = stack
                .lines()
                .find_map(|l| {
                    let rest = l.trim().strip_prefix("at chart:")?;
                    let (line, col) = rest.split_once(':')?;
                    Some((line.parse().ok()?, col.trim().parse().ok()?))
                })
                .unwrap_or((1, 1));
            Some((line, col, message))
        })
    })
}

/// Compiles `text`, found at `span` of `src`, as ECMAScript of `kind`.
///
/// # Errors
/// A syntax error, located inside the chart (a position past the end of the code, as for
/// an unfinished expression, is its last character).
pub fn check_code(
    src: &SourceFile,
    text: &str,
    span: Span,
    kind: JsKind,
) -> Result<Code, Diagnostic> {
    // `expr="new testobject();"`: an expression statement's `;` is no part of the value.
    let text = match kind {
        JsKind::Expr | JsKind::Location => text.trim_end().trim_end_matches(';'),
        JsKind::Script => text,
    };
    let (source, before) = wrapped(text, kind);
    if let Some((line, col, message)) = syntax_error(&source) {
        let lines: Vec<&str> = text.split('\n').collect();
        let (line, column) = match line.checked_sub(before) {
            Some(l) if l >= 1 && l <= lines.len() => (l, col.saturating_sub(1)),
            // The wrapper's own lines: the code ended too early (or the `(` line).
            _ => (
                lines.len(),
                lines
                    .last()
                    .map_or(0, |l| l.chars().count().saturating_sub(1)),
            ),
        };
        let at = locate(src, text, span, proc_macro2::LineColumn { line, column });
        let what = match kind {
            JsKind::Expr => "ECMAScript expression",
            JsKind::Location => "ECMAScript location",
            JsKind::Script => "ECMAScript script",
        };
        return Err(Diagnostic::error(at, format!("invalid {what}: {message}")).with_help(
            "with datamodel=\"ecmascript\", conditions, expressions, locations and scripts are ECMAScript",
        ));
    }
    Ok(Code::new(crate::chart::CodeParts {
        text: text.to_owned(),
        line: src.line(span.start as usize),
        column: src.column_bounded(span.start as usize, 4096),
        tokens: proc_macro2::TokenStream::new(),
        idents: Vec::new(),
    }))
}

/// `text` with its runs of white space made one space and trimmed, as a JSON string: what
/// B.2.2 makes of content that is neither JSON nor an expression (nor XML).
pub fn normalized_string(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    serde_json::Value::from(words.join(" ")).to_string()
}

/// Whether `s` is an ECMAScript identifier usable as a global variable name: ASCII letters,
/// digits, `_` and `$`, not starting with a digit, not a reserved word.
pub fn is_js_ident(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !RESERVED.contains(&s)
}

/// ECMAScript's reserved words, and the names of the global scope a chart must not redefine.
const RESERVED: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "let",
    "static",
    "implements",
    "interface",
    "package",
    "private",
    "protected",
    "public",
    "undefined",
    "NaN",
    "Infinity",
    "eval",
    "arguments",
];

/// The identifier a location starts with (`a` of `a.b[0]`), if it starts with one.
pub fn location_root(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let end = t
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .map_or(t.len(), |(i, _)| i);
    let root = &t[..end];
    is_js_ident(root).then_some(root)
}

impl super::Validator<'_> {
    /// A `location` (or `idlocation`): compiled as the left-hand side of an assignment. Its
    /// root is looked up only to say which `<data>` it names; whether the variable exists is
    /// the run time's question, since a `<script>` may declare it (B.2: assigning to one that
    /// does not exist raises `error.execution`).
    pub(super) fn js_location(
        &mut self,
        a: &crate::parse::Attribute,
    ) -> Option<crate::chart::Location> {
        use crate::chart::LocationRoot;
        let code = match check_code(self.src, &a.value, a.span, JsKind::Location) {
            Ok(code) => code,
            Err(d) => {
                self.diags.push(d);
                return None;
            }
        };
        let root = location_root(&a.value);
        let data = match root {
            Some(r) if super::is_system_variable(r) => LocationRoot::SystemVariable,
            Some(r) => self
                .data_ids
                .get(r)
                .map_or(LocationRoot::Undeclared, |&d| LocationRoot::Data(d)),
            None => LocationRoot::Undeclared,
        };
        let bare = root.is_some_and(|r| r == a.value.trim());
        Some(crate::chart::Location { code, data, bare })
    }

    /// The variable a `<foreach item>` or `index` names: its `<data>`, or a new variable
    /// (4.6: the processor declares it), declared at the root like a `<data>`.
    fn js_variable(&mut self, a: &crate::parse::Attribute) -> usize {
        if let Some(&d) = self.data_ids.get(&*a.value) {
            return d;
        }
        let index = self.data.len();
        self.data_ids.insert(a.value.to_string(), index);
        self.data.push(crate::chart::Data {
            id: a.value.to_string(),
            ty: None,
            ty_text: None,
            init: crate::chart::DataInit::Default,
            state: 0,
            line: self.line(a.span),
        });
        index
    }

    /// `<foreach>` in ECMAScript. An `item` or `index` that is not a variable name makes the
    /// element one that raises `error.execution` when it runs (4.6), with a build warning.
    pub(super) fn js_foreach(
        &mut self,
        e: &crate::parse::Element,
        line: u32,
        column: u32,
    ) -> Option<crate::chart::Exec> {
        use crate::chart::Exec;
        let array = match e.attr("array") {
            Some(a) => self.code_attr(a, CodeKind::Expr),
            None => {
                self.error(e.span, "`<foreach>` needs an `array`");
                None
            }
        };
        let Some(item_attr) = e.attr("item") else {
            self.error(e.span, "`<foreach>` needs an `item`");
            return None;
        };
        let names = [Some(item_attr), e.attr("index")];
        if let Some(bad) = names.into_iter().flatten().find(|a| !is_js_ident(&a.value)) {
            self.diags.push(Diagnostic::warning(
                bad.span,
                format!(
                    "`{}` is not an ECMAScript variable name: this `<foreach>` raises `error.execution` at run time",
                    bad.value
                ),
            ));
            let message = format!("`{}` is not a legal variable name for <foreach>", bad.value);
            let text = format!(
                "throw new SyntaxError({});",
                serde_json::Value::from(message)
            );
            let code = check_code(self.src, &text, e.span, JsKind::Script).ok()?;
            return Some(Exec::Script { code, line, column });
        }
        let item = self.js_variable(item_attr);
        let index = e.attr("index").map(|a| self.js_variable(a));
        let body = self.exec_list(e.elements().filter(|c| c.is_scxml()).collect());
        Some(Exec::Foreach {
            array: array?,
            item,
            index,
            body,
            line,
            column,
        })
    }

    /// The value of a `src` file that starts with markup: the XML document (B.2.2), or when
    /// it is not well-formed the text as a string (as for other text), with a warning.
    fn js_xml_file(&mut self, text: &str, src: &crate::parse::Attribute) -> crate::chart::DataInit {
        use crate::runtime::ecmascript::dom;
        match dom::check(text) {
            Ok(()) => crate::chart::DataInit::Json(dom::xml_value(text.trim()).to_string()),
            Err(why) => {
                self.diags.push(Diagnostic::warning(
                    src.span,
                    format!(
                        "`{}` is not well-formed XML ({why}): its value is the text as a string",
                        src.value
                    ),
                ));
                crate::chart::DataInit::Json(normalized_string(text))
            }
        }
    }

    /// A `<data>` of the ECMAScript datamodel: an identifier, initialised by `expr`, by JSON
    /// or XML (`src` or inline; XML is a DOM document), by inline content as an expression,
    /// or else by the inline text as a string with its white space normalised (B.2.2).
    pub(super) fn js_data_item(
        &mut self,
        d: &crate::parse::Element,
        id: &crate::parse::Attribute,
        state: usize,
    ) {
        use crate::chart::DataInit;
        if !is_js_ident(&id.value)
            || id.value.starts_with("__scxml")
            || super::is_system_variable(&id.value)
            || id.value == "In"
        {
            self.diags.push(
                Diagnostic::error(id.span, format!("data id `{}` is not usable as an ECMAScript variable", id.value))
                    .with_help("a `<data id>` is an identifier of ASCII letters, digits, `_` and `$` (not a reserved word, not `_event`, `_name`, `_sessionid`, `_ioprocessors` or `In`)"),
            );
            return;
        }
        if self.is_duplicate_data(id) {
            return;
        }
        let text = self.data_content(d, &id.value);
        let chart = d.elements().find(|c| c.is_scxml() && c.name == "scxml");
        let init = if let Some(root) = chart {
            self.chart_value(root)
                .map_or(DataInit::Default, DataInit::Expr)
        } else if d.elements().next().is_some() {
            // XML content: a DOM document (B.2.2).
            if d.attr("expr").is_some() || d.attr("src").is_some() {
                self.error(
                    d.span,
                    format!(
                        "`<data id=\"{}\">` has more than one of `expr`, `src` and content",
                        id.value
                    ),
                );
            }
            self.inline_xml(d).map_or(DataInit::Default, |markup| {
                DataInit::Json(crate::runtime::ecmascript::dom::xml_value(markup).to_string())
            })
        } else if let Some(expr) = d.attr("expr") {
            match check_code(self.src, &expr.value, expr.span, JsKind::Expr) {
                Ok(code) => DataInit::Expr(code),
                Err(diag) => {
                    self.diags.push(diag);
                    DataInit::Default
                }
            }
        } else if let Some(src) = d.attr("src") {
            match self.read_included(src) {
                Some(text) if serde_json::from_str::<serde_json::Value>(&text).is_ok() => {
                    DataInit::Json(text.trim().to_owned())
                }
                Some(text) if text.trim_start().starts_with('<') => self.js_xml_file(&text, src),
                Some(text) => match check_code(self.src, &text, src.span, JsKind::Expr) {
                    Ok(code) => DataInit::Expr(code),
                    // Neither JSON nor an expression: the text, space-normalised (B.2.2).
                    Err(_) => DataInit::Json(normalized_string(&text)),
                },
                None => DataInit::Default,
            }
        } else if let Some(t) = text {
            if serde_json::from_str::<serde_json::Value>(&t.text).is_ok() {
                DataInit::Json(t.text.trim().to_owned())
            } else if let Ok(code) = check_code(self.src, t.text.trim(), t.span, JsKind::Expr) {
                DataInit::Expr(code)
            } else {
                DataInit::Json(normalized_string(&t.text))
            }
        } else {
            DataInit::Default
        };
        let line = self.line(d.span);
        self.add_data(crate::chart::Data {
            id: id.value.to_string(),
            ty: None,
            ty_text: None,
            init,
            state,
            line,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_are_found_without_running() {
        assert_eq!(syntax_error("(\nx + 1\n)"), None);
        // Compiled, not run: an undefined name or a throw is no build error.
        assert_eq!(syntax_error("(\nnope()\n)"), None);
        assert_eq!(syntax_error("throw 1"), None);
        let (line, col, msg) = syntax_error("var a = 1;\nvar b = ;").unwrap();
        assert_eq!((line, col), (2, 9));
        assert!(msg.contains("unexpected token"), "{msg}");
        assert!(syntax_error("(\na + b\n) = 0").is_some());
        assert_eq!(syntax_error("(\na.b[2]\n) = 0"), None);
    }

    #[test]
    fn identifiers_and_roots() {
        assert!(is_js_ident("Var1") && is_js_ident("_x") && is_js_ident("$a"));
        assert!(!is_js_ident("1a") && !is_js_ident("var") && !is_js_ident("'continue'"));
        assert_eq!(location_root("a.b[0]"), Some("a"));
        assert_eq!(location_root(" _event.name"), Some("_event"));
        assert_eq!(location_root("[1][0]"), None);
    }
}
