//! Located diagnostics: what went wrong, where in the chart, rendered with the chart's line.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A byte range in a chart's source text, in 32-bit offsets (a chart has at most
/// [`MAX_SIZE`](crate::parse::MAX_SIZE) bytes; the parsed document and the chart hold one
/// or two spans per element, attribute and state: docs/scale.md, "Compiler memory").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`; offsets past `u32::MAX` (never in a chart) are cut to it.
    pub const fn new(start: usize, end: usize) -> Self {
        const MAX: usize = u32::MAX as usize;
        Span {
            start: if start > MAX { MAX } else { start } as u32,
            end: if end > MAX { MAX } else { end } as u32,
        }
    }
    /// The byte range, for slicing the text.
    pub const fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
    /// A sub-span relative to this span's start, clamped to it.
    pub fn slice(self, range: Range<usize>) -> Span {
        let (own_start, own_end) = (self.start as usize, self.end as usize);
        let start = (own_start + range.start).min(own_end);
        let end = (own_start + range.end).clamp(start, own_end.max(start));
        Span::new(start, end)
    }
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The chart cannot be compiled.
    Error,
    /// The chart compiles but something looks wrong.
    Warning,
}

/// One problem found in a chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Lowercase message naming the item in backticks.
    pub message: String,
    /// Where in the chart.
    pub span: Span,
    /// A hint on how to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            help: None,
        }
    }
    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }
    /// Adds a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Longest snippet line shown, in characters.
const MAX_SNIPPET: usize = 100;

/// A chart's text with a line index, for turning byte offsets into lines and columns. The
/// text is borrowed when the caller keeps it (`'t`), owned when it gives it away.
#[derive(Debug, Clone)]
pub struct SourceFile<'t> {
    path: PathBuf,
    text: Cow<'t, str>,
    /// The byte offset of each line's start.
    line_starts: Vec<u32>,
    fingerprint: u64,
}

impl<'t> SourceFile<'t> {
    /// Wraps a chart's text (a `&str` is borrowed, a `String` taken, never copied); `path`
    /// is what messages print. A leading byte-order mark is dropped (it is not part of the
    /// document, and would shift line 1's columns): byte offsets are into
    /// [`text`](SourceFile::text), which is what the parser must read.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<Cow<'t, str>>) -> Self {
        let bom = '\u{FEFF}'.len_utf8();
        let text = match text.into() {
            Cow::Borrowed(t) => Cow::Borrowed(t.strip_prefix('\u{FEFF}').unwrap_or(t)),
            Cow::Owned(mut t) => {
                if t.starts_with('\u{FEFF}') {
                    t.drain(..bom);
                }
                Cow::Owned(t)
            }
        };
        // 32-bit offsets, like `Span`'s (past 4 GiB, far beyond `MAX_SIZE`, they saturate).
        let line_starts = std::iter::once(0)
            .chain(
                text.match_indices('\n')
                    .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
            )
            .collect();
        // 64-bit FNV-1a.
        let fingerprint = text.bytes().fold(0xcbf2_9ce4_8422_2325, |h: u64, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        SourceFile {
            path: path.into(),
            text,
            line_starts,
            fingerprint,
        }
    }
    /// A 64-bit fingerprint (FNV-1a) of the text.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    /// The path messages print.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }
    /// 1-based column of a byte offset: counted in characters within the first `limit`
    /// bytes of its line, in bytes beyond (so that it costs at most `limit` per call).
    pub fn column_bounded(&self, offset: usize, limit: usize) -> u32 {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let bytes = offset - start;
        let col = if bytes <= limit {
            self.text
                .get(start..offset)
                .map_or(bytes, |s| s.chars().count())
        } else {
            bytes
        };
        col as u32 + 1
    }

