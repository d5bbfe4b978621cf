//! How a test's user answers one question: the one reply vocabulary of the testing kit, used
//! by [`Responses`](crate::Responses), [`TestClient`](crate::TestClient) and
//! `elicit_rmcp::testing::ScriptedClient`.

use serde_json::{Value, json};

use elicit_runtime::form::ElicitForm;

/// How the user answers one question.
///
/// ```
/// use elicit_runtime::ElicitForm;
/// use elicit_testing::UserReply;
/// use serde_json::json;
///
/// /// How many guests?
/// #[derive(ElicitForm)]
/// struct Guests { count: u8 }
///
/// let reply = UserReply::accept_form(&Guests { count: 4 });
/// assert_eq!(reply.result(), Some(json!({"action": "accept", "content": {"count": 4}})));
/// assert_eq!(UserReply::Decline.result(), Some(json!({"action": "decline"})));
/// assert_eq!(UserReply::Unanswered.result(), None);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum UserReply {
    /// `accept` with this `content` (valid or not: the server's decoder judges it).
    Accept(Value),
    /// `decline`.
    Decline,
    /// `cancel`.
    Cancel,
    /// A URL-mode question: the person opens the link in the client's browser and goes
    /// through the real page (`elicit_axum::testing::Browser`: presses its Confirm, typing what
    /// the browser was given into masked inputs, through an OAuth provider and back), then the
    /// client answers `accept`; the tool gets what the page's hook recorded. Needs a
    /// [`UrlBrowser`](crate::UrlBrowser) (`TestClient::browser`, `ScriptedClient::browser`); in
    /// [`Responses`](crate::Responses), which only carries what the client sends, it is the
    /// bare `accept` of [`UserReply::AcceptUrl`].
    OpenUrl,
    /// A URL-mode question whose page is stood in for ([`StandInPage`](crate::StandInPage)):
    /// the flow is recorded completed with this server-side result as the landing page would,
    /// then the client answers `accept`. For a tool tested without its page; in
    /// [`Responses`](crate::Responses) it is the bare `accept` of [`UserReply::AcceptUrl`].
    CompleteUrl(Option<Value>),
    /// `accept` on a URL-mode question, the browser never opening the page: a person who says
    /// yes and never goes, or a test that finishes the page itself (`LandingPage`). With a
    /// scripted rmcp client the call then ends promptly: on 2026-07-28 with the round the
    /// server answers the accept with (the accept is sent once), on 2025-11-25 with the client
    /// cancelling the call once its accept is on the wire.
    AcceptUrl,
    /// No answer. On 2026-07-28 the question is left out of `inputResponses`; a round in
    /// which the client answers nothing at all ends the call with that round, so a test can
    /// assert on what is still asked. On 2025-11-25 the pushed request gets a JSON-RPC error
    /// `unanswered question <key>`.
    Unanswered,
}

impl UserReply {
    /// `accept` with `form`'s content, as the form serializes it.
    pub fn accept_form<T: ElicitForm>(form: &T) -> Self {
        UserReply::Accept(Value::Object(form.to_content()))
    }

    /// The `ElicitResult` the client sends for this reply (`None`: nothing, the question is
    /// left unanswered). Every URL-mode reply sends a bare `accept`.
    pub fn result(&self) -> Option<Value> {
        match self {
            UserReply::Accept(content) => Some(json!({"action": "accept", "content": content})),
            UserReply::Decline => Some(json!({"action": "decline"})),
            UserReply::Cancel => Some(json!({"action": "cancel"})),
            UserReply::OpenUrl | UserReply::CompleteUrl(_) | UserReply::AcceptUrl => {
                Some(json!({"action": "accept"}))
            }
            UserReply::Unanswered => None,
        }
    }
}
