//! The compile errors of a server wired wrong, exactly as users see them.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
