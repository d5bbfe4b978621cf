//! Code generation for a validated `#[derive(ElicitUrl)]` struct.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use super::UrlForm;
use crate::paths::private;

pub fn expand(ident: &Ident, form: &UrlForm) -> TokenStream {
    tokens(ident, &form.key, &form.message, &form.url_template)
}

/// The impls with empty texts, emitted next to errors so that uses of the type report nothing
/// beyond the derive's own errors.
pub fn fallback(ident: &Ident) -> TokenStream {
    tokens(ident, "", "", "")
}

fn tokens(ident: &Ident, key: &str, message: &str, url: &str) -> TokenStream {
    let p = private();
    // Spanned on the struct's name, so a missing serde derive is reported there.
    let at = crate::paths::private_at(ident.span());
    let state_check = quote_spanned! {ident.span()=>
        #[allow(dead_code)]
        fn __elicit_state() where #ident: #at::UrlState {}
    };
    quote! {
        #[doc(hidden)]
        const _: () = {
            #state_check

            #[automatically_derived]
            impl #p::ElicitUrl for #ident {
                const KEY: &'static str = #key;
                const MESSAGE: &'static str = #message;
                const URL_TEMPLATE: &'static str = #url;
            }
        };
    }
}
