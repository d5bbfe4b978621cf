//! What every target shares: a representative form and URL elicitation, the fixed test keys,
//! the server they make, a fixed clock and an executor for futures that never wait.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::ElicitServer;
use crate::state::{KeyRing, MemoryReplayGuard, StateSealer};
use crate::url::MemoryCompletionStore;

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

/// The fixed test keys: key 2 seals, the retired key 1 still opens.
pub(crate) fn key_ring() -> KeyRing {
    KeyRing::new(2, [0x5A; 32]).with_old_key(1, [0xA5; 32])
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
        .with_completion_store(Arc::new(MemoryCompletionStore::new()))
        .with_server_info(AUDIENCE, "1.0.0")
}

/// Runs a future that needs no I/O or timer to completion. Everything the targets await is
/// in memory, so it is ready at once; a future still pending after many polls is a hang.
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..64 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("a future that needs no I/O is still pending");
}
