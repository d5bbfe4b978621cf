//! OAuth scope names: what the OAuth connection asks for.

/// RFC 6749 §3.3's `scope-token`: `%x21 / %x23-5B / %x5D-7E`, at least one (printable
/// ASCII but space, `"` and `\`).
pub(crate) fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}
