//! The attribute's arguments: where the routers and the `ElicitHandler` are, and what goes on
//! to rmcp's `#[tool_handler]` unchanged.

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::Override;
use proc_macro2::TokenStream;
use syn::{Expr, parse_quote};

/// `#[elicit_rmcp::handler(tools = …, prompts [= …], tasks, elicit = …, name = …, version = …,
/// instructions = …, meta = …)]`.
#[derive(Default, FromMeta)]
#[darling(default)]
pub(super) struct Args {
    /// The `ElicitHandler`; `self.elicit` by default.
    elicit: Option<Expr>,
    /// The tool router; `Self::tool_router()` by default, as for rmcp's `#[tool_handler]`,
    /// built once per process (`router.rs`).
    tools: Option<Expr>,
    /// Whether prompts run through elicit too, and where their router is
    /// (`Self::prompt_router()` for a bare `prompts`, as for rmcp's `#[prompt_handler]`, built
    /// once per process).
    prompts: Option<Override<Expr>>,
    /// Whether the server serves `tasks/*`, so its tools may answer with a task.
    tasks: darling::util::Flag,
    /// rmcp's `#[tool_handler]` arguments, passed on as written.
    name: Option<crate::asks::Raw>,
    version: Option<crate::asks::Raw>,
    instructions: Option<crate::asks::Raw>,
    meta: Option<crate::asks::Raw>,
}

impl Args {
    pub(super) fn parse(args: TokenStream) -> darling::Result<Args> {
        let items = NestedMeta::parse_meta_list(args)?;
        Args::from_list(&items)
    }

    /// The `ElicitHandler`'s expression.
    pub(super) fn elicit(&self) -> Expr {
        self.elicit
            .clone()
            .unwrap_or_else(|| parse_quote!(self.elicit))
    }

    /// The tool router `tools = …` names; `None` for the default (`router.rs`).
    pub(super) fn tools(&self) -> Option<&Expr> {
        self.tools.as_ref()
    }

    /// `Some` when prompts run through elicit, with the router `prompts = …` names (`None`
    /// for a bare `prompts`: the default, `router.rs`).
    pub(super) fn prompts(&self) -> Option<Option<&Expr>> {
        self.prompts.as_ref().map(|prompts| match prompts {
            Override::Inherit => None,
            Override::Explicit(router) => Some(router),
        })
    }

    /// Whether `tasks` was written.
    pub(super) fn tasks(&self) -> bool {
        self.tasks.is_present()
    }

    /// The `serverInfo` `get_info` announces, as rmcp's `#[tool_handler]` builds it from
    /// `name` and `version` (`rmcp` and its version when neither is given).
    pub(super) fn server_info(&self, rmcp: &TokenStream) -> TokenStream {
        match (&self.name, &self.version) {
            (Some(name), Some(version)) => {
                quote::quote!(#rmcp::model::Implementation::new(#name, #version))
            }
            (Some(name), None) => {
                quote::quote!(#rmcp::model::Implementation::new(#name, env!("CARGO_PKG_VERSION")))
            }
            (None, Some(version)) => {
                quote::quote!(#rmcp::model::Implementation::new(env!("CARGO_CRATE_NAME"), #version))
            }
            (None, None) => quote::quote!(#rmcp::model::Implementation::from_build_env()),
        }
    }

    /// `instructions = …`, if given.
    pub(super) fn instructions(&self) -> Option<&crate::asks::Raw> {
        self.instructions.as_ref()
    }

    /// `name = …` and the others, for rmcp's `#[tool_handler]`.
    pub(super) fn passed_on(&self) -> Vec<TokenStream> {
        let pairs = [
            ("name", &self.name),
            ("version", &self.version),
            ("instructions", &self.instructions),
            ("meta", &self.meta),
        ];
        pairs
            .into_iter()
            .filter_map(|(key, value)| {
                let value = value.as_ref()?;
                let key = syn::Ident::new(key, proc_macro2::Span::call_site());
                Some(quote::quote!(#key = #value))
            })
            .collect()
    }
}
