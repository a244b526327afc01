//! XML values as DOM documents (SCXML 1.0, B.2.2 and B.2.3: XML in `<data>`, in a `src`
//! file or in `<content>` is presented to chart code as a DOM document).
//!
//! Across the Rust side of the machine (event data, snapshots, `set_initial_values`,
//! observers) an XML value is JSON of one shape, `{"$xml": "<books>…</books>"}`: an object
//! whose only member is `$xml`, a string of XML markup ([`xml_value`], [`xml_markup`]).
//! Converting such an object into ECMAScript ([`to_js`](super::to_js)) parses the markup into
//! a document; converting a document or element back ([`to_json`](super::to_json)) serializes
//! it into that shape again, so a snapshot restores a document as a document. An object of
//! that shape whose markup is not well-formed XML stays a plain object.
//!
//! The documents implement a subset of the W3C DOM (DOM Level 2 Core, with the names and
//! behaviour of the WHATWG DOM Standard), written in ECMAScript in `dom.js` and evaluated
//! once per machine, when a value first needs it:
//! - every node: `nodeType` (and the `ELEMENT_NODE`, ... constants), `nodeName`,
//!   `nodeValue`, `textContent`, `parentNode`, `childNodes` (an array with `item(i)`),
//!   `firstChild`, `lastChild`, `previousSibling`, `nextSibling`, `ownerDocument`,
//!   `hasChildNodes()`, `appendChild`, `insertBefore`, `removeChild`, and `toString()`, the
//!   node's XML markup;
//! - `Document`: `documentElement`, `getElementsByTagName(name)` (`"*"`: all),
//!   `getElementsByTagNameNS(ns, localName)`, `createElement`, `createElementNS`,
//!   `createTextNode`, `createComment`;
//! - `Element`: `tagName` (the qualified name), `localName`, `prefix`, `namespaceURI`,
//!   `attributes` (an array of `Attr` with `item`, `getNamedItem`, `getNamedItemNS`),
//!   `getAttribute`, `getAttributeNS`, `getAttributeNode`, `hasAttribute`, `hasAttributes`,
//!   `setAttribute`, `removeAttribute`, `getElementsByTagName`, `getElementsByTagNameNS`,
//!   `children`, `firstElementChild`, `childElementCount`;
//! - `Attr` (`name`, `value`, `localName`, `prefix`, `namespaceURI`, `ownerElement`), `Text`
//!   and CDATA sections (`data`, `length`), comments and processing instructions (`target`).
//!
//! Node lists are static snapshots (the DOM's are live), namespace declarations are
//! attributes as a parser reports them (`xmlns`, `xmlns:p`), and `toString()` writes the
//! tree as it is (no namespace fix-up for elements created with another namespace than their
//! parent's). A DOCTYPE is refused: no entity is ever declared or expanded.

use rquickjs::{Array, Ctx, Function, Persistent, Value as JsValue};
use serde_json::{Map, Value};

/// The member name of the JSON form of an XML value.
pub const XML_KEY: &str = "$xml";

/// `markup` (XML text) as the JSON form of an XML value: `{"$xml": markup}`.
pub fn xml_value(markup: impl Into<String>) -> Value {
    let mut map = Map::new();
    map.insert(XML_KEY.to_owned(), Value::String(markup.into()));
    Value::Object(map)
}

/// The markup of `map` when it is the JSON form of an XML value (its only member is `$xml`,
/// a string).
pub fn xml_markup(map: &Map<String, Value>) -> Option<&str> {
    if map.len() != 1 {
        return None;
    }
    map.get(XML_KEY)?.as_str()
}

/// The DOM code, evaluated into the function that builds a document from a parsed tree.
const DOM_JS: &str = include_str!("dom.js");

/// Deepest element nesting parsed (as the chart parser's limit).
const MAX_NESTING: usize = 512;

/// The document `markup` parses into, in `ctx`; `None` when it is not a well-formed XML
/// document (the reason is in [`check`]).
///
/// # Errors
/// When QuickJS cannot allocate, or the DOM code fails (a bug).
pub fn document<'js>(ctx: &Ctx<'js>, markup: &str) -> rquickjs::Result<Option<JsValue<'js>>> {
    let Ok(tree) = parse(ctx, markup) else {
        return Ok(None);
    };
    let build = builder(ctx)?;
    build.call((tree,)).map(Some)
}

/// Whether `markup` is a well-formed XML document (one root element; no DOCTYPE): why not.
///
/// # Errors
/// The parser's message, with the byte offset it stopped at.
pub fn check(markup: &str) -> Result<(), String> {
    // A throwaway context would cost a QuickJS runtime: parse with no tree instead.
    parse_with(markup, &mut |_| Ok(()))
}

