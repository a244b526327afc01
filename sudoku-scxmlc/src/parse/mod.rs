//! Stage 1: chart text → [`Document`], a plain element tree in which every element, attribute
//! and text run keeps its byte span. Parsing never panics: malformed XML becomes a located
//! [`Diagnostic`].
//!
//! Hostile input is refused rather than processed: a DOCTYPE (and so any entity declaration)
//! is an error and nothing is expanded; nesting depth and input size are bounded.

use crate::diagnostic::{Diagnostic, Span};
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;
use std::rc::Rc;

/// The SCXML namespace.
pub const SCXML_NS: &str = "http://www.w3.org/2005/07/scxml";
/// The namespace of this compiler's own attributes, such as `rs:type` on `<data>`.
pub const RUST_NS: &str = "urn:sudoku-scxmlc:rust";

/// Deepest element nesting a chart may have.
pub const MAX_DEPTH: usize = 512;
/// Largest chart accepted, in bytes.
pub const MAX_SIZE: usize = 64 * 1024 * 1024;

/// A parsed chart: the root element.
#[derive(Debug, Clone)]
pub struct Document {
    /// The document element (`<scxml>` in a valid chart).
    pub root: Element,
}

/// An XML element with its namespace, attributes and children.
#[derive(Debug, Clone)]
pub struct Element {
    /// Local name, e.g. `transition`.
    pub name: String,
    /// Namespace URI, if bound (shared by every element and attribute of that namespace).
    pub namespace: Option<Rc<str>>,
    /// The element name in its start tag (`<transition` without the `<`).
    pub span: Span,
    /// Attributes in source order (namespace declarations excluded).
    pub attrs: Vec<Attribute>,
    /// Child nodes in source order.
    pub children: Vec<Node>,
    /// The XML comment right before this element's start tag (only blank text between),
    /// if any: the generated docs of a state.
    pub comment: Option<String>,
}

/// One attribute.
#[derive(Debug, Clone)]
pub struct Attribute {
    /// Local name.
    pub name: String,
    /// Namespace URI, if the attribute is prefixed.
    pub namespace: Option<Rc<str>>,
    /// The unescaped value.
    pub value: String,
    /// The raw value between the quotes.
    pub span: Span,
    /// The attribute name.
    pub name_span: Span,
}

/// A child node.
#[derive(Debug, Clone)]
pub enum Node {
    /// A child element.
    Element(Element),
    /// A run of text or CDATA.
    Text(Text),
}

