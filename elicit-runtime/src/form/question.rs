//! One question as asked: the form type, its key, the message and the defaults, possibly set
//! at the call site, and the digest that binds an answer to exactly this question.

use std::borrow::Cow;
use std::marker::PhantomData;

use std::future::Future;

use super::ElicitForm;
use super::answer::Answer;
use super::ask::ask_prepared;
use super::defaults::with_defaults;
use super::prepared::Prepared;
use crate::channel::InputChannel;
use crate::interrupt::Interrupt;
use crate::schema::RequestedSchema;
use crate::wire::{ElicitMode, INTERNAL_ERROR, JsonRpcError};

/// A form question ready to ask, with what the call site changed.
///
/// Created by the generated `question()` of a form type (or [`Question::new`]); asked with
/// [`Question::ask`]. A reworded message or different defaults make a different question: an
/// answer given to the old wording is never used for the new one.
///
/// ```
/// use elicit_runtime::{ElicitForm, Question};
///
/// /// Book a table
/// #[derive(ElicitForm)]
/// struct Booking {
///     #[elicit(minimum = 1, maximum = 12)]
///     guests: u8,
/// }
///
/// let question = Booking::question()
///     .message("Book a table at Chez Rust")
///     .defaults(BookingDefaults { guests: Some(4) });
/// let prepared = question.prepare().unwrap();
/// assert_eq!(prepared.message(), "Book a table at Chez Rust");
/// let schema = serde_json::to_value(prepared.schema()).unwrap();
/// assert_eq!(schema["properties"]["guests"]["default"], 4);
/// ```
pub struct Question<T: ElicitForm> {
    key: Cow<'static, str>,
    message: Option<String>,
    defaults: Option<T::Defaults>,
    strict: bool,
    reasks: Option<u8>,
    _form: PhantomData<fn() -> T>,
}

/// The key, message and settings; the defaults are shown only as given or not (a form's
/// defaults type need not be `Debug`).
impl<T: ElicitForm> std::fmt::Debug for Question<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Question")
            .field("key", &self.key)
            .field("message", &self.message)
            .field("defaults", &self.defaults.is_some())
            .field("strict", &self.strict)
            .field("reasks", &self.reasks)
            .finish()
    }
}

impl<T: ElicitForm> Default for Question<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: ElicitForm> Question<T> {
    /// The form's question as declared: its key, message and defaults.
    pub fn new() -> Self {
        Question {
            key: Cow::Borrowed(T::key()),
            message: None,
            defaults: None,
            strict: false,
            reasks: None,
            _form: PhantomData,
        }
    }

    /// Asks under another key, e.g. to ask the same form twice in one request.
    pub fn key(mut self, key: impl Into<Cow<'static, str>>) -> Self {
        self.key = key.into();
        self
    }

    /// Replaces the message shown to the user (e.g. naming the restaurant).
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Pre-fills fields with what the server already knows. Each given field gets a `default`
    /// in the schema, leaves `required`, and decodes to that value when the answer omits it.
    pub fn defaults(mut self, defaults: T::Defaults) -> Self {
        self.defaults = Some(defaults);
        self
    }

    /// Counts an answer only when sealed state shows this server asked exactly this question
    /// in the round before; an answer that arrives unasked (one-shot `inputResponses`, a
    /// replaying gateway, params a model wrote) is ignored and the question is asked. Use it
    /// for questions that confirm spending money or deleting data; see
    /// [`ElicitServer::with_strict_provenance`](crate::ElicitServer::with_strict_provenance)
    /// for the trade-off and the server-wide setting.
    pub fn strict_provenance(mut self) -> Self {
        self.strict = true;
        self
    }

    /// Asks again at most `times` times when an accepted answer fails the form's checks;
    /// `0` turns re-asking off for this question, so such an answer ends the call with
    /// `-32602` at once. Without it the server's limit applies
    /// ([`ElicitServer::with_max_reasks`](crate::ElicitServer::with_max_reasks), by default
    /// [`DEFAULT_MAX_REASKS`](crate::form::DEFAULT_MAX_REASKS)).
    ///
    /// Turn it off where an invalid answer says something a person should not be asked to
    /// fix, e.g. a form a client fills in by itself.
    ///
    /// ```
    /// use elicit_runtime::{ElicitForm, Question};
    ///
    /// /// Book a table
    /// #[derive(ElicitForm)]
    /// struct Booking {
    ///     #[elicit(minimum = 1, maximum = 12)]
    ///     guests: u8,
    /// }
    ///
    /// let once: Question<Booking> = Booking::question().reasks(0);
    /// # let _ = once;
    /// ```
    pub fn reasks(mut self, times: u8) -> Self {
        self.reasks = Some(times);
        self
    }

