//! Implementation detail of `elicit-runtime`; depend on that instead.
//!
//! The derives documented here are re-exported by `elicit-runtime`, whose docs show them in use.

mod case;
mod choice;
mod doc;
mod form;
mod format;
mod lit;
mod paths;
mod secret;
mod ty;
mod url;

use proc_macro::TokenStream;

/// Derives `ElicitForm` for a struct with named fields: a form-mode elicitation whose schema
/// is proven flat, primitive and free of secrets at compile time.
///
/// See the `elicit-runtime` crate for the attribute reference and examples.
#[proc_macro_derive(ElicitForm, attributes(elicit))]
pub fn derive_elicit_form(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    paths::expand(&input, quote::quote!(::elicit_runtime), form::derive).into()
}

/// Derives `ElicitEnum` for a unit-only enum: the options of a single- or multi-select.
///
/// See the `elicit-runtime` crate for the attribute reference and examples.
#[proc_macro_derive(ElicitEnum, attributes(elicit))]
pub fn derive_elicit_enum(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    paths::expand(&input, quote::quote!(::elicit_runtime), choice::derive).into()
}

/// Declares a URL-mode elicitation: `#[elicit_url(message = "…", url = "https://…")]`,
/// optionally `key = "…"`, on a struct whose fields are the server-side state bound to it.
/// Implements `ElicitUrl` and derives the `Serialize`/`Deserialize` the struct lacks.
///
/// See the `elicit-runtime` crate for the rules the URL must follow and examples.
#[proc_macro_attribute]
pub fn elicit_url(args: TokenStream, item: TokenStream) -> TokenStream {
    url::attribute(args.into(), item.into(), quote::quote!(::elicit_runtime)).into()
}

/// `elicit_url` as `elicit-rmcp` re-exports it: generated code names `::elicit_rmcp`.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn rmcp_elicit_url(args: TokenStream, item: TokenStream) -> TokenStream {
    url::attribute(args.into(), item.into(), quote::quote!(::elicit_rmcp)).into()
}

/// Derives `ElicitUrl`: the second spelling of `#[elicit_url]`, with the same options in a
/// container `#[elicit(message = "…", url = "https://…")]`. It derives no serde traits:
/// write `#[derive(Serialize, Deserialize, ElicitUrl)]`.
///
/// See the `elicit-runtime` crate for the rules the URL must follow and examples.
#[proc_macro_derive(ElicitUrl, attributes(elicit))]
pub fn derive_elicit_url(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    paths::expand(&input, quote::quote!(::elicit_runtime), url::derive).into()
}

/// `ElicitForm` as `elicit-rmcp` re-exports it: generated code names `::elicit_rmcp`.
#[doc(hidden)]
#[proc_macro_derive(RmcpElicitForm, attributes(elicit))]
pub fn derive_rmcp_elicit_form(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    paths::expand(&input, quote::quote!(::elicit_rmcp), form::derive).into()
}

/// `ElicitEnum` as `elicit-rmcp` re-exports it.
#[doc(hidden)]
#[proc_macro_derive(RmcpElicitEnum, attributes(elicit))]
pub fn derive_rmcp_elicit_enum(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    paths::expand(&input, quote::quote!(::elicit_rmcp), choice::derive).into()
}

/// `ElicitUrl` as `elicit-rmcp` re-exports it.
#[doc(hidden)]
#[proc_macro_derive(RmcpElicitUrl, attributes(elicit))]
pub fn derive_rmcp_elicit_url(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    paths::expand(&input, quote::quote!(::elicit_rmcp), url::derive).into()
}
