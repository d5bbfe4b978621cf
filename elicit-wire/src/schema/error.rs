//! Errors of the schema module: bad answers ([`ContentError`]) and bad schemas ([`SchemaError`]).

use std::fmt;

/// One field of an answer that does not satisfy its property.
///
/// ```
/// use elicit_wire::schema::FieldError;
///
/// let e = FieldError::new("age", "must be at least 18");
/// assert_eq!(e.to_string(), "`age` must be at least 18");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldError {
    /// The wire name of the property; the empty string stands for the content object itself.
    pub field: String,
    /// What is wrong, in lowercase English without a trailing period (e.g. `is required`).
    pub reason: String,
}

impl FieldError {
    /// The error `reason` about the property `field` (its wire name; `""` for the content
    /// object itself).
    ///
    /// ```
    /// let e = elicit_wire::schema::FieldError::new("", "must be an object");
    /// assert!(e.is_root());
    /// ```
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// Whether this error is about the content object as a whole rather than one field.
    pub fn is_root(&self) -> bool {
        self.field.is_empty()
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            f.write_str(&self.reason)
        } else {
            write!(f, "`{}` {}", self.field, self.reason)
        }
    }
}

/// Every way an answer's `content` fails its [`RequestedSchema`](super::RequestedSchema).
///
/// Errors keep the order in which they were pushed; [`RequestedSchema::validate`](super::RequestedSchema::validate)
/// pushes them in property declaration order.
///
/// ```
/// use elicit_wire::schema::ContentError;
///
/// let mut errors = ContentError::new();
/// assert_eq!(errors.clone().into_result(5), Ok(5));
/// errors.push("age", "must be at least 18");
/// errors.push("email", "is required");
/// assert_eq!(
///     errors.to_string(),
///     "invalid form content: `age` must be at least 18; `email` is required"
/// );
/// assert!(errors.into_result(5).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContentError {
    errors: Vec<FieldError>,
}

impl ContentError {
    /// An empty collection of errors.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that `field` (a wire name, or `""` for the whole content) fails for `reason`.
    pub fn push(&mut self, field: impl Into<String>, reason: impl Into<String>) {
        self.errors.push(FieldError {
            field: field.into(),
            reason: reason.into(),
        });
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The recorded errors, in the order they were pushed.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// `Ok(ok)` when nothing was recorded, otherwise `Err(self)`.
    pub fn into_result<T>(self, ok: T) -> Result<T, ContentError> {
        if self.is_empty() { Ok(ok) } else { Err(self) }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid form content")?;
        for (i, error) in self.errors.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            fmt::Display::fmt(error, f)?;
        }
        Ok(())
    }
}

impl std::error::Error for ContentError {}

/// A `requestedSchema` that is not a valid form-mode schema, with the place at fault.
///
/// `path` is dot-joined and relative to the schema object (`properties.age.minimum`,
/// `required.2`); errors about the object itself use the path `requestedSchema`.
///
/// ```
/// use elicit_wire::schema::SchemaError;
///
/// let e = SchemaError::new("properties.age.minimum", "expected a number");
/// assert_eq!(e.to_string(), "`properties.age.minimum`: expected a number");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaError {
    /// Where the problem is, e.g. `properties.colors.items.anyOf.1.title`.
    pub path: String,
    /// What is wrong, in lowercase English without a trailing period.
    pub message: String,
}

impl SchemaError {
    /// Path used for errors about the schema object itself.
    pub(crate) const ROOT: &'static str = "requestedSchema";

    /// The error `message` about the place `path` in the schema.
    ///
    /// ```
    /// let e = elicit_wire::schema::SchemaError::new("required.2", "names no property");
    /// assert_eq!(e.path, "required.2");
    /// ```
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for SchemaError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_error_display_and_accessors() {
        let mut e = ContentError::new();
        assert!(e.is_empty());
        assert_eq!(e.to_string(), "invalid form content");
        e.push("", "must be an object");
        assert_eq!(e.to_string(), "invalid form content: must be an object");
        e.push(String::from("age"), "must be at least 18");
        assert!(!e.is_empty());
        assert_eq!(
            e.to_string(),
            "invalid form content: must be an object; `age` must be at least 18"
        );
        assert_eq!(e.errors().len(), 2);
        assert!(e.errors()[0].is_root());
        assert_eq!(e.errors()[1].field, "age");
        assert_eq!(e.errors()[1].reason, "must be at least 18");
        let err: Box<dyn std::error::Error> = Box::new(e.clone());
        assert_eq!(err.to_string(), e.to_string());
    }

    #[test]
    fn into_result() {
        assert_eq!(ContentError::new().into_result("ok"), Ok("ok"));
        let mut e = ContentError::new();
        e.push("x", "is required");
        assert_eq!(e.clone().into_result(()), Err(e));
    }

    #[test]
    fn schema_error_display() {
        let e = SchemaError::new(SchemaError::ROOT, "expected an object");
        assert_eq!(e.to_string(), "`requestedSchema`: expected an object");
        let err: &dyn std::error::Error = &e;
        assert!(err.source().is_none());
    }
}

/// Why a field's value was refused: a reason a user can read, without the field's name ("must
/// be at most 10"); the form's error names the field. What `ElicitField::decode` (in `elicit-runtime`) and
/// [`PropertySchema::check`](crate::schema::PropertySchema::check) fail with.
///
/// ```
/// use elicit_wire::schema::InvalidValue;
///
/// let error = InvalidValue::new("must start with `@`");
/// assert_eq!(error.reason(), "must start with `@`");
/// assert_eq!(error.to_string(), "must start with `@`");
/// // A `&str` or `String` converts, so `Err("…".into())` reads as before.
/// let from_str: InvalidValue = "is required".into();
/// assert_eq!(from_str, InvalidValue::new("is required"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidValue(String);

impl InvalidValue {
    /// A refusal with `reason`.
    pub fn new(reason: impl Into<String>) -> Self {
        InvalidValue(reason.into())
    }

    /// The reason, for the user.
    pub fn reason(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidValue {}

impl From<String> for InvalidValue {
    fn from(reason: String) -> Self {
        InvalidValue(reason)
    }
}

impl From<&str> for InvalidValue {
    fn from(reason: &str) -> Self {
        InvalidValue(reason.to_owned())
    }
}
