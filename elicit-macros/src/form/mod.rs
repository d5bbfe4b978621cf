//! `#[derive(ElicitForm)]`: attributes parsed by darling (`ast`) → checked against the rules
//! (`rules`, `default`) into the validated model (`valid`) → code (`expand`), with a `fallback`
//! next to the errors when a rule fails.

mod ast;
mod default;
mod expand;
mod fallback;
mod kinds;
mod rules;
mod valid;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::paths::Runtime;

pub(crate) fn derive(input: &DeriveInput, rt: &Runtime) -> TokenStream {
    match valid::validate(input) {
        Ok(form) => expand::expand(&form, rt),
        Err(errors) => {
            let mut out = errors.write_errors();
            out.extend(fallback::expand(input, rt));
            out
        }
    }
}
