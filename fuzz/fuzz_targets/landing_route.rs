//! cargo-fuzz target `landing_route`: see `elicit_axum::fuzz_targets::landing_route`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_axum::fuzz_targets::landing_route(data));
