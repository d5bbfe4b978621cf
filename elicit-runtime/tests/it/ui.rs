//! Compiler messages of the derives, blessed on rustc 1.95 (`TRYBUILD=overwrite` to re-bless).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/*/pass/*.rs");
    t.compile_fail("tests/ui/*/fail/*.rs");
}
