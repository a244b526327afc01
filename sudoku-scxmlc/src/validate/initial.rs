//! Where a state starts: the initial transition of the root and of each compound state
//! (`initial` attribute, `<initial>` element, or the first child state), and the default
//! transition of each `<history>` (its own, or the parent's initial state when it has none).

use super::Validator;
use crate::chart::{Block, Chart, Consecutive, Link, State, Transition, TransitionParts};
use crate::diagnostic::{Diagnostic, Span};
use crate::parse::Element;
use crate::runtime::StateKind;

impl<'a> Validator<'a> {
    pub(super) fn initial(&mut self, index: usize, e: &'a Element) {
        let initial_elem = e.elements().find(|c| c.is_scxml() && c.name == "initial");
        let attr = e.attr("initial");
        let id = self.states[index].id.clone();
        let (targets, content, line) = match (attr, initial_elem) {
            (Some(a), Some(i)) => {
                self.error(
                    i.span,
                    format!(
                        "state `{id}` has both an `initial` attribute and an `<initial>` element"
                    ),
                );
                let _ = a;
                return;
            }
            (Some(a), None) => {
                let Some(targets) = self.resolve_targets(a) else {
                    return;
                };
                for &t in &targets {
                    if !self.is_descendant(t, index) {
                        let msg = format!(
                            "initial state `{}` is not a descendant of `{id}`",
                            self.states[t].id
                        );
                        self.error(a.span, msg);
                        return;
                    }
                }
                (targets, None, self.line(a.span))
            }
            (None, Some(i)) => {
                self.check_element(i);
                let mut ts = i
                    .elements()
                    .filter(|c| c.is_scxml() && c.name == "transition");
                let Some(t) = ts.next() else {
                    self.error(i.span, "`<initial>` needs one `<transition>`");
                    return;
                };
                if let Some(extra) = ts.next() {
                    self.error(extra.span, "`<initial>` has exactly one `<transition>`");
                }
                self.check_element(t);
                for forbidden in ["event", "cond"] {
                    if let Some(a) = t.attr(forbidden) {
                        self.error(
                            a.name_span,
                            format!("the transition of `<initial>` cannot have `{forbidden}`"),
                        );
                    }
                }
                let Some(ta) = t.attr("target") else {
                    self.error(t.span, "the transition of `<initial>` needs a `target`");
                    return;
                };
                let Some(targets) = self.resolve_targets(ta) else {
                    return;
                };
                for &target in &targets {
                    if !self.is_descendant(target, index) {
                        let msg = format!(
                            "initial state `{}` is not a descendant of `{id}`",
                            self.states[target].id
                        );
                        self.error(ta.span, msg);
                        return;
                    }
                }
                let content = self.block(t, format!("<initial> transition of `{id}`"));
                (targets, Some(content), self.line(t.span))
            }
            (None, None) => {
                // The first child state, made once the document is gone (below).
                if first_child_state(&self.states, index).is_some() {
                    let index = u32::try_from(index).expect("a chart has fewer than 2^32 states");
                    self.implicit_initials.push(index);
                }
                return;
            }
        };
        let span = self.states[index].span;
        self.set_default_transition(index, targets.into(), true, content, line, span);
    }

    /// Gives state `index` its initial transition (a compound state or the root, `internal`)
    /// or its default one (a history state): eventless, without `cond`, to `targets`, running
    /// `content` unless it is empty.
    fn set_default_transition(
        &mut self,
        index: usize,
        targets: Box<[usize]>,
        internal: bool,
        content: Option<Block>,
        line: u32,
        span: Span,
    ) {
        let t = self.transitions.len();
        self.transitions.push(Transition::new(
            index,
            targets,
            internal,
            line,
            span,
            TransitionParts {
                content: content.filter(|b| !b.body.is_empty()),
                ..TransitionParts::default()
            },
        ));
        self.states[index].initial = Link::new(Some(t));
    }

