//! The chart's states and transitions as the validator collects them from the document:
//! state indices in document order, `initial` and transition targets resolved against the
//! ids (with a suggestion for a misspelt one), and each `<transition>`'s event descriptors,
//! `cond` and executable content.

use super::syntax::{is_event_descriptor, is_xml_id};
use super::Validator;
use crate::chart::{State, Transition, TransitionParts};
use crate::diagnostic::Diagnostic;
use crate::parse::{Attribute, Element, RUST_NS};
use crate::runtime::{normalize_descriptor, StateKind};

impl<'a> Validator<'a> {
    pub(super) fn collect_state(&mut self, e: &'a Element, parent: Option<usize>) -> usize {
        let index = self.states.len();
        let has_child_states = e
            .elements()
            .any(|c| c.is_scxml() && matches!(c.name, "state" | "parallel" | "final"));
        let kind = match e.name {
            "scxml" => StateKind::Root,
            "parallel" => StateKind::Parallel,
            "final" => StateKind::Final,
            "history" => match e.attr("type").map(|a| &*a.value) {
                None | Some("shallow") => StateKind::ShallowHistory,
                Some("deep") => StateKind::DeepHistory,
                Some(other) => {
                    let span = e.attr("type").map_or(e.span, |a| a.span);
                    self.error(
                        span,
                        format!("history `type` must be `shallow` or `deep`, not `{other}`"),
                    );
                    StateKind::ShallowHistory
                }
            },
            _ if has_child_states => StateKind::Compound,
            _ => StateKind::Atomic,
        };
        let (id, generated_id) = match e.attr("id") {
            Some(a) => {
                if a.value.is_empty() || a.value.chars().any(char::is_whitespace) {
                    // Targets naming it are split into its words: those are not reported
                    // again (one error per mistake).
                    self.invalid_id_words
                        .extend(a.value.split_whitespace().map(str::to_owned));
                    self.error(
                        a.span,
                        format!(
                            "state id `{}` must be a non-empty name without spaces",
                            a.value
                        ),
                    );
                } else if !is_xml_id(&a.value) {
                    self.diags.push(
                        Diagnostic::error(a.span, format!("state id `{}` is not a valid XML ID", a.value))
                            .with_help("an id is an XML name (SCXML 1.0, 3.14: type ID): a letter or `_`, then letters, digits, `.`, `-` and `_`"),
                    );
                }
                if let Some(first) = self.ids.get(&self.states, &a.value) {
                    let line = self.states[first].line;
                    self.diags.push(
                        Diagnostic::error(a.span, format!("duplicate state id `{}`", a.value))
                            .with_help(format!(
                                "`{}` is already the id of the state at line {line}",
                                a.value
                            )),
                    );
                } else {
                    self.ids.insert(&self.states, &a.value, index);
                }
                (Box::from(&*a.value), false)
            }
            None if kind == StateKind::Root => ("__scxml".into(), true),
            None => (format!("__state_{index}").into(), true),
        };
        self.states.push(State {
            id,
            generated_id,
            kind,
            parent: crate::chart::Link::new(parent),
            initial: crate::chart::Link::NONE,
            transitions: crate::chart::Consecutive::default(),
            children: Box::default(),
            onentry: Box::default(),
            extras: self.comments.of(e).map(|c| {
                Box::new(crate::chart::StateExtras {
                    comment: Some(c.into()),
                    ..Default::default()
                })
            }),
            rust_name: None,
            line: self.line(e.span),
            span: e.span,
        });
        if let Some(a) = e.attr_ns(RUST_NS, "name") {
            let index = u32::try_from(index).expect("a chart has fewer than 2^32 states");
            self.rs_names.push((index, a));
        }
        if kind != StateKind::Root {
            self.check_element(e);
        }
        let mut children = Vec::new();
        for child in e.elements().filter(|c| c.is_scxml()) {
            match child.name {
                "state" | "parallel" | "final" | "history" => {
                    children.push(self.collect_state(child, Some(index)));
                }
                _ => {}
            }
        }
        self.states[index].children = children.into_boxed_slice();
        index
    }

    pub(super) fn resolve_targets(&mut self, attr: &Attribute) -> Option<Vec<usize>> {
        let mut targets = Vec::new();
        let mut ok = true;
        let mut offset = 0;
        for token in attr.value.split_ascii_whitespace() {
            let at = attr.value[offset..].find(token).map_or(0, |i| i + offset);
            offset = at + token.len();
            match self.ids.get(&self.states, token) {
                Some(t) => targets.push(t),
                None if self.invalid_id_words.contains(token) => ok = false,
                None => {
                    ok = false;
                    let span = self.value_span(attr, at..at + token.len());
                    let mut d = Diagnostic::error(span, format!("`{token}` is not a state id"));
                    if let Some(best) = self.closest_id(token) {
                        d = d.with_help(format!("did you mean `{best}`?"));
                    }
                    self.diags.push(d);
                }
            }
        }
        if ok && targets.is_empty() {
            self.error(attr.span, "empty target list");
            return None;
        }
        ok.then_some(targets)
    }

    pub(crate) fn closest_id(&self, token: &str) -> Option<String> {
        self.ids
            .indices()
            .map(|i| &self.states[i].id)
            .map(|id| (edit_distance(id, token), id))
            .filter(|(d, id)| *d <= 2.max(id.len() / 3))
            .min()
            .map(|(_, id)| id.to_string())
    }

