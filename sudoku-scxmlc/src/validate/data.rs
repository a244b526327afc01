//! The datamodel: every `<data>` of every `<datamodel>` (SCXML 1.0, 5.2–5.3), with the state
//! that declares it, its Rust type (`rs:type`) and how it gets its first value.

use super::code::{parse_code, CodeKind};
use super::{is_rust_ident, is_system_variable, Validator};
use crate::chart::{DataInit, DatamodelKind};
use crate::diagnostic::{Diagnostic, Span};
use crate::parse::{Attribute, Element, Text, RUST_NS};

impl<'a> Validator<'a> {
    /// The `<data>` items of `e` (state `state`) and of its descendant states (found by their
    /// element's offset: states are in document order).
    pub(super) fn collect_data(&mut self, e: &'a Element, state: usize) {
        for child in e.elements().filter(|c| c.is_scxml()) {
            match child.name {
                "datamodel" => {
                    self.check_element(child);
                    for d in child
                        .elements()
                        .filter(|c| c.is_scxml() && c.name == "data")
                    {
                        self.check_element(d);
                        self.data_item(d, state);
                    }
                }
                "state" | "parallel" | "final" => {
                    let index = self
                        .states
                        .binary_search_by_key(&child.span.start, |s| s.span.start)
                        .unwrap_or(state);
                    self.collect_data(child, index);
                }
                _ => {}
            }
        }
    }

    fn data_item(&mut self, d: &Element, state: usize) {
        let line = self.line(d.span);
        let Some(id) = d.attr("id") else {
            self.error(d.span, "`<data>` needs an `id`");
            return;
        };
        if self.datamodel == DatamodelKind::Null {
            self.diags.push(
                Diagnostic::error(d.span, "the null datamodel has no data")
                    .with_help("use datamodel=\"rust\" to declare `<data>`"),
            );
            return;
        }
        #[cfg(feature = "ecmascript")]
        if self.datamodel == DatamodelKind::EcmaScript {
            self.js_data_item(d, id, state);
            return;
        }
        if !is_rust_ident(&id.value)
            || id.value.starts_with("__")
            || is_system_variable(&id.value)
            || id.value == "In"
        {
            self.diags.push(
                Diagnostic::error(id.span, format!("data id `{}` is not usable as a Rust name", id.value))
                    .with_help("with datamodel=\"rust\", a `<data id>` is a Rust identifier (not a keyword, not starting with `__`, not `_event`, `_name`, `_sessionid`, `_ioprocessors` or `In`)"),
            );
            return;
        }
        if self.is_duplicate_data(id) {
            return;
        }
        let (ty, ty_text) = match d.attr_ns(RUST_NS, "type") {
            Some(t) => match parse_code(self.src, &t.value, t.span, CodeKind::Type) {
                Ok(code) => (Some(code.into_parts().tokens), Some(t.value.to_string())),
                Err(diag) => {
                    self.diags.push(diag);
                    return;
                }
            },
            None => (None, None),
        };
        let text = self.data_content(d, &id.value);
        let chart = d.elements().find(|c| c.is_scxml() && c.name == "scxml");
        let init = if let Some(root) = chart {
            self.chart_value(root)
                .map_or(DataInit::Default, DataInit::Expr)
        } else if let Some(expr) = d.attr("expr") {
            match self.chart_code(&expr.value, expr.span, CodeKind::Expr) {
                Ok(code) => DataInit::Expr(code),
                Err(diag) => {
                    self.diags.push(diag);
                    DataInit::Default
                }
            }
        } else if let Some(src) = d.attr("src") {
            match self.read_included(src) {
                Some(text) => self.json_init(&text, src.span, false),
                None => DataInit::Default,
            }
        } else if let Some(t) = text {
            self.json_init(&t.text, t.span, true)
        } else {
            DataInit::Default
        };
        self.add_data(crate::chart::Data {
            id: id.value.to_string(),
            ty,
            ty_text,
            init,
            state,
            line,
        });
    }

    /// Whether `id` names a `<data>` declared before (reported, with the first one's line).
    pub(super) fn is_duplicate_data(&mut self, id: &Attribute) -> bool {
        let Some(&first) = self.data_ids.get(&*id.value) else {
            return false;
        };
        let l = self.data[first].line;
        self.error(
            id.span,
            format!(
                "duplicate data id `{}` (first declared at line {l})",
                id.value
            ),
        );
        true
    }

    /// Declares a validated `<data>`.
    pub(super) fn add_data(&mut self, data: crate::chart::Data) {
        self.data_ids.insert(data.id.clone(), self.data.len());
        self.data.push(data);
    }

    /// The content of `<data id>` (its non-blank text), after checking that it has at most one
    /// of `expr`, `src` and content (SCXML 1.0, 5.3), in any datamodel.
    pub(super) fn data_content<'e>(&mut self, d: &Element<'e>, id: &str) -> Option<Text<'e>> {
        let text = d.text().filter(|t| !t.text.trim().is_empty());
        let sources = [
            d.attr("expr").is_some(),
            d.attr("src").is_some(),
            text.is_some(),
        ];
        if sources.iter().filter(|&&b| b).count() > 1 {
            self.error(
                d.span,
                format!("`<data id=\"{id}\">` has more than one of `expr`, `src` and content"),
            );
        }
        text
    }

    /// `text` as JSON data. `in_chart`: `text` is the decoded content found at `span` (an
    /// error is then located at its byte); else it is a file's, named by the attribute at
    /// `span` (an error is located there and gives the file's line and column).
    fn json_init(&mut self, text: &str, span: Span, in_chart: bool) -> DataInit {
        if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
            if in_chart && e.line() > 0 {
                // serde_json's column is 1-based, in bytes.
                let line_start: usize = text
                    .split_inclusive('\n')
                    .take(e.line() - 1)
                    .map(str::len)
                    .sum();
                let offset = (line_start + e.column().saturating_sub(1)).min(text.len());
                let message = e.to_string();
                let suffix = format!(" at line {} column {}", e.line(), e.column());
                let message = message.strip_suffix(&suffix).unwrap_or(&message);
                self.error(
                    crate::parse::source_span(self.src.text(), span, offset..offset + 1),
                    format!("data content is not valid JSON: {message}"),
                );
            } else {
                self.error(span, format!("data content is not valid JSON: {e}"));
            }
        }
        DataInit::Json(text.trim().to_owned())
    }
}
