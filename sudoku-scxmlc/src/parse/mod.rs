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
use std::borrow::Cow;
use std::rc::Rc;

mod offsets;
pub use offsets::source_span;

/// The SCXML namespace.
pub const SCXML_NS: &str = "http://www.w3.org/2005/07/scxml";
/// The namespace of this compiler's own attributes, such as `rs:type` on `<data>`.
pub const RUST_NS: &str = "urn:sudoku-scxmlc:rust";

/// Deepest element nesting a chart may have.
pub const MAX_DEPTH: usize = 512;
/// Largest chart accepted, in bytes.
pub const MAX_SIZE: usize = 64 * 1024 * 1024;

/// A parsed chart: the root element. Names, and values and text without entity or
/// character references, are borrowed from the chart's text `'src` rather than copied: the
/// document of a big chart is alive while its validated chart is built (docs/scale.md,
/// "Compiler memory").
#[derive(Debug, Clone)]
pub struct Document<'src> {
    /// The document element (`<scxml>` in a valid chart).
    pub root: Element<'src>,
    /// The comments that document elements: (the element's `span.start`, the trimmed
    /// comment right before its start tag, only blank text between), in document order.
    /// Kept beside the tree, not in every element: few elements have one.
    pub comments: Comments<'src>,
}

/// The comments of a [`Document`]'s elements, by the start of the element's name.
#[derive(Debug, Clone, Default)]
pub struct Comments<'src>(pub Vec<(u32, &'src str)>);

impl<'src> Comments<'src> {
    /// The comment right before `e`'s start tag, if any (the generated docs of a state).
    pub fn of(&self, e: &Element<'_>) -> Option<&'src str> {
        let i = self.0.binary_search_by_key(&e.span.start, |c| c.0).ok()?;
        Some(self.0[i].1)
    }
}

/// An XML element with its namespace, attributes and children.
#[derive(Debug, Clone)]
pub struct Element<'src> {
    /// Local name, e.g. `transition`.
    pub name: &'src str,
    /// Namespace URI, if bound (shared by every element and attribute of that namespace;
    /// an `Rc<String>` is one pointer wide, an `Rc<str>` two).
    pub namespace: Option<Rc<String>>,
    /// The element name in its start tag (`<transition` without the `<`).
    pub span: Span,
    /// Attributes in source order (namespace declarations excluded).
    pub attrs: Box<[Attribute<'src>]>,
    /// Child nodes in source order.
    pub children: Box<[Node<'src>]>,
}

/// One attribute.
#[derive(Debug, Clone)]
pub struct Attribute<'src> {
    /// Local name.
    pub name: &'src str,
    /// Namespace URI, if the attribute is prefixed.
    pub namespace: Option<Rc<String>>,
    /// The unescaped value (borrowed when it has no references to expand).
    pub value: Cow<'src, str>,
    /// The raw value between the quotes.
    pub span: Span,
    /// The attribute name.
    pub name_span: Span,
}

/// A child node.
#[derive(Debug, Clone)]
pub enum Node<'src> {
    /// A child element.
    Element(Element<'src>),
    /// A run of text or CDATA.
    Text(Text<'src>),
}

/// A run of character data.
#[derive(Debug, Clone)]
pub struct Text<'src> {
    /// The unescaped text (borrowed when it has no references to expand).
    pub text: Cow<'src, str>,
    /// Where it is.
    pub span: Span,
}

impl Attribute<'_> {
    /// The namespace URI, if the attribute is prefixed.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref().map(String::as_str)
    }
}

impl<'src> Element<'src> {
    /// The attribute `name` without a namespace, if present.
    pub fn attr(&self, name: &str) -> Option<&Attribute<'src>> {
        self.attrs
            .iter()
            .find(|a| a.name == name && a.namespace.is_none())
    }
    /// The attribute `name` in namespace `ns`.
    pub fn attr_ns(&self, ns: &str, name: &str) -> Option<&Attribute<'src>> {
        self.attrs
            .iter()
            .find(|a| a.name == name && a.namespace() == Some(ns))
    }
    /// Child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element<'src>> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }
    /// The concatenated text content (direct text children only) and the span from its first
    /// run's start to its last run's end ([`source_span`] maps an offset in the text into
    /// it).
    pub fn text(&self) -> Option<Text<'src>> {
        let mut runs = self.children.iter().filter_map(|n| match n {
            Node::Text(t) => Some(t),
            Node::Element(_) => None,
        });
        let first = runs.next()?.clone();
        Some(runs.fold(first, |mut acc, t| {
            acc.text.to_mut().push_str(&t.text);
            acc.span.end = t.span.end;
            acc
        }))
    }
    /// Whether this element is in the SCXML namespace.
    pub fn is_scxml(&self) -> bool {
        self.namespace() == Some(SCXML_NS)
    }
    /// The namespace URI, if bound.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref().map(String::as_str)
    }
}

