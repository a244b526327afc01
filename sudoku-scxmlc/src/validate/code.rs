//! Rust datamodel code in attributes and `<script>` bodies: parsed with `syn` at build time so
//! a syntax error is reported at the chart line, not inside generated code.

use super::Validator;
use crate::chart::{Code, CodeParts};
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
    // `syn` (and later `prettyplease`) recurse once per nesting level; bound the nesting first
    // so deeply nested code is an error instead of a stack overflow. Code that does not even
    // lex is left to `syn`, which reports it.
    if let Ok(tokens) = text.parse::<TokenStream>() {
        let limit = match kind {
            CodeKind::Type => MAX_CODE_NESTING / 2,
            CodeKind::Expr | CodeKind::Statements => MAX_CODE_NESTING,
        };
        if let Some(at) = too_deep(tokens, limit) {
            return Err(Diagnostic::error(
                locate(src, text, span, at.start()),
                format!("Rust code is nested too deeply (deeper than {limit} levels)"),
            )
            .with_help(
                "move the code into a function in the module that includes the generated file",
            ));
        }
    }
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
            Ok(Code::new(CodeParts {
                text: text.to_owned(),
                line: src.line(span.start as usize),
                column: src.column_bounded(span.start as usize, 4096),
                tokens,
                idents,
            }))
        }
        Err(e) => {
            let what = match kind {
                CodeKind::Expr => "Rust expression",
                CodeKind::Statements => "Rust statements",
                CodeKind::Type => "Rust type",
            };
            let (start, end) = (e.span().start(), e.span().end());
            // A token missing at the very end (`x <`) comes from syn with the call site's
            // empty span, which reads as the code's first character: the end is where
            // something is missing.
            let at = if start == end
                && (start.line, start.column) <= (1, 0)
                && e.to_string().starts_with("unexpected end of input")
            {
                locate_end(src, text, span)
            } else {
                locate(src, text, span, start)
            };
            Err(
                Diagnostic::error(at, format!("invalid {what}: {e}")).with_help(
                    "with datamodel=\"rust\", conditions, expressions and scripts are Rust code",
                ),
            )
        }
    }
}

impl super::Validator<'_> {
    /// [`parse_code`] of chart code (`kind` an expression or statements), with every
    /// `In("id")` of a literal id checked against the chart's states and resolved at build
    /// time ([`resolve_in_calls`]); an unknown id is a located error.
    pub(crate) fn chart_code(
        &mut self,
        text: &str,
        span: Span,
        kind: CodeKind,
    ) -> Result<Code, Diagnostic> {
        #[cfg(feature = "ecmascript")]
        if self.datamodel == crate::chart::DatamodelKind::EcmaScript {
            return super::ecmascript::check_code(self.src, text, span, kind.into());
        }
        let mut code = parse_code(self.src, text, span, kind)?;
        let tokens = std::mem::take(&mut code.tokens);
        let mut unknown = Vec::new();
        let (ids, states) = (&self.ids, &self.states);
        code.tokens = resolve_in_calls(tokens, &mut |id, at| match ids.get(states, id) {
            Some(s) => Some(s as u32),
            None => {
                unknown.push((id.to_owned(), at));
                None
            }
        });
        let mut idents = Vec::new();
        collect_idents(code.tokens.clone(), &mut idents);
        idents.sort();
        idents.dedup();
        code.idents = idents;
        for (id, at) in unknown {
            let (start, end) = (
                decoded_offset(text, at.start()),
                decoded_offset(text, at.end()),
            );
            let mut d = Diagnostic::error(
                crate::parse::source_span(self.src.text(), span, start..end),
                format!("`In(\"{id}\")`: `{id}` is not a state id"),
            );
            if let Some(best) = self.closest_id(&id) {
                d = d.with_help(format!("did you mean `{best}`?"));
            }
            self.diags.push(d);
        }
        Ok(code)
    }
}

