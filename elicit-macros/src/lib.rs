//! Implementation detail of `elicit-runtime` and `elicit-rmcp`; depend on one of those
//! instead: they re-export these macros with the documentation written here.

mod asks;
mod case;
mod choice;
mod doc;
mod form;
mod format;
mod handler;
mod lit;
mod paths;
mod secret;
mod ty;
mod url;

use proc_macro::TokenStream;

/// Each derive, generated twice from one declaration: the entry point `elicit-runtime`
/// re-exports, whose generated code names `::elicit_runtime`, and its twin `elicit-rmcp`
/// re-exports under the same name, naming `::elicit_rmcp` (so an rmcp server depends on that
/// crate alone). Both carry the same documentation.
macro_rules! derives {
    ($($doc:literal: $name:ident / $twin:ident => $core_fn:ident / $twin_fn:ident = $derive:path;)*) => {$(
        #[doc = include_str!($doc)]
        #[proc_macro_derive($name, attributes(elicit))]
        pub fn $core_fn(input: TokenStream) -> TokenStream {
            let input = syn::parse_macro_input!(input as syn::DeriveInput);
            paths::expand(&input, quote::quote!(::elicit_runtime), $derive).into()
        }

        #[doc = include_str!($doc)]
        #[proc_macro_derive($twin, attributes(elicit))]
        pub fn $twin_fn(input: TokenStream) -> TokenStream {
            let input = syn::parse_macro_input!(input as syn::DeriveInput);
            paths::expand(&input, quote::quote!(::elicit_rmcp), $derive).into()
        }
    )*};
}

derives! {
    "../doc/elicit_form.md": ElicitForm / RmcpElicitForm
        => derive_elicit_form / derive_rmcp_elicit_form = form::derive;
    "../doc/elicit_enum.md": ElicitEnum / RmcpElicitEnum
        => derive_elicit_enum / derive_rmcp_elicit_enum = choice::derive;
    "../doc/elicit_url.md": ElicitUrl / RmcpElicitUrl
        => derive_elicit_url / derive_rmcp_elicit_url = url::derive;
}

#[doc = include_str!("../doc/elicit_url.md")]
#[proc_macro_attribute]
pub fn elicit_url(args: TokenStream, item: TokenStream) -> TokenStream {
    url::attribute(args.into(), item.into(), quote::quote!(::elicit_runtime)).into()
}

#[doc = include_str!("../doc/elicit_url.md")]
#[proc_macro_attribute]
pub fn rmcp_elicit_url(args: TokenStream, item: TokenStream) -> TokenStream {
    url::attribute(args.into(), item.into(), quote::quote!(::elicit_rmcp)).into()
}

/// `#[elicit_rmcp::handler]`; its documentation is `elicit-rmcp`'s.
#[proc_macro_attribute]
pub fn rmcp_handler(args: TokenStream, item: TokenStream) -> TokenStream {
    handler::attribute(args.into(), item.into()).into()
}

/// Not public API: left by `#[elicit_rmcp::handler(prompts)]` beside rmcp's `#[tool_handler]`,
/// which announces prompts in the `get_info` it writes when it sees an attribute of this name
/// (as `elicit_rmcp::__private::prompt_handler`). It changes nothing.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn rmcp_prompts_announced(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// `#[elicit_rmcp::asks]`; its documentation is `elicit-rmcp`'s.
#[proc_macro_attribute]
pub fn rmcp_asks(args: TokenStream, item: TokenStream) -> TokenStream {
    asks::attribute(args.into(), item.into()).into()
}
