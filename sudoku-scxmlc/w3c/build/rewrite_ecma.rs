//! The `conf:` rewrite into the `ecmascript` datamodel: what W3C's own ECMAScript rewrite
//! (`confEcma.xsl`) makes of each item, as `testdata/CONF-VOCABULARY.md` lists it. Every
//! variable `conf:id="N"` becomes `VarN`; expressions are the ECMAScript the table gives.
//!
//! Where confEcma.xsl writes a *syntax error* on purpose (`conf:illegalExpr` and
//! `conf:nonBoolean` give `return`), this rewrite writes an expression that throws when it
//! runs (`undefined.illegal`): `sudoku-scxmlc` compiles every expression at build time, so a
//! syntax error would reject the whole document instead of raising `error.execution` at the
//! element the test checks; the run-time failure is what the tests are about (B.2: an
//! expression that cannot be evaluated raises `error.execution`). `conf:scriptBadSrc` names a
//! file that does not exist, which rejects the document at build time as it must (test301).
//!
//! Tests written for the null datamodel, and those written directly for ECMAScript, keep
//! their own `datamodel`.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::rewrite::{escape_attr, split_attributes};

/// An expression that fails when evaluated, for confEcma.xsl's deliberate `return`.
const THROWS: &str = "undefined.illegal";

/// Rewrites one test document into the ecmascript datamodel.
///
/// # Errors
/// A `conf:` item this rewrite does not know, or XML that does not parse.
pub fn rewrite(text: &str) -> Result<String, String> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(false);
    let mut out = String::with_capacity(text.len() + 512);
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| format!("XML error at byte {at}: {e}"))?;
        match event {
            Event::Eof => break,
            Event::Start(e) => element(&mut out, &e, false)?,
            Event::Empty(e) => element(&mut out, &e, true)?,
            Event::End(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                out.push_str(&format!("</{name}>"));
            }
            Event::Text(t) => out.push_str(&String::from_utf8_lossy(&t)),
            Event::CData(t) => {
                out.push_str("<![CDATA[");
                out.push_str(&String::from_utf8_lossy(&t));
                out.push_str("]]>");
            }
            Event::Comment(t) => {
                out.push_str("<!--");
                out.push_str(&String::from_utf8_lossy(&t));
                out.push_str("-->");
            }
            Event::Decl(d) => {
                out.push_str("<?");
                out.push_str(&String::from_utf8_lossy(&d));
                out.push_str("?>");
            }
            Event::PI(p) => {
                out.push_str("<?");
                out.push_str(&String::from_utf8_lossy(&p));
                out.push_str("?>");
            }
            Event::DocType(_) => return Err("the test has a DOCTYPE".to_owned()),
        }
    }
    Ok(out)
}

/// `N` → `VarN`.
fn var(n: &str) -> String {
    format!("Var{}", n.trim())
}

fn element(out: &mut String, e: &BytesStart, empty: bool) -> Result<(), String> {
    let (name, mut attrs, conf) = split_attributes(e)?;
    if let Some(item) = name.strip_prefix("conf:") {
        if !empty {
            return Err(format!(
                "<conf:{item}> has content; the rewrite expects it empty"
            ));
        }
        out.push_str(&conf_element(item, &attrs)?);
        return Ok(());
    }
    if name == "scxml"
        && !attrs.iter().any(|(k, _)| k == "datamodel")
        && !conf.iter().any(|(k, _)| k == "datamodel")
    {
        // A test without `datamodel` is written for the platform's default (test301).
        attrs.push(("datamodel".to_owned(), "ecmascript".to_owned()));
    }
    for (item, value) in conf {
        attrs.extend(conf_attribute(&name, &item, &value)?);
    }
    out.push('<');
    out.push_str(&name);
    for (k, v) in &attrs {
        out.push_str(&format!(" {k}=\"{}\"", escape_attr(v)));
    }
    out.push_str(if empty { "/>" } else { ">" });
    Ok(())
}