/// The function `dom.js` evaluates to, kept per context in a hidden global property.
fn builder<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Function<'js>> {
    if let Some(f) = ctx.userdata::<Builder>() {
        return f.0.clone().restore(ctx);
    }
    let f: Function = ctx.eval(DOM_JS)?;
    // A second store (there is none before this one) would only fail.
    let _ = ctx.store_userdata(Builder(Persistent::save(ctx, f.clone())));
    Ok(f)
}

/// The builder of a context, as its user data.
struct Builder(Persistent<Function<'static>>);

// SAFETY: the builder holds no reference with the context's lifetime beyond a `Persistent`,
// which is `'static` by construction.
unsafe impl<'js> rquickjs::JsLifetime<'js> for Builder {
    type Changed<'to> = Builder;
}

/// One parse event handed to the tree builder.
enum Item<'a> {
    Open {
        name: &'a str,
        namespace: Option<&'a str>,
        attributes: Vec<(&'a str, Option<&'a str>, String)>,
    },
    Close,
    Leaf(u8, String, Option<String>),
}

/// `markup` as the nested arrays `dom.js` builds a document from.
fn parse<'js>(ctx: &Ctx<'js>, markup: &str) -> Result<Array<'js>, String> {
    let engine = |e: rquickjs::Error| e.to_string();
    let mut stack: Vec<Array<'js>> = vec![Array::new(ctx.clone()).map_err(engine)?];
    let mut push = |item: Item<'_>| -> Result<(), String> {
        match item {
            Item::Open {
                name,
                namespace,
                attributes,
            } => {
                let attrs = Array::new(ctx.clone()).map_err(engine)?;
                for (i, (name, ns, value)) in attributes.into_iter().enumerate() {
                    let a = Array::new(ctx.clone()).map_err(engine)?;
                    a.set(0, name).map_err(engine)?;
                    a.set(1, ns).map_err(engine)?;
                    a.set(2, value).map_err(engine)?;
                    attrs.set(i, a).map_err(engine)?;
                }
                let e = Array::new(ctx.clone()).map_err(engine)?;
                e.set(0, 1).map_err(engine)?;
                e.set(1, name).map_err(engine)?;
                e.set(2, namespace).map_err(engine)?;
                e.set(3, attrs).map_err(engine)?;
                let children = Array::new(ctx.clone()).map_err(engine)?;
                e.set(4, children.clone()).map_err(engine)?;
                let parent = stack.last().expect("the document is at the bottom");
                parent.set(parent.len(), e).map_err(engine)?;
                stack.push(children);
            }
            Item::Close => {
                stack.pop();
            }
            Item::Leaf(kind, data, target) => {
                let n = Array::new(ctx.clone()).map_err(engine)?;
                n.set(0, kind).map_err(engine)?;
                match target {
                    Some(target) => {
                        n.set(1, target).map_err(engine)?;
                        n.set(2, data).map_err(engine)?;
                    }
                    None => n.set(1, data).map_err(engine)?,
                }
                let parent = stack.last().expect("the document is at the bottom");
                parent.set(parent.len(), n).map_err(engine)?;
            }
        }
        Ok(())
    };
    parse_with(markup, &mut push)?;
    let children = stack.pop().expect("the document is at the bottom");
    let document = Array::new(ctx.clone()).map_err(engine)?;
    document.set(0, 9).map_err(engine)?;
    document.set(1, children).map_err(engine)?;
    Ok(document)
}

