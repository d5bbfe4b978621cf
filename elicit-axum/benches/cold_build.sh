#!/usr/bin/env bash
# What the `oauth` feature costs a server: a fresh crate depending on elicit-rmcp and
# elicit-axum (path dependencies on the workspace given, its Cargo.lock copied so the versions
# are the ones that workspace locks), without and with `elicit-axum/oauth`. Prints the crates
# in its dependency tree (normal and build dependencies, the crate itself included) and the
# cold debug build: wall time, and CPU time (user + sys of cargo and every rustc, from
# `/usr/bin/time -v`), which machine load disturbs less. Each build gets a fresh target dir.
#
#   elicit-axum/benches/cold_build.sh plain|oauth [path/to/workspace] [work dir]
#
# Not part of ./scripts/test: timings are for reading, never asserted.
set -euo pipefail
kind=${1:?plain or oauth}
workspace=$(realpath "${2:-$(dirname "$0")/../..}")
dir=${3:-$(mktemp -d /tmp/elicit-cold-axum.XXXXXX)}
case "$kind" in
plain) features='' ;;
oauth) features=', features = ["oauth"]' ;;
*) echo "kind: plain or oauth" >&2; exit 2 ;;
esac
rm -rf "$dir"
cargo new --quiet --vcs none "$dir/server"
cd "$dir/server"
cat >>Cargo.toml <<TOML
elicit-rmcp = { path = "$workspace/elicit-rmcp" }
elicit-axum = { path = "$workspace/elicit-axum"$features }
TOML
cat >src/main.rs <<'RS'
use elicit_axum as _;
use elicit_rmcp as _;

fn main() {}
RS
cp "$workspace/Cargo.lock" .
export CARGO_TARGET_DIR="$dir/target"
cargo fetch --quiet
crates=$(cargo tree -e no-dev --prefix none | sed 's/ (\*)//; s/ (proc-macro)//' | sort -u | wc -l)
/usr/bin/time -v -o "$dir/time.txt" cargo build --quiet
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0
    for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$dir/time.txt")
cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$dir/time.txt")
printf '%s: %s crates, cold build %.1f s wall, %.1f s CPU (user + sys)\n' "$kind" "$crates" "$wall" "$cpu"
