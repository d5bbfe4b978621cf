//! The annotated impl: rmcp's `#[tool_handler]` over elicit's view of the tool router, and
//! the prompt methods.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplItem, ItemImpl, parse_quote};

use super::args::Args;
use super::router::{self, Kind};

const PRIVATE: &str = "::elicit_rmcp::__private";

/// `block`, wired as `args` say.
pub(super) fn expand(mut block: ItemImpl, args: &Args) -> TokenStream {
    let private: TokenStream = PRIVATE.parse().expect("a path");
    let rmcp = quote!(#private::rmcp);
    let elicit = args.elicit();
    let tools = router::reference(args.tools(), Kind::Tools, &block, &rmcp);
    let passed_on = args.passed_on();
    let has = |name: &str| {
        block
            .items
            .iter()
            .any(|item| matches!(item, ImplItem::Fn(f) if f.sig.ident == name))
    };
    let (has_info, has_get, has_list) = (has("get_info"), has("get_prompt"), has("list_prompts"));

    let mut announce = None;
    if let Some(prompts) = args.prompts() {
        let prompts = router::reference(prompts, Kind::Prompts, &block, &rmcp);
        if !has_info {
            announce = Some(quote!(#[#private::prompt_handler]));
        }
        // One of its own is an error already (`check.rs`): not a second one.
        if !has_get {
            block.items.push(parse_quote! {
            async fn get_prompt(
                &self,
                request: #rmcp::model::GetPromptRequestParams,
                context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
            ) -> #private::Result<#rmcp::model::GetPromptResponse, #rmcp::ErrorData> {
                #elicit.get_prompt(#prompts, self, request, context).await
            }
            });
        }
        if !has_list {
            block.items.push(parse_quote! {
                async fn list_prompts(
                    &self,
                    _request: #private::Option<#rmcp::model::PaginatedRequestParams>,
                    context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
                ) -> #private::Result<#rmcp::model::ListPromptsResult, #rmcp::ErrorData> {
                    #private::Result::Ok(#private::list_prompts(#prompts, &context))
                }
            });
        }
    }

    let mut router = quote!(#elicit.tools(#tools));
    if args.tasks() {
        router = quote!(#router.with_tasks());
        tasks(&mut block, args, &elicit, has_info);
    }

    quote! {
        #[#private::tool_handler(router = #router #(, #passed_on)*)]
        #announce
        #block
    }
}

/// With `tasks`: `get_task`, `update_task` and `cancel_task` through the `ElicitHandler`, and
/// (unless the impl writes its own) a `get_info` that announces the tasks extension beside
/// tools (and prompts), with the `serverInfo` rmcp's `#[tool_handler]` would write.
fn tasks(block: &mut ItemImpl, args: &Args, elicit: &syn::Expr, has_info: bool) {
    let private: TokenStream = PRIVATE.parse().expect("a path");
    let rmcp = quote!(#private::rmcp);
    let methods = [
        (
            "get_task",
            "GetTaskParams",
            quote!(#rmcp::model::GetTaskResult),
        ),
        ("update_task", "UpdateTaskParams", quote!(())),
        ("cancel_task", "CancelTaskParams", quote!(())),
    ];
    for (name, params, output) in methods {
        // One of its own is an error already (`check.rs`): not a second one.
        if block
            .items
            .iter()
            .any(|item| matches!(item, ImplItem::Fn(f) if f.sig.ident == name))
        {
            continue;
        }
        let name = syn::Ident::new(name, proc_macro2::Span::call_site());
        let params = syn::Ident::new(params, proc_macro2::Span::call_site());
        block.items.push(parse_quote! {
            async fn #name(
                &self,
                request: #rmcp::model::#params,
                context: #rmcp::service::RequestContext<#rmcp::RoleServer>,
            ) -> #private::Result<#output, #rmcp::ErrorData> {
                #elicit.#name(request, context).await
            }
        });
    }
    if has_info {
        return;
    }
    let prompts = args.prompts().map(|_| quote!(.enable_prompts()));
    let server_info = args.server_info(&rmcp);
    let instructions = args
        .instructions()
        .map(|text| quote!(.with_instructions(::std::string::String::from(#text))));
    block.items.push(parse_quote! {
        fn get_info(&self) -> #rmcp::model::ServerConfig {
            #rmcp::model::ServerConfig::new(
                #rmcp::model::ServerCapabilities::builder()
                    .enable_tools()
                    #prompts
                    .enable_tasks()
                    .build(),
            )
            .with_server_info(#server_info)
            #instructions
        }
    });
}
