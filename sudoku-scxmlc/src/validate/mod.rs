//! Stage 2: [`Document`] → [`Chart`]. Checks everything a chart can get wrong and reports every
//! problem with its location instead of stopping at the first: namespace and version, allowed
//! children and attributes, unique ids, resolvable targets, initial and history rules,
//! event-descriptor syntax, and (for `datamodel="rust"`) the syntax of every piece of Rust code.

mod code;
mod cycles;
mod data;
#[cfg(feature = "ecmascript")]
mod ecmascript;
mod executable;
mod files;
mod ids;
mod initial;
mod invoke;
mod names;
mod payloads;
mod reachability;
mod rules;
mod states;
mod syntax;
mod walk;
#[cfg(feature = "ecmascript")]
mod xml_content;

use crate::chart::{Block, Chart, Cond, DatamodelKind, State, Transition};
use crate::diagnostic::{Diagnostic, Severity, SourceFile, Span, MAX_RENDERED};
use crate::parse::{Attribute, Comments, Document, Element, RUST_NS, SCXML_NS};
pub(crate) use code::is_rust_ident;
use code::CodeKind;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use syntax::parse_in_predicate;
pub(crate) use syntax::{is_event_name, is_system_variable};
use walk::{count_states, for_each_state};

/// Validates a parsed chart. `base_dir` resolves `src` attributes; without it they are errors.
///
/// Returns the chart when there is no error, and every diagnostic (warnings included), in
/// source order.
///
/// `registry` lists the charts (key, file) that `srcexpr` and `<content expr>` may select at
/// run time (`Config::invocable`); `names` are the naming options of `Config`.
/// The document is taken and dropped as soon as the chart is built: the chart's later checks
/// (and its implicit initial transitions) do without it (docs/scale.md, "Compiler memory").
pub fn validate(
    doc: Document<'_>,
    src: &SourceFile,
    base_dir: Option<&Path>,
    registry: &[(String, PathBuf)],
    names: NameOptions<'_>,
) -> (Option<Chart>, Vec<Diagnostic>) {
    let nesting = Nesting {
        registry,
        files: vec![src.path().to_path_buf()],
        depth: 0,
        verbatim: names.verbatim_state_names,
        type_name: names.type_name,
    };
    let built = build_root(&doc.root, &doc.comments, src, base_dir, &nesting);
    drop(doc);
    let (chart, mut diags) = finish(built);
    // In source order, as a reader goes through the chart (the checks run in their own
    // order, inline child charts inside their parent's): stable, so diagnostics at one place
    // keep the order they were found in.
    diags.sort_by_key(|d| d.span.start);
    (chart, diags)
}

/// How `Config` asks for Rust names to be chosen.
#[derive(Debug, Clone, Copy, Default)]
pub struct NameOptions<'a> {
    /// `Config::verbatim_state_names`.
    pub verbatim_state_names: bool,
    /// `Config::type_name` (children are always `Invoked`).
    pub type_name: Option<&'a str>,
}

/// How deeply `<invoke>`d charts may nest inside one another (inline or by `src`).
pub const MAX_INVOKE_DEPTH: usize = 32;

/// Where a chart sits among the charts that invoke it.
#[derive(Debug, Clone)]
pub(crate) struct Nesting<'a> {
    /// The charts `srcexpr` and `<content expr>` may select (`Config::invocable`).
    registry: &'a [(String, PathBuf)],
    /// The files of the invoking charts, outermost first, this chart's last: a `src` that
    /// names one of them is a cycle.
    files: Vec<PathBuf>,
    /// How many invokes deep this chart is.
    depth: usize,
    /// `Config::verbatim_state_names`.
    verbatim: bool,
    /// The machine type's name, when not derived from the chart's name.
    type_name: Option<&'a str>,
}

/// Validates the chart whose `<scxml>` element is `root` (the document's root, or an inline
/// child chart of an `<invoke>`).
fn validate_root(
    root: &Element,
    comments: &Comments<'_>,
    src: &SourceFile,
    base_dir: Option<&Path>,
    nesting: &Nesting<'_>,
) -> (Option<Chart>, Vec<Diagnostic>) {
    finish(build_root(root, comments, src, base_dir, nesting))
}