/// The replacement of a `<conf:*>` element.
fn conf_element(item: &str, attrs: &[(String, String)]) -> Result<String, String> {
    let attr = |k: &str| {
        attrs
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default()
    };
    Ok(match item {
        "pass" => "<final id=\"pass\"/>".to_owned(),
        "fail" => "<final id=\"fail\"/>".to_owned(),
        "array123" => "[1, 2, 3]".to_owned(),
        "someInlineVal" => "123".to_owned(),
        "contentFoo" => "<content>foo</content>".to_owned(),
        "incrementID" => {
            let v = var(attr("id"));
            format!("<assign location=\"{v}\" expr=\"{v} + 1\"/>")
        }
        "sumVars" | "concatVars" => {
            let (a, b) = (var(attr("id1")), var(attr("id2")));
            format!("<assign location=\"{a}\" expr=\"{a} + {b}\"/>")
        }
        "extendArray" => {
            let v = var(attr("id"));
            format!("<assign location=\"{v}\" expr=\"[].concat({v}, [4])\"/>")
        }
        "script" => "<script>var Var1 = 1</script>".to_owned(),
        "sendToSender" => format!(
            "<send event=\"{}\" targetexpr=\"_event.origin\" typeexpr=\"_event.origintype\"/>",
            escape_attr(attr("name"))
        ),
        other => return Err(format!("unknown conf element <conf:{other}>")),
    })
}

