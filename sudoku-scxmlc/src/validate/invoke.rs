//! `<invoke>` (SCXML 1.0, section 6.4) of SCXML children known at build time: an inline
//! `<content><scxml>…</scxml></content>` or a `src` file. The child is validated as a chart of
//! its own; the generator emits it into a module of the parent's generated file.

use super::{validate_root, Validator};
use crate::chart::{Block, Invoke, Value};
use crate::diagnostic::{Diagnostic, Severity, SourceFile};
use crate::parse::{Attribute, Element};

impl Validator<'_> {
    /// Validates the `<invoke>` `e` of state `state` and its child chart.
    pub(super) fn invoke(&mut self, e: &Element, state: usize) -> Option<Invoke> {
        self.check_element(e);
        let line = self.line(e.span);
        let type_ = self.value_pair(e, "type", "typeexpr");
        if let Some(Value::Literal(t)) = &type_ {
            if crate::runtime::check_invoke_type(Some(t)).is_err() {
                let span = e.attr("type").map_or(e.span, |a| a.span);
                self.diags.push(
                    Diagnostic::error(span, format!("`<invoke type=\"{t}\">` is not supported"))
                        .with_help("sudoku-scxmlc invokes SCXML charts: omit `type` or use `http://www.w3.org/TR/scxml/`"),
                );
            }
        }
        if e.attr("id").is_some() && e.attr("idlocation").is_some() {
            self.error(e.span, "`<invoke>` has both `id` and `idlocation`");
        }
        let id = e.attr("id").map(|a| a.value.clone());
        let idlocation = match e.attr("idlocation") {
            Some(a) => Some(self.location(a)?),
            None => None,
        };
        let autoforward = match e.attr("autoforward") {
            None => false,
            Some(a) if a.value == "true" => true,
            Some(a) if a.value == "false" => false,
            Some(a) => {
                self.error(
                    a.span,
                    format!("`autoforward` must be `true` or `false`, not `{}`", a.value),
                );
                false
            }
        };
        let (namelist, namelist_error) = self.namelist(e);
        let mut params = Vec::new();
        let mut finalize: Option<Block> = None;
        let mut content: Option<&Element> = None;
        for c in e.elements().filter(|c| c.is_scxml()) {
            match c.name.as_str() {
                "param" => params.extend(self.param(c)),
                "finalize" => {
                    if finalize.is_some() {
                        self.error(c.span, "only one `<finalize>` is allowed");
                    }
                    let owner = format!("<finalize> of the <invoke> at line {line}");
                    finalize = Some(self.block(c, owner));
                }
                "content" => {
                    if content.is_some() {
                        self.error(c.span, "only one `<content>` is allowed");
                    }
                    content = Some(c);
                }
                _ => {}
            }
        }
        let child = match (e.attr("src"), e.attr("srcexpr"), content) {
            (Some(src), None, None) => self.child_from_file(src),
            (None, None, Some(c)) => self.child_inline(c),
            (None, Some(x), None) => {
                self.diags.push(
                    Diagnostic::error(
                        x.span,
                        "`srcexpr` is not supported: the child chart must be known at build time",
                    )
                    .with_help("name the chart with `src` or put it inline in `<content>`"),
                );
                None
            }
            (None, None, None) => {
                self.error(
                    e.span,
                    "`<invoke>` needs `src` or a `<content>` with a chart",
                );
                None
            }
            _ => {
                self.error(
                    e.span,
                    "`<invoke>` has more than one of `src`, `srcexpr` and `<content>`",
                );
                None
            }
        }?;
        let module = format!("invoke_{}", self.invokes.len());
        Some(Invoke {
            state,
            line,
            type_,
            id,
            idlocation,
            namelist,
            namelist_error,
            params,
            autoforward,
            finalize,
            child: Some(Box::new(child)),
            module,
        })
    }

    /// `<content><scxml>…</scxml></content>`: the child shares this chart's file.
    fn child_inline(&mut self, content: &Element) -> Option<crate::chart::Chart> {
        if let Some(x) = content.attr("expr") {
            self.diags.push(
                Diagnostic::error(
                    x.span,
                    "`<content expr>` is not supported in `<invoke>`: the child chart must be known at build time",
                )
                .with_help("put the chart inline in `<content>` or name it with `src`"),
            );
            return None;
        }
        let charts: Vec<&Element> = content
            .elements()
            .filter(|c| c.is_scxml() && c.name == "scxml")
            .collect();
        let [root] = charts.as_slice() else {
            self.error(
                content.span,
                "the `<content>` of an `<invoke>` must hold exactly one `<scxml>` chart",
            );
            return None;
        };
        let (chart, diags) = validate_root(root, self.src, self.base_dir);
        self.diags.extend(diags);
        chart
    }

    /// `src="child.scxml"` (or `file:child.scxml`), relative to this chart.
    fn child_from_file(&mut self, src: &Attribute) -> Option<crate::chart::Chart> {
        let text = self.read_included(src)?;
        let relative = src.value.strip_prefix("file:").unwrap_or(&src.value);
        let path = self.base_dir?.join(relative);
        let file = SourceFile::new(&path, text.as_str());
        let document = match crate::parse::parse(&text) {
            Ok(d) => d,
            Err(diags) => {
                self.child_file_errors(src, &file, &diags);
                return None;
            }
        };
        let (chart, diags) = validate_root(&document.root, &file, path.parent());
        if chart.is_none() {
            self.child_file_errors(src, &file, &diags);
        }
        chart
    }

    /// The errors of a `src` child, rendered with that file's snippets, on the `src`
    /// attribute of this chart.
    fn child_file_errors(&mut self, src: &Attribute, file: &SourceFile, diags: &[Diagnostic]) {
        let rendered: String = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| file.render(d))
            .collect();
        self.error(
            src.span,
            format!("the invoked chart `{}` has errors:\n{rendered}", src.value),
        );
    }
}
