//! `#[elicit_rmcp::handler]` on `impl ServerHandler for Server`: rmcp's `#[tool_handler]`
//! with the tool calls run through elicit, `get_prompt` and `list_prompts` for the prompts
//! (rmcp's `#[prompt_handler]` drops a retry's `inputResponses` and `requestState`).
//!
//! `args.rs` reads the attribute, `check.rs` the impl block it stands on, `expand.rs` writes
//! the result, with the routers `router.rs` says where to find.

mod args;
mod check;
mod expand;
mod router;

use proc_macro2::TokenStream;

/// Expands `#[elicit_rmcp::handler(args)]` on `item`.
pub(crate) fn attribute(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    let args = errors.handle(args::Args::parse(args));
    let Ok(block) = syn::parse2::<syn::ItemImpl>(item.clone()) else {
        let error = check::not_an_impl(&item);
        return quote::quote!(#error #item);
    };
    let args = args.unwrap_or_default();
    errors.handle(check::block(&block, &args));
    let expanded = expand::expand(block, &args);
    match errors.finish() {
        Ok(()) => expanded,
        Err(error) => {
            let error = error.write_errors();
            quote::quote!(#error #expanded)
        }
    }
}