/// A run of character data.
#[derive(Debug, Clone)]
pub struct Text {
    /// The unescaped text.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

impl Element {
    /// The attribute `name` without a namespace, if present.
    pub fn attr(&self, name: &str) -> Option<&Attribute> {
        self.attrs
            .iter()
            .find(|a| a.name == name && a.namespace.is_none())
    }
    /// The attribute `name` in namespace `ns`.
    pub fn attr_ns(&self, ns: &str, name: &str) -> Option<&Attribute> {
        self.attrs
            .iter()
            .find(|a| a.name == name && a.namespace.as_deref() == Some(ns))
    }
    /// Child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }
    /// The concatenated text content (direct text children only) and the span of its first run.
    pub fn text(&self) -> Option<Text> {
        let mut runs = self.children.iter().filter_map(|n| match n {
            Node::Text(t) => Some(t),
            Node::Element(_) => None,
        });
        let first = runs.next()?.clone();
        Some(runs.fold(first, |mut acc, t| {
            acc.text.push_str(&t.text);
            acc
        }))
    }
    /// Whether this element is in the SCXML namespace.
    pub fn is_scxml(&self) -> bool {
        self.namespace.as_deref() == Some(SCXML_NS)
    }
}

/// Parses a chart. On failure returns the diagnostics (one, for XML errors).
///
/// # Errors
/// Malformed XML, a DOCTYPE, too deep nesting or an oversized input.
pub fn parse(src: &str) -> Result<Document, Vec<Diagnostic>> {
    Parser::new(src).run().map_err(|d| vec![d])
}

struct Parser<'a> {
    src: &'a str,
    reader: NsReader<&'a [u8]>,
    stack: Vec<Element>,
    root: Option<Element>,
    pending_comment: Option<String>,
    /// The namespace URIs met so far, shared rather than copied into every element.
    namespaces: Vec<Rc<str>>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        let mut reader = NsReader::from_str(src);
        let config = reader.config_mut();
        config.trim_text(false);
        config.check_end_names = true;
        config.expand_empty_elements = false;
        Parser {
            src,
            reader,
            stack: Vec::new(),
            root: None,
            pending_comment: None,
            namespaces: Vec::new(),
        }
    }

    fn offset_of(&self, bytes: &[u8], fallback: usize) -> usize {
        let base = self.src.as_ptr() as usize;
        let p = bytes.as_ptr() as usize;
        if p >= base && p <= base + self.src.len() {
            p - base
        } else {
            fallback
        }
    }

    fn run(mut self) -> Result<Document, Diagnostic> {
        if self.src.len() > MAX_SIZE {
            return Err(Diagnostic::error(
                Span::new(0, 0),
                format!("chart is larger than {MAX_SIZE} bytes"),
            ));
        }
        // quick-xml passes these through; XML 1.0 (section 2.2) forbids them anywhere.
        if let Some((at, c)) = self.src.char_indices().find(|&(_, c)| !is_xml_char(c)) {
            return Err(Diagnostic::error(
                Span::new(at, at + c.len_utf8()),
                format!("character U+{:04X} is not allowed in XML", u32::from(c)),
            ));
        }
        loop {
            let start = self.reader.buffer_position() as usize;
            let (ns, event) = match self.reader.read_resolved_event() {
                Ok((ns, event)) => (namespace_uri(ns), event),
                Err(e) => {
                    let at = self.reader.error_position() as usize;
                    return Err(Diagnostic::error(
                        Span::new(at, (at + 1).min(self.src.len())),
                        format!("malformed XML: {e}"),
                    ));
                }
            };
            let end = self.reader.buffer_position() as usize;
            match event {
                Event::Start(e) => {
                    let mut element = self.element(&e, ns, start)?;
                    element.comment = self.pending_comment.take();
                    if self.stack.len() >= MAX_DEPTH {
                        return Err(Diagnostic::error(
                            element.span,
                            format!("elements are nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    self.stack.push(element);
                }
                Event::Empty(e) => {
                    let mut element = self.element(&e, ns, start)?;
                    element.comment = self.pending_comment.take();
                    self.close(element)?;
                }
                Event::End(_) => {
                    // A comment just before an end tag documents nothing that follows.
                    self.pending_comment = None;
                    let element = self.stack.pop().expect("quick-xml checks end names");
                    self.close(element)?;
                }
                Event::Text(t) => {
                    let text = t.unescape().map_err(|e| {
                        Diagnostic::error(Span::new(start, end), format!("malformed text: {e}"))
                    })?;
                    if !text.trim().is_empty() {
                        self.pending_comment = None;
                    }
                    self.text(text.into_owned(), Span::new(start, end))?;
                }
                Event::CData(c) => {
                    let text = std::str::from_utf8(&c).map_err(|e| {
                        Diagnostic::error(Span::new(start, end), format!("malformed CDATA: {e}"))
                    })?;
                    // Skip `<![CDATA[` so positions inside the text line up.
                    self.text(text.to_owned(), Span::new(start + 9, end.saturating_sub(3)))?;
                }
                Event::Comment(c) => {
                    // XML 1.0, 2.5: `--` may not occur in a comment, nor `-` end it.
                    if let Some(at) = c.windows(2).position(|w| w == b"--") {
                        let at = start + 4 + at;
                        return Err(Diagnostic::error(
                            Span::new(at, at + 2),
                            "`--` is not allowed inside an XML comment",
                        ));
                    }
                    if c.ends_with(b"-") {
                        return Err(Diagnostic::error(
                            Span::new(end.saturating_sub(4), end),
                            "an XML comment cannot end with `--->`",
                        ));
                    }
                    self.pending_comment = Some(String::from_utf8_lossy(&c).trim().to_owned());
                }
                Event::Decl(_) if start != 0 => {
                    // XML 1.0, 2.8: the declaration, if any, is the very first thing in the
                    // document (a byte-order mark aside, which `SourceFile` drops).
                    return Err(Diagnostic::error(
                        Span::new(start, end),
                        "the XML declaration `<?xml ...?>` must be at the very start of the chart",
                    )
                    .with_help("move it to the first line, before any comment or blank line"));
                }
                Event::DocType(_) => {
                    return Err(Diagnostic::error(
                        Span::new(start, end),
                        "DOCTYPE declarations are not allowed in a chart",
                    )
                    .with_help("remove the DOCTYPE; entities are never expanded"));
                }
                Event::Decl(_) | Event::PI(_) => {}
                Event::Eof => break,
            }
        }
        if let Some(open) = self.stack.last() {
            return Err(Diagnostic::error(
                open.span,
                format!("element `<{}>` is never closed", open.name),
            ));
        }
        match self.root {
            Some(root) => Ok(Document { root }),
            None => Err(Diagnostic::error(
                Span::new(0, 0),
                "the chart has no root element",
            )),
        }
    }

    /// `uri` as the shared copy of the namespaces met so far.
    fn intern(&mut self, uri: Option<String>) -> Option<Rc<str>> {
        let uri = uri?;
        if let Some(known) = self.namespaces.iter().find(|n| ***n == *uri) {
            return Some(Rc::clone(known));
        }
        let shared: Rc<str> = uri.into();
        self.namespaces.push(Rc::clone(&shared));
        Some(shared)
    }

    fn element(
        &mut self,
        e: &BytesStart<'_>,
        namespace: Option<String>,
        start: usize,
    ) -> Result<Element, Diagnostic> {
        let namespace = self.intern(namespace);
        let name_len = e.name().as_ref().len();
        let span = Span::new(start + 1, start + 1 + name_len);
        let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
        let mut attrs = Vec::new();
        for attr in e.attributes().with_checks(true) {
            let attr = attr.map_err(|err| {
                Diagnostic::error(span, format!("malformed attribute in `<{name}>`: {err}"))
            })?;
            let key = attr.key;
            if key.as_ref() == b"xmlns" || key.as_ref().starts_with(b"xmlns:") {
                continue;
            }
            let (ns, local) = self.reader.resolve_attribute(key);
            let value_start = self.offset_of(&attr.value, span.start);
            let value_span = Span::new(value_start, value_start + attr.value.len());
            let key_start = self.offset_of(key.as_ref(), span.start);
            // XML 1.0, 3.1 (`AttValue`): a raw `<` is not allowed in an attribute value.
            if let Some(at) = attr.value.iter().position(|&b| b == b'<') {
                return Err(Diagnostic::error(
                    Span::new(value_start + at, value_start + at + 1),
                    "`<` is not allowed in an attribute value",
                )
                .with_help("write it as `&lt;`"));
            }
            let value = attr.unescape_value().map_err(|err| {
                Diagnostic::error(value_span, format!("malformed attribute value: {err}"))
            })?;
            let namespace = namespace_uri(ns);
            attrs.push(Attribute {
                name: String::from_utf8_lossy(local.as_ref()).into_owned(),
                namespace: self.intern(namespace),
                value: value.into_owned(),
                span: value_span,
                name_span: Span::new(key_start, key_start + key.as_ref().len()),
            });
        }
        Ok(Element {
            name,
            namespace,
            span,
            attrs,
            children: Vec::new(),
            comment: None,
        })
    }

    fn close(&mut self, mut element: Element) -> Result<(), Diagnostic> {
        // A `Vec` grows to at least four entries: most elements have one or two attributes
        // and children, and a big chart has hundreds of thousands of elements.
        element.attrs.shrink_to_fit();
        element.children.shrink_to_fit();
        match self.stack.last_mut() {
            Some(parent) => parent.children.push(Node::Element(element)),
            None if self.root.is_none() => self.root = Some(element),
            None => {
                return Err(Diagnostic::error(
                    element.span,
                    "a chart has exactly one root element",
                ))
            }
        }
        Ok(())
    }

    fn text(&mut self, text: String, span: Span) -> Result<(), Diagnostic> {
        match self.stack.last_mut() {
            // Blank text means nothing but in the elements whose text is their content (where
            // it may join two CDATA sections): elsewhere it is not kept.
            Some(parent)
                if parent.is_scxml()
                    && !matches!(
                        parent.name.as_str(),
                        "script" | "data" | "content" | "assign" | "log"
                    )
                    && text.trim().is_empty() => {}
            Some(parent) => parent.children.push(Node::Text(Text { text, span })),
            None if text.trim().is_empty() => {}
            None => return Err(Diagnostic::error(span, "text outside the root element")),
        }
        Ok(())
    }
}

/// XML 1.0's `Char`: tab, newline, carriage return and every other character from U+0020,
/// except U+FFFE and U+FFFF (Rust `char`s are never surrogates).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{FFFD}' | '\u{10000}'..)
}

fn namespace_uri(ns: ResolveResult<'_>) -> Option<String> {
    match ns {
        ResolveResult::Bound(ns) => Some(String::from_utf8_lossy(ns.as_ref()).into_owned()),
        ResolveResult::Unbound => None,
        ResolveResult::Unknown(prefix) => Some(format!(
            "unknown-prefix:{}",
            String::from_utf8_lossy(&prefix)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_spans_of_elements_and_attributes() {
        let src = r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="a&amp;b"/></scxml>"#;
        let doc = parse(src).unwrap();
        assert!(doc.root.is_scxml());
        let state = doc.root.elements().next().unwrap();
        assert_eq!(state.name, "state");
        assert_eq!(&src[state.span.start..state.span.end], "state");
        let id = state.attr("id").unwrap();
        assert_eq!(id.value, "a&b");
        assert_eq!(&src[id.span.start..id.span.end], "a&amp;b");
    }

    #[test]
    fn rejects_doctype_and_malformed_xml() {
        let err = parse("<!DOCTYPE x [<!ENTITY a \"b\">]><scxml/>").unwrap_err();
        assert!(err[0].message.contains("DOCTYPE"));
        let err = parse("<scxml><state></scxml>").unwrap_err();
        assert!(err[0].message.contains("malformed XML"), "{:?}", err);
        assert!(parse("").is_err());
        assert!(parse("<a/><b/>").is_err());
    }

    #[test]
    fn rejects_characters_xml_forbids() {
        let err = parse("<scxml>\n<state id=\"a\0\"/></scxml>").unwrap_err();
        assert_eq!(err[0].message, "character U+0000 is not allowed in XML");
        assert_eq!(err[0].span, Span::new(20, 21));
        assert!(parse("<scxml>\u{1}</scxml>").is_err());
        assert!(parse("<scxml>\u{FFFF}</scxml>").is_err());
        assert!(parse("<scxml>\t\r\n\u{7f}\u{FEFF}\u{10FFFF}</scxml>").is_ok());
    }

    #[test]
    fn bounds_nesting_depth() {
        let src = "<a>".repeat(MAX_DEPTH + 2) + &"</a>".repeat(MAX_DEPTH + 2);
        assert!(parse(&src).unwrap_err()[0]
            .message
            .contains("nested deeper"));
    }
}
