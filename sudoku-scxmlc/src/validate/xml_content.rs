//! Inline XML of the ECMAScript datamodel (SCXML 1.0, B.2.2 and B.2.3): the child elements
//! of a `<data>` or `<content>` are a DOM document at run time. They are checked and written
//! back into markup here, at build time; the generated code carries that markup as the XML
//! value `{"$xml": markup}` (`runtime::ecmascript::dom`), which the runtime parses into a
//! document when chart code first sees it.

use crate::parse::{Element, Node};
use std::rc::Rc;

/// The namespace bound to the `xml` prefix (Namespaces in XML 1.0, 3).
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

impl super::Validator<'_> {
    /// The markup of the XML document `e` (a `<data>` or `<content>`) holds: `None` when it
    /// has no child element; an error (reported, `None`) when it holds more than one, or text
    /// beside one.
    pub(super) fn inline_xml(&mut self, e: &Element) -> Option<String> {
        let root = e.elements().next()?;
        let mut elements = 0;
        for child in &e.children {
            match child {
                Node::Element(_) => elements += 1,
                Node::Text(t) if !t.text.trim().is_empty() => {
                    self.error(
                        t.span,
                        format!(
                            "`<{}>` holds XML and text: XML content is one element (a DOM document)",
                            e.name
                        ),
                    );
                    return None;
                }
                Node::Text(_) => {}
            }
        }
        if elements > 1 {
            self.error(
                e.span,
                format!(
                    "`<{}>` holds {elements} elements: XML content is one element (a DOM document)",
                    e.name
                ),
            );
            return None;
        }
        let mut out = String::new();
        write_element(self.src.text(), root, &mut Vec::new(), &mut out);
        Some(out)
    }
}

/// The namespace a prefix (`""`: the default namespace) is bound to in `scope`.
fn bound<'s>(
    scope: &'s [(&str, Option<Rc<String>>)],
    prefix: &str,
) -> Option<&'s Option<Rc<String>>> {
    scope
        .iter()
        .rev()
        .find(|(p, _)| *p == prefix)
        .map(|(_, ns)| ns)
}

/// `e` as markup, declaring each namespace where the output first needs it (`scope`: the
/// declarations written by the ancestors, innermost last). Names are written as the chart
/// spells them (`src[span]`).
fn write_element<'a>(
    src: &'a str,
    e: &Element,
    scope: &mut Vec<(&'a str, Option<Rc<String>>)>,
    out: &mut String,
) {
    let outer = scope.len();
    let name = &src[e.span.range()];
    let prefix = name.split_once(':').map_or("", |(p, _)| p);
    let mut declarations = Vec::new();
    let in_scope = bound(scope, prefix).cloned().unwrap_or(None);
    if in_scope != e.namespace {
        scope.push((prefix, e.namespace.clone()));
        declarations.push((prefix, e.namespace.clone()));
    }
    let mut attributes = Vec::new();
    for a in &e.attrs {
        let qname = &src[a.name_span.range()];
        if let Some((p, _)) = qname.split_once(':') {
            if a.namespace() != Some(XML_NS)
                && bound(scope, p).cloned().unwrap_or(None) != a.namespace
            {
                scope.push((p, a.namespace.clone()));
                declarations.push((p, a.namespace.clone()));
            }
        }
        attributes.push((qname, &*a.value));
    }
    out.push('<');
    out.push_str(name);
    for (p, ns) in declarations {
        out.push_str(if p.is_empty() { " xmlns" } else { " xmlns:" });
        out.push_str(p);
        out.push_str("=\"");
        escape(ns.as_deref().map_or("", String::as_str), true, out);
        out.push('"');
    }
    for (qname, value) in attributes {
        out.push(' ');
        out.push_str(qname);
        out.push_str("=\"");
        escape(value, true, out);
        out.push('"');
    }
    if e.children.is_empty() {
        out.push_str("/>");
    } else {
        out.push('>');
        for child in &e.children {
            match child {
                Node::Element(c) => write_element(src, c, scope, out),
                Node::Text(t) => escape(&t.text, false, out),
            }
        }
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
    scope.truncate(outer);
}

/// `text` with the characters markup gives a meaning escaped (in an attribute value also `"`
/// and the white space a parser would normalise).
fn escape(text: &str, attribute: bool, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' if attribute => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markup(chart: &str) -> String {
        let doc = crate::parse::parse(chart).unwrap();
        let data = doc.root.elements().next().unwrap();
        let mut out = String::new();
        write_element(
            chart,
            data.elements().next().unwrap(),
            &mut Vec::new(),
            &mut out,
        );
        out
    }

    #[test]
    fn markup_declares_the_namespaces_it_needs() {
        let chart = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:p="urn:p"><data><books xmlns="">
  <book title="a &amp; &quot;b&quot;" p:k="v" xml:lang="en"/><p:x>1 &lt; 2<![CDATA[<c>]]></p:x>
</books></data></scxml>"#;
        assert_eq!(
            markup(chart),
            "<books>\n  <book xmlns:p=\"urn:p\" title=\"a &amp; &quot;b&quot;\" p:k=\"v\" xml:lang=\"en\"/>\
             <p:x xmlns:p=\"urn:p\">1 &lt; 2&lt;c&gt;</p:x>\n</books>"
        );
        // Inherited default namespace: declared on the root of the content.
        let chart = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml"><data><a><b xmlns=""/></a></data></scxml>"#;
        assert_eq!(
            markup(chart),
            "<a xmlns=\"http://www.w3.org/2005/07/scxml\"><b xmlns=\"\"/></a>"
        );
    }
}
