//! Decoded offsets → chart offsets. The document keeps attribute values and text decoded
//! (entity and character references expanded, CDATA markup dropped, the text runs of an
//! element joined), so an offset found in a decoded value (a syntax error in a `cond`, say)
//! is not its offset in the chart. Rather than keep a map beside every value (the document of
//! a big chart is alive while its chart is built: docs/scale.md, "Compiler memory"), the raw
//! text is scanned again when a diagnostic needs a position, which is rare.

use crate::diagnostic::Span;

/// One step of the raw text: how many chart bytes it takes and how many decoded bytes it
/// gives.
struct Unit {
    raw: usize,
    decoded: usize,
}

/// The chart offset of decoded byte `decoded` of the value or text found at `span` of `src`
/// (an [`Attribute::span`](super::Attribute::span) or [`Text::span`](super::Text::span)): the
/// references (`&amp;`, `&#x41;`), CDATA markup, comments, processing instructions and child
/// elements between `span.start` and that byte are stepped over. An offset inside a
/// reference's expansion gives the reference's `&`; one past the decoded value gives
/// `span.end`. Works on byte offsets; never panics, whatever `span` is.
pub fn source_offset(src: &str, span: Span, decoded: usize) -> usize {
    let (start, mut end) = (span.start as usize, (span.end as usize).min(src.len()));
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    if start >= end || !src.is_char_boundary(start) {
        return start.min(src.len());
    }
    let bytes = src.as_bytes();
    // A text run that is the content of a CDATA section starts right after `<![CDATA[`
    // (a raw `<` can be nowhere else before it: attribute values and text have none).
    let mut in_cdata = src[..start].ends_with("<![CDATA[");
    // Child elements' text is not their parent's text.
    let mut depth = 0usize;
    let (mut at, mut done) = (start, 0usize);
    while at < end {
        let rest = &src[at..end];
        let unit = if in_cdata {
            if rest.starts_with("]]>") {
                in_cdata = false;
                Unit { raw: 3, decoded: 0 }
            } else {
                char_unit(rest)
            }
        } else {
            match bytes[at] {
                b'&' => reference(rest).unwrap_or_else(|| char_unit(rest)),
                b'<' => {
                    if rest.starts_with("<![CDATA[") {
                        in_cdata = true;
                        Unit { raw: 9, decoded: 0 }
                    } else {
                        markup(rest, &mut depth)
                    }
                }
                _ => char_unit(rest),
            }
        };
        let decoded_len = if depth > 0 { 0 } else { unit.decoded };
        if decoded_len > 0 && done + decoded_len > decoded {
            return at;
        }
        done += decoded_len;
        at += unit.raw.max(1);
        // Only whole characters: a malformed span must not slice one.
        while at < end && !src.is_char_boundary(at) {
            at += 1;
        }
    }
    end
}

/// The chart span of decoded bytes `range` of the value or text at `span` (see
/// [`source_offset`]), at least one byte wide (a position past the value's end is the byte
/// after it, such as its closing quote).
pub fn source_span(src: &str, span: Span, range: std::ops::Range<usize>) -> Span {
    let start = source_offset(src, span, range.start);
    let end = source_offset(src, span, range.end.max(range.start + 1));
    // At least the character at `start`.
    let next = src
        .get(start..)
        .and_then(|rest| rest.chars().next())
        .map_or(start + 1, |c| start + c.len_utf8());
    Span::new(start, end.max(next).min(src.len().max(start)))
}

fn char_unit(rest: &str) -> Unit {
    let n = rest.chars().next().map_or(1, char::len_utf8);
    Unit { raw: n, decoded: n }
}

/// An entity or character reference at the start of `rest` (which starts with `&`), as
/// quick-xml expands it.
fn reference(rest: &str) -> Option<Unit> {
    let (name, raw) = reference_name(rest)?;
    let decoded = match name {
        "lt" | "gt" | "amp" | "apos" | "quot" => 1,
        _ => char_reference(name)?.len_utf8(),
    };
    Some(Unit { raw, decoded })
}

/// The name between `&` and `;` at the start of `rest` and the reference's length, if a `;`
/// ends it before any character a name cannot hold.
fn reference_name(rest: &str) -> Option<(&str, usize)> {
    let semi = rest
        .get(1..)?
        .find(|c: char| c == ';' || c.is_whitespace() || matches!(c, '&' | '<' | '"' | '\''))?
        + 1;
    (rest.as_bytes()[semi] == b';').then(|| (&rest[1..semi], semi + 1))
}

/// The character of a character reference's name (`#65`, `#x41`), if it is one quick-xml
/// expands.
fn char_reference(name: &str) -> Option<char> {
    let code = if let Some(hex) = name.strip_prefix("#x") {
        u32::from_str_radix(hex, 16).ok()?
    } else {
        name.strip_prefix('#')?.parse().ok()?
    };
    char::from_u32(code).filter(|&c| c != '\0')
}

