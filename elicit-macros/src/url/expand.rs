//! Code generation for a validated `#[derive(ElicitUrl)]` struct.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use super::UrlForm;
use crate::paths::Runtime;

pub(super) fn expand(ident: &Ident, form: &UrlForm, rt: &Runtime) -> TokenStream {
    let texts = (&*form.key, &*form.message, &*form.url_template);
    tokens(ident, texts, &form.shown, rt)
}

/// The impls with empty texts, emitted next to errors so that uses of the type report nothing
/// beyond the derive's own errors.
pub(super) fn fallback(ident: &Ident, rt: &Runtime) -> TokenStream {
    tokens(ident, ("", "", ""), &[], rt)
}

/// The impls: the key, message and URL template, and (when some fields are marked `show`)
/// what the confirmation page shows.
fn tokens(
    ident: &Ident,
    texts: (&str, &str, &str),
    shown: &[(String, Ident)],
    rt: &Runtime,
) -> TokenStream {
    let (key, message, url) = texts;
    let p = rt.private();
    let shown = (!shown.is_empty()).then(|| {
        let (labels, fields): (Vec<_>, Vec<_>) = shown.iter().cloned().unzip();
        quote! {
            fn shown(&self) -> #p::Vec<#p::Shown> {
                #p::Vec::from([#(#p::shown(#labels, &self.#fields)),*])
            }
        }
    });
    // Spanned on the struct's name, so a missing serde derive is reported there.
    let at = rt.private_at(ident.span());
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
                #shown
            }
        };
    }
}
