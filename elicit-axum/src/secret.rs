//! A value a person typed on the server's own page (an API key, a password): held on the server
//! only, never shown by `Debug`, wiped from memory when dropped.

use std::fmt;

use zeroize::Zeroizing;

/// A secret typed on the landing page's masked inputs ([`SecretPage`](crate::SecretPage), or a
/// [`ConnectHook`](crate::ConnectHook) that asks for [`SecretField`]s). Its `Debug` is redacted,
/// it has no `Display` and no `Serialize`, and its bytes are zeroed when it is dropped: read it
/// with [`expose`](Secret::expose) where it is used (the third-party API call, the vault).
///
/// ```
/// use elicit_axum::Secret;
///
/// let key = Secret::new("sk-live-123");
/// assert_eq!(key.expose(), "sk-live-123");
/// assert_eq!(format!("{key:?}"), "Secret(<redacted>)");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Zeroizing<String>);

impl Secret {
    /// A secret holding `value` (a test's stand-in for what a person types).
    ///
    /// ```
    /// # use elicit_axum::Secret;
    /// assert!(!Secret::new("hunter2").is_empty());
    /// ```
    pub fn new(value: impl Into<String>) -> Self {
        Secret(Zeroizing::new(value.into()))
    }

    /// The value as typed.
    ///
    /// ```
    /// # use elicit_axum::Secret;
    /// assert!(Secret::new("sk-live-123").expose().starts_with("sk-"));
    /// ```
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether nothing was typed.
    ///
    /// ```
    /// # use elicit_axum::Secret;
    /// assert!(Secret::new("").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// One masked input of the landing page: the name the server reads it by and the label the
/// person sees (plain text, escaped). Shown as `<input type="password" autocomplete="off">`.
///
/// ```
/// use elicit_axum::SecretField;
///
/// let field = SecretField::new("api_key", "OpenAI API key");
/// assert_eq!((field.name(), field.label()), ("api_key", "OpenAI API key"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretField {
    name: String,
    label: String,
}

impl SecretField {
    /// The field `name` (what [`OpenedLink::secret`](crate::OpenedLink::secret) finds it by),
    /// labelled `label` on the page.
    ///
    /// ```
    /// # use elicit_axum::SecretField;
    /// let field = SecretField::new("token", "Personal access token");
    /// # let _ = field;
    /// ```
    pub fn new(name: impl Into<String>, label: impl Into<String>) -> Self {
        SecretField {
            name: name.into(),
            label: label.into(),
        }
    }

    /// The name the server reads it by.
    ///
    /// ```
    /// # use elicit_axum::SecretField;
    /// assert_eq!(SecretField::new("api_key", "API key").name(), "api_key");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The label the person sees.
    ///
    /// ```
    /// # use elicit_axum::SecretField;
    /// assert_eq!(SecretField::new("api_key", "API key").label(), "API key");
    /// ```
    pub fn label(&self) -> &str {
        &self.label
    }
}

/// The form field of the `index`th secret (names from the server never reach the markup's
/// attributes: the posted names are the route's own).
pub(super) fn form_name(index: usize) -> String {
    format!("secret{index}")
}

#[cfg(test)]
mod tests {
    use super::Secret;

    #[test]
    fn debug_never_shows_the_value() {
        let secret = Secret::new("sk-live-123");
        let shown = format!("{secret:?} {:?} {secret:#?}", Some(&secret));
        assert!(!shown.contains("sk-live"), "{shown}");
    }
}
