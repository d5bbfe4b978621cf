//! What a confirmation page needs of the landing page: the handle carries the elicitation's
//! message, and the page's CSRF token confirms its own flow for its own user only, once.

use super::*;

#[test]
fn the_handle_carries_the_message_the_client_was_asked() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, _) = start(&caller);
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    assert_eq!(opened.message(), MESSAGE);
    assert_eq!(page.audience(), server.sealer().audience());
}

#[test]
fn a_confirmation_token_confirms_its_flow_for_its_user_once() {
    let server = server();
    let caller = Caller::new(&server, Some(ALICE));
    let (handle, state) = start(&caller);
    let (other, _) = start(&caller);
    let page = LandingPage::new(&server);
    let (opened, _) = block_on(page.open_raw(&handle, ALICE)).unwrap();
    let token = page.confirmation_token(&opened, ALICE).unwrap();
    assert!(token.starts_with("ec1."));

    // Not for another flow, another user, or with no token; a handle is no token either.
    let refused = |handle: &str, user: &str, token: &str| {
        block_on(page.open_confirmed(handle, user, token)).unwrap_err()
    };
    assert_eq!(refused(&other, ALICE, &token), PageError::Unconfirmed);
    assert_eq!(refused(&handle, ALICE, ""), PageError::Unconfirmed);
    assert_eq!(refused(&handle, ALICE, &handle), PageError::Unconfirmed);
    assert_eq!(
        refused(&handle, ALICE, &tamper(&token)),
        PageError::Unconfirmed
    );
    // Another user is refused as such, before the token is looked at.
    assert_eq!(refused(&handle, MALLORY, &token), PageError::WrongSubject);
    // All read the same to a browser.
    assert_eq!(
        PageError::Unconfirmed.to_string(),
        PageError::WrongSubject.to_string()
    );

    let (confirmed, _) = block_on(page.open_confirmed(&handle, ALICE, &token)).unwrap();
    block_on(page.complete_raw(&confirmed, None)).unwrap();
    assert_eq!(refused(&handle, ALICE, &token), PageError::AlreadyRecorded);
    assert!(matches!(
        complete(block_on(
            caller.call(&caller.retry(&state, Some(answer("accept"))), connect)
        )),
        UrlAnswer::Completed { .. }
    ));
}
