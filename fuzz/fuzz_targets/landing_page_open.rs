//! cargo-fuzz target `landing_page_open`: see `elicit_runtime::fuzz_targets::landing_page_open`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_runtime::fuzz_targets::landing_page_open(data));
