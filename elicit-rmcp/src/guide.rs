//!
//! Documentation only: nothing here is called. Each chapter is a page of this module, and every
//! example on it is compiled and run by `cargo test --doc`, so the guide cannot drift from the
//! API. Before the chapters, one page to choose by: [`which_way_to_ask`](crate::guide::which_way_to_ask),
//! the way to ask for each job (an argument the model left out, a confirmation, a value the
//! server may know, a question that depends on the body's work, a URL flow, a task).
//!
//! Read the chapters in order:
//!
//! 1. [`first_form`](crate::guide::first_form): derive a form, see the `requestedSchema` it
//!    sends, decode an answer.
#![doc = "2. [`asked_parameters`](crate::guide::asked_parameters): questions declared as a tool's \
           parameters and asked before the body runs, filling in the arguments the model left \
           out, and resolvers that answer from what the server knows."]
//! 3. [`enums_defaults_constraints`](crate::guide::enums_defaults_constraints): choices,
//!    defaults, ranges, formats, multi-selects and call-site defaults.
//! 4. [`what_the_compiler_refuses`](crate::guide::what_the_compiler_refuses): secrets and nested
//!    data, with the compiler's own messages.
#![doc = "5. [`rmcp_tools_and_prompts`](crate::guide::rmcp_tools_and_prompts): asking from rmcp tools and prompts with the \
           [`Elicit`] extractor."]
//! 6. [`several_questions`](crate::guide::several_questions): several questions in one round,
//!    partial answers, and flows whose next question depends on the last answer.
#![doc = "7. [`url_mode`](crate::guide::url_mode): URL mode itself: the link, the page, \
           completion, failure, expiry, replicas and pages that take a secret."]
#![doc = "8. [`eras_and_capabilities`](crate::guide::eras_and_capabilities): protocol 2026-07-28 and \
           2025-11-25 from one handler, client capabilities, and falling back when the client \
           cannot ask."]
//! 9. [`tasks`](crate::guide::tasks): a long tool that answers with a task when the client
//!    can run one, and asks in the call otherwise; its questions through `tasks/get` and
//!    `tasks/update`.
#![doc = "10. [`production_security`](crate::guide::production_security): keys from configuration \
           and their rotation, the principal, strict provenance, single use, Redis, lifetimes, and \
           what the client and the logs are told."]
//! 11. [`testing`](crate::guide::testing): a tool tested on both eras with every answer,
//!     generated valid and invalid answers, snapshots of what the user is asked (feature
//!     `testing`).
//! 12. [`performance`](crate::guide::performance): what costs what, each figure beside the
//!     benchmark and the command that produces it.
#![doc = "\nThen the [`cookbook`](crate::guide::cookbook): short recipes for tasks server authors have \
           (a confirmation bound to its arguments, OAuth through URL mode, a payment that never runs \
           twice, a wizard, a fallback for clients that cannot ask, migrating from rmcp's `elicit`)."]

#[doc = include_str!("guide/which_way_to_ask.md")]
pub mod which_way_to_ask {}

#[doc = include_str!("guide/01_first_form.md")]
pub mod first_form {}

#[doc = include_str!("guide/02_asked_parameters.md")]
pub mod asked_parameters {}

#[doc = include_str!("guide/03_enums_defaults_constraints.md")]
pub mod enums_defaults_constraints {}

#[doc = include_str!("guide/04_what_the_compiler_refuses.md")]
pub mod what_the_compiler_refuses {}

#[doc = include_str!("guide/05_rmcp_tools_and_prompts.md")]
pub mod rmcp_tools_and_prompts {}

#[doc = include_str!("guide/06_several_questions.md")]
pub mod several_questions {}

#[doc = include_str!("guide/07_url_mode.md")]
pub mod url_mode {}

#[doc = include_str!("guide/08_eras_and_capabilities.md")]
pub mod eras_and_capabilities {}

#[doc = include_str!("guide/09_tasks.md")]
pub mod tasks {}

#[doc = include_str!("guide/10_production_security.md")]
pub mod production_security {}

#[cfg(feature = "testing")]
#[doc = include_str!("guide/11_testing.md")]
pub mod testing {}

/// # 11. Testing your elicitations
///
/// This chapter, and the testing kit it shows, come with the crate's `testing` feature, which
/// these docs were built without. Read it on [docs.rs][chapter] (built with every feature),
/// or build it here with `cargo doc -p elicit-rmcp --features testing`.
///
/// [chapter]: https://docs.rs/elicit-rmcp/latest/elicit_rmcp/guide/testing/index.html
///
/// The kit is for tests only, so it goes in `[dev-dependencies]`:
///
/// ```toml
/// [dev-dependencies]
/// elicit-rmcp = { version = "0.1", features = ["testing"] }  # or elicit-testing = "0.1" without rmcp
/// ```
///
/// It is `elicit_rmcp::testing`: `ScriptedClient` drives your whole rmcp server in process with
/// rmcp's own client on either era; `answers` generates valid and invalid answers for any form;
/// `review` is what the user is asked, as text for a snapshot. Without rmcp, the same helpers
/// (but `ScriptedClient`) are the [`elicit-testing`](https://docs.rs/elicit-testing) crate.
#[cfg(not(feature = "testing"))]
pub mod testing {}

#[doc = include_str!("guide/12_performance.md")]
pub mod performance {}

#[doc = include_str!("guide/cookbook.md")]
pub mod cookbook {
    #[doc = include_str!("guide/cookbook/confirm_destructive_action.md")]
    pub mod confirm_destructive_action {}

    #[doc = include_str!("guide/cookbook/oauth_on_axum.md")]
    pub mod oauth_on_axum {}

    #[doc = include_str!("guide/cookbook/payment_never_twice.md")]
    pub mod payment_never_twice {}

    #[doc = include_str!("guide/cookbook/wizard.md")]
    pub mod wizard {}

    #[doc = include_str!("guide/cookbook/fallback_when_unsupported.md")]
    pub mod fallback_when_unsupported {}

    #[doc = include_str!("guide/cookbook/connect_without_url_mode.md")]
    pub mod connect_without_url_mode {}

    #[doc = include_str!("guide/cookbook/migrating_from_rmcp.md")]
    pub mod migrating_from_rmcp {}
}
