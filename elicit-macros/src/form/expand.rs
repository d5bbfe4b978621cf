//! Code generation for a validated form. Creates no errors: every rule ran in `valid`.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::valid::{Field, Form, KindCheck, KindRule, Num};
use crate::lit::{Format, Value};
use crate::paths::private;

pub fn expand(form: &Form) -> TokenStream {
    let p = private();
    let ident = form.ident;
    let message = &form.message;
    let key = &form.key;
    let bounds = field_bounds(form.fields.iter().map(|f| f.ty));
    let schema_uri = form
        .schema_uri
        .as_ref()
        .map(|uri| quote!(.with_schema_uri(#uri)));
    let pushes = form.fields.iter().map(|f| {
        let ty = f.ty;
        let wire = &f.wire;
        let spec = field_spec(f);
        quote!(let __elicit_schema = #p::push_field::<#ty>(__elicit_schema, #wire, &#spec);)
    });
    let names: Vec<_> = form.fields.iter().map(|f| f.ident).collect();
    // One pass over the answer finds every field's value; unknown keys fall through.
    let count = form.fields.len();
    let slot_arms = form.fields.iter().enumerate().map(|(i, f)| {
        let wire = &f.wire;
        quote!(#wire => __elicit_slots[#i] = #p::Option::Some(__elicit_field_value),)
    });
    let decodes = form.fields.iter().enumerate().map(|(i, f)| {
        let (ty, name) = (f.ty, f.ident);
        quote!(let #name = #p::decode_slot::<#ty>(__elicit_slots[#i], __elicit_schema, #i, &mut __elicit_errors);)
    });
    let encodes = form.fields.iter().map(|f| {
        let (ty, name, wire) = (f.ty, f.ident, &f.wire);
        quote!(#p::encode_field::<#ty>(&mut __elicit_content, #wire, &self.#name);)
    });
    let checks = form
        .fields
        .iter()
        .flat_map(|f| f.checks.iter().map(move |c| kind_check(f, c)));
    let defaults_ident = defaults_ident(ident);
    let default_encodes = form.fields.iter().map(|f| {
        let (ty, name, wire) = (f.value_ty, f.ident, &f.wire);
        quote! {
            if let #p::Option::Some(__elicit_value) = &__elicit_defaults.#name {
                #p::encode_field::<#ty>(&mut __elicit_content, #wire, __elicit_value);
            }
        }
    });
    let defaults_struct = defaults_struct(form);
    quote! {
        #defaults_struct

        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            #[automatically_derived]
            #[allow(unused_qualifications)]
            impl #p::ElicitForm for #ident where #(#bounds,)* {
                fn key() -> &'static str {
                    #key
                }

                fn message() -> &'static str {
                    #message
                }

                fn __elicit_digest() -> &'static str {
                    static __ELICIT_DIGEST: #p::OnceLock<::std::string::String> = #p::OnceLock::new();
                    __ELICIT_DIGEST.get_or_init(|| {
                        #p::question_digest(#key, #message, <Self as #p::ElicitForm>::requested_schema())
                    })
                }

                fn requested_schema() -> &'static #p::RequestedSchema {
                    static __ELICIT_SCHEMA: #p::OnceLock<#p::RequestedSchema> = #p::OnceLock::new();
                    __ELICIT_SCHEMA.get_or_init(|| {
                        let __elicit_schema = #p::RequestedSchema::new() #schema_uri;
                        #(#pushes)*
                        __elicit_schema
                    })
                }

                fn decode_with(
                    __elicit_value: &#p::serde_json::Value,
                    __elicit_schema: &#p::RequestedSchema,
                ) -> #p::Result<Self, #p::ContentError> {
                    let #p::Option::Some(__elicit_content) = __elicit_value.as_object() else {
                        return #p::Result::Err(#p::not_an_object());
                    };
                    let mut __elicit_errors = #p::ContentError::new();
                    let mut __elicit_slots: [#p::Option<&#p::serde_json::Value>; #count] = [#p::Option::None; #count];
                    for (__elicit_key, __elicit_field_value) in __elicit_content {
                        match __elicit_key.as_str() {
                            #(#slot_arms)*
                            _ => {}
                        }
                    }
                    #(#decodes)*
                    match (#(#names,)*) {
                        (#(#p::Option::Some(#names),)*) if __elicit_errors.is_empty() => {
                            #p::Result::Ok(Self { #(#names,)* })
                        }
                        _ => #p::Result::Err(__elicit_errors),
                    }
                }

                fn to_content(&self) -> #p::serde_json::Map<::std::string::String, #p::serde_json::Value> {
                    let mut __elicit_content = #p::serde_json::Map::new();
                    #(#encodes)*
                    __elicit_content
                }

                type Defaults = #defaults_ident;

                fn defaults_content(
                    __elicit_defaults: &#defaults_ident,
                ) -> #p::serde_json::Map<::std::string::String, #p::serde_json::Value> {
                    let mut __elicit_content = #p::serde_json::Map::new();
                    #(#default_encodes)*
                    __elicit_content
                }
            }

            #(#checks)*
        };
    }
}

