//! What a sealed state is bound to.

use serde_json::Value;

use super::digest::args_digest;

/// What a sealed state is bound to: the originating request and the authenticated principal.
///
/// The same binding must be presented when the state comes back; any difference refuses it. The
/// MCP spec asks servers to bind `requestState` to the authenticated principal and to the
/// originating request (method plus a digest of its salient params).
///
/// ```
/// use elicit_runtime::state::{Binding, args_digest};
/// use serde_json::json;
///
/// let args = json!({"location": "New York"});
/// let binding = Binding::tool_call("get_weather", &args).with_principal("user-123");
/// assert_eq!(binding.method, "tools/call");
/// assert_eq!(binding.target, "get_weather");
/// assert_eq!(binding.args_digest, args_digest(&args));
/// assert_eq!(binding.principal, Some("user-123"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binding<'a> {
    /// The JSON-RPC method of the originating request: `tools/call`, `prompts/get` or
    /// `resources/read`.
    pub method: &'a str,
    /// The tool name, prompt name or resource URI.
    pub target: &'a str,
    /// [`args_digest`] of the request's arguments.
    pub args_digest: [u8; 16],
    /// The authenticated subject (e.g. the `sub` of the MCP authorization token), if any. Sealed
    /// only as a hash salted with the sealer's audience, never in clear.
    pub principal: Option<&'a str>,
}

impl<'a> Binding<'a> {
    /// A binding for `method` on `target` with `arguments` (`&Value::Null` when absent), and no
    /// principal.
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::json;
    ///
    /// let binding = Binding::new("tools/call", "deploy", &json!({"env": "prod"}));
    /// assert_eq!(binding.principal, None);
    /// ```
    #[must_use]
    pub fn new(method: &'a str, target: &'a str, arguments: &Value) -> Self {
        Self {
            method,
            target,
            args_digest: args_digest(arguments),
            principal: None,
        }
    }

    /// A `tools/call` binding for tool `name` with `arguments`.
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::Value;
    ///
    /// assert_eq!(Binding::tool_call("ping", &Value::Null).method, "tools/call");
    /// ```
    #[must_use]
    pub fn tool_call(name: &'a str, arguments: &Value) -> Self {
        Self::new("tools/call", name, arguments)
    }

    /// A `prompts/get` binding for prompt `name` with `arguments`.
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::json;
    ///
    /// assert_eq!(Binding::prompt_get("review", &json!({})).method, "prompts/get");
    /// ```
    #[must_use]
    pub fn prompt_get(name: &'a str, arguments: &Value) -> Self {
        Self::new("prompts/get", name, arguments)
    }

    /// A `resources/read` binding for resource `uri` (which has no arguments).
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    ///
    /// let binding = Binding::resource_read("file:///notes.txt");
    /// assert_eq!((binding.method, binding.target), ("resources/read", "file:///notes.txt"));
    /// ```
    #[must_use]
    pub fn resource_read(uri: &'a str) -> Self {
        Self::new("resources/read", uri, &Value::Null)
    }

    /// The same binding for `principal` (a `&str`, or an `Option<&str>` as it comes from the
    /// transport's authentication).
    ///
    /// ```
    /// use elicit_runtime::state::Binding;
    /// use serde_json::Value;
    ///
    /// let subject: Option<&str> = None;
    /// let anonymous = Binding::tool_call("ping", &Value::Null).with_principal(subject);
    /// assert_eq!(anonymous.principal, None);
    /// let alice = anonymous.with_principal("alice");
    /// assert_eq!(alice.principal, Some("alice"));
    /// ```
    #[must_use]
    pub fn with_principal(self, principal: impl Into<Option<&'a str>>) -> Self {
        Self {
            principal: principal.into(),
            ..self
        }
    }
}

/// An owned [`Binding`], for what outlives the request's borrow (the request context, a
/// task's URL mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingBuf {
    /// [`Binding::method`], owned.
    pub method: String,
    /// [`Binding::target`], owned.
    pub target: String,
    /// [`Binding::args_digest`].
    pub args_digest: [u8; 16],
    /// [`Binding::principal`], owned.
    pub principal: Option<String>,
}

impl BindingBuf {
    /// The [`Binding`] it owns, borrowed.
    ///
    /// ```
    /// use elicit_state::{Binding, BindingBuf};
    /// use serde_json::json;
    ///
    /// let binding = Binding::tool_call("deploy", &json!({"env": "prod"}));
    /// let owned = BindingBuf {
    ///     method: binding.method.to_owned(),
    ///     target: binding.target.to_owned(),
    ///     args_digest: binding.args_digest,
    ///     principal: None,
    /// };
    /// assert_eq!(owned.binding(), binding);
    /// ```
    pub fn binding(&self) -> Binding<'_> {
        Binding {
            method: &self.method,
            target: &self.target,
            args_digest: self.args_digest,
            principal: self.principal.as_deref(),
        }
    }
}

// Hidden with the type: it would otherwise show on `Binding`'s page, naming a type users
// cannot reach.
#[doc(hidden)]
impl From<Binding<'_>> for BindingBuf {
    fn from(b: Binding<'_>) -> Self {
        BindingBuf {
            method: b.method.to_owned(),
            target: b.target.to_owned(),
            args_digest: b.args_digest,
            principal: b.principal.map(str::to_owned),
        }
    }
}
