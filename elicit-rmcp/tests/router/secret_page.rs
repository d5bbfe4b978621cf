//! The spec's `set_api_key` on the ready secret page, tested as a person uses it on both eras:
//! rmcp's client gets the link, the testing kit's browser opens it through the app's own
//! router, types the key and presses Save; the key reaches the server's vault and no MCP
//! message. A key the page refuses is asked again, and the scripted person says so.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use elicit_axum::testing::Browser;
use elicit_axum::{LocalBrowser, Secret, SecretEntry, SecretHook, SecretPage};
use elicit_rmcp::testing::{ScriptedClient, UserReply};
use elicit_rmcp::url::UrlSettings;
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{Elicit, ElicitHandler, LOCAL_PRINCIPAL, UrlAnswer, elicit_url};
use rmcp::{ErrorData as McpError, ServerHandler, tool, tool_router};
use serde_json::{Value, json};

const ORIGIN: &str = "http://127.0.0.1:8765";

#[elicit_url(
    message = "Enter your OpenAI API key",
    url = "http://127.0.0.1:8765/connect"
)]
struct SetApiKey {}

#[derive(Default)]
struct Keys(Mutex<HashMap<String, Secret>>);

impl SecretHook for Keys {
    async fn accept(&self, entry: SecretEntry<'_>) -> Result<Option<Value>, String> {
        let key = entry.secret("api_key").ok_or("no key")?;
        if !key.expose().starts_with("sk-") {
            return Err("That is not an OpenAI key: it starts with sk-.".into());
        }
        self.0
            .lock()
            .unwrap()
            .insert(entry.user().to_owned(), key.clone());
        Ok(None)
    }
}

#[derive(Clone)]
struct Console {
    elicit: ElicitHandler,
}

#[tool_router]
impl Console {
    #[tool(description = "Set your OpenAI API key")]
    async fn set_api_key(&self, mut cx: Elicit) -> Result<String, McpError> {
        Ok(match (SetApiKey {}).ask(&mut cx).await? {
            UrlAnswer::Completed { .. } => "Your API key is set.".into(),
            _ => "No API key was set.".into(),
        })
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Console {}

/// The server, its vault, and a person's browser on its page: a stdio server's wiring, the
/// one local user named nowhere (`ElicitHandler::local` and `LocalBrowser` share it).
fn console() -> (Console, Arc<Keys>, Browser) {
    let url = UrlSettings::in_memory().with_origin(ORIGIN).unwrap();
    let elicit = ElicitHandler::local("console").with_url(url);
    let keys = Arc::new(Keys::default());
    let page = SecretPage::new(
        elicit.server(),
        LocalBrowser::new(elicit.server()),
        keys.clone(),
    )
    .ask("api_key", "OpenAI API key")
    .routes();
    (Console { elicit }, keys, Browser::new(ORIGIN, page))
}

#[tokio::test]
async fn a_key_typed_on_the_page_reaches_the_vault_and_no_message_on_both_eras() {
    for era in ProtocolEra::ALL {
        let (console, keys, browser) = console();
        let run = ScriptedClient::new(era)
            .reply_url::<SetApiKey>(UserReply::OpenUrl)
            .browser(browser.typing("OpenAI API key", "sk-live-1"))
            .call_tool(console, "set_api_key", json!({}))
            .await;
        assert_eq!(run.text(), "Your API key is set.", "{era:?}");
        assert_eq!(
            keys.0.lock().unwrap()[LOCAL_PRINCIPAL].expose(),
            "sk-live-1"
        );
        for message in run.transcript.messages() {
            assert!(
                !message.json.to_string().contains("sk-live-1"),
                "{era:?}: {message:?}"
            );
        }
    }
}

#[tokio::test]
#[should_panic(
    expected = "the browser could not finish set_api_key: the page asked again: That is not an OpenAI key: it starts with sk-."
)]
async fn a_refused_key_is_asked_again_and_the_scripted_person_says_why() {
    let (console, _, browser) = console();
    ScriptedClient::new(ProtocolEra::Legacy2025)
        .reply_url::<SetApiKey>(UserReply::OpenUrl)
        .browser(browser.typing("OpenAI API key", "my-key"))
        .call_tool(console, "set_api_key", json!({}))
        .await;
}
