//! Finding the answer to a question: in this round, in an earlier round (carried in
//! `requestState`), or in this request's `inputResponses` — always bound to the question's
//! digest, so a reworded question is asked again.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::Reask;
use crate::interrupt::Interrupt;
use crate::keyed::Keyed;
use crate::wire::Normalized;
use crate::wire::{ElicitMode, INTERNAL_ERROR, InputRequest, InputResponse, JsonRpcError};

/// Every answer a request can see, and the questions asked in this round.
#[derive(Debug, Default)]
pub(crate) struct Answers {
    /// This request's `inputResponses`.
    pub responses: Keyed<InputResponse>,
    /// Keys asked in the previous round, with their digests; `None` without `requestState`.
    pub asked_before: Option<Keyed<String>>,
    /// Answers of earlier rounds, from `requestState`.
    pub carried: BTreeMap<String, Carried>,
    /// Answers used in this round.
    pub resolved: Keyed<Resolved>,
    /// Questions asked in this round and not answered yet: key → (digest, request).
    pub pending: BTreeMap<String, (String, InputRequest)>,
    /// Every question needs provenance (the server's setting).
    pub strict: bool,
    /// Keys whose question needs provenance (set per question): a sorted vector, as small as
    /// the round (one key is one allocation, where a set's node is a few hundred bytes).
    pub strict_keys: Keyed<()>,
    /// Set by `lookup` when the answer it returned is new in this request (`inputResponses`).
    pub fresh: bool,
    /// Form questions asked again because their answer failed the form's checks: carried from
    /// round to round, so the answer is read against the re-asked question.
    pub reasks: BTreeMap<String, Reask>,
}

impl Answers {
    /// The answer to `key`, if this request or an earlier round holds one for `digest`.
    pub(crate) fn lookup(
        &mut self,
        key: &str,
        digest: &str,
    ) -> Result<Option<InputResponse>, Interrupt> {
        self.fresh = false;
        if let Some(done) = self.resolved.get(key) {
            return if done.digest == digest {
                match &done.response {
                    Response::Text(text) => parsed(key, text).map(Some),
                    Response::Value(value) => Ok(Some(InputResponse::from_value(value.clone()))),
                    Response::Fresh => Ok(self.responses.get(key).cloned()),
                }
            } else {
                Err(conflict(key))
            };
        }
        if let Some((asked, _)) = self.pending.get(key) {
            return if asked == digest {
                Ok(None)
            } else {
                Err(conflict(key))
            };
        }
        if self.carried.get(key).is_some_and(|c| c.digest == digest) {
            // Moved, not copied: `finish` seals resolved answers after carried ones, so the
            // answer travels on either way.
            if let Some((key, earlier)) = self.carried.remove_entry(key) {
                let response = parsed(&key, &earlier.response)?;
                self.resolved.insert(key, Resolved::from(earlier));
                return Ok(Some(response));
            }
        }
        let Some(response) = self.responses.get(key) else {
            return Ok(None);
        };
        // With sealed state, only an answer to the question asked last round, worded exactly
        // as now, counts; a reworded question is asked again. Without state (a one-shot call)
        // there is nothing the answer could be stale against, unless the question requires
        // provenance.
        match &self.asked_before {
            Some(asked) if asked.get(key).is_none_or(|d| d != digest) => return Ok(None),
            Some(_) => {}
            // Strict provenance: no sealed state shows that we asked, so the answer is ignored.
            None if self.strict || self.strict_keys.get(key).is_some() => return Ok(None),
            None => {}
        }
        if !within_bounds(response) {
            return Err(Interrupt::error(JsonRpcError::invalid_params(
                format!(
                    "inputResponses.{key} is too large (at most {MAX_ANSWER_BYTES} bytes of JSON, nested at most {MAX_ANSWER_DEPTH} deep)"
                ),
                Some(json!({"key": key})),
            )));
        }
        if let InputResponse::Malformed { error, .. } = response {
            return Err(Interrupt::error(JsonRpcError::invalid_params(
                format!("inputResponses.{key}: {error}"),
                Some(json!({"key": key})),
            )));
        }
        let answer = response.clone();
        // Kept in `responses` until a state is sealed (a form's is replaced by what its
        // decoder kept, `keep`, before that); the last round seals nothing.
        let resolved = Resolved {
            digest: digest.to_owned(),
            response: Response::Fresh,
        };
        self.resolved.insert(key.to_owned(), resolved);
        self.fresh = true;
        Ok(Some(answer))
    }

