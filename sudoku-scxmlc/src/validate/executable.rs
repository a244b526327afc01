//! Executable content (SCXML 1.0, section 4 and 6): `<raise>`, `<send>`, `<cancel>`, `<assign>`,
//! `<if>`, `<foreach>`, `<log>`, `<script>`, and `<donedata>`.

use super::code::{parse_code, CodeKind};
use super::{is_event_name, is_system_variable, Validator};
use crate::chart::DatamodelKind;
use crate::chart::{
    AssignValue, Block, Code, Content, Delay, DoneData, Exec, Location, LocationRoot, Param, Send,
    Value,
};
use crate::diagnostic::{Diagnostic, Span};
use crate::parse::{Attribute, Element};
use crate::runtime::parse_delay;

impl<'a> Validator<'a> {
    /// The executable content inside `e` (a transition, `<onentry>`, `<onexit>`, ...). `e`'s
    /// own attributes and children are not checked here: its caller checks them once
    /// ([`check_element`](Validator::check_element)), early enough to report them even when
    /// it gives up before the content.
    pub(super) fn block(&mut self, e: &Element, owner: String) -> Block {
        let body = self.exec_list(e.elements().filter(|c| c.is_scxml()).collect());
        Block {
            line: self.line(e.span),
            owner: owner.into_boxed_str(),
            body,
        }
    }

    pub(super) fn exec_list(&mut self, elements: Vec<&Element>) -> Vec<Exec> {
        let mut list: Vec<Exec> = elements.into_iter().filter_map(|c| self.exec(c)).collect();
        list.shrink_to_fit();
        list
    }

    pub(super) fn code_attr(&mut self, a: &Attribute, kind: CodeKind) -> Option<Code> {
        if self.datamodel == DatamodelKind::Null {
            self.diags.push(
                Diagnostic::error(
                    a.span,
                    format!(
                        "the null datamodel has no expressions, so `{}` cannot be used",
                        a.name
                    ),
                )
                .with_help("use datamodel=\"rust\""),
            );
            return None;
        }
        match self.chart_code(&a.value, a.span, kind) {
            Ok(c) => Some(c),
            Err(d) => {
                self.diags.push(d);
                None
            }
        }
    }

    /// A literal attribute or its `…expr` twin; both is an error.
    pub(super) fn value_pair(&mut self, e: &Element, literal: &str, expr: &str) -> Option<Value> {
        match (e.attr(literal), e.attr(expr)) {
            (Some(l), Some(x)) => {
                let _ = l;
                self.error(
                    x.name_span,
                    format!("`<{}>` has both `{literal}` and `{expr}`", e.name),
                );
                None
            }
            (Some(l), None) => Some(Value::Literal(l.value.to_string())),
            (None, Some(x)) => self.code_attr(x, CodeKind::Expr).map(Value::Expr),
            (None, None) => None,
        }
    }

    pub(super) fn location(&mut self, a: &Attribute) -> Option<Location> {
        #[cfg(feature = "ecmascript")]
        if self.datamodel == DatamodelKind::EcmaScript {
            return self.js_location(a);
        }
        let code = self.code_attr(a, CodeKind::Expr)?;
        let expr: syn::Expr = syn::parse2(code.tokens.clone()).ok()?;
        let (root, bare) = place_root(&expr);
        let Some(root) = root else {
            self.error(
                a.span,
                format!(
                    "`{}` is not a location: expected a `<data>` id, a field or an index of one",
                    a.value
                ),
            );
            return None;
        };
        let data = if is_system_variable(&root) {
            LocationRoot::SystemVariable
        } else if let Some(&d) = self.data_ids.get(&root) {
            LocationRoot::Data(d)
        } else {
            self.diags.push(
                Diagnostic::warning(
                    a.span,
                    format!(
                        "`{root}` is not a `<data>` id: using this location raises \
                         `error.execution` at run time"
                    ),
                )
                .with_help("declare it in a `<datamodel>`"),
            );
            LocationRoot::Undeclared
        };
        Some(Location { code, data, bare })
    }

