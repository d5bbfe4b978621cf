//! What `#[elicit_rmcp::asks]` refuses, all reported in one compile.

use darling::error::Accumulator;
use quote::ToTokens;
use syn::ReturnType;

use super::parse::{Args, Kind, Method, returns_result};

/// Every mistake of `method`.
pub(super) fn method(method: &Method, args: &Args, errors: &mut Accumulator) {
    let sig = &method.method.sig;
    if sig.asyncness.is_none() {
        errors.push(
            darling::Error::custom(
                "`#[elicit_rmcp::asks]` asks before the body runs, which takes an `async fn`; \
                 write it above `#[tool]` (or `#[prompt]`), which turns the `async fn` into \
                 another shape",
            )
            .with_span(&sig.fn_token),
        );
    }
    // Not async: `#[tool]` ran first and rewrote the return type; that is the error to fix.
    if sig.asyncness.is_some() && !returns_result(&sig.output) {
        let message = "a method with asked parameters returns `Result<_, rmcp::ErrorData>`: \
                       asking can fail, and on 2026-07-28 it ends the call with a round";
        let error = darling::Error::custom(message);
        errors.push(match &sig.output {
            ReturnType::Type(_, ty) => error.with_span(ty),
            ReturnType::Default => error.with_span(&sig.ident),
        });
    }
    if method.questions.is_empty() {
        errors.push(
            darling::Error::custom(
                "`#[elicit_rmcp::asks]` on a method that asks nothing: give it an `Asked<Form>` \
                 or `Accepted<Form>` parameter, or remove the attribute",
            )
            .with_span(&sig.ident),
        );
    }
    for span in &method.stray {
        errors.push(
            darling::Error::custom(
                "`#[ask(…)]` goes on an `Asked<Form>`, `Accepted<Form>` or `Filled<Form>` parameter",
            )
            .with_span(span),
        );
    }
    for span in &method.second_elicit {
        errors.push(
            darling::Error::custom("a method takes at most one `Elicit` parameter").with_span(span),
        );
    }
    let filled: Vec<_> = method
        .questions
        .iter()
        .filter(|q| q.kind == Kind::Filled)
        .collect();
    for extra in filled.iter().skip(1) {
        errors.push(
            darling::Error::custom("a method's arguments are filled in once: one `Filled<…>`")
                .with_span(&extra.written),
        );
    }
    if !filled.is_empty() {
        for span in &method.parameters {
            errors.push(
                darling::Error::custom(
                    "`Filled<…>` reads the tool's arguments itself: drop this `Parameters<…>` \
                     (the input schema published is the filled form's)",
                )
                .with_span(span),
            );
        }
    }
    let mut keys: Vec<String> = Vec::new();
    for question in &method.questions {
        let ask = &question.ask;
        let at = |what: &str| {
            darling::Error::custom(what).with_span(
                &question
                    .ask_span
                    .unwrap_or_else(|| syn::spanned::Spanned::span(&question.written)),
            )
        };
        if question.kind != Kind::Asked && ask.otherwise.is_none() && args.otherwise.is_none() {
            errors.push(
                darling::Error::custom(
                    "say what the method returns when the user declines or cancels: \
                     `#[ask(otherwise = …)]` here, or `#[elicit_rmcp::asks(otherwise = …)]` for \
                     every `Accepted` (or take `Asked<Form>` and match on the answer)",
                )
                .with_span(&question.written),
            );
        }
        if question.kind == Kind::Asked && ask.otherwise.is_some() {
            errors.push(at(
                "`otherwise` is for `Accepted<Form>` and `Filled<Form>`: an `Asked<Form>` gives the body the \
                 decline and the cancel to match on",
            ));
        }
        if question.kind == Kind::Filled && (ask.resolve.is_some() || ask.defaults.is_some()) {
            errors.push(at(
                "a `Filled<Form>` is asked from the model's arguments: no `resolve` or `defaults`",
            ));
        }
        if ask.resolve.is_some()
            && (ask.message.is_some() || ask.defaults.is_some() || ask.key.is_some())
        {
            errors.push(at(
                "with `resolve`, the resolver says what to ask: give its `Resolved::Ask` the \
                 message, key and defaults",
            ));
        }
        let key = ask.key.as_ref().map_or_else(
            || question.form.to_token_stream().to_string(),
            |key| format!("key {}", key.value()),
        );
        if keys.contains(&key) {
            errors.push(
                darling::Error::custom(
                    "this form is asked twice: give one of them its own `#[ask(key = \"…\")]`",
                )
                .with_span(&question.written),
            );
        }
        keys.push(key);
    }
}