    pub(super) fn is_descendant(&self, s: usize, ancestor: usize) -> bool {
        let mut p = self.states[s].parent.get();
        while let Some(x) = p {
            if x == ancestor {
                return true;
            }
            p = self.states[x].parent.get();
        }
        false
    }

    /// Pass 2 for state `index`, whose element is `e`.
    pub(super) fn resolve_state(&mut self, index: usize, e: &'a Element) {
        let kind = self.states[index].kind;
        let id = self.states[index].id.clone();
        // `<scxml>` allows none of the children handled here: `check_element` reported them,
        // and validating them as well would report their own problems twice.
        let children = e
            .elements()
            .filter(|c| c.is_scxml() && kind != StateKind::Root);
        let (mut onentry, mut onexit) = (Vec::new(), Vec::new());
        // The state's transitions are made one after the other: consecutive indices.
        let first_transition = self.transitions.len();
        for child in children {
            match child.name {
                "transition" if !kind.is_history() => {
                    if kind == StateKind::Final {
                        self.error(child.span, "a `<final>` state cannot have transitions");
                        continue;
                    }
                    self.transition(child, index);
                }
                "onentry" => {
                    self.check_element(child);
                    let block = self.block(child, format!("<onentry> of `{id}`"));
                    onentry.push(block);
                }
                "onexit" => {
                    self.check_element(child);
                    let block = self.block(child, format!("<onexit> of `{id}`"));
                    onexit.push(block);
                }
                "donedata" => {
                    self.check_element(child);
                    let dd = self.donedata(child);
                    self.states[index].extras_mut().donedata = Some(Box::new(dd));
                }
                "invoke" => {
                    if let Some(invoke) = self.invoke(child, index) {
                        self.invokes.push(invoke);
                    }
                }
                _ => {}
            }
        }
        let state = &mut self.states[index];
        state.transitions =
            crate::chart::Consecutive::new(first_transition..self.transitions.len());
        state.onentry = onentry.into_boxed_slice();
        if !onexit.is_empty() {
            state.extras_mut().onexit = onexit.into_boxed_slice();
        }
        match kind {
            StateKind::Root | StateKind::Compound => self.initial(index, e),
            StateKind::ShallowHistory | StateKind::DeepHistory => self.history_default(index, e),
            StateKind::Parallel | StateKind::Atomic | StateKind::Final => {}
        }
        if kind == StateKind::Atomic {
            if let Some(a) = e.attr("initial") {
                self.error(
                    a.name_span,
                    format!("state `{id}` has no child states, so it cannot have `initial`"),
                );
            }
            if let Some(i) = e.elements().find(|c| c.is_scxml() && c.name == "initial") {
                self.error(
                    i.span,
                    format!("state `{id}` has no child states, so it cannot have `<initial>`"),
                );
            }
        }
    }

    fn transition(&mut self, t: &'a Element, source: usize) -> Option<usize> {
        self.check_element(t);
        let line = self.line(t.span);
        let mut events = Vec::new();
        let event_text = t.attr("event").map(|a| Box::from(&*a.value));
        if let Some(a) = t.attr("event") {
            if a.value.trim().is_empty() {
                self.error(
                    a.span,
                    "empty `event` attribute; omit it for an eventless transition",
                );
            }
            let mut offset = 0;
            for token in a.value.split_ascii_whitespace() {
                let at = a.value[offset..].find(token).map_or(0, |i| i + offset);
                offset = at + token.len();
                let span = self.value_span(a, at..offset);
                if !is_event_descriptor(token) {
                    self.diags.push(
                        Diagnostic::error(span, format!("`{token}` is not a valid event descriptor"))
                            .with_help("an event descriptor is `*` or dot-separated names, optionally ending in `.*`, e.g. `error.*`"),
                    );
                    continue;
                }
                let normalized = normalize_descriptor(token).to_owned();
                if normalized != "*" {
                    self.note_event(&normalized, span);
                }
                events.push(normalized);
            }
        }
        let cond = t.attr("cond").and_then(|c| self.cond(c));
        let targets = match t.attr("target") {
            Some(a) => self.resolve_targets(a)?,
            None => Vec::new(),
        };
        let internal = match t.attr("type").map(|a| (&*a.value, a.span)) {
            None | Some(("external", _)) => false,
            Some(("internal", _)) => true,
            Some((other, span)) => {
                self.error(
                    span,
                    format!("transition `type` must be `internal` or `external`, not `{other}`"),
                );
                false
            }
        };
        let id = self.states[source].id.clone();
        let content = self.block(t, format!("<transition> of `{id}`"));
        let index = self.transitions.len();
        // Lists of one or two grow to four entries; a big chart has many transitions.
        self.transitions.push(Transition::new(
            source,
            targets.into_boxed_slice(),
            internal,
            line,
            t.span,
            TransitionParts {
                events: events.into_boxed_slice(),
                event_text,
                cond,
                content: Some(content).filter(|b| !b.body.is_empty()),
            },
        ));
        Some(index)
    }
}

/// The Levenshtein distance of two strings, in characters (for "did you mean" suggestions).
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("solved", "solvd"), 1);
        assert_eq!(edit_distance("a", "abc"), 2);
    }
}
