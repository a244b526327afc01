//! The typed lane (`Chart::lane`, run through the runtime's `Lane`, see `runtime/lane.rs`):
//! for a chart without `<parallel>`, `<invoke>` or eventless transitions in the rust or null
//! datamodel, a `match` on the typed event's variant and the active atomic state that writes
//! out the macrostep: the candidate transitions' conditions in document order (SCXML 1.0,
//! Appendix D `selectTransitions`: the atomic state's own transitions, then its parent's,
//! and so on; the first enabled one wins), each `cond_N` and `block_N` called directly so
//! that it inlines, a targeted transition by its precomputed exits and entries where the
//! chart allows (the quiet cells', `super::quiet`) and by the interpreter's microstep
//! otherwise.
//!
//! The lane never makes the event `_event`: a cell whose conditions or content read it (or,
//! for a targeted transition the interpreter runs, any chart code that does) is declined
//! before anything runs, and the machine's other paths take the event.

use super::steps::{atomic_states, event_pattern, Candidate};
use super::{num, Emitter};
use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote, ToTokens};

/// Which generated functions read `_event`, filled while they are written.
#[derive(Debug, Default)]
pub(super) struct ReadsEvent {
    /// Per condition (`cond_N`).
    pub(super) conds: Vec<bool>,
    /// Per block (`block_N`).
    pub(super) blocks: Vec<bool>,
    /// Per block: whether it may run a `<log>` (calls the context's `log`).
    pub(super) logs: Vec<bool>,
    /// Per block: whether its body names the context at all (`__ctx`: it may raise, send
    /// or log); one that does not can only change the datamodel or fail.
    pub(super) reaches: Vec<bool>,
    /// Some `<donedata>` or `<data>` initialiser does.
    pub(super) elsewhere: bool,
}

impl ReadsEvent {
    /// Whether any chart code reads `_event`.
    fn any(&self) -> bool {
        self.elsewhere || self.conds.iter().any(|&b| b) || self.blocks.iter().any(|&b| b)
    }

    fn cond(&self, k: usize) -> bool {
        self.conds.get(k).copied().unwrap_or(true)
    }

    fn block(&self, k: usize) -> bool {
        self.blocks.get(k).copied().unwrap_or(true)
    }
}

/// Whether generated code may read `_event`: it names the binding `_event` or calls one of
/// the context's accessors of the current event (`event`, `current`, `typed_event`,
/// `event_serial`). Chart code reaches `_event` only through those.
pub(super) fn reads_event(tokens: &TokenStream) -> bool {
    mentions(
        tokens,
        &["_event", "event", "current", "typed_event", "event_serial"],
    )
}

/// Whether generated code may run a `<log>`: it calls the context's `log`.
pub(super) fn logs(tokens: &TokenStream) -> bool {
    mentions(tokens, &["log"])
}

/// Whether the body of the generated function `f` (its last `{ .. }` group) names the
/// context (`__ctx`): only then may it raise, send or log.
pub(super) fn reaches_context(f: &TokenStream) -> bool {
    let body = f.clone().into_iter().fold(None, |last, t| match t {
        TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Brace => Some(g.stream()),
        _ => last,
    });
    match body {
        Some(b) => mentions(&b, &["__ctx"]),
        None => true,
    }
}

/// Whether `tokens` hold one of the identifiers `names`.
fn mentions(tokens: &TokenStream, names: &[&str]) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => {
            let i = i.to_string();
            names.contains(&i.as_str())
        }
        TokenTree::Group(g) => mentions(&g.stream(), names),
        _ => false,
    })
}

/// The whole configuration while `leaf` is the active atomic state, as the one word of the
/// runtime's state set (bit `s` for state `s`: `leaf` and its ancestors, the root excluded):
/// in a chart without `<parallel>` that is every active state. `0` for a chart of more than
/// 64 states (the set has more words; the runtime then moves state by state).
fn configuration_word(plan: &crate::plan::Plan, leaf: usize) -> u64 {
    let states = &plan.chart.states;
    if states.len() > 64 {
        return 0;
    }
    let mut word = 0u64;
    let mut s = leaf;
    while let Some(parent) = states[s].parent.get() {
        word |= 1 << s;
        s = parent;
    }
    word
}