/// The first reference in `raw` (an attribute value or text as written in the chart) that is
/// not one XML predefines nor a character reference: its byte range in `raw` and a message.
pub fn bad_reference(raw: &str) -> Option<(std::ops::Range<usize>, String)> {
    raw.match_indices('&').find_map(|(at, _)| {
        let rest = &raw[at..];
        let Some((name, len)) = reference_name(rest) else {
            return Some((
                at..at + 1,
                "`&` that starts no reference (no `;` ends it)".to_owned(),
            ));
        };
        let message = match name {
            "lt" | "gt" | "amp" | "apos" | "quot" => return None,
            _ if name.starts_with('#') => match char_reference(name) {
                Some(_) => return None,
                None => format!("`&{name};` is not a character reference XML allows"),
            },
            _ => format!("unknown entity `&{name};`"),
        };
        Some((at..at + len, message))
    })
}

/// Markup at the start of `rest` (which starts with `<` and is not a CDATA section): a
/// comment, a processing instruction, or a start, end or empty-element tag, which moves
/// `depth`.
fn markup(rest: &str, depth: &mut usize) -> Unit {
    let upto = |close: &str| rest.find(close).map_or(rest.len(), |i| i + close.len());
    if rest.starts_with("<!--") {
        return Unit {
            raw: upto("-->"),
            decoded: 0,
        };
    }
    if rest.starts_with("<?") {
        return Unit {
            raw: upto("?>"),
            decoded: 0,
        };
    }
    // A tag ends at the first `>` outside a quoted attribute value.
    let mut quote = None;
    let mut len = rest.len();
    for (i, b) in rest.bytes().enumerate() {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if q == b => quote = None,
            (None, b'>') => {
                len = i + 1;
                break;
            }
            _ => {}
        }
    }
    let tag = &rest[..len];
    if tag.starts_with("</") {
        *depth = depth.saturating_sub(1);
    } else if !tag.ends_with("/>") {
        *depth += 1;
    }
    Unit {
        raw: len,
        decoded: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(src: &str, raw: &str, decoded: usize) -> usize {
        let start = src.find(raw).unwrap();
        source_offset(src, Span::new(start, start + raw.len()), decoded) - start
    }

    #[test]
    fn steps_over_references() {
        let src = r#"<a cond="true &amp;&amp; (1 +)"/>"#;
        // Decoded `true && (1 +)`: the `)` is byte 13, raw byte 21.
        assert_eq!(at(src, "true &amp;&amp; (1 +)", 13), 21);
        assert_eq!(at(src, "true &amp;&amp; (1 +)", 5), 5);
        // The second `&` is the second reference.
        assert_eq!(at(src, "true &amp;&amp; (1 +)", 6), 10);
        let src = "<a b=\"&#x4E2D;x\"/>";
        // Inside the expansion of `&#x4E2D;` (3 bytes) is the reference itself.
        assert_eq!(at(src, "&#x4E2D;x", 1), 0);
        assert_eq!(at(src, "&#x4E2D;x", 3), 8);
        // Past the end is the end.
        assert_eq!(at(src, "&#x4E2D;x", 99), 9);
    }

    #[test]
    fn steps_over_cdata_comments_and_children() {
        let src = "<s><![CDATA[a<b]]>&lt;<!-- c --><x y='>'>z</x><?p?>q</s>";
        // The first run is the CDATA section's content, its span after `<![CDATA[`.
        let start = src.find("a<b").unwrap();
        let span = Span::new(start, src.find("</s>").unwrap());
        let decoded = ["a", "<", "b", "<", "q"];
        let raw = [
            start,
            start + 1,
            start + 2,
            src.find("&lt;").unwrap(),
            src.find("q<").unwrap(),
        ];
        for (i, want) in raw.iter().enumerate() {
            assert_eq!(source_offset(src, span, i), *want, "decoded {}", decoded[i]);
        }
        assert_eq!(source_offset(src, span, 5), span.end as usize);
    }

    #[test]
    fn finds_the_bad_reference() {
        let (at, message) = bad_reference("go&amp;&foo;").unwrap();
        assert_eq!((at, message.as_str()), (7..12, "unknown entity `&foo;`"));
        let (at, message) = bad_reference("a &#0; b").unwrap();
        assert_eq!(
            (at, message.as_str()),
            (2..6, "`&#0;` is not a character reference XML allows")
        );
        let (at, _) = bad_reference("a & b").unwrap();
        assert_eq!(at, 2..3);
        assert_eq!(bad_reference("&lt;&#x41;&#65;"), None);
    }

    #[test]
    fn any_span_is_safe() {
        let src = "<a b=\"é&amp;€\"/>";
        for start in 0..=src.len() + 2 {
            for end in 0..=src.len() + 2 {
                for decoded in 0..6 {
                    let at = source_offset(src, Span::new(start, end), decoded);
                    assert!(at <= src.len());
                    let _ = source_span(src, Span::new(start, end), decoded..decoded + 2);
                }
            }
        }
    }

    #[test]
    fn spans_cover_the_reference() {
        let src = r#"<a b="x&amp;y"/>"#;
        let start = src.find('x').unwrap();
        let span = Span::new(start, start + 9);
        assert_eq!(&src[source_span(src, span, 1..2).range()], "&amp;");
        assert_eq!(&src[source_span(src, span, 2..2).range()], "y");
    }
}
