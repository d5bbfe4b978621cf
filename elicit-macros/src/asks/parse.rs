//! The method as the attribute sees it: its parameters sorted into those it keeps, the
//! `Elicit` it asks through, and the questions (`Asked<T>`, `Accepted<T>` with `#[ask(…)]`).

use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use syn::{Expr, FnArg, GenericArgument, ImplItemFn, LitStr, Pat, PathArguments, Type};

/// An expression as written after `=` (darling would read a string literal's contents as the
/// expression: `otherwise = "kept"` means the string).
pub(crate) struct Raw(pub Expr);

impl FromMeta for Raw {
    fn from_meta(item: &syn::Meta) -> darling::Result<Self> {
        match item {
            syn::Meta::NameValue(pair) => Ok(Raw(pair.value.clone())),
            _ => Err(darling::Error::custom("expected `name = expression`").with_span(item)),
        }
    }
}

impl quote::ToTokens for Raw {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.to_tokens(tokens);
    }
}

/// `#[elicit_rmcp::asks(otherwise = …)]`.
#[derive(Default, FromMeta)]
#[darling(default)]
pub(super) struct Args {
    /// What the method returns (inside `Ok`) when an `Accepted` question is declined or
    /// cancelled, for every one without its own.
    pub otherwise: Option<Raw>,
}

impl Args {
    pub(super) fn parse(args: TokenStream) -> darling::Result<Args> {
        Args::from_list(&NestedMeta::parse_meta_list(args)?)
    }
}

/// `#[ask(…)]` on a question parameter.
#[derive(Default, FromMeta)]
#[darling(default)]
pub(super) struct Ask {
    /// The message shown, any expression of the arguments (`format!(…)`).
    pub message: Option<Raw>,
    /// The key the question is asked under (the form's own by default).
    pub key: Option<LitStr>,
    /// Call-site defaults: a `<Form>Defaults` value.
    pub defaults: Option<Raw>,
    /// Answers only from this round's own question (`Question::strict_provenance`).
    pub strict: bool,
    /// How many times an invalid answer is asked again.
    pub reasks: Option<Raw>,
    /// A resolver (`impl Resolve<T>`): the value when known, otherwise its question.
    pub resolve: Option<Raw>,
    /// What the method returns (inside `Ok`) on a decline or cancel (`Accepted` only).
    pub otherwise: Option<Raw>,
}

/// Which kind of question.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `Asked<T>`: the body gets the `Answer<T>`.
    Asked,
    /// `Accepted<T>`: the body gets the `T`; otherwise the method returns early.
    Accepted,
    /// `Filled<T>`: the tool's arguments as a complete `T`, what is missing asked; otherwise
    /// the method returns early.
    Filled,
}

/// One question parameter.
pub(super) struct Question {
    pub kind: Kind,
    pub pat: Box<Pat>,
    /// The whole `Asked<T>` as written (where errors about it go).
    pub written: Box<Type>,
    /// The form, `T`.
    pub form: Type,
    pub ask: Ask,
    /// The `#[ask]` attribute (where errors about its arguments go).
    pub ask_span: Option<proc_macro2::Span>,
}

/// The method, taken apart.
pub(super) struct Method {
    pub method: ImplItemFn,
    /// The `Elicit` parameter the method already takes: its name, and whether it is `mut`.
    pub elicit: Option<(syn::Ident, bool)>,
    pub questions: Vec<Question>,
    /// `#[ask]` on a parameter that is not a question.
    pub stray: Vec<proc_macro2::Span>,
    /// A second `Elicit` parameter.
    pub second_elicit: Vec<proc_macro2::Span>,
    /// The `Parameters<…>` parameters the method keeps (a `Filled` takes their place).
    pub parameters: Vec<proc_macro2::Span>,
}

impl Method {
    /// Whether the method can be rewritten: an `async fn` returning a `Result`.
    pub(super) fn rewritable(&self) -> bool {
        self.method.sig.asyncness.is_some() && returns_result(&self.method.sig.output)
    }
}

/// Whether the return type is a `Result<…>` (by the last segment of its path).
pub(super) fn returns_result(output: &syn::ReturnType) -> bool {
    matches!(output, syn::ReturnType::Type(_, ty)
        if matches!(&**ty, Type::Path(path)
            if path.path.segments.last().is_some_and(|s| s.ident == "Result")))
}

/// Sorts `method`'s parameters, taking the questions (and their `#[ask]`) out of it.
pub(super) fn method(mut method: ImplItemFn, errors: &mut darling::error::Accumulator) -> Method {
    let inputs = std::mem::take(&mut method.sig.inputs);
    let mut parsed = Method {
        method,
        elicit: None,
        questions: Vec::new(),
        stray: Vec::new(),
        second_elicit: Vec::new(),
        parameters: Vec::new(),
    };
    for input in inputs {
        let FnArg::Typed(mut typed) = input else {
            parsed.method.sig.inputs.push(input);
            continue;
        };
        let (asks, others): (Vec<_>, Vec<_>) = std::mem::take(&mut typed.attrs)
            .into_iter()
            .partition(|attr| attr.path().is_ident("ask"));
        typed.attrs = others;
        let ask_attr = asks.into_iter().next_back();
        if let Some((kind, form)) = question_type(&typed.ty) {
            let ask = ask_attr
                .as_ref()
                .and_then(|attr| errors.handle(Ask::from_meta(&attr.meta)))
                .unwrap_or_default();
            parsed.questions.push(Question {
                kind,
                pat: typed.pat,
                written: typed.ty,
                form,
                ask,
                ask_span: ask_attr.as_ref().map(syn::spanned::Spanned::span),
            });
            continue;
        }
        if let Some(attr) = &ask_attr {
            parsed.stray.push(syn::spanned::Spanned::span(attr));
        }
        if matches!(&*typed.ty, Type::Path(path)
            if path.path.segments.last().is_some_and(|s| s.ident == "Parameters"))
        {
            parsed
                .parameters
                .push(syn::spanned::Spanned::span(&typed.ty));
        }
        if is_elicit(&typed.ty)
            && let Pat::Ident(ident) = &*typed.pat
        {
            if parsed.elicit.is_some() {
                parsed
                    .second_elicit
                    .push(syn::spanned::Spanned::span(&typed.ty));
            } else {
                parsed.elicit = Some((ident.ident.clone(), ident.mutability.is_some()));
            }
        }
        parsed.method.sig.inputs.push(FnArg::Typed(typed));
    }
    parsed
}

/// `Asked<T>` or `Accepted<T>` (by the last segment of the path), and the `T`.
fn question_type(ty: &Type) -> Option<(Kind, Type)> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let kind = match last.ident.to_string().as_str() {
        "Asked" => Kind::Asked,
        "Accepted" => Kind::Accepted,
        "Filled" => Kind::Filled,
        _ => return None,
    };
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|arg| match arg {
        GenericArgument::Type(ty) => Some(ty.clone()),
        _ => None,
    });
    let form = types.next()?;
    types.next().is_none().then_some((kind, form))
}

/// Whether `ty` is `Elicit` (by the last segment of its path).
fn is_elicit(ty: &Type) -> bool {
    matches!(ty, Type::Path(path)
        if path.path.segments.last().is_some_and(|s| s.ident == "Elicit" && s.arguments.is_empty()))
}
