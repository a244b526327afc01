//! Stage 4: [`Plan`] → Rust source. One function per emitted item, put together with `quote!`,
//! formatted with `prettyplease`. `emit` reports no user errors: anything wrong with the chart
//! was reported by `validate` or `plan`.
//!
//! What a chart becomes (for `<scxml name="Sudoku">`):
//! - `pub struct SudokuData`: one field per `<data>` (rust datamodel only);
//! - `pub enum State`: one variant per state id, history excluded;
//! - `pub mod events`: one `&str` constant per event name the chart uses;
//! - `pub type Sudoku = runtime::Machine<SudokuChart>` and `pub struct SudokuChart`;
//! - a hidden module with the static tables and one function per condition, block of
//!   executable content, `<donedata>` and `<data>`; each says which chart line it came from.

mod ecmascript;
mod events;
mod exec;
mod lane;
mod print;
mod quiet;
mod rows;
mod state;
mod steps;

use crate::plan::Plan;
use crate::runtime::{Domain, StateKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Charts with at most this many event names get a generated `match` for
/// [`Chart::event_index`](crate::runtime::Chart::event_index).
const MATCHED_EVENT_NAMES: usize = 256;

/// The chart's [`Tables::event_names`](crate::runtime::Tables::event_names).
fn event_names(plan: &Plan) -> Vec<&str> {
    crate::runtime::event_names(
        plan.chart
            .transitions
            .iter()
            .flat_map(|t| t.events().iter().map(String::as_str)),
    )
}

/// An unsuffixed integer literal, so tables read `3` rather than `3u32`.
pub(crate) fn num(n: impl TryInto<u128>) -> proc_macro2::Literal {
    proc_macro2::Literal::u128_unsuffixed(n.try_into().unwrap_or(0))
}

/// Longest chart comment copied into a doc comment, in characters.
pub const MAX_DOC_COMMENT: usize = 2_000;

/// A chart comment for a doc comment: cut after [`MAX_DOC_COMMENT`] characters (at a line
/// break or space when there is one near), saying where the rest is.
fn shorten_comment<'c>(comment: &'c str, file: &str, line: u32) -> std::borrow::Cow<'c, str> {
    let Some((cut, _)) = comment.char_indices().nth(MAX_DOC_COMMENT) else {
        return comment.into();
    };
    let head = &comment[..cut];
    let head = head
        .rfind(['\n', ' '])
        .filter(|&i| i > cut / 2)
        .map_or(head, |i| &head[..i]);
    let rest = comment[head.len()..].chars().count();
    format!(
        "{}\n… ({rest} more characters in the comment before {file}:{line})",
        head.trim_end()
    )
    .into()
}

/// `text` as `///` lines, each starting with `pad`.
fn doc_lines(text: &str, pad: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.trim_start().replace('\r', "");
            if l.is_empty() {
                format!("{pad}///\n")
            } else {
                format!("{pad}/// {l}\n")
            }
        })
        .collect()
}

/// One `#[doc]` attribute per line, so multi-line docs print as `///` lines.
pub(crate) fn doc(text: &str) -> TokenStream {
    text.lines()
        .map(|l| {
            let l = if l.is_empty() {
                String::new()
            } else {
                format!(" {}", l.trim_start())
            };
            quote!(#[doc = #l])
        })
        .collect()
}

pub(crate) struct Emitter<'a> {
    plan: &'a Plan,
    rt: TokenStream,
    data_ty: TokenStream,
    file: String,
    /// The comments and tables of the item being built ([`print`]).
    p: print::Placeholders<'a>,
    /// `State` is a newtype with a constant per state rather than an enum
    /// ([`Config::state_newtype`](crate::Config::state_newtype)).
    state_newtype: bool,
    /// The transition whose `cond` or content is being emitted: its code sees `_event`
    /// typed when its events carry one declared type.
    event_scope: Option<usize>,
    /// ECMAScript charts: the next [`Snippet`](crate::runtime::ecmascript::Snippet) number.
    snippets: std::cell::Cell<u32>,
    /// The precomputed microsteps of the quiet cells (by cell), for the lane's `transit`.
    transits: std::collections::HashMap<usize, quiet::Transit>,
    /// Which generated functions read `_event` (by kind and number), for the lane: a cell
    /// whose code reads it is left to the other paths.
    reads_event: lane::ReadsEvent,
}

