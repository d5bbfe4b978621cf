//! Form-mode elicitations: the trait the derive implements, one question as asked, the
//! user's typed answer, and decoding an answer into the form. Nothing here knows how a
//! question reaches the client: that is the [`InputChannel`]'s job.

mod answer;
mod ask;
mod decode;
mod defaults;
mod fill;
mod input_schema;
mod prepared;
mod question;
mod reask;
mod resolve;

use std::future::Future;

use serde_json::{Map, Value};

pub use crate::channel::{DEFAULT_MAX_REASKS, Reask};
pub use answer::Answer;
pub(crate) use decode::elicit_result;
pub use fill::fill_in;
pub use input_schema::input_schema;
pub use prepared::Prepared;
pub(crate) use question::short_digest;
pub use question::{Question, question_digest};
pub use resolve::{Resolve, Resolved};

use crate::channel::InputChannel;
use crate::schema::{ContentError, RequestedSchema};

/// A form-mode elicitation: the message shown to the user, the `requestedSchema` the client
/// renders, and the decoder that turns an accepted answer into `Self`.
///
/// Derive it with `#[derive(ElicitForm)]`; the derive proves at compile time that the form is
/// flat, primitive and free of secrets.
///
/// ```
/// use elicit_runtime::ElicitForm;
///
/// /// Where should we deliver?
/// #[derive(Debug, ElicitForm)]
/// struct Delivery {
///     /// Street and number
///     #[elicit(min_length = 3)]
///     street: String,
///     #[elicit(minimum = 1, maximum = 10)]
///     parcels: u8,
///     express: Option<bool>,
/// }
///
/// assert_eq!(Delivery::message(), "Where should we deliver?");
/// let schema = serde_json::to_value(Delivery::requested_schema()).unwrap();
/// assert_eq!(schema["required"], serde_json::json!(["street", "parcels"]));
///
/// let answer = serde_json::json!({"street": "Main St 1", "parcels": 2});
/// let delivery = Delivery::from_content(&answer).unwrap();
/// assert_eq!(delivery.parcels, 2);
/// assert!(Delivery::from_content(&serde_json::json!({"street": "x"})).is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an elicitation form",
    label = "not a form",
    note = "a question is a struct with `#[derive(ElicitForm)]`; add it to `{Self}` (a URL-mode \
            request is an `#[elicit_url]` struct)"
)]
pub trait ElicitForm: Sized + 'static {
    /// The key this form is asked under in `inputRequests` (`#[elicit(key = "…")]`, or the
    /// struct's name in snake_case).
    fn key() -> &'static str;
    /// The message shown to the user (`#[elicit(message = "…")]` or the struct's doc comment).
    fn message() -> &'static str;
    /// The exact `requestedSchema`, built on first use and shared afterwards.
    fn requested_schema() -> &'static RequestedSchema;
    /// Decodes and validates the `content` of an accepted answer.
    ///
    /// Every constraint the schema advertises is enforced; the error lists every failing field.
    /// Unknown keys are ignored; absent optional fields become `None`, absent fields with a
    /// `default` take it.
    fn from_content(content: &Value) -> Result<Self, ContentError> {
        Self::decode_with(content, Self::requested_schema())
    }
    /// Decodes `content` against `schema`, which must be this form's schema, possibly with
    /// call-site defaults (see [`Question::defaults`](crate::Question::defaults)).
    fn decode_with(content: &Value, schema: &RequestedSchema) -> Result<Self, ContentError>;
    /// Call-site defaults: the generated `<Form>Defaults` struct, every field optional.
    type Defaults: Default;
    /// The content the given call-site defaults pre-fill.
    fn defaults_content(defaults: &Self::Defaults) -> Map<String, Value>;

    /// The digest of the question as declared (key, message, schema), computed once.
    #[doc(hidden)]
    fn __elicit_digest() -> &'static str;
    /// The wire names of the fields `#[elicit(user_decides)]` marks: the user's to decide, so
    /// [`form::fill_in`](crate::form::fill_in) asks them even when the model gave a valid value,
    /// keeps them required, and shows that value only as a suggestion (an answer must give the
    /// field itself).
    fn user_decides() -> &'static [&'static str] {
        &[]
    }
    /// The wire names of the fields `#[elicit(model_required)]` marks: the ones a tool's
    /// [`input_schema`] lists in `required`, so the model must give them. Every other field
    /// the model may leave out, and the user is asked for it.
    fn model_required() -> &'static [&'static str] {
        &[]
    }

    /// This form's question, to change its key, message or defaults before asking.
    fn question() -> Question<Self> {
        Question::new()
    }

    /// Asks the user to fill in this form, as declared; see [`Question::ask`].
    fn ask<C: InputChannel + ?Sized>(
        channel: &mut C,
    ) -> impl Future<Output = Result<Answer<Self>, C::Error>> + Send + '_ {
        Question::<Self>::new().ask(channel)
    }

    /// Asks only if the client can show forms (`None` otherwise); see
    /// [`Question::ask_if_supported`].
    fn ask_if_supported<C: InputChannel + ?Sized>(
        channel: &mut C,
    ) -> impl Future<Output = Result<Option<Answer<Self>>, C::Error>> + Send + '_ {
        Question::<Self>::new().ask_if_supported(channel)
    }
    /// The `content` a client would send to answer with this value.
    fn to_content(&self) -> Map<String, Value>;
}
