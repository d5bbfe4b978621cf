//! Where generated code finds the runtime.

use proc_macro2::TokenStream;
use quote::quote;

/// `::elicit_runtime::__private`: everything generated code names lives there.
pub fn private() -> TokenStream {
    quote!(::elicit_runtime::__private)
}
