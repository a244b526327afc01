//! The `conf:` rewrite: turns a W3C test (`testNNN.txml`, written in the datamodel-neutral
//! vocabulary of the namespace `http://www.w3.org/2005/scxml-conformance`) into a chart for
//! the `rust` datamodel of `sudoku-scxmlc`, or leaves a `null`-datamodel test as it is.
//!
//! Meaning kept: what W3C's own ECMAScript rewrite (`confEcma.xsl`) makes of each item, as
//! `../shared/testdata/w3c/CONF-VOCABULARY.md` lists it. The choices of this rewrite:
//! * every variable `conf:id="N"` becomes a `<data id="varN">` without `rs:type`, which the
//!   generator types as `serde_json::Value`; an unbound variable is `Value::Null`;
//! * expressions are Rust, with small helpers from the crate's `conf` module (`conf::add` is
//!   ECMAScript's `+`, `conf::text` a value as a string, `conf::illegal()?` an expression that
//!   fails at run time, `conf::event_field` one field of `_event` as a value);
//! * a variable the test uses without declaring it (ECMAScript creates it on first
//!   assignment, e.g. by `<script>` or `<foreach item>`) is declared by an injected
//!   `<data id="varN"/>`: a Rust datamodel is a struct, whose fields are fixed at build time;
//! * `<conf:pass/>` and `<conf:fail/>` become the top-level finals `pass` and `fail`; the
//!   runner reads which one stopped the machine.
//!
//! Invoked sub-documents (`testNNNsub1.txml`) are rewritten the same way.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::collections::BTreeSet;

/// The datamodel a rewritten chart uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Datamodel {
    /// `datamodel="rust"` (every test written with `conf:datamodel`).
    Rust,
    /// `datamodel="null"` (tests written for it, e.g. test436).
    Null,
}

/// A rewritten chart.
pub struct Rewritten {
    /// The chart text.
    pub text: String,
    /// Its datamodel.
    pub datamodel: Datamodel,
}

/// One `<scxml>` document being rewritten (an inline child chart is its own scope).
struct Scope {
    /// `varN` ids declared by `<data>`.
    declared: BTreeSet<String>,
    /// `varN` ids the chart refers to.
    used: BTreeSet<String>,
    /// `varN` ids the chart assigns (so ECMAScript would create them).
    assigned: BTreeSet<String>,
    /// Where in the output a `<datamodel>` for undeclared variables goes: right after the
    /// `<scxml ...>` start tag.
    insert_at: usize,
}

struct Rewriter {
    out: String,
    scopes: Vec<Scope>,
    datamodel: Datamodel,
}

/// Rewrites one test document.
///
/// # Errors
/// A `conf:` item this rewrite does not know, or XML that does not parse: the message names
/// the item or the byte offset.
pub fn rewrite(text: &str) -> Result<Rewritten, String> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(false);
    let mut r = Rewriter {
        out: String::with_capacity(text.len() + 512),
        scopes: Vec::new(),
        datamodel: Datamodel::Rust,
    };
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| format!("XML error at byte {at}: {e}"))?;
        match event {
            Event::Eof => break,
            Event::Start(e) => r.element(&e, false)?,
            Event::Empty(e) => r.element(&e, true)?,
            Event::End(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                r.out.push_str(&format!("</{name}>"));
                if name == "scxml" {
                    r.close_scope();
                }
            }
            Event::Text(t) => r.out.push_str(&String::from_utf8_lossy(&t)),
            Event::CData(t) => {
                r.out.push_str("<![CDATA[");
                r.out.push_str(&String::from_utf8_lossy(&t));
                r.out.push_str("]]>");
            }
            Event::Comment(t) => {
                r.out.push_str("<!--");
                r.out.push_str(&String::from_utf8_lossy(&t));
                r.out.push_str("-->");
            }
            Event::Decl(d) => {
                r.out.push_str("<?");
                r.out.push_str(&String::from_utf8_lossy(&d));
                r.out.push_str("?>");
            }
            Event::PI(p) => {
                r.out.push_str("<?");
                r.out.push_str(&String::from_utf8_lossy(&p));
                r.out.push_str("?>");
            }
            Event::DocType(_) => return Err("the test has a DOCTYPE".to_owned()),
        }
    }
    Ok(Rewritten {
        text: r.out,
        datamodel: r.datamodel,
    })
}