/// The attributes a `conf:` attribute becomes on element `elem`.
fn conf_attribute(elem: &str, item: &str, v: &str) -> Result<Vec<(String, String)>, String> {
    let one = |k: &str, v: String| Ok(vec![(k.to_owned(), v)]);
    let split_eq = |s: &str| -> Result<(String, String), String> {
        let (a, b) = s
            .split_once('=')
            .ok_or_else(|| format!("conf:{item}=\"{s}\" is not `N=V`"))?;
        Ok((a.trim().to_owned(), b.trim().to_owned()))
    };
    let pair = |s: &str| {
        let mut it = s.split_whitespace();
        (
            var(it.next().unwrap_or_default()),
            var(it.next().unwrap_or_default()),
        )
    };
    match item {
        "datamodel" => one("datamodel", "ecmascript".to_owned()),
        "targetpass" => one("target", "pass".to_owned()),
        "targetfail" => one("target", "fail".to_owned()),
        "id" => one("id", var(v)),
        "location" | "idlocation" | "item" | "index" | "name" => one(item, var(v)),
        "arrayVar" | "arrayTextVar" => one("array", var(v)),
        "namelist" => {
            let names: Vec<String> = v.split_whitespace().map(var).collect();
            one("namelist", names.join(" "))
        }
        "expr" => match v.trim() {
            "" => Ok(vec![]),
            lit => one("expr", lit.to_owned()),
        },
        "quoteExpr" => one("expr", format!("'{v}'")),
        "varExpr" | "varChildExpr" => one("expr", var(v)),
        "illegalExpr" => one("expr", THROWS.to_owned()),
        "invalidSessionID" => one("expr", "27".to_owned()),
        "invalidSendTypeExpr" => one("expr", "'27'".to_owned()),
        "systemVarExpr" => one("expr", v.trim().to_owned()),
        "scxmlEventIOLocation" => one(
            "expr",
            "_ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location".to_owned(),
        ),
        "eventField" => one("expr", format!("_event.{}", v.trim())),
        "eventName" => one("expr", "_event.name".to_owned()),
        "eventSendid" => one("expr", "_event.sendid".to_owned()),
        "eventType" => one("expr", "_event.type".to_owned()),
        "eventRaw" => one("expr", "_event.raw".to_owned()),
        "eventDataFieldValue" | "eventDataParamValue" => {
            one("expr", format!("_event.data.{}", v.trim()))
        }
        "eventDataNamelistValue" => one("expr", format!("_event.data.{}", var(v))),
        "delay" => one("delayexpr", format!("'{}s'", v.trim())),
        "delayFromVar" => one("delayexpr", var(v)),
        "eventExpr" => one("eventexpr", var(v)),
        "targetVar" | "targetExpr" => one("targetexpr", var(v)),
        "typeExpr" => one("typeexpr", var(v)),
        "sendIDExpr" => one("sendidexpr", var(v)),
        "srcExpr" => one("srcexpr", var(v)),
        "illegalTarget" => one("target", "baz".to_owned()),
        "unreachableTarget" => one("target", "#_scxml_foo".to_owned()),
        "invalidSendType" => one("type", "27".to_owned()),
        "invalidLocation" => one("location", "foo.bar.baz".to_owned()),
        "invalidNamelist" => one("namelist", "\"foo".to_owned()),
        "systemVarLocation" => one("location", v.trim().to_owned()),
        "scriptBadSrc" => one("src", "missing-script.js".to_owned()),
        "true" => one("cond", "true".to_owned()),
        "false" => one("cond", "false".to_owned()),
        "nonBoolean" => one("cond", THROWS.to_owned()),
        "inState" => one("cond", format!("In('{}')", v.trim())),
        "isBound" => one("cond", format!("typeof {} !== 'undefined'", var(v))),
        "unboundVar" => one("cond", format!("typeof {} === 'undefined'", var(v))),
        "noValue" => one("cond", format!("!{}", var(v))),
        "idVal" => {
            // `N=V`, `N<V`, ...: confEcma.xsl turns `=` into `==`.
            let at = v
                .find(['=', '<', '>'])
                .ok_or_else(|| format!("conf:idVal=\"{v}\" has no comparison"))?;
            let (n, rest) = v.split_at(at);
            let rest = match rest.strip_prefix('=') {
                Some(val) => format!("== {val}"),
                None => rest.to_owned(),
            };
            one("cond", format!("{} {rest}", var(n)))
        }
        "namelistIdVal" => {
            let (n, val) = split_eq(v)?;
            one("cond", format!("{} === {val}", var(&n)))
        }
        "idQuoteVal" => {
            let (n, val) = split_eq(v)?;
            one("cond", format!("{} == '{val}'", var(&n)))
        }
        "idSomeVal" => one("cond", format!("{} == 123", var(v))),
        "idSystemVarVal" => {
            let (n, sys) = split_eq(v)?;
            one("cond", format!("{} == {sys}", var(&n)))
        }
        "compareIDVal" => {
            let (a, b) = v
                .split_once('<')
                .ok_or_else(|| format!("conf:compareIDVal=\"{v}\" is not `A<B`"))?;
            one("cond", format!("{} < {}", var(a), var(b)))
        }
        "VarEqVar" => {
            let (a, b) = pair(v);
            one("cond", format!("{a} === {b}"))
        }
        "VarEqVarStruct" => {
            let (a, b) = pair(v);
            one("cond", format!("{a} == {b}"))
        }
        "varPrefix" => {
            let (a, b) = pair(v);
            one("cond", format!("{b}.indexOf({a}) == 0"))
        }
        "eventdataVal" => one("cond", format!("_event.data == {}", v.trim())),
        "eventdataSomeVal" => one("cond", "_event.data == 123".to_owned()),
        "emptyEventData" => one("cond", "typeof _event.data === 'undefined'".to_owned()),
        "eventvarVal" => {
            let (n, val) = split_eq(v)?;
            one("cond", format!("_event.data['{}'] == {val}", var(&n)))
        }
        "eventNameVal" => one("cond", format!("_event.name == '{}'", v.trim())),
        "eventFieldHasNoValue" => one(
            "cond",
            format!("typeof _event.{} === 'undefined'", v.trim()),
        ),
        "eventFieldsAreBound" => one(
            "cond",
            "'name' in _event && 'type' in _event && 'sendid' in _event && 'origin' in _event \
             && 'origintype' in _event && 'invokeid' in _event && 'data' in _event"
                .to_owned(),
        ),
        "originTypeEq" => one("cond", format!("_event.origintype == '{}'", v.trim())),
        "nameVarVal" => one("cond", format!("_name === '{}'", v.trim())),
        "systemVarIsBound" => one("cond", "_event".to_owned()),
        "varNonexistentStruct" => one("expr", format!("{}.bar", var(v))),
        other => Err(format!("unknown conf attribute conf:{other} on <{elem}>")),
    }
}
