//! A ready page to type secrets on (the spec's `set_api_key`): the landing route's confirmation
//! page with masked inputs, whose values go to the server's [`SecretHook`] and nowhere else.

use std::future::Future;
use std::sync::Arc;

use ::axum::Router;
use ::axum::response::Response;
use http::request::Parts;
use serde_json::Value;

use super::LandingRoute;
use super::any_browser::AnyBrowser;
use super::hook::{ConnectHook, ConnectStep, OpenedLink};
use super::secret::{Secret, SecretField};
use super::texts::PageTexts;
use crate::BrowserUser;
use elicit_runtime::ElicitServer;
use elicit_runtime::url::LandingPage;

/// What the server does with the secrets a person typed: keep them (server-side), and say what
/// the tool handler reads, or why they are refused.
pub trait SecretHook: Send + Sync + 'static {
    /// The person confirmed the page with every asked secret typed ([`SecretEntry`]). `Ok`
    /// records the flow's completion with that result (`UrlAnswer::Completed`'s `result`:
    /// never the secret); `Err` records nothing and shows the page again with the reason (plain
    /// text, escaped) and fresh inputs, so the person can correct what they typed.
    fn accept(
        &self,
        entry: SecretEntry<'_>,
    ) -> impl Future<Output = Result<Option<Value>, String>> + Send;
}

/// A shared hook (e.g. one whose vault the tools read too).
impl<H: SecretHook> SecretHook for Arc<H> {
    fn accept(
        &self,
        entry: SecretEntry<'_>,
    ) -> impl Future<Output = Result<Option<Value>, String>> + Send {
        H::accept(self, entry)
    }
}

/// What a person typed on a [`SecretPage`], for the link they opened, as the user the
/// page's [`BrowserUser`] says they are.
#[derive(Debug)]
pub struct SecretEntry<'a> {
    user: &'a str,
    link: &'a OpenedLink,
}

impl SecretEntry<'_> {
    /// The browser's user (the principal of the MCP request that asked).
    pub fn user(&self) -> &str {
        self.user
    }

    /// The link: its kind ([`OpenedLink::key`]) and the state the tool bound to it.
    pub fn link(&self) -> &OpenedLink {
        self.link
    }

    /// What was typed in the input `name` ([`SecretPage::ask`]); never empty. `None` for a name
    /// the page did not ask.
    pub fn secret(&self, name: &str) -> Option<&Secret> {
        self.link.secret(name)
    }
}

