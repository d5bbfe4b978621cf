//! A question ready to send: its final key, message and schema, and the digest that binds
//! answers to it. `Question::prepare` makes one; asking and decoding read it.

use std::borrow::Cow;

use crate::schema::RequestedSchema;

/// A question with its final key, message and schema.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub(super) key: String,
    pub(super) message: String,
    pub(super) schema: Cow<'static, RequestedSchema>,
    pub(super) digest: String,
}

impl Prepared {
    /// The `inputRequests` key.
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The message shown to the user.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The `requestedSchema`.
    pub fn schema(&self) -> &RequestedSchema {
        &self.schema
    }
    /// The schema to send: the form's own `'static` one is shared, not copied.
    pub(crate) fn shared_schema(&self) -> Cow<'static, RequestedSchema> {
        self.schema.clone()
    }
    /// The digest binding answers to this exact question (key, message and schema).
    pub fn digest(&self) -> &str {
        &self.digest
    }
}
