//! The demo's web host (`demo -- --web`): each question the server asks is shown in your
//! browser on elicit-host's HTML renderer, on a loopback page of its own. A form is the
//! accessible `<form>` (the schema's constraints checked by the browser, then again by the
//! server's rules when it is posted, problems shown at their fields); a URL request is the
//! consent panel (the URL as text with its site marked, never a link), and only once you
//! choose Open does the page give you the link to follow.
//!
//! Only the page itself can answer: answers are posted to a path with a secret made at start
//! (another site open in the same browser cannot forge a post without reading the page, which
//! the browser does not let it), and a request naming any host but the page's own loopback
//! address is refused (DNS rebinding).
//!
//! The demo's client asks one question at a time and waits for the answer: [`WebHost::answer`]
//! blocks (on the multi-threaded runtime, through `block_in_place`) until the page is posted.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use elicit_host::wire::ElicitResult;
use elicit_host::{Consent, Elicitation, FieldProblem, FormInput, UrlReport, html};
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// What the page shows: nothing, or the question waiting for its answer.
#[derive(Default)]
struct Desk {
    asking: Option<Asking>,
    /// The link you chose to open, shown until the next question.
    opened: Option<String>,
}

struct Asking {
    elicitation: Elicitation,
    reply: oneshot::Sender<ElicitResult>,
}

type Shared = Arc<Mutex<Desk>>;

/// What the routes share: the desk, who asks, the page's own `host:port`, and the secret in
/// the path answers are posted to.
#[derive(Clone)]
struct Site {
    desk: Shared,
    server: Arc<str>,
    host: Arc<str>,
    secret: Arc<str>,
}

impl Site {
    /// Where the page's forms post.
    fn action(&self) -> String {
        format!("/answer/{}", self.secret)
    }

    /// Refuses a request for any host but this page's own (a rebound DNS name), and a post
    /// whose `Origin` is another site.
    fn refuses(&self, headers: &HeaderMap) -> Option<Response> {
        let named = |name| headers.get(name).and_then(|v| v.to_str().ok());
        if named(header::HOST) != Some(&*self.host) {
            return Some((StatusCode::MISDIRECTED_REQUEST, "not this page's host").into_response());
        }
        match named(header::ORIGIN) {
            Some(origin) if origin != format!("http://{}", self.host) => {
                Some((StatusCode::FORBIDDEN, "posted from another site").into_response())
            }
            _ => None,
        }
    }
}

/// A loopback page answering the demo server's questions in the browser.
pub struct WebHost {
    desk: Shared,
    server: String,
    url: String,
}

/// Where the page is; not the question it may be showing.
impl std::fmt::Debug for WebHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebHost")
            .field("server", &self.server)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl WebHost {
    /// Serves the page on `127.0.0.1` (a free port) for questions from `server` (the name
    /// shown with each).
    pub async fn start(server: &str) -> std::io::Result<WebHost> {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let host = listener.local_addr()?.to_string();
        let url = format!("http://{host}/");
        let desk = Shared::default();
        let site = Site {
            desk: desk.clone(),
            server: server.into(),
            host: host.into(),
            secret: uuid::Uuid::new_v4().simple().to_string().into(),
        };
        let app = Router::new()
            .route("/", get(page))
            .route("/answer/{secret}", post(answered))
            .with_state(site);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(WebHost {
            desk,
            server: server.to_owned(),
            url,
        })
    }

    /// The page's address.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Shows `params` (an `elicitation/create`'s params, or a round entry's) on the page and
    /// waits for your answer: the bare `ElicitResult`. A request outside the grammar is not
    /// shown: answered `cancel`.
    pub fn answer(&self, params: &Value) -> Value {
        let elicitation = match Elicitation::from_params(params) {
            Ok(elicitation) => elicitation,
            Err(error) => {
                println!("    (not shown: {error}; answered cancel)");
                return json!({"action": "cancel"});
            }
        };
        let (reply, answer) = oneshot::channel();
        {
            let mut desk = self.desk.lock().unwrap_or_else(|e| e.into_inner());
            desk.asking = Some(Asking { elicitation, reply });
            desk.opened = None;
        }
        println!(
            "    answer in your browser: {} ({} asks)",
            self.url, self.server
        );
        let result = tokio::task::block_in_place(|| answer.blocking_recv())
            .unwrap_or_else(|_| ElicitResult::cancel());
        serde_json::to_value(result).unwrap_or_else(|_| json!({"action": "cancel"}))
    }
}

