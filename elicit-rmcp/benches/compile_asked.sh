#!/usr/bin/env bash
# Compile time of 100 tools that ask two questions each, as `#[elicit_rmcp::asks]` parameters
# and asked by hand in the body: one generated crate per style (path dependency on this
# elicit-rmcp, one shared target directory), its dependencies built first, then the crate
# itself rebuilt RUNS times (debug, `touch src/main.rs`); prints the best and median wall time.
#
#   elicit-rmcp/benches/compile_asked.sh [RUNS=5] [work dir]
set -euo pipefail
runs=${1:-5}
crate=$(realpath "$(dirname "$0")/..")
dir=${2:-$(mktemp -d /tmp/elicit-compile-asked.XXXXXX)}
export CARGO_TARGET_DIR="$dir/target"

tools() { # style
    for i in $(seq 1 100); do
        if [ "$1" = asked ]; then
            cat <<RS
    #[elicit_rmcp::asks]
    #[tool(description = "Plan trip $i")]
    async fn plan_$i(
        &self,
        Parameters(Trip { destination }): Parameters<Trip>,
        #[ask(message = format!("When do you travel to {destination}? ($i)"))] dates: Asked<Dates>,
        travelers: Asked<Travelers>,
    ) -> Result<String, McpError> {
        Ok(plan(&destination, dates, travelers))
    }
RS
        else
            cat <<RS
    #[tool(description = "Plan trip $i")]
    async fn plan_$i(
        &self,
        Parameters(Trip { destination }): Parameters<Trip>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        let dates = Dates::question()
            .message(format!("When do you travel to {destination}? ($i)"))
            .ask(&mut cx)
            .await;
        let travelers = Travelers::ask(&mut cx).await;
        Ok(plan(&destination, dates?, travelers?))
    }
RS
        fi
    done
}

for style in by_hand asked; do
    rm -rf "$dir/$style"
    cargo new --quiet --vcs none "$dir/$style"
    cat >>"$dir/$style/Cargo.toml" <<TOML
elicit-rmcp = { path = "$crate" }
rmcp = { version = "3.11", default-features = false, features = ["server", "macros"] }
serde = { version = "1", features = ["derive"] }
TOML
    cp "$crate/../Cargo.lock" "$dir/$style/" 2>/dev/null || true
    {
        cat <<'RS'
#![allow(dead_code)]
use elicit_rmcp::{Answer, Asked, Elicit, ElicitForm, ElicitHandler};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{ErrorData as McpError, ServerHandler, schemars, tool, tool_router};

/// When do you travel?
#[derive(ElicitForm)]
struct Dates {
    #[elicit(format = "date")]
    start: String,
    nights: u8,
}

/// Who travels?
#[derive(ElicitForm)]
struct Travelers {
    adults: u8,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Trip {
    destination: String,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    elicit: ElicitHandler,
}

fn plan(destination: &str, dates: Answer<Dates>, travelers: Answer<Travelers>) -> String {
    match (dates, travelers) {
        (Answer::Accepted(d), Answer::Accepted(t)) => format!("{destination} {} {} {}", d.start, d.nights, t.adults),
        _ => String::new(),
    }
}

#[tool_router]
impl Server {
RS
        tools "$style"
        cat <<'RS'
}

#[elicit_rmcp::handler]
impl ServerHandler for Server {}

fn main() {
    let _ = Server { tool_router: Server::tool_router(), elicit: ElicitHandler::local("x") };
}
RS
    } >"$dir/$style/src/main.rs"
    [ "$style" = by_hand ] && sed -i 's/use elicit_rmcp::{Answer, Asked, Elicit,/use elicit_rmcp::{Answer, Elicit,/' "$dir/$style/src/main.rs"
    [ "$style" = asked ] && sed -i 's/use elicit_rmcp::{Answer, Asked, Elicit,/use elicit_rmcp::{Answer, Asked,/' "$dir/$style/src/main.rs"
    (cd "$dir/$style" && cargo build --quiet)
done

for style in by_hand asked; do
    times=()
    for _ in $(seq 1 "$runs"); do
        touch "$dir/$style/src/main.rs"
        start=$(date +%s.%N)
        (cd "$dir/$style" && cargo build --quiet)
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc)")
    done
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    best=$(echo "$sorted" | head -1)
    median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
    printf '%-8s 100 tools: best %.2f s, median %.2f s (%s runs)\n' "$style" "$best" "$median" "$runs"
done
