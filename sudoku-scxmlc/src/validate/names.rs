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
use crate::parse::Attribute;
use crate::runtime::StateKind;
use std::collections::HashMap;

/// Gives every name of `wanted` (in document order; `Fixed` names were chosen by the user
/// and are kept) a distinct Rust name: the wanted one where no other takes it, else the
/// first in document order keeps it and the others get `_2`, `_3`, ….
pub(crate) fn distinct(wanted: &[Wanted]) -> Vec<String> {
    let mut names: Vec<String> = wanted.iter().map(|w| w.name().to_owned()).collect();
    let fixed = |i: usize| matches!(wanted[i], Wanted::Fixed(_));
    for (i, name) in renames(wanted.len(), |i| Some(wanted[i].name()), fixed) {
        names[i] = name;
    }
    names
}

/// The renames that make the wanted names distinct, as (position, new name), by the rule of
/// [`distinct`]: `name(i)` is the name wanted at position `i` of `0..n` (in document order;
/// `None`: no name), `fixed(i)` whether the user chose it.
///
/// The names are sorted once (four bytes a name) rather than counted in hash tables: a chart
/// of 65,536 states has as many names, and they are computed while the parsed document and
/// the chart are both alive (docs/scale.md, "Compiler memory"). A suffixed name `base_k` of
/// one base can never be a suffixed name of another base (the suffix has no `_`), so only the
/// wanted names need to be checked.
fn renames<'n>(
    n: usize,
    name: impl Fn(usize) -> Option<&'n str>,
    fixed: impl Fn(usize) -> bool,
) -> Vec<(usize, String)> {
    let mut order: Vec<u32> = Vec::with_capacity(n);
    order.extend((0..n).filter(|&i| name(i).is_some()).map(|i| i as u32));
    order.sort_unstable_by(|&a, &b| name(a as usize).cmp(&name(b as usize)).then(a.cmp(&b)));
    let wanted = |candidate: &str| {
        order
            .binary_search_by(|&i| name(i as usize).unwrap_or_default().cmp(candidate))
            .is_ok()
    };
    let mut out = Vec::new();
    let mut group_start = 0;
    while group_start < order.len() {
        let base = name(order[group_start] as usize).unwrap_or_default();
        let group_end = order[group_start..]
            .iter()
            .position(|&i| name(i as usize) != Some(base))
            .map_or(order.len(), |len| group_start + len);
        let group = &order[group_start..group_end];
        group_start = group_end;
        if group.len() == 1 {
            continue;
        }
        // Fixed names are kept; else the first in document order keeps its name.
        let any_fixed = group.iter().any(|&i| fixed(i as usize));
        let mut k = 2;
        for (j, &i) in group.iter().enumerate() {
            let i = i as usize;
            if fixed(i) || (j == 0 && !any_fixed) {
                continue;
            }
            let candidate = loop {
                let candidate = format!("{base}_{k}");
                k += 1;
                if !wanted(&candidate) {
                    break candidate;
                }
            };
            out.push((i, candidate));
        }
    }
    out
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
    /// Gives every state its `State` name (`rust_name`; `None` for the root and history
    /// states), with an error for each unusable or repeated `rs:name`.
    pub(super) fn assign_state_names(&mut self) {
        // The states whose name the user chose, in document order.
        let mut fixed = Vec::new();
        let mut fixed_at: HashMap<String, u32> = HashMap::new();
        for i in 0..self.states.len() {
            let s = &self.states[i];
            if s.kind == StateKind::Root || s.kind.is_history() {
                continue;
            }
            let pretty = if self.nesting.verbatim && !s.generated_id && super::is_rust_ident(&s.id)
            {
                ident::avoid_state_items(s.id.to_string())
            } else {
                ident::state_variant(&s.id, i, s.generated_id)
            };
            let explicit = u32::try_from(i).ok().and_then(|i| {
                let k = self.rs_names.binary_search_by_key(&i, |r| r.0).ok()?;
                Some(self.rs_names[k].1)
            });
            let want = match explicit {
                None => Wanted::Pretty(pretty),
                Some(a) if !super::is_rust_ident(&a.value) || a.value.starts_with("__") => {
                    self.diags.push(
                        Diagnostic::error(a.span, format!("`rs:name=\"{}\"` is not a Rust identifier", a.value))
                            .with_help("`rs:name` names the state's `State` variant: a Rust identifier that is not a keyword and does not start with `__`"),
                    );
                    Wanted::Pretty(pretty)
                }
                Some(a) if ident::STATE_ITEMS.contains(&&*a.value) => {
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
                    if let Some(first) = fixed_at.insert(a.value.to_string(), line) {
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
                        fixed.push(i);
                        Wanted::Fixed(a.value.to_string())
                    }
                }
            };
            let (Wanted::Pretty(name) | Wanted::Fixed(name)) = want;
            self.states[i].rust_name = Some(name.into());
        }
        let states = &self.states;
        let renames = renames(
            states.len(),
            |i| states[i].rust_name.as_deref(),
            |i| fixed.binary_search(&i).is_ok(),
        );
        for (i, name) in renames {
            self.states[i].rust_name = Some(name.into());
        }
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
    /// an error when it would be `State`, the chart's state type, at `name` (the `<scxml
    /// name>` attribute) if given.
    pub(super) fn type_name(&mut self, chart_name: &str, name: Option<&Attribute>) -> String {
        let type_name = self
            .nesting
            .type_name
            .map_or_else(|| ident::type_name(chart_name), str::to_owned);
        if type_name == "State" {
            let span = self.states[0].span;
            let span = name.map_or(span, |a| a.span);
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
