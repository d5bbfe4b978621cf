//! For the landing routes' own fuzz targets (`elicit-axum`'s `landing_route`): the server of
//! the targets and a fresh link minted on it, through the same code a URL-mode ask uses.

use std::time::SystemTime;

use serde_json::json;

use super::fixtures::{ConnectGithub, connect_github, server};
use crate::state::Binding;
use crate::url::handle;
use crate::{ElicitServer, ElicitUrl};

/// A fresh server as the request and landing-page targets use (fixed keys, single-use states,
/// an in-memory completion store).
pub fn landing_server() -> ElicitServer {
    server()
}

/// A `ConnectGithub` handle minted now on `server` for `principal` (`None` if the principal
/// cannot be sealed to), as an `import_issues` call asking the question would mint it.
pub fn mint_link(server: &ElicitServer, principal: &str) -> Option<String> {
    let args = json!({"repo": "octo/hello"});
    let binding = Binding::tool_call("import_issues", &args).with_principal(principal);
    let state = serde_json::to_value(connect_github()).ok()?;
    handle::mint(
        server.sealer(),
        &binding,
        principal,
        ConnectGithub::KEY,
        ConnectGithub::MESSAGE,
        &crate::url::Bound::plain(state),
        SystemTime::now(),
        None,
    )
    .ok()
    .map(|(_, token)| token)
}