    /// 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> u32 {
        // Not `line_col(..).0`: counting the column is linear in the line's length, and
        // validation asks for the line of every state of a (possibly one-line) chart.
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s as usize <= offset) as u32
    }
    fn line_text(&self, line: u32) -> &str {
        let i = line as usize - 1;
        let start = self.line_starts[i] as usize;
        let end = self
            .line_starts
            .get(i + 1)
            .map_or(self.text.len(), |&e| e as usize - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// Renders a diagnostic as `PATH:LINE:COL: error: message`, then the chart line with a caret
    /// under the span, then the hint.
    pub fn render(&self, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.span.start as usize);
        let kind = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!(
            "{}:{line}:{col}: {kind}: {}\n",
            self.path.display(),
            d.message
        );
        let full = self.line_text(line);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        let caret_start = col as usize - 1;
        let span_chars = self
            .text
            .get(d.span.start as usize..d.span.end.max(d.span.start) as usize)
            .map_or(1, |s| s.lines().next().unwrap_or("").chars().count())
            .max(1);
        // Long lines (minified charts) are cut to a window around the span.
        let chars: Vec<char> = full.chars().collect();
        let (from, to) = if chars.len() <= MAX_SNIPPET {
            (0, chars.len())
        } else {
            let from = caret_start.saturating_sub(MAX_SNIPPET / 3).min(chars.len());
            (from, (from + MAX_SNIPPET).min(chars.len()))
        };
        let mut text: String = chars[from..to].iter().collect();
        let mut caret_col = caret_start.saturating_sub(from);
        if from > 0 {
            text.insert(0, '…');
            caret_col += 1;
        }
        if to < chars.len() {
            text.push('…');
        }
        let width = span_chars.min(text.chars().count().saturating_sub(caret_col).max(1));
        let indent: String = text
            .chars()
            .take(caret_col)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!(
            "{pad} |\n{line} | {text}\n{pad} | {indent}{}\n",
            "^".repeat(width)
        ));
        if let Some(help) = &d.help {
            out.push_str(&format!("{pad} = help: {help}\n"));
        }
        out
    }
}

/// Diagnostics rendered against their chart.
pub struct Rendered<'a>(pub &'a SourceFile<'a>, pub &'a [Diagnostic]);

/// At most this many diagnostics are rendered; the rest are counted.
pub const MAX_RENDERED: usize = 100;

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.1.iter().take(MAX_RENDERED) {
            f.write_str(&self.0.render(d))?;
        }
        if self.1.len() > MAX_RENDERED {
            writeln!(
                f,
                "{}: … and {} more diagnostics not shown",
                self.0.path.display(),
                self.1.len() - MAX_RENDERED
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_path_line_column_and_caret() {
        let src = SourceFile::new("chart.scxml", "<scxml>\n  <state id=\"a\"/>\n</scxml>\n");
        let start = src.text().find("\"a\"").unwrap() + 1;
        let d = Diagnostic::error(Span::new(start, start + 1), "duplicate state id `a`")
            .with_help("ids must be unique");
        assert_eq!(
            src.render(&d),
            "chart.scxml:2:14: error: duplicate state id `a`\n  |\n2 |   <state id=\"a\"/>\n  |              ^\n  = help: ids must be unique\n"
        );
    }

    #[test]
    fn long_lines_are_cut_around_the_span() {
        let line = format!(
            "<scxml>{}<state id=\"x\" bogus=\"1\"/>{}</scxml>",
            " ".repeat(300),
            " ".repeat(300)
        );
        let src = SourceFile::new("c", line.clone());
        let at = line.find("bogus").unwrap();
        let out = src.render(&Diagnostic::error(Span::new(at, at + 5), "no `bogus`"));
        let snippet = out.lines().nth(2).unwrap();
        assert!(snippet.contains("…") && snippet.contains("bogus"), "{out}");
        assert!(snippet.chars().count() < 120, "{out}");
        let caret = out.lines().nth(3).unwrap();
        let char_index = |s: &str, byte: usize| s[..byte].chars().count();
        assert_eq!(
            char_index(caret, caret.find('^').unwrap()),
            char_index(snippet, snippet.find("bogus").unwrap()),
            "{out}"
        );
    }

    #[test]
    fn line_col_counts_characters() {
        let src = SourceFile::new("c", "äb\ncd");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(2), (1, 2));
        assert_eq!(src.line_col(4), (2, 1));
    }
}