/// `N` → `varN`.
fn var_name(n: &str) -> String {
    format!("var{}", n.trim())
}

/// A Rust string literal for `s`.
fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

/// `'foo'` → `"foo"`, `123` → `123`: a `conf:` value as a Rust literal.
fn rust_literal(v: &str) -> String {
    let v = v.trim();
    match v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        Some(inner) => rust_str(inner),
        None if v.parse::<f64>().is_ok() => v.to_owned(),
        None => rust_str(v),
    }
}

/// An attribute value escaped for a double-quoted attribute.
pub(crate) fn escape_attr(v: &str) -> String {
    v.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A start tag's name, its attributes and its `conf:` attributes (prefix dropped), unescaped
/// and in order; the `xmlns:conf` declaration is dropped. Both rewrites read tags this way.
pub(crate) type SplitTag = (String, Vec<(String, String)>, Vec<(String, String)>);

/// See [`SplitTag`].
pub(crate) fn split_attributes(e: &BytesStart) -> Result<SplitTag, String> {
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut conf: Vec<(String, String)> = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| format!("bad attribute on <{name}>: {err}"))?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let value = a
            .unescape_value()
            .map_err(|err| format!("bad attribute value on <{name}>: {err}"))?
            .into_owned();
        if key == "xmlns:conf" {
            continue;
        }
        match key.strip_prefix("conf:") {
            Some(item) => conf.push((item.to_owned(), value)),
            None => attrs.push((key, value)),
        }
    }
    Ok((name, attrs, conf))
}

impl Rewriter {
    fn scope(&mut self) -> &mut Scope {
        if self.scopes.is_empty() {
            self.scopes.push(Scope {
                declared: BTreeSet::new(),
                used: BTreeSet::new(),
                assigned: BTreeSet::new(),
                insert_at: 0,
            });
        }
        self.scopes.last_mut().expect("a scope")
    }

    /// `varN`, noted as used.
    fn var(&mut self, n: &str) -> String {
        let v = var_name(n);
        self.scope().used.insert(v.clone());
        v
    }

    /// `varN`, noted as used and assigned.
    fn assigned_var(&mut self, n: &str) -> String {
        let v = self.var(n);
        self.scope().assigned.insert(v.clone());
        v
    }

    /// A condition on whether `varN` is bound, decided when the scope closes: a variable
    /// that is neither declared nor assigned anywhere in the chart never exists, so it is
    /// never bound (test245: a child chart that does not declare what the parent passes).
    fn bound_test(&mut self, n: &str, negate: bool) -> String {
        let v = var_name(n);
        format!("{}@BOUND:{v}@", if negate { "!" } else { "" })
    }

    fn close_scope(&mut self) {
        let Some(scope) = self.scopes.pop() else {
            return;
        };
        // Resolve the bound tests of this scope (inner scopes resolved theirs already).
        let mut tail = self.out.split_off(scope.insert_at);
        while let Some(start) = tail.find("@BOUND:") {
            let end = start
                + tail[start + 7..]
                    .find('@')
                    .map_or(tail.len() - start, |e| e + 8);
            let v = tail[start + 7..end - 1].to_owned();
            let exists = scope.declared.contains(&v) || scope.assigned.contains(&v);
            let test = if exists {
                format!("!{v}.is_null()")
            } else {
                "false".to_owned()
            };
            tail.replace_range(start..end, &test);
        }
        self.out.push_str(&tail);
        let missing: Vec<&String> = scope.used.difference(&scope.declared).collect();
        if missing.is_empty() {
            return;
        }
        let mut decl = String::from("<datamodel>");
        for v in missing {
            decl.push_str(&format!("<data id=\"{v}\"/>"));
        }
        decl.push_str("</datamodel>");
        self.out.insert_str(scope.insert_at, &decl);
    }