/// Parses a chart. On failure returns the diagnostics (one, for XML errors).
///
/// # Errors
/// Malformed XML, a DOCTYPE, too deep nesting or an oversized input.
pub fn parse(src: &str) -> Result<Document<'_>, Vec<Diagnostic>> {
    Parser::new(src).run().map_err(|d| vec![d])
}

struct Parser<'a> {
    src: &'a str,
    reader: NsReader<&'a [u8]>,
    /// The open elements, outermost first, each with its children so far.
    stack: Vec<(Element<'a>, Vec<Node<'a>>)>,
    root: Option<Element<'a>>,
    pending_comment: Option<&'a str>,
    comments: Vec<(u32, &'a str)>,
    /// The namespace URIs met so far, shared rather than copied into every element.
    namespaces: Vec<Rc<String>>,
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
            comments: Vec::new(),
            namespaces: Vec::new(),
        }
    }

    /// `bytes` as the slice of the chart's text it is (quick-xml reading a `&str` hands out
    /// slices of it), if it is one.
    fn borrow(&self, bytes: &[u8]) -> Option<&'a str> {
        let base = self.src.as_ptr() as usize;
        let p = bytes.as_ptr() as usize;
        if p < base || p + bytes.len() > base + self.src.len() {
            return None;
        }
        self.src.get(p - base..p - base + bytes.len())
    }

    /// `text` (unescaped from the chart's text) borrowed from the chart's text when it is
    /// a slice of it, else owned.
    fn keep(&self, text: Cow<'_, str>) -> Cow<'a, str> {
        match text {
            Cow::Borrowed(t) => self
                .borrow(t.as_bytes())
                .map_or_else(|| Cow::Owned(t.to_owned()), Cow::Borrowed),
            Cow::Owned(t) => Cow::Owned(t),
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

    fn run(mut self) -> Result<Document<'a>, Diagnostic> {
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
                    let element = self.element(&e, ns, start)?;
                    if let Some(comment) = self.pending_comment.take() {
                        self.comments.push((element.span.start, comment));
                    }
                    if self.stack.len() >= MAX_DEPTH {
                        return Err(Diagnostic::error(
                            element.span,
                            format!("elements are nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    self.stack.push((element, Vec::new()));
                }
                Event::Empty(e) => {
                    let element = self.element(&e, ns, start)?;
                    if let Some(comment) = self.pending_comment.take() {
                        self.comments.push((element.span.start, comment));
                    }
                    self.close(element)?;
                }
                Event::End(_) => {
                    // A comment just before an end tag documents nothing that follows.
                    self.pending_comment = None;
                    let (mut element, children) =
                        self.stack.pop().expect("quick-xml checks end names");
                    element.children = children.into_boxed_slice();
                    self.close(element)?;
                }
                Event::Text(t) => {
                    let text = t.unescape().map_err(|e| {
                        bad_reference_error(self.src, Span::new(start, end), "text", e)
                    })?;
                    if !text.trim().is_empty() {
                        self.pending_comment = None;
                    }
                    let text = self.keep(text);
                    self.text(text, Span::new(start, end))?;
                }
                Event::CData(c) => {
                    let text = std::str::from_utf8(&c).map_err(|e| {
                        Diagnostic::error(Span::new(start, end), format!("malformed CDATA: {e}"))
                    })?;
                    let text = self.keep(Cow::Borrowed(text));
                    // Skip `<![CDATA[` so positions inside the text line up.
                    self.text(text, Span::new(start + 9, end.saturating_sub(3)))?;
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
                    // The chart's text is UTF-8, so the comment is a slice of it.
                    self.pending_comment = std::str::from_utf8(&c)
                        .ok()
                        .and_then(|c| self.borrow(c.trim().as_bytes()));
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
        if let Some((open, _)) = self.stack.last() {
            return Err(Diagnostic::error(
                open.span,
                format!("element `<{}>` is never closed", open.name),
            ));
        }
        match self.root {
            Some(root) => Ok(Document {
                root,
                comments: Comments(self.comments),
            }),
            None => Err(Diagnostic::error(
                Span::new(0, 0),
                "the chart has no root element",
            )),
        }
    }

    /// `uri` as the shared copy of the namespaces met so far.
    fn intern(&mut self, uri: Option<String>) -> Option<Rc<String>> {
        let uri = uri?;
        if let Some(known) = self.namespaces.iter().find(|n| ***n == *uri) {
            return Some(Rc::clone(known));
        }
        let shared = Rc::new(uri);
        self.namespaces.push(Rc::clone(&shared));
        Some(shared)
    }

    fn element(
        &mut self,
        e: &BytesStart<'_>,
        namespace: Option<String>,
        start: usize,
    ) -> Result<Element<'a>, Diagnostic> {
        let namespace = self.intern(namespace);
        let name_len = e.name().as_ref().len();
        let span = Span::new(start + 1, start + 1 + name_len);
        let not_in_text = || {
            Diagnostic::error(
                span,
                "malformed XML: a name that is not in the chart's text",
            )
        };
        let name = self
            .borrow(e.local_name().into_inner())
            .ok_or_else(not_in_text)?;
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
            let value_start = self.offset_of(&attr.value, span.start as usize);
            let value_span = Span::new(value_start, value_start + attr.value.len());
            let key_start = self.offset_of(key.as_ref(), span.start as usize);
            // XML 1.0, 3.1 (`AttValue`): a raw `<` is not allowed in an attribute value.
            if let Some(at) = attr.value.iter().position(|&b| b == b'<') {
                return Err(Diagnostic::error(
                    Span::new(value_start + at, value_start + at + 1),
                    "`<` is not allowed in an attribute value",
                )
                .with_help("write it as `&lt;`"));
            }
            let value = attr
                .unescape_value()
                .map_err(|err| bad_reference_error(self.src, value_span, "attribute value", err))?;
            let namespace = namespace_uri(ns);
            let value = self.keep(value);
            attrs.push(Attribute {
                name: self.borrow(local.into_inner()).ok_or_else(not_in_text)?,
                namespace: self.intern(namespace),
                value,
                span: value_span,
                name_span: Span::new(key_start, key_start + key.as_ref().len()),
            });
        }
        Ok(Element {
            name,
            namespace,
            span,
            // Boxed at their length: a `Vec` grows to at least four entries, most elements
            // have one or two attributes, and a big chart has hundreds of thousands.
            attrs: attrs.into_boxed_slice(),
            children: Box::default(),
        })
    }

    fn close(&mut self, element: Element<'a>) -> Result<(), Diagnostic> {
        match self.stack.last_mut() {
            Some((_, children)) => children.push(Node::Element(element)),
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

    fn text(&mut self, text: Cow<'a, str>, span: Span) -> Result<(), Diagnostic> {
        match self.stack.last_mut() {
            // Blank text means nothing but in the elements whose text is their content (where
            // it may join two CDATA sections): elsewhere it is not kept.
            Some((parent, _))
                if parent.is_scxml()
                    && !matches!(
                        parent.name,
                        "script" | "data" | "content" | "assign" | "log"
                    )
                    && text.trim().is_empty() => {}
            Some((_, children)) => children.push(Node::Text(Text { text, span })),
            None if text.trim().is_empty() => {}
            None => return Err(Diagnostic::error(span, "text outside the root element")),
        }
        Ok(())
    }
}

/// The error of a value or text at `span` of `src` that quick-xml could not unescape: at the
/// reference that is wrong, else (not expected) quick-xml's message over all of it.
fn bad_reference_error(src: &str, span: Span, what: &str, err: quick_xml::Error) -> Diagnostic {
    match src.get(span.range()).and_then(offsets::bad_reference) {
        Some((at, message)) => Diagnostic::error(span.slice(at), format!("malformed {what}: {message}"))
            .with_help("XML predefines `&lt;` `&gt;` `&amp;` `&apos;` `&quot;` only (with `&#NNNN;` for any character); write a `&` as `&amp;`"),
        None => Diagnostic::error(span, format!("malformed {what}: {err}")),
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
        assert_eq!(&src[state.span.range()], "state");
        let id = state.attr("id").unwrap();
        assert_eq!(id.value, "a&b");
        assert_eq!(&src[id.span.range()], "a&amp;b");
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

    /// The document of a big chart is alive while its chart is built: its records stay small
    /// (docs/scale.md, "Compiler memory").
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn records_stay_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<Element<'_>>(), 64);
        assert_eq!(size_of::<Node<'_>>(), 64);
        assert_eq!(size_of::<Attribute<'_>>(), 64);
    }

    #[test]
    fn borrows_what_has_no_references() {
        let src = r#"<scxml a="plain" b="x &amp; y"><!-- doc --><log>text</log></scxml>"#;
        let doc = parse(src).unwrap();
        assert!(matches!(
            doc.root.attr("a").unwrap().value,
            Cow::Borrowed("plain")
        ));
        assert!(matches!(doc.root.attr("b").unwrap().value, Cow::Owned(ref v) if v == "x & y"));
        let log = doc.root.elements().next().unwrap();
        assert_eq!(doc.comments.of(log), Some("doc"));
        assert_eq!(doc.comments.of(&doc.root), None);
        assert!(matches!(log.text().unwrap().text, Cow::Borrowed("text")));
    }

    #[test]
    fn bounds_nesting_depth() {
        let src = "<a>".repeat(MAX_DEPTH + 2) + &"</a>".repeat(MAX_DEPTH + 2);
        assert!(parse(&src).unwrap_err()[0]
            .message
            .contains("nested deeper"));
    }
}
