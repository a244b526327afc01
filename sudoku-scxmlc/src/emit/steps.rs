//! Generated macrosteps (`Chart::STEP`, run through the runtime's `Stepper`): for a chart
//! without `<parallel>` or `<invoke>`, a `match` on the event's variant (external events, and
//! internal ones inside the macrostep's loop) and the
//! active atomic state that evaluates the candidate transitions' conditions in document
//! order (SCXML 1.0, Appendix D `selectTransitions`, which for one atomic state is: its own
//! transitions, then its parent's, and so on, the first enabled one wins) and runs the
//! selected one, calling the same `cond_N` and `block_N` functions as the tables. A
//! targetless transition's content runs here; a transition with targets is handed to the
//! interpreter's microstep; the interpreter finishes the macrostep.

use super::{num, Emitter};
use crate::chart::Payload;
use crate::plan::Plan;
use crate::runtime::{descriptor_matches, StateKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Charts with more (atomic state, event) cells than this get no generated macrosteps.
const STEP_CELL_LIMIT: usize = 1 << 14;

/// Charts whose `step` function would have more arms than this (one per event and list of
/// candidate transitions shared by some atomic states) get no generated macrosteps: the
/// function is one item, formatted whole, and costs the compiler about 10 KB per arm
/// (docs/scale.md, "Compiler memory"). The game's chart has 119.
const STEP_ARM_LIMIT: usize = 512;

/// One candidate of a cell: a transition whose event descriptors match the event.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Candidate {
    pub(super) transition: usize,
    pub(super) cond: Option<usize>,
}

/// The indices of the chart's atomic states (every state a configuration's leaf can be),
/// in document order, without the root.
pub(super) fn atomic_states(plan: &Plan) -> Vec<usize> {
    plan.chart
        .states
        .iter()
        .enumerate()
        .filter(|(i, s)| *i != 0 && s.kind.is_atomic())
        .map(|(i, _)| i)
        .collect()
}

