//! cargo-fuzz target `form_content`: see `elicit_runtime::fuzz_targets::form_content`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| elicit_runtime::fuzz_targets::form_content(data));