/// Parses `markup` with quick-xml, namespaces resolved, handing every node to `sink` in
/// document order.
fn parse_with(
    markup: &str,
    sink: &mut dyn FnMut(Item<'_>) -> Result<(), String>,
) -> Result<(), String> {
    use quick_xml::events::{BytesStart, Event};
    use quick_xml::name::ResolveResult;
    use quick_xml::NsReader;

    const XMLNS: &str = "http://www.w3.org/2000/xmlns/";
    let mut reader = NsReader::from_str(markup);
    reader.config_mut().check_end_names = true;
    let (mut depth, mut roots) = (0usize, 0usize);
    let at = |r: &NsReader<&[u8]>| format!(" (at byte {})", r.buffer_position());
    let uri = |ns: ResolveResult<'_>| -> Result<Option<String>, String> {
        match ns {
            ResolveResult::Bound(ns) => Ok(Some(String::from_utf8_lossy(ns.as_ref()).into_owned())),
            ResolveResult::Unbound => Ok(None),
            ResolveResult::Unknown(p) => Err(format!(
                "the prefix `{}` is not declared",
                String::from_utf8_lossy(&p)
            )),
        }
    };
    let open = |e: &BytesStart<'_>,
                namespace: Option<String>,
                r: &NsReader<&[u8]>,
                sink: &mut dyn FnMut(Item<'_>) -> Result<(), String>|
     -> Result<(), String> {
        let name = std::str::from_utf8(e.name().into_inner()).map_err(|e| e.to_string())?;
        let mut attributes = Vec::new();
        for a in e.attributes().with_checks(true) {
            let a = a.map_err(|e| format!("{e}{}", at(r)))?;
            let key = std::str::from_utf8(a.key.into_inner()).map_err(|e| e.to_string())?;
            let value = a
                .unescape_value()
                .map_err(|e| format!("{e}{}", at(r)))?
                .into_owned();
            let ns = if key == "xmlns" || key.starts_with("xmlns:") {
                Some(XMLNS.to_owned())
            } else if key.contains(':') {
                uri(r.resolve_attribute(a.key).0).map_err(|e| format!("{e}{}", at(r)))?
            } else {
                None
            };
            attributes.push((key, ns, value));
        }
        sink(Item::Open {
            name,
            namespace: namespace.as_deref(),
            attributes: attributes
                .iter()
                .map(|(k, ns, v)| (*k, ns.as_deref(), v.clone()))
                .collect(),
        })
    };
    loop {
        let (ns, event) = match reader.read_resolved_event() {
            Ok((ns, event)) => (uri(ns), event),
            Err(e) => return Err(format!("malformed XML: {e}{}", at(&reader))),
        };
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        match event {
            Event::Start(e) | Event::Empty(e) if depth == 0 && roots > 0 => {
                let _ = e;
                return Err(format!(
                    "a document has one root element; here is a second one{}",
                    at(&reader)
                ));
            }
            Event::Start(e) => {
                if depth == 0 {
                    roots += 1;
                }
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "elements are nested deeper than {MAX_NESTING} levels"
                    ));
                }
                open(
                    &e,
                    ns.map_err(|e| format!("{e}{}", at(&reader)))?,
                    &reader,
                    sink,
                )?;
            }
            Event::Empty(e) => {
                if depth == 0 {
                    roots += 1;
                }
                open(
                    &e,
                    ns.map_err(|e| format!("{e}{}", at(&reader)))?,
                    &reader,
                    sink,
                )?;
                sink(Item::Close)?;
            }
            Event::End(_) => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("an end tag without a start tag{}", at(&reader)))?;
                sink(Item::Close)?;
            }
            Event::Text(t) => {
                let data = t.unescape().map_err(|e| format!("{e}{}", at(&reader)))?;
                if depth == 0 {
                    if !data.trim().is_empty() {
                        return Err(format!("text outside the root element{}", at(&reader)));
                    }
                    continue;
                }
                sink(Item::Leaf(3, data.into_owned(), None))?;
            }
            Event::CData(c) if depth > 0 => sink(Item::Leaf(4, text(&c), None))?,
            Event::Comment(c) => sink(Item::Leaf(8, text(&c), None))?,
            Event::PI(pi) => sink(Item::Leaf(
                7,
                text(pi.content()).trim_start().to_owned(),
                Some(text(pi.target())),
            ))?,
            Event::DocType(_) => {
                return Err(format!("a DOCTYPE is not allowed{}", at(&reader)));
            }
            Event::CData(_) => {
                return Err(format!("CDATA outside the root element{}", at(&reader)));
            }
            Event::Decl(_) => {}
            Event::Eof => break,
        }
    }
    if depth > 0 {
        return Err("an element is never closed".to_owned());
    }
    if roots == 0 {
        return Err("the XML has no root element".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Js;
    use super::*;
    use serde_json::json;

    const BOOKS: &str = r#"<?xml version="1.0"?>
<!-- a list -->
<books xmlns="" xmlns:d="urn:d">
  <book title="title1" d:year="1999"/>
  <book title="a &amp; &quot;b&quot;">Text <![CDATA[<raw>]]><d:note>n</d:note><?pi data?></book>
</books>"#;

    /// `x` set to `value`, then the value of each expression (as JSON).
    fn eval(value: &Value, exprs: &[&str]) -> Vec<Value> {
        let js = Js::new(&["x"]);
        js.set_json("x", value).unwrap();
        js.context.with(|c| {
            exprs
                .iter()
                .map(|e| {
                    let v: JsValue = c
                        .eval(*e)
                        .unwrap_or_else(|err| panic!("{e}: {err:?} {:?}", c.catch()));
                    super::super::to_json(&v).unwrap()
                })
                .collect()
        })
    }

    #[test]
    fn xml_json_becomes_a_document() {
        let got = eval(
            &xml_value(BOOKS),
            &[
                "x.nodeType",
                "x.nodeName",
                "x.documentElement.tagName",
                "x.getElementsByTagName('book').length",
                "x.getElementsByTagName('book')[0].getAttribute('title')",
                "x.getElementsByTagName('book').item(1).getAttribute('title')",
                "x.getElementsByTagName('book')[0].hasAttribute('nope')",
                "x.getElementsByTagName('book')[0].getAttribute('nope')",
                "x.getElementsByTagName('book')[0].getAttributeNS('urn:d', 'year')",
                "x.getElementsByTagNameNS('urn:d', 'note')[0].textContent",
                "x.getElementsByTagName('d:note')[0].prefix",
                "x.getElementsByTagName('*').length",
                "x.childNodes.length",
                "x.firstChild.nodeType",
                "x.documentElement.attributes.length",
                "x.documentElement.attributes.getNamedItem('xmlns:d').namespaceURI",
                "x.documentElement.firstChild.nodeValue",
                "x.getElementsByTagName('book')[1].textContent",
                "x.getElementsByTagName('book')[1].childNodes.map(n => n.nodeName)",
                "x.getElementsByTagName('book')[1].lastChild.target",
                "x.getElementsByTagName('book')[0].nextSibling.nextSibling.getAttribute('title')",
                "x.getElementsByTagName('book')[0].parentNode === x.documentElement",
                "x.documentElement.ownerDocument === x",
                "x.ELEMENT_NODE + x.TEXT_NODE",
                "typeof x",
            ],
        );
        assert_eq!(
            got,
            [
                json!(9),
                json!("#document"),
                json!("books"),
                json!(2),
                json!("title1"),
                json!("a & \"b\""),
                json!(false),
                json!(null),
                json!("1999"),
                json!("n"),
                json!("d"),
                json!(4),
                json!(2),
                json!(8),
                json!(2),
                json!("http://www.w3.org/2000/xmlns/"),
                json!("\n  "),
                json!("Text <raw>n"),
                json!(["#text", "#cdata-section", "d:note", "pi"]),
                json!("pi"),
                json!("a & \"b\""),
                json!(true),
                json!(true),
                json!(4),
                json!("object"),
            ]
        );
    }

    #[test]
    fn documents_serialize_and_round_trip_through_json() {
        let markup =
            "<a xmlns:p=\"urn:p\" k=\"1 &lt; 2\"><p:b/>x &amp; y<![CDATA[<z>]]><!--c--></a>";
        let got = eval(
            &xml_value(markup),
            &[
                "x.toString()",
                "x.documentElement.toString()",
                "x",
                "JSON.stringify(x)",
            ],
        );
        assert_eq!(got[0], json!(markup));
        assert_eq!(got[1], json!(markup));
        // `to_json` of a document is the XML value again, which `to_js` parses back.
        assert_eq!(got[2], xml_value(markup));
        assert_eq!(got[3], json!(format!("{{\"$xml\":{}}}", json!(markup))));
        let again = eval(&got[2], &["x.documentElement.getAttribute('k')"]);
        assert_eq!(again, [json!("1 < 2")]);
        // Text and attribute nodes become their text.
        let parts = eval(
            &xml_value(markup),
            &["[x.documentElement.childNodes[1], x.documentElement.attributes[1]]"],
        );
        assert_eq!(parts, [json!(["x & y", "1 < 2"])]);
    }

    #[test]
    fn documents_can_be_changed() {
        let got = eval(
            &xml_value("<a><b/></a>"),
            &[
                "x.documentElement.setAttribute('n', 1), x.documentElement.getAttribute('n')",
                "x.documentElement.appendChild(x.createElement('c')).appendChild(x.createTextNode('<t>')), x.toString()",
                "x.documentElement.removeChild(x.documentElement.firstChild), x.documentElement.removeAttribute('n'), x.toString()",
                "x.documentElement.textContent = 'only', x.toString()",
                "try { x.appendChild(x.createElement('second')); 'no' } catch (e) { e.name }",
                "try { x.documentElement.appendChild(x); 'no' } catch (e) { e.name }",
            ],
        );
        assert_eq!(
            got,
            [
                json!("1"),
                json!("<a n=\"1\"><b/><c>&lt;t&gt;</c></a>"),
                json!("<a><c>&lt;t&gt;</c></a>"),
                json!("<a>only</a>"),
                json!("RangeError"),
                json!("TypeError"),
            ]
        );
    }

    #[test]
    fn only_well_formed_xml_values_become_documents() {
        for bad in [
            "<a>",
            "<a/><b/>",
            "text",
            "<a/>tail",
            "<p:a/>",
            "<!DOCTYPE a><a/>",
            "",
        ] {
            assert!(check(bad).is_err(), "{bad}");
            let got = eval(&xml_value(bad), &["typeof x.nodeType", "x.$xml"]);
            assert_eq!(got, [json!("undefined"), json!(bad)], "{bad}");
        }
        assert!(check(BOOKS).is_ok());
        // Another member besides `$xml`: a plain object.
        let got = eval(&json!({"$xml": "<a/>", "b": 1}), &["typeof x.nodeType"]);
        assert_eq!(got, [json!("undefined")]);
    }
}
