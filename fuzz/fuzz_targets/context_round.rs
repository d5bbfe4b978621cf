//! cargo-fuzz target `context_round`: see `elicit_runtime::fuzz_targets::context_round`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_runtime::fuzz_targets::context_round(data));
