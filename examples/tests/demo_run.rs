//! The README's first command, run as a newcomer runs it: `demo` on both eras, its output
//! asserted. The scripted person confirms the account connection on the page three seconds
//! after the client accepted, so the server must wait for them.

use std::process::Command;

fn demo(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_demo"))
        .args(args)
        .output()
        .expect("the demo runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("the demo prints text")
}

/// The lines the demo printed for the call to `tool`.
fn section<'a>(out: &'a str, tool: &str) -> &'a str {
    let start = out
        .find(&format!("── {tool} "))
        .unwrap_or_else(|| panic!("no {tool} in {out}"));
    let rest = &out[start..];
    let end = rest.find("\n\n── ").unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn connect_account_ends_connected_on_both_eras_with_a_person_confirming_later() {
    for args in [&[][..], &["--legacy"][..]] {
        let out = demo(args);
        let connect = section(&out, "connect_account");
        assert!(
            connect.contains("← result: accept: connected github as demo-user@github"),
            "{args:?}: {connect}"
        );
        assert!(
            connect.contains("the person clicks Confirm: 200 OK"),
            "{args:?}: {connect}"
        );
        assert!(!out.contains("gave up"), "{args:?}: {out}");
        assert!(
            out.contains("← result: accept: table for 4 at Chez Rust"),
            "{args:?}: {out}"
        );
    }
}
