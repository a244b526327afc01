//! Executable content, conditions, done data and `<data>` initialisers → Rust functions
//! (mirrors [`validate::executable`](crate::validate)).

use super::{num, Emitter};
use crate::chart::{
    AssignValue, Block, Code, Cond, Content, DataInit, DatamodelKind, Delay, DoneData, Exec,
    InvokeSource, Location, LocationRoot, Param, Payload, Send, Value,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Up to this many states, `In` is a `match` on the chart's state ids
/// ([`Emitter::in_binding`]); above, a look-up in the runtime's table (a `match` of
/// thousands of arms in every block that names `In` costs more to compile than it saves).
const IN_MATCH_STATES: usize = 256;

/// Whether bindings may be mutated (`<script>`) or only read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

impl Emitter<'_> {
    /// `let` bindings for the data items, system variables and `In` the code mentions.
    fn bindings(&self, code: &Code, access: Access) -> TokenStream {
        let rt = &self.rt;
        let mut out = TokenStream::new();
        for name in &code.idents {
            if let Some(d) = self.plan.chart.data.iter().find(|d| &d.id == name) {
                let id = format_ident!("{}", d.id);
                out.extend(match access {
                    Access::Read => quote!(let #id = &__data.#id;),
                    Access::Write => quote!(let #id = &mut __data.#id;),
                });
                continue;
            }
            if name == "_event" {
                if let Some(typed) = self.event_scope.and_then(|t| self.typed_event_binding(t)) {
                    out.extend(typed);
                    continue;
                }
            }
            out.extend(match name.as_str() {
                "_event" => quote!(let _event: &#rt::Event = __ctx.event();),
                "_name" => quote!(let _name: &str = __ctx.name();),
                "_sessionid" => quote!(let _sessionid: &str = __ctx.session_id();),
                "_ioprocessors" => {
                    quote!(let _ioprocessors: &#rt::serde_json::Value = __ctx.io_processors();)
                }
                "In" => self.in_binding(),
                _ => continue,
            });
        }
        out
    }

    /// `In`, for code that names it: a closure from a state id to whether that state is
    /// active. For a chart of at most [`IN_MATCH_STATES`] states it is a `match` on the ids
    /// (each arm the state's index, resolved here), so `In("paused")` with a literal id
    /// folds to a look at one bit of the configuration and an id passed on at run time costs
    /// a string `match`, not a hash; larger charts look the id up in the runtime's table.
    /// An unknown id, and the root's, are `false` either way.
    fn in_binding(&self) -> TokenStream {
        let states = &self.plan.chart.states;
        if states.len() > IN_MATCH_STATES {
            return quote!(let In = |__id: &str| -> bool { __ctx.is_in_id(__id) };);
        }
        let arms = states.iter().enumerate().skip(1).map(|(i, s)| {
            let id = &*s.id;
            let i = num(i);
            quote!(#id => __ctx.is_in(#i),)
        });
        quote!(
            let In = |__id: &str| -> bool {
                match __id {
                    #(#arms)*
                    _ => false,
                }
            };
        )
    }

    /// An expression evaluated with read-only bindings, as a block.
    fn value(&self, code: &Code) -> TokenStream {
        if self.is_js() {
            return self.js_string(code);
        }
        let b = self.bindings(code, Access::Read);
        let e = &code.tokens;
        if b.is_empty() {
            quote!(#e)
        } else {
            quote!({ #b #e })
        }
    }

    /// A JSON value from an expression (`<param>`, `<content expr>`, `<log expr>`),
    /// serialized by reference, so `_event.data` or a data field needs no `.clone()`.
    fn json(&self, code: &Code) -> TokenStream {
        if self.is_js() {
            return self.js_json(code);
        }
        let rt = &self.rt;
        let b = self.bindings(code, Access::Read);
        let e = &code.tokens;
        if b.is_empty() {
            quote!(#rt::serde_json::to_value(&(#e))?)
        } else {
            quote!({
                #b
                #rt::serde_json::to_value(&(#e))?
            })
        }
    }

    fn string(&self, v: &Value) -> TokenStream {
        match v {
            Value::Literal(s) => quote!(::std::string::String::from(#s)),
            Value::Expr(code) => {
                let v = self.value(code);
                quote!(::std::string::ToString::to_string(&#v))
            }
        }
    }

    fn cond_expr(&self, cond: &Cond) -> TokenStream {
        match cond {
            Cond::In(s) => {
                let s = num(*s);
                quote!(__ctx.is_in(#s))
            }
            Cond::Rust(code) if self.is_js() => self.js_cond(code),
            Cond::Rust(code) => self.value(code),
        }
    }

    /// A table condition: `fn cond_N(&Data, &Context) -> Result<bool, ExecError>`.
    pub(super) fn condition_fn(
        &mut self,
        index: usize,
        transition: usize,
        cond: &Cond,
    ) -> TokenStream {
        self.event_scope = Some(transition);
        let f = self.condition_fn_in_scope(index, transition, cond);
        self.event_scope = None;
        f
    }

    fn condition_fn_in_scope(
        &mut self,
        index: usize,
        transition: usize,
        cond: &Cond,
    ) -> TokenStream {
        let rt = &self.rt;
        let data = &self.data_ty;
        let name = format_ident!("cond_{index}");
        let t = &self.plan.chart.transitions[transition];
        let text = match cond {
            Cond::Rust(c) => c.text.clone(),
            Cond::In(s) => format!("In({})", self.plan.chart.states[*s].id),
        };
        let line = match cond {
            Cond::Rust(c) => c.line,
            Cond::In(_) => t.line,
        };
        let doc = format!(
            " `cond=\"{}\"` of the transition at {}:{}.",
            text, self.file, line
        );
        let body = match cond {
            Cond::In(_) => {
                // Nothing to fail: a state index looked up in the configuration.
                let body = self.cond_expr(cond);
                return quote! {
                    #[doc = #doc]
                    #[inline]
                    fn #name(__data: &#data, __ctx: &#rt::Context<Event>) -> ::core::result::Result<bool, #rt::ExecError> {
                        ::core::result::Result::Ok(#body)
                    }
                };
            }
            Cond::Rust(_) => self.cond_expr(cond),
        };
        // Errors and panics are reported at the `cond` attribute.
        let (line, column) = match cond {
            Cond::Rust(c) => (num(c.line), num(c.column)),
            Cond::In(_) => (num(line), num(0)),
        };
        // Literals are interpolated, not written in `quote!`: `quote!` tokenizes a written
        // literal from text, and proc-macro2 (with `span-locations`) keeps every text it
        // tokenizes until the thread ends, a few hundred bytes per generated function.
        let element = "transition";
        quote! {
            #[doc = #doc]
            #[inline]
            fn #name(__data: &#data, __ctx: &#rt::Context<Event>) -> ::core::result::Result<bool, #rt::ExecError> {
                #rt::__private::run_chart_code(|| ::core::result::Result::Ok(#body))
                    .map_err(|e| e.at(#element, #line, #column))
            }
        }
    }

    /// A table block: `fn block_N(&mut Data, &mut Context) -> Result<(), ExecError>`.
    pub(super) fn block_fn(&mut self, index: usize, block: &Block) -> TokenStream {
        let rt = self.rt.clone();
        let data = self.data_ty.clone();
        let name = format_ident!("block_{index}");
        let doc = format!(
            " {} at {}:{}.",
            code_tags(&block.owner),
            self.file,
            block.line
        );
        self.event_scope = (0..self.plan.chart.transitions.len())
            .position(|t| self.plan.transition_block(t) == Some(index));
        let body = self.exec_list(&block.body);
        self.event_scope = None;
        // Literals are interpolated (see `condition_fn`), tuple indices too.
        let (tag, line) = (block_tag(&block.owner), num(block.line));
        let (zero, one, two) = (num(0), num(1), num(2));
        quote! {
            #[doc = #doc]
            #[inline]
            fn #name(__data: &mut #data, __ctx: &mut #rt::Context<Event>) -> ::core::result::Result<(), #rt::ExecError> {
                // The element an error comes from: each statement updates it.
                let mut __site: (&'static str, u32, u32) = (#tag, #line, #zero);
                // A panic is caught here, while the site of the statement is still known.
                let __result = #rt::__private::run_chart_code(|| -> ::core::result::Result<(), #rt::ExecError> {
                    #body
                    ::core::result::Result::Ok(())
                });
                __result.map_err(|e| e.at(__site.#zero, __site.#one, __site.#two))
            }
        }
    }

    fn exec_list(&mut self, list: &[Exec]) -> TokenStream {
        list.iter().map(|e| self.exec(e)).collect()
    }

    /// A marker statement that becomes a `// chart:LINE: …` comment after formatting.
    /// The `// chart:LINE: …` marker of a statement, then the statement's error site: the
    /// element, line and column an error inside it reports (see [`ExecError::at`]).
    ///
    /// [`ExecError::at`]: crate::runtime::ExecError::at
    fn marker(&mut self, tag: &str, line: u32, column: u32, what: String) -> TokenStream {
        let comment = self.p.comment(format!("{}:{line}: {what}", self.file));
        let (l, c) = (num(line), num(column));
        quote!(#comment __site = (#tag, #l, #c);)
    }

    fn exec(&mut self, e: &Exec) -> TokenStream {
        let rt = self.rt.clone();
        match e {
            Exec::Raise {
                event,
                line,
                column,
            } => {
                let m = self.marker(
                    "raise",
                    *line,
                    *column,
                    format!("<raise event=\"{event}\">"),
                );
                match self.event_of(event) {
                    Some((v, Payload::Unit)) => quote!(#m __ctx.raise_typed(Event::#v);),
                    Some((v, Payload::Json)) => {
                        quote!(#m __ctx.raise_typed(Event::#v(#rt::serde_json::Value::Null));)
                    }
                    _ => quote!(#m __ctx.raise(#event, #rt::serde_json::Value::Null);),
                }
            }
            Exec::Send(send) => {
                let m = self.marker("send", send.line, send.column, "<send>".to_owned());
                if let Some(typed) = self.typed_send(send) {
                    return quote!(#m #typed);
                }
                let event = match &send.event {
                    Some(v) => self.string(v),
                    None => quote!(::std::string::String::new()),
                };
                let opt = |v: &Option<Value>| match v {
                    Some(v) => {
                        let s = self.string(v);
                        quote!(::core::option::Option::Some(#s))
                    }
                    None => quote!(::core::option::Option::None),
                };
                let target = opt(&send.target);
                let type_ = opt(&send.type_);
                let id = match &send.id {
                    Some(id) => {
                        quote!(::core::option::Option::Some(::std::string::String::from(#id)))
                    }
                    None => quote!(::core::option::Option::None),
                };
                let delay = match &send.delay {
                    None => quote!(::core::time::Duration::ZERO),
                    Some(Delay::Fixed(d)) => {
                        let nanos = num(d.as_nanos());
                        quote!(::core::time::Duration::from_nanos(#nanos))
                    }
                    Some(Delay::Expr(code)) => {
                        let v = self.value(code);
                        quote!(#rt::parse_delay(&::std::string::ToString::to_string(&#v))?)
                    }
                };
                let data = self.payload(
                    &send.namelist,
                    send.namelist_error.as_deref(),
                    &send.params,
                    send.content.as_ref(),
                );
                let idloc = send
                    .idlocation
                    .as_ref()
                    .map(|loc| self.assign_to(loc, quote!(__sendid)));
                let expose = send.idlocation.is_some();
                quote! {
                    #m
                    {
                        let __request = #rt::SendRequest {
                            event: #event,
                            target: #target,
                            type_: #type_,
                            id: #id,
                            delay: #delay,
                            data: #data,
                            expose_generated_id: #expose,
                        };
                        let __sendid = __ctx.send(__request)?;
                        #idloc
                    }
                }
            }
            Exec::Cancel {
                sendid,
                line,
                column,
            } => {
                let m = self.marker("cancel", *line, *column, "<cancel>".to_owned());
                let s = self.string(sendid);
                quote!(#m { let __sendid = #s; __ctx.cancel(&__sendid); })
            }
            Exec::Assign {
                location,
                value,
                line,
                column,
            } => {
                let m = self.marker(
                    "assign",
                    *line,
                    *column,
                    format!("<assign location=\"{}\">", location.code.text),
                );
                let expr = match value {
                    AssignValue::Expr(expr) => expr,
                    AssignValue::Xml(markup) => {
                        let rt = &self.rt;
                        let v = quote!(#rt::ecmascript::dom::xml_value(#markup));
                        let assign = self.js_assign_value(location, v);
                        return quote!(#m #assign);
                    }
                };
                if self.is_js() {
                    let assign = self.js_assign(location, expr);
                    return quote!(#m #assign);
                }
                let v = self.value(expr);
                let assign = self.assign_to(location, quote!(__value));
                quote!(#m { let __value = #v; #assign })
            }
            Exec::If {
                branches,
                line,
                column,
            } => {
                let m = self.marker("if", *line, *column, "<if>".to_owned());
                let chain = self.if_chain(branches);
                quote!(#m #chain)
            }
            Exec::Foreach {
                array,
                item,
                index,
                body,
                line,
                column,
            } => {
                let m = self.marker(
                    "foreach",
                    *line,
                    *column,
                    format!("<foreach array=\"{}\">", array.text),
                );
                if self.is_js() {
                    let body = self.exec_list(body);
                    let each = self.js_foreach(array, *item, *index, *line, body);
                    return quote!(#m #each);
                }
                let items = self.value(array);
                let item_d = &self.plan.chart.data[*item];
                let item_id = format_ident!("{}", item_d.id);
                let set_item = if item_d.ty.is_some() {
                    quote!(__data.#item_id = __item;)
                } else {
                    quote!(__data.#item_id = #rt::serde_json::to_value(&__item)?;)
                };
                let set_index = index.map(|i| {
                    let d = &self.plan.chart.data[i];
                    let id = format_ident!("{}", d.id);
                    if d.ty.is_some() {
                        quote!(__data.#id = ::core::convert::TryFrom::try_from(__index)?;)
                    } else {
                        quote!(__data.#id = #rt::serde_json::Value::from(__index);)
                    }
                });
                let body = self.exec_list(body);
                quote! {
                    #m
                    {
                        let __items = #rt::__private::foreach_items(#items)?;
                        for (__index, __item) in ::core::iter::Iterator::enumerate(::core::iter::IntoIterator::into_iter(__items)) {
                            #set_item
                            #set_index
                            #body
                        }
                    }
                }
            }
            Exec::Log {
                label,
                expr,
                line,
                column,
            } => {
                let m = self.marker("log", *line, *column, format!("<log label=\"{label}\">"));
                let v = match expr {
                    Some(code) => self.json(code),
                    None => quote!(#rt::serde_json::Value::Null),
                };
                quote!(#m { let __value = #v; __ctx.log(#label, &__value); })
            }
            Exec::Script { code, line, column } => {
                let m = self.marker("script", *line, *column, "<script>".to_owned());
                if self.is_js() {
                    let s = self.js_script(code);
                    return quote!(#m #s);
                }
                let b = self.bindings(code, Access::Write);
                let s = &code.tokens;
                quote!(#m { #b #s })
            }
        }
    }

    /// A `<send>` of a typed event to this session (no `target`, or `#_internal`) whose
    /// data the generator can build as the payload type: no JSON is made.
    fn typed_send(&mut self, send: &Send) -> Option<TokenStream> {
        let rt = self.rt.clone();
        let Some(Value::Literal(name)) = &send.event else {
            return None;
        };
        let target = match &send.target {
            None => quote!(#rt::__private::TypedTarget::Own),
            Some(Value::Literal(t)) if t == "#_internal" => {
                quote!(#rt::__private::TypedTarget::Internal)
            }
            _ => return None,
        };
        match &send.type_ {
            None => {}
            Some(Value::Literal(t))
                if t == "scxml" || t == "http://www.w3.org/TR/scxml/#SCXMLEventProcessor" => {}
            _ => return None,
        }
        if send.namelist_error.is_some() || send.params.iter().any(|p| p.error.is_some()) {
            return None;
        }
        let (variant, payload) = self.event_of(name)?;
        let event = match payload {
            Payload::Unit
                if send.params.is_empty() && send.namelist.is_empty() && send.content.is_none() =>
            {
                quote!(Event::#variant)
            }
            Payload::Fields(fields) if send.content.is_none() => {
                let fields = fields.clone();
                let mut values = Vec::new();
                for &d in &send.namelist {
                    let id = format_ident!("{}", self.plan.chart.data[d].id);
                    values.push(quote!(::core::clone::Clone::clone(&__data.#id)));
                }
                for p in &send.params {
                    let v = self.value(&p.expr);
                    values.push(v);
                }
                if values.len() != fields.len() {
                    return None;
                }
                let inits = fields.iter().zip(values).map(|((f, ty), v)| {
                    let f = format_ident!("{}", f);
                    quote!(#f: #rt::__private::IntoPayload::<#ty>::into_payload(#v),)
                });
                let name = self.payload_struct(&variant);
                quote!(Event::#variant(payloads::#name { #(#inits)* }))
            }
            // ECMAScript: the payload is the JSON of `namelist`, `<param>` or `<content>`,
            // put in the typed event here instead of passing through an untyped `Event` and
            // its strings (send id, origin) that `Context::send` would make and then convert.
            Payload::Json if self.is_js() => {
                let data = self.payload(&send.namelist, None, &send.params, send.content.as_ref());
                quote!(Event::#variant(#data))
            }
            _ => return None,
        };
        let id = match &send.id {
            Some(id) => quote!(::core::option::Option::Some(#id)),
            None => quote!(::core::option::Option::None),
        };
        let delay = match &send.delay {
            None => quote!(::core::time::Duration::ZERO),
            Some(Delay::Fixed(d)) => {
                let nanos = num(d.as_nanos());
                quote!(::core::time::Duration::from_nanos(#nanos))
            }
            Some(Delay::Expr(code)) => {
                let v = self.value(code);
                quote!(#rt::parse_delay(&::std::string::ToString::to_string(&#v))?)
            }
        };
        let expose = send.idlocation.is_some();
        let idloc = send.idlocation.as_ref().map(|loc| {
            let assign = self.assign_to(loc, quote!(__sendid));
            quote! {
                let __sendid = ::core::option::Option::unwrap_or_default(__sendid.text());
                #assign
            }
        });
        Some(quote! {
            {
                let __event = #event;
                let __sendid = __ctx.send_typed(__event, #target, #id, #delay, #expose)?;
                #idloc
            }
        })
    }

    fn if_chain(&mut self, branches: &[(Option<Cond>, Vec<Exec>)]) -> TokenStream {
        let Some(((cond, body), rest)) = branches.split_first() else {
            return TokenStream::new();
        };
        let body = self.exec_list(body);
        match cond {
            None => quote!({ #body }),
            Some(cond) => {
                let c = self.cond_expr(cond);
                let rest = self.if_chain(rest);
                let otherwise = if rest.is_empty() {
                    quote!()
                } else {
                    quote!(else { #rest })
                };
                quote! {
                    let __cond: bool = #c;
                    if __cond { #body } #otherwise
                }
            }
        }
    }

    /// Stores `value` (a local) into a location.
    fn assign_to(&self, loc: &Location, value: TokenStream) -> TokenStream {
        if self.is_js() {
            return self.js_assign_value(loc, value);
        }
        let rt = &self.rt;
        match loc.data {
            LocationRoot::SystemVariable => {
                let msg = format!("`{}` is a read-only system variable", loc.code.text);
                quote!(return ::core::result::Result::Err(#rt::ExecError::new(#msg));)
            }
            LocationRoot::Undeclared => {
                let msg = format!("`{}` is not a valid location", loc.code.text);
                quote!(return ::core::result::Result::Err(#rt::ExecError::new(#msg));)
            }
            LocationRoot::Data(d) => {
                let data = &self.plan.chart.data[d];
                let id = format_ident!("{}", data.id);
                if loc.bare {
                    if data.ty.is_some() {
                        quote!(__data.#id = #value;)
                    } else {
                        quote!(__data.#id = #rt::serde_json::to_value(&#value)?;)
                    }
                } else {
                    let place = &loc.code.tokens;
                    quote!({ let #id = &mut __data.#id; #place = #value; })
                }
            }
        }
    }

    /// The `data` of a `<send>` or `<donedata>`: an object from `namelist` and `<param>`s, or
    /// the `<content>`.
    fn payload(
        &self,
        namelist: &[usize],
        namelist_error: Option<&str>,
        params: &[Param],
        content: Option<&Content>,
    ) -> TokenStream {
        let rt = &self.rt;
        if let Some(msg) = namelist_error.or_else(|| params.iter().find_map(|p| p.error.as_deref()))
        {
            return quote!({ return ::core::result::Result::Err(#rt::ExecError::new(#msg)); });
        }
        if let Some(content) = content {
            return match content {
                Content::Expr(code) => self.json(code),
                Content::Text(text) if serde_json::from_str::<serde_json::Value>(text).is_ok() => {
                    quote!(#rt::serde_json::from_str::<#rt::serde_json::Value>(#text)?)
                }
                // ECMAScript (B.2.2): text that is not JSON is a space-normalised string.
                Content::Text(text) if self.is_js() => {
                    let words: Vec<&str> = text.split_whitespace().collect();
                    let text = words.join(" ");
                    quote!(#rt::serde_json::Value::String(::std::string::String::from(#text)))
                }
                Content::Text(text) => {
                    quote!(#rt::serde_json::Value::String(::std::string::String::from(#text)))
                }
                Content::Xml(markup) => quote!(#rt::ecmascript::dom::xml_value(#markup)),
            };
        }
        if namelist.is_empty() && params.is_empty() {
            return quote!(#rt::serde_json::Value::Null);
        }
        let names = namelist.iter().map(|&d| {
            let id = &self.plan.chart.data[d].id;
            if self.is_js() {
                let v = self.js_variable_json(id);
                return quote!(__map.insert(::std::string::String::from(#id), #v);)
            }
            let field = format_ident!("{}", id);
            quote!(__map.insert(::std::string::String::from(#id), #rt::serde_json::to_value(&__data.#field)?);)
        });
        let params = params.iter().map(|p| {
            let name = &p.name;
            let v = self.json(&p.expr);
            quote!(__map.insert(::std::string::String::from(#name), #v);)
        });
        quote!({
            let mut __map = #rt::serde_json::Map::new();
            #(#names)*
            #(#params)*
            #rt::serde_json::Value::Object(__map)
        })
    }

    /// `fn invoke_N(&mut Data, &mut Context) -> Result<InvokeStart, ExecError>`: evaluates
    /// the `<invoke>`'s `type`, id, `namelist` and `<param>`s and creates the child session
    /// (SCXML 1.0, 6.4).
    pub(super) fn invoke_fn(&mut self, k: usize) -> TokenStream {
        let rt = self.rt.clone();
        let data = self.data_ty.clone();
        let plan = self.plan;
        let inv = &plan.chart.invokes[k];
        let name = format_ident!("invoke_{k}");
        let state_id = &plan.chart.states[inv.state].id;
        let doc = format!(" `<invoke>` of `{state_id}` at {}:{}.", self.file, inv.line);
        let type_check = match &inv.type_ {
            None => quote!(),
            Some(v) => {
                let t = self.string(v);
                quote! {
                    let __type: ::std::string::String = #t;
                    #rt::__private::check_invoke_type(::core::option::Option::Some(__type.as_str()))?;
                }
            }
        };
        let id = match &inv.id {
            Some(id) => quote!(::std::string::String::from(#id)),
            None => quote!(__ctx.generate_invoke_id(#state_id)),
        };
        let idloc = inv
            .idlocation
            .as_ref()
            .map(|loc| self.assign_to(loc, quote!(__id.clone())));
        let params = self.payload(
            &inv.namelist,
            inv.namelist_error.as_deref(),
            &inv.params,
            None,
        );
        let spawn = match &inv.source {
            InvokeSource::Child(c) => {
                let module = format_ident!("{}", plan.chart.children[*c].module);
                quote!(#rt::spawn::<#module::InvokedChart>(&__id))
            }
            InvokeSource::Expr(code) => {
                let v = self.value(code);
                quote! {{
                    let __key = #rt::__private::selector_text(&#v);
                    let __spawn = select_chart(&__key).ok_or_else(|| {
                        #rt::ExecError::new(::std::format!(
                            "no chart is compiled for `{__key}` (register it with Config::invocable)"
                        ))
                    })?;
                    __spawn(&__id)
                }}
            }
        };
        quote! {
            #[doc = #doc]
            #[inline]
            fn #name(__data: &mut #data, __ctx: &mut #rt::Context<Event>) -> ::core::result::Result<#rt::InvokeStart, #rt::ExecError> {
                #type_check
                let __params = #params;
                let __id: ::std::string::String = #id;
                #idloc
                ::core::result::Result::Ok(#rt::InvokeStart {
                    session: #spawn,
                    id: __id,
                    params: __params,
                })
            }
        }
    }

    /// `fn done_data_N(&Data, &Context) -> Result<Value, ExecError>`.
    pub(super) fn done_data_fn(
        &mut self,
        index: usize,
        state: usize,
        dd: &DoneData,
    ) -> TokenStream {
        let rt = &self.rt;
        let data = &self.data_ty;
        let name = format_ident!("done_data_{index}");
        let doc = format!(
            " `<donedata>` of `{}` at {}:{}.",
            self.plan.chart.states[state].id, self.file, dd.line
        );
        let payload = self.payload(&[], None, &dd.params, dd.content.as_ref());
        quote! {
            #[doc = #doc]
            #[inline]
            fn #name(__data: &#data, __ctx: &#rt::Context<Event>) -> ::core::result::Result<#rt::serde_json::Value, #rt::ExecError> {
                ::core::result::Result::Ok(#payload)
            }
        }
    }

    /// The `init`, `set` and `get` functions of one `<data>`.
    pub(super) fn data_fns(&mut self, index: usize) -> TokenStream {
        if self.is_js() {
            return self.js_data_fns(index);
        }
        let rt = &self.rt;
        let data_ty = &self.data_ty;
        let d = &self.plan.chart.data[index];
        let id = format_ident!("{}", d.id);
        let (init, set, get) = (
            format_ident!("data_init_{index}"),
            format_ident!("data_set_{index}"),
            format_ident!("data_get_{index}"),
        );
        let typed = d.ty.is_some();
        let init_body = match &d.init {
            DataInit::Default => quote!(),
            DataInit::Expr(code) => {
                let v = self.value(code);
                if typed {
                    quote!(let __value = #v; __data.#id = __value;)
                } else {
                    quote!(let __value = #v; __data.#id = #rt::serde_json::to_value(&__value)?;)
                }
            }
            DataInit::Json(text) => quote!(__data.#id = #rt::serde_json::from_str(#text)?;),
        };
        let doc_init = format!(
            " Early binding of `<data id=\"{}\">` at {}:{}.",
            d.id, self.file, d.line
        );
        quote! {
            #[doc = #doc_init]
            fn #init(__data: &mut #data_ty, __ctx: &#rt::Context<Event>) -> ::core::result::Result<(), #rt::ExecError> {
                #init_body
                ::core::result::Result::Ok(())
            }
            fn #set(__data: &mut #data_ty, __value: #rt::serde_json::Value) -> ::core::result::Result<(), #rt::serde_json::Error> {
                __data.#id = #rt::serde_json::from_value(__value)?;
                ::core::result::Result::Ok(())
            }
            fn #get(__data: &#data_ty) -> ::core::result::Result<#rt::serde_json::Value, #rt::serde_json::Error> {
                #rt::serde_json::to_value(&__data.#id)
            }
        }
    }
}

/// Whether the chart's datamodel has a data struct.
pub(super) fn has_data(kind: DatamodelKind) -> bool {
    kind == DatamodelKind::Rust
}

/// The element name in a block's owner description (`<onentry> of ...` → `onentry`,
/// `top-level <script>` → `script`).
fn block_tag(owner: &str) -> String {
    owner
        .split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map_or_else(
            || "executable content".to_owned(),
            |(tag, _)| tag.to_owned(),
        )
}

/// Puts each `<tag>` of a description in backticks, so rustdoc shows it as code rather than
/// reading it as HTML.
fn code_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let Some(len) = rest[start..].find('>') else {
            break;
        };
        let quoted = rest[..start].ends_with('`');
        out.push_str(&rest[..start]);
        let tag = &rest[start..=start + len];
        if quoted {
            out.push_str(tag);
        } else {
            out.push('`');
            out.push_str(tag);
            out.push('`');
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}
