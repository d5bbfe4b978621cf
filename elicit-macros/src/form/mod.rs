//! `#[derive(ElicitForm)]`: attributes (`ast`) → rules (`valid`) → code (`expand`), with a
//! `fallback` impl next to the errors when a rule fails.

mod ast;
mod expand;
mod fallback;
mod valid;

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub fn derive(input: &DeriveInput) -> TokenStream {
    match valid::validate(input) {
        Ok(form) => expand::expand(&form),
        Err(errors) => {
            let mut out = errors.write_errors();
            out.extend(fallback::expand(input));
            out
        }
    }
}
