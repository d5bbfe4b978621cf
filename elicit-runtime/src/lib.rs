#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Layers, lowest first; each module uses only those above it in this list:
// elicit-wire (wire, schema: a crate of its own) → state → interrupt/channel/legacy →
// field/choice → form → server → request → url/tasks. SDK and web-framework adapters are crates of their own (elicit-rmcp,
// elicit-axum: an adapter's channel names its SDK's error as `InputChannel::Error`), and so
// are the Redis-backed stores (elicit-redis) and the test helpers (elicit-testing), on this
// crate's public API.
mod future;
// The protocol is the `elicit-wire` crate: its items at the paths they always had.
#[doc(inline)]
pub use elicit_wire::schema;
pub mod state;
pub mod wire;

mod channel;
mod interrupt;
pub mod legacy;

mod choice;
pub mod field;
pub mod form;

mod server;
mod waits;

pub mod request;

pub mod tasks;
pub mod url;

pub use channel::{ChannelRules, InputChannel};
pub use choice::ElicitEnum;
/// Declares a URL-mode elicitation: `#[elicit_url(message = "…", url = "https://…")]` on a
/// struct whose fields are the server-side state bound to the request (sealed into the link,
/// read back by your page and by the tool). It implements [`ElicitUrl`](trait@ElicitUrl).
///
/// ```
/// use elicit_runtime::{ElicitUrl, elicit_url};
///
/// #[elicit_url(message = "Connect your GitHub account", url = "https://auth.example.com/connect/github")]
/// struct Connect {
///     provider: String,
///     scopes: String,
/// }
///
/// assert_eq!(Connect::KEY, "connect");
/// assert_eq!(Connect::MESSAGE, "Connect your GitHub account");
/// // The sealed handle goes into the `elicitation` query parameter (or where `{handle}` is).
/// assert_eq!(
///     Connect::URL_TEMPLATE,
///     "https://auth.example.com/connect/github?elicitation={handle}"
/// );
/// ```
///
/// # Arguments
///
/// | argument | meaning |
/// |---|---|
/// | `message = "…"` | required, not empty: why the user should open the page |
/// | `url = "…"` | required: the page, `https` (plain `http` only on `localhost`, `127.0.0.1`, `[::1]`), without user info, credentials or personal data in its path or query; `{handle}` at most once places the handle |
/// | `key = "…"` | the key it is asked under; the struct's name in `snake_case` by default |
/// | `crate = "…"` | where generated code finds this crate, for a crate that re-exports it |
///
/// On a field, `#[elicit(show)]` or `#[elicit(show = "Label")]` puts its value on the
/// confirmation page ([`ElicitUrl::shown`]): what the user confirms, such as which repository.
/// On a field, `#[elicit(not_secret = "reason")]` allows a name that looks like a secret
/// (`order_token`); any other field named like one is refused, since the state must not hold
/// secrets. Generic structs and enums are refused. Every mistake is reported in one compile,
/// on the argument or field at fault.
///
/// # Serde
///
/// The state is serialized into the link, so the struct needs `Serialize` and `Deserialize`.
/// The attribute derives them through this crate's serde: you need no serde dependency. If a
/// `#[derive(…)]` list **below** the attribute already names one of them (`Serialize`,
/// `serde::Serialize`, …), only the other is added, and your `#[serde(…)]` attributes apply.
///
/// The order matters: the compiler expands a `#[derive]` written *above* an attribute macro
/// before that macro runs, so `#[elicit_url]` cannot see it. Derives other than serde's may
/// go above it; serde derives above it would be derived twice (error E0119). An
/// `#[elicit(crate = "…")]` must also go below it (or pass `crate = "…"` as an argument).
///
/// ```
/// use elicit_runtime::elicit_url;
/// use serde::Serialize;
///
/// #[elicit_url(message = "Connect your account", url = "https://example.com/connect")]
/// #[derive(Debug, Clone, Serialize)] // `Deserialize` is added, and reads `rename_all`
/// #[serde(rename_all = "camelCase")]
/// struct ConnectAccount {
///     provider_name: String,
/// }
/// ```
///
/// # The derive spelling
///
/// `#[derive(ElicitUrl)]` with the same arguments in a container `#[elicit(…)]` is the same
/// declaration, checked by the same rules. It adds no serde derive (a struct without them gets
/// an error saying so):
///
/// ```
/// use elicit_runtime::ElicitUrl;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, ElicitUrl)]
/// #[elicit(message = "Connect your account", url = "https://example.com/connect")]
/// struct ConnectAccount {
///     provider: String,
/// }
/// ```
pub use elicit_macros::elicit_url;
pub use elicit_macros::{ElicitEnum, ElicitForm, ElicitUrl};
pub use field::ElicitField;
pub use form::{Answer, ElicitForm, Question};
pub use interrupt::Interrupt;
pub use request::{ContextError, ElicitContext, Reply};
pub use server::ElicitServer;
pub use url::{ElicitUrl, UrlAnswer};

#[doc(hidden)]
pub mod __private;

// The bodies of the fuzz targets, outside `src/` and outside the published package: compiled
// only with `--cfg fuzzing` (cargo-fuzz sets it; `./scripts/test` replays the corpora with it).
// They derive forms in this crate, and derived code names `::elicit_runtime`.
#[cfg(fuzzing)]
extern crate self as elicit_runtime;
#[cfg(fuzzing)]
#[doc(hidden)]
#[path = "../fuzz_targets/mod.rs"]
pub mod fuzz_targets;
