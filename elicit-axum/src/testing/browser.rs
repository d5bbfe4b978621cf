//! The test browser: sends each request through the site's own router in process (tower's
//! `oneshot`; no socket), with the headers a browser sends (`Host`, `Cookie`, `Origin` on a
//! form, `Sec-Fetch-Site`), keeps the cookies it is given and follows redirects; and the
//! [`Page`] it shows: what a person reads on it, and its forms to fill and send.

use std::sync::{Arc, Mutex};

use ::axum::Router;
use ::axum::body::Body;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, header};
use tower::ServiceExt;

use super::address::Address;
use super::jar::{Context, Jar};
use super::read::{self, Doc, Field, Form};

/// The most redirects one navigation follows (as browsers stop at 20).
const MAX_REDIRECTS: usize = 20;
/// The most of a page's body read.
const MAX_BODY: usize = 1 << 20;

/// A person's browser for tests, on your app's own axum [`Router`]: [`open`](Browser::open)
/// a link the MCP client got, read the [`Page`], [`fill`](Page::fill) its inputs and
/// [`click`](Page::click) its buttons, as a person does, through the real landing route, the
/// [`SecretPage`](crate::SecretPage), an OAuth connection's redirects and callback.
///
/// Each request goes through the router of the site its URL names (the app's origin given to
/// [`new`](Browser::new), others with [`site`](Browser::site), e.g. a
/// stand-in OAuth provider with feature `oauth`), in process: no socket, no TLS. It sends what a
/// browser sends: `Host` from the URL, the cookies it keeps (`Set-Cookie`, with `Secure`,
/// `HttpOnly`, the `__Host-` prefix and `SameSite` as a browser reads them), `Sec-Fetch-Site`
/// (`none` for a link opened, `same-origin` for a page's own form, `cross-site` back from
/// another site), and on a form `Origin` (`null` under `Referrer-Policy: no-referrer`, as
/// browsers send it). It follows redirects, and sends the form's fields and the pressed
/// button's value. Clones share the cookies: they are one browser; another person is another
/// `Browser`.
///
/// It is also a [`UrlBrowser`](elicit_testing::UrlBrowser): give it to a test client
/// (`TestClient::browser`, `elicit_rmcp::testing::ScriptedClient::browser`) and a question
/// answered [`UserReply::OpenUrl`](elicit_testing::UserReply::OpenUrl) opens the link in it
/// and presses each page's Confirm (typing what [`typing`](Browser::typing) gave it) until the
/// flow's last page.
///
/// See [the module](super) for a whole flow.
#[derive(Clone)]
pub struct Browser {
    sites: Vec<(String, Router)>,
    headers: HeaderMap,
    pub(super) typing: Vec<(String, String)>,
    jar: Arc<Mutex<Jar>>,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser")
            .field(
                "sites",
                &self.sites.iter().map(|(o, _)| o).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// How a request came to be sent, for `Sec-Fetch-Site` and `SameSite`.
struct Navigation {
    /// The page whose form or link sent it (`None`: the person opened a URL).
    initiator: Option<Address>,
    /// Every URL the navigation went through, the current one last.
    chain: Vec<Address>,
}

impl Navigation {
    /// `Sec-Fetch-Site` of the current request.
    fn fetch_site(&self) -> &'static str {
        let Some(current) = self.chain.last() else {
            return "none";
        };
        let from: Vec<&Address> = self.initiator.iter().chain(&self.chain).collect();
        if self.initiator.is_none() && self.chain.iter().all(|a| a.origin() == current.origin()) {
            "none"
        } else if from.iter().all(|a| a.origin() == current.origin()) {
            "same-origin"
        } else if from.iter().all(|a| a.site() == current.site()) {
            "same-site"
        } else {
            "cross-site"
        }
    }
}

impl Browser {
    /// A browser with no cookies, for which `app` serves `origin` (`scheme://host[:port]`, the
    /// links' origin: `UrlSettings::with_origin`).
    ///
    /// # Panics
    ///
    /// If `origin` is not an `http` or `https` origin.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// let app = Router::new().route("/", get(|| async { Html("<h1>Hello</h1><p>from the app</p>") }));
    /// let browser = Browser::new("https://app.example.com", app);
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.heading(), "Hello");
    /// assert_eq!(page.text(), "Hello\nfrom the app");
    /// ```
    pub fn new(origin: &str, app: Router) -> Self {
        Browser {
            sites: Vec::new(),
            headers: HeaderMap::new(),
            typing: Vec::new(),
            jar: Arc::default(),
        }
        .site(origin, app)
    }