/// The ready page on which a person types secrets the model must never see: an API key for a
/// third-party service, the spec's `set_api_key`. The tool asks a URL-mode elicitation as
/// always; the link opens this page on the server, behind every check of the landing route
/// (the route's own `Host` only, the same-origin `POST`, a CSRF token bound to the link and the
/// user, `no-store`, a CSP that forbids framing), with one masked input
/// (`type="password"`, `autocomplete="off"`) per [`ask`](SecretPage::ask). The values are
/// posted in the form's body to the same URL and given to the [`SecretHook`] only: not in a
/// URL, a log line, a `Debug` output ([`Secret`] is redacted and zeroed on drop), the flow's
/// result or any MCP message. The flow completes once the hook accepts them; a refusal shows
/// its reason on the page with a fresh token (each page's token is good for one `POST`; the
/// spent ones are kept in this process, so behind several replicas a form replayed to another
/// one reaches its hook again, until the flow is recorded, which happens once).
/// Who the browser's user is comes from a [`BrowserUser`]: [`LocalBrowser`](crate::LocalBrowser)
/// on stdio, `elicit_axum_auth::SignIn` or your login over HTTP, so another browser or
/// user cannot submit.
///
/// The spec's `set_api_key`: the tool, the page and the server's vault, run through with a
/// test client standing in for the MCP client and requests for the person's browser:
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use elicit_axum::{LocalBrowser, Secret, SecretEntry, SecretHook, SecretPage};
/// use elicit_runtime::{ElicitContext, ElicitServer, Interrupt, UrlAnswer, elicit_url};
/// use elicit_runtime::state::{KeyRing, StateSealer};
/// use elicit_runtime::url::UrlSettings;
/// use serde_json::Value;
///
/// #[elicit_url(message = "Enter your OpenAI API key", url = "http://127.0.0.1:8765/connect")]
/// struct SetApiKey {}
///
/// /// The server's vault: each user's key, never sent anywhere but to the API.
/// #[derive(Default)]
/// struct Keys(Mutex<HashMap<String, Secret>>);
///
/// impl SecretHook for Keys {
///     async fn accept(&self, entry: SecretEntry<'_>) -> Result<Option<Value>, String> {
///         let key = entry.secret("api_key").ok_or("no key")?;
///         if !key.expose().starts_with("sk-") {
///             return Err("That is not an OpenAI key: it starts with sk-.".into());
///         }
///         self.0.lock().unwrap().insert(entry.user().to_owned(), key.clone());
///         Ok(None)
///     }
/// }
///
/// /// The tool: ask for the page, then use the key from the vault (never from the answer).
/// async fn set_api_key(cx: &mut ElicitContext, keys: &Keys) -> Result<String, Interrupt> {
///     Ok(match (SetApiKey {}).ask(cx).await? {
///         UrlAnswer::Completed { .. } => "Your API key is set.".into(),
///         _ => "No API key was set.".into(),
///     })
/// }
///
/// let url = UrlSettings::in_memory().with_origin("http://127.0.0.1:8765")?;
/// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app")).with_url(url);
/// let keys = std::sync::Arc::new(Keys::default());
/// // A stdio server: its one local user ("local"), and the first browser to open a link.
/// let browser = LocalBrowser::new(&server);
/// let app: axum::Router = SecretPage::new(&server, browser, keys.clone())
///     .ask("api_key", "OpenAI API key")
///     .routes(); // serve it on 127.0.0.1:8765
/// # use axum::{body::Body, http::{Request, StatusCode, header}};
/// # use elicit_runtime::Reply;
/// # use pollster::block_on;
/// # use serde_json::json;
/// # use tower::ServiceExt;
/// # let client = elicit_testing::TestClient::new(server.clone()).principal("local");
/// # let call = client.tool_params("set_api_key", json!({}));
/// # let mut tool = async |cx: &mut ElicitContext| set_api_key(cx, &keys).await;
/// # let Ok(Reply::InputRequired(ask)) = block_on(client.round("tools/call", &call, &mut tool))
/// # else { panic!("the tool asks") };
/// # let request = serde_json::to_value(&ask.input_requests().unwrap()["set_api_key"])?;
/// # let link = request["params"]["url"].as_str().unwrap().replace("http://127.0.0.1:8765", "");
/// # let send = |request: Request<Body>| block_on(app.clone().oneshot(request)).unwrap();
/// # let host = |r: axum::http::request::Builder| r.header("host", "127.0.0.1:8765");
/// # // The browser opens the link: LocalBrowser claims it with a cookie, then the page.
/// # let claim = send(host(Request::get(&link)).body(Body::empty())?);
/// # let cookie = claim.headers()[header::SET_COOKIE].to_str()?.split(';').next().unwrap().to_owned();
/// # let page = send(host(Request::get(&link)).header("cookie", &cookie).body(Body::empty())?);
/// # let html = String::from_utf8(block_on(axum::body::to_bytes(page.into_body(), 1 << 16))?.to_vec())?;
/// # assert!(html.contains("<input type=\"password\""));
/// # let token = html.split("name=\"token\" value=\"").nth(1).unwrap();
/// # let token = &token[..token.find('"').unwrap()];
/// # // The person types the key and presses Save.
/// # let save = host(Request::post(&link)).header("cookie", &cookie)
/// #     .header("sec-fetch-site", "same-origin")
/// #     .header("content-type", "application/x-www-form-urlencoded")
/// #     .body(Body::from(format!("token={token}&secret0=sk-live-123&decision=confirm")))?;
/// # assert_eq!(send(save).status(), StatusCode::OK);
/// # assert_eq!(keys.0.lock().unwrap()["local"].expose(), "sk-live-123");
/// # let mut retry = call.clone();
/// # retry["requestState"] = ask.request_state().unwrap().into();
/// # retry["inputResponses"] = json!({"set_api_key": {"action": "accept"}});
/// # let Ok(Reply::Result(said)) = block_on(client.round("tools/call", &retry, &mut tool))
/// # else { panic!("the tool finishes") };
/// # assert_eq!(said, "Your API key is set.");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A payment or any step that needs more than typed secrets (a redirect to a third party) is
/// a [`ConnectHook`] of its own, or the ready `oauth` connection.
pub struct SecretPage<H> {
    fields: Vec<SecretField>,
    browser: AnyBrowser,
    hook: H,
    page: LandingPage,
}

impl<H> std::fmt::Debug for SecretPage<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretPage")
            .field("fields", &self.fields)
            .finish_non_exhaustive()
    }
}

