//! What a struct given to `#[elicit_url]` already derives, read from its attributes.
//!
//! An attribute macro sees only the attributes written below it: a `#[derive(…)]` above it has
//! already been expanded by the compiler, which hands the macro the item without that list.

use syn::parse::Parse;
use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Path, Token};

/// The serde traits the state needs, in the order they are derived.
pub(super) const SERDE_TRAITS: [&str; 2] = ["Serialize", "Deserialize"];

/// The traits of [`SERDE_TRAITS`] that no `#[derive(…)]` among `attrs` names (by the last
/// segment of the path, so `Serialize`, `serde::Serialize` and a re-export all count).
pub(super) fn missing_serde(attrs: &[Attribute]) -> Vec<&'static str> {
    let derived: Vec<String> = items::<Path>(attrs, "derive")
        .filter_map(|p| p.segments.last().map(|s| s.ident.to_string()))
        .collect();
    SERDE_TRAITS
        .into_iter()
        .filter(|t| !derived.iter().any(|d| d == t))
        .collect()
}

/// Whether a `#[serde(crate = "…")]` is among `attrs`: serde refuses a second one.
pub(super) fn names_serde_crate(attrs: &[Attribute]) -> bool {
    items::<Meta>(attrs, "serde").any(|m| m.path().is_ident("crate"))
}

/// The comma-separated items of every `#[name(…)]` among `attrs` (unparsable lists skipped:
/// the macro they belong to reports them).
fn items<T: Parse>(attrs: &[Attribute], name: &str) -> impl Iterator<Item = T> {
    attrs
        .iter()
        .filter(move |a| a.path().is_ident(name))
        .filter_map(|a| {
            a.parse_args_with(Punctuated::<T, Token![,]>::parse_terminated)
                .ok()
        })
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::{missing_serde, names_serde_crate};
    use syn::{Attribute, parse_quote};

    fn attrs(item: syn::DeriveInput) -> Vec<Attribute> {
        item.attrs
    }

    #[test]
    fn reads_every_derive_list() {
        let none = attrs(parse_quote!(
            #[derive(Debug, Clone)]
            struct S;
        ));
        assert_eq!(missing_serde(&none), ["Serialize", "Deserialize"]);
        let both = attrs(parse_quote!(
            #[derive(Debug, serde::Serialize)]
            #[doc = "x"]
            #[derive(my::re::Deserialize)]
            struct S;
        ));
        assert!(missing_serde(&both).is_empty());
        let one = attrs(parse_quote!(
            #[derive(Serialize)]
            struct S;
        ));
        assert_eq!(missing_serde(&one), ["Deserialize"]);
        // A look-alike is not the trait: `SerializeExt` does not count.
        let alike = attrs(parse_quote!(
            #[derive(SerializeExt)]
            struct S;
        ));
        assert_eq!(missing_serde(&alike).len(), 2);
    }

    #[test]
    fn sees_a_serde_crate_path() {
        let with = attrs(parse_quote!(
            #[serde(rename_all = "camelCase", crate = "x")]
            struct S;
        ));
        assert!(names_serde_crate(&with));
        let without = attrs(parse_quote!(
            #[serde(rename_all = "camelCase")]
            struct S;
        ));
        assert!(!names_serde_crate(&without));
    }
}