/// `GET /`: the question, or a page that looks again in a moment.
async fn page(State(site): State<Site>, headers: HeaderMap) -> Response {
    if let Some(refused) = site.refuses(&headers) {
        return refused;
    }
    render(&site).into_response()
}

fn render(site: &Site) -> Html<String> {
    let desk = site.desk.lock().unwrap_or_else(|e| e.into_inner());
    Html(match (&desk.asking, &desk.opened) {
        (Some(asking), _) => question(site, &asking.elicitation, &[], None),
        (None, Some(url)) => waiting(&format!(
            "<p>You chose to open the page: <a id=\"elicit-opened\" href=\"{0}\" target=\"_blank\" \
             rel=\"noopener noreferrer\">{0}</a>. The server waits for you there.</p>",
            escape(url)
        )),
        (None, None) => waiting("<p id=\"elicit-idle\">Nothing is asked right now.</p>"),
    })
}

/// `POST /answer/{secret}`: the page's answer. A form whose values the server's rules refuse
/// is shown again with the problems at their fields; anything else is the answer.
async fn answered(
    State(site): State<Site>,
    Path(secret): Path<String>,
    headers: HeaderMap,
    Form(posted): Form<Vec<(String, String)>>,
) -> Response {
    if let Some(refused) = site.refuses(&headers) {
        return refused;
    }
    if secret != *site.secret {
        return (StatusCode::FORBIDDEN, "not this page's form").into_response();
    }
    {
        let mut desk = site.desk.lock().unwrap_or_else(|e| e.into_inner());
        let Some(asking) = desk.asking.take() else {
            drop(desk);
            return render(&site).into_response();
        };
        let read = match &asking.elicitation {
            Elicitation::Form(form) => html::read(form, posted.clone()),
            Elicitation::Url(request) => html::read_consent(posted.clone()).map(|consent| {
                if consent == Consent::Opened {
                    desk.opened = Some(request.url.clone());
                }
                consent.result()
            }),
        };
        let result = match read {
            Ok(result) => result,
            Err(html::ReadError::Problems(problems)) => {
                let page = question(&site, &asking.elicitation, &problems, Some(&posted));
                desk.asking = Some(asking);
                return Html(page).into_response();
            }
            // Not what the page sends (a second action, a name it has no control for): the
            // question stays asked, as it was.
            Err(_) => {
                let page = question(&site, &asking.elicitation, &[], None);
                desk.asking = Some(asking);
                return (StatusCode::BAD_REQUEST, Html(page)).into_response();
            }
        };
        let _ = asking.reply.send(result);
    }
    render(&site).into_response()
}

/// The page for one question: the form (with what was posted and its problems, when it is
/// shown again) or the consent panel.
fn question(
    site: &Site,
    elicitation: &Elicitation,
    problems: &[FieldProblem],
    posted: Option<&[(String, String)]>,
) -> String {
    let body = match elicitation {
        Elicitation::Form(form) => {
            let input = match posted {
                Some(posted) => html::filled(form, posted).0,
                None => FormInput::new(form),
            };
            html::form(&site.server, &input, &site.action(), problems)
        }
        Elicitation::Url(request) => html::consent(
            &site.server,
            &request.message,
            &UrlReport::assess(&request.url, None),
            &site.action(),
        ),
    };
    document("", &body)
}

/// A page that looks at `/` again every second, for the next question.
fn waiting(body: &str) -> String {
    document("<meta http-equiv=\"refresh\" content=\"1; url=/\">", body)
}

fn document(head: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>elicit demo</title>\
         {head}{STYLE}</head><body>{body}</body></html>"
    )
}

const STYLE: &str = "<style>body{font:16px sans-serif;margin:24px;max-width:720px}\
    .elicit-field{margin:12px 0}label,legend{font-weight:600;margin-right:8px}\
    .elicit-help{color:#555;margin:4px 0}.elicit-actions button{margin-right:12px;padding:6px 14px}\
    mark{background:#ffe066}[role=alert]{color:#b00020}</style>";

/// `text` for HTML text and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
