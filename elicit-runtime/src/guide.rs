//!
//! Documentation only: nothing here is called. Each chapter is a page of this module, and every
//! example on it is compiled and run by `cargo test --doc`, so the guide cannot drift from the
//! API. Read them in order:
//!
//! 1. [`first_form`](crate::guide::first_form): derive a form, see the `requestedSchema` it
//!    sends, decode an answer.
//! 2. [`enums_defaults_constraints`](crate::guide::enums_defaults_constraints): choices,
//!    defaults, ranges, formats, multi-selects and call-site defaults.
//! 3. [`what_the_compiler_refuses`](crate::guide::what_the_compiler_refuses): secrets and nested
//!    data, with the compiler's own messages.
#![cfg_attr(
    feature = "rmcp",
    doc = "4. [`rmcp_tools_and_prompts`](crate::guide::rmcp_tools_and_prompts): asking from rmcp tools and prompts with the \
           [`Elicit`](crate::adapters::rmcp::Elicit) extractor (feature `rmcp`)."
)]
#![cfg_attr(
    feature = "rmcp",
    doc = "\nThen the [`cookbook`](crate::guide::cookbook): short recipes for tasks server authors have \
           (a confirmation bound to its arguments, OAuth through URL mode, a payment that never runs \
           twice, a wizard, a fallback for clients that cannot ask, migrating from rmcp's `elicit`)."
)]

#[doc = include_str!("guide/01_first_form.md")]
pub mod first_form {}

#[doc = include_str!("guide/02_enums_defaults_constraints.md")]
pub mod enums_defaults_constraints {}

#[doc = include_str!("guide/03_what_the_compiler_refuses.md")]
pub mod what_the_compiler_refuses {}

#[cfg(feature = "rmcp")]
#[doc = include_str!("guide/04_rmcp_tools_and_prompts.md")]
pub mod rmcp_tools_and_prompts {}

#[cfg(feature = "rmcp")]
#[doc = include_str!("guide/cookbook.md")]
#[cfg_attr(
    feature = "axum",
    doc = "- [`oauth_on_axum`](crate::guide::cookbook::oauth_on_axum): collect an OAuth grant through \
           URL mode on an axum app: the landing route redirects to the provider, your callback \
           completes the elicitation (feature `axum`; the whole app runs as \
           `cargo run -p elicit-examples --example oauth_axum`)."
)]
pub mod cookbook {
    #[doc = include_str!("guide/cookbook/confirm_destructive_action.md")]
    pub mod confirm_destructive_action {}

    #[cfg(feature = "axum")]
    #[doc = include_str!("guide/cookbook/oauth_on_axum.md")]
    pub mod oauth_on_axum {}

    #[doc = include_str!("guide/cookbook/payment_never_twice.md")]
    pub mod payment_never_twice {}

    #[doc = include_str!("guide/cookbook/wizard.md")]
    pub mod wizard {}

    #[doc = include_str!("guide/cookbook/fallback_when_unsupported.md")]
    pub mod fallback_when_unsupported {}

    #[doc = include_str!("guide/cookbook/migrating_from_rmcp.md")]
    pub mod migrating_from_rmcp {}
}