    fn element(&mut self, e: &BytesStart, empty: bool) -> Result<(), String> {
        let (name, mut attrs, conf) = split_attributes(e)?;
        if let Some(item) = name.strip_prefix("conf:") {
            return self.conf_element(item, &attrs, empty);
        }
        if name == "scxml" {
            match attrs.iter().find(|(k, _)| k == "datamodel") {
                Some((_, dm)) if dm == "null" => self.datamodel = Datamodel::Null,
                Some(_) => {}
                // Without `datamodel` a test is written for the platform's default datamodel
                // (test301's `<script>`): here, the rust one.
                None if !conf.iter().any(|(item, _)| item == "datamodel") => {
                    attrs.push(("datamodel".to_owned(), "rust".to_owned()));
                }
                None => {}
            }
        }
        if self.datamodel == Datamodel::Rust {
            // The few plain (non-`conf:`) expressions the tests contain are ECMAScript
            // literals: `'otherName'` becomes `"otherName"`; numbers stay.
            for (k, v) in attrs.iter_mut() {
                if k == "expr" || k == "cond" {
                    *v = rust_literal(v);
                }
            }
        }
        for (item, value) in conf {
            let mapped = self.conf_attribute(&name, &item, &value)?;
            attrs.extend(mapped);
        }
        if name == "data" {
            if let Some((_, id)) = attrs.iter().find(|(k, _)| k == "id") {
                let id = id.clone();
                self.scope().declared.insert(id);
            }
        }
        self.out.push('<');
        self.out.push_str(&name);
        for (k, v) in &attrs {
            self.out.push_str(&format!(" {k}=\"{}\"", escape_attr(v)));
        }
        self.out.push_str(if empty { "/>" } else { ">" });
        if name == "scxml" {
            let insert_at = self.out.len();
            self.scopes.push(Scope {
                declared: BTreeSet::new(),
                used: BTreeSet::new(),
                assigned: BTreeSet::new(),
                insert_at,
            });
            if empty {
                self.close_scope();
            }
        }
        Ok(())
    }

    /// The replacement of a `<conf:*>` element.
    fn conf_element(
        &mut self,
        item: &str,
        attrs: &[(String, String)],
        empty: bool,
    ) -> Result<(), String> {
        let attr = |k: &str| {
            attrs
                .iter()
                .find(|(a, _)| a == k)
                .map(|(_, v)| v.as_str())
                .unwrap_or_default()
        };
        let text = match item {
            "pass" => "<final id=\"pass\"/>".to_owned(),
            "fail" => "<final id=\"fail\"/>".to_owned(),
            "array123" => "[1, 2, 3]".to_owned(),
            "someInlineVal" => "123".to_owned(),
            "contentFoo" => "<content>foo</content>".to_owned(),
            "incrementID" => {
                let v = self.assigned_var(attr("id"));
                format!("<assign location=\"{v}\" expr=\"conf::add({v}, 1)\"/>")
            }
            "sumVars" | "concatVars" => {
                let (a, b) = (self.assigned_var(attr("id1")), self.var(attr("id2")));
                format!("<assign location=\"{a}\" expr=\"conf::add({a}, {b}.clone())\"/>")
            }
            "script" => {
                let v = self.assigned_var("1");
                format!("<script>*{v} = 1.into();</script>")
            }
            "sendToSender" => format!(
                "<send event=\"{}\" targetexpr=\"_event.origin.clone().unwrap_or_default()\" \
                 typeexpr=\"_event.origintype.clone().unwrap_or_default()\"/>",
                escape_attr(attr("name"))
            ),
            other => return Err(format!("unknown conf element <conf:{other}>")),
        };
        if !empty {
            return Err(format!(
                "<conf:{item}> has content; the rewrite expects it empty"
            ));
        }
        self.out.push_str(&text);
        Ok(())
    }

