//! A host for the MCP conformance suite's client scenarios: the suite starts it as
//! `conformance_client <server URL>` with the scenario's name in `MCP_CONFORMANCE_SCENARIO`
//! and its protocol revision in `MCP_CONFORMANCE_PROTOCOL_VERSION`. It connects over
//! streamable HTTP (`server/discover` on 2026-07-28, `initialize` on 2025-11-25), lists the
//! tools and calls each through the [`Answerer`]'s round driver, as a person who accepts every
//! form as it is pre-filled (the server's defaults) and opens no page. It prints each call's
//! outcome; the suite's checks, made by its own server, say whether the host did right.
//!
//! ```sh
//! node conformance/dist/index.js client --scenario sep-2322-client-request-state \
//!     --spec-version 2026-07-28 --command target/debug/examples/conformance_client
//! ```
//! (`scripts/host-interop` runs the elicitation scenarios this way.)

use elicit_host::{Consent, FormInput, FormModel, UrlReport, UrlRequest, safe_text};
use elicit_host_rmcp::{Answerer, Asker, ElicitingClient, Host};
use elicit_wire::ElicitResult;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceExt};

/// Accepts each form with what it is pre-filled with; opens nothing. What the server sends is
/// printed through `safe_text`: shown, never obeyed by the terminal.
struct AcceptsDefaults;

impl Host for AcceptsDefaults {
    async fn fill(&self, asker: &Asker, form: &FormModel) -> ElicitResult {
        println!(
            "{} asks: {}",
            safe_text(asker.shown_name()),
            safe_text(form.message())
        );
        FormInput::new(form)
            .accept()
            .unwrap_or_else(|_| ElicitResult::cancel())
    }

    async fn open(&self, _: &Asker, request: &UrlRequest, _: &UrlReport) -> Consent {
        println!("not opening {}", safe_text(&request.url));
        Consent::Declined
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The suite appends the URL after the command's own arguments.
    let url = std::env::args()
        .skip(1)
        .next_back()
        .ok_or("usage: conformance_client <server URL>")?;
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let revision = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").unwrap_or_default();
    println!("scenario {scenario} on {revision} at {url}");

    let client = ElicitingClient::new(Answerer::new(AcceptsDefaults));
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = if revision.starts_with("2026") {
        client
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await?
    } else {
        client
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .serve(transport)
            .await?
    };

    for tool in client.list_all_tools().await? {
        let call = client
            .service()
            .answerer()
            .call_tool(&client, CallToolRequestParams::new(tool.name.clone()))
            .await;
        let outcomes: Vec<_> = call.elicitations.iter().map(|e| &e.outcome).collect();
        let tool = safe_text(&tool.name);
        match call.result {
            Ok(result) => println!("{tool}: {outcomes:?} {:?}", result.content),
            Err(error) => println!(
                "{tool}: {outcomes:?} failed: {}",
                safe_text(&error.to_string())
            ),
        }
    }
    client.cancel().await?;
    Ok(())
}