/// A chart as the document's walk leaves it: what [`finish`] completes.
struct Built {
    chart: Option<Chart>,
    diags: Vec<Diagnostic>,
    /// The compound states (and root) that start in their first child state, in index order
    /// (`Validator::implicit_initials`).
    implicit_initials: Vec<u32>,
}

/// Walks the document of the chart whose `<scxml>` element is `root`: every check that reads
/// it, and the chart without the implicit initial transitions.
fn build_root(
    root: &Element,
    comments: &Comments<'_>,
    src: &SourceFile,
    base_dir: Option<&Path>,
    nesting: &Nesting<'_>,
) -> Built {
    let mut v = Validator {
        src,
        comments,
        base_dir,
        nesting,
        registry_loaded: false,
        children: Vec::new(),
        diags: Vec::new(),
        states: Vec::new(),
        rs_names: Vec::new(),
        ids: ids::StateIds::default(),
        invalid_id_words: HashSet::new(),
        transitions: Vec::new(),
        datamodel: DatamodelKind::Null,
        data: Vec::new(),
        data_ids: HashMap::new(),
        event_names: Vec::new(),
        included_files: Vec::new(),
        invokes: Vec::new(),
        omitted_warnings: 0,
        implicit_initials: Vec::new(),
    };
    let chart = v.run(root);
    Built {
        chart,
        diags: v.diags,
        implicit_initials: v.implicit_initials,
    }
}

/// Completes a chart built from its document: its implicit initial transitions, then the
/// checks of the whole chart (warnings only for a chart without errors: they would mostly
/// echo the errors; past the ones rendered, they are only counted).
fn finish(built: Built) -> (Option<Chart>, Vec<Diagnostic>) {
    let Built {
        chart,
        mut diags,
        implicit_initials,
    } = built;
    let has_error = diags.iter().any(|d| d.severity == Severity::Error);
    let Some(mut chart) = chart.filter(|_| !has_error) else {
        return (None, diags);
    };
    initial::add_implicit_initials(&mut chart, &implicit_initials);
    drop(implicit_initials);
    let found = diags.iter().filter(|d| d.severity == Severity::Warning);
    let mut warnings = reachability::Warnings::new(MAX_RENDERED.saturating_sub(found.count()));
    reachability::warnings(&chart, &mut warnings);
    for d in cycles::warnings(&chart) {
        warnings.push(|| d);
    }
    diags.extend(warnings.kept);
    chart.omitted_warnings += warnings.omitted;
    (Some(chart), diags)
}

pub(crate) struct Validator<'a> {
    src: &'a SourceFile<'a>,
    /// The comments of the document `root` is in.
    comments: &'a Comments<'a>,
    base_dir: Option<&'a Path>,
    nesting: &'a Nesting<'a>,
    registry_loaded: bool,
    children: Vec<crate::chart::ChildChart>,
    diags: Vec<Diagnostic>,
    states: Vec<State>,
    /// The states' `rs:name` attributes, by state index in increasing order.
    rs_names: Vec<(u32, &'a Attribute<'a>)>,
    ids: ids::StateIds,
    /// The words of state ids refused for holding white space.
    invalid_id_words: HashSet<String>,
    transitions: Vec<Transition>,
    datamodel: DatamodelKind,
    data: Vec<crate::chart::Data>,
    data_ids: HashMap<String, usize>,
    event_names: Vec<(String, u32, Span)>,
    included_files: Vec<PathBuf>,
    invokes: Vec<crate::chart::Invoke>,
    /// Warnings of inline child charts counted but not kept (`Chart::omitted_warnings`).
    omitted_warnings: usize,
    /// The root and compound states without `initial` or `<initial>`, in index order: their
    /// initial transition (to the first child state) is made once the document is gone
    /// (`initial::add_implicit_initials`); a big chart has hundreds of thousands of them.
    implicit_initials: Vec<u32>,
}

