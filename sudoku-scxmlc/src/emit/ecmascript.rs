//! The ECMAScript datamodel's share of the generated code: each piece of chart code becomes
//! a [`Snippet`](crate::runtime::ecmascript::Snippet) literal handed to the machine's
//! `runtime::ecmascript::Js`, which compiles it on first use. Everything else (tables,
//! `<raise>`, `<send>`, `<if>` chains, error sites) is emitted as for the other datamodels
//! ([`exec`](super::exec)).

use super::{num, Emitter};
use crate::chart::{Code, DataInit, Location};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// How a snippet is compiled (`runtime::ecmascript::SnippetKind`).
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Expr,
    Location,
    NewVariable,
    Script,
}

impl Emitter<'_> {
    /// `&Snippet { .. }` for `text` at chart line `line`, numbered in emission order.
    pub(super) fn js_snippet(&self, text: &str, line: u32, kind: Kind) -> TokenStream {
        let rt = &self.rt;
        let id = self.snippets.get();
        self.snippets.set(id + 1);
        let kind = match kind {
            Kind::Expr => quote!(Expr),
            Kind::Location => quote!(Location),
            Kind::NewVariable => quote!(NewVariable),
            Kind::Script => quote!(Script),
        };
        let (id, line) = (num(id), num(line));
        quote!(&#rt::ecmascript::Snippet {
            id: #id,
            kind: #rt::ecmascript::SnippetKind::#kind,
            text: #text,
            line: #line,
        })
    }

    fn js_expr(&self, code: &Code) -> TokenStream {
        self.js_snippet(&code.text, code.line, Kind::Expr)
    }

    /// A `cond` (ToBoolean of the value).
    pub(super) fn js_cond(&self, code: &Code) -> TokenStream {
        let s = self.js_expr(code);
        quote!(__data.cond(__ctx, #s)?)
    }

    /// An expression's value as a `String` (ToString): `eventexpr`, `targetexpr`,
    /// `delayexpr`, `srcexpr`, ...
    pub(super) fn js_string(&self, code: &Code) -> TokenStream {
        let s = self.js_expr(code);
        quote!(__data.string(__ctx, #s)?)
    }

    /// An expression's value as a `serde_json::Value`.
    pub(super) fn js_json(&self, code: &Code) -> TokenStream {
        let s = self.js_expr(code);
        quote!(__data.json(__ctx, #s)?)
    }

    /// `<assign location expr>`: the value stays an ECMAScript value (functions, `undefined`
    /// and object identity survive).
    pub(super) fn js_assign(&self, location: &Location, expr: &Code) -> TokenStream {
        let loc = self.js_snippet(&location.code.text, location.code.line, Kind::Location);
        let e = self.js_expr(expr);
        quote!(__data.assign(__ctx, #loc, #e)?;)
    }

    /// Stores the Rust value `value` (a `String`: a send id, an invoke id; the XML value of an
    /// `<assign>`'s inline content) at `location`.
    pub(super) fn js_assign_value(&self, location: &Location, value: TokenStream) -> TokenStream {
        let rt = &self.rt;
        let loc = self.js_snippet(&location.code.text, location.code.line, Kind::Location);
        quote!(__data.assign_json(__ctx, #loc, &#rt::serde_json::Value::from(#value))?;)
    }

    /// A `<script>` run in the global scope.
    pub(super) fn js_script(&self, code: &Code) -> TokenStream {
        let s = self.js_snippet(&code.text, code.line, Kind::Script);
        quote!(__data.script(__ctx, #s)?;)
    }

    /// `<foreach>`: `body` runs in a closure that gets the datamodel and context back.
    pub(super) fn js_foreach(
        &self,
        array: &Code,
        item: usize,
        index: Option<usize>,
        line: u32,
        body: TokenStream,
    ) -> TokenStream {
        let rt = &self.rt;
        let a = self.js_expr(array);
        let item = self.js_snippet(&self.plan.chart.data[item].id, line, Kind::NewVariable);
        let index = match index {
            Some(i) => {
                let s = self.js_snippet(&self.plan.chart.data[i].id, line, Kind::NewVariable);
                quote!(::core::option::Option::Some(#s))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {
            __data.foreach(__ctx, #a, #item, #index, |__data, __ctx| -> ::core::result::Result<(), #rt::ExecError> {
                #body
                ::core::result::Result::Ok(())
            })?;
        }
    }

    /// The value of the `<data>` `id` for a `namelist`.
    pub(super) fn js_variable_json(&self, id: &str) -> TokenStream {
        quote!(__data.get_json(#id)?)
    }

    /// The `init`, `set` and `get` functions of one `<data>`: a global variable.
    pub(super) fn js_data_fns(&self, index: usize) -> TokenStream {
        let rt = &self.rt;
        let data_ty = &self.data_ty;
        let d = &self.plan.chart.data[index];
        let id = &d.id;
        let (init, set, get) = (
            format_ident!("data_init_{index}"),
            format_ident!("data_set_{index}"),
            format_ident!("data_get_{index}"),
        );
        let init_body = match &d.init {
            DataInit::Default => quote!(),
            DataInit::Expr(code) => {
                let s = self.js_expr(code);
                quote!(__data.init(__ctx, #id, #s)?;)
            }
            DataInit::Json(text) => quote! {
                let __value: #rt::serde_json::Value = #rt::serde_json::from_str(#text)?;
                __data.set_json(#id, &__value)?;
            },
        };
        let doc_init = format!(
            " Binding of `<data id=\"{}\">` at {}:{}.",
            d.id, self.file, d.line
        );
        quote! {
            #[doc = #doc_init]
            fn #init(__data: &mut #data_ty, __ctx: &#rt::Context<Event>) -> ::core::result::Result<(), #rt::ExecError> {
                #init_body
                ::core::result::Result::Ok(())
            }
            fn #set(__data: &mut #data_ty, __value: #rt::serde_json::Value) -> ::core::result::Result<(), #rt::serde_json::Error> {
                __data.set_json(#id, &__value)
            }
            fn #get(__data: &#data_ty) -> ::core::result::Result<#rt::serde_json::Value, #rt::serde_json::Error> {
                __data.get_json(#id)
            }
        }
    }
}