    fn data_ref(&mut self, name: &str, span: Span) -> Option<usize> {
        match self.data_ids.get(name) {
            Some(&d) => Some(d),
            None => {
                self.error(span, format!("`{name}` is not a `<data>` id"));
                None
            }
        }
    }

    fn exec(&mut self, e: &Element) -> Option<Exec> {
        self.check_element(e);
        let line = self.line(e.span);
        let column = self.column(e.span);
        match e.name {
            "raise" => {
                let Some(a) = e.attr("event") else {
                    self.error(e.span, "`<raise>` needs an `event`");
                    return None;
                };
                if !is_event_name(&a.value) {
                    self.error(a.span, format!("`{}` is not a valid event name", a.value));
                    return None;
                }
                self.note_event(&a.value, a.span);
                Some(Exec::Raise {
                    event: a.value.to_string(),
                    line,
                    column,
                })
            }
            "send" => self.send(e).map(|s| Exec::Send(Box::new(s))),
            "cancel" => {
                let sendid = self.value_pair(e, "sendid", "sendidexpr");
                if sendid.is_none() && e.attr("sendid").is_none() && e.attr("sendidexpr").is_none()
                {
                    self.error(e.span, "`<cancel>` needs `sendid` or `sendidexpr`");
                }
                Some(Exec::Cancel {
                    sendid: sendid?,
                    line,
                    column,
                })
            }
            "assign" => {
                let Some(loc) = e.attr("location") else {
                    self.error(e.span, "`<assign>` needs a `location`");
                    return None;
                };
                let location = self.location(loc);
                let chart = e.elements().find(|c| c.is_scxml() && c.name == "scxml");
                let expr = if let Some(root) = chart {
                    self.chart_value(root).map(AssignValue::Expr)
                } else if let Some(xml) = self.assign_xml(e) {
                    xml
                } else {
                    match (
                        e.attr("expr"),
                        e.text().filter(|t| !t.text.trim().is_empty()),
                    ) {
                        (Some(x), None) => self.code_attr(x, CodeKind::Expr).map(AssignValue::Expr),
                        (None, Some(t)) if self.datamodel != DatamodelKind::Null => {
                            match self.chart_code(&t.text, t.span, CodeKind::Expr) {
                                Ok(c) => Some(AssignValue::Expr(c)),
                                Err(d) => {
                                    self.diags.push(d);
                                    None
                                }
                            }
                        }
                        (Some(_), Some(t)) => {
                            self.error(t.span, "`<assign>` has both `expr` and content");
                            None
                        }
                        _ => {
                            self.error(e.span, "`<assign>` needs an `expr`");
                            None
                        }
                    }
                };
                Some(Exec::Assign {
                    location: location?,
                    value: expr?,
                    line,
                    column,
                })
            }
            "if" => {
                let mut branches = Vec::new();
                let cond = match e.attr("cond") {
                    Some(c) => self.cond(c),
                    None => {
                        self.error(e.span, "`<if>` needs a `cond`");
                        None
                    }
                };
                let mut current: (Option<_>, Vec<&Element>) = (cond, Vec::new());
                let mut seen_else = false;
                for c in e.elements().filter(|c| c.is_scxml()) {
                    match c.name {
                        "elseif" | "else" => {
                            self.check_element(c);
                            if seen_else {
                                self.error(c.span, format!("`<{}>` after `<else>`", c.name));
                            }
                            let body = std::mem::take(&mut current.1);
                            branches.push((current.0.take(), self.exec_list(body)));
                            if c.name == "else" {
                                seen_else = true;
                                current.0 = None;
                            } else {
                                current.0 = match c.attr("cond") {
                                    Some(a) => self.cond(a),
                                    None => {
                                        self.error(c.span, "`<elseif>` needs a `cond`");
                                        None
                                    }
                                };
                            }
                        }
                        _ => current.1.push(c),
                    }
                }
                let body = std::mem::take(&mut current.1);
                branches.push((current.0, self.exec_list(body)));
                Some(Exec::If {
                    branches,
                    line,
                    column,
                })
            }
            #[cfg(feature = "ecmascript")]
            "foreach" if self.datamodel == DatamodelKind::EcmaScript => {
                self.js_foreach(e, line, column)
            }
            "foreach" => {
                let array = match e.attr("array") {
                    Some(a) => self.code_attr(a, CodeKind::Expr),
                    None => {
                        self.error(e.span, "`<foreach>` needs an `array`");
                        None
                    }
                };
                let item = match e.attr("item") {
                    Some(a) => self.data_ref(&a.value, a.span),
                    None => {
                        self.error(e.span, "`<foreach>` needs an `item`");
                        None
                    }
                };
                let index = match e.attr("index") {
                    Some(a) => Some(self.data_ref(&a.value, a.span)?),
                    None => None,
                };
                let body = self.exec_list(e.elements().filter(|c| c.is_scxml()).collect());
                Some(Exec::Foreach {
                    array: array?,
                    item: item?,
                    index,
                    body,
                    line,
                    column,
                })
            }
            "log" => {
                let expr = match e.attr("expr") {
                    Some(a) => Some(self.code_attr(a, CodeKind::Expr)?),
                    None => None,
                };
                let label = e
                    .attr("label")
                    .map(|a| a.value.to_string())
                    .unwrap_or_default();
                Some(Exec::Log {
                    label,
                    expr,
                    line,
                    column,
                })
            }
            "script" => self.script(e),
            other => {
                self.error(e.span, format!("`<{other}>` is not executable content"));
                None
            }
        }
    }

