//! Timeouts: a "Redis" that accepts connections and never answers, and one that stops
//! answering; asks that need the store fail in time, the rest are not slowed.

use super::*;

/// A "Redis" on a loopback port that accepts connections and, by default, never answers
/// (wedged, or half-open behind a proxy): it holds every connection open, reads nothing,
/// writes nothing.
struct Silent {
    url: String,
    accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Silent {
    fn start() -> Silent {
        // The listener's thread holds each connection open; nothing reads or writes it.
        Self::serve(|_, _| {})
    }

    /// Answers like a Redis that keeps every state new (the epoch marker read on connecting,
    /// then each redemption records), except that its first connection goes silent at its
    /// first redemption.
    fn answering_after_first_redemption() -> Silent {
        Self::serve(|nth, stream| {
            std::thread::spawn(move || answer_ok(stream, nth == 0));
        })
    }

    /// Accepts on a loopback port; `each` gets every connection with its number.
    fn serve(each: impl Fn(usize, TcpStream) + Send + 'static) -> Silent {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
        let url = format!("redis://{}", listener.local_addr().unwrap());
        listener.set_nonblocking(true).unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = std::thread::spawn({
            let (accepted, stop) = (Arc::clone(&accepted), Arc::clone(&stop));
            move || {
                let mut held = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let nth = accepted.fetch_add(1, Ordering::SeqCst);
                            stream.set_nonblocking(false).unwrap();
                            held.push(stream.try_clone().unwrap());
                            each(nth, stream);
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(2)),
                    }
                }
            }
        });
        Silent {
            url,
            accepted,
            stop,
            thread: Some(thread),
        }
    }

    fn accepted(&self) -> usize {
        // Give a connection that is under way the time to be accepted.
        std::thread::sleep(Duration::from_millis(20));
        self.accepted.load(Ordering::SeqCst)
    }
}

/// Reads RESP commands from `stream` and answers them: the script reading the epoch marker
/// (`EVALSHA` or `EVAL` with two keys) with a marker written in 1970, a redemption (three keys)
/// with `1` (recorded), anything else `+OK`. With `mute_at_redemption`, stops answering at the
/// first redemption (and reads on until the client hangs up).
fn answer_ok(mut stream: TcpStream, mute_at_redemption: bool) {
    let mut pending = Vec::new();
    let mut chunk = [0u8; 4096];
    let mut muted = false;
    loop {
        let Ok(n) = stream.read(&mut chunk) else {
            return;
        };
        if n == 0 {
            return;
        }
        pending.extend_from_slice(&chunk[..n]);
        while let Some((args, used)) = command(&pending) {
            pending.drain(..used);
            let eval =
                args[0].eq_ignore_ascii_case("EVAL") || args[0].eq_ignore_ascii_case("EVALSHA");
            let keys = args.get(2).map(String::as_str);
            let redemption = eval && keys == Some("3");
            muted |= mute_at_redemption && redemption;
            let answer: &[u8] = match (eval, keys) {
                (true, Some("2")) => b"$15\r\nfake0001:1000:0\r\n",
                (true, Some("3")) => b":1\r\n",
                _ => b"+OK\r\n",
            };
            if !muted && stream.write_all(answer).is_err() {
                return;
            }
        }
    }
}

/// The first complete RESP command in `buf` (its name and arguments) and its length in bytes.
fn command(buf: &[u8]) -> Option<(Vec<String>, usize)> {
    let line = |at: usize| -> Option<(&[u8], usize)> {
        let end = buf[at..].windows(2).position(|w| w == b"\r\n")? + at;
        Some((&buf[at..end], end + 2))
    };
    let (header, mut at) = line(0)?;
    let count: usize = std::str::from_utf8(header.strip_prefix(b"*")?)
        .ok()?
        .parse()
        .ok()?;
    let mut args = Vec::with_capacity(count);
    for _ in 0..count {
        let (len, start) = line(at)?;
        let len: usize = std::str::from_utf8(len.strip_prefix(b"$")?)
            .ok()?
            .parse()
            .ok()?;
        if buf.len() < start + len + 2 {
            return None;
        }
        args.push(String::from_utf8_lossy(&buf[start..start + len]).into_owned());
        at = start + len + 2;
    }
    (!args.is_empty()).then_some((args, at))
}

