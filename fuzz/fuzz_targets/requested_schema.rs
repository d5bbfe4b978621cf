//! cargo-fuzz target `requested_schema`: see `elicit_runtime::fuzz_targets::requested_schema`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_runtime::fuzz_targets::requested_schema(data));
