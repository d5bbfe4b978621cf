//! Serving on stdio: the process's stdin and stdout, with the wire fix applied, until the
//! client goes away.

use rmcp::service::ServerInitializeError;
use rmcp::{ServerHandler, ServiceExt};

use super::service::WireFix;

/// Serves `server` on this process's stdin and stdout, with [`WireFix`] applied (the one place
/// it goes on stdio), until the client closes the connection. What
/// `WireFix::new(server).serve(rmcp::transport::stdio_pipes()).await?.waiting().await?` does,
/// in one call; `streamable_http` (feature `http`) is the same over
/// HTTP. A client that closes its pipe before a session starts (a probe that only sent
/// `server/discover`) is a normal end; it fails when the client's `initialize` fails or the
/// service stops abnormally. Stdout is the protocol's: send logs to stderr (with
/// `tracing-subscriber`, `.with_writer(std::io::stderr)`).
///
/// ```no_run
/// # #[derive(Clone)] struct Server;
/// # impl rmcp::ServerHandler for Server {}
/// #[tokio::main]
/// async fn main() -> std::io::Result<()> {
///     elicit_rmcp::serve_stdio(Server).await
/// }
/// ```
pub async fn serve_stdio<S: ServerHandler>(server: S) -> std::io::Result<()> {
    let running = match WireFix::new(server)
        .serve(rmcp::transport::stdio_pipes())
        .await
    {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error) => return Err(std::io::Error::other(error)),
    };
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