impl<H: SecretHook> SecretPage<H> {
    /// The page for the links `server` seals, for the user `browser` says the browser is, the
    /// typed secrets given to `hook`. Ask for at least one with [`ask`](SecretPage::ask).
    ///
    /// ```
    /// # use elicit_axum::{LocalBrowser, SecretEntry, SecretHook, SecretPage};
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # struct Keys;
    /// # impl SecretHook for Keys {
    /// #     async fn accept(&self, _: SecretEntry<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
    /// # }
    /// let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let page = SecretPage::new(&server, LocalBrowser::new(&server), Keys);
    /// # let _ = page;
    /// ```
    pub fn new(server: &ElicitServer, browser: impl BrowserUser, hook: H) -> Self {
        SecretPage {
            fields: Vec::new(),
            browser: AnyBrowser::new(browser),
            hook,
            page: LandingPage::new(server),
        }
    }

    /// One more masked input: `name` is what [`SecretEntry::secret`] reads it by, `label` what
    /// the person sees (plain text, escaped).
    ///
    /// ```
    /// # use elicit_axum::{LocalBrowser, SecretEntry, SecretHook, SecretPage};
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # struct Keys;
    /// # impl SecretHook for Keys {
    /// #     async fn accept(&self, _: SecretEntry<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let page = SecretPage::new(&server, LocalBrowser::new(&server), Keys)
    ///     .ask("key_id", "Access key ID")
    ///     .ask("secret", "Secret access key");
    /// # let _ = page;
    /// ```
    pub fn ask(mut self, name: impl Into<String>, label: impl Into<String>) -> Self {
        self.fields.push(SecretField::new(name, label));
        self
    }

    /// The landing route serving the page, at `/connect`, to move or restyle it
    /// ([`LandingRoute::at`], [`LandingRoute::with_texts`]). Its texts say that what is typed
    /// goes to the server only, and its buttons are Save and Cancel.
    ///
    /// ```
    /// # use elicit_axum::{LocalBrowser, SecretEntry, SecretHook, SecretPage};
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # struct Keys;
    /// # impl SecretHook for Keys {
    /// #     async fn accept(&self, _: SecretEntry<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let page = SecretPage::new(&server, LocalBrowser::new(&server), Keys)
    ///     .ask("api_key", "API key");
    /// let app: axum::Router = page.landing_route().at("/keys").into_router();
    /// # let _ = app;
    /// ```
    pub fn landing_route(self) -> LandingRoute<Self> {
        let page = self.page.clone();
        LandingRoute::new(page, self).with_texts(
            PageTexts::default()
                .with_confirm(
                    "Enter it on this page",
                    "What you type here goes to this server only, never to your assistant. \
                     Continue only if you just asked your assistant for this.",
                )
                .with_buttons("Save", "Cancel")
                .with_completed("Saved", "The server has what you entered."),
        )
    }

    /// The landing route at `/connect` on a router, for any app state `S`.
    ///
    /// ```
    /// # use elicit_axum::{LocalBrowser, SecretEntry, SecretHook, SecretPage};
    /// # use elicit_runtime::ElicitServer;
    /// # use elicit_runtime::state::{KeyRing, StateSealer};
    /// # struct Keys;
    /// # impl SecretHook for Keys {
    /// #     async fn accept(&self, _: SecretEntry<'_>) -> Result<Option<serde_json::Value>, String> { Ok(None) }
    /// # }
    /// # let server = ElicitServer::new(StateSealer::new(KeyRing::generate(), "app"));
    /// let app: axum::Router = SecretPage::new(&server, LocalBrowser::new(&server), Keys)
    ///     .ask("api_key", "API key")
    ///     .routes();
    /// # let _ = app;
    /// ```
    pub fn routes<S: Clone + Send + Sync + 'static>(self) -> Router<S> {
        self.landing_route().into_router()
    }
}

impl<H: SecretHook> ConnectHook for SecretPage<H> {
    async fn subject(&self, parts: &Parts) -> Result<String, Response> {
        self.browser.subject(parts).await
    }

    fn secrets(&self) -> &[SecretField] {
        &self.fields
    }

    /// Saved: the hook decides. The route has already checked that every input was filled.
    async fn connect(&self, link: &OpenedLink, parts: &Parts) -> ConnectStep {
        let user = match self.browser.subject(parts).await {
            Ok(user) => user,
            Err(response) => return ConnectStep::respond(response),
        };
        match self.hook.accept(SecretEntry { user: &user, link }).await {
            Ok(result) => ConnectStep::complete(result),
            Err(reason) => ConnectStep::retry(reason),
        }
    }
}
