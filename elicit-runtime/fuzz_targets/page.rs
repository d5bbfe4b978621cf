//! `landing_page_open`: the landing page opening a handle for the browser's user, typed and
//! raw, then recording how the flow ended.

use std::time::{Duration, SystemTime};

use serde::Deserialize;
use serde_json::{Value, json};

use super::fixtures::{ConnectGithub, PRINCIPAL, block_on, connect_github, same_json, sealer};
use crate::state::Binding;
use crate::url::handle;
use crate::url::{LandingPage, MemoryCompletionStore, PageError};
use crate::{ElicitServer, ElicitUrl};

/// What the input describes: a handle (the link's text, or one this server mints now for
/// `principal`, `key` and `state`, issued `age` seconds ago with a TTL of `ttl` seconds) and
/// the browser's `subject`.
#[derive(Deserialize)]
#[serde(default)]
pub(crate) struct PageInput {
    pub handle: Option<String>,
    pub principal: String,
    pub subject: String,
    pub key: String,
    pub state: Value,
    pub id: Option<String>,
    pub ttl: u64,
    pub age: u64,
}

impl Default for PageInput {
    fn default() -> Self {
        PageInput {
            handle: None,
            principal: PRINCIPAL.into(),
            subject: PRINCIPAL.into(),
            key: ConnectGithub::KEY.into(),
            state: serde_json::to_value(connect_github()).unwrap_or_default(),
            id: None,
            ttl: 600,
            age: 0,
        }
    }
}

/// The tool every handle of the target was minted for.
const TOOL: &str = "import_issues";

/// Opens the handle as `ConnectGithub` and raw. Both agree; a handle opens only for the user
/// who started the flow, never empty, and hands back the key and state it was minted with; a
/// fresh one minted for the subject always opens; after the first recording, opening and
/// recording again are refused as already recorded.
pub fn landing_page_open(data: &[u8]) {
    let Ok(input) = serde_json::from_slice::<PageInput>(data) else {
        return;
    };
    let ttl = Duration::from_secs(input.ttl);
    let server = ElicitServer::new(sealer().with_ttl(ttl))
        .with_completion_store(std::sync::Arc::new(MemoryCompletionStore::new()));
    let minted = input.handle.is_none();
    let token = match &input.handle {
        Some(token) => token.clone(),
        None => {
            let Some(issued) = SystemTime::now().checked_sub(Duration::from_secs(input.age)) else {
                return;
            };
            let args = json!({"repo": "octo/hello"});
            let binding = Binding::tool_call(TOOL, &args).with_principal(&*input.principal);
            let minted = handle::mint(
                server.sealer(),
                &binding,
                &input.principal,
                &input.key,
                input.state.clone(),
                issued,
                input.id.clone(),
            );
            match minted {
                Ok((_, token)) => token,
                Err(_) => return,
            }
        }
    };
    let page = LandingPage::new(&server);
    let subject = input.subject.as_str();
    // The page reads the clock itself: near its expiry, a handle may expire between two calls,
    // so the checks that compare calls hold only for one well within its lifetime.
    let settled = handle::open(server.sealer(), &token)
        .is_ok_and(|c| c.expires_at() > SystemTime::now() + Duration::from_secs(2));
    let typed = block_on(page.open::<ConnectGithub>(&token, subject));
    let raw = block_on(page.open_raw(&token, subject));
    for error in [typed.as_ref().err(), raw.as_ref().err()]
        .into_iter()
        .flatten()
    {
        let _ = (error.to_string(), error.reason());
    }
    if settled {
        match (&typed, &raw) {
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
    if minted {
        let fresh = input.age == 0 && input.ttl >= 2;
        if fresh && !subject.is_empty() && subject == input.principal {
            assert!(raw.is_ok(), "a fresh handle refused its own user: {raw:?}");
        }
        if let Ok((key, state)) = &raw {
            assert!(!subject.is_empty() && subject == input.principal);
            assert_eq!(key.key(), input.key);
            assert!(same_json(state, &input.state), "{state} vs {}", input.state);
        }
    }
    let Ok((key, _)) = &raw else {
        return;
    };
    match &typed {
        Ok(opened) => block_on(page.complete(opened, Some(json!({"account": "octocat"})))),
        Err(_) => block_on(page.fail_raw(key, "the user gave up")),
    }
    .expect("the first recording");
    let again = block_on(page.open_raw(&token, subject));
    let twice = block_on(page.complete_raw(key, None));
    if settled {
        assert!(
            matches!(again, Err(PageError::AlreadyRecorded)),
            "{again:?}"
        );
        assert_eq!(twice, Err(PageError::AlreadyRecorded));
    }
}
