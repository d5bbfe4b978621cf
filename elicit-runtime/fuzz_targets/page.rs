//! `landing_page_open`: the landing page opening a handle for the browser's user, typed and
//! raw; its confirmation page's CSRF token (the one it gives, one the input presents, ones
//! sealed for the user the input names, for this link and for another link of the flow the
//! input names); then recording how the flow ended.

use std::time::{Duration, SystemTime};

use serde::Deserialize;
use serde_json::{Value, json};

use super::fixtures::{ConnectGithub, PRINCIPAL, block_on, connect_github, same_json, sealer};
use crate::state::Binding;
use crate::url::handle;
use crate::url::handle::confirm;
use crate::url::{
    LandingPage, MemoryCompletionStore, OpenedHandle, OpenedHandleKey, PageError, UrlSettings,
};
use crate::{ElicitServer, ElicitUrl};

/// What the input describes: a handle (the link's text, or one this server mints now for
/// `principal`, `key`, `message` and `state`, issued `age` seconds ago with a TTL of `ttl`
/// seconds), the browser's `subject`, and the confirmation form's token: `token` as posted,
/// or ones this server seals now for `token_for` (a flow id and a subject): for this link, and
/// for another link of that flow.
#[derive(Deserialize)]
#[serde(default)]
pub(crate) struct PageInput {
    pub handle: Option<String>,
    pub principal: String,
    pub subject: String,
    pub key: String,
    pub message: String,
    pub state: Value,
    pub id: Option<String>,
    pub ttl: u64,
    pub age: u64,
    pub token: Option<String>,
    pub token_for: Option<(String, String)>,
}

impl Default for PageInput {
    fn default() -> Self {
        PageInput {
            handle: None,
            principal: PRINCIPAL.into(),
            subject: PRINCIPAL.into(),
            key: ConnectGithub::KEY.into(),
            message: ConnectGithub::MESSAGE.into(),
            state: serde_json::to_value(connect_github()).unwrap_or_default(),
            id: None,
            ttl: 600,
            age: 0,
            token: None,
            token_for: None,
        }
    }
}

/// The tool every handle of the target was minted for.
const TOOL: &str = "import_issues";

/// Opens the handle as `ConnectGithub` and raw. Both agree; a handle opens only for the user
/// who started the flow, never empty, and hands back the key, message and state it was minted
/// with; a fresh one minted for the subject always opens. The page's own token confirms it for
/// that user and no other; a token sealed for this link confirms exactly when its user is the
/// browser's, one sealed for another link never, even of the same flow (issue 32); a posted
/// token confirms only a handle that opens. After
/// the first recording, opening, confirming and recording again are refused as already
/// recorded.
pub fn landing_page_open(data: &[u8]) {
    let Ok(input) = serde_json::from_slice::<PageInput>(data) else {
        return;
    };
    let ttl = Duration::from_secs(input.ttl);
    let server = ElicitServer::new(sealer().with_ttl(ttl)).with_url(UrlSettings::new(
        std::sync::Arc::new(MemoryCompletionStore::new()),
    ));
    let Some(token) = handle_text(&server, &input) else {
        return;
    };
    let page = LandingPage::new(&server);
    let subject = input.subject.as_str();
    // The page reads the clock itself: near its expiry, a handle may expire between two calls,
    // so the checks that compare calls hold only for one well within its lifetime.
    let settled = handle::open(server.sealer(), &token)
        .is_ok_and(|c| c.expires_at() > SystemTime::now() + Duration::from_secs(2));
    let typed = block_on(page.open::<ConnectGithub>(&token, subject));
    let raw = block_on(page.open_raw(&token, subject));
    check_opened(&typed, &raw, settled);
    if input.handle.is_none() {
        check_minted(&input, &raw);
    }
    if let Some(posted) = &input.token {
        let confirmed = block_on(page.open_confirmed(&token, subject, posted));
        assert!(
            confirmed.is_err() || raw.is_ok(),
            "{confirmed:?} vs {raw:?}"
        );
        if let Err(error) = &confirmed {
            let _ = (error.to_string(), error.reason());
        }
    }
    let Ok((key, _)) = &raw else {
        return;
    };
    let own = page.confirmation_token(key, subject).expect("a token");
    let flow = Flow {
        page: &page,
        server: &server,
        token: &token,
        subject,
        key,
        own: &own,
        settled,
    };
    flow.check_tokens(&input, input.token_for.as_ref());
    flow.check_recorded_once(&typed);
}

/// The handle the input gives, or one minted now as it describes; `None` when it cannot be
/// minted (an issue time before the epoch, a state that does not seal).
fn handle_text(server: &ElicitServer, input: &PageInput) -> Option<String> {
    if let Some(token) = &input.handle {
        return Some(token.clone());
    }
    let issued = SystemTime::now().checked_sub(Duration::from_secs(input.age))?;
    // A flow id from the input continues that flow with no earlier expiry of its own.
    let flow = input.id.clone().map(|id| (id, u64::MAX));
    mint_for(server, input, issued, flow)
}

/// A link minted at `issued` for the input's principal, key, message and state, continuing
/// `flow` when given.
fn mint_for(
    server: &ElicitServer,
    input: &PageInput,
    issued: SystemTime,
    flow: Option<(String, u64)>,
) -> Option<String> {
    let args = json!({"repo": "octo/hello"});
    let binding = Binding::tool_call(TOOL, &args).with_principal(&*input.principal);
    let minted = handle::mint(
        server.sealer(),
        &binding,
        &input.principal,
        &input.key,
        &input.message,
        &crate::url::Bound::plain(input.state.clone()),
        issued,
        flow,
    );
    minted.ok().map(|(_, token)| token)
}