/// `Ty: ElicitField` for each field type, spanned on the type so a bad type is reported there.
pub fn field_bounds<'a>(tys: impl Iterator<Item = &'a syn::Type>) -> Vec<TokenStream> {
    // The runtime path is written out here, not interpolated: every token of the bound must
    // carry the type's span, or rustc reports the error on the derive instead of the field.
    tys.map(|ty| quote_spanned!(ty.span()=> #ty: ::elicit_runtime::__private::ElicitField))
        .collect()
}

fn field_spec(f: &Field) -> TokenStream {
    let p = private();
    let some_string = |s: &Option<String>| match s {
        Some(s) => quote!(#p::Option::Some(::std::string::String::from(#s))),
        None => quote!(#p::Option::None),
    };
    let some_u64 = |n: Option<u64>| match n {
        Some(n) => quote!(#p::Option::Some(#n)),
        None => quote!(#p::Option::None),
    };
    let number = |n: Option<Num>| match n {
        Some(n) => {
            let n = number(n);
            quote!(#p::Option::Some(#n))
        }
        None => quote!(#p::Option::None),
    };
    let title = some_string(&f.title);
    let description = some_string(&f.description);
    let (min_length, max_length) = (some_u64(f.min_length), some_u64(f.max_length));
    let (min_items, max_items) = (some_u64(f.min_items), some_u64(f.max_items));
    let (minimum, maximum) = (number(f.minimum), number(f.maximum));
    let format = match f.format {
        Some(fmt) => {
            let variant = match fmt {
                Format::Email => quote!(Email),
                Format::Uri => quote!(Uri),
                Format::Date => quote!(Date),
                Format::DateTime => quote!(DateTime),
            };
            quote!(#p::Option::Some(#p::StringFormat::#variant))
        }
        None => quote!(#p::Option::None),
    };
    let default = match &f.default {
        Some(v) => {
            let v = json(v);
            quote!(#p::Option::Some(#v))
        }
        None => quote!(#p::Option::None),
    };
    quote! {
        #p::FieldSpec {
            title: #title,
            description: #description,
            min_length: #min_length,
            max_length: #max_length,
            format: #format,
            minimum: #minimum,
            maximum: #maximum,
            min_items: #min_items,
            max_items: #max_items,
            default: #default,
        }
    }
}

fn number(n: Num) -> TokenStream {
    let p = private();
    match n {
        Num::Int(i) if i >= 0 => {
            let lit = Literal::u64_suffixed(i as u64);
            quote!(#p::serde_json::Number::from(#lit))
        }
        Num::Int(i) => {
            let lit = Literal::i64_suffixed(i as i64);
            quote!(#p::serde_json::Number::from(#lit))
        }
        Num::Float(f) => {
            let lit = Literal::f64_suffixed(f);
            quote!(#p::number_f64(#lit))
        }
    }
}

fn json(v: &Value) -> TokenStream {
    let p = private();
    match v {
        Value::Str(s) => quote!(#p::serde_json::Value::from(#s)),
        Value::Bool(b) => quote!(#p::serde_json::Value::Bool(#b)),
        Value::Int(i) => {
            let n = number(Num::Int(*i));
            quote!(#p::serde_json::Value::Number(#n))
        }
        Value::Float(f) => {
            let n = number(Num::Float(*f));
            quote!(#p::serde_json::Value::Number(#n))
        }
        Value::List(items) => {
            quote!(#p::serde_json::Value::Array(::std::vec![#(#p::serde_json::Value::from(#items)),*]))
        }
    }
}

fn kind_check(f: &Field, check: &KindCheck) -> TokenStream {
    let p = private();
    let ty = f.ty;
    let kind = quote!(<#ty as #p::ElicitField>::KIND);
    let cond = match &check.rule {
        KindRule::Text => quote!(#p::is_text(#kind)),
        KindRule::Int(i) => {
            let lit = Literal::i128_unsuffixed(*i);
            quote!(#p::int_fits(#kind, #lit))
        }
        KindRule::Float(f) => {
            let lit = Literal::f64_unsuffixed(*f);
            quote!(#p::float_fits(#kind, #lit))
        }
        KindRule::Multi => quote!(#p::is_multi(#kind)),
        KindRule::DefaultStr(s) => quote!(#p::single_offers(#kind, #s) || #p::is_text(#kind)),
        KindRule::DefaultBool => quote!(#p::is_boolean(#kind)),
        KindRule::DefaultList(items) => quote!(#p::multi_offers(#kind, &[#(#items),*])),
    };
    let message = &check.message;
    quote_spanned! {check.span=>
        const _: () = if !(#cond) {
            ::core::panic!(#message)
        };
    }
}

/// `BookingDefaults` for `Booking`.
pub fn defaults_ident(ident: &syn::Ident) -> syn::Ident {
    quote::format_ident!("{}Defaults", ident)
}

/// The call-site defaults struct: every field of the form, optional.
fn defaults_struct(form: &Form) -> TokenStream {
    let (vis, ident) = (form.vis, form.ident);
    let name = defaults_ident(ident);
    let doc = format!(
        "Call-site defaults for [`{ident}`]: each field set here is pre-filled in the form. \
         Pass it to `{ident}::question().defaults(…)`."
    );
    let fields = form.fields.iter().map(|f| {
        let (name, ty) = (f.ident, f.value_ty);
        let doc = format!("Pre-fills `{}`.", f.wire);
        quote!(#[doc = #doc] pub #name: ::core::option::Option<#ty>,)
    });
    quote! {
        #[doc = #doc]
        #[derive(Default)]
        #vis struct #name {
            #(#fields)*
        }
    }
}