impl Validator<'_> {
    /// Where the first error of the code of an included file (`<script src>`) lies in that
    /// file, as `line:column` (1-based; columns in characters): the file's text checked once
    /// more on its own, so that the error names its place in the file rather than only the
    /// chart's `src` attribute. `None` when the check finds nothing to locate.
    pub(crate) fn included_error_at(
        &self,
        name: &str,
        text: &str,
        kind: CodeKind,
    ) -> Option<String> {
        let file = SourceFile::new(name, text);
        let whole = Span {
            start: 0,
            end: file.text().len() as u32,
        };
        #[cfg(feature = "ecmascript")]
        if self.datamodel == crate::chart::DatamodelKind::EcmaScript {
            let d = super::ecmascript::check_code(&file, file.text(), whole, kind.into()).err()?;
            let (line, column) = file.line_col(d.span.start as usize);
            return Some(format!("{line}:{column}"));
        }
        let d = parse_code(&file, file.text(), whole, kind).err()?;
        let (line, column) = file.line_col(d.span.start as usize);
        Some(format!("{line}:{column}"))
    }
}

/// How deeply a piece of Rust code may nest, by the measure of [`too_deep`] (types: half
/// that). Parsing and printing Rust code recurse once per level; at this bound the whole
/// pipeline fits in the 2 MB stack of a test thread in a debug build (a build script's main
/// thread has 8 MB).
pub const MAX_CODE_NESTING: usize = 128;

/// What entering a `(...)`, `[...]` or `{...}` group adds to the nesting.
const GROUP_COST: usize = 4;

/// What a `<` adds: generic arguments are the most stack-hungry nesting `syn` parses.
const ANGLE_COST: usize = 6;

/// Where `tokens` first nests deeper than `limit`, if anywhere.
///
/// The measure is conservative: a group costs [`GROUP_COST`] plus everything before it on its
/// level, and on each level every punctuation mark and keyword (prefix operators, `=`,
/// closures, `return`...) counts one, `<` counts [`ANGLE_COST`], up to a `;` that ends a
/// statement.
/// Identifiers, literals and commas count nothing. This bounds how deeply `syn` can recurse
/// whatever the code, and lets through any code a person would write in a chart (a
/// condition with 40 `&&` comparisons still passes). Iterative, so it cannot overflow itself.
fn too_deep(tokens: TokenStream, limit: usize) -> Option<proc_macro2::Span> {
    let mut stack = Vec::new();
    let mut tokens = tokens.into_iter();
    let (mut base, mut chain) = (0, 0);
    loop {
        let Some(tt) = tokens.next() else {
            let (outer, outer_base, outer_chain) = stack.pop()?;
            tokens = outer;
            base = outer_base;
            chain = outer_chain + 1;
            continue;
        };
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ';' => chain = 0,
            TokenTree::Punct(p) if p.as_char() == ',' => {}
            TokenTree::Punct(p) if p.as_char() == '<' => chain += ANGLE_COST,
            TokenTree::Punct(_) => chain += 1,
            TokenTree::Ident(i) if is_keyword(&i.to_string()) => chain += 1,
            TokenTree::Ident(_) | TokenTree::Literal(_) => {}
            TokenTree::Group(g) => {
                let inner = base + chain + GROUP_COST;
                if inner > limit {
                    return Some(g.span_open());
                }
                let outer = std::mem::replace(&mut tokens, g.stream().into_iter());
                stack.push((outer, base, chain));
                (base, chain) = (inner, 0);
                continue;
            }
        }
        if base + chain > limit {
            return Some(tt.span());
        }
    }
}

/// Keywords that start or continue a construct `syn` parses recursively.
fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "async"
            | "await"
            | "box"
            | "break"
            | "const"
            | "continue"
            | "do"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "macro"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "raw"
            | "ref"
            | "return"
            | "static"
            | "struct"
            | "trait"
            | "try"
            | "type"
            | "union"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "yield"
            | "become"
    )
}

/// Maps a `syn` error position inside `text` (the decoded value or text found at `span` of
/// `src`) to a span in the chart, through the references and CDATA markup of the chart's text.
pub(crate) fn locate(
    src: &SourceFile,
    text: &str,
    span: Span,
    at: proc_macro2::LineColumn,
) -> Span {
    if at.line == 0 {
        return span;
    }
    let offset = decoded_offset(text, at);
    crate::parse::source_span(src.text(), span, offset..offset + 1)
}

/// The span in the chart of the last character of `text` that is not white space (the
/// decoded value or text found at `span` of `src`); `span` itself for blank text.
fn locate_end(src: &SourceFile, text: &str, span: Span) -> Span {
    let code = text.trim_end();
    match code.chars().next_back() {
        Some(last) => {
            let offset = code.len() - last.len_utf8();
            crate::parse::source_span(src.text(), span, offset..code.len())
        }
        None => span,
    }
}

