#!/usr/bin/env bash
# Cold build of a fresh user crate with one form: wall time and crate count.
#
#   elicit-macros/benches/cold_build.sh [path/to/elicit-runtime] [work dir]
#
# The crate gets its own CARGO_TARGET_DIR, so nothing is shared with the workspace build, and
# the versions that elicit-runtime's workspace locks (its Cargo.lock copied).
set -euo pipefail
runtime=$(realpath "${1:-$(dirname "$0")/../../elicit-runtime}")
dir=${2:-$(mktemp -d /tmp/elicit-cold.XXXXXX)}
rm -rf "$dir"
cargo new --quiet --vcs none "$dir/user"
cd "$dir/user"
cat >>Cargo.toml <<TOML
elicit-runtime = { path = "$runtime" }
TOML
cat >src/main.rs <<'RS'
use elicit_runtime::ElicitForm;

/// Which table would you like?
#[derive(Debug, ElicitForm)]
struct Booking {
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    guests: u8,
    #[elicit(format = "date")]
    date: String,
    note: Option<String>,
}

fn main() {
    println!("{}", Booking::message());
}
RS
cp "$runtime/../Cargo.lock" . 2>/dev/null || true
export CARGO_TARGET_DIR="$dir/target"
cargo fetch --quiet
# Wall time, and CPU time (user + sys of every rustc), which machine load disturbs less.
TIMEFORMAT='%R %U %S'
{ time cargo build >"$dir/build.log" 2>&1; } 2>"$dir/time.txt"
read -r wall user sys <"$dir/time.txt"
crates=$(grep -c '^ *Compiling ' "$dir/build.log")
printf 'cold build: %.1f s wall, %.1f s CPU, %s crates compiled (incl. the user crate)\n' \
    "$wall" "$(echo "$user + $sys" | bc)" "$crates"