    /// The key, message and schema as they will be sent, and their digest.
    ///
    /// Fails when a call-site default breaks the form's own constraints (a server bug,
    /// reported as an internal error).
    pub fn prepare(&self) -> Result<Prepared, Interrupt> {
        let message = self.message.as_deref().unwrap_or_else(|| T::message());
        let mut schema = Cow::Borrowed(T::requested_schema());
        if let Some(defaults) = &self.defaults {
            let content = T::defaults_content(defaults);
            if !content.is_empty() {
                schema = Cow::Owned(with_defaults(T::requested_schema(), &content).map_err(
                    |reason| {
                        Interrupt::error(JsonRpcError::new(
                            INTERNAL_ERROR,
                            format!("invalid call-site default for `{}`: {reason}", self.key),
                            None,
                        ))
                    },
                )?);
            }
        }
        // The question as declared is the common case: its digest is computed once per type.
        let declared =
            self.message.is_none() && matches!(schema, Cow::Borrowed(_)) && self.key == T::key();
        let digest = match &schema {
            _ if declared => T::__elicit_digest().to_owned(),
            // Another key or message over the form's own schema: its canonical text is kept.
            Cow::Borrowed(own) => crate::state::question_digest_declared(&self.key, message, own),
            Cow::Owned(schema) => question_digest(&self.key, message, schema),
        };
        Ok(Prepared {
            key: self.key.to_string(),
            message: message.to_owned(),
            schema,
            digest,
        })
    }

    /// Asks this question through `channel` (a request's [`ElicitContext`](crate::ElicitContext)
    /// or a task's input).
    ///
    /// On 2026-07-28: resolves to the answer if this request (or an earlier round, through
    /// `requestState`) carries one for exactly this question; otherwise adds the question to
    /// this round and resolves to [`Interrupt::input_required`], so `?` ends the handler. Ask
    /// several questions before the first `?` to batch them into one round. On 2025-11-25:
    /// sends `elicitation/create` to the client and waits for the reply.
    ///
    /// When accepted content breaks the form's constraints, the question is asked again: the
    /// same key, the message followed by one line per bad field (its title or name and what
    /// was wrong), and the values that passed pre-filled as `default`s. On 2026-07-28 that is
    /// the next round (answers to other questions are kept); on 2025-11-25 a second
    /// `elicitation/create`. After [`reasks`](Self::reasks) re-asks (by default
    /// [`DEFAULT_MAX_REASKS`](crate::form::DEFAULT_MAX_REASKS)) such an answer fails with
    /// `-32602` listing every bad field. A decline or cancel is never asked again.
    ///
    /// Fails with `-32021` when the client did not declare form elicitation (see
    /// [`Question::ask_if_supported`] for questions the handler can do without).
    pub fn ask<C: InputChannel + ?Sized>(
        self,
        channel: &mut C,
    ) -> impl Future<Output = Result<Answer<T>, C::Error>> + Send + '_ {
        if self.strict {
            channel.rules().require_provenance(&self.key);
        }
        let prepared = self.prepare();
        ask_prepared(channel, prepared, self.reasks, &T::decode_with)
    }

    /// Asks, on `channel`, for the fields of this form the model left out or got wrong:
    /// [`fill_in`](super::fill_in).
    pub(super) fn ask_missing<'a, C: InputChannel + ?Sized>(
        self,
        channel: &'a mut C,
        prepare: impl FnOnce(&str, &str) -> Result<Prepared, Interrupt>,
        decode: &'a super::decode::Decode<T>,
    ) -> impl Future<Output = Result<Answer<T>, C::Error>> + Send + 'a {
        if self.strict {
            channel.rules().require_provenance(&self.key);
        }
        let message = self.message.as_deref().unwrap_or_else(|| T::message());
        let prepared = prepare(&self.key, message);
        ask_prepared(channel, prepared, self.reasks, decode)
    }

    /// Asks only if the client can show forms; resolves to `None` otherwise.
    pub fn ask_if_supported<C: InputChannel + ?Sized>(
        self,
        channel: &mut C,
    ) -> impl Future<Output = Result<Option<Answer<T>>, C::Error>> + Send + '_ {
        let supported = channel.supports(ElicitMode::Form);
        let asked = supported.then(|| self.ask(channel));
        async move {
            match asked {
                Some(asked) => asked.await.map(Some),
                None => Ok(None),
            }
        }
    }
}

/// A short digest of key, message and canonical schema (binds answers to questions).
#[doc(hidden)]
pub fn question_digest(key: &str, message: &str, schema: &RequestedSchema) -> String {
    crate::state::question_digest(key, message, schema)
}

/// SHA-256 over length-prefixed `parts`, cut to 16 bytes, as unpadded base64url: the digest
/// that binds answers to questions and URL flows to calls.
pub(crate) fn short_digest(parts: &[&[u8]]) -> String {
    crate::state::short_digest(parts)
}
