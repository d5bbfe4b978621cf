//! The method as a hand-written one asks: every question first (so that on 2026-07-28 they
//! go out in one round), then the `?`s, then the parameters bound, then the body.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::parse_quote;

use super::parse::{Args, Kind, Method, Question};

/// `method`, rewritten. When it cannot be (not an `async fn`, not returning a `Result`: an
/// error already says so), the questions are bound to `unreachable!()` instead, so that the
/// body type-checks without follow-on errors.
pub(super) fn method(parsed: Method, args: &Args) -> TokenStream {
    if !parsed.rewritable() {
        return fallback(parsed);
    }
    let private = quote!(::elicit_rmcp::__private);
    let Method {
        mut method,
        elicit,
        questions,
        ..
    } = parsed;
    let (cx, rebind) = match elicit {
        Some((name, true)) => (name, None),
        Some((name, false)) => (name.clone(), Some(quote!(let mut #name = #name;))),
        None => {
            let name = format_ident!("__elicit_cx", span = Span::mixed_site());
            method
                .sig
                .inputs
                .push(parse_quote!(mut #name: ::elicit_rmcp::Elicit));
            (name, None)
        }
    };
    // A `Filled<T>` reads the arguments as the model sent them, in place of `Parameters<T>`
    // (rmcp publishes the form's input schema for it). Spanned on `T`, so that a `T` which is
    // no form is reported there, where rmcp asks the type for its schema too.
    let given = format_ident!("__elicit_given", span = Span::mixed_site());
    if let Some(filled) = questions.iter().find(|q| q.kind == Kind::Filled) {
        let form = &filled.form;
        let span = syn::spanned::Spanned::span(form);
        let ty = quote_spanned!(span=>
            ::elicit_rmcp::__private::Parameters<::elicit_rmcp::__private::ModelArguments<#form>>
        );
        method
            .sig
            .inputs
            .push(parse_quote!(#private::Parameters(#given): #ty));
    }
    let answers: Vec<_> = (0..questions.len())
        .map(|i| format_ident!("__elicit_answer_{i}", span = Span::mixed_site()))
        .collect();
    let asks = questions.iter().zip(&answers).map(|(question, answer)| {
        let asking = asking(question, &cx, &given, &private);
        quote!(let #answer = #asking.await;)
    });
    let binds = questions.iter().zip(&answers).map(|(question, answer)| {
        let Question { pat, .. } = question;
        // The parameter's own type, expanded: `Asked<T, Expanded>` (the user's import is used).
        let ty = expanded(&question.written, &private);
        match question.kind {
            Kind::Asked => quote!(let #pat: #ty = #answer;),
            Kind::Accepted | Kind::Filled => {
                let otherwise = question.ask.otherwise.as_ref().or(args.otherwise.as_ref());
                // None is a compile error already (`check.rs`).
                let otherwise = otherwise.map_or_else(
                    || quote!(::core::unreachable!()),
                    |otherwise| {
                        quote!(return #private::Result::Ok(::core::convert::Into::into(#otherwise)))
                    },
                );
                quote! {
                    let #pat: #ty = match #answer {
                        #private::Answer::Accepted(value) => value,
                        #private::Answer::Declined | #private::Answer::Cancelled => {
                            #otherwise

                        }
                    };
                }
            }
        }
    });
    let body = &method.block;
    method.block = parse_quote!({
        #rebind
        // Every question before any `?`: on 2026-07-28 they go out in one round.
        #(#asks)*
        #(let #answers = #answers?;)*
        #(#binds)*
        #body
    });
    quote!(#method)
}

/// The future that asks `question` on `cx`.
fn asking(
    question: &Question,
    cx: &syn::Ident,
    given: &syn::Ident,
    private: &TokenStream,
) -> TokenStream {
    let form = &question.form;
    let ask = &question.ask;
    if let Some(resolver) = &ask.resolve {
        return quote!(#private::Resolve::<#form>::answer(&(#resolver), &mut #cx));
    }
    let key = ask.key.as_ref().map(|key| quote!(.key(#key)));
    let message = ask
        .message
        .as_ref()
        .map(|message| quote!(.message(#message)));
    let defaults = ask
        .defaults
        .as_ref()
        .map(|defaults| quote!(.defaults(#defaults)));
    let strict = ask.strict.then(|| quote!(.strict_provenance()));
    let reasks = ask.reasks.as_ref().map(|reasks| quote!(.reasks(#reasks)));
    // Through the trait, so a type that is not a form is told so in the trait's own words.
    let built =
        quote!(<#form as #private::ElicitForm>::question() #key #message #defaults #strict #reasks);
    match question.kind {
        Kind::Filled => quote!(#private::fill_in(&mut #cx, &#given.0, #built)),
        Kind::Asked | Kind::Accepted => quote!(#built.ask(&mut #cx)),
    }
}

/// `Asked<T>` as written, with the attribute's second argument: `Asked<T, Expanded>`.
fn expanded(written: &syn::Type, private: &TokenStream) -> syn::Type {
    let mut ty = written.clone();
    if let syn::Type::Path(path) = &mut ty
        && let Some(last) = path.path.segments.last_mut()
        && let syn::PathArguments::AngleBracketed(args) = &mut last.arguments
    {
        args.args.push(parse_quote!(#private::Expanded));
    }
    ty
}

/// The method with its questions bound to `unreachable!()` (see [`method`]).
fn fallback(parsed: Method) -> TokenStream {
    let Method {
        mut method,
        questions,
        ..
    } = parsed;
    let private = quote!(::elicit_rmcp::__private);
    let binds = questions.iter().map(|question| {
        let pat = &question.pat;
        let ty = expanded(&question.written, &private);
        quote!(#[allow(unused_variables)] let #pat: #ty = ::core::unreachable!();)
    });
    let body = &method.block;
    method.block = parse_quote!({
        #(#binds)*
        #[allow(unreachable_code)]
        #body
    });
    quote!(#method)
}
