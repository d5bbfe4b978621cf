//! cargo-fuzz target `host_request`: see `elicit_host::fuzz_targets::host_request`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_host::fuzz_targets::host_request(data));
