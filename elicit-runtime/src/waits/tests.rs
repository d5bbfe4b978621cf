use super::*;

fn is_taken(wait: &UrlWait) -> bool {
    wait.taken.taken.load(Ordering::Acquire)
}

#[test]
fn a_user_gets_their_share_and_no_more_and_drops_release_both_counts() {
    let waits = UrlWaits::new(3, 2);
    let a1 = waits.try_acquire(b"alice").unwrap();
    let _a2 = waits.try_acquire(b"alice").unwrap();
    assert!(waits.try_acquire(b"alice").is_none(), "alice's share is 2");
    let b1 = waits.try_acquire(b"bob").unwrap();
    drop(b1);
    assert!(
        waits.try_acquire(b"carol").is_some(),
        "bob's wait went back to the pool"
    );
    assert!(!is_taken(&a1));
    assert_eq!(lock(&waits.held).by_user[&b"alice".to_vec()].len(), 2);
}

#[test]
fn a_full_pool_gives_a_new_user_the_busiest_users_oldest_wait() {
    let waits = UrlWaits::new(4, 4);
    let mallory: Vec<UrlWait> = (0..4)
        .map(|_| waits.try_acquire(b"mallory").unwrap())
        .collect();
    let alice = waits
        .try_acquire(b"alice")
        .expect("alice takes one of mallory's four");
    assert!(is_taken(&mallory[0]), "the oldest");
    assert!(mallory[1..].iter().all(|w| !is_taken(w)));
    let bob = waits
        .try_acquire(b"bob")
        .expect("mallory still holds three");
    assert!(is_taken(&mallory[1]));
    let carol = waits
        .try_acquire(b"carol")
        .expect("mallory still holds two");
    // One each now: nobody holds two more than dave would, so dave is refused.
    assert!(waits.try_acquire(b"dave").is_none());
    assert!(waits.try_acquire(b"alice").is_none(), "nor alice's second");
    // Dropping a taken wait frees nothing twice; dropping a live one frees its slot.
    drop(mallory);
    assert_eq!(lock(&waits.held).total, 3);
    assert!(waits.try_acquire(b"dave").is_some());
    drop((alice, bob, carol));
    assert_eq!(lock(&waits.held).total, 0);
    assert!(lock(&waits.held).by_user.is_empty());
}

#[test]
fn a_pool_larger_than_can_be_counted_is_clamped_not_a_panic() {
    let waits = UrlWaits::new(usize::MAX, usize::MAX);
    assert_eq!(waits.size, usize::MAX >> 3);
    assert!(waits.try_acquire(b"alice").is_some());
}

#[test]
fn a_taken_wait_ends_its_work() {
    let waits = UrlWaits::new(2, 2);
    let oldest = waits.try_acquire(b"mallory").unwrap();
    let _newer = waits.try_acquire(b"mallory").unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let ended = rt.block_on(async {
        let work = UrlWait::unless_taken(Some(&oldest), std::future::pending::<&str>(), || "taken");
        let mut work = std::pin::pin!(work);
        assert!(
            poll_once(work.as_mut()).await.is_none(),
            "pending until alice comes"
        );
        let _alice = waits.try_acquire(b"alice").unwrap();
        work.await
    });
    assert_eq!(ended, "taken");
}

/// Polls `f` once.
async fn poll_once<F: Future + Unpin>(mut f: F) -> Option<F::Output> {
    std::future::poll_fn(|cx| {
        Poll::Ready(match std::pin::Pin::new(&mut f).poll(cx) {
            Poll::Ready(v) => Some(v),
            Poll::Pending => None,
        })
    })
    .await
}