/// The `match` pattern of the chart's typed event `i` (`Event::Tap(..)` for an event with a
/// payload, `Event::Toggle` without).
pub(super) fn event_pattern(plan: &Plan, i: usize) -> TokenStream {
    let variant = format_ident!("{}", plan.chart.event_variants[i]);
    match plan.chart.event_payloads[i] {
        Payload::Unit => quote!(Event::#variant),
        _ => quote!(Event::#variant(..)),
    }
}

impl Emitter<'_> {
    /// Whether the chart gets generated macrosteps.
    pub(super) fn has_steps(&self) -> bool {
        let chart = &self.plan.chart;
        let atomic = chart.states.iter().filter(|s| s.kind.is_atomic()).count();
        chart.invokes.is_empty()
            && !self.plan.events.is_empty()
            && !chart.states.iter().any(|s| s.kind == StateKind::Parallel)
            && atomic.saturating_mul(self.plan.events.len()) <= STEP_CELL_LIMIT
            && self.step_arms() <= STEP_ARM_LIMIT
    }

    /// How many arms `step` has: per event, the distinct non-empty candidate lists of the
    /// atomic states.
    fn step_arms(&self) -> usize {
        let chart = &self.plan.chart;
        let leaves: Vec<usize> = (1..chart.states.len())
            .filter(|&i| chart.states[i].kind.is_atomic())
            .collect();
        let mut arms = 0;
        for (_, name, _) in &self.plan.events {
            let mut lists = std::collections::HashSet::new();
            for &leaf in &leaves {
                let c = self.candidates(leaf, name);
                if !c.is_empty() {
                    lists.insert(c);
                }
            }
            arms += lists.len();
            if arms > STEP_ARM_LIMIT {
                break;
            }
        }
        arms
    }

    /// The candidate transitions, in selection order, for `name` while the atomic state
    /// `leaf` is active; the last one has no condition (or all have one).
    pub(super) fn candidates(&self, leaf: usize, name: &str) -> Vec<Candidate> {
        let chart = &self.plan.chart;
        let mut out = Vec::new();
        let mut s = Some(leaf);
        while let Some(state) = s {
            for t in chart.states[state].transitions.iter() {
                let tr = &chart.transitions[t];
                if tr.events().iter().any(|d| descriptor_matches(d, name)) {
                    let cond = self.plan.transition_cond(t);
                    out.push(Candidate {
                        transition: t,
                        cond,
                    });
                    if cond.is_none() {
                        return out;
                    }
                }
            }
            s = chart.states[state].parent.get();
        }
        out
    }

    /// What runs when `c` is selected: its content (targetless) or the interpreter's
    /// microstep; then the rest of the macrostep.
    fn selected(&mut self, c: &Candidate) -> TokenStream {
        let plan = self.plan;
        let tr = &plan.chart.transitions[c.transition];
        let t = num(c.transition);
        let comment = self.transition_comment(c.transition);
        let run = match (tr.targets.is_empty(), plan.transition_block(c.transition)) {
            (true, Some(b)) => {
                let block = format_ident!("block_{b}");
                let line = num(plan.blocks[b].line);
                quote!(__s.content(#t, #block, #line);)
            }
            _ => quote!(__s.microstep(#t);),
        };
        quote! {
            #comment
            #run
            __s.finish(1);
            return ::core::result::Result::Ok(());
        }
    }

    /// The `// file:line: <transition event=".."> of `source` to targets` comment of
    /// transition `t`.
    pub(super) fn transition_comment(&mut self, t: usize) -> TokenStream {
        let plan = self.plan;
        let tr = &plan.chart.transitions[t];
        let source = &plan.chart.states[tr.source].id;
        let to: Vec<&str> = tr
            .targets
            .iter()
            .map(|&s| &*plan.chart.states[s].id)
            .collect();
        let what = format!(
            "{}:{}: <transition event=\"{}\"> of `{source}`{}",
            self.file,
            tr.line,
            tr.event_text().unwrap_or(""),
            if to.is_empty() {
                String::new()
            } else {
                format!(" to {}", to.join(" "))
            }
        );
        self.p.comment(what)
    }

    /// The body of a cell: its candidates in order.
    fn cell(&mut self, candidates: &[Candidate]) -> TokenStream {
        let none = quote! {
            __s.finish(0);
            ::core::result::Result::Ok(())
        };
        self.selection(candidates, &quote!(__s), Self::selected, none)
    }

    /// The selection among a cell's `candidates`, in document order: each `cond_N` asked
    /// through `stepper` (the generated step's `__s`, the lane's `__l`) with its chart line,
    /// `selected` writing what a selected candidate does; an unconditional candidate ends
    /// the chain, else `none` follows (no candidate enabled).
    pub(super) fn selection(
        &mut self,
        candidates: &[Candidate],
        stepper: &TokenStream,
        mut selected: impl FnMut(&mut Self, &Candidate) -> TokenStream,
        none: TokenStream,
    ) -> TokenStream {
        let mut out = TokenStream::new();
        for c in candidates {
            let selected = selected(self, c);
            match c.cond {
                None => {
                    out.extend(selected);
                    return out;
                }
                Some(k) => {
                    let cond = format_ident!("cond_{k}");
                    let line = num(self.plan.chart.transitions[c.transition].line);
                    out.extend(quote! {
                        if #stepper.cond(#cond, #line) {
                            #selected
                        }
                    });
                }
            }
        }
        out.extend(none);
        out
    }

    /// `fn step(...)` of the hidden module, for `Chart::STEP`.
    pub(super) fn step_fn(&mut self) -> TokenStream {
        let rt = self.rt.clone();
        let data = self.data_ty.clone();
        let plan = self.plan;
        let leaves = atomic_states(plan);
        let mut which = Vec::new();
        let mut arms = Vec::new();
        for (i, (_, name, _)) in plan.events.iter().enumerate() {
            let pattern = event_pattern(plan, i);
            let k = num(i);
            which.push(quote!(#rt::Envelope::Typed(#pattern, _) => #k,));
            // Leaves grouped by their candidate lists.
            let mut groups: Vec<(Vec<Candidate>, Vec<usize>)> = Vec::new();
            for &leaf in &leaves {
                let c = self.candidates(leaf, name);
                if c.is_empty() {
                    continue;
                }
                match groups.iter_mut().find(|(g, _)| *g == c) {
                    Some((_, members)) => members.push(leaf),
                    None => groups.push((c, vec![leaf])),
                }
            }
            if groups.is_empty() {
                continue;
            }
            let mut leaf_arms = Vec::new();
            for (candidates, members) in &groups {
                let members = members.iter().map(|&m| num(m));
                let body = self.cell(candidates);
                leaf_arms.push(quote!(#(#members)|* => { #body }));
            }
            arms.push(quote! {
                #k => match __leaf {
                    #(#leaf_arms)*
                    _ => {
                        __s.finish(0);
                        ::core::result::Result::Ok(())
                    }
                },
            });
        }
        let doc = format!(
            " The generated macrosteps of `{}`: per event and active atomic state, the candidate transitions in document order (see `Chart::STEP`).",
            self.file
        );
        quote! {
            #[doc = #doc]
            #[allow(unreachable_patterns, clippy::match_single_binding)]
            pub(super) fn step(
                __s: &mut #rt::__private::Stepper<'_, #data, Event>,
                __event: #rt::Envelope<Event>,
            ) -> ::core::result::Result<(), #rt::Envelope<Event>> {
                let __which: usize = match &__event {
                    #(#which)*
                    _ => return ::core::result::Result::Err(__event),
                };
                let __leaf = __s.leaf();
                __s.begin(__event);
                match __which {
                    #(#arms)*
                    _ => {
                        __s.finish(0);
                        ::core::result::Result::Ok(())
                    }
                }
            }
        }
    }
}
