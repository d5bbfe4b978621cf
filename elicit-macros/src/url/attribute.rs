//! `#[elicit_url(message = "…", url = "…")]`: the attribute spelling of `#[derive(ElicitUrl)]`.
//!
//! It validates nothing itself. Its arguments become the container `#[elicit(…)]` attribute,
//! with the tokens (and spans) as written, and the struct gets `#[derive(ElicitUrl)]`, so both
//! spellings go through the same rules and report the same errors at the same places. It adds
//! the serde derives the struct lacks, through the runtime's serde, so the user needs no serde
//! dependency.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{DeriveInput, Ident, Item, LitStr};

use super::derives::{missing_serde, names_serde_crate};
use crate::paths::crate_in;

/// Expands `#[elicit_url(args)]` on `item`; `default` is the runtime's path when the struct
/// names none with `#[elicit(crate = "…")]`.
pub(crate) fn expand(args: TokenStream, item: TokenStream, default: TokenStream) -> TokenStream {
    // The whole attribute: where an error about it, such as a missing `url`, belongs.
    let at = Span::call_site();
    let Ok(input) = syn::parse2::<DeriveInput>(item.clone()) else {
        return not_a_struct(item, at);
    };
    let elicit: syn::Attribute = syn::parse_quote_spanned!(at=> #[elicit(#args)]);
    let mut attrs = input.attrs;
    attrs.push(elicit.clone());
    let root = crate_in(&attrs).map_or(default, |path| quote!(#path));
    let serde = quote!(#root::__private::serde);
    let missing: Vec<Ident> = missing_serde(&attrs)
        .into_iter()
        .map(|name| Ident::new(name, at))
        .collect();
    let serde_derive =
        (!missing.is_empty()).then(|| quote_spanned!(at=> #[derive(#(#serde::#missing),*)]));
    // The derives added here name serde through the runtime; the user's own `crate` wins.
    let serde_crate = (!missing.is_empty() && !names_serde_crate(&attrs)).then(|| {
        let path = LitStr::new(&serde.to_string().replace(' ', ""), at);
        quote_spanned!(at=> #[serde(crate = #path)])
    });
    let ask = input
        .generics
        .params
        .is_empty()
        .then(|| inherent_ask(&input.ident, &input.vis, &root, at));
    // The derive comes first: `elicit` and `serde` are its and serde's helper attributes.
    quote_spanned! {at=>
        #[derive(#root::ElicitUrl)]
        #serde_derive
        #serde_crate
        #elicit
        #item
        #ask
    }
}

/// `ask` as an inherent method, so a struct written with the attribute is asked with no trait
/// in scope: it calls `ElicitUrl::ask`. Only with the attribute: its serde derives are there,
/// so the method's bounds hold (a `#[derive(ElicitUrl)]` user names the trait anyway). Not for
/// a generic struct, which the derive refuses and gives no impl.
fn inherent_ask(ident: &Ident, vis: &syn::Visibility, root: &TokenStream, at: Span) -> TokenStream {
    let p = quote!(#root::__private);
    quote_spanned! {at=>
        #[doc(hidden)]
        const _: () = {
            impl #ident {
                /// Asks the user to open this URL elicitation's page, through a request's
                /// context or any input channel (the trait method `ElicitUrl::ask`).
                #[allow(dead_code)]
                #vis fn ask<C: #p::InputChannel>(
                    self,
                    channel: &mut C,
                ) -> impl #p::Future<Output = #p::Result<#p::UrlAnswer<Self>, C::Error>> + #p::Send + '_ {
                    <Self as #p::ElicitUrl>::ask(self, channel)
                }
            }
        };
    }
}

/// The item as written, with an error: only a struct's fields can be the bound state.
fn not_a_struct(item: TokenStream, at: Span) -> TokenStream {
    let span = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(f)) => f.sig.ident.span(),
        Ok(Item::Trait(t)) => t.ident.span(),
        Ok(Item::Mod(m)) => m.ident.span(),
        Ok(Item::Type(t)) => t.ident.span(),
        Ok(Item::Const(c)) => c.ident.span(),
        Ok(Item::Static(s)) => s.ident.span(),
        Ok(Item::Impl(i)) => i.impl_token.span,
        _ => at,
    };
    let error = syn::Error::new(
        span,
        "`#[elicit_url]` applies to a struct: its fields are the state bound to the URL elicitation",
    )
    .into_compile_error();
    quote!(#error #item)
}
