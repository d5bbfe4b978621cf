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

#[doc = include_str!("guide/01_first_form.md")]
pub mod first_form {}

#[doc = include_str!("guide/02_enums_defaults_constraints.md")]
pub mod enums_defaults_constraints {}

#[doc = include_str!("guide/03_what_the_compiler_refuses.md")]
pub mod what_the_compiler_refuses {}

#[cfg(feature = "rmcp")]
#[doc = include_str!("guide/04_rmcp_tools_and_prompts.md")]
pub mod rmcp_tools_and_prompts {}
