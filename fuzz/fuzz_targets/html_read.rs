//! cargo-fuzz target `html_read`: see `elicit_host::fuzz_targets::html_read`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_host::fuzz_targets::html_read(data));