    /// `router` serves `origin` too (another site the flow goes through: an OAuth provider's
    /// stand-in, your sign-in).
    ///
    /// # Panics
    ///
    /// If `origin` is not an `http` or `https` origin.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # use axum::response::Redirect;
    /// // The app sends the browser to another site, which the browser reaches through its router.
    /// let app = Router::new().route("/go", get(|| async { Redirect::to("https://idp.example/login") }));
    /// let idp = Router::new().route("/login", get(|| async { Html("<h1>Sign in</h1>") }));
    /// let browser = Browser::new("https://app.example.com", app).site("https://idp.example", idp);
    /// let page = pollster::block_on(browser.open("https://app.example.com/go"));
    /// assert_eq!(page.url(), "https://idp.example/login");
    /// assert_eq!(page.heading(), "Sign in");
    /// ```
    pub fn site(mut self, origin: &str, router: Router) -> Self {
        let origin = Address::parse(origin)
            .unwrap_or_else(|| panic!("not an http(s) origin: {origin:?}"))
            .origin();
        self.sites.retain(|(o, _)| *o != origin);
        self.sites.push((origin, router));
        self
    }

    /// A header sent with every request (what your app's sign-in middleware reads, e.g.
    /// `x-user: alice` behind a trusted proxy).
    ///
    /// # Panics
    ///
    /// If `name` or `value` is not a valid header name or value.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # use axum::http::HeaderMap;
    /// let who = |headers: HeaderMap| async move {
    ///     Html(format!("<h1>{}</h1>", headers["x-user"].to_str().unwrap()))
    /// };
    /// let browser = Browser::new("https://app.example.com", Router::new().route("/", get(who)))
    ///     .header("x-user", "alice");
    /// assert_eq!(pollster::block_on(browser.open("https://app.example.com/")).heading(), "alice");
    /// ```
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let name = HeaderName::try_from(name).unwrap_or_else(|e| panic!("header {name:?}: {e}"));
        let value =
            HeaderValue::try_from(value).unwrap_or_else(|e| panic!("header value {value:?}: {e}"));
        self.headers.append(name, value);
        self
    }

    /// A cookie the browser holds already, as if `url`'s site had set it with this
    /// `Set-Cookie` value (`"session=s-alice; Path=/"`): a person signed in to your app.
    ///
    /// # Panics
    ///
    /// If `url` is not an `http` or `https` URL.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # use axum::http::HeaderMap;
    /// let who = |headers: HeaderMap| async move {
    ///     Html(format!("<h1>{}</h1>", headers["cookie"].to_str().unwrap()))
    /// };
    /// let browser = Browser::new("https://app.example.com", Router::new().route("/", get(who)))
    ///     .cookie("https://app.example.com/", "session=s-alice; Path=/; Secure; HttpOnly");
    /// assert_eq!(pollster::block_on(browser.open("https://app.example.com/")).heading(), "session=s-alice");
    /// ```
    pub fn cookie(self, url: &str, set_cookie: &str) -> Self {
        let to = Address::parse(url).unwrap_or_else(|| panic!("not an http(s) URL: {url:?}"));
        self.jar
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .preset(&to, set_cookie);
        self
    }

    /// What the person types into the input labelled (or named) `label` when a page asks for
    /// it and they were scripted ([`UserReply::OpenUrl`](elicit_testing::UserReply::OpenUrl)):
    /// a [`SecretPage`](crate::SecretPage)'s API key.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let app = Router::new();
    /// // A person who types this key when a page asks for the input labelled "OpenAI API key".
    /// let person = Browser::new("http://127.0.0.1:8765", app).typing("OpenAI API key", "sk-test-1");
    /// # let _ = person;
    /// ```
    pub fn typing(mut self, label: impl Into<String>, value: impl Into<String>) -> Self {
        self.typing.push((label.into(), value.into()));
        self
    }

    /// The value of the cookie `name` this browser would send to `url` (its own page), if it
    /// holds one.
    ///
    /// # Panics
    ///
    /// If `url` is not an `http` or `https` URL.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # use axum::http::header;
    /// let login = || async { ([(header::SET_COOKIE, "session=s-1; Path=/; HttpOnly")], Html("<h1>Hi</h1>")) };
    /// let browser = Browser::new("http://127.0.0.1:8765", Router::new().route("/login", get(login)));
    /// pollster::block_on(browser.open("http://127.0.0.1:8765/login"));
    /// assert_eq!(browser.cookie_value("http://127.0.0.1:8765/", "session").as_deref(), Some("s-1"));
    /// ```
    pub fn cookie_value(&self, url: &str, name: &str) -> Option<String> {
        let to = Address::parse(url).unwrap_or_else(|| panic!("not an http(s) URL: {url:?}"));
        self.jar
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .value(&to, name)
    }

    /// The person opens `url` (a link the MCP client showed them): `GET`, redirects followed,
    /// the page it ends on.
    ///
    /// # Panics
    ///
    /// If `url` is not an `http` or `https` URL or names a site the browser has no router for.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # use axum::http::StatusCode;
    /// let browser = Browser::new("https://app.example.com", Router::new());
    /// let page = pollster::block_on(browser.open("https://app.example.com/nowhere"));
    /// assert_eq!(page.status(), StatusCode::NOT_FOUND);
    /// ```
    pub async fn open(&self, url: &str) -> Page {
        let to = Address::parse(url).unwrap_or_else(|| panic!("not an http(s) URL: {url:?}"));
        self.navigate(Method::GET, to, None, None).await
    }

    /// Sends `method` to `to` (with a form `body`), `from` the page that sent it, following
    /// redirects.
    pub(super) async fn navigate(
        &self,
        mut method: Method,
        mut to: Address,
        mut body: Option<String>,
        from: Option<(Address, bool)>,
    ) -> Page {
        let no_referrer = from.as_ref().is_some_and(|(_, no_referrer)| *no_referrer);
        let mut navigation = Navigation {
            initiator: from.map(|(page, _)| page),
            chain: Vec::new(),
        };
        for _ in 0..=MAX_REDIRECTS {
            navigation.chain.push(to.clone());
            let fetch_site = navigation.fetch_site();
            let mut request = Request::builder()
                .method(method.clone())
                .uri(to.target.as_str())
                .header(header::HOST, to.authority())
                .header("sec-fetch-site", fetch_site)
                .header("sec-fetch-mode", "navigate")
                .header("sec-fetch-dest", "document");
            for (name, value) in &self.headers {
                request = request.header(name, value);
            }
            let context = Context {
                same_site: fetch_site != "cross-site",
                top_level_get: method == Method::GET,
            };
            let jar = self
                .jar
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .header(&to, context);
            if let Some(cookies) = jar {
                request = request.header(header::COOKIE, cookies);
            }
            if method == Method::POST {
                let origin = match &navigation.initiator {
                    Some(_) if no_referrer => "null".to_owned(),
                    Some(page) => page.origin(),
                    None => "null".to_owned(),
                };
                request = request
                    .header(header::ORIGIN, origin)
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
            }
            let request = request
                .body(Body::from(body.clone().unwrap_or_default()))
                .unwrap_or_else(|e| {
                    panic!(
                        "the browser could not build a request to {}: {e}",
                        to.origin()
                    )
                });
            let router = self.router_for(&to);
            let response = match router.oneshot(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            let (parts, body_of) = response.into_parts();
            {
                let mut jar = self.jar.lock().unwrap_or_else(|p| p.into_inner());
                for set in parts.headers.get_all(header::SET_COOKIE) {
                    if let Ok(set) = set.to_str() {
                        jar.set(&to, set);
                    }
                }
            }
            let location = parts
                .headers
                .get(header::LOCATION)
                .and_then(|l| l.to_str().ok())
                .filter(|_| parts.status.is_redirection());
            if let Some(location) = location {
                to = to.join(location).unwrap_or_else(|| {
                    panic!(
                        "{} redirected to {location:?}, not an http(s) URL",
                        to.origin()
                    )
                });
                if !matches!(
                    parts.status,
                    StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
                ) {
                    method = Method::GET;
                    body = None;
                }
                continue;
            }
            let bytes = ::axum::body::to_bytes(body_of, MAX_BODY)
                .await
                .unwrap_or_else(|e| panic!("the page at {} could not be read: {e}", to.origin()));
            let html = String::from_utf8_lossy(&bytes).into_owned();
            return Page::new(self.clone(), to, parts.status, parts.headers, html);
        }
        panic!("more than {MAX_REDIRECTS} redirects from {}", to.origin())
    }

    /// The router serving `to`'s origin.
    fn router_for(&self, to: &Address) -> Router {
        let origin = to.origin();
        match self.sites.iter().find(|(o, _)| *o == origin) {
            Some((_, router)) => router.clone(),
            None => panic!(
                "the test browser has no site at {origin} (it serves {:?}): add it with `Browser::site`",
                self.sites.iter().map(|(o, _)| o).collect::<Vec<_>>()
            ),
        }
    }
}

