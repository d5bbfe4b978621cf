//! `#[elicit_rmcp::asks]` on an rmcp tool or prompt method: its `Asked<T>` and `Accepted<T>`
//! parameters become questions asked before the body runs (all in one round on 2026-07-28),
//! through an `Elicit` the method takes (its own, or one added).
//!
//! `parse.rs` reads the method and the `#[ask(…)]` attributes, `check.rs` refuses what
//! cannot work, `expand.rs` writes the method the way a hand-written one asks.

mod check;
mod expand;
mod parse;

pub(crate) use parse::Raw;

use proc_macro2::TokenStream;

/// Expands `#[elicit_rmcp::asks(args)]` on `item`.
pub(crate) fn attribute(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = darling::Error::accumulator();
    let Ok(method) = syn::parse2::<syn::ImplItemFn>(item.clone()) else {
        let error = syn::Error::new(
            proc_macro2::Span::call_site(),
            "`#[elicit_rmcp::asks]` goes on a tool or prompt method (`async fn`) of a \
                 `#[tool_router]` or `#[prompt_router]` impl",
        )
        .into_compile_error();
        return quote::quote!(#error #item);
    };
    let args = errors.handle(parse::Args::parse(args)).unwrap_or_default();
    let parsed = parse::method(method, &mut errors);
    check::method(&parsed, &args, &mut errors);
    let expanded = expand::method(parsed, &args);
    match errors.finish() {
        Ok(()) => expanded,
        Err(error) => {
            let error = error.write_errors();
            quote::quote!(#error #expanded)
        }
    }
}