/// Typed and raw opening agree: the same flow, key and state, or the same refusal (a handle
/// of another kind opens raw only).
fn check_opened(
    typed: &Result<OpenedHandle<ConnectGithub>, PageError>,
    raw: &Result<(OpenedHandleKey, Value), PageError>,
    settled: bool,
) {
    for error in [typed.as_ref().err(), raw.as_ref().err()]
        .into_iter()
        .flatten()
    {
        let _ = (error.to_string(), error.reason());
    }
    if !settled {
        return;
    }
    match (typed, raw) {
        (Ok(opened), Ok((key, state))) => {
            assert_eq!((opened.id(), key.key()), (key.id(), ConnectGithub::KEY));
            let state = serde_json::from_value::<ConnectGithub>(state.clone());
            assert_eq!(state.ok().as_ref(), Some(&opened.state));
        }
        (Err(PageError::WrongKind), Ok(_)) => {}
        (Err(typed), Err(raw)) => assert_eq!(typed, raw),
        (typed, raw) => panic!("typed {typed:?} vs raw {raw:?}"),
    }
}

/// A handle minted now opens for its own user when fresh, only for that user, and hands back
/// the key, message and state it was minted with.
fn check_minted(input: &PageInput, raw: &Result<(OpenedHandleKey, Value), PageError>) {
    let subject = input.subject.as_str();
    let fresh = input.age == 0 && input.ttl >= 2;
    if fresh && !subject.is_empty() && subject == input.principal {
        assert!(raw.is_ok(), "a fresh handle refused its own user: {raw:?}");
    }
    if let Ok((key, state)) = raw {
        assert!(!subject.is_empty() && subject == input.principal);
        assert_eq!(key.key(), input.key);
        assert_eq!(key.message(), input.message);
        assert!(same_json(state, &input.state), "{state} vs {}", input.state);
    }
}

/// Another link of flow `id` for the input's principal, minted now until `exp` (what a flow
/// asked again, or a call through the link fallback made later, sends).
fn sibling(server: &ElicitServer, input: &PageInput, id: &str, exp: u64) -> Option<String> {
    mint_for(server, input, SystemTime::now(), Some((id.to_owned(), exp)))
}

/// A handle that opened for `subject`, with the page's own confirmation token for it.
struct Flow<'a> {
    page: &'a LandingPage,
    server: &'a ElicitServer,
    token: &'a str,
    subject: &'a str,
    key: &'a OpenedHandleKey,
    own: &'a str,
    settled: bool,
}

impl Flow<'_> {
    /// A token sealed for this link and a user confirms exactly when the user is this
    /// browser's; one sealed for another link of a flow (this one's too) never does; the page's
    /// own token confirms it, for this user and link only, until the link expires.
    fn check_tokens(&self, input: &PageInput, token_for: Option<&(String, String)>) {
        let (page, sealer, subject) = (self.page, self.server.sealer(), self.subject);
        let own_link = self.key.for_link();
        if let Some((id, for_subject)) = token_for {
            if let Ok(sealed) = confirm::seal(sealer, &own_link, for_subject) {
                let confirmed = block_on(page.open_confirmed(self.token, subject, &sealed));
                if self.settled {
                    let expected = for_subject == subject;
                    assert_eq!(confirmed.is_ok(), expected, "{confirmed:?}");
                    if !expected {
                        assert_eq!(confirmed.err(), Some(PageError::Unconfirmed));
                    }
                }
            }
            if let Some(other) = sibling(self.server, input, id, own_link.exp) {
                let link = confirm::ForLink {
                    handle: confirm::handle_digest(&other),
                    ..own_link
                };
                if let Ok(sealed) = confirm::seal(sealer, &link, for_subject) {
                    let confirmed = block_on(page.open_confirmed(self.token, subject, &sealed));
                    if self.settled {
                        assert_eq!(confirmed.err(), Some(PageError::Unconfirmed));
                    }
                }
            }
        }
        if !self.settled {
            return;
        }
        let confirmed = block_on(page.open_confirmed(self.token, subject, self.own));
        assert_eq!(
            confirmed.map(|(k, _)| k.id().to_owned()).ok().as_deref(),
            Some(self.key.id())
        );
        let now = SystemTime::now();
        let other = format!("{subject}\0other");
        assert!(!confirm::check(sealer, &own_link, &other, self.own, now));
        let other_link = confirm::ForLink {
            handle: confirm::handle_digest(&format!("{}x", self.token)),
            ..own_link
        };
        assert!(!confirm::check(sealer, &other_link, subject, self.own, now));
        let expiry = crate::state::expiry_from_unix_secs(own_link.exp);
        assert!(!confirm::check(
            sealer, &own_link, subject, self.own, expiry
        ));
    }

    /// The flow is recorded once (completed when it opened typed, failed otherwise); then
    /// opening, confirming and recording again are refused as already recorded.
    fn check_recorded_once(&self, typed: &Result<OpenedHandle<ConnectGithub>, PageError>) {
        let (page, key) = (self.page, self.key);
        match typed {
            Ok(opened) => block_on(page.complete(opened, Some(json!({"account": "octocat"})))),
            Err(_) => block_on(page.fail_raw(key, "the user gave up")),
        }
        .expect("the first recording");
        let again = block_on(page.open_raw(self.token, self.subject));
        let twice = block_on(page.complete_raw(key, None));
        let confirmed_again = block_on(page.open_confirmed(self.token, self.subject, self.own));
        if self.settled {
            assert!(
                matches!(again, Err(PageError::AlreadyRecorded)),
                "{again:?}"
            );
            assert_eq!(confirmed_again.err(), Some(PageError::AlreadyRecorded));
            assert_eq!(twice, Err(PageError::AlreadyRecorded));
        }
    }
}
