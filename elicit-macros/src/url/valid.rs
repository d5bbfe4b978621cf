//! The rules of a URL elicitation, on the parsed `#[elicit(…)]` attributes: every problem is
//! collected, each spanned on the value or field at fault.

use darling::{Error, FromDeriveInput};
use syn::DeriveInput;

use super::{UrlForm, UrlInput, check};
use crate::lit::Text;
use crate::secret::secret_in;

pub(super) fn validate(input: &DeriveInput) -> darling::Result<UrlForm> {
    let mut errors = Error::accumulator();
    // A union is refused by darling itself; an enum has no fields to bind.
    if let syn::Data::Enum(_) = input.data {
        errors.push(
            Error::custom(
                "a URL elicitation must be a struct: its fields are the state bound to the request",
            )
            .with_span(&input.ident),
        );
    }
    let Some(parsed) = errors.handle(UrlInput::from_derive_input(input)) else {
        return Err(errors.finish().unwrap_err());
    };
    check_fields(&parsed, &mut errors);
    let shown = shown_fields(&parsed, &mut errors);
    if !parsed.generics.params.is_empty() {
        errors.push(
            Error::custom("a URL elicitation cannot be generic: its message, URL and key are fixed at compile time")
                .with_span(&parsed.generics),
        );
    }
    let message = required(
        &mut errors,
        parsed.message,
        "`message = \"…\"`: the text that tells the user why they should open the page",
    );
    let url = required(
        &mut errors,
        parsed.url,
        "`url = \"https://…\"`: the address of the page the user opens",
    );
    if let Some(message) = &message
        && message.value.trim().is_empty()
    {
        errors.push(
            Error::custom(
                "the message must not be empty: it tells the user why they should open the page",
            )
            .with_span(&message.span),
        );
    }
    let url_template = url.and_then(|url| {
        check::check(&url.value)
            .map_err(|message| errors.push(Error::custom(message).with_span(&url.span)))
            .ok()
    });
    let key = parsed
        .key
        .map(|k| k.value)
        .unwrap_or_else(|| crate::case::RenameRule::Snake.apply(&parsed.ident.to_string()));
    errors.finish()?;
    match (message, url_template) {
        (Some(message), Some(url_template)) => Ok(UrlForm {
            message: message.value,
            url_template,
            key,
            shown,
        }),
        _ => Err(Error::custom("invalid URL elicitation")),
    }
}

/// The bound state travels sealed in the URL and comes back on completion: it must never hold
/// a secret, for the same reason a form must not ask for one.
fn check_fields(parsed: &UrlInput, errors: &mut darling::error::Accumulator) {
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
}

/// The fields marked `show` (or `show = "Label"`), with their labels: the field's name in
/// words (`repo_name` is "Repo name") unless one is given, which must not be empty.
fn shown_fields(
    parsed: &UrlInput,
    errors: &mut darling::error::Accumulator,
) -> Vec<(String, syn::Ident)> {
    use darling::util::Override;
    let mut shown = Vec::new();
    for field in parsed.data.as_ref().take_struct().into_iter().flatten() {
        let Some(show) = &field.show else { continue };
        let Some(ident) = &field.ident else {
            let at = match show {
                Override::Explicit(label) => label.span,
                Override::Inherit => parsed.ident.span(),
            };
            errors.push(
                Error::custom("`show` applies only to the named fields of a struct").with_span(&at),
            );
            continue;
        };
        let label = match show {
            Override::Inherit => words(&ident.to_string()),
            Override::Explicit(label) if label.value.trim().is_empty() => {
                errors.push(
                    Error::custom(
                        "the label must not be empty: it tells the user what the value is, e.g. `show = \"Repository\"`, or write `show` alone to use the field's name",
                    )
                    .with_span(&label.span),
                );
                continue;
            }
            Override::Explicit(label) => label.value.clone(),
        };
        shown.push((label, ident.clone()));
    }
    shown
}

/// A field's name in words: `repo_name` is "Repo name" (a raw identifier's `r#` dropped).
fn words(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let spaced = name.trim_matches('_').replace('_', " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `value`, or an error naming what is missing (spanned on the macro: nothing was written).
fn required(
    errors: &mut darling::error::Accumulator,
    value: Option<Text>,
    what: &str,
) -> Option<Text> {
    if value.is_none() {
        errors.push(Error::custom(format!("missing {what}")));
    }
    value
}