    /// Of an answer `lookup` just returned for a question asked with `request`, only what that
    /// kind of question defines: a URL elicitation's `action` (a URL accept carries no
    /// content), a sampling result's `role`, `content`, `model` and `stopReason`, a roots
    /// result's `roots`. That is what the handler gets and what later rounds carry, so a
    /// client cannot make every later state carry what no question asked for. A form's answer
    /// is kept by its decoder instead ([`keep`](Self::keep)); other methods are kept whole.
    pub(crate) fn defined_only(
        &mut self,
        key: &str,
        request: &InputRequest,
        answer: InputResponse,
    ) -> InputResponse {
        let defined: &[&str] = match request {
            InputRequest::Elicit(params) if params.mode() == ElicitMode::Url => {
                return match answer {
                    InputResponse::Elicit(mut result)
                        if result.content.is_some() || result.meta.is_some() =>
                    {
                        result.content = None;
                        result.meta = None;
                        self.keep(key, json!({"action": result.action.as_str()}));
                        InputResponse::Elicit(result)
                    }
                    other => other,
                };
            }
            InputRequest::Sampling(_) => &["role", "content", "model", "stopReason"],
            InputRequest::ListRoots(_) => &["roots"],
            InputRequest::Elicit(_) | InputRequest::Other { .. } => return answer,
        };
        let (InputResponse::Sampling(Value::Object(fields))
        | InputResponse::Roots(Value::Object(fields))) = &answer
        else {
            return answer;
        };
        if fields.keys().all(|k| defined.contains(&k.as_str())) {
            return answer;
        }
        let mut fields = fields.clone();
        fields.retain(|k, _| defined.contains(&k.as_str()));
        let kept = Value::Object(fields);
        self.keep(key, kept.clone());
        match answer {
            InputResponse::Roots(_) => InputResponse::Roots(kept),
            _ => InputResponse::Sampling(kept),
        }
    }

    /// Replaces what is carried for `key` (used in this round) by `kept`.
    pub(crate) fn keep(&mut self, key: &str, kept: Value) {
        if let Some(resolved) = self.resolved.get_mut(key) {
            resolved.response = Response::Value(kept);
        }
    }

    /// The answers of earlier rounds and of this one, as the next state carries them: this
    /// round's after earlier ones, so the newer wins a key both hold. Empties both.
    pub(crate) fn take_for_next_round(&mut self) -> BTreeMap<String, Carried> {
        let mut carried = std::mem::take(&mut self.carried);
        for (key, resolved) in std::mem::take(&mut self.resolved) {
            let response = match resolved.response {
                Response::Text(text) => text,
                Response::Value(value) => json_text(&value),
                Response::Fresh => match self.responses.get(&key) {
                    Some(InputResponse::Elicit(result)) => json_text(&Normalized(result)),
                    Some(other) => json_text(other),
                    None => continue,
                },
            };
            let digest = resolved.digest;
            carried.insert(key, Carried { digest, response });
        }
        carried
    }

    /// Records that the question under `key` is asked again: the answer this request used
    /// for it is dropped (from this request and from earlier rounds), so the next lookup asks.
    pub(crate) fn reask(&mut self, key: &str, reask: Reask) {
        self.forget(key);
        self.reasks.insert(key.to_owned(), reask);
    }

    /// Drops the answer this request used for `key` (from this request and from earlier
    /// rounds), so the next lookup asks.
    pub(crate) fn forget(&mut self, key: &str) {
        self.resolved.remove(key);
        self.responses.remove(key);
        self.carried.remove(key);
    }

