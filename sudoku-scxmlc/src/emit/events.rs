//! The typed events of a chart: `pub enum Event` with one variant per event name the chart
//! uses, the payload structs of events whose `<send>`s have typed parameters
//! (`pub mod payloads`), and the conversions to and from JSON that the string API,
//! snapshots and other sessions use ([`ChartEvent`](crate::runtime::ChartEvent)).

use super::Emitter;
use crate::chart::Payload;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl Emitter<'_> {
    /// The variant of the event named `name`, with its payload; `None` for a name the chart
    /// does not use.
    pub(super) fn event_of(&self, name: &str) -> Option<(syn::Ident, &Payload)> {
        let i = self.plan.events.iter().position(|(_, n, _)| n == name)?;
        Some((
            format_ident!("{}", self.plan.chart.event_variants[i]),
            &self.plan.chart.event_payloads[i],
        ))
    }

    /// The Rust type of a payload that chart code sees as `_event.data` (`None` for JSON and
    /// for events that carry nothing).
    fn payload_type(&self, variant: &syn::Ident, payload: &Payload) -> Option<TokenStream> {
        match payload {
            Payload::Declared(t) => Some(t.clone()),
            Payload::Fields(_) => {
                let name = self.payload_struct(variant);
                Some(quote!(payloads::#name))
            }
            Payload::Unit | Payload::Json => None,
        }
    }

    /// The name of the payload struct of `variant` in `payloads`: the variant's name, or with
    /// `Data` appended where a field type of some payload names a type of that name (the
    /// event `view` carrying a `View`), which the struct would otherwise shadow.
    pub(super) fn payload_struct(&self, variant: &syn::Ident) -> syn::Ident {
        fn idents(tokens: &TokenStream, out: &mut Vec<String>) {
            for tt in tokens.clone() {
                match tt {
                    proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
                    proc_macro2::TokenTree::Group(g) => idents(&g.stream(), out),
                    _ => {}
                }
            }
        }
        let mut used = Vec::new();
        for p in &self.plan.chart.event_payloads {
            if let Payload::Fields(fields) = p {
                for (_, t) in fields {
                    idents(t, &mut used);
                }
            }
        }
        let mut name = variant.to_string();
        while used.contains(&name) {
            name.push_str("Data");
        }
        format_ident!("{}", name)
    }

    /// The `_event` binding for code of transition `t` when every event it names carries
    /// the same declared type: `_event` is then a `TypedEvent` whose `data` is that value.
    pub(super) fn typed_event_binding(&self, t: usize) -> Option<TokenStream> {
        let tr = self.plan.chart.transitions.get(t)?;
        let mut ty: Option<String> = None;
        let mut arms = Vec::new();
        for name in tr.events() {
            let (variant, payload) = self.event_of(name)?;
            let this = self.payload_type(&variant, payload)?;
            let text = this.to_string();
            if ty.as_ref().is_some_and(|t| *t != text) {
                return None;
            }
            ty = Some(text);
            arms.push(quote!(Event::#variant(__d)));
        }
        if arms.is_empty() {
            return None;
        }
        Some(quote! {
            let _event = __ctx.typed_event(|__e| match __e {
                #(#arms)|* => ::core::option::Option::Some(__d),
                #[allow(unreachable_patterns)]
                _ => ::core::option::Option::None,
            })?;
        })
    }

    /// `pub mod payloads`, `pub enum Event` and its trait implementations.
    pub(super) fn events_enum(&self) -> TokenStream {
        let rt = &self.rt;
        let serde_crate = format!("{}::serde", quote!(#rt).to_string().replace(' ', ""));
        let mut structs = Vec::new();
        let mut variants = Vec::new();
        let mut names = Vec::new();
        let mut from = Vec::new();
        let mut to = Vec::new();
        let mut into = Vec::new();
        let mut plain = Vec::new();
        let mut json = Vec::new();
        for (i, (_, name, line)) in self.plan.events.iter().enumerate() {
            let variant = format_ident!("{}", self.plan.chart.event_variants[i]);
            let payload = &self.plan.chart.event_payloads[i];
            let at = format!("{}:{line}", self.file);
            match payload {
                Payload::Unit => {
                    let doc = format!(" `{name}`, which carries nothing (declared at {at}).");
                    variants.push(quote!(#[doc = #doc] #variant,));
                    names.push(quote!(Event::#variant => #name,));
                    let why = format!("event `{name}` carries no data");
                    from.push(quote! {
                        #name => if data.is_null() {
                            #rt::Conversion::Typed(Event::#variant)
                        } else {
                            #rt::Conversion::Invalid(::std::string::String::from(#why))
                        },
                    });
                    to.push(quote!(Event::#variant => ::core::result::Result::Ok(#rt::serde_json::Value::Null),));
                    into.push(quote!(Event::#variant => {
                        *__out = #rt::serde_json::Value::Null;
                        ::core::result::Result::Ok(())
                    }));
                    plain.push(quote!(Event::#variant => true,));
                }
                Payload::Json => {
                    let doc = format!(" `{name}` with its data as JSON (first used at {at}).");
                    variants.push(quote!(#[doc = #doc] #variant(#rt::serde_json::Value),));
                    names.push(quote!(Event::#variant(_) => #name,));
                    from.push(quote!(#name => #rt::Conversion::Typed(Event::#variant(data)),));
                    to.push(quote!(Event::#variant(__v) => ::core::result::Result::Ok(::core::clone::Clone::clone(__v)),));
                    into.push(quote!(Event::#variant(__v) => {
                        ::core::clone::Clone::clone_from(__out, __v);
                        ::core::result::Result::Ok(())
                    }));
                    plain.push(quote!(Event::#variant(__v) => __v.is_null(),));
                    json.push(quote!(Event::#variant(__v)));
                }
                Payload::Declared(_) | Payload::Fields(_) => {
                    let ty = self
                        .payload_type(&variant, payload)
                        .unwrap_or_else(|| quote!(()));
                    let ty_text = ty.to_string().replace(' ', "");
                    if let Payload::Fields(fields) = payload {
                        let struct_name = self.payload_struct(&variant);
                        let doc = format!(
                            " The data of `{name}`: the parameters of its `<send>`s (first at {at})."
                        );
                        let fields = fields.iter().map(|(f, t)| {
                            let doc = format!(
                                " The `<param name=\"{f}\">` (or `namelist` item) of `{name}`, a `{}`.",
                                t.to_string().replace(' ', "")
                            );
                            let f = format_ident!("{}", f);
                            quote!(#[doc = #doc] pub #f: #t,)
                        });
                        structs.push(quote! {
                            #[doc = #doc]
                            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq, #rt::serde::Serialize, #rt::serde::Deserialize)]
                            #[serde(crate = #serde_crate)]
                            #[allow(non_snake_case, non_camel_case_types, reason = "fields keep the spelling of the chart's `<param name>`")]
                            pub struct #struct_name { #(#fields)* }
                        });
                    }
                    let doc = format!(" `{name}`, carrying a `{ty_text}` (declared at {at}).");
                    variants.push(quote!(#[doc = #doc] #variant(#ty),));
                    names.push(quote!(Event::#variant(_) => #name,));
                    let why = format!("the data of `{name}` is not a `{ty_text}`: ");
                    from.push(quote! {
                        // Read by reference (not `from_value`): the object is walked,
                        // not taken apart entry by entry, and dropped whole after.
                        #name => match <#ty as #rt::serde::Deserialize>::deserialize(&data) {
                            ::core::result::Result::Ok(d) => #rt::Conversion::Typed(Event::#variant(d)),
                            ::core::result::Result::Err(e) => #rt::Conversion::Invalid(::std::format!("{}{}", #why, e)),
                        },
                    });
                    to.push(quote!(Event::#variant(__d) => #rt::serde_json::to_value(__d),));
                    into.push(quote!(Event::#variant(__d) => #rt::to_value_into(__d, __out),));
                    plain.push(quote!(Event::#variant(_) => false,));
                }
            }
        }
        let doc = format!(
            " The events `{}` uses, typed: one variant per event name. Submit them with `submit`, observe them with `observe`; a name the chart does not use does not compile.",
            self.file
        );
        let payloads_doc = format!(
            " The payload types of the events of `{}` whose `<send>`s have typed parameters.",
            self.file
        );
        // Events whose payload is JSON lend it (to observers, to `_event`) instead of copying.
        let json_fns = if json.is_empty() {
            quote!()
        } else {
            let rest =
                (json.len() < variants.len()).then(|| quote!(_ => ::core::option::Option::None,));
            let rest_mut = rest.clone();
            quote! {
                fn json_payload(&self) -> ::core::option::Option<&#rt::serde_json::Value> {
                    match self { #(#json)|* => ::core::option::Option::Some(__v), #rest }
                }
                fn json_payload_mut(&mut self) -> ::core::option::Option<&mut #rt::serde_json::Value> {
                    match self { #(#json)|* => ::core::option::Option::Some(__v), #rest_mut }
                }
            }
        };
        let body = if variants.is_empty() {
            quote! {
                #[doc = #doc]
                #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
                pub enum Event {}

                impl #rt::ChartEvent for Event {
                    fn name(&self) -> &'static str { match *self {} }
                    fn from_json(_name: &str, data: #rt::serde_json::Value) -> #rt::Conversion<Self> {
                        #rt::Conversion::Untyped(data)
                    }
                    fn to_json(&self) -> ::core::result::Result<#rt::serde_json::Value, #rt::serde_json::Error> { match *self {} }
                    fn is_plain(&self) -> bool { match *self {} }
                }
            }
        } else {
            quote! {
                #[doc = #doc]
                #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
                #[allow(non_camel_case_types, reason = "names shared by several events get `_2`, `_3`, ...")]
                pub enum Event { #(#variants)* }

                impl #rt::ChartEvent for Event {
                    fn name(&self) -> &'static str {
                        match self { #(#names)* }
                    }
                    fn from_json(name: &str, data: #rt::serde_json::Value) -> #rt::Conversion<Self> {
                        match name {
                            #(#from)*
                            _ => #rt::Conversion::Untyped(data),
                        }
                    }
                    fn to_json(&self) -> ::core::result::Result<#rt::serde_json::Value, #rt::serde_json::Error> {
                        match self { #(#to)* }
                    }
                    fn to_json_into(&self, __out: &mut #rt::serde_json::Value) -> ::core::result::Result<(), #rt::serde_json::Error> {
                        match self { #(#into)* }
                    }
                    fn is_plain(&self) -> bool {
                        match self { #(#plain)* }
                    }
                    #json_fns
                }
            }
        };
        quote! {
            #[doc = #payloads_doc]
            #[allow(dead_code, unused_imports, reason = "every payload of the chart is offered, used or not")]
            pub mod payloads {
                use super::*;
                #(#structs)*
            }

            #body

            impl #rt::Submission<Event> for Event {
                #[inline]
                fn into_envelope(self) -> ::core::result::Result<#rt::Envelope<Event>, #rt::Refused> {
                    ::core::result::Result::Ok(#rt::Envelope::Typed(self, #rt::Meta::of(#rt::EventKind::External)))
                }
                #[inline(always)]
                fn into_typed(self) -> ::core::result::Result<Event, Self> {
                    ::core::result::Result::Ok(self)
                }
            }
        }
    }
}
