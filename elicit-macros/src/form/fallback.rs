//! What is emitted next to the errors of a rejected form: everything a user can name (the
//! `ElicitForm` impl with the same trait bounds, and `<Form>Defaults`), so bad field types are
//! still reported and code using the form has no cascade of errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use super::expand::{defaults_ident, defaults_struct_of, field_bounds};
use crate::paths::Runtime;
use crate::ty::classify;

pub(super) fn expand(input: &DeriveInput, rt: &Runtime) -> TokenStream {
    let p = rt.private();
    let ident = &input.ident;
    // A generic form was refused; an impl for it would only add errors.
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let named: Vec<&syn::Field> = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => named.named.iter().collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let tys = named
        .iter()
        .map(|f| &f.ty)
        .filter(|ty| classify(ty).is_ok());
    let bounds = field_bounds(tys, rt);
    let defaults = defaults_ident(ident);
    let defaults_struct = defaults_struct_of(
        &input.vis,
        ident,
        named.iter().filter_map(|f| {
            let name = f.ident.as_ref()?;
            let ty = crate::ty::option_inner(&f.ty).unwrap_or(&f.ty);
            Some((name, ty, name.to_string()))
        }),
    );
    quote! {
        #defaults_struct


        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #p::ElicitForm for #ident where #(#bounds,)* {
                fn key() -> &'static str {
                    ::core::unreachable!()
                }
                fn __elicit_digest() -> &'static str {
                    ::core::unreachable!()
                }
                fn message() -> &'static str {
                    ::core::unreachable!()
                }
                fn requested_schema() -> &'static #p::RequestedSchema {
                    ::core::unreachable!()
                }
                fn decode_with(
                    _: &#p::serde_json::Value,
                    _: &#p::RequestedSchema,
                ) -> #p::Result<Self, #p::ContentError> {
                    ::core::unreachable!()
                }
                type Defaults = #defaults;
                fn defaults_content(_: &#defaults) -> #p::serde_json::Map<::std::string::String, #p::serde_json::Value> {
                    ::core::unreachable!()
                }
                fn to_content(&self) -> #p::serde_json::Map<::std::string::String, #p::serde_json::Value> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