impl Emitter<'_> {
    /// The pattern of the lane's `match` on the active configuration that matches while
    /// `leaf` is the active atomic state: the configuration word (`leaf` and its ancestors)
    /// for a chart of at most 64 states, in binary; `leaf`'s index for a larger one.
    fn active_pattern(&self, leaf: usize) -> TokenStream {
        match configuration_word(self.plan, leaf) {
            0 => num(leaf).into_token_stream(),
            word => format!("{word:#b}").parse().expect("a literal"),
        }
    }

    /// Whether the chart gets a lane.
    pub(super) fn has_lane(&self) -> bool {
        let chart = &self.plan.chart;
        self.has_steps()
            && !self.is_js()
            && !chart.states.iter().any(|s| {
                s.transitions
                    .iter()
                    .any(|t| chart.transitions[t].events().is_empty())
            })
    }

    /// Whether the lane leaves the cell with `candidates` to the other paths: some code it
    /// would run reads `_event`.
    fn declines(&self, candidates: &[Candidate], transit: bool) -> bool {
        let plan = self.plan;
        candidates.iter().any(|c| {
            c.cond.is_some_and(|k| self.reads_event.cond(k))
                || if plan.chart.transitions[c.transition].targets.is_empty() {
                    plan.transition_block(c.transition)
                        .is_some_and(|b| self.reads_event.block(b))
                } else {
                    // The interpreter's microstep runs `<onexit>`, `<onentry>`, initial
                    // and history content, `<donedata>` and late `<data>`.
                    !transit && self.reads_event.any()
                }
        })
    }

    /// What runs when `c` is selected, then the lane's end.
    fn lane_selected(
        &mut self,
        c: &Candidate,
        transit: Option<&super::quiet::Transit>,
    ) -> TokenStream {
        let plan = self.plan;
        let tr = &plan.chart.transitions[c.transition];
        let t = num(c.transition);
        let comment = self.transition_comment(c.transition);
        let run = match (
            tr.targets.is_empty(),
            plan.transition_block(c.transition),
            transit,
        ) {
            (true, Some(b), _) => {
                let block = format_ident!("block_{b}");
                let line = num(plan.blocks[b].line);
                // Log observers hear a block's `<log>`s; a block without any needs no look.
                let logs = self.reads_event.logs.get(b).copied().unwrap_or(true);
                let reaches = self.reads_event.reaches.get(b).copied().unwrap_or(true);
                quote!(__l.content(#t, #block, #line, #logs, #reaches); return __l.end(1);)
            }
            (true, None, _) => quote!(__l.targetless(#t); return __l.end(1);),
            (false, _, Some(tr)) => {
                let exit = tr.exit.iter().map(|&s| num(s));
                let enter = tr.enter.iter().map(|&s| num(s));
                let leaf = num(tr.leaf);
                let word = configuration_word(plan, tr.leaf as usize);
                // In binary: bit `s` is state `s`.
                let word: TokenStream = format!("{word:#b}").parse().expect("a literal");
                quote!(return __l.transit(#t, &[#(#exit),*], &[#(#enter),*], #leaf, #word);)
            }
            (false, _, None) => quote!(__l.microstep(#t); return __l.moved();),
        };
        quote! {
            #comment
            #run
        }
    }

    /// The body of a cell: its candidates in order; `transit` is the precomputed microstep
    /// of a cell whose single candidate has no `cond`.
    fn lane_cell(
        &mut self,
        candidates: &[Candidate],
        transit: Option<&super::quiet::Transit>,
    ) -> TokenStream {
        if self.declines(candidates, transit.is_some()) {
            return quote!(__LaneEnd::Declined);
        }
        self.selection(
            candidates,
            &quote!(__l),
            |e, c| e.lane_selected(c, transit),
            quote!(__l.end(0)),
        )
    }

    /// `fn lane(...)` of the hidden module, for `Chart::lane`.
    pub(super) fn lane_fn(&mut self) -> TokenStream {
        let rt = self.rt.clone();
        let data = self.data_ty.clone();
        let plan = self.plan;
        let names = super::event_names(plan);
        let leaves = atomic_states(plan);
        let mut arms = Vec::new();
        for (i, (_, name, _)) in plan.events.iter().enumerate() {
            let pattern = event_pattern(plan, i);
            let position = names.iter().position(|n| n == name);
            // Leaves grouped by their candidate lists; a leaf whose one candidate has a
            // precomputed microstep gets an arm of its own (its exits are its own).
            let mut groups: Vec<(Vec<Candidate>, Vec<usize>, bool)> = Vec::new();
            for &leaf in &leaves {
                let c = self.candidates(leaf, name);
                if c.is_empty() {
                    continue;
                }
                let own = c.len() == 1
                    && c[0].cond.is_none()
                    && !plan.chart.transitions[c[0].transition].targets.is_empty()
                    && position
                        .is_some_and(|p| self.transits.contains_key(&(leaf * names.len() + p)));
                match groups.iter_mut().find(|(g, _, o)| !own && !*o && *g == c) {
                    Some((_, members, _)) => members.push(leaf),
                    None => groups.push((c, vec![leaf], own)),
                }
            }
            // With one atomic state, it is active whenever the machine runs.
            if let [(candidates, members, own)] = &groups[..] {
                if leaves.len() == 1 && !*own {
                    let comment = self.p.comment(format!(
                        "`{}` is the chart's only atomic state",
                        plan.chart.states[members[0]].id
                    ));
                    let body = self.lane_cell(candidates, None);
                    arms.push(quote!(#pattern => { #comment #body }));
                    continue;
                }
            }
            // Where every atomic state has an arm, the last one is `_`: the active atomic
            // state is one of them whenever the lane runs (the leaf is exact), and one
            // comparison fewer is one branch fewer per event.
            let covered: usize = groups.iter().map(|(_, members, _)| members.len()).sum();
            let last = groups.len().saturating_sub(1);
            let mut leaf_arms = Vec::new();
            for (g, (candidates, members, own)) in groups.iter().enumerate() {
                let transit = if *own {
                    position.and_then(|p| self.transits.remove(&(members[0] * names.len() + p)))
                } else {
                    None
                };
                let body = self.lane_cell(candidates, transit.as_ref());
                let ids: Vec<String> = members
                    .iter()
                    .map(|&m| format!("`{}`", plan.chart.states[m].id))
                    .collect();
                if g == last && covered == leaves.len() {
                    let comment = self
                        .p
                        .comment(format!("{} active: the atomic states left", ids.join(", ")));
                    leaf_arms.push(quote!(_ => { #comment #body }));
                } else {
                    let comment = self.p.comment(format!("{} active", ids.join(", ")));
                    let members = members.iter().map(|&m| self.active_pattern(m));
                    leaf_arms.push(quote!(#(#members)|* => { #comment #body }));
                }
            }
            let rest =
                (groups.is_empty() || covered < leaves.len()).then(|| quote!(_ => __l.end(0),));
            // A chart of at most 64 states matches its whole configuration, one word (what
            // its precomputed microsteps write); a larger one the active atomic state.
            let active = if plan.chart.states.len() <= 64 {
                quote!(__l.configuration())
            } else {
                quote!(__l.leaf())
            };
            arms.push(quote! {
                #pattern => match #active {
                    #(#leaf_arms)*
                    #rest
                },
            });
        }
        let doc = format!(
            " The typed lane of `{}`: per event and active atomic state, the macrostep written out (see `Chart::lane`).",
            self.file
        );
        quote! {
            #[doc = #doc]
            #[allow(unreachable_patterns, clippy::match_single_binding)]
            #[inline(always)]
            pub(super) fn lane(
                __l: &mut #rt::__private::Lane<'_, #data, Event>,
                __event: &Event,
            ) -> #rt::__private::LaneEnd {
                use #rt::__private::LaneEnd as __LaneEnd;
                match __event {
                    #(#arms)*
                    _ => __LaneEnd::Declined,
                }
            }
        }
    }
}
