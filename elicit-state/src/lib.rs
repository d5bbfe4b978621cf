//! Sealed server state: tamper-proof, expiring, request-bound `requestState` tokens and
//! URL-mode handles, and the stores they are checked against.
//!
//! This crate is `elicit_runtime::state` (and URL mode's completion stores,
//! `elicit_runtime::url::{CompletionStore, …}`); depend on it alone to write a store (as
//! `elicit-redis` does) without the engine. The examples use the paths servers use.
//!
//! Under MCP 2026-07-28 (multi round-trip requests) a server that needs input returns an
//! `InputRequiredResult` carrying an opaque `requestState`, and the client echoes it byte for byte
//! on its retry. The spec requires servers to treat that string as attacker-controlled: protect
//! its integrity and reject anything that fails verification, and, against replay, bind it to the
//! authenticated principal, a short lifetime and the originating request. One-time redemption, if
//! needed, must be enforced server-side.
//!
//! This crate does all of that:
//!
//! - [`StateSealer`] seals a JSON payload with AES-256-GCM into an `es1.` token bound to a
//!   [`Binding`] (method, target, [`args_digest`] of the arguments, principal), its audience and
//!   an expiry, and opens it again with every check;
//! - [`KeyRing`] holds the sealing key and the retired keys that still open tokens (rotation),
//!   read from configuration by [`KeyRing::from_env`];
//! - [`ReplayGuard`] / [`MemoryReplayGuard`] make tokens single-use when that matters
//!   ([`StateSealer::redeem`], awaited: a guard may ask a shared store);
//! - [`StateError`] names the precise reason for the server's logs, while
//!   [`StateError::to_jsonrpc_error`] gives the client one uniform error for all of them.
//!
//! ```
//! use std::sync::Arc;
//! use elicit_runtime::state::{Binding, KeyRing, MemoryReplayGuard, StateSealer};
//! use serde_json::json;
//!
//! # let previous_key: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(151) ^ 0x5c);
//! let ring = KeyRing::new(2, [0x5A; 32]).with_old_key(1, previous_key)?;
//! let sealer = StateSealer::new(ring, "weather-server")
//!     .with_replay_guard(Arc::new(MemoryReplayGuard::new()));
//!
//! let args = json!({"location": "New York"});
//! let binding = Binding::tool_call("get_weather", &args).with_principal("user-123");
//! let token = sealer.seal_now(&binding, &json!({"asked": ["units"]}))?;
//!
//! // ... the client retries `tools/call` with the same name, arguments and token ...
//! match sealer.open_now::<serde_json::Value>(&token, &binding) {
//!     Ok(opened) => {
//!         // With a replay guard, redeem before using the payload (the request context does
//!         // this when the handler first asks).
//!         pollster::block_on(sealer.redeem(&opened, std::time::SystemTime::now()))?;
//!         assert_eq!(opened.payload["asked"][0], "units");
//!     }
//!     Err(err) => {
//!         eprintln!("refused requestState: {err}"); // precise, for the server's log
//!         let _client_error = err.to_jsonrpc_error(); // uniform, for the client
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod binding;
mod completion;
mod digest;
mod envelope;
mod error;
#[doc(hidden)]
pub mod frame;
mod keys;
mod random;
mod replay;
mod sealer;
mod signals;

use std::future::Future;
use std::pin::Pin;

/// A boxed, sendable future, as returned by the methods of the object-safe traits: the
/// [`ReplayGuard`], the [`CompletionStore`] and the runtime's 2025-11-25 back channel
/// (`elicit_runtime::legacy::LegacyPeer`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub use binding::Binding;
pub use completion::{Completion, CompletionStore, MemoryCompletionStore, StoreError};
pub use digest::args_digest;
pub use envelope::MAX_TTL;
pub use error::{
    INVALID_STATE_CODE, INVALID_STATE_MESSAGE, INVALID_STATE_REASON, SealError, StateError,
};
pub use keys::{KeyRing, KeyRingError, KeyWeakness};
pub use replay::{MemoryReplayGuard, Redemption, ReplayGuard};
pub use sealer::{DEFAULT_TTL, MAX_CLOCK_SKEW, MAX_TOKEN_LEN, Opened, StateSealer, TOKEN_PREFIX};
pub use signals::CompletionSignals;

// What only the engine (`elicit-runtime`) names: not part of the API.
#[doc(hidden)]
pub use binding::BindingBuf;
#[doc(hidden)]
pub use completion::{FIRST_POLL, MAX_POLL};
#[doc(hidden)]
pub use digest::{
    canonical_json, ct_eq, principal_hash, question_digest, question_digest_declared,
    question_digest_raw, short_digest,
};
#[doc(hidden)]
pub use envelope::{expiry_from_unix_secs, lifetime, ttl_secs};
#[doc(hidden)]
pub use replay::OpenedState;