    pub(super) fn history_default(&mut self, index: usize, e: &'a Element) {
        let id = self.states[index].id.clone();
        let parent = self.states[index]
            .parent
            .get()
            .expect("history has a parent");
        if self.states[parent].kind == StateKind::Root {
            self.error(e.span, "`<history>` cannot be a child of `<scxml>`");
            return;
        }
        let mut ts = e
            .elements()
            .filter(|c| c.is_scxml() && c.name == "transition");
        let Some(t) = ts.next() else {
            self.history_parent_default(index, parent, e);
            return;
        };
        if let Some(extra) = ts.next() {
            self.error(
                extra.span,
                format!("history state `{id}` has exactly one `<transition>`"),
            );
        }
        self.check_element(t);
        for forbidden in ["event", "cond"] {
            if let Some(a) = t.attr(forbidden) {
                self.error(
                    a.name_span,
                    format!("the default transition of history `{id}` cannot have `{forbidden}`"),
                );
            }
        }
        let Some(ta) = t.attr("target") else {
            self.error(
                t.span,
                format!("the default transition of history `{id}` needs a `target`"),
            );
            return;
        };
        let Some(targets) = self.resolve_targets(ta) else {
            return;
        };
        // A shallow history's default usually names children of the parent; like Appendix D
        // (addDescendantStatesToEnter, then addAncestorStatesToEnter up to the parent), any
        // descendant of the parent works, for either type.
        for &target in &targets {
            if !self.is_descendant(target, parent) || self.states[target].kind.is_history() {
                let msg = format!(
                    "the default of history `{id}` must be a state inside `{}`, not `{}`",
                    self.states[parent].id, self.states[target].id
                );
                self.error(ta.span, msg);
                return;
            }
        }
        let content = self.block(t, format!("default transition of history `{id}`"));
        let line = self.line(t.span);
        self.set_default_transition(index, targets.into(), false, Some(content), line, t.span);
    }

    /// A `<history>` without a default `<transition>` (SCXML 1.0 requires one): like Qt and
    /// other processors, it enters its parent's default initial configuration, with the
    /// content of the parent's `<initial>` transition, and the build warns.
    fn history_parent_default(&mut self, index: usize, parent: usize, e: &Element) {
        let id = self.states[index].id.clone();
        let parent_id = self.states[parent].id.clone();
        let implicit =
            u32::try_from(parent).is_ok_and(|p| self.implicit_initials.binary_search(&p).is_ok());
        let (targets, content) = match self.states[parent].initial.get() {
            Some(t) => (
                self.transitions[t].targets.clone(),
                self.transitions[t].content().cloned(),
            ),
            None if implicit => (
                first_child_state(&self.states, parent)
                    .into_iter()
                    .collect(),
                None,
            ),
            // A `<parallel>` enters every child region.
            None => (
                self.states[parent]
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| !self.states[c].kind.is_history())
                    .collect(),
                None,
            ),
        };
        if targets.is_empty() {
            // The parent has no other child: nothing to default to. The parent's rules
            // (a compound state needs a child state) report it.
            self.error(
                e.span,
                format!("history state `{id}` needs a default `<transition>`: `{parent_id}` has no other state to enter"),
            );
            return;
        }
        let names: Vec<&str> = targets.iter().map(|&t| &*self.states[t].id).collect();
        let what = if names.len() == 1 { "state" } else { "states" };
        let msg = format!(
            "history state `{id}` has no default `<transition>`; until it has a history it enters `{parent_id}`'s initial {what} `{}`",
            names.join(" ")
        );
        self.diags.push(
            Diagnostic::warning(e.span, msg)
                .with_help("SCXML 1.0 (3.10.2) requires the default transition; Qt and other processors take the parent's initial state, as here"),
        );
        let line = self.line(e.span);
        self.set_default_transition(index, targets, false, content, line, e.span);
    }
}

/// The first child of `states[index]` that is not a history state: where a compound state
/// without `initial` or `<initial>` starts (SCXML 1.0, 3.3).
fn first_child_state(states: &[State], index: usize) -> Option<usize> {
    states[index]
        .children
        .iter()
        .copied()
        .find(|&c| !states[c].kind.is_history())
}

