//! Rust names for the chart's states, events and machine type (rules in [`crate::ident`]).
//!
//! Distinct chart names always get distinct Rust names. Each state first gets its *pretty*
//! name (`foo.bar` → `FooBar`); where several states share one, the first in document order
//! keeps it and the others get `_2`, `_3`, … in document order (`foo-bar` → `FooBar_2`,
//! `foo_bar` → `FooBar_3`), skipping any suffixed name another state already has. An explicit
//! `rs:name` is taken as written and wins over pretty names; two equal `rs:name`s, or one that
//! is not a Rust identifier, are errors. Event constants follow the same scheme
//! (`valid`, `-valid-` → `VALID`, `VALID_2`).

use super::Validator;
use crate::diagnostic::Diagnostic;
use crate::ident;
use crate::parse::RUST_NS;
use crate::runtime::StateKind;
use std::collections::{HashMap, HashSet};

/// Gives every name of `wanted` (in document order; `Fixed` names were chosen by the user
/// and are kept) a distinct Rust name: the wanted one where no other takes it, else the
/// first in document order keeps it and the others get `_2`, `_3`, ….
pub(crate) fn distinct(wanted: &[Wanted]) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for w in wanted {
        *count.entry(w.name()).or_default() += 1;
    }
    // Every wanted name is taken up front: the states that keep theirs are decided below,
    // and a suffixed name never steals any of them.
    let mut taken: HashSet<String> = wanted.iter().map(|w| w.name().to_owned()).collect();
    let mut first_seen: HashSet<&str> = HashSet::new();
    wanted
        .iter()
        .map(|w| match w {
            Wanted::Fixed(name) => name.clone(),
            Wanted::Pretty(name) if count[name.as_str()] == 1 => name.clone(),
            Wanted::Pretty(name) => {
                let fixed_elsewhere = wanted
                    .iter()
                    .any(|o| matches!(o, Wanted::Fixed(f) if f == name));
                if !fixed_elsewhere && first_seen.insert(name.as_str()) {
                    return name.clone();
                }
                let mut k = 2;
                loop {
                    let candidate = format!("{name}_{k}");
                    if taken.insert(candidate.clone()) {
                        return candidate;
                    }
                    k += 1;
                }
            }
        })
        .collect()
}

/// A name as a state or event would like it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Wanted {
    /// Derived from the chart's id by the mangling rules.
    Pretty(String),
    /// Given by the user (`rs:name`): kept exactly.
    Fixed(String),
}

impl Wanted {
    fn name(&self) -> &str {
        match self {
            Wanted::Pretty(n) | Wanted::Fixed(n) => n,
        }
    }
}

