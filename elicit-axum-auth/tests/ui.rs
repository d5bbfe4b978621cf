//! What the compiler says when the bearer check is given something that checks no token.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
