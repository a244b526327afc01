//! The generated `State`: an enum of one variant per state (a newtype with one constant per
//! state when `Config::state_newtype` chose it), with `ALL`, `id`, `from_id`, `Display` and
//! `Debug`.

use super::{doc, doc_lines, num, print, shorten_comment, Emitter};
use crate::runtime::StateKind;
use proc_macro2::TokenStream;
use quote::quote;

impl Emitter<'_> {
    /// Writes `State` (an enum, or a newtype with one constant per state) and its impls.
    /// The declaration with one line per state is written as text, the arrays as table
    /// rows: a chart of 65,538 states never becomes one syntax tree.
    pub(super) fn state_type(
        &mut self,
        printer: &mut print::Printer<'_>,
        indent: usize,
    ) -> std::io::Result<()> {
        let plan = self.plan;
        let pad = "    ".repeat(indent);
        // The named states (history states have no `State`), in document order and sorted
        // by id: four bytes a state, their rows made as they are written.
        let named: Vec<u32> = (0..plan.chart.states.len())
            .filter(|&i| plan.variant(i).is_some())
            .map(|i| i as u32)
            .collect();
        let mut by_id = named.clone();
        by_id.sort_by(|&a, &b| {
            plan.chart.states[a as usize]
                .id
                .cmp(&plan.chart.states[b as usize].id)
        });
        let newtype = self.state_newtype;
        let path = move |i: usize| match plan.variant(i) {
            Some(_) if newtype => format!("State({i})"),
            Some(v) => format!("State::{v}"),
            None => String::new(),
        };
        let n = num(named.len());
        let n_names = num(plan.chart.states.len());
        if self.state_newtype {
            let newtype_doc = self::doc(&format!(
                "The states of `{}` in document order (history states excluded): one constant per state, named like the variants an enum `State` would have, over the state's index in the chart's tables.\n\nA newtype rather than an enum ({} states; `Config::state_newtype`): rustc's time for an enum grows with the square of its variant count. A `match` on it needs a `_` arm.",
                self.file,
                n
            ));
            printer.items(
                quote! {
                    #newtype_doc
                    #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
                    pub struct State(u32);
                },
                indent,
                &mut self.p,
            )?;
            printer.text(&format!(
                "{pad}#[allow(dead_code, non_upper_case_globals, reason = \"every state is offered, used or not; constants keep the spelling of enum variants\")]\n{pad}impl State {{\n"
            ))?;
            for &i in &named {
                printer.text(&self.state_declaration(i as usize, &pad))?;
            }
            printer.text(&format!("{pad}}}\n"))?;
        } else {
            let doc = doc_lines(
                &format!(
                    "The states of `{}` in document order (history states excluded).",
                    self.file
                ),
                &pad,
            );
            printer.text(&format!(
                "{doc}{pad}#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
                 {pad}#[repr(u32)]\n\
                 {pad}#[allow(\n\
                 {pad}    non_camel_case_types,\n\
                 {pad}    clippy::enum_variant_names,\n\
                 {pad}    reason = \"variants keep the chart's state ids (verbatim, or with a `_2` suffix), which may start with `State`\"\n\
                 {pad})]\n\
                 {pad}pub enum State {{\n"
            ))?;
            for &i in &named {
                printer.text(&self.state_declaration(i as usize, &pad))?;
            }
            printer.text(&format!("{pad}}}\n"))?;
        }
        let all = self.p.made_table(named.len(), move |k| {
            format!("{},", path(named[k] as usize))
        });
        let sorted_ids = self.p.made_table(by_id.len(), move |k| {
            let i = by_id[k] as usize;
            format!("({:?}, {}),", plan.chart.states[i].id, path(i))
        });
        let names = self.p.made_table(plan.chart.states.len(), |i| {
            format!("{:?},", plan.variant(i).unwrap_or(""))
        });
        // No private helper for the index: every name but `State`'s public items
        // (`ident::STATE_ITEMS`) may be a state's constant.
        let self_index = self.state_index(quote!(self), false);
        let helpers = quote! {
            /// Every state, in document order.
            pub const ALL: [State; #n] = #all;
            /// The state's `id` in the chart.
            pub fn id(self) -> &'static str {
                __scxml::STATES[#self_index].id
            }
            /// The state with this `id`, if the chart has one.
            pub fn from_id(id: &str) -> ::core::option::Option<State> {
                static BY_ID: [(&str, State); #n] = #sorted_ids;
                BY_ID.binary_search_by(|(k, _)| (*k).cmp(id)).ok().map(|i| BY_ID[i].1)
            }
        };
        let deref_index = self.state_index(quote!(self), true);
        let impls = quote! {
            #[allow(dead_code, reason = "helpers offered whether or not the program uses them")]
            impl State {
                #helpers
            }

            impl ::core::fmt::Display for State {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.id())
                }
            }

            // The variant name, as `#[derive(Debug)]` writes it, from a table by discriminant:
            // rustc's time for a derived `match` grows quadratically with the variant count.
            impl ::core::fmt::Debug for State {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    static NAMES: [&str; #n_names] = #names;
                    f.write_str(NAMES[#deref_index])
                }
            }
        };
        printer.items(impls, indent, &mut self.p)
    }

    /// The declaration of state `i`'s variant (its constant when `State` is a newtype), with
    /// its doc comment, indented by `pad` and one level.
    fn state_declaration(&self, i: usize, pad: &str) -> String {
        let plan = self.plan;
        let v = plan.variant(i).unwrap_or_default();
        let s = &plan.chart.states[i];
        let kind = match s.kind {
            StateKind::Parallel => "parallel",
            StateKind::Final => "final",
            _ => "state",
        };
        // The chart's comment is free text: a `text` block keeps rustdoc from reading it
        // as Markdown (brackets as links, bare URLs, tags).
        let mut text = match s.comment() {
            Some(c) => format!(
                "```text\n{}\n```\n\n",
                shorten_comment(c, &self.file, s.line).replace("```", "'''")
            ),
            None => String::new(),
        };
        if s.generated_id {
            text.push_str(&format!(
                "A `<{kind}>` without an id at {}:{}.",
                self.file, s.line
            ));
        } else {
            text.push_str(&format!(
                "`<{kind} id=\"{}\">` at {}:{}.",
                s.id, self.file, s.line
            ));
        }
        let value = if self.state_newtype {
            format!("pub const {v}: State = State({i});")
        } else {
            format!("{v} = {i},")
        };
        format!(
            "{}{pad}    {value}\n",
            doc_lines(&text, &format!("{pad}    "))
        )
    }

    /// The table index of `state`, a variable of type `State` (`&State` when `by_ref`), as
    /// a `usize`.
    pub(super) fn state_index(&self, state: TokenStream, by_ref: bool) -> TokenStream {
        if self.state_newtype {
            quote!(#state.0 as usize)
        } else if by_ref {
            quote!(*#state as usize)
        } else {
            quote!(#state as usize)
        }
    }
}
