//! Writing the generated file: one item at a time, each formatted by `prettyplease` and
//! written out at once, so that the compiler never holds the syntax tree of the whole file
//! (a chart of 20,000 blocks of executable content took 1.5 GB that way).
//!
//! Two things prettyplease cannot print are put in by placeholders after formatting: a line
//! comment (`// chart.scxml:19: <log label="...">`) in a function body, and a static table
//! as one pre-formatted row per line. A placeholder is a macro call whose name carries the
//! chart's fingerprint (`__scxml_comment_<hash>!(k);`), so no text chart code can produce is
//! ever taken for one: chart code would have to spell out the hash of the chart that
//! contains it.

use proc_macro2::TokenStream;
use quote::format_ident;
use std::io::{self, Write};

/// Formats items and writes them, expanding the placeholders of [`Placeholders`].
pub(crate) struct Printer<'w> {
    out: &'w mut dyn Write,
    /// Bytes written so far.
    pub(crate) written: u64,
}

/// The comments and tables the placeholders of the item being built stand for.
pub(crate) struct Placeholders<'a> {
    comment: String,
    table: String,
    comments: Vec<String>,
    tables: Vec<Table<'a>>,
}

/// The rows of a table placeholder.
enum Table<'a> {
    /// Made beforehand.
    Rows(Vec<String>),
    /// Made one at a time as the table is written: `row(i)` for `i` in `0..len`. A chart of
    /// 65,538 states has as many rows in several tables, tens of megabytes of text that are
    /// then never held at once (docs/scale.md, "Compiler memory").
    Made {
        len: usize,
        row: Box<dyn Fn(usize) -> String + 'a>,
    },
}

impl Table<'_> {
    fn len(&self) -> usize {
        match self {
            Table::Rows(rows) => rows.len(),
            Table::Made { len, .. } => *len,
        }
    }
}