impl Validator<'_> {
    /// The `State` name of every state (`None` for the root and history states), with an
    /// error for each unusable or repeated `rs:name`.
    pub(super) fn state_names(&mut self) -> Vec<Option<String>> {
        let mut wanted = Vec::new();
        let mut fixed_at: HashMap<String, u32> = HashMap::new();
        for i in 0..self.states.len() {
            let s = &self.states[i];
            if s.kind == StateKind::Root || s.kind.is_history() {
                continue;
            }
            let pretty = if self.nesting.verbatim && !s.generated_id && super::is_rust_ident(&s.id)
            {
                ident::avoid_state_items(s.id.clone())
            } else {
                ident::state_variant(&s.id, i, s.generated_id)
            };
            let explicit = self.elements[i].attr_ns(RUST_NS, "name");
            let want = match explicit {
                None => Wanted::Pretty(pretty),
                Some(a) if !super::is_rust_ident(&a.value) || a.value.starts_with("__") => {
                    self.diags.push(
                        Diagnostic::error(a.span, format!("`rs:name=\"{}\"` is not a Rust identifier", a.value))
                            .with_help("`rs:name` names the state's `State` variant: a Rust identifier that is not a keyword and does not start with `__`"),
                    );
                    Wanted::Pretty(pretty)
                }
                Some(a) if ident::STATE_ITEMS.contains(&a.value.as_str()) => {
                    self.error(
                        a.span,
                        format!(
                            "`rs:name=\"{}\"` is the name of an item of `State` ({})",
                            a.value,
                            ident::STATE_ITEMS.join(", ")
                        ),
                    );
                    Wanted::Pretty(pretty)
                }
                Some(a) => {
                    let line = self.line(a.span);
                    if let Some(first) = fixed_at.insert(a.value.clone(), line) {
                        self.diags.push(
                            Diagnostic::error(
                                a.span,
                                format!("duplicate `rs:name=\"{}\"`", a.value),
                            )
                            .with_help(format!(
                                "the state at line {first} already has this Rust name"
                            )),
                        );
                        Wanted::Pretty(pretty)
                    } else {
                        Wanted::Fixed(a.value.clone())
                    }
                }
            };
            wanted.push((i, want));
        }
        let names = distinct(&wanted.iter().map(|(_, w)| w.clone()).collect::<Vec<_>>());
        let mut out = vec![None; self.states.len()];
        for ((i, _), name) in wanted.into_iter().zip(names) {
            out[i] = Some(name);
        }
        out
    }

    /// The `events::` constant of every event name the chart mentions, in the order of
    /// `event_names`.
    pub(super) fn event_consts(&self) -> Vec<String> {
        let wanted: Vec<Wanted> = self
            .event_names
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| Wanted::Pretty(ident::event_const(name, i)))
            .collect();
        distinct(&wanted)
    }

    /// Per entry of `event_names`: its variant of the generated `enum Event`, distinct from
    /// every other.
    pub(super) fn event_variants(&self) -> Vec<String> {
        let wanted: Vec<Wanted> = self
            .event_names
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| Wanted::Pretty(ident::event_variant(name, i)))
            .collect();
        distinct(&wanted)
    }

    /// The machine's type name: `Config::type_name`, else `<scxml name>` in `UpperCamelCase`;
    /// an error when it would be `State`, the chart's state type.
    pub(super) fn type_name(&mut self, chart_name: &str) -> String {
        let type_name = self
            .nesting
            .type_name
            .map_or_else(|| ident::type_name(chart_name), str::to_owned);
        if type_name == "State" {
            let span = self.states[0].span;
            let span = self.elements[0].attr("name").map_or(span, |a| a.span);
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!(
                        "the machine type of chart `{chart_name}` would be `State`, the name of its state type"
                    ),
                )
                .with_help("give the chart another `<scxml name>` or `Config::type_name`"),
            );
        }
        type_name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pretty(names: &[&str]) -> Vec<Wanted> {
        names
            .iter()
            .map(|n| Wanted::Pretty((*n).to_owned()))
            .collect()
    }

    #[test]
    fn shared_names_get_suffixes_in_document_order() {
        assert_eq!(
            distinct(&pretty(&["FooBar", "FooBar", "Other", "FooBar"])),
            ["FooBar", "FooBar_2", "Other", "FooBar_3"]
        );
    }

    #[test]
    fn a_suffix_never_takes_a_name_in_use() {
        // `A_2` is some state's own pretty name, so the second `A` becomes `A_3`.
        assert_eq!(distinct(&pretty(&["A", "A", "A_2"])), ["A", "A_3", "A_2"]);
        assert_eq!(
            distinct(&pretty(&["A", "A", "A_2", "A_2"])),
            ["A", "A_3", "A_2", "A_2_2"]
        );
    }

    #[test]
    fn fixed_names_win() {
        let wanted = vec![
            Wanted::Pretty("Idle".into()),
            Wanted::Fixed("Idle".into()),
            Wanted::Pretty("Idle".into()),
        ];
        assert_eq!(distinct(&wanted), ["Idle_2", "Idle", "Idle_3"]);
    }
}