    /// A `<script>`: its text, or the file named by `src`, as Rust statements.
    pub(super) fn script(&mut self, e: &Element) -> Option<Exec> {
        let line = self.line(e.span);
        if self.datamodel == DatamodelKind::Null {
            self.diags.push(
                Diagnostic::error(e.span, "the null datamodel has no scripts")
                    .with_help("use datamodel=\"rust\""),
            );
            return None;
        }
        let text = e.text().filter(|t| !t.text.trim().is_empty());
        let code = match (e.attr("src"), text) {
            (Some(_), Some(t)) => {
                self.error(t.span, "`<script>` has both `src` and content");
                return None;
            }
            (Some(src), None) => {
                let text = self.read_included(src)?;
                match self.chart_code(&text, src.span, CodeKind::Statements) {
                    Ok(c) => c,
                    Err(d) => {
                        let at = self
                            .included_error_at(&src.value, &text, CodeKind::Statements)
                            .map_or_else(String::new, |at| format!(":{at}"));
                        let msg = format!("in `{}{at}`: {}", src.value, d.message);
                        self.error(src.span, msg);
                        return None;
                    }
                }
            }
            (None, Some(t)) => match self.chart_code(&t.text, t.span, CodeKind::Statements) {
                Ok(c) => c,
                Err(d) => {
                    self.diags.push(d);
                    return None;
                }
            },
            (None, None) => return None,
        };
        let mut code = code;
        code.line = line;
        Some(Exec::Script {
            code,
            line,
            column: self.column(e.span),
        })
    }

    /// The inline XML of an `<assign>` (a child element, in the ECMAScript datamodel): `None`
    /// when there is none, so that `expr` or text decides; `Some(None)` when it is reported
    /// wrong (beside `expr` or text, or more than one element).
    #[cfg(feature = "ecmascript")]
    fn assign_xml(&mut self, e: &Element) -> Option<Option<AssignValue>> {
        if self.datamodel != DatamodelKind::EcmaScript || e.elements().next().is_none() {
            return None;
        }
        if e.attr("expr").is_some() {
            self.error(
                e.span,
                "`<assign>` has both `expr` and content: XML content is the value",
            );
            return Some(None);
        }
        // XML content: a new DOM document at the location, as `<data>` makes one (B.2.2).
        Some(self.inline_xml(e).map(AssignValue::Xml))
    }

    /// Without the ECMAScript datamodel no `<assign>` holds XML.
    #[cfg(not(feature = "ecmascript"))]
    fn assign_xml(&mut self, _: &Element) -> Option<Option<AssignValue>> {
        None
    }

