//! Code generation for a validated `#[elicit_url]` struct.

use proc_macro2::TokenStream;
use quote::quote;
use syn::ItemStruct;

use super::UrlForm;
use crate::paths::private;

pub fn expand(item: &ItemStruct, form: &UrlForm) -> TokenStream {
    tokens(item, &form.key, &form.message, &form.url_template)
}

/// The item and its impls with empty texts, emitted next to errors so that uses of the type
/// report nothing beyond the attribute's own errors.
pub fn fallback(item: &ItemStruct) -> TokenStream {
    tokens(item, "", "", "")
}

fn tokens(item: &ItemStruct, key: &str, message: &str, url: &str) -> TokenStream {
    let p = private();
    let ident = &item.ident;
    quote! {
        #[derive(::elicit_runtime::__private::serde::Serialize, ::elicit_runtime::__private::serde::Deserialize)]
        #[serde(crate = "::elicit_runtime::__private::serde")]
        #item

        #[doc(hidden)]
        const _: () = {
            #[automatically_derived]
            impl #p::ElicitUrl for #ident {
                const KEY: &'static str = #key;
                const MESSAGE: &'static str = #message;
                const URL_TEMPLATE: &'static str = #url;
            }
        };
    }
}
