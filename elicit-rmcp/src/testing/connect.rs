//! Connecting rmcp's client to the server under test in process: two duplex pipes with the
//! tap between them, the server behind [`WireFix`] and the panic guard, the client speaking
//! the script's era.

use rmcp::model::ProtocolVersion;
use rmcp::service::RunningService;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServerHandler, ServiceExt};

use super::ScriptedClient;
use super::guard::{Guarded, Panics};
use super::transcript::{Side, Tap};
use super::user::Handler;
use crate::adapter::WireFix;
use crate::wire::ProtocolEra;

pub(super) async fn connect<S: ServerHandler>(
    script: &ScriptedClient,
    server: S,
    user: Handler,
    tap: &Tap,
    panics: &Panics,
) -> RunningService<RoleClient, Handler> {
    let (client_io, client_tap) = tokio::io::duplex(1 << 16);
    let (server_tap, server_io) = tokio::io::duplex(1 << 16);
    let (client_read, client_write) = tokio::io::split(client_tap);
    let (server_read, server_write) = tokio::io::split(server_tap);
    tokio::spawn(tap.clone().pump(client_read, server_write, Side::Client));
    tokio::spawn(tap.clone().pump(server_read, client_write, Side::Server));
    let guarded = Guarded {
        inner: WireFix::new(server),
        panics: panics.clone(),
    };
    tokio::spawn(async move {
        if let Ok(running) = guarded.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = match script.era {
        ProtocolEra::Legacy2025 => user.serve(client_io).await,
        _ => {
            let lifecycle = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            user.serve_with_lifecycle(client_io, lifecycle).await
        }
    };
    client.unwrap_or_else(|e| {
        panic!(
            "the client could not connect ({:?}): {e}; messages: {:#?}",
            script.era,
            tap.transcript().messages()
        )
    })
}