/// Gives each of the states `implicit` (indices in increasing order, each a compound state
/// or the root without `initial` or `<initial>`) its initial transition: internal,
/// eventless, to its first child state, at the chart line of the state. Each is numbered as
/// if it had been made with the state's other transitions: after its own transitions and
/// before those of the next state (`chart.transitions` is in the order of their sources).
pub(super) fn add_implicit_initials(chart: &mut Chart, implicit: &[u32]) {
    if implicit.is_empty() {
        return;
    }
    let old = chart.transitions.len();
    let total = old + implicit.len();
    // The place of every transition: an old one moves down by the number of implicit ones
    // of states before its source; the implicit ones follow the old ones at first.
    let mut place: Vec<u32> = Vec::with_capacity(total);
    let mut made = 0;
    for t in &chart.transitions {
        debug_assert!(place.is_empty() || chart.transitions[place.len() - 1].source <= t.source);
        made += implicit[made..].partition_point(|&s| (s as usize) < t.source);
        place.push(u32::try_from(place.len() + made).expect("fewer than 2^32 transitions"));
    }
    let mut before = 0;
    for (k, &s) in implicit.iter().enumerate() {
        let s = s as usize;
        before += chart.transitions[before..].partition_point(|t| t.source <= s);
        place.push(u32::try_from(before + k).expect("fewer than 2^32 transitions"));
    }
    chart.transitions.reserve_exact(implicit.len());
    for &s in implicit {
        let s = s as usize;
        let state = &chart.states[s];
        let first = first_child_state(&chart.states, s).expect("noted with a child state");
        chart.transitions.push(Transition::new(
            s,
            Box::new([first]),
            true,
            state.line,
            state.span,
            TransitionParts::default(),
        ));
    }
    for (k, &s) in implicit.iter().enumerate() {
        chart.states[s as usize].initial = Link::new(Some(old + k));
    }
    for state in &mut chart.states {
        // A state's own transitions stay consecutive: they all move down by as many.
        if let Some(first) = state.transitions.iter().next() {
            let start = place[first] as usize;
            state.transitions = Consecutive::new(start..start + state.transitions.len());
        }
        state.initial = Link::new(state.initial.get().map(|t| place[t] as usize));
    }
    // Move every transition to its place (each cycle of the permutation in turn).
    for i in 0..total {
        while place[i] as usize != i {
            let j = place[i] as usize;
            chart.transitions.swap(i, j);
            place.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::chart::Chart;

    /// The chart of `text`, which must be valid.
    fn chart(text: &str) -> Chart {
        crate::config::plan_for_tests(text).chart
    }

    /// Transitions are numbered state by state in document order, each state's own
    /// transitions first and then its initial or default transition, whether that one was
    /// written (`initial`, `<initial>`, a history's `<transition>`) or is implicit.
    fn assert_numbered_by_state(chart: &Chart) {
        let mut next = 0;
        for (i, s) in chart.states.iter().enumerate() {
            for t in s.transitions.iter().chain(s.initial.get()) {
                assert_eq!(t, next, "transition {t} of state {i}");
                assert_eq!(chart.transitions[t].source, i);
                next += 1;
            }
        }
        assert_eq!(next, chart.transitions.len());
    }

    #[test]
    fn implicit_initial_transitions_are_numbered_with_their_state() {
        let chart = chart(
            r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
  <state id="a">
    <transition event="e" target="b"/>
    <history id="h"/>
    <state id="a1"><transition event="f" target="a2"/></state>
    <state id="a2"/>
  </state>
  <state id="b" initial="b2">
    <state id="b1"/>
    <state id="b2"><state id="c1"/><state id="c2"/></state>
    <transition event="g" target="a"/>
  </state>
  <state id="d">
    <initial><transition target="d2"/></initial>
    <state id="d1"/><state id="d2"/>
  </state>
</scxml>"#,
        );
        assert_numbered_by_state(&chart);
        let id = |i: usize| &*chart.states[i].id;
        let starts: Vec<(&str, Vec<&str>, bool)> = chart
            .states
            .iter()
            .filter_map(|s| s.initial.get())
            .map(|t| {
                let t = &chart.transitions[t];
                let targets = t.targets.iter().map(|&s| id(s)).collect();
                (id(t.source), targets, t.internal)
            })
            .collect();
        assert_eq!(
            starts,
            [
                ("__scxml", vec!["a"], true),
                ("a", vec!["a1"], true),
                // A history without a default enters its parent's initial state.
                ("h", vec!["a1"], false),
                ("b", vec!["b2"], true),
                ("b2", vec!["c1"], true),
                ("d", vec!["d2"], true),
            ]
        );
        // The implicit ones are at their state's line, as if written there.
        let a = chart.states.iter().find(|s| &*s.id == "a").unwrap();
        assert_eq!(chart.transitions[a.initial.get().unwrap()].line, a.line);
    }

    #[test]
    fn deep_nesting_numbers_every_implicit_initial_transition() {
        let mut text = String::from(
            r#"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><parallel id="p">"#,
        );
        for r in 0..3 {
            for d in 0..4 {
                text.push_str(&format!(r#"<state id="r{r}d{d}">"#));
            }
            text.push_str(r#"<transition event="go" target="end"/>"#);
            text.push_str(&"</state>".repeat(4));
        }
        text.push_str(r#"</parallel><final id="end"/></scxml>"#);
        let chart = chart(&text);
        assert_numbered_by_state(&chart);
        // The root and the three compound states of each region start in their first child.
        assert_eq!(chart.transitions.len(), 3 + 1 + 3 * 3);
    }
}