    fn params(&mut self, e: &Element) -> (Vec<Param>, Option<Content>) {
        let mut params = Vec::new();
        let mut content = None;
        for c in e.elements().filter(|c| c.is_scxml()) {
            self.check_element(c);
            match c.name {
                "param" => params.extend(self.param(c)),
                "content" => {
                    if content.is_some() {
                        self.error(c.span, "only one `<content>` is allowed");
                    }
                    content = match c.attr("expr") {
                        Some(x) => self.code_attr(x, CodeKind::Expr).map(Content::Expr),
                        #[cfg(feature = "ecmascript")]
                        None if self.datamodel == DatamodelKind::EcmaScript
                            && c.elements().next().is_some() =>
                        {
                            // XML content: a DOM document in `_event.data` (B.2.3).
                            self.inline_xml(c).map(Content::Xml)
                        }
                        None => Some(Content::Text(
                            c.text()
                                .map(|t| t.text.trim().to_owned())
                                .unwrap_or_default(),
                        )),
                    };
                }
                _ => {}
            }
        }
        if content.is_some() && !params.is_empty() {
            self.error(
                e.span,
                format!("`<{}>` cannot have both `<content>` and `<param>`", e.name),
            );
        }
        (params, content)
    }

    /// One `<param>` of `<send>`, `<invoke>` or `<donedata>`: `expr`, or a `location` read
    /// (an undeclared location fails at run time, SCXML 1.0, 5.4).
    pub(super) fn param(&mut self, c: &Element) -> Option<Param> {
        let Some(name) = c.attr("name") else {
            self.error(c.span, "`<param>` needs a `name`");
            return None;
        };
        let mut error = None;
        let expr = match (c.attr("expr"), c.attr("location")) {
            (Some(x), None) => self.code_attr(x, CodeKind::Expr),
            (None, Some(l)) => self.location(l).map(|loc| {
                // ECMAScript reads any expression; a name no script declares throws then.
                if loc.data == LocationRoot::Undeclared && self.datamodel == DatamodelKind::Rust {
                    error = Some(format!("`{}` is not a valid location", l.value));
                }
                loc.code
            }),
            (Some(_), Some(l)) => {
                self.error(l.name_span, "`<param>` has both `expr` and `location`");
                None
            }
            (None, None) => {
                self.error(c.span, "`<param>` needs `expr` or `location`");
                None
            }
        };
        let ty = match c.attr_ns(crate::parse::RUST_NS, "type") {
            Some(t) if self.datamodel == DatamodelKind::Rust => {
                match parse_code(self.src, &t.value, t.span, CodeKind::Type) {
                    Ok(code) => Some(code.into_parts().tokens),
                    Err(diag) => {
                        self.diags.push(diag);
                        None
                    }
                }
            }
            _ => None,
        };
        Some(Param {
            name: name.value.to_string(),
            expr: expr?,
            error,
            ty,
        })
    }

    pub(super) fn donedata(&mut self, e: &Element) -> DoneData {
        let (params, content) = self.params(e);
        DoneData {
            line: self.line(e.span),
            content,
            params,
        }
    }

