use super::*;
use std::task::Poll;

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
    assert_eq!(lock(&waits.held).by_user[&b"alice"[..]].len(), 2);
}

#[test]
fn held_counts_the_waits_held_and_a_taken_wait_once() {
    let waits = UrlWaits::new(2, 2);
    let a = waits.try_acquire(b"mallory").unwrap();
    let b = waits.try_acquire(b"mallory").unwrap();
    assert_eq!(waits.held(), 2);
    let alice = waits.try_acquire(b"alice").expect("takes mallory's oldest");
    assert!(is_taken(&a));
    assert_eq!(waits.held(), 2, "the taken wait was handed over, not added");
    drop(a);
    assert_eq!(
        waits.held(),
        2,
        "dropping a taken wait releases nothing more"
    );
    drop((b, alice));
    assert_eq!(waits.held(), 0);
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
    assert_eq!(lock(&waits.held).all.len(), 3);
    assert!(waits.try_acquire(b"dave").is_some());
    drop((alice, bob, carol));
    let held = lock(&waits.held);
    assert_eq!(held.all.len(), 0);
    assert!(held.by_user.is_empty());
    assert!(held.by_count.is_empty());
}

/// `n` accounts, each holding one wait taken at `at`.
fn one_wait_each(waits: &UrlWaits, n: usize, at: Instant) -> Vec<UrlWait> {
    (0..n)
        .map(|i| {
            waits
                .try_acquire_at(format!("account-{i}").as_bytes(), at)
                .unwrap()
        })
        .collect()
}

#[test]
fn many_accounts_holding_one_renewed_wait_each_cannot_keep_a_newcomer_out() {
    let t0 = Instant::now();
    let hold = Duration::from_secs(30);
    let waits = UrlWaits::new(256, 8);
    let accounts = one_wait_each(&waits, 256, t0);
    // Each account renews its wait as its 30 s hold passes (the retry ends, the next comes):
    // the pool never has a free slot for long.
    let renewed = t0 + hold;
    let accounts: Vec<UrlWait> = accounts
        .into_iter()
        .enumerate()
        .map(|(i, ended)| {
            drop(ended);
            let account = format!("account-{i}");
            waits.try_acquire_at(account.as_bytes(), renewed).unwrap()
        })
        .collect();
    assert_eq!(lock(&waits.held).all.len(), 256);
    // Halfway through the renewed holds, a newcomer is let in: the oldest wait yields.
    let alice = waits
        .try_acquire_at(b"alice", renewed + hold / 2)
        .expect("a newcomer is let in");
    assert!(is_taken(&accounts[0]), "the oldest wait yields");
    assert!(accounts[1..].iter().all(|w| !is_taken(w)));
    // And so is the next, from the next oldest; the pool stays at its size.
    let bob = waits.try_acquire_at(b"bob", renewed + hold / 2).unwrap();
    assert!(is_taken(&accounts[1]));
    let held = lock(&waits.held);
    assert_eq!(held.all.len(), 256);
    assert_eq!(held.by_user.len(), 256);
    drop(held);
    drop((alice, bob, accounts));
    let held = lock(&waits.held);
    assert!(held.all.is_empty() && held.by_user.is_empty() && held.by_count.is_empty());
}

#[test]
fn a_wait_is_kept_for_a_while_before_it_yields_to_a_newcomer() {
    let t0 = Instant::now();
    let waits = UrlWaits::new(2, 2);
    let first = one_wait_each(&waits, 2, t0);
    // Younger than YIELD_AFTER: a full pool refuses the newcomer.
    let young = t0 + YIELD_AFTER - Duration::from_millis(1);
    assert!(waits.try_acquire_at(b"alice", young).is_none());
    assert!(first.iter().all(|w| !is_taken(w)));
    // Old enough: alice and bob take them, oldest first.
    let alice = waits.try_acquire_at(b"alice", t0 + YIELD_AFTER).unwrap();
    let bob = waits.try_acquire_at(b"bob", t0 + YIELD_AFTER).unwrap();
    assert!(first.iter().all(is_taken));
    // A wait just given is not taken by the next newcomer at once: no chain of endings.
    assert!(waits.try_acquire_at(b"carol", t0 + YIELD_AFTER).is_none());
    assert!(!is_taken(&alice) && !is_taken(&bob));
    let carol = waits
        .try_acquire_at(b"carol", t0 + YIELD_AFTER * 2)
        .unwrap();
    assert!(is_taken(&alice) && !is_taken(&bob));
    drop(carol);
}

#[test]
fn only_a_user_holding_no_wait_takes_an_old_wait_of_an_equal_user() {
    let t0 = Instant::now();
    let waits = UrlWaits::new(3, 2);
    let others = one_wait_each(&waits, 2, t0);
    let alice = waits.try_acquire_at(b"alice", t0).unwrap();
    // Alice holds one: her second wait would take another user's only one. Refused.
    let later = t0 + YIELD_AFTER * 3;
    assert!(waits.try_acquire_at(b"alice", later).is_none());
    assert!(others.iter().all(|w| !is_taken(w)) && !is_taken(&alice));
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
