//! A page the test browser shows: what a person reads on it, and its forms to fill and send.

use http::{HeaderMap, Method, StatusCode, header};

use super::address::Address;
use super::browser::Browser;
use super::read::{self, Doc, Field, Form};

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