    /// Adds a question to this round.
    pub(crate) fn ask(&mut self, key: &str, digest: &str, request: InputRequest) {
        self.pending
            .insert(key.to_owned(), (digest.to_owned(), request));
    }
}

/// An answer used in this round, with the digest of the question it answers.
#[derive(Debug)]
pub(crate) struct Resolved {
    pub digest: String,
    pub response: Response,
}

/// What a [`Resolved`] answer holds: the text it was carried in, the value this round kept,
/// or nothing because it is this request's `inputResponses` entry (written as text only when
/// a state is sealed).
#[derive(Debug)]
pub(crate) enum Response {
    Text(Box<str>),
    Value(Value),
    Fresh,
}

/// An answer carried from round to round in `requestState`, with the digest of the question
/// it answers.
///
/// The answer stays JSON text: opening the state builds no `Value` (a handler that returns
/// early may never read it), and sealing it again copies the text. The text was written by
/// `serde_json` in this process or a replica holding the same keys, and comes back only
/// inside an authenticated state, so it is not checked again until a handler reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Carried {
    pub digest: String,
    /// The normalized elicitation result, or the sampling or roots result, as JSON text.
    pub response: Box<str>,
}

impl From<Carried> for Resolved {
    fn from(carried: Carried) -> Self {
        Self {
            digest: carried.digest,
            response: Response::Text(carried.response),
        }
    }
}

/// `value` as JSON text. Written straight into a buffer: `Value`'s `Display` goes through a
/// formatter adapter that checks every chunk for UTF-8 again.
fn json_text(value: &impl Serialize) -> Box<str> {
    // A `Value`, an `InputResponse` or a `Normalized` result: string keys, nothing that fails.
    serde_json::to_string(value)
        .unwrap_or_default()
        .into_boxed_str()
}

/// The most JSON one answer may hold, roughly counted: an answer is carried in every later
/// round's sealed state, so a client must not be able to make that state unopenable.
pub(crate) const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// The deepest one answer may nest: the sealed state wraps it a few levels deeper, and
/// serde_json refuses documents nested beyond 128.
pub(crate) const MAX_ANSWER_DEPTH: usize = 32;

/// Whether a response stays within [`MAX_ANSWER_BYTES`] and [`MAX_ANSWER_DEPTH`].
fn within_bounds(response: &InputResponse) -> bool {
    let value = match response {
        InputResponse::Elicit(result) => {
            return result.content.as_ref().is_none_or(|c| {
                c.iter()
                    .try_fold(0, |used, (k, v)| weigh(v, 2, used + k.len()))
                    .is_some()
            });
        }
        InputResponse::Malformed { raw, .. } => raw,
        InputResponse::Sampling(v) | InputResponse::Roots(v) | InputResponse::Unknown(v) => v,
    };
    weigh(value, 1, 0).is_some()
}

/// `used` plus the rough size of `value` at `depth`, or `None` once past either bound.
fn weigh(value: &Value, depth: usize, used: usize) -> Option<usize> {
    if depth > MAX_ANSWER_DEPTH || used > MAX_ANSWER_BYTES {
        return None;
    }
    let used = match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => used + 8,
        Value::String(s) => used + s.len() + 2,
        Value::Array(items) => items
            .iter()
            .try_fold(used + 2, |used, v| weigh(v, depth + 1, used))?,
        Value::Object(map) => map.iter().try_fold(used + 2, |used, (k, v)| {
            weigh(v, depth + 1, used + k.len() + 3)
        })?,
    };
    (used <= MAX_ANSWER_BYTES).then_some(used)
}

/// An answer kept as JSON text, read again (once).
fn parsed(key: &str, text: &str) -> Result<InputResponse, Interrupt> {
    serde_json::from_str(text).map_err(|e| internal(key, &e))
}

fn internal(key: &str, e: &serde_json::Error) -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        format!("the answer to `{key}` is not JSON: {e}"),
        None,
    ))
}

fn conflict(key: &str) -> Interrupt {
    Interrupt::error(JsonRpcError::new(
        INTERNAL_ERROR,
        format!("two different questions were asked under the key `{key}` in one request"),
        None,
    ))
}
