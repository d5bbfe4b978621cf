//! For tests (feature `testing`, in `[dev-dependencies]`): URL-mode flows run as a person runs
//! them, through the real pages. A [`Browser`] sends requests through your app's own axum
//! [`Router`](::axum::Router) in process, keeping cookies and following redirects as a browser
//! does; a [`Page`] is what it shows, to read, [`fill`](Page::fill) and [`click`](Page::click).
//! With feature `oauth`, a [`StandInProvider`] is an OAuth provider the browser signs in at, so
//! a ready connection ([`OAuth::github`], [`google`][`OAuth::google`]) runs whole: link, page,
//! provider, callback, token.
//!
//! The browser is also what a test client opens links in (a [`UrlBrowser`](elicit_testing::UrlBrowser)):
//! `TestClient::browser` and `elicit_rmcp::testing::ScriptedClient::browser` take it, and a
//! question answered [`UserReply::OpenUrl`](elicit_testing::UserReply::OpenUrl) is gone through
//! on its page (Confirm pressed on each page, the [`typing`](Browser::typing) typed) before the
//! client accepts, on both protocol eras.
//!
//! The spec's `set_api_key` on the ready [`SecretPage`](crate::SecretPage), step by step: the
//! link the client got, a key refused with its reason, then saved.
//!
//! ```
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//! use axum::http::StatusCode;
//! use elicit_axum::testing::Browser;
//! use elicit_axum::{LocalBrowser, Secret, SecretEntry, SecretHook, SecretPage};
//! use elicit_runtime::state::{KeyRing, StateSealer};
//! use elicit_runtime::url::UrlSettings;
//! use elicit_runtime::{ElicitContext, ElicitServer, Interrupt, LOCAL_PRINCIPAL, Reply, UrlAnswer};
//! use elicit_runtime::elicit_url;
//! use elicit_testing::{TestClient, UserReply};
//! use serde_json::{Value, json};
//!
//! #[elicit_url(message = "Enter your OpenAI API key", url = "http://127.0.0.1:8765/connect")]
//! #[derive(Debug)]
//! struct SetApiKey {}
//!
//! #[derive(Default)]
//! struct Keys(Mutex<HashMap<String, Secret>>);
//!
//! impl SecretHook for Keys {
//!     async fn accept(&self, entry: SecretEntry<'_>) -> Result<Option<Value>, String> {
//!         let key = entry.secret("api_key").ok_or("no key")?;
//!         if !key.expose().starts_with("sk-") {
//!             return Err("That is not an OpenAI key: it starts with sk-.".into());
//!         }
//!         self.0.lock().unwrap().insert(entry.user().to_owned(), key.clone());
//!         Ok(None)
//!     }
//! }
//!
//! async fn set_api_key(cx: &mut ElicitContext) -> Result<String, Interrupt> {
//!     Ok(match (SetApiKey {}).ask(cx).await? {
//!         UrlAnswer::Completed { .. } => "Your API key is set.".into(),
//!         other => format!("No API key was set: {other:?}"),
//!     })
//! }
//!
//! # pollster::block_on(async {
//! let url = UrlSettings::in_memory().with_origin("http://127.0.0.1:8765")?;
//! let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app")).with_url(url);
//! let keys = Arc::new(Keys::default());
//! let app = SecretPage::new(&server, LocalBrowser::new(&server), keys.clone())
//!     .ask("api_key", "OpenAI API key")
//!     .routes();
//!
//! // The person's browser, on the app's own router (no socket).
//! let browser = Browser::new("http://127.0.0.1:8765", app);
//!
//! // Step by step: the tool asks, and the client shows the link.
//! // The stdio server's one user, whom `LocalBrowser` finishes links for.
//! let client = TestClient::new(server.clone()).principal(LOCAL_PRINCIPAL);
//! let call = client.tool_params("set_api_key", json!({}));
//! let mut tool = set_api_key;
//! let Ok(Reply::InputRequired(ask)) = client.round("tools/call", &call, &mut tool).await
//! else { panic!("the tool asks") };
//! let request = serde_json::to_value(&ask.input_requests().unwrap()["set_api_key"])?;
//! let link = request["params"]["url"].as_str().unwrap();
//!
//! // The person opens it, types a wrong key, then the right one.
//! let page = browser.open(link).await;
//! assert_eq!(page.status(), StatusCode::OK);
//! assert!(page.text().contains("Enter your OpenAI API key"));
//! assert_eq!(page.inputs(), ["OpenAI API key"]);
//! assert_eq!(page.buttons(), ["Save", "Cancel"]);
//! let page = page.fill("OpenAI API key", "my-key").click("Save").await;
//! assert_eq!(page.alerts(), ["That is not an OpenAI key: it starts with sk-."]);
//! let page = page.fill("OpenAI API key", "sk-live-1").click("Save").await;
//! assert_eq!(page.heading(), "Saved");
//! assert_eq!(keys.0.lock().unwrap()[LOCAL_PRINCIPAL].expose(), "sk-live-1");
//!
//! // As a scripted person: the client opens the link, the browser types the key and saves.
//! let person = browser.clone().typing("OpenAI API key", "sk-live-2");
//! let client = client.browser(person);
//! let run = client.call_tool("set_api_key", json!({}), |_, _| UserReply::OpenUrl, set_api_key);
//! assert_eq!(run.await.unwrap().result, "Your API key is set.");
//! assert_eq!(keys.0.lock().unwrap()[LOCAL_PRINCIPAL].expose(), "sk-live-2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```
//!
//! The guide's testing chapter has an OAuth connection through a [`StandInProvider`], on both
//! protocol eras with rmcp's client.
//!
#![cfg_attr(
    feature = "oauth",
    doc = "[`StandInProvider`]: StandInProvider\n[`OAuth::github`]: crate::oauth::OAuth::github\n[`OAuth::google`]: crate::oauth::OAuth::google"
)]
#![cfg_attr(
    not(feature = "oauth"),
    doc = "[`StandInProvider`]: https://docs.rs/elicit-axum/latest/elicit_axum/testing/struct.StandInProvider.html\n[`OAuth::github`]: https://docs.rs/elicit-axum/latest/elicit_axum/oauth/struct.OAuth.html#method.github\n[`OAuth::google`]: https://docs.rs/elicit-axum/latest/elicit_axum/oauth/struct.OAuth.html#method.google"
)]

mod address;
mod browser;
mod jar;
mod person;
#[cfg(feature = "oauth")]
mod provider;
mod read;

pub use browser::{Browser, Page};
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use provider::{Issued, StandInProvider};
