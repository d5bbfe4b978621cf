//! `GET <callback>?code=…&state=…` (or `?error=…&state=…`): the provider sends the browser
//! back. Only the browser that confirmed, for the user who confirmed, with an unused `state`
//! goes on: then the code is traded, the application keeps the token, and the flow completes
//! or fails.

use ::axum::response::Response;
use http::request::Parts;
use http::{HeaderValue, StatusCode, header};
use serde_json::Value;

use super::binding;
use super::{Connection, Inner, OAuthHook, OAuthToken};
use crate::hook::OpenedLink;

/// The query of a provider's callback (`?code=…&state=…`, or `?error=…&state=…`), as
/// [`OAuth`](super::OAuth)'s callback route reads it: a parameter given twice is ambiguous, and
/// reads as empty.
///
/// ```
/// use elicit_axum::__private::CallbackQuery;
///
/// let back = axum::http::Request::get("/signin/callback?code=c1&state=s&state=t").body(()).unwrap();
/// let query = CallbackQuery::of(&back.into_parts().0);
/// assert_eq!((query.code.as_deref(), query.state.as_deref(), query.error), (Some("c1"), Some(""), None));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallbackQuery {
    /// `state`: what the flow sealed when it sent the browser to the provider.
    pub state: Option<String>,
    /// `code`: the authorization code to trade for a token.
    pub code: Option<String>,
    /// `error`: the provider's reason it issued no code (`access_denied`).
    pub error: Option<String>,
}

impl CallbackQuery {
    /// The query of `parts`'s URI (see [the type](CallbackQuery)).
    pub fn of(parts: &Parts) -> CallbackQuery {
        let mut query = CallbackQuery::default();
        let pairs = form_urlencoded::parse(parts.uri.query().unwrap_or("").as_bytes());
        for (name, value) in pairs {
            let slot = match &*name {
                "state" => &mut query.state,
                "code" => &mut query.code,
                "error" => &mut query.error,
                _ => continue,
            };
            // A parameter given twice is ambiguous: it counts as absent.
            *slot = if slot.is_some() {
                Some(String::new())
            } else {
                Some(value.into_owned())
            };
        }
        query
    }
}

pub(super) async fn serve<H: OAuthHook>(inner: &Inner<H>, parts: Parts) -> Response {
    let user = match inner.browser.subject(&parts).await {
        Ok(user) if !user.is_empty() => user,
        Ok(_) => return refused(inner, "no browser user"),
        Err(response) => return response,
    };
    let query = CallbackQuery::of(&parts);
    let Some(state) = query.state.filter(|s| !s.is_empty()) else {
        return refused(inner, "no state");
    };
    // Login CSRF: a callback in a browser that did not start this flow has none of its nonces.
    let provider = &inner.provider.name;
    let (started, nonce) =
        match binding::open(&inner.sealer, provider, &user, inner.cookie, &parts, &state).await {
            Ok(started) => started,
            Err(reason) => return refused(inner, &format!("state refused: {reason}")),
        };
    let spent = |response| with_spent_nonce(inner, &parts, nonce, response);
    let (opened, bound) = match inner.page.open_raw(&started.handle, &user).await {
        Ok(opened) => opened,
        Err(error) => {
            tracing::warn!(target: "elicit", reason = %error.reason().escape_debug(), "OAuth callback refused a handle");
            return spent(inner.texts.error_page(&error));
        }
    };
    let link = OpenedLink {
        handle: started.handle,
        opened,
        state: bound,
        secrets: Vec::new(),
    };
    let outcome = match (query.code.filter(|c| !c.is_empty()), query.error) {
        (Some(code), None) => {
            (inner.http)
                .exchange(&inner.provider, &code, &started.verifier)
                .await
        }
        (_, Some(error)) => Err(format!(
            "the provider did not authorize the connection ({})",
            error
                .chars()
                .filter(|c| c.is_ascii_graphic())
                .take(64)
                .collect::<String>()
        )),
        (None, None) => Err("the provider sent no code".to_owned()),
    };
    let outcome = async {
        let token = outcome?;
        let account = account(inner, &token).await?;
        let connection = Connection {
            user: &user,
            token,
            account,
            link: &link,
        };
        inner.hook.connected(connection).await
    }
    .await;
    let page = match outcome {
        Ok(result) => match inner.page.complete_raw(&link.opened, result).await {
            Ok(()) => {
                tracing::info!(target: "elicit", id = link.id(), provider = %inner.provider.name.escape_debug(), "OAuth connection completed");
                inner.texts.completed_page(None, None)
            }
            Err(error) => inner.texts.error_page(&error),
        },
        Err(reason) => match inner.page.fail_raw(&link.opened, &reason).await {
            Ok(()) => {
                tracing::info!(target: "elicit", id = link.id(), reason = %reason.escape_debug(), "OAuth connection failed");
                inner.texts.failed_page(None, Some(&reason))
            }
            Err(error) => inner.texts.error_page(&error),
        },
    };
    spent(page)
}

/// Whose account `token` is, when the provider has an account endpoint.
async fn account<H>(inner: &Inner<H>, token: &OAuthToken) -> Result<Option<Value>, String> {
    let Some(url) = &inner.provider.account_url else {
        return Ok(None);
    };
    let provider = &inner.provider.name;
    let account = inner.http.account(provider, url, token.access_token());
    account.await.map(Some)
}

/// The uniform refusal (403): the reason goes to the log only. The nonce cookie stays: a
/// forged callback must not end the flow the browser did start.
fn refused<H>(inner: &Inner<H>, reason: &str) -> Response {
    tracing::warn!(target: "elicit", status = 403, reason = %reason.escape_debug(), "OAuth callback refused");
    inner.texts.refused_page(StatusCode::FORBIDDEN)
}

/// `response`, removing `nonce` from the browser's cookie: a callback ends its flow's binding
/// either way (the browser's other flows keep theirs).
fn with_spent_nonce<H>(
    inner: &Inner<H>,
    parts: &Parts,
    nonce: &str,
    mut response: Response,
) -> Response {
    let cookie = inner
        .cookie
        .remove(parts, nonce, inner.sealer.ttl().as_secs());
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}
