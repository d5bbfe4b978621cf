//! The demo's web host (`demo -- --web`): each question the server asks is shown in your
//! browser on elicit-host's HTML renderer, on a loopback page of its own. A form is the
//! accessible `<form>` (the schema's constraints checked by the browser, then again by the
//! server's rules when it is posted, problems shown at their fields); a URL request is the
//! consent panel (the URL as text with its site marked, never a link), and only once you
//! choose Open does the page give you the link to follow.
//!
//! The demo's client asks one question at a time and waits for the answer: [`WebHost::answer`]
//! blocks (on the multi-threaded runtime, through `block_in_place`) until the page is posted.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::response::Html;
use axum::routing::get;
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

/// A loopback page answering the demo server's questions in the browser.
pub struct WebHost {
    desk: Shared,
    server: String,
    url: String,
}

impl WebHost {
    /// Serves the page on `127.0.0.1` (a free port) for questions from `server` (the name
    /// shown with each).
    pub async fn start(server: &str) -> std::io::Result<WebHost> {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let url = format!("http://{}/", listener.local_addr()?);
        let desk = Shared::default();
        let app = Router::new()
            .route("/", get(page).post(answered))
            .with_state((desk.clone(), server.to_owned()));
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
async fn page(State((desk, server)): State<(Shared, String)>) -> Html<String> {
    let desk = desk.lock().unwrap_or_else(|e| e.into_inner());
    Html(match (&desk.asking, &desk.opened) {
        (Some(asking), _) => question(&server, &asking.elicitation, &[], None),
        (None, Some(url)) => waiting(&format!(
            "<p>You chose to open the page: <a id=\"elicit-opened\" href=\"{0}\" target=\"_blank\" \
             rel=\"noopener noreferrer\">{0}</a>. The server waits for you there.</p>",
            escape(url)
        )),
        (None, None) => waiting("<p id=\"elicit-idle\">Nothing is asked right now.</p>"),
    })
}

/// `POST /`: the page's answer. A form whose values the server's rules refuse is shown again
/// with the problems at their fields; anything else is the answer.
async fn answered(
    State((shared, server)): State<(Shared, String)>,
    Form(posted): Form<Vec<(String, String)>>,
) -> Html<String> {
    {
        let mut desk = shared.lock().unwrap_or_else(|e| e.into_inner());
        let Some(asking) = desk.asking.take() else {
            return Html(waiting(
                "<p id=\"elicit-idle\">Nothing is asked right now.</p>",
            ));
        };
        let result = match &asking.elicitation {
            Elicitation::Form(form) => match html::read(form, posted.clone()) {
                Ok(result) => result,
                Err(problems) => {
                    let page = question(&server, &asking.elicitation, &problems, Some(&posted));
                    desk.asking = Some(asking);
                    return Html(page);
                }
            },
            Elicitation::Url(request) => {
                let action = posted.iter().find(|(name, _)| name == "elicit-action");
                let consent = match action.map(|(_, value)| value.as_str()) {
                    Some("accept") => Consent::Opened,
                    Some("decline") => Consent::Declined,
                    _ => Consent::Cancelled,
                };
                if consent == Consent::Opened {
                    desk.opened = Some(request.url.clone());
                }
                consent.result()
            }
        };
        let _ = asking.reply.send(result);
    }
    page(State((shared, server))).await
}

/// The page for one question: the form (with what was posted and its problems, when it is
/// shown again) or the consent panel.
fn question(
    server: &str,
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
            html::form(server, &input, "/", problems)
        }
        Elicitation::Url(request) => html::consent(
            server,
            &request.message,
            &UrlReport::assess(&request.url, None),
            "/",
        ),
    };
    document("", &body)
}

/// A page that looks again every second, for the next question.
fn waiting(body: &str) -> String {
    document("<meta http-equiv=\"refresh\" content=\"1\">", body)
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
