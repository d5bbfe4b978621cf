//! `#[derive(ElicitUrl)]` with `#[elicit(message = "…", url = "https://…")]`: a URL-mode
//! elicitation whose fields are the server-side state bound to the request. Attributes (darling)
//! → URL rules (`check`, on the small parser in `parse`) → code (`expand`). It injects no serde
//! derive: the user writes `#[derive(Serialize, Deserialize, ElicitUrl)]`, and a struct without
//! them gets a bound error that says so.

mod check;
mod expand;
mod parse;

use darling::{Error, FromDeriveInput, FromField};
use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::lit::Text;
use crate::secret::secret_in;

/// Container attributes of `#[derive(ElicitUrl)]`.
#[derive(FromDeriveInput)]
#[darling(attributes(elicit), supports(struct_any))]
struct UrlInput {
    ident: syn::Ident,
    generics: syn::Generics,
    data: darling::ast::Data<darling::util::Ignored, UrlField>,
    message: Text,
    url: Text,
    key: Option<Text>,
}

/// Field attributes of `#[derive(ElicitUrl)]`.
#[derive(FromField)]
#[darling(attributes(elicit))]
struct UrlField {
    ident: Option<syn::Ident>,
    not_secret: Option<Text>,
}

/// A URL elicitation that passed every rule.
pub struct UrlForm {
    pub message: String,
    pub url_template: String,
    pub key: String,
}

pub fn derive(input: &DeriveInput) -> TokenStream {
    match validate(input) {
        Ok(form) => expand::expand(&input.ident, &form),
        Err(errors) => {
            let mut out = errors.write_errors();
            // A generic struct was refused; an impl for it would only add errors.
            if input.generics.params.is_empty() {
                out.extend(expand::fallback(&input.ident));
            }
            out
        }
    }
}

fn validate(input: &DeriveInput) -> darling::Result<UrlForm> {
    let mut errors = Error::accumulator();
    let Some(parsed) = errors.handle(UrlInput::from_derive_input(input)) else {
        return Err(errors.finish().unwrap_err());
    };
    // The bound state travels sealed in the URL and comes back on completion: it must never
    // hold a secret, for the same reason a form must not ask for one.
    for field in parsed.data.as_ref().take_struct().into_iter().flatten() {
        let Some(ident) = &field.ident else { continue };
        match (&field.not_secret, secret_in(&ident.to_string())) {
            (Some(reason), _) if reason.value.trim().is_empty() => errors.push(
                Error::custom("`not_secret` needs the reason this field is not a secret")
                    .with_span(&reason.span),
            ),
            (None, Some(what)) => errors.push(Error::custom(format!(
                "field `{ident}` looks like it holds {what}; state bound to a URL elicitation must not hold secrets: the user gives them to your page, never to the MCP client or the handle"
            )).with_span(ident)),
            _ => {}
        }
    }
    if !parsed.generics.params.is_empty() {
        errors.push(
            Error::custom("`ElicitUrl` cannot be derived for a generic struct")
                .with_span(&parsed.generics),
        );
    }
    if parsed.message.value.trim().is_empty() {
        errors.push(
            Error::custom(
                "the message must not be empty: it tells the user why they should open the page",
            )
            .with_span(&parsed.message.span),
        );
    }
    let url_template = check::check(&parsed.url.value)
        .map_err(|message| errors.push(Error::custom(message).with_span(&parsed.url.span)))
        .ok();
    let key = parsed
        .key
        .map(|k| k.value)
        .unwrap_or_else(|| crate::case::RenameRule::Snake.apply(&parsed.ident.to_string()));
    let form = url_template.map(|url_template| UrlForm {
        message: parsed.message.value,
        url_template,
        key,
    });
    errors.finish()?;
    form.ok_or_else(|| Error::custom("invalid URL elicitation"))
}
