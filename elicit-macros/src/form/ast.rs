//! The `#[elicit(...)]` attributes of a form, as darling reads them. No rules beyond syntax.

use darling::util::SpannedValue;
use darling::{FromDeriveInput, FromField};
use syn::Attribute;

use crate::case::RenameRule;
use crate::lit::{Count, FormatAttr, Literal, Text};

/// Container attributes of `#[derive(ElicitForm)]`.
#[derive(FromDeriveInput)]
#[darling(attributes(elicit), forward_attrs(doc))]
pub(super) struct FormInput {
    pub attrs: Vec<Attribute>,
    pub message: Option<Text>,
    pub rename_all: Option<SpannedValue<RenameRule>>,
    pub schema_uri: Option<Text>,
    pub key: Option<Text>,
}

/// Field attributes of `#[derive(ElicitForm)]`.
#[derive(FromField)]
#[darling(attributes(elicit), forward_attrs(doc))]
pub(super) struct FormField {
    pub attrs: Vec<Attribute>,
    pub title: Option<Text>,
    pub description: Option<Text>,
    pub rename: Option<Text>,
    pub min_length: Option<Count>,
    pub max_length: Option<Count>,
    pub format: Option<FormatAttr>,
    pub minimum: Option<Literal>,
    pub maximum: Option<Literal>,
    pub min_items: Option<Count>,
    pub max_items: Option<Count>,
    pub default: Option<Literal>,
    pub not_secret: Option<Text>,
    /// The user's to decide: asked when filling in a form even if the model gave a value.
    pub user_decides: darling::util::Flag,
    /// Required of the model: listed in `required` of a tool's input schema for this form.
    pub model_required: darling::util::Flag,
}
