#!/usr/bin/env bash
# Cold build of a fresh rmcp server crate with one tool that asks the user to confirm: wall
# time and crate count, for elicit-rmcp and for the same tool on rmcp alone (schemars +
# `peer.elicit`, rmcp's own elicitation). Each crate gets its own CARGO_TARGET_DIR.
#
#   elicit-rmcp/benches/cold_build.sh elicit   [path/to/elicit-rmcp] [work dir]
#   elicit-rmcp/benches/cold_build.sh schemars [ignored]             [work dir]
set -euo pipefail
kind=${1:?elicit or schemars}
crate=$(realpath "${2:-$(dirname "$0")/..}")
dir=${3:-$(mktemp -d /tmp/elicit-cold-rmcp.XXXXXX)}
rm -rf "$dir"
cargo new --quiet --vcs none "$dir/user"
cd "$dir/user"
cat >>Cargo.toml <<TOML
rmcp = { version = "3.11", default-features = false, features = ["server", "macros", "transport-io"] }
tokio = { version = "1", features = ["rt", "macros"] }
serde = { version = "1", features = ["derive"] }
TOML
case "$kind" in
elicit)
    echo "elicit-rmcp = { path = \"$crate\" }" >>Cargo.toml
    cat >src/main.rs <<'RS'
use elicit_rmcp::{Answer, Elicit, ElicitForm, ElicitHandler, WireFix};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt, schemars};
use rmcp::{tool, tool_handler, tool_router};

/// Please confirm
#[derive(ElicitForm)]
struct Confirm {
    confirm: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CancelArgs {
    reservation_id: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    elicit: ElicitHandler,
}

#[tool_router]
impl Server {
    #[tool(description = "Cancel a reservation after the user confirms")]
    async fn cancel(&self, Parameters(args): Parameters<CancelArgs>, mut cx: Elicit) -> Result<String, McpError> {
        Ok(match Confirm::ask(&mut cx).await? {
            Answer::Accepted(Confirm { confirm: true }) => format!("{} cancelled", args.reservation_id),
            _ => "kept".to_owned(),
        })
    }
}

#[tool_handler(router = self.elicit.tools(&self.tool_router))]
impl ServerHandler for Server {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server { tool_router: Server::tool_router(), elicit: ElicitHandler::local("demo") };
    WireFix::new(server).serve(rmcp::transport::stdio_pipes()).await?.waiting().await?;
    Ok(())
}
RS
    ;;
schemars)
    sed -i 's/features = \["server", "macros", "transport-io"\]/features = ["server", "macros", "transport-io", "elicitation"]/' Cargo.toml
    cat >src/main.rs <<'RS'
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt, schemars};
use rmcp::{elicit_safe, tool, tool_handler, tool_router};

/// Please confirm
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    confirm: bool,
}
elicit_safe!(Confirm);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CancelArgs {
    reservation_id: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    #[tool(description = "Cancel a reservation after the user confirms")]
    async fn cancel(&self, Parameters(args): Parameters<CancelArgs>, cx: RequestContext<RoleServer>) -> Result<String, McpError> {
        Ok(match cx.peer.elicit::<Confirm>("Please confirm").await {
            Ok(Some(Confirm { confirm: true })) => format!("{} cancelled", args.reservation_id),
            _ => "kept".to_owned(),
        })
    }
}

#[tool_handler]
impl ServerHandler for Server {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server { tool_router: Server::tool_router() };
    server.serve(rmcp::transport::stdio_pipes()).await?.waiting().await?;
    Ok(())
}
RS
    ;;
*) echo "kind: elicit or schemars" >&2; exit 2 ;;
esac
export CARGO_TARGET_DIR="$dir/target"
cargo fetch --quiet
# Wall time, and CPU time (user + sys of every rustc), which machine load disturbs less.
TIMEFORMAT='%R %U %S'
{ time cargo build >"$dir/build.log" 2>&1; } 2>"$dir/time.txt"
read -r wall user sys <"$dir/time.txt"
crates=$(grep -c '^ *Compiling ' "$dir/build.log")
printf '%s: cold build %.1f s wall, %.1f s CPU, %s crates compiled (incl. the user crate)\n' \
    "$kind" "$wall" "$(echo "$user + $sys" | bc)" "$crates"
