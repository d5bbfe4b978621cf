//! What the attribute refuses: anything but a trait impl, and an impl that already writes
//! the methods it must write (so its calls would not run through elicit).

use proc_macro2::TokenStream;
use syn::{ImplItem, ItemImpl};

use super::args::Args;

/// The error for an item that is not `impl ServerHandler for …`.
pub(super) fn not_an_impl(item: &TokenStream) -> TokenStream {
    let span = item
        .clone()
        .into_iter()
        .next()
        .map_or_else(proc_macro2::Span::call_site, |t| t.span());
    syn::Error::new(
        span,
        "`#[elicit_rmcp::handler]` goes on `impl ServerHandler for YourServer`",
    )
    .into_compile_error()
}

/// Every mistake of `block` under `args`, at once.
pub(super) fn block(block: &ItemImpl, args: &Args) -> darling::Result<()> {
    let mut errors = darling::Error::accumulator();
    if block.trait_.is_none() {
        errors.push(
            darling::Error::custom(
                "`#[elicit_rmcp::handler]` goes on `impl ServerHandler for YourServer`, not on an inherent impl",
            )
            .with_span(&block.self_ty),
        );
    }
    for attr in &block.attrs {
        let Some(last) = attr.path().segments.last() else {
            continue;
        };
        if last.ident == "tool_handler" || last.ident == "prompt_handler" {
            errors.push(
                darling::Error::custom(format!(
                    "`#[elicit_rmcp::handler]` writes what `#[{}]` does, with the calls run \
                     through elicit: remove `#[{}]`",
                    last.ident, last.ident
                ))
                .with_span(attr),
            );
        }
    }
    let written = |name: &str| {
        block.items.iter().find_map(|item| match item {
            ImplItem::Fn(f) if f.sig.ident == name => Some(f),
            _ => None,
        })
    };
    let mut mine = vec![("call_tool", "")];
    if args.prompts().is_some() {
        mine.push(("get_prompt", "(prompts)"));
    }
    if args.tasks() {
        mine.extend([
            ("get_task", "(tasks)"),
            ("update_task", "(tasks)"),
            ("cancel_task", "(tasks)"),
        ]);
    }
    for (name, spelled) in mine {
        if let Some(f) = written(name) {
            errors.push(
                darling::Error::custom(format!(
                    "`#[elicit_rmcp::handler{spelled}]` writes `{name}`, running the calls \
                     through elicit: remove this one (or the attribute, and return `self.elicit.{name}(…)` \
                     from yours)"
                ))
                .with_span(&f.sig.ident),
            );
        }
    }
    errors.finish()
}
