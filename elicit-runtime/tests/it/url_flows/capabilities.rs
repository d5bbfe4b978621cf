//! Clients without URL mode, and servers missing a principal or a completion store.

use super::*;
use elicit_runtime::wire::ElicitMode;

#[test]
fn a_client_without_url_mode_gets_minus_32021_naming_url() {
    let server = server();
    for capabilities in [
        json!({"elicitation": {"form": {}}}),
        json!({"elicitation": {}}),
        json!({}),
    ] {
        let caller = Caller::with_capabilities(&server, Some(ALICE), Some(capabilities.clone()));
        let e = error(block_on(caller.call(&caller.first(), connect)));
        assert_eq!(e.code, -32021, "{capabilities}: {e:?}");
        assert_eq!(
            e.data,
            Some(json!({"requiredCapabilities": {"elicitation": {"url": {}}}})),
            "{capabilities}"
        );

        // The handler that can do without the page looks first.
        let outcome = complete(block_on(caller.call(
            &caller.first(),
            async |cx: &mut ElicitContext| -> Result<_, Interrupt> {
                if !cx.capabilities().supports(ElicitMode::Url) {
                    return Ok(None);
                }
                bound().ask(cx).await.map(Some)
            },
        )));
        assert_eq!(outcome, None, "{capabilities}");
    }
}

#[test]
fn a_missing_principal_or_store_is_a_clear_internal_error() {
    let caller = Caller::new(&server(), None);
    let e = error(block_on(caller.call(&caller.first(), connect)));
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(e.message.contains("principal"), "{e:?}");

    let caller = Caller::new(&ElicitServer::new(sealer()), Some(ALICE));
    let e = error(block_on(caller.call(&caller.first(), connect)));
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(
        e.message.contains("UrlSettings::new(store)"),
        "names the fix: {e:?}"
    );
}
