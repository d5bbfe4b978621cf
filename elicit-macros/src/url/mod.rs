//! `#[elicit_url(message = "…", url = "https://…")]`: a URL-mode elicitation whose fields are
//! the server-side state bound to the request. Arguments (`args`) → URL rules (`check`) →
//! code (`expand`). The item is always emitted again, so a bad argument causes no cascade.

mod check;
mod expand;
mod parse;

use darling::ast::NestedMeta;
use darling::{Error, FromMeta};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Fields, ItemStruct};

use crate::lit::Text;
use crate::secret::secret_in;

#[derive(FromMeta)]
struct UrlArgs {
    message: Text,
    url: Text,
    key: Option<Text>,
}

/// A URL elicitation that passed every rule.
pub struct UrlForm {
    pub message: String,
    pub url_template: String,
    pub key: String,
}

pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut item: ItemStruct = match syn::parse2(item.clone()) {
        Ok(item) => item,
        Err(_) => {
            let mut out = Error::custom(
                "`#[elicit_url]` goes on a struct whose fields are the state bound to the request",
            )
            .with_span(&Span::call_site())
            .write_errors();
            out.extend(item);
            return out;
        }
    };
    let mut errors = Error::accumulator();
    let args = match NestedMeta::parse_meta_list(args) {
        Ok(list) => errors.handle(UrlArgs::from_list(&list)),
        Err(e) => {
            errors.push(e.into());
            None
        }
    };
    // The bound state travels sealed in the URL and comes back on completion: it must never
    // hold a secret, for the same reason a form must not ask for one.
    if let Fields::Named(named) = &mut item.fields {
        for field in named.named.iter_mut() {
            let not_secret = take_not_secret(&mut field.attrs, &mut errors);
            let Some(ident) = &field.ident else { continue };
            if let (Some(what), None) = (secret_in(&ident.to_string()), not_secret) {
                errors.push(Error::custom(format!(
                    "field `{ident}` looks like it holds {what}; state bound to a URL elicitation must not hold secrets: the user gives them to your page, never to the MCP client or the handle"
                )).with_span(ident));
            }
        }
    }
    if !item.generics.params.is_empty() {
        errors.push(
            Error::custom("`#[elicit_url]` cannot be used on a generic struct")
                .with_span(&item.generics),
        );
    }
    let form = args.and_then(|args| {
        if args.message.value.trim().is_empty() {
            errors.push(Error::custom("the message must not be empty: it tells the user why they should open the page").with_span(&args.message.span));
        }
        let url_template = match check::check(&args.url.value) {
            Ok(template) => Some(template),
            Err(message) => {
                errors.push(Error::custom(message).with_span(&args.url.span));
                None
            }
        };
        let key = args.key.map(|k| k.value).unwrap_or_else(|| crate::case::RenameRule::Snake.apply(&item.ident.to_string()));
        Some(UrlForm { message: args.message.value, url_template: url_template?, key })
    });
    match errors.finish() {
        Ok(()) => match form {
            Some(form) => expand::expand(&item, &form),
            None => item.into_token_stream(),
        },
        Err(e) => {
            let mut out = e.write_errors();
            out.extend(expand::fallback(&item));
            out
        }
    }
}

/// Removes `#[elicit(not_secret = "…")]` from a field (the attribute is ours, not the
/// compiler's) and returns its reason.
fn take_not_secret(
    attrs: &mut Vec<syn::Attribute>,
    errors: &mut darling::error::Accumulator,
) -> Option<String> {
    #[derive(FromMeta)]
    struct FieldArgs {
        not_secret: Text,
    }
    let mut reason = None;
    attrs.retain(|attr| {
        if !attr.path().is_ident("elicit") {
            return true;
        }
        match FieldArgs::from_meta(&attr.meta) {
            Ok(args) if args.not_secret.value.trim().is_empty() => errors.push(
                Error::custom("`not_secret` needs the reason this field is not a secret")
                    .with_span(&args.not_secret.span),
            ),
            Ok(args) => reason = Some(args.not_secret.value),
            Err(e) => errors.push(e),
        }
        false
    });
    reason
}
