//! `<invoke>` (SCXML 1.0, section 6.4) of SCXML children known at build time: an inline
//! `<content><scxml>…</scxml></content>` or a `src` file. The child is validated as a chart of
//! its own; the generator emits it into a module of the parent's generated file.

use super::code::CodeKind;
use super::{validate_root, Nesting, Validator, MAX_INVOKE_DEPTH};
use crate::chart::{Block, Chart, ChildChart, Code, Invoke, InvokeSource, Value};
use crate::diagnostic::{Diagnostic, Severity, SourceFile};
use crate::parse::{Attribute, Element};

impl<'a> Validator<'a> {
    /// Validates the `<invoke>` `e` of state `state` and its child chart.
    pub(super) fn invoke(&mut self, e: &Element, state: usize) -> Option<Invoke> {
        self.check_element(e);
        let line = self.line(e.span);
        let column = self.column(e.span);
        let type_ = self.value_pair(e, "type", "typeexpr");
        if let Some(Value::Literal(t)) = &type_ {
            if crate::runtime::__private::check_invoke_type(Some(t)).is_err() {
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
        let id = e.attr("id").map(|a| a.value.to_string());
        if let Some(a) = e.attr("id") {
            if let Some(first) = self
                .invokes
                .iter()
                .find(|i| i.id.as_deref() == Some(&a.value))
            {
                let l = first.line;
                self.error(
                    a.span,
                    format!("duplicate invoke id `{}` (first used at line {l})", a.value),
                );
            }
        }
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
            match c.name {
                "param" => params.extend(self.param(c)),
                "finalize" => {
                    if finalize.is_some() {
                        self.error(c.span, "only one `<finalize>` is allowed");
                    }
                    self.check_element(c);
                    let owner = format!("<finalize> of the <invoke> at line {line}");
                    finalize = Some(self.block(c, owner));
                }
                "content" => {
                    // Its child is a chart, not content of the rules table's kind:
                    // `child_inline` checks that.
                    self.check_attrs(c);
                    if content.is_some() {
                        self.error(c.span, "only one `<content>` is allowed");
                    }
                    content = Some(c);
                }
                _ => {}
            }
        }
        let source = match (e.attr("src"), e.attr("srcexpr"), content) {
            (Some(src), None, None) => {
                let child = self.child_from_file(src)?;
                InvokeSource::Child(self.add_child(child, line, None))
            }
            (None, None, Some(c)) => match c.attr("expr") {
                Some(x) => {
                    let code = self.code_attr(x, CodeKind::Expr)?;
                    self.load_registry(x.span);
                    InvokeSource::Expr(code)
                }
                None => {
                    let child = self.child_inline(c)?;
                    InvokeSource::Child(self.add_child(child, line, None))
                }
            },
            (None, Some(x), None) => {
                let code = self.code_attr(x, CodeKind::Expr)?;
                self.load_registry(x.span);
                InvokeSource::Expr(code)
            }
            (None, None, None) => {
                self.error(
                    e.span,
                    "`<invoke>` needs `src` or a `<content>` with a chart",
                );
                return None;
            }
            _ => {
                self.error(
                    e.span,
                    "`<invoke>` has more than one of `src`, `srcexpr` and `<content>`",
                );
                return None;
            }
        };
        Some(Invoke {
            state,
            line,
            column,
            type_,
            id,
            idlocation,
            namelist,
            namelist_error,
            params,
            autoforward,
            finalize,
            source,
        })
    }

    /// Adds a chart this one can invoke; returns its index in [`Chart::children`].
    fn add_child(&mut self, chart: Chart, line: u32, key: Option<String>) -> usize {
        self.children.push(ChildChart {
            module: format!("invoke_{}", self.children.len()),
            line,
            key,
            chart: Some(Box::new(chart)),
        });
        self.children.len() - 1
    }

    /// Compiles the charts registered with `Config::invocable`, once, for the run-time
    /// selection of `srcexpr` and `<content expr>`; their errors are reported at `span`.
    fn load_registry(&mut self, span: crate::diagnostic::Span) {
        if self.registry_loaded {
            return;
        }
        self.registry_loaded = true;
        if self.nesting.registry.is_empty() {
            self.diags.push(
                Diagnostic::warning(
                    span,
                    "no chart is registered for a run-time choice: this `<invoke>` raises \
                     `error.execution` whatever the expression's value",
                )
                .with_help("register the charts it may start with `Config::invocable(key, chart)` in build.rs"),
            );
        }
        for (uri, path) in self.nesting.registry {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    self.error(
                        span,
                        format!(
                            "cannot read `{}` (registered for `{uri}`): {e}",
                            path.display()
                        ),
                    );
                    continue;
                }
            };
            self.included_files.push(path.clone());
            let file = SourceFile::new(path, text.as_str());
            let parsed = crate::parse::parse(file.text());
            let nesting = Nesting {
                registry: &[],
                files: vec![path.clone()],
                depth: self.nesting.depth + 1,
                verbatim: self.nesting.verbatim,
                type_name: Some("Invoked"),
            };
            let (chart, diags) = match &parsed {
                Ok(doc) => validate_root(&doc.root, &doc.comments, &file, path.parent(), &nesting),
                Err(diags) => (None, diags.clone()),
            };
            match chart {
                Some(chart) => {
                    self.add_child(chart, self.line(span), Some(uri.clone()));
                }
                None => {
                    let what = format!("the chart registered for `{uri}`");
                    self.child_file_errors(span, &what, &file, &diags);
                }
            }
        }
    }

    /// An `<scxml>` held by `<assign>` or `<data>` (a chart value, SCXML 1.0, 5.3): compiled
    /// as a child, and the value the datamodel holds is its key, which
    /// `<invoke><content expr>` selects it by.
    pub(super) fn chart_value(&mut self, root: &Element) -> Option<Code> {
        let line = self.line(root.span);
        let nesting = self.nested(root.span, None)?;
        let (chart, diags) = validate_root(root, self.comments, self.src, self.base_dir, &nesting);
        self.diags.extend(diags);
        self.omitted_warnings += chart.as_ref().map_or(0, |c| c.omitted_warnings);
        let key = format!("inline-chart:{line}");
        self.add_child(chart?, line, Some(key.clone()));
        Some(Code::new(crate::chart::CodeParts {
            text: format!("{key:?}"),
            line,
            column: self.column(root.span),
            tokens: quote::quote!(::std::string::String::from(#key)),
            idents: Vec::new(),
        }))
    }

    /// `<content><scxml>…</scxml></content>`: the child shares this chart's file.
    fn child_inline(&mut self, content: &Element) -> Option<crate::chart::Chart> {
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
        let nesting = self.nested(root.span, None)?;
        let (chart, diags) = validate_root(root, self.comments, self.src, self.base_dir, &nesting);
        self.diags.extend(diags);
        self.omitted_warnings += chart.as_ref().map_or(0, |c| c.omitted_warnings);
        chart
    }

    /// The nesting of a chart this one invokes (from `file`, when it has a file of its own),
    /// or an error at `span` when that would be too deep or a cycle of `src` files.
    fn nested(
        &mut self,
        span: crate::diagnostic::Span,
        file: Option<&std::path::Path>,
    ) -> Option<Nesting<'a>> {
        if self.nesting.depth + 1 > MAX_INVOKE_DEPTH {
            self.error(
                span,
                format!("invoked charts nest more than {MAX_INVOKE_DEPTH} levels deep"),
            );
            return None;
        }
        let mut files = self.nesting.files.clone();
        if let Some(file) = file {
            let canonical =
                |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            let me = canonical(file);
            if files.iter().any(|f| canonical(f) == me) {
                let chain: Vec<String> = files
                    .iter()
                    .chain(std::iter::once(&file.to_path_buf()))
                    .map(|f| f.display().to_string())
                    .collect();
                self.error(
                    span,
                    format!(
                        "the charts invoke each other in a cycle: {}",
                        chain.join(" → ")
                    ),
                );
                return None;
            }
            files.push(file.to_path_buf());
        }
        Some(Nesting {
            registry: self.nesting.registry,
            files,
            depth: self.nesting.depth + 1,
            verbatim: self.nesting.verbatim,
            type_name: Some("Invoked"),
        })
    }

    /// `src="child.scxml"` (or `file:child.scxml`), relative to this chart.
    fn child_from_file(&mut self, src: &Attribute) -> Option<crate::chart::Chart> {
        let text = self.read_included(src)?;
        let path = self
            .base_dir?
            .join(super::files::local_path(&src.value).ok()?);
        let file = SourceFile::new(&path, text.as_str());
        let document = match crate::parse::parse(file.text()) {
            Ok(d) => d,
            Err(diags) => {
                self.child_file_errors(
                    src.span,
                    &format!("the invoked chart `{}`", src.value),
                    &file,
                    &diags,
                );
                return None;
            }
        };
        let nesting = self.nested(src.span, Some(&path))?;
        let (chart, diags) = validate_root(
            &document.root,
            &document.comments,
            &file,
            path.parent(),
            &nesting,
        );
        if chart.is_none() {
            self.child_file_errors(
                src.span,
                &format!("the invoked chart `{}`", src.value),
                &file,
                &diags,
            );
        } else {
            let mut warnings: String = diags
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .map(|d| file.render(d))
                .collect();
            let omitted = chart.as_ref().map_or(0, |c| c.omitted_warnings);
            if omitted > 0 {
                warnings.push_str(&format!(
                    "{}: … and {omitted} more warnings not shown\n",
                    file.path().display()
                ));
            }
            if !warnings.is_empty() {
                self.diags.push(Diagnostic::warning(
                    src.span,
                    format!(
                        "the invoked chart `{}` has warnings:\n{warnings}",
                        src.value
                    ),
                ));
            }
        }
        chart
    }

    /// The errors of a child chart of its own file (`what`), rendered with that file's
    /// snippets, as one error at `span` of this chart.
    fn child_file_errors(
        &mut self,
        span: crate::diagnostic::Span,
        what: &str,
        file: &SourceFile,
        diags: &[Diagnostic],
    ) {
        let rendered: String = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| file.render(d))
            .collect();
        self.error(span, format!("{what} has errors:\n{rendered}"));
    }
}
