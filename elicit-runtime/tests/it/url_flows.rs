//! URL-mode elicitations end to end, with the in-memory completion store: the 2026-07-28
//! rounds, the landing page's refusals, single-use completions, capability and principal
//! errors, and the 2025-11-25 back channel (`elicitation/create`, the completion notification,
//! `URLElicitationRequiredError`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::common_url::*;
use elicit_runtime::legacy::{BoxFuture, LegacyPeer};
use elicit_runtime::state::{KeyRing, StateError, StateSealer};
use elicit_runtime::url::{
    Completion, CompletionStore, LandingPage, MemoryCompletionStore, PageError, StoreError,
    UrlSettings,
};
use elicit_runtime::wire::{ClientCapabilities, InputRequest, JsonRpcError, ProtocolEra};
use elicit_runtime::{
    Answer, ElicitContext, ElicitForm, ElicitServer, ElicitUrl, Interrupt, Reply, UrlAnswer,
};
use pollster::block_on;
use serde_json::{Value, json};

fn sealer() -> StateSealer {
    StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server")
}

fn server_with(sealer: StateSealer) -> ElicitServer {
    ElicitServer::new(sealer).with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())))
}

fn server() -> ElicitServer {
    server_with(sealer())
}

/// Round 1 as alice: the link's handle and the state to retry with.
fn start(caller: &Caller) -> (String, String) {
    let ask = input_required(block_on(caller.call(&caller.first(), connect)));
    (handle_of(&url_request(&ask)), state_of(&ask))
}

/// The page opens `handle` for alice and records a completion with `result`.
fn finish_page(server: &ElicitServer, handle: &str, result: Option<Value>) {
    let page = LandingPage::new(server);
    let opened = block_on(page.open::<ConnectGithub>(handle, ALICE)).unwrap();
    block_on(page.complete(&opened, result)).unwrap();
}

fn completed(result: Option<Value>) -> UrlAnswer<ConnectGithub> {
    UrlAnswer::Completed {
        state: bound(),
        result,
    }
}

mod capabilities;
mod confirmation;
mod era_2025;
mod era_2026;
mod landing_refusals;
mod or_link;
mod single_use;
mod task;
