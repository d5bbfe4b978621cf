//! One elicitation, start to end: parsed strictly, refused when it must not be shown, asked
//! through the host within the answer timeout, and the reply checked before it is sent.

use std::future::Future;
use std::time::Duration;

use elicit_host::{Elicitation, RequestError, UrlReport, UrlRequest};
use elicit_wire::ElicitAction;
use elicit_wire::ElicitResult;
use serde_json::{Map, Value};

use crate::asker::Asker;
use crate::host::Host;
use crate::limits::{MAX_ELICITATION_ID_BYTES, MAX_URL_BYTES, MAX_URL_MESSAGE_BYTES};
use crate::outcome::{Mode, Outcome};
use elicit_host::Consent;

/// Parses `params` (of `elicitation/create`) and refuses a mode the host did not declare.
pub(crate) fn parse(params: &Value, url_mode: bool) -> Result<Elicitation, Outcome> {
    let elicitation =
        Elicitation::from_params(&without_empty_id(params)).map_err(Outcome::Malformed)?;
    if let Elicitation::Url(request) = &elicitation {
        if !url_mode {
            return Err(Outcome::Unsupported(Mode::Url));
        }
        within_caps(request).map_err(Outcome::Malformed)?;
    }
    Ok(elicitation)
}

/// A URL request's texts within their caps: what a host may show and remember of it is
/// bounded ([`MAX_REMEMBERED_BYTES`](crate::MAX_REMEMBERED_BYTES)).
fn within_caps(request: &UrlRequest) -> Result<(), RequestError> {
    let too_long = |member, problem| Err(RequestError::Malformed { member, problem });
    if request.url.len() > MAX_URL_BYTES {
        return too_long("url", "is longer than 8192 bytes");
    }
    if request.message.len() > MAX_URL_MESSAGE_BYTES {
        return too_long("message", "is longer than 4096 bytes");
    }
    if request
        .elicitation_id
        .as_ref()
        .is_some_and(|id| id.len() > MAX_ELICITATION_ID_BYTES)
    {
        return too_long("elicitationId", "is longer than 256 bytes");
    }
    Ok(())
}

/// rmcp writes a 2026-07-28 URL request's absent `elicitationId` as `""`: the same absence.
fn without_empty_id(params: &Value) -> Value {
    let mut params = params.clone();
    if let Value::Object(members) = &mut params
        && members.get("elicitationId").and_then(Value::as_str) == Some("")
    {
        members.remove("elicitationId");
    }
    params
}

/// Asks the person through `host`; the reply to send and what it was.
pub(crate) async fn ask<H: Host>(
    host: &H,
    asker: &Asker,
    timeout: Duration,
    elicitation: &Elicitation,
    withdrawn: impl Future<Output = ()>,
) -> (ElicitResult, Outcome) {
    let asked = async {
        match elicitation {
            Elicitation::Form(form) => {
                let Ok(reply) = tokio::time::timeout(timeout, host.fill(asker, form)).await else {
                    return (ElicitResult::cancel(), Outcome::TimedOut);
                };
                match reply.action {
                    ElicitAction::Accept => {
                        let content = reply.content.unwrap_or_default();
                        checked(form.schema(), content)
                    }
                    ElicitAction::Decline => (ElicitResult::decline(), Outcome::Declined),
                    ElicitAction::Cancel => (ElicitResult::cancel(), Outcome::Cancelled),
                }
            }
            Elicitation::Url(request) => {
                let report = UrlReport::assess(&request.url, asker.origin.as_deref());
                if !report.may_open() {
                    return (
                        ElicitResult::decline(),
                        Outcome::Refused(report.findings().to_vec()),
                    );
                }
                let opened = host.open(asker, request, &report);
                match tokio::time::timeout(timeout, opened).await {
                    Ok(Consent::Opened) => (ElicitResult::accept_empty(), Outcome::Opened),
                    Ok(Consent::Declined) => (ElicitResult::decline(), Outcome::Declined),
                    Ok(Consent::Cancelled) => (ElicitResult::cancel(), Outcome::Cancelled),
                    Err(_) => (ElicitResult::cancel(), Outcome::TimedOut),
                }
            }
        }
    };
    tokio::select! {
        asked = asked => asked,
        () = withdrawn => (ElicitResult::cancel(), Outcome::Withdrawn),
    }
}

/// An `accept` only with content the form's schema takes; `cancel` otherwise.
fn checked(
    schema: &elicit_wire::schema::RequestedSchema,
    content: Map<String, Value>,
) -> (ElicitResult, Outcome) {
    let content = Value::Object(content);
    match schema.validate(&content) {
        Ok(()) => {
            let Value::Object(content) = content else {
                unreachable!("built as an object")
            };
            (ElicitResult::accept(content), Outcome::Accepted)
        }
        Err(error) => (ElicitResult::cancel(), Outcome::InvalidReply(error)),
    }
}

/// The reply as rmcp's `ElicitResult`.
pub(crate) fn to_rmcp(result: &ElicitResult) -> rmcp::model::ElicitResult {
    let action = match result.action {
        ElicitAction::Accept => rmcp::model::ElicitationAction::Accept,
        ElicitAction::Decline => rmcp::model::ElicitationAction::Decline,
        ElicitAction::Cancel => rmcp::model::ElicitationAction::Cancel,
    };
    let reply = rmcp::model::ElicitResult::new(action);
    match &result.content {
        Some(content) => reply.with_content(Value::Object(content.clone())),
        None => reply,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn url_request(message: usize, url: usize, id: usize) -> Value {
        let path = "a".repeat(url - "https://example.com/".len());
        json!({
            "mode": "url",
            "message": "m".repeat(message),
            "url": format!("https://example.com/{path}"),
            "elicitationId": "i".repeat(id),
        })
    }

    #[test]
    fn a_url_request_is_taken_up_to_each_cap_and_refused_one_byte_past_it() {
        let (message, url, id) = (
            MAX_URL_MESSAGE_BYTES,
            MAX_URL_BYTES,
            MAX_ELICITATION_ID_BYTES,
        );
        assert!(parse(&url_request(message, url, id), true).is_ok());
        let refused = |params: Value| match parse(&params, true) {
            Err(Outcome::Malformed(error)) => error.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            refused(url_request(message, url + 1, id)),
            "`url` is longer than 8192 bytes"
        );
        assert_eq!(
            refused(url_request(message + 1, url, id)),
            "`message` is longer than 4096 bytes"
        );
        assert_eq!(
            refused(url_request(message, url, id + 1)),
            "`elicitationId` is longer than 256 bytes"
        );
    }
}