    fn send(&mut self, e: &Element) -> Option<Send> {
        let line = self.line(e.span);
        let column = self.column(e.span);
        let event = self.value_pair(e, "event", "eventexpr");
        if let Some(Value::Literal(name)) = &event {
            if !is_event_name(name) {
                let span = e.attr("event").map_or(e.span, |a| a.span);
                self.error(span, format!("`{name}` is not a valid event name"));
                return None;
            }
            let span = e.attr("event").map_or(e.span, |a| a.span);
            self.note_event(&name.clone(), span);
        }
        let target = self.value_pair(e, "target", "targetexpr");
        if let (Some(Value::Literal(t)), Some(a)) = (&target, e.attr("target")) {
            if !t.starts_with("#_") {
                // SCXML 1.0, 6.2.4: legal to write, but it raises `error.execution` each time.
                self.diags.push(
                    Diagnostic::warning(
                        a.span,
                        format!(
                            "`{t}` is not a target of the SCXML event I/O processor: this \
                             `<send>` raises `error.execution` at run time"
                        ),
                    )
                    .with_help("targets are `#_internal`, `#_parent`, `#_scxml_SESSIONID` or `#_INVOKEID`; omit `target` to send to this machine"),
                );
            }
        }
        let type_ = self.value_pair(e, "type", "typeexpr");
        if e.attr("id").is_some() && e.attr("idlocation").is_some() {
            self.error(e.span, "`<send>` has both `id` and `idlocation`");
        }
        let id = e.attr("id").map(|a| a.value.to_string());
        let idlocation = match e.attr("idlocation") {
            Some(a) => Some(self.location(a)?),
            None => None,
        };
        let delay = match (e.attr("delay"), e.attr("delayexpr")) {
            (Some(_), Some(x)) => {
                self.error(x.name_span, "`<send>` has both `delay` and `delayexpr`");
                None
            }
            (Some(d), None) => match parse_delay(&d.value) {
                Ok(dur) => Some(Delay::Fixed(dur)),
                Err(err) => {
                    self.error(d.span, format!("invalid `delay`: {err}"));
                    None
                }
            },
            (None, Some(x)) => Some(Delay::Expr(self.code_attr(x, CodeKind::Expr)?)),
            (None, None) => None,
        };
        if matches!(&target, Some(Value::Literal(t)) if t == "#_internal") && delay.is_some() {
            self.error(e.span, "a `<send>` to `#_internal` cannot be delayed");
        }
        let (namelist, namelist_error) = self.namelist(e);
        let (params, content) = self.params(e);
        if content.is_some() && !namelist.is_empty() {
            self.error(
                e.span,
                "`<send>` cannot have both `namelist` and `<content>`",
            );
        }
        if event.is_none() && content.is_none() {
            // Both `event` and `eventexpr` was reported by `value_pair` already.
            if e.attr("event").is_none() && e.attr("eventexpr").is_none() {
                self.error(e.span, "`<send>` needs `event`, `eventexpr` or `<content>`");
            }
            return None;
        }
        Some(Send {
            event,
            target,
            type_,
            id,
            idlocation,
            delay,
            namelist,
            namelist_error,
            params,
            content,
            line,
            column,
        })
    }

    /// The `namelist` of `<send>` or `<invoke>`: the data indices, and why evaluating it
    /// must fail at run time when a name is not a `<data>` id (SCXML 1.0, 6.2.4: the
    /// processor raises `error.execution`), which the build also warns about.
    pub(super) fn namelist(&mut self, e: &Element) -> (Vec<usize>, Option<String>) {
        let mut namelist = Vec::new();
        let mut error = None;
        if let Some(n) = e.attr("namelist") {
            if self.datamodel == DatamodelKind::Null {
                self.error(n.span, "the null datamodel has no data for `namelist`");
            }
            for name in n.value.split_ascii_whitespace() {
                match self.data_ids.get(name) {
                    Some(&d) => namelist.push(d),
                    None => {
                        self.diags.push(
                            Diagnostic::warning(
                                n.span,
                                format!(
                                    "`{name}` is not a `<data>` id: evaluating this namelist \
                                     raises `error.execution` at run time"
                                ),
                            )
                            .with_help("declare it in a `<datamodel>`"),
                        );
                        error.get_or_insert_with(|| {
                            format!("`{name}` in namelist is not a `<data>` id")
                        });
                    }
                }
            }
        }
        (namelist, error)
    }
}

/// The identifier at the root of a place expression and whether the place is that bare
/// identifier.
fn place_root(expr: &syn::Expr) -> (Option<String>, bool) {
    fn walk(e: &syn::Expr) -> Option<String> {
        match e {
            syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
            syn::Expr::Field(f) => walk(&f.base),
            syn::Expr::Index(i) => walk(&i.expr),
            syn::Expr::Paren(p) => walk(&p.expr),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => walk(&u.expr),
            _ => None,
        }
    }
    let bare = matches!(expr, syn::Expr::Path(p) if p.path.get_ident().is_some());
    (walk(expr), bare)
}
