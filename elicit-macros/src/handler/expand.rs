//! The annotated impl: rmcp's `#[tool_handler]` over elicit's view of the tool router, and
//! the prompt methods.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ImplItem, ItemImpl, parse_quote};

use super::args::Args;

const PRIVATE: &str = "::elicit_rmcp::__private";

/// `block`, wired as `args` say.
pub fn expand(mut block: ItemImpl, args: &Args) -> TokenStream {
    let private: TokenStream = PRIVATE.parse().expect("a path");
    let rmcp = quote!(#private::rmcp);
    let elicit = args.elicit();
    let tools = args.tools();
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
                #elicit.get_prompt(&#prompts, self, request, context).await
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
                    #private::Result::Ok(#private::list_prompts(&#prompts, &context))
                }
            });
        }
    }

    quote! {
        #[#private::tool_handler(router = #elicit.tools(&#tools) #(, #passed_on)*)]
        #announce
        #block
    }
}