impl Drop for Silent {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Bounds of the guard on the silent listener.
const CONNECT: Duration = Duration::from_millis(300);
const RESPONSE: Duration = Duration::from_millis(200);
/// Scheduling slack on a loaded machine.
const MARGIN: Duration = Duration::from_millis(400);

/// A server whose replay guard is the silent listener (completions in memory).
fn guarded_by(silent: &Silent) -> ElicitServer {
    let guard = RedisReplayGuard::new(&silent.url, "silent")
        .expect("a replay guard")
        .with_timeouts(CONNECT, RESPONSE);
    let sealer = StateSealer::new(KeyRing::new(1, [7; 32]), "issues-server")
        .with_replay_guard(Arc::new(guard));
    ElicitServer::new(sealer).with_url(UrlSettings::new(Arc::new(MemoryCompletionStore::new())))
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_redis_that_never_answers_fails_asks_with_state_in_time_and_slows_nothing_else() {
    let silent = Silent::start();
    let server = guarded_by(&silent);
    let caller = Caller::new(&server, Some(ALICE));

    // A first call carries no state: it never touches Redis.
    let started = Instant::now();
    let (_, state) = start(&caller).await;
    let first = started.elapsed();
    assert!(first < CONNECT, "a stateless round took {first:?}");
    assert_eq!(silent.accepted(), 0, "a stateless round connected to Redis");

    // A retry whose handler never asks does not redeem its state either.
    let params = caller.retry(&state, Some(answer("accept")));
    let started = Instant::now();
    let done = complete(
        caller
            .call(&params, async |_cx| Ok::<_, Interrupt>("no questions"))
            .await,
    );
    assert_eq!(done, "no questions");
    assert!(started.elapsed() < CONNECT, "took {:?}", started.elapsed());
    assert_eq!(
        silent.accepted(),
        0,
        "a handler that never asks connected to Redis"
    );

    // A retry that asks needs the guard: it fails closed, with "retry", once the
    // connect timeout runs out (the handshake gets no answer) — while a stateless call made
    // meanwhile on the same task is not held up.
    let started = Instant::now();
    let (refused, meanwhile) = tokio::join!(
        async {
            let outcome = caller.call(&params, connect).await;
            (outcome, started.elapsed())
        },
        async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let at = Instant::now();
            let ask = input_required(caller.call(&caller.first(), connect).await);
            url_request(&ask);
            at.elapsed()
        }
    );
    let (outcome, took) = refused;
    assert_store_unavailable(&error(outcome));
    eprintln!("refused after {took:?}; a stateless call meanwhile took {meanwhile:?}");
    assert!(
        took >= CONNECT,
        "refused after {took:?}, before the connect timeout"
    );
    assert!(took < CONNECT + RESPONSE + MARGIN, "refused after {took:?}");
    assert!(meanwhile < CONNECT, "a stateless call waited {meanwhile:?}");
    assert!(silent.accepted() >= 1);

    // Concurrent asks with state do not queue behind one another: each fails in its own time.
    let started = Instant::now();
    let (a, b, c, d) = tokio::join!(
        caller.call(&params, connect),
        caller.call(&params, connect),
        caller.call(&params, connect),
        caller.call(&params, connect),
    );
    let took = started.elapsed();
    for outcome in [a, b, c, d] {
        assert_store_unavailable(&error(outcome));
    }
    eprintln!("four concurrent refusals took {took:?} in all");
    assert!(
        took < CONNECT + RESPONSE + MARGIN,
        "four refusals took {took:?}"
    );
}

#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn the_guard_and_the_store_say_which_wait_ran_out() {
    let silent = Silent::start();
    let guard = RedisReplayGuard::new(&silent.url, "silent")
        .unwrap()
        .with_timeouts(CONNECT, RESPONSE);
    let now = SystemTime::now();
    let started = Instant::now();
    let verdict = guard
        .redeem(Redemption::new(
            [1; 16],
            now,
            now + Duration::from_secs(60),
            now,
        ))
        .await;
    let took = started.elapsed();
    assert_eq!(
        verdict,
        Err(StateError::ReplayGuardUnavailable(
            "Redis did not accept the connection within 300ms".into()
        ))
    );
    assert!(took >= CONNECT && took < CONNECT + MARGIN, "{took:?}");

    let started = Instant::now();
    let refused = RedisCompletionStore::new(&silent.url, "silent")
        .unwrap()
        .with_timeouts(CONNECT, RESPONSE)
        .lookup("flow")
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "completion store: Redis did not accept the connection within 300ms"
    );
    assert!(
        started.elapsed() < CONNECT + MARGIN,
        "{:?}",
        started.elapsed()
    );
}

/// A Redis that accepted the connection and answered its handshake but does not answer a
/// command fails the redemption after the response timeout; the guard then drops that
/// connection, and the next redemption connects again and works.
#[tokio::test]
#[ignore = "needs redis-server: `./scripts/test` runs it (or `cargo test -p elicit-redis -- --ignored`)"]
async fn a_redis_that_stops_answering_fails_after_the_response_timeout_then_recovers() {
    let fake = Silent::answering_after_first_redemption();
    // The fake answers `+OK` to what it does not know, `INFO` and `CONFIG` included.
    let guard = RedisReplayGuard::new(&fake.url, "mute")
        .unwrap()
        .trusting_setup()
        .with_timeouts(CONNECT, RESPONSE);
    let now = SystemTime::now();
    let later = now + Duration::from_secs(60);

    let started = Instant::now();
    let verdict = guard
        .redeem(Redemption::new([1; 16], now, later, now))
        .await;
    let took = started.elapsed();
    eprintln!("an unanswered redemption was refused after {took:?}");
    assert_eq!(
        verdict,
        Err(StateError::ReplayGuardUnavailable(
            "Redis did not answer within 200ms".into()
        ))
    );
    assert!(took >= RESPONSE && took < RESPONSE + MARGIN, "{took:?}");
    assert_eq!(fake.accepted(), 1);

    assert_eq!(
        guard
            .redeem(Redemption::new([2; 16], now, later, now))
            .await,
        Ok(())
    );
    assert_eq!(fake.accepted(), 2, "the guard connected again");
    assert_eq!(
        guard
            .redeem(Redemption::new([3; 16], now, later, now))
            .await,
        Ok(())
    );
    assert_eq!(fake.accepted(), 2, "and kept the new connection");
}