impl<'a> Placeholders<'a> {
    /// Placeholders for a chart whose source has the fingerprint `hash`.
    pub(crate) fn new(hash: u64) -> Self {
        Placeholders {
            comment: format!("__scxml_comment_{hash:016x}"),
            table: format!("__scxml_table_{hash:016x}"),
            comments: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// A statement that becomes the line comment `// text` (line breaks become spaces).
    pub(crate) fn comment(&mut self, text: String) -> TokenStream {
        let k = super::num(self.comments.len());
        self.comments.push(text.replace(['\n', '\r'], " "));
        let name = format_ident!("{}", self.comment);
        quote::quote!(#name!(#k);)
    }

    /// An expression that becomes the array `[row, row, ...]`, one row per line (line breaks
    /// in a row become spaces).
    pub(crate) fn table(&mut self, rows: Vec<String>) -> TokenStream {
        self.push_table(Table::Rows(rows))
    }

    /// [`Placeholders::table`] of the `len` rows `row(0)`, `row(1)`, …, each made when it is
    /// written.
    pub(crate) fn made_table(
        &mut self,
        len: usize,
        row: impl Fn(usize) -> String + 'a,
    ) -> TokenStream {
        self.push_table(Table::Made {
            len,
            row: Box::new(row),
        })
    }

    fn push_table(&mut self, table: Table<'a>) -> TokenStream {
        let k = super::num(self.tables.len());
        self.tables.push(table);
        let name = format_ident!("{}", self.table);
        quote::quote!(#name!(#k))
    }
}

impl<'w> Printer<'w> {
    /// A printer writing to `out`.
    pub(crate) fn new(out: &'w mut dyn Write) -> Self {
        Printer { out, written: 0 }
    }

    /// Writes text as it is.
    pub(crate) fn text(&mut self, text: &str) -> io::Result<()> {
        self.written += text.len() as u64;
        self.out.write_all(text.as_bytes())
    }

    /// Writes a table row, its line breaks as spaces.
    fn row(&mut self, row: &str) -> io::Result<()> {
        if row.contains(['\n', '\r']) {
            self.text(&row.replace(['\n', '\r'], " "))
        } else {
            self.text(row)
        }
    }

    /// Formats `tokens` (items) and writes them indented by `indent` levels, expanding the
    /// placeholders `p` handed out for them; `p`'s comments and tables are then cleared.
    ///
    /// # Panics
    /// When the tokens are not Rust items: a bug in the emitter, never a chart's fault.
    pub(crate) fn items(
        &mut self,
        tokens: TokenStream,
        indent: usize,
        p: &mut Placeholders<'_>,
    ) -> io::Result<()> {
        if tokens.is_empty() {
            return Ok(());
        }
        // A line break inside a literal (a multi-line string in chart code) must not get
        // indentation added: such items are written unindented.
        let indent = if has_multiline_literal(&tokens) {
            0
        } else {
            indent
        };
        let file: syn::File = match syn::parse2(tokens) {
            Ok(f) => f,
            Err(err) => {
                panic!("sudoku-scxmlc emitted invalid Rust (a bug in sudoku-scxmlc): {err}")
            }
        };
        let pretty = prettyplease::unparse(&file);
        drop(file);
        let pad = "    ".repeat(indent);
        let lines: Vec<&str> = pretty.lines().collect();
        let (table_open, comment_open) = (format!("{}!(", p.table), format!("{}!(", p.comment));
        let mut joined: String;
        let mut i = 0;
        while i < lines.len() {
            let mut line = lines[i];
            i += 1;
            // A long placeholder call may be broken as `name!(`, `k`, `);` on three lines.
            if (line.ends_with(&table_open) || line.ends_with(&comment_open))
                && i + 1 < lines.len()
                && lines[i].trim().parse::<usize>().is_ok()
                && lines[i + 1].trim() == ");"
            {
                joined = format!("{line}{});", lines[i].trim());
                line = &joined;
                i += 2;
            }
            let trimmed = line.trim_start();
            let own = &line[..line.len() - trimmed.len()];
            if let Some((head, k)) = placeholder_call(line, &p.table) {
                self.text(&pad)?;
                self.text(head)?;
                let table = &p.tables[k];
                if table.len() == 0 {
                    self.text("[];\n")?;
                    continue;
                }
                self.text("[\n")?;
                for i in 0..table.len() {
                    self.text(&pad)?;
                    self.text(own)?;
                    self.text("    ")?;
                    match table {
                        Table::Rows(rows) => self.row(&rows[i])?,
                        Table::Made { row, .. } => self.row(&row(i))?,
                    }
                    self.text("\n")?;
                }
                self.text(&pad)?;
                self.text(own)?;
                self.text("];\n")?;
                continue;
            }
            if !line.is_empty() {
                self.text(&pad)?;
            }
            match placeholder_call(trimmed, &p.comment) {
                Some(("", k)) => {
                    self.text(own)?;
                    self.text("// ")?;
                    self.text(&p.comments[k])?;
                }
                _ => self.text(line)?,
            }
            self.text("\n")?;
        }
        p.comments.clear();
        p.tables.clear();
        Ok(())
    }
}

/// `(text before, k)` when `line` ends in the placeholder call `name!(k);` (a table ends a
/// `static`; a comment is the whole trimmed line).
fn placeholder_call<'l>(line: &'l str, name: &str) -> Option<(&'l str, usize)> {
    let at = line.find(name)?;
    let rest = line[at + name.len()..].strip_prefix("!(")?;
    let k = rest.strip_suffix(");")?.parse::<usize>().ok()?;
    Some((&line[..at], k))
}

/// Whether a literal among `tokens` spans lines.
fn has_multiline_literal(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        proc_macro2::TokenTree::Literal(l) => l.to_string().contains('\n'),
        proc_macro2::TokenTree::Group(g) => has_multiline_literal(&g.stream()),
        _ => false,
    })
}
