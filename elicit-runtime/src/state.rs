//! Sealed server state: tamper-proof, expiring, request-bound `requestState` tokens, the key
//! ring they are sealed with and the replay guard that makes them single use: the items of the
//! [`elicit_state`] crate (its front page has the whole story, with an example), at the paths
//! they always had. URL mode's completion stores are at [`crate::url`].

#[doc(inline)]
pub use elicit_state::{
    Binding, DEFAULT_TTL, INVALID_STATE_CODE, INVALID_STATE_MESSAGE, INVALID_STATE_REASON, KeyRing,
    KeyRingError, KeyWeakness, MAX_CLOCK_SKEW, MAX_TOKEN_LEN, MAX_TTL, MemoryReplayGuard, Opened,
    Redemption, ReplayGuard, SealError, StateError, StateSealer, TOKEN_PREFIX, args_digest,
};

/// What only the engine names: digests, lifetimes, the sealed frame, carried state.
pub(crate) use elicit_state::{
    BindingBuf, Completion, CompletionStore, FIRST_POLL, MAX_POLL, OpenedState, StoreError,
    canonical_json, ct_eq, expiry_from_unix_secs, frame, lifetime, principal_hash, question_digest,
    question_digest_declared, question_digest_raw, short_digest, ttl_secs,
};
