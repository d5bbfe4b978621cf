#!/usr/bin/env bash
# Compile time of 100 ten-field forms (`#[derive(ElicitForm)]`) against the same 100 structs
# with serde's `#[derive(Deserialize)]`: touch the crate, rebuild (debug), best and median of N,
# in wall time and in CPU time (user + sys of cargo and rustc, which machine load disturbs less).
# The versions are the ones the given elicit-runtime's workspace locks (its Cargo.lock copied).
#
#   elicit-macros/benches/compile_time.sh [path/to/elicit-runtime] [runs] [work dir]
#
# Dependencies are built once first; only the generated crate is rebuilt in the timed runs.
set -euo pipefail
runtime=$(realpath "${1:-$(dirname "$0")/../../elicit-runtime}")
runs=${2:-5}
dir=${3:-/tmp/elicit-compile-time}
mkdir -p "$dir"
cd "$dir"
cat >Cargo.toml <<TOML
[workspace]
resolver = "3"
members = ["forms", "serde_structs"]
TOML
mkdir -p forms/src serde_structs/src
cat >forms/Cargo.toml <<TOML
[package]
name = "forms"
version = "0.0.0"
edition = "2024"
[dependencies]
elicit-runtime = { path = "$runtime" }
TOML
cat >serde_structs/Cargo.toml <<TOML
[package]
name = "serde_structs"
version = "0.0.0"
edition = "2024"
[dependencies]
serde = { version = "1", features = ["derive"] }
TOML

gen() { # $1 = forms | serde
    if [ "$1" = forms ]; then
        echo 'use elicit_runtime::{ElicitEnum, ElicitForm};'
        echo '#[derive(Debug, ElicitEnum)] pub enum Seat { Indoor, Terrace, Bar }'
    else
        echo 'use serde::Deserialize;'
        echo '#[derive(Debug, Deserialize)] pub enum Seat { Indoor, Terrace, Bar }'
    fi
    for i in $(seq 1 100); do
        if [ "$1" = forms ]; then
            echo "/// Form $i"
            echo '#[derive(Debug, ElicitForm)]'
            min='#[elicit(minimum = 1, maximum = 12, default = 2)] '
            fmt='#[elicit(format = "email")] '
            len='#[elicit(min_length = 1, max_length = 200)] '
        else
            echo '#[derive(Debug, Deserialize)]'
            min='' fmt='' len=''
        fi
        cat <<RS
pub struct Form$i {
    ${min}pub guests: u8,
    ${len}pub name: String,
    ${fmt}pub email: Option<String>,
    pub terrace: bool,
    pub seat: Seat,
    pub extras: Vec<Seat>,
    pub budget: f64,
    pub nights: u32,
    pub room: Option<u16>,
    pub note: Option<String>,
}
RS
    done
}
cp "$runtime/../Cargo.lock" . 2>/dev/null || true
gen forms >forms/src/lib.rs
gen serde >serde_structs/src/lib.rs

export CARGO_TARGET_DIR="$dir/target"
# One package at a time, as measured: features are unified over the packages built together,
# so a build of both would leave serde to be rebuilt by the first timed build of either.
cargo build --quiet -p forms
cargo build --quiet -p serde_structs

measure() { # $1 = package
    local walls=() cpus=()
    for _ in $(seq 1 "$runs"); do
        touch "$1/src/lib.rs"
        /usr/bin/time -f '%e %U %S' -o "$dir/time.txt" cargo build --quiet -p "$1"
        local wall user sys
        read -r wall user sys <"$dir/time.txt"
        walls+=("$wall")
        cpus+=("$(echo "$user + $sys" | bc)")
    done
    stats() { sort -n | awk '{ t[NR] = $1 } END { printf "best %.2f s, median %.2f s", t[1], t[int((NR + 1) / 2)] }'; }
    printf '%-14s wall %s, CPU %s (%d runs)\n' "$1" "$(printf '%s\n' "${walls[@]}" | stats)" \
        "$(printf '%s\n' "${cpus[@]}" | stats)" "$runs"
}
# Interleaved, so machine load hits both alike.
for _ in 1 2; do
    measure forms
    measure serde_structs
done
