//! Where generated code finds the runtime: `::elicit_runtime` by default, `::elicit_rmcp` for
//! the derives that crate re-exports, or the path a container's `#[elicit(crate = "…")]` names
//! (for crates that re-export the runtime under another name).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::punctuated::Punctuated;
use syn::{Attribute, DeriveInput, Expr, ExprLit, Lit, Meta, Token};

/// Where generated code finds the runtime, passed to every generator as serde passes its
/// crate path: `<root>::__private` is everything generated code names.
pub(crate) struct Runtime {
    private: TokenStream,
}

impl Runtime {
    fn new(root: TokenStream) -> Self {
        Runtime {
            private: quote!(#root::__private),
        }
    }

    /// `<root>::__private`.
    pub(crate) fn private(&self) -> TokenStream {
        self.private.clone()
    }

    /// [`Runtime::private`] with every token spanned at `span`, so an error in a bound that
    /// names it is reported at `span` (a field's type, an attribute) rather than on the derive.
    pub(crate) fn private_at(&self, span: proc_macro2::Span) -> TokenStream {
        self.private
            .clone()
            .into_iter()
            .map(|mut tree| {
                tree.set_span(span);
                tree
            })
            .collect()
    }
}

/// Expands `derive` with generated code naming the runtime at `default`, or at the path the
/// input's `#[elicit(crate = "…")]` gives (removed from the input before `derive` parses it).
pub(crate) fn expand(
    input: &DeriveInput,
    default: TokenStream,
    derive: impl FnOnce(&DeriveInput, &Runtime) -> TokenStream,
) -> TokenStream {
    let mut input = input.clone();
    // A bad path is reported, and the derive still runs with the default one: its impl (or
    // fallback impl) keeps code that names the type free of follow-on errors.
    let (root, error) = match take_crate(&mut input.attrs) {
        Ok(Some(path)) => (path.into_token_stream(), None),
        Ok(None) => (default, None),
        Err(error) => (default, Some(error.to_compile_error())),
    };
    let expanded = derive(&input, &Runtime::new(root));
    quote!(#error #expanded)
}

/// Removes `crate = "path"` from the container's `#[elicit(…)]` attributes and returns the path.
fn take_crate(attrs: &mut [Attribute]) -> syn::Result<Option<syn::Path>> {
    let mut found = None;
    for attr in attrs.iter_mut() {
        let Some((meta, rest)) = split_crate(attr) else {
            continue;
        };
        // Taken out whatever it holds, so the derive's own parser never sees it.
        found = Some(crate_path(&meta));
        let path = attr.path().clone();
        *attr = syn::parse_quote!(#[#path(#rest)]);
    }
    found.transpose()
}

/// The path a valid `#[elicit(crate = "…")]` among `attrs` names, leaving them as they are (a
/// bad one is reported by the derive that reads them).
pub(crate) fn crate_in(attrs: &[Attribute]) -> Option<syn::Path> {
    // The last one, as in `take_crate`.
    let (meta, _) = attrs.iter().rev().find_map(split_crate)?;
    crate_path(&meta).ok()
}

/// `crate = …` of an `#[elicit(…)]` attribute, and the attribute's other items.
fn split_crate(attr: &Attribute) -> Option<(Meta, Punctuated<Meta, Token![,]>)> {
    if !attr.path().is_ident("elicit") {
        return None;
    }
    let Meta::List(list) = &attr.meta else {
        return None;
    };
    // Unparsable: the derive's own parser reports it.
    let items = list
        .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        .ok()?;
    let (krate, rest): (Vec<_>, Vec<_>) =
        items.into_iter().partition(|m| m.path().is_ident("crate"));
    Some((krate.into_iter().next()?, rest.into_iter().collect()))
}

fn crate_path(meta: &Meta) -> syn::Result<syn::Path> {
    let message = "expected `crate = \"path::to::elicit_runtime\"`";
    let Meta::NameValue(nv) = meta else {
        return Err(syn::Error::new_spanned(meta, message));
    };
    let Expr::Lit(ExprLit {
        lit: Lit::Str(text),
        ..
    }) = &nv.value
    else {
        return Err(syn::Error::new_spanned(&nv.value, message));
    };
    let mut path: syn::Path = text.parse()?;
    path.segments
        .iter_mut()
        .for_each(|s| s.ident.set_span(text.span()));
    Ok(path)
}
