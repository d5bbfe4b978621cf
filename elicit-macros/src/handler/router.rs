//! Where the written methods find the routers: the expression `tools = …` (`prompts = …`)
//! names, or by default `Self::tool_router()` (`Self::prompt_router()`) built once per process.
//!
//! rmcp asks for the tool router on every call, over streamable HTTP twice (`get_tool` for its
//! `Mcp-Param-*` header checks, then `call_tool`), and the `tool_router()` that
//! `#[tool_router]` writes builds every tool's route, schema and name check each time: about a
//! tenth of a replica's CPU under load (`scripts/bench-http`). What it builds depends on the
//! type alone, so the default keeps the first one in a static. An impl generic over types or
//! lifetimes cannot name its type in a static: it builds the router on each call, as rmcp's
//! `#[tool_handler]` does.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::{Expr, ItemImpl};

/// Which router.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Tools,
    Prompts,
}

/// An expression for a `&` to the router: to `named`, or to the default's.
pub(super) fn reference(
    named: Option<&Expr>,
    kind: Kind,
    block: &ItemImpl,
    rmcp: &TokenStream,
) -> TokenStream {
    if let Some(named) = named {
        return quote!(&(#named));
    }
    let (build, router) = match kind {
        Kind::Tools => (
            quote!(tool_router),
            quote!(#rmcp::handler::server::router::tool::ToolRouter),
        ),
        Kind::Prompts => (
            quote!(prompt_router),
            quote!(#rmcp::handler::server::router::prompt::PromptRouter),
        ),
    };
    let self_ty = &block.self_ty;
    if !block.generics.params.is_empty() || has_lifetime(quote!(#self_ty)) {
        return quote!(&Self::#build());
    }
    quote!({
        static ROUTER: ::std::sync::OnceLock<#router<#self_ty>> = ::std::sync::OnceLock::new();
        ROUTER.get_or_init(<#self_ty>::#build)
    })
}

/// Whether `tokens` name a lifetime (`Server<'a>`, `Server<'_>`).
fn has_lifetime(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Punct(punct) => punct.as_char() == '\'',
        TokenTree::Group(group) => has_lifetime(group.stream()),
        _ => false,
    })
}