    /// The attributes a `conf:` attribute becomes on element `elem`.
    fn conf_attribute(
        &mut self,
        elem: &str,
        item: &str,
        v: &str,
    ) -> Result<Vec<(String, String)>, String> {
        let one = |k: &str, v: String| Ok(vec![(k.to_owned(), v)]);
        // `N=V` (or another comparison) split into the variable and the value.
        let split_eq = |s: &str| -> Result<(String, String), String> {
            let (a, b) = s
                .split_once('=')
                .ok_or_else(|| format!("conf:{item}=\"{s}\" is not `N=V`"))?;
            Ok((a.trim().to_owned(), b.trim().to_owned()))
        };
        match item {
            "datamodel" => {
                self.datamodel = Datamodel::Rust;
                one("datamodel", "rust".to_owned())
            }
            "targetpass" => one("target", "pass".to_owned()),
            "targetfail" => one("target", "fail".to_owned()),
            "id" => one("id", self.var(v)),
            "location" | "idlocation" | "item" | "index" => one(item, self.assigned_var(v)),
            "name" => one("name", self.var(v)),
            "arrayVar" | "arrayTextVar" => one("array", self.var(v)),
            "namelist" => {
                let names: Vec<String> = v.split_whitespace().map(|n| self.var(n)).collect();
                one("namelist", names.join(" "))
            }
            "expr" => match v.trim() {
                "" => Ok(vec![]),
                "_event" => one("expr", "conf::event_value(_event)".to_owned()),
                lit => one("expr", rust_literal(lit)),
            },
            "quoteExpr" => one("expr", rust_str(v)),
            "varExpr" | "varChildExpr" => one("expr", format!("{}.clone()", self.var(v))),
            "illegalExpr" => one("expr", "conf::illegal()?".to_owned()),
            "invalidSessionID" => one("expr", "27".to_owned()),
            "invalidSendTypeExpr" => one("expr", rust_str("27")),
            "systemVarExpr" => one("expr", system_value(v.trim())?),
            "scxmlEventIOLocation" => one(
                "expr",
                "_ioprocessors[\"http://www.w3.org/TR/scxml/#SCXMLEventProcessor\"][\"location\"].clone()"
                    .to_owned(),
            ),
            "eventField" => one("expr", format!("conf::event_field(_event, {})", rust_str(v))),
            "eventName" => one("expr", "_event.name.clone()".to_owned()),
            "eventSendid" => one("expr", "conf::event_field(_event, \"sendid\")".to_owned()),
            "eventType" => one("expr", "conf::event_field(_event, \"type\")".to_owned()),
            "eventRaw" => one("expr", "conf::event_value(_event)".to_owned()),
            "eventDataFieldValue" | "eventDataParamValue" => {
                one("expr", format!("_event.data[{}].clone()", rust_str(v)))
            }
            "eventDataNamelistValue" => {
                let n = self.var(v);
                one("expr", format!("_event.data[{}].clone()", rust_str(&n)))
            }
            "delay" => one("delay", format!("{}s", v.trim())),
            "delayFromVar" => one("delayexpr", format!("conf::text({})", self.var(v))),
            "eventExpr" => one("eventexpr", format!("conf::text({})", self.var(v))),
            "targetVar" | "targetExpr" => {
                one("targetexpr", format!("conf::text({})", self.var(v)))
            }
            "typeExpr" => one("typeexpr", format!("conf::text({})", self.var(v))),
            "sendIDExpr" => one("sendidexpr", format!("conf::text({})", self.var(v))),
            "srcExpr" => one("srcexpr", format!("conf::text({})", self.var(v))),
            "illegalTarget" => one("target", "baz".to_owned()),
            "unreachableTarget" => one("target", "#_scxml_foo".to_owned()),
            "invalidSendType" => one("type", "27".to_owned()),
            "invalidLocation" => one("location", "foo.bar.baz".to_owned()),
            "invalidNamelist" => one("namelist", "foo".to_owned()),
            "systemVarLocation" => one("location", v.trim().to_owned()),
            "scriptBadSrc" => one("src", "missing-script.rs".to_owned()),
            // Conditions.
            "true" => one("cond", "true".to_owned()),
            "false" => one("cond", "false".to_owned()),
            "nonBoolean" => one("cond", "conf::non_boolean()?".to_owned()),
            "inState" => one("cond", format!("In({})", rust_str(v.trim()))),
            "isBound" => one("cond", self.bound_test(v, false)),
            "unboundVar" => one("cond", self.bound_test(v, true)),
            "noValue" => one("cond", format!("!conf::truthy({})", self.var(v))),
            "idVal" | "namelistIdVal" => {
                let (n, val) = split_eq(v)?;
                one("cond", format!("*{} == {}", self.var(&n), rust_literal(&val)))
            }
            "idQuoteVal" => {
                let (n, val) = split_eq(v)?;
                one("cond", format!("*{} == {}", self.var(&n), rust_str(&val)))
            }
            "idSomeVal" => one("cond", format!("*{} == 123", self.var(v))),
            "idSystemVarVal" => {
                let (n, sys) = split_eq(v)?;
                one(
                    "cond",
                    format!("*{} == {}", self.var(&n), system_value(&sys)?),
                )
            }
            "compareIDVal" => {
                let (a, b) = v
                    .split_once('<')
                    .ok_or_else(|| format!("conf:compareIDVal=\"{v}\" is not `A<B`"))?;
                one(
                    "cond",
                    format!(
                        "conf::num({}) < conf::num({})",
                        self.var(a),
                        self.var(b)
                    ),
                )
            }
            "VarEqVar" | "VarEqVarStruct" => {
                let mut it = v.split_whitespace();
                let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
                one("cond", format!("*{} == *{}", self.var(a), self.var(b)))
            }
            "varPrefix" => {
                // `A B`: variable B's value starts with variable A's.
                let mut it = v.split_whitespace();
                let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
                one(
                    "cond",
                    format!(
                        "conf::text({}).starts_with(&conf::text({}))",
                        self.var(b),
                        self.var(a)
                    ),
                )
            }
            "eventdataVal" => one("cond", format!("_event.data == {}", rust_literal(v))),
            "eventdataSomeVal" => one("cond", "_event.data == 123".to_owned()),
            "emptyEventData" => one("cond", "_event.data.is_null()".to_owned()),
            "eventvarVal" => {
                let (n, val) = split_eq(v)?;
                let n = self.var(&n);
                one(
                    "cond",
                    format!("_event.data[{}] == {}", rust_str(&n), rust_literal(&val)),
                )
            }
            "eventNameVal" => one("cond", format!("_event.name == {}", rust_str(v))),
            "eventFieldHasNoValue" => one(
                "cond",
                format!("conf::event_field(_event, {}).is_null()", rust_str(v)),
            ),
            "eventFieldsAreBound" => one("cond", "conf::fields_bound(_event)".to_owned()),
            "originTypeEq" => one(
                "cond",
                format!("_event.origintype.as_deref() == Some({})", rust_str(v)),
            ),
            "nameVarVal" => one("cond", format!("_name == {}", rust_str(v))),
            "systemVarIsBound" => one("cond", "conf::is_bound(_event)".to_owned()),
            other => Err(format!("unknown conf attribute conf:{other} on <{elem}>")),
        }
    }
}

/// A system variable as a `serde_json::Value` expression.
fn system_value(name: &str) -> Result<String, String> {
    Ok(match name {
        "_sessionid" => "conf::json(_sessionid)".to_owned(),
        "_name" => "conf::json(_name)".to_owned(),
        "_ioprocessors" => "_ioprocessors.clone()".to_owned(),
        "_event" => "conf::event_value(_event)".to_owned(),
        other => return Err(format!("unknown system variable {other}")),
    })
}
