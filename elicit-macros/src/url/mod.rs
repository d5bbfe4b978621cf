//! `#[derive(ElicitUrl)]` with `#[elicit(message = "…", url = "https://…")]`: a URL-mode
//! elicitation whose fields are the server-side state bound to the request (those marked
//! `#[elicit(show)]` are shown on the confirmation page). Attributes (darling)
//! → URL rules (`check`, on the small parser in `parse`) → code (`expand`). The derive injects
//! no serde derive (a struct without them gets a bound error that says so); the `#[elicit_url]`
//! attribute (`attribute`) adds the ones missing and hands the struct to this derive.

mod attribute;
mod check;
mod derives;
mod expand;
mod parse;
mod valid;

pub(crate) use attribute::expand as attribute;

use darling::{FromDeriveInput, FromField};
use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::lit::Text;
use crate::paths::Runtime;

/// Container attributes of `#[derive(ElicitUrl)]`.
#[derive(FromDeriveInput)]
#[darling(attributes(elicit))]
struct UrlInput {
    ident: syn::Ident,
    generics: syn::Generics,
    data: darling::ast::Data<darling::util::Ignored, UrlField>,
    message: Option<Text>,
    url: Option<Text>,
    key: Option<Text>,
}

/// Field attributes of `#[derive(ElicitUrl)]`.
#[derive(FromField)]
#[darling(attributes(elicit))]
struct UrlField {
    ident: Option<syn::Ident>,
    not_secret: Option<Text>,
    /// `show` or `show = "Label"`: the confirmation page shows this field's value.
    show: Option<darling::util::Override<Text>>,
}

/// A URL elicitation that passed every rule.
pub(crate) struct UrlForm {
    pub message: String,
    pub url_template: String,
    pub key: String,
    /// The fields the confirmation page shows, with their labels, in declaration order.
    pub shown: Vec<(String, syn::Ident)>,
}

pub(crate) fn derive(input: &DeriveInput, rt: &Runtime) -> TokenStream {
    match valid::validate(input) {
        Ok(form) => expand::expand(&input.ident, &form, rt),
        Err(errors) => {
            let mut out = errors.write_errors();
            // A generic struct was refused; an impl for it would only add errors.
            if input.generics.params.is_empty() {
                out.extend(expand::fallback(&input.ident, rt));
            }
            out
        }
    }
}