impl<'a> Validator<'a> {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, message));
    }

    fn line(&self, span: Span) -> u32 {
        self.src.line(span.start as usize)
    }

    /// The chart span of bytes `range` of `attr`'s decoded value (through its references).
    /// A value without references is its chart text: sliced directly (a value of many words
    /// is located word by word, which a scan per word would make quadratic).
    fn value_span(&self, attr: &Attribute, range: std::ops::Range<usize>) -> Span {
        match attr.value {
            std::borrow::Cow::Borrowed(_) => attr.span.slice(range),
            std::borrow::Cow::Owned(_) => {
                crate::parse::source_span(self.src.text(), attr.span, range)
            }
        }
    }

    /// 1-based column of a span's start, in characters, for the error sites of executable
    /// content; in bytes past 4 KiB into a line, so a huge one-line chart stays linear.
    fn column(&self, span: Span) -> u32 {
        self.src.column_bounded(span.start as usize, 4096)
    }

    fn run(&mut self, root: &'a Element) -> Option<Chart> {
        if root.name != "scxml" || !root.is_scxml() {
            self.error(
                root.span,
                format!(
                    "the root element must be `<scxml xmlns=\"{SCXML_NS}\">`, found `<{}>`",
                    root.name
                ),
            );
            return None;
        }
        self.check_element(root);
        match root.attr("version") {
            Some(v) if v.value == "1.0" => {}
            Some(v) => self.error(
                v.span,
                format!("unsupported SCXML version `{}`; expected `1.0`", v.value),
            ),
            None => self.error(root.span, "`<scxml>` needs `version=\"1.0\"`"),
        }
        self.datamodel = match root.attr("datamodel").map(|a| (&*a.value, a.span)) {
            None | Some(("null", _)) => DatamodelKind::Null,
            Some(("rust", _)) => DatamodelKind::Rust,
            #[cfg(feature = "ecmascript")]
            Some(("ecmascript", _)) => DatamodelKind::EcmaScript,
            #[cfg(not(feature = "ecmascript"))]
            Some(("ecmascript", span)) => {
                self.diags.push(
                    Diagnostic::error(span, "this build of sudoku-scxmlc has no ECMAScript datamodel")
                        .with_help("enable the `ecmascript` feature of the sudoku-scxmlc build-dependency (it is on by default)"),
                );
                return None;
            }
            Some((other, span)) => {
                self.diags.push(
                    Diagnostic::error(span, format!("the `{other}` datamodel is not supported"))
                        .with_help("sudoku-scxmlc implements datamodel=\"null\", datamodel=\"rust\" and datamodel=\"ecmascript\"; port the chart's expressions to Rust"),
                );
                return None;
            }
        };
        if let Some(b) = root.attr("binding") {
            if b.value != "early" && b.value != "late" {
                self.error(
                    b.span,
                    format!("`binding` must be `early` or `late`, not `{}`", b.value),
                );
            }
        }
        let late_binding = root.attr("binding").is_some_and(|b| b.value == "late");
        let name = root
            .attr("name")
            .map(|a| a.value.to_string())
            .unwrap_or_else(|| {
                self.src
                    .path()
                    .file_stem()
                    .map_or("Chart".into(), |s| s.to_string_lossy().into_owned())
            });

        // Pass 1: number the states in document order, check ids. The tables are sized
        // first: grown by doubling, they took twice the memory of a big chart's states.
        let (n_states, n_transitions, n_implicit) = count_states(root);
        self.implicit_initials.reserve_exact(n_implicit);
        self.states.reserve_exact(n_states);
        self.ids.reserve(&self.states, n_states);
        self.transitions.reserve_exact(n_transitions);
        self.collect_state(root, None);
        if self.states.len() == 1 {
            // Qt Creator's template for a new chart: valid SCXML (3.2: zero or more states).
            self.diags.push(
                Diagnostic::warning(root.span, "the chart has no states: its machine starts, has an empty configuration and never changes")
                    .with_help("add a `<state>`, `<parallel>` or `<final>`"),
            );
        }
        // Datamodel: every <datamodel> anywhere, each item with the state that declares it.
        self.collect_data(root, 0);
        // Pass 2: transitions, initial, history, executable content.
        for_each_state(root, &mut 0, &mut |index, e| self.resolve_state(index, e));
        let script = self.top_level_script(root);
        let declared_events = self.declared_events(root);
        // Every target and `In(id)` is resolved: the id table goes before the names come.
        self.ids = ids::StateIds::default();
        self.assign_state_names();
        let event_consts = self.event_consts();
        let event_variants = self.event_variants();
        let type_name = self.type_name(&name, root.attr("name"));
        let mut chart = Chart {
            type_name,
            source_hash: self.src.fingerprint(),
            event_consts,
            event_variants,
            declared_events,
            name,
            file: self.src.path().display().to_string(),
            datamodel: self.datamodel,
            states: std::mem::take(&mut self.states),
            transitions: std::mem::take(&mut self.transitions),
            data: std::mem::take(&mut self.data),
            script,
            late_binding,
            invokes: std::mem::take(&mut self.invokes),
            children: std::mem::take(&mut self.children),
            event_names: std::mem::take(&mut self.event_names),
            included_files: std::mem::take(&mut self.included_files),
            event_payloads: Vec::new(),
            omitted_warnings: self.omitted_warnings,
        };
        let (payloads, diags) = payloads::payloads(&chart);
        self.diags.extend(diags);
        chart.event_payloads = payloads;
        Some(chart)
    }

    /// Checks attributes and children of an element against the rules table, recursively for
    /// elements that are not states (states are checked when collected).
    fn check_element(&mut self, e: &Element) {
        let Some((_, children)) = rules::rules(e.name) else {
            return;
        };
        self.check_attrs(e);
        self.check_children(e, children);
    }

    /// Checks the attributes of `e` (an element of the rules table) against the table.
    fn check_attrs(&mut self, e: &Element) {
        let Some((attrs, _)) = rules::rules(e.name) else {
            return;
        };
        for a in &e.attrs {
            match a.namespace() {
                None if !attrs.contains(&a.name) => self.error(
                    a.name_span,
                    format!("`<{}>` has no attribute `{}`", e.name, a.name),
                ),
                Some(RUST_NS)
                    if !matches!(
                        (e.name, a.name),
                        ("data" | "param", "type") | ("state" | "parallel" | "final", "name")
                    ) =>
                {
                    self.error(
                        a.name_span,
                        format!("unknown attribute `rs:{}` on `<{}>`", a.name, e.name),
                    );
                }
                Some(ns) if ns.starts_with("unknown-prefix:") => {
                    let prefix = &ns["unknown-prefix:".len()..];
                    self.diags.push(undeclared_prefix(
                        a.name_span,
                        format!("attribute `{prefix}:{}`", a.name),
                        prefix,
                    ));
                }
                _ => {}
            }
        }
    }

    /// Checks the children of `e` against `children`, the ones the rules table allows it.
    fn check_children(&mut self, e: &Element, children: &[&str]) {
        for child in e.elements() {
            if !child.is_scxml() {
                if let Some(prefix) = child
                    .namespace
                    .as_deref()
                    .and_then(|n| n.strip_prefix("unknown-prefix:"))
                {
                    self.diags.push(undeclared_prefix(
                        child.span,
                        format!("`<{prefix}:{}>`", child.name),
                        prefix,
                    ));
                }
                continue; // elements of other namespaces are ignored (SCXML 1.0, 3.1)
            }
            // ECMAScript: the XML content of `<data>`, `<content>` and `<assign>` is any XML
            // (B.2.2).
            let xml_content = self.datamodel == DatamodelKind::EcmaScript
                && matches!(e.name, "data" | "content" | "assign");
            if !children.contains(&child.name) && !xml_content {
                let known = rules::rules(child.name).is_some();
                let message = if known {
                    format!("`<{}>` is not allowed inside `<{}>`", child.name, e.name)
                } else {
                    format!("`<{}>` is not an SCXML element", child.name)
                };
                let mut d = Diagnostic::error(child.span, message);
                // A misspelt child: the closest one allowed here.
                if !known {
                    if let Some(best) = children
                        .iter()
                        .map(|c| (states::edit_distance(c, child.name), *c))
                        .filter(|&(d, c)| d <= 2.max(c.len() / 3))
                        .min()
                    {
                        d = d.with_help(format!("did you mean `<{}>`?", best.1));
                    }
                }
                self.diags.push(d);
            }
        }
        if e.name == "content" && e.attr("expr").is_some() && e.elements().next().is_some() {
            self.error(e.span, "`<content>` has both `expr` and children");
        }
        if !["script", "data", "content", "assign", "log"].contains(&e.name) {
            if let Some(t) = e.text().filter(|t| !t.text.trim().is_empty()) {
                self.error(t.span, format!("`<{}>` cannot contain text", e.name));
            }
        }
    }

    /// The `<rs:event name="..." type="..."/>` children of `<scxml>`: what the events carry.
    /// Each name is noted as an event the chart uses.
    fn declared_events(&mut self, root: &Element) -> Vec<crate::chart::DeclaredEvent> {
        let mut declared: Vec<crate::chart::DeclaredEvent> = Vec::new();
        for e in root.elements() {
            if e.namespace() != Some(RUST_NS) {
                continue;
            }
            if e.name != "event" {
                self.error(
                    e.span,
                    format!(
                        "`<rs:{}>` is not an element of the rust datamodel (`<rs:event>` is)",
                        e.name
                    ),
                );
                continue;
            }
            if self.datamodel != DatamodelKind::Rust && e.attr("type").is_some() {
                self.error(e.span, "`<rs:event type>` needs `datamodel=\"rust\"`");
                continue;
            }
            for a in &e.attrs {
                if a.namespace.is_some() || !["name", "type"].contains(&a.name) {
                    self.error(
                        a.name_span,
                        format!("`<rs:event>` has no attribute `{}`", a.name),
                    );
                }
            }
            let Some(name) = e.attr("name") else {
                self.error(e.span, "`<rs:event>` needs a `name`");
                continue;
            };
            if !is_event_name(&name.value) {
                self.error(name.span, format!("`{}` is not an event name", name.value));
                continue;
            }
            if declared.iter().any(|d| d.name == name.value) {
                self.error(
                    name.span,
                    format!("event `{}` is declared twice", name.value),
                );
                continue;
            }
            let (ty, ty_text) = match e.attr("type") {
                Some(t) => match code::parse_code(self.src, &t.value, t.span, CodeKind::Type) {
                    Ok(code) => (Some(code.into_parts().tokens), Some(t.value.to_string())),
                    Err(diag) => {
                        self.diags.push(diag);
                        continue;
                    }
                },
                None => (None, None),
            };
            self.note_event(&name.value, name.span);
            declared.push(crate::chart::DeclaredEvent {
                name: name.value.to_string(),
                ty,
                ty_text,
                span: e.span,
            });
        }
        declared
    }

    fn note_event(&mut self, name: &str, span: Span) {
        if !self.event_names.iter().any(|(n, _, _)| n == name) {
            let line = self.line(span);
            self.event_names.push((name.to_owned(), line, span));
        }
    }

    pub(crate) fn cond(&mut self, attr: &Attribute) -> Option<Cond> {
        match self.datamodel {
            DatamodelKind::Null => match parse_in_predicate(&attr.value) {
                Some(id) => match self.ids.get(&self.states, id) {
                    Some(s) => Some(Cond::In(s)),
                    None => {
                        self.error(attr.span, format!("`In({id})`: `{id}` is not a state id"));
                        None
                    }
                },
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            attr.span,
                            format!(
                                "the null datamodel only has `In(state)` conditions, not `{}`",
                                attr.value
                            ),
                        )
                        .with_help("use datamodel=\"rust\" for other conditions"),
                    );
                    None
                }
            },
            DatamodelKind::Rust | DatamodelKind::EcmaScript => {
                match self.chart_code(&attr.value, attr.span, CodeKind::Expr) {
                    Ok(code) => Some(Cond::Rust(code)),
                    Err(d) => {
                        self.diags.push(d);
                        None
                    }
                }
            }
        }
    }

    fn top_level_script(&mut self, root: &'a Element) -> Option<Block> {
        let scripts: Vec<&Element> = root
            .elements()
            .filter(|c| c.is_scxml() && c.name == "script")
            .collect();
        let first = scripts.first()?;
        let mut body = Vec::new();
        for s in &scripts {
            self.check_element(s);
            if let Some(exec) = self.script(s) {
                body.push(exec);
            }
        }
        Some(Block {
            line: self.line(first.span),
            owner: "top-level <script>".into(),
            body,
        })
    }
}

/// The error for an attribute or element whose namespace prefix no `xmlns:` declares; for
/// `rs:` the help names the declaration this compiler's attributes need.
fn undeclared_prefix(span: Span, what: String, prefix: &str) -> Diagnostic {
    let error = Diagnostic::error(
        span,
        format!("{what} uses the undeclared namespace prefix `{prefix}`"),
    );
    if prefix == "rs" {
        error.with_help(format!("declare it on `<scxml>`: xmlns:rs=\"{RUST_NS}\""))
    } else {
        error.with_help(format!(
            "declare it on `<scxml>` or an ancestor: xmlns:{prefix}=\"...\""
        ))
    }
}