/// The chart (its name) with the most states among a planned chart and the charts it
/// invokes, and that count (history states not counted); `None` for no states at all.
pub fn largest_state_count(plan: &Plan) -> Option<(String, usize)> {
    let own = plan.named_states();
    let mut best = (own > 0).then(|| (plan.type_name.clone(), own));
    for child in &plan.children {
        if let Some((name, n)) = largest_state_count(child) {
            if best.as_ref().is_none_or(|(_, b)| n > *b) {
                best = Some((name, n));
            }
        }
    }
    best
}

/// Writes the formatted Rust source of a planned chart into `out`, one item at a time (the
/// whole file is never held in memory); returns the number of bytes written. `runtime` is
/// the path generated code uses for the runtime, normally `::sudoku_scxmlc::runtime`; with
/// `newtype`, every chart's `State` is a newtype with one constant per state instead of an
/// enum (so is the `State` of a chart without states).
///
/// # Errors
/// What `out` returns.
pub fn emit_to(
    plan: &Plan,
    runtime: &syn::Path,
    newtype: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    let mut printer = print::Printer::new(out);
    printer.text(&format!(
        "// @generated by sudoku-scxmlc {} from `{}`. Do not edit: change the chart and rebuild.\n\n",
        env!("CARGO_PKG_VERSION"),
        file_name(plan)
    ))?;
    emit_chart(plan, runtime, newtype, &mut printer, 0)?;
    Ok(printer.written)
}

/// The chart's file name as the generated code cites it.
fn file_name(plan: &Plan) -> String {
    std::path::Path::new(&plan.chart.file)
        .file_name()
        .map_or(plan.chart.file.clone(), |f| {
            f.to_string_lossy().into_owned()
        })
}