/// A page the [`Browser`] ended on: its status, its URL, its text as a person reads it, and its
/// forms, which [`fill`](Page::fill) and [`click`](Page::click) use as a person would.
#[derive(Debug, Clone)]
pub struct Page {
    browser: Browser,
    address: Address,
    status: StatusCode,
    headers: HeaderMap,
    html: String,
    doc: Doc,
}

impl Page {
    pub(super) fn new(
        browser: Browser,
        address: Address,
        status: StatusCode,
        headers: HeaderMap,
        html: String,
    ) -> Self {
        let doc = read::read(&html);
        Page {
            browser,
            address,
            status,
            headers,
            html,
            doc,
        }
    }

    /// The page's status (after every redirect).
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.status(), axum::http::StatusCode::OK);
    /// ```
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The page's URL (after every redirect).
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.url(), "https://app.example.com/");
    /// ```
    pub fn url(&self) -> String {
        format!("{}{}", self.address.origin(), self.address.target)
    }

    /// The page's response headers.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    /// ```
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The page's HTML, as sent.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert!(page.html().starts_with("<h1>Sign up</h1>"));
    /// ```
    pub fn html(&self) -> &str {
        &self.html
    }

    /// What a person reads on the page: its body's text, markup gone, entities decoded, one
    /// line per block (heading, paragraph, label, button), whitespace collapsed.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.text(), "Sign up\nPick a name.\nName\nSend");
    /// ```
    pub fn text(&self) -> &str {
        &self.doc.text
    }

    /// The page's first `<h1>`, as text (`""` if it has none).
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.heading(), "Sign up");
    /// ```
    pub fn heading(&self) -> &str {
        self.doc.heading.as_deref().unwrap_or_default()
    }

    /// What the page says in its alerts (`role="alert"`): why what was typed was refused.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.alerts(), ["Pick a name."]);
    /// ```
    pub fn alerts(&self) -> &[String] {
        &self.doc.alerts
    }

    /// The text of every button of the page's forms, in order.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.buttons(), ["Send"]);
    /// ```
    pub fn buttons(&self) -> Vec<&str> {
        self.doc
            .forms
            .iter()
            .flat_map(|f| &f.buttons)
            .filter(|b| b.submits)
            .map(|b| b.text.as_str())
            .collect()
    }

    /// The label (or, without one, the name) of every input a person types in (not hidden),
    /// in order.
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// assert_eq!(page.inputs(), ["Name"]);
    /// ```
    pub fn inputs(&self) -> Vec<&str> {
        self.fields()
            .filter(|f| typed(f))
            .filter_map(|f| f.label.as_deref().or(f.name.as_deref()))
            .collect()
    }

    /// The person types `value` into the input labelled `label` (its `<label>`'s text, or its
    /// name), replacing what it held; a `maxlength` stops the typing there, as in a browser.
    ///
    /// # Panics
    ///
    /// If the page has no such input (the message lists those it has).
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// // The input takes 8 characters, as a browser lets a person type them.
    /// let sent = pollster::block_on(page.fill("Name", "alice-in-wonderland").click("Send"));
    /// assert_eq!(sent.heading(), "Got name=alice-in");
    /// ```
    pub fn fill(mut self, label: &str, value: &str) -> Self {
        let inputs: Vec<String> = self.inputs().into_iter().map(str::to_owned).collect();
        let field = self
            .doc
            .forms
            .iter_mut()
            .flat_map(|f| f.fields.iter_mut())
            .find(|f| {
                typed(f) && (f.label.as_deref() == Some(label) || f.name.as_deref() == Some(label))
            });
        let Some(field) = field else {
            panic!(
                "the page {} has no input {label:?}; its inputs: {inputs:?}",
                self.url()
            );
        };
        field.value = match field.max_length {
            Some(max) => value.chars().take(max).collect(),
            None => value.to_owned(),
        };
        self
    }

    /// The person presses the button reading `text`: its form is sent (its fields as filled,
    /// the button's name and value) to the form's `action` (the page's own URL without one),
    /// and the browser shows where that leads, redirects followed.
    ///
    /// # Panics
    ///
    /// If the page has no such button (the message lists those it has), or a browser would
    /// not send the form: a `required` input is empty (unless the button is `formnovalidate`).
    ///
    /// ```
    /// # use axum::Router;
    /// # use axum::response::Html;
    /// # use axum::routing::get;
    /// # use elicit_axum::testing::Browser;
    /// # let form = concat!(
    /// #     "<h1>Sign up</h1><p role=\"alert\">Pick a name.</p><form method=\"post\">",
    /// #     "<label for=\"n\">Name</label><input id=\"n\" name=\"name\" required maxlength=\"8\">",
    /// #     "<button class=\"confirm\">Send</button></form>"
    /// # );
    /// # let echo = |body: String| async move { Html(format!("<h1>Got {body}</h1>")) };
    /// # let app = Router::new().route("/", get(move || async move { Html(form) }).post(echo));
    /// # let browser = Browser::new("https://app.example.com", app);
    /// // A page whose form asks for a name, and posts it back.
    /// let page = pollster::block_on(browser.open("https://app.example.com/"));
    /// let sent = pollster::block_on(page.fill("Name", "alice").click("Send"));
    /// assert_eq!(sent.heading(), "Got name=alice");
    /// ```
    pub async fn click(self, text: &str) -> Page {
        let Some((form, at)) = self.doc.forms.iter().find_map(|f| {
            let at = f.buttons.iter().position(|b| b.submits && b.text == text)?;
            Some((f, at))
        }) else {
            panic!(
                "the page {} has no button {text:?}; its buttons: {:?}\n{}",
                self.url(),
                self.buttons(),
                self.text()
            );
        };
        self.submit(form, at).await
    }

    /// The button marked as the page's Confirm (`class="confirm"`: the landing page's Confirm
    /// or Save, the stand-in provider's Authorize), if it has one.
    pub(super) fn confirm_button(&self) -> Option<&str> {
        self.doc
            .forms
            .iter()
            .flat_map(|f| &f.buttons)
            .find(|b| b.submits && b.class.split_whitespace().any(|c| c == "confirm"))
            .map(|b| b.text.as_str())
    }

    /// The inputs a person must fill before pressing the Confirm button: each one's label
    /// (or name) and name.
    pub(super) fn empty_required(&self) -> Vec<(String, Option<String>)> {
        self.fields()
            .filter(|f| typed(f) && f.required && f.value.is_empty())
            .filter_map(|f| Some((f.label.clone().or_else(|| f.name.clone())?, f.name.clone())))
            .collect()
    }

    fn fields(&self) -> impl Iterator<Item = &Field> {
        self.doc.forms.iter().flat_map(|f| &f.fields)
    }

    async fn submit(&self, form: &Form, at: usize) -> Page {
        let button = &form.buttons[at];
        if !(form.novalidate || button.novalidate) {
            let missing: Vec<&str> = form
                .fields
                .iter()
                .filter(|f| typed(f) && f.required && f.value.is_empty())
                .filter_map(|f| f.label.as_deref().or(f.name.as_deref()))
                .collect();
            assert!(
                missing.is_empty(),
                "a browser would not send the form of {}: {missing:?} must be filled first (`Page::fill`)",
                self.url()
            );
        }
        let body = {
            let mut body = form_urlencoded::Serializer::new(String::new());
            for field in &form.fields {
                let Some(name) = &field.name else { continue };
                let sent = match field.kind.as_str() {
                    "checkbox" | "radio" => field.checked,
                    "submit" | "button" | "reset" | "image" | "file" => false,
                    _ => true,
                };
                if sent {
                    body.append_pair(name, &field.value);
                }
            }
            if let Some(name) = &button.name {
                body.append_pair(name, &button.value);
            }
            body.finish()
        };
        let action = match &form.action {
            Some(action) => self.address.join(action).unwrap_or_else(|| {
                panic!(
                    "the form's action {action:?} on {} is not an http(s) URL",
                    self.url()
                )
            }),
            None => self.address.clone(),
        };
        let no_referrer = self
            .headers
            .get_all(header::REFERRER_POLICY)
            .iter()
            .any(|v| v.as_bytes().eq_ignore_ascii_case(b"no-referrer"));
        let from = Some((self.address.clone(), no_referrer));
        if form.method == "post" {
            self.browser
                .navigate(Method::POST, action, Some(body), from)
                .await
        } else {
            let mut to = action;
            let path = to.path().to_owned();
            to.target = format!("{path}?{body}");
            self.browser.navigate(Method::GET, to, None, from).await
        }
    }

    /// The page in a few words, for a failure's message: status, heading, text.
    pub(super) fn summary(&self) -> String {
        let text: String = self.text().replace('\n', " / ").chars().take(400).collect();
        format!("{} at {}: {text}", self.status, self.url())
    }
}

/// An input a person types in.
fn typed(field: &Field) -> bool {
    !matches!(
        field.kind.as_str(),
        "hidden" | "submit" | "button" | "reset" | "image" | "file" | "checkbox" | "radio"
    )
}
