//! What every target shares: a representative form and URL elicitation, the fixed test keys,
//! the server they make, a fixed clock and an executor for futures that never wait.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ElicitServer;
use crate::state::{KeyRing, MemoryReplayGuard, StateSealer};
use crate::url::{MemoryCompletionStore, UrlSettings};

/// A select of the form (plain wire values, renamed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, crate::ElicitEnum)]
#[elicit(rename_all = "kebab-case")]
pub enum Seating {
    /// Inside, by the window.
    IndoorWindow,
    /// Outside.
    Terrace,
    /// At the bar.
    Bar,
}

/// A titled select of the form, for its multi-select.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, crate::ElicitEnum)]
pub enum Extra {
    /// A high chair.
    #[elicit(rename = "high-chair", title = "High chair")]
    HighChair,
    /// A cake.
    #[elicit(rename = "cake", title = "Birthday cake")]
    Cake,
    /// Flowers.
    #[elicit(rename = "flowers", title = "Flowers")]
    Flowers,
}

/// The representative form: every kind of field, every constraint, formats, an optional and
/// defaulted fields.
#[derive(Debug, Clone, PartialEq, crate::ElicitForm)]
#[elicit(message = "Book a table", rename_all = "camelCase")]
pub struct Booking {
    /// Your name
    #[elicit(min_length = 2, max_length = 40)]
    pub name: String,
    /// Where we send the confirmation
    #[elicit(format = "email", max_length = 64)]
    pub email: String,
    /// The day
    #[elicit(format = "date")]
    pub day: String,
    /// When exactly, if you know
    #[elicit(format = "date-time")]
    pub arrival: Option<String>,
    /// Your website
    #[elicit(format = "uri")]
    pub website: Option<String>,
    /// How many of you
    #[elicit(minimum = 1, maximum = 12)]
    pub guests: u8,
    /// Tip in percent
    #[elicit(minimum = -1.5, maximum = 30)]
    pub tip: f64,
    /// Loyalty number
    pub loyalty: Option<i64>,
    /// Where to sit
    #[elicit(default = "terrace")]
    pub seating: Seating,
    /// Anything extra
    #[elicit(max_items = 2)]
    pub extras: Vec<Extra>,
    /// Remind me the day before
    #[elicit(default = true)]
    pub reminder: bool,
    /// How long you stay, in hours
    #[elicit(default = 2, minimum = 1, maximum = 6)]
    pub hours: u16,
}

/// The representative URL elicitation; its fields are the state bound to the handle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, crate::ElicitUrl)]
#[elicit(
    message = "Connect your GitHub account to import issues",
    url = "https://connect.example.com/github",
    key = "connect_github"
)]
pub struct ConnectGithub {
    /// The provider.
    pub provider: String,
    /// The repository to import from.
    pub repo: String,
}

/// The state every `ConnectGithub` of the targets binds.
pub(crate) fn connect_github() -> ConnectGithub {
    ConnectGithub {
        provider: "github".into(),
        repo: "octo/hello".into(),
    }
}

/// The server's audience.
pub(crate) const AUDIENCE: &str = "fuzz-server";
/// The authenticated user of every request.
pub(crate) const PRINCIPAL: &str = "alice";
/// The fixed clock of the token targets (2027-01-15), so sealed seeds never expire.
pub(crate) fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

/// The retired test key 1 (drawn at random once: old keys are checked like configured ones).
pub(crate) const OLD_KEY: [u8; 32] = [
    0x0b, 0xb4, 0x43, 0x10, 0xf5, 0xef, 0x8c, 0x0b, 0xc6, 0x97, 0x98, 0x89, 0x36, 0x0e, 0x42, 0xb5,
    0xc0, 0x12, 0x6d, 0x2a, 0x59, 0xc8, 0x82, 0xf4, 0xe4, 0xec, 0xe4, 0xd9, 0x29, 0x0e, 0x34, 0xcf,
];

/// The fixed test keys: key 2 seals, the retired key 1 still opens.
pub(crate) fn key_ring() -> KeyRing {
    KeyRing::new(2, [0x5A; 32])
        .with_old_key(1, OLD_KEY)
        .expect("the old test key passes the checks")
}

/// The sealer of the fixed test keys.
pub(crate) fn sealer() -> StateSealer {
    StateSealer::new(key_ring(), AUDIENCE)
}

/// A fresh server, as the request and landing-page targets use: single-use states, an
/// in-memory completion store and server info.
pub(crate) fn server() -> ElicitServer {
    let sealer = sealer().with_replay_guard(Arc::new(MemoryReplayGuard::new()));
    ElicitServer::new(sealer)
        .with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())))
        .with_server_info(AUDIENCE, "1.0.0")
}

/// Runs a future that needs no I/O or timer to completion. Everything the targets await is
/// in memory, so it is ready at once; a future still pending after many polls is a hang.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..64 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("a future that needs no I/O is still pending");
}

/// Whether `a` and `b` are the same JSON, up to what serde_json's default float parsing loses:
/// without its `float_roundtrip` feature (which elicit leaves to the application), a float read
/// back from its own shortest text can be off by an ulp, so floats compare within two.
pub(crate) fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => x == y || x.to_bits().abs_diff(y.to_bits()) <= 2,
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, x)| y.get(k).is_some_and(|y| same_json(x, y)))
        }
        (a, b) => a == b,
    }
}
