//! cargo-fuzz target `url_handle_open`: see `elicit_runtime::fuzz_targets::url_handle_open`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_runtime::fuzz_targets::url_handle_open(data));