/// Writes the items of one chart at `indent`, then its child charts as modules.
fn emit_chart(
    plan: &Plan,
    runtime: &syn::Path,
    newtype: bool,
    printer: &mut print::Printer<'_>,
    indent: usize,
) -> std::io::Result<()> {
    let data_ty = if plan.chart.datamodel == crate::chart::DatamodelKind::EcmaScript {
        quote!(#runtime::ecmascript::Js)
    } else if exec::has_data(plan.chart.datamodel) {
        let ident = format_ident!("{}Data", plan.type_name);
        quote!(#ident)
    } else {
        quote!(())
    };
    let mut e = Emitter {
        plan,
        rt: quote!(#runtime),
        data_ty,
        file: file_name(plan),
        p: print::Placeholders::new(plan.chart.source_hash),
        // A chart without states (Qt Creator's template) gets the newtype too: Rust has no
        // `#[repr(u32)]` for an enum without variants.
        state_newtype: newtype || plan.named_states() == 0,
        event_scope: None,
        snippets: std::cell::Cell::new(0),
        transits: std::collections::HashMap::new(),
        reads_event: lane::ReadsEvent::default(),
    };
    let data = e.data_struct();
    printer.items(data, indent, &mut e.p)?;
    e.state_type(printer, indent)?;
    let events = e.events_mod();
    printer.items(events, indent, &mut e.p)?;
    let typed = e.events_enum();
    printer.items(typed, indent, &mut e.p)?;
    let machine = e.machine();
    printer.items(machine, indent, &mut e.p)?;
    e.internals(printer, indent)?;
    let pad = "    ".repeat(indent);
    for (child, info) in plan.children.iter().zip(&plan.chart.children) {
        let what = match &info.key {
            Some(key) => format!("selected at run time by the key `{key}`"),
            None => format!("invoked by the `<invoke>` at {}:{}", e.file, info.line),
        };
        printer.text(&format!(
            "\n{pad}/// The chart {what} (SCXML 1.0, 6.4).\n\
             {pad}#[allow(dead_code, unused_imports, reason = \"a child chart offers the same items as a top-level one\")]\n\
             {pad}pub mod {} {{\n{pad}    use super::*;\n",
            info.module
        ))?;
        emit_chart(child, runtime, newtype, printer, indent + 1)?;
        printer.text(&format!("{pad}}}\n"))?;
    }
    Ok(())
}

impl Emitter<'_> {
    /// Whether the chart's code is ECMAScript.
    fn is_js(&self) -> bool {
        self.plan.chart.datamodel == crate::chart::DatamodelKind::EcmaScript
    }

    /// A placeholder for an array of pre-formatted rows.
    fn table(&mut self, rows: Vec<String>) -> TokenStream {
        self.p.table(rows)
    }

    fn data_struct(&self) -> TokenStream {
        if !exec::has_data(self.plan.chart.datamodel) {
            return quote!();
        }
        let name = &self.data_ty;
        let fields = self.plan.chart.data.iter().map(|d| {
            let id = format_ident!("{}", d.id);
            let ty = match &d.ty {
                Some(t) => t.clone(),
                None => {
                    let rt = &self.rt;
                    quote!(#rt::serde_json::Value)
                }
            };
            let ty_text = d
                .ty_text
                .as_ref()
                .map_or(String::new(), |t| format!(" rs:type=\"{t}\""));
            let doc = format!(
                " `<data id=\"{}\"{ty_text}>` at {}:{}.",
                d.id, self.file, d.line
            );
            quote!(#[doc = #doc] pub #id: #ty,)
        });
        let doc = format!(
            " The datamodel of `{}`: one field per `<data>`, initialised in document order when the machine starts.",
            self.file
        );
        quote! {
            #[doc = #doc]
            #[derive(Default)]
            #[allow(non_snake_case, reason = "fields keep the spelling of the chart's `<data id>`")]
            pub struct #name { #(#fields)* }
        }
    }

    fn events_mod(&self) -> TokenStream {
        let consts = self.plan.events.iter().map(|(c, name, line)| {
            let c = format_ident!("{}", c);
            let doc = format!(" `{name}` (first used at {}:{line}).", self.file);
            quote!(#[doc = #doc] pub const #c: &str = #name;)
        });
        let doc = format!(" The event names `{}` uses, as constants.", self.file);
        quote! {
            #[doc = #doc]
            #[allow(dead_code, reason = "every event name of the chart is offered, used or not")]
            pub mod events { #(#consts)* }
        }
    }

    fn machine(&mut self) -> TokenStream {
        let rt = &self.rt;
        let name = format_ident!("{}", self.plan.type_name);
        let chart = format_ident!("{}Chart", self.plan.type_name);
        let data = &self.data_ty;
        let doc = doc(&format!(
            "The state machine compiled from `{}`.\n\nCreate it with `new()`, optionally `set_initial_values(..)`, then `start()`; drive it with `submit_event(..)` and observe it with `connect_to_state(..)` and `connect_to_event(..)`. See [`{}`] for the whole API.",
            self.file,
            quote!(#rt::Machine).to_string().replace(' ', "")
        ));
        let chart_doc = format!(
            " The compiled tables of `{}`: the type parameter of [`{}`].",
            self.file, self.plan.type_name
        );
        let new_data = if self.is_js() {
            let ids = self.plan.chart.data.iter().map(|d| &d.id);
            quote!(#rt::ecmascript::Js::new(&[#(#ids),*]))
        } else if exec::has_data(self.plan.chart.datamodel) {
            quote!(::core::default::Default::default())
        } else {
            quote!()
        };
        // The event names numbered at build time: a `match` compiles to a length switch and a
        // few word compares. Beyond `MATCHED_EVENT_NAMES` names the default binary search
        // keeps rustc's work small.
        // A chart whose analysis found no cell gets a `quiet_step` that is `None`
        // throughout: the machine's quiet attempt then compiles away.
        let steps = quiet::quiet_steps(self.plan);
        let lane_at_call_site = steps.as_ref().is_none_or(|s| s.is_empty());
        let quiet_step = steps.map(|steps| {
            let empty = steps.is_empty();
            let arms: Vec<TokenStream> = steps
                .into_iter()
                .map(|step| {
                    if let Some(transit) = step.transit {
                        self.transits.insert(step.cell, transit);
                    }
                    let comment = self.p.comment(step.what);
                    let cell = num(step.cell);
                    let next = num(step.next_row);
                    quote! {
                        #cell => {
                            #comment
                            ::core::option::Option::Some(#next)
                        }
                    }
                })
                .collect();
            let body = if empty {
                quote! {
                    let _ = cell;
                    ::core::option::Option::None
                }
            } else {
                quote! {
                    match cell {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            };
            quote! {
                const QUIET_STEPS: bool = true;
                #[inline]
                fn quiet_step(cell: usize) -> ::core::option::Option<u32> {
                    #body
                }
            }
        });
        let names = event_names(self.plan);
        let generated_steps = self.has_steps().then(|| {
            quote! {
                const STEP: ::core::option::Option<#rt::__private::StepFn<#data, Event>> =
                    ::core::option::Option::Some(__scxml::step);
            }
        });
        let lane = self.has_lane().then(|| {
            quote! {
                const LANE: bool = true;
                const LANE_AT_CALL_SITE: bool = #lane_at_call_site;
                #[inline(always)]
                fn lane(
                    lane: &mut #rt::__private::Lane<'_, #data, Event>,
                    event: &Event,
                ) -> #rt::__private::LaneEnd {
                    __scxml::lane(lane, event)
                }
            }
        });
        let state_index = if self.state_newtype {
            quote!(state.0)
        } else {
            quote!(state as #rt::StateIndex)
        };
        let state_of_index = if self.state_newtype {
            quote! {
                let info = __scxml::STATES.get(index as usize)?;
                (index != 0 && !info.kind.is_history()).then_some(State(index))
            }
        } else {
            quote!(__scxml::STATE_OF.get(index as usize).copied().flatten())
        };
        let event_index = (!names.is_empty() && names.len() <= MATCHED_EVENT_NAMES).then(|| {
            let arms = names.iter().enumerate().map(|(i, n)| {
                let i = num(i);
                quote!(#n => ::core::option::Option::Some(#i),)
            });
            quote! {
                #[inline]
                fn event_index(name: &str) -> ::core::option::Option<usize> {
                    match name {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            }
        });
        let interface = num(crate::runtime::__private::INTERFACE as usize);
        // Every chart this one may invoke: `Core` is `Send` only when they are.
        let invoked: Vec<TokenStream> = self
            .plan
            .children
            .iter()
            .zip(&self.plan.chart.children)
            .map(|(child, info)| {
                let module = format_ident!("{}", info.module);
                let chart = format_ident!("{}Chart", child.type_name);
                let c = quote!(<#module::#chart as #rt::Chart>);
                quote!((#c::Data, #c::Event, #c::Invoked),)
            })
            .collect();
        quote! {
            // The runtime this code was generated for (a mismatch is a compile error here).
            const _: () = #rt::__private::check_interface(#interface);

            #doc
            pub type #name = #rt::Machine<#chart>;

            #[doc = #chart_doc]
            #[derive(Debug, Clone, Copy, Default)]
            pub struct #chart;

            impl #rt::Chart for #chart {
                type State = State;
                type Data = #data;
                type Event = Event;
                type Invoked = (#(#invoked)*);
                fn tables() -> &'static #rt::Tables<#data, Event> {
                    &__scxml::TABLES
                }
                fn new_data() -> Self::Data {
                    #new_data
                }
                fn state(index: #rt::StateIndex) -> ::core::option::Option<State> {
                    #state_of_index
                }
                fn index(state: State) -> #rt::StateIndex {
                    #state_index
                }
                #event_index
                #quiet_step
                #generated_steps
                #lane
            }
        }
    }

    /// Writes the hidden module of tables and compiled chart code: first the tables, then
    /// each function, made and written one at a time.
    fn internals(
        &mut self,
        printer: &mut print::Printer<'_>,
        indent: usize,
    ) -> std::io::Result<()> {
        let plan = self.plan;
        let rt = self.rt.clone();
        let data = self.data_ty.clone();
        let opt = |v: Option<usize>| match v {
            Some(x) => {
                let x = num(x);
                quote!(::core::option::Option::Some(#x))
            }
            None => quote!(::core::option::Option::None),
        };

        // States and transitions are one row each, formatted here rather than by
        // prettyplease (which would give every field a line): a chart of 65,538 states stays
        // a few hundred bytes per state.
        // Empty lists and absent indices are typed constants: an untyped `&[]` or `None`
        // costs rustc an inference variable each, and tens of thousands of them in one
        // initializer made type checking superlinear (LCCA.64: 27 s -> 3 s).
        let file = self.file.clone();
        let state_table = self.p.made_table(plan.chart.states.len(), move |i| {
            let s = &plan.chart.states[i];
            let row = rows::state(plan, i);
            let parent = row
                .parent
                .map_or("__NO_STATE".to_owned(), |p| p.to_string());
            let element = match s.kind {
                StateKind::Root => "scxml",
                StateKind::Parallel => "parallel",
                StateKind::Final => "final",
                StateKind::ShallowHistory | StateKind::DeepHistory => "history",
                _ => "state",
            };
            let what = if s.generated_id {
                format!("<{element}>")
            } else {
                format!("<{element} id={:?}>", s.id)
            };
            format!(
                "__S::row({:?}, __K::{:?}, {parent}, {}, {}, {}, {}, {}, {}, {}, {}, {}), // {i}: {what} at {}:{}",
                row.id,
                row.kind,
                row.descendants_end,
                table_list(row.children),
                table_option(row.initial),
                table_range(row.transitions),
                table_range(row.onentry),
                table_range(row.onexit),
                table_option(row.donedata),
                table_list(&row.history),
                row.line,
                file,
                s.line,
            )
        });
        let n_states = num(plan.chart.states.len());
        let state_of = self
            .p
            .made_table(plan.chart.states.len(), |i| match plan.variant(i) {
                Some(v) => format!("__O::Some(State::{v}),"),
                None => "__O::None,".to_owned(),
            });
        let state_of_table = (!self.state_newtype).then(|| {
            quote! {
                /// The `State` variant of each state index (a constant, so that the variant
                /// of a state index known at compile time is too).
                pub(super) const STATE_OF: [__O<State>; #n_states] = #state_of;
            }
        });

        let file = self.file.clone();
        let transition_table = self.p.made_table(plan.chart.transitions.len(), move |i| {
            let t = &plan.chart.transitions[i];
            let row = rows::transition(plan, i);
            let domain = match row.domain {
                Domain::Targetless => "__D::Targetless".to_owned(),
                Domain::Dynamic => "__D::Dynamic".to_owned(),
                Domain::Static(d) => format!("__D::Static({d})"),
            };
            let src_state = &plan.chart.states[t.source];
            let what = if src_state.initial.get() == Some(i) && !src_state.kind.is_history() {
                "initial transition".to_owned()
            } else if src_state.kind.is_history() {
                "default transition".to_owned()
            } else {
                match t.event_text() {
                    Some(e) => format!("<transition event={e:?}>"),
                    None => "eventless <transition>".to_owned(),
                }
            };
            let target_ids: Vec<&str> = t
                .targets
                .iter()
                .map(|&s| &*plan.chart.states[s].id)
                .collect();
            let to = if target_ids.is_empty() {
                String::new()
            } else {
                format!(" to {}", target_ids.join(" "))
            };
            format!(
                "__T::row({}, {}, {}, {}, {}, {}, {domain}, {}), // {i}: {what} of {}{to} at {}:{}",
                row.source,
                if row.events.is_empty() {
                    "__NO_EVENTS".to_owned()
                } else {
                    format!("&{:?}", row.events)
                },
                table_option(row.cond),
                table_list(row.targets),
                row.internal,
                table_option(row.content),
                row.line,
                src_state.id,
                file,
                t.line,
            )
        });
        let n_transitions = num(plan.chart.transitions.len());

        let event_names: Vec<String> = event_names(plan)
            .iter()
            .map(|n| format!("{n:?},"))
            .collect();
        let n_event_names = num(event_names.len());
        let event_names = self.table(event_names);

        // The tables of functions: one pre-formatted row each, like the state rows.
        let conditions = self.p.made_table(plan.conditions.len(), |k| {
            let line = plan.chart.transitions[plan.conditions[k].0].line;
            format!("__C {{ line: {line}, eval: cond_{k} }},")
        });
        let blocks = self.p.made_table(plan.blocks.len(), |k| {
            format!("__B {{ line: {}, run: block_{k} }},", plan.blocks[k].line)
        });
        let done = self.p.made_table(plan.done_data.len(), |k| {
            let line = plan.done_data[k].1.line;
            format!("__DD {{ line: {line}, eval: done_data_{k} }},")
        });
        let mut invokes = Vec::new();
        for (k, inv) in plan.chart.invokes.iter().enumerate() {
            let name = format_ident!("invoke_{k}");
            let (state, line, column) = (num(inv.state), num(inv.line), num(inv.column));
            let autoforward = inv.autoforward;
            let finalize = opt(plan.invoke_finalize[k]);
            invokes.push(quote!(#rt::Invoke {
                state: #state,
                line: #line,
                column: #column,
                autoforward: #autoforward,
                finalize: #finalize,
                start: #name,
            }));
        }
        let n_invokes = num(invokes.len());
        let keyed: Vec<TokenStream> = plan
            .chart
            .children
            .iter()
            .filter_map(|c| {
                let key = c.key.as_ref()?;
                let module = format_ident!("{}", c.module);
                Some(quote!(#key => ::core::option::Option::Some(#rt::spawn::<#module::InvokedChart>),))
            })
            .collect();
        let uses_selection = plan
            .chart
            .invokes
            .iter()
            .any(|i| matches!(i.source, crate::chart::InvokeSource::Expr(_)));
        let select = if uses_selection {
            quote! {
                /// The charts a run-time `srcexpr` or `<content expr>` can start, by key.
                fn select_chart(key: &str) -> ::core::option::Option<fn(&str) -> ::std::boxed::Box<dyn #rt::Session>> {
                    match key {
                        #(#keyed)*
                        _ => ::core::option::Option::None,
                    }
                }
            }
        } else {
            quote!()
        };
        let mut data_items = Vec::new();
        for (k, d) in plan.chart.data.iter().enumerate() {
            let (init, set, get) = (
                format_ident!("data_init_{k}"),
                format_ident!("data_set_{k}"),
                format_ident!("data_get_{k}"),
            );
            let id = &d.id;
            let line = num(d.line);
            let state = num(d.state);
            data_items.push(
                quote!(#rt::DataItem { id: #id, state: #state, line: #line, init: #init, set: #set, get: #get }),
            );
        }
        let (nc, nb, nd, ndata) = (
            num(plan.conditions.len()),
            num(plan.blocks.len()),
            num(plan.done_data.len()),
            num(data_items.len()),
        );
        let name = &plan.chart.name;
        let file = &self.file;
        let script = opt(plan.script_block);
        let late_binding = plan.chart.late_binding;
        let pad = "    ".repeat(indent);
        printer.text(&format!(
            "{pad}/// The static tables and the compiled datamodel code of the chart.\n\
             {pad}#[doc(hidden)]\n\
             {pad}#[allow(\n\
             {pad}    non_snake_case,\n\
             {pad}    unused_imports,\n\
             {pad}    unused_variables,\n\
             {pad}    unreachable_code,\n\
             {pad}    clippy::all,\n\
             {pad}    reason = \"generated code: chart code keeps the chart's names, and bindings are shared by every kind of element\"\n\
             {pad})]\n\
             {pad}mod __scxml {{\n"
        ))?;
        let head = quote! {
                use super::*;

                pub(super) static TABLES: #rt::Tables<#data, Event> = #rt::Tables {
                    name: #name,
                    file: #file,
                    states: &STATES,
                    transitions: &TRANSITIONS,
                    conditions: &CONDITIONS,
                    blocks: &BLOCKS,
                    done_data: &DONE_DATA,
                    data: &DATA,
                    script: #script,
                    invokes: &INVOKES,
                    late_binding: #late_binding,
                    event_names: &EVENT_NAMES,
                    fast_path: #rt::FastPathCache::new(),
                };

                /// The event names of the transitions, sorted (`Chart::event_index` numbers them).
                static EVENT_NAMES: [&str; #n_event_names] = #event_names;

                #state_of_table

                use #rt::{Domain as __D, StateInfo as __S, StateKind as __K, TransitionInfo as __T, NO_STATE as __NO_STATE};
                use ::core::option::Option as __O;
                const __EMPTY: &[u32] = &[];
                const __NONE: __O<u32> = __O::None;
                const __NO_EVENTS: &[&str] = &[];

                /// States in document order: `__S::row(id, kind, parent, descendants_end,
                /// children, initial, transitions, onentry, onexit, donedata, history, line)`.
                pub(super) static STATES: [__S; #n_states] = #state_table;

                /// Transitions in document order: `__T::row(source, events, cond, targets,
                /// internal, content, domain, line)`.
                static TRANSITIONS: [__T; #n_transitions] = #transition_table;

                use #rt::{Block as __B, Condition as __C, DoneData as __DD};
                /// Conditions: `__C { line, eval }`.
                static CONDITIONS: [__C<#data, Event>; #nc] = #conditions;
                /// Blocks of executable content: `__B { line, run }`.
                static BLOCKS: [__B<#data, Event>; #nb] = #blocks;
                /// Done data: `__DD { line, eval }`.
                static DONE_DATA: [__DD<#data, Event>; #nd] = #done;
                static DATA: [#rt::DataItem<#data, Event>; #ndata] = [#(#data_items),*];
                static INVOKES: [#rt::Invoke<#data, Event>; #n_invokes] = [#(#invokes),*];
                #select
        };
        printer.items(head, indent + 1, &mut self.p)?;
        // The functions, in the order of their tables, each written as soon as it is made.
        // Each is looked through for `_event` on the way (for the lane).
        for (k, (t, cond)) in plan.conditions.iter().enumerate() {
            let f = self.condition_fn(k, *t, cond);
            self.reads_event.conds.push(lane::reads_event(&f));
            printer.items(f, indent + 1, &mut self.p)?;
        }
        for (k, b) in plan.blocks.iter().enumerate() {
            let f = self.block_fn(k, b);
            self.reads_event.blocks.push(lane::reads_event(&f));
            self.reads_event.logs.push(lane::logs(&f));
            self.reads_event.reaches.push(lane::reaches_context(&f));
            printer.items(f, indent + 1, &mut self.p)?;
        }
        for (k, (st, dd)) in plan.done_data.iter().enumerate() {
            let f = self.done_data_fn(k, *st, dd);
            self.reads_event.elsewhere |= lane::reads_event(&f);
            printer.items(f, indent + 1, &mut self.p)?;
        }
        for k in 0..plan.chart.invokes.len() {
            let f = self.invoke_fn(k);
            printer.items(f, indent + 1, &mut self.p)?;
        }
        for k in 0..plan.chart.data.len() {
            let f = self.data_fns(k);
            self.reads_event.elsewhere |= lane::reads_event(&f);
            printer.items(f, indent + 1, &mut self.p)?;
        }
        if self.has_steps() {
            let f = self.step_fn();
            printer.items(f, indent + 1, &mut self.p)?;
        }
        if self.has_lane() {
            let f = self.lane_fn();
            printer.items(f, indent + 1, &mut self.p)?;
        }
        printer.text(&format!("{pad}}}\n"))
    }
}

/// A list of indices in a table row: empty lists are the typed constant `__EMPTY` (an untyped
/// `&[]` costs rustc an inference variable each, and tens of thousands of them in one
/// initializer made type checking superlinear: LCCA.64, 27 s -> 3 s).
fn table_list(v: &[usize]) -> String {
    if v.is_empty() {
        return "__EMPTY".to_owned();
    }
    let v: Vec<String> = v.iter().map(ToString::to_string).collect();
    format!("&[{}]", v.join(", "))
}

/// Consecutive indices in a table row, as [`table_list`] writes them.
fn table_range(v: std::ops::Range<usize>) -> String {
    table_list(&v.collect::<Vec<_>>())
}

/// An optional index in a table row: `None` is the typed constant `__NONE`.
fn table_option(v: Option<usize>) -> String {
    match v {
        Some(x) => format!("__O::Some({x})"),
        None => "__NONE".to_owned(),
    }
}
