//! cargo-fuzz target `state_open`: see `elicit_runtime::fuzz_targets::state_open`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_runtime::fuzz_targets::state_open(data));
