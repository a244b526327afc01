//! Rust datamodel code in attributes and `<script>` bodies: parsed with `syn` at build time so
//! a syntax error is reported at the chart line, not inside generated code.

use crate::chart::Code;
use crate::diagnostic::{Diagnostic, SourceFile, Span};
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::Parser;

/// What a piece of code must parse as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeKind {
    /// One expression (`cond`, `expr`, `location`, `array`).
    Expr,
    /// Statements (`<script>`).
    Statements,
    /// A type (`rs:type`).
    Type,
}

/// Parses `text`, found at `span` of `src`, as `kind`.
///
/// # Errors
/// A syntax error, located inside the chart.
pub fn parse_code(
    src: &SourceFile,
    text: &str,
    span: Span,
    kind: CodeKind,
) -> Result<Code, Diagnostic> {
    let parsed: syn::Result<TokenStream> = match kind {
        CodeKind::Expr => syn::parse_str::<syn::Expr>(text).map(|e| e.into_token_stream()),
        CodeKind::Type => syn::parse_str::<syn::Type>(text).map(|t| t.into_token_stream()),
        CodeKind::Statements => syn::Block::parse_within.parse_str(text).map(|stmts| {
            let mut ts = TokenStream::new();
            for s in stmts {
                s.to_tokens(&mut ts);
            }
            ts
        }),
    };
    match parsed {
        Ok(tokens) => {
            let mut idents = Vec::new();
            collect_idents(tokens.clone(), &mut idents);
            idents.sort();
            idents.dedup();
            Ok(Code {
                text: text.to_owned(),
                line: src.line(span.start),
                tokens,
                idents,
            })
        }
        Err(e) => {
            let what = match kind {
                CodeKind::Expr => "Rust expression",
                CodeKind::Statements => "Rust statements",
                CodeKind::Type => "Rust type",
            };
            let at = locate(text, span, e.span().start());
            Err(
                Diagnostic::error(at, format!("invalid {what}: {e}")).with_help(
                    "with datamodel=\"rust\", conditions, expressions and scripts are Rust code",
                ),
            )
        }
    }
}

/// Maps a `syn` error position inside `text` to a span in the chart.
fn locate(text: &str, span: Span, at: proc_macro2::LineColumn) -> Span {
    if at.line == 0 {
        return span;
    }
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == at.line {
            offset += line
                .char_indices()
                .nth(at.column)
                .map_or(line.len(), |(b, _)| b);
            break;
        }
        offset += line.len();
    }
    let offset = offset.min(span.end.saturating_sub(span.start));
    let start = span.start + offset;
    Span::new(start, (start + 1).min(span.end.max(start + 1)))
}

fn collect_idents(tokens: TokenStream, out: &mut Vec<String>) {
    for tt in tokens {
        match tt {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => collect_idents(g.stream(), out),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

/// Whether `s` is a Rust identifier that is not a keyword.
pub fn is_rust_ident(s: &str) -> bool {
    !s.contains('#') && syn::parse_str::<syn::Ident>(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_point_into_the_attribute() {
        let text = "<transition cond=\"x == == 2\"/>";
        let src = SourceFile::new("c.scxml", text);
        let start = text.find("x ==").unwrap();
        let span = Span::new(start, start + 9);
        let err = parse_code(&src, "x == == 2", span, CodeKind::Expr).unwrap_err();
        assert!(
            err.message.starts_with("invalid Rust expression"),
            "{}",
            err.message
        );
        assert!(err.span.start >= span.start && err.span.start <= span.end);
    }

    #[test]
    fn collects_identifiers() {
        let src = SourceFile::new("c", "");
        let code = parse_code(
            &src,
            "is_ok(grid, _event.data[\"x\"])",
            Span::default(),
            CodeKind::Expr,
        )
        .unwrap();
        assert_eq!(code.idents, ["_event", "data", "grid", "is_ok"]);
    }
}