/// The byte offset in `text` of a 1-based line and 0-based column in characters (past a
/// line's end: its end).
fn decoded_offset(text: &str, at: proc_macro2::LineColumn) -> usize {
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
    offset
}

/// `In("id")` (or `In('id')`, which Rust reads as a `char` only for one-character ids) with a
/// literal id, resolved at build time (SCXML 1.0, 5.9.1): `resolve(id, at)` gives the state's
/// index, or `None` for an id the chart does not have (it reports that itself). Each
/// resolved call becomes `__ctx.is_in(index)`; a call of a computed id is left to the
/// run-time `In` binding. `In` after `.` or `::` is somebody else's and is left alone.
pub(crate) fn resolve_in_calls(
    tokens: TokenStream,
    resolve: &mut impl FnMut(&str, proc_macro2::Span) -> Option<u32>,
) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Ident(ref i) if i == "In" && !follows_path_or_field(&out) => {
                let literal = match iter.peek() {
                    Some(TokenTree::Group(g))
                        if g.delimiter() == proc_macro2::Delimiter::Parenthesis =>
                    {
                        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                        match inner.as_slice() {
                            [TokenTree::Literal(l)] => literal_text(l).map(|t| (t, l.span())),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match literal {
                    Some((id, span)) => {
                        iter.next();
                        match resolve(&id, span) {
                            Some(index) => {
                                let index = proc_macro2::Literal::u32_unsuffixed(index);
                                out.extend(quote::quote!(__ctx.is_in(#index)));
                            }
                            // Reported; any well-formed tokens do.
                            None => out.extend(quote::quote!(false)),
                        }
                    }
                    None => out.push(tt),
                }
            }
            TokenTree::Group(g) => {
                let mut group =
                    proc_macro2::Group::new(g.delimiter(), resolve_in_calls(g.stream(), resolve));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// Whether the tokens so far end in `.` or `::` (so an identifier next is a field, method or
/// path segment).
fn follows_path_or_field(out: &[TokenTree]) -> bool {
    matches!(out.last(), Some(TokenTree::Punct(p)) if p.as_char() == '.' || p.as_char() == ':')
}

/// The text of a string or `char` literal.
fn literal_text(l: &proc_macro2::Literal) -> Option<String> {
    let lit = syn::Lit::new(l.clone());
    match lit {
        syn::Lit::Str(s) => Some(s.value()),
        syn::Lit::Char(c) => Some(c.value().to_string()),
        _ => None,
    }
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

pub use crate::ident::is_rust_ident;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_exact() {
        assert!(is_rust_ident("index"));
        assert!(is_rust_ident("_x1"));
        assert!(is_rust_ident("état"));
        assert!(is_rust_ident("__valid"));
        for not in [
            "_",
            "Self",
            "yield",
            "1a",
            "a-b",
            "a.b",
            "index ",
            " index",
            "a /* c */",
            "a\n",
            "r#type",
            "type",
            "a b",
            "",
        ] {
            assert!(!is_rust_ident(not), "{not:?}");
        }
    }

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
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let src = SourceFile::new("c", "");
        for (open, close) in [
            ("(", ")"),
            ("{", "}"),
            ("-", ""),
            ("return ", ""),
            ("|x| ", ""),
        ] {
            let n = 100_000;
            let text = format!("{}1{}", open.repeat(n), close.repeat(n));
            let err = parse_code(&src, &text, Span::new(0, 0), CodeKind::Expr).unwrap_err();
            assert!(err.message.contains("nested too deeply"), "{}", err.message);
        }
        let ty = format!("{}i64{}", "Vec<".repeat(10_000), ">".repeat(10_000));
        let err = parse_code(&src, &ty, Span::new(0, 0), CodeKind::Type).unwrap_err();
        assert!(err.message.contains("nested too deeply"), "{}", err.message);
        // Ordinary code is far from the bound.
        let long = (0..40)
            .map(|i| format!("x{i} > 0"))
            .collect::<Vec<_>>()
            .join(" && ");
        parse_code(&src, &long, Span::new(0, 0), CodeKind::Expr).unwrap();
        let nested = format!("{}1{}", "f(".repeat(25), ")".repeat(25));
        parse_code(&src, &nested, Span::new(0, 0), CodeKind::Expr).unwrap();
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
