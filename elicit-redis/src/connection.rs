//! The one Redis connection a store and a guard share: multiplexed, opened lazily, every wait
//! bounded (connect, then each command), and dropped after a failure so that the next call
//! connects again. Each new connection reads the namespace's epoch marker (see `epoch`), so a
//! Redis that lost its data while the connection was down is noticed at once. What Redis
//! promises (see `setup`) is read on each new connection and again, on the open one, before
//! the first command once [`REDIS_SETUP_RECHECK`] (or the interval set) has passed. At most
//! [`IN_FLIGHT`] commands are in flight on it at once.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio::time::Instant;

use super::epoch::{self, Epoch, fresh_id};
use super::script::Script;
use super::setup::{self, Setup};
use super::target::{Connection, Target};

/// How long opening a connection to Redis (TCP connect and handshake) may take by default.
pub const REDIS_CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// How long Redis may take to answer one command by default.
pub const REDIS_RESPONSE_TIMEOUT: Duration = Duration::from_millis(500);

/// How long a connection trusts the last reading of what Redis promises (persistence, the
/// primary, replicas) by default: the first command after it reads them again with `CONFIG`
/// and `INFO`, and fails, the connection dropped, if a setting went wrong (see the crate docs,
/// "What Redis must promise"). Eviction needs no interval: every redemption checks it.
///
/// ```
/// use elicit_redis::{REDIS_SETUP_RECHECK, RedisCompletionStore};
///
/// let store = RedisCompletionStore::new("redis://127.0.0.1:6379", "myapp")?;
/// assert_eq!(store.replay_guard().setup_recheck(), REDIS_SETUP_RECHECK);
/// # Ok::<(), elicit_runtime::url::StoreError>(())
/// ```
pub const REDIS_SETUP_RECHECK: Duration = Duration::from_secs(1);

/// How many commands one connection has in flight at most; the others wait their turn before
/// they are encoded. A burst (10,000 held retries each asking for its completion at once) then
/// costs the client's buffers for this many commands, not for all of them, and Redis on
/// loopback answers a pipeline this deep as fast as a deeper one.
const IN_FLIGHT: usize = 128;

/// The script that reads (or writes) the epoch marker.
static ENSURE: LazyLock<Script> = LazyLock::new(|| Script::new(epoch::ENSURE));

/// A lazily opened, multiplexed connection with bounded waits.
pub(crate) struct Link {
    target: Target,
    connect_timeout: Duration,
    response_timeout: Duration,
    /// The open connection, with a number telling it apart from the ones before it.
    slot: Mutex<Slot>,
    /// The namespace's epoch marker key.
    epoch_key: String,
    /// Redis's evicted-keys count when the marker was written (see `epoch`).
    evictions_key: String,
    /// The epoch this process saw last (shared with the links made from this one).
    epoch: Arc<Mutex<Option<Epoch>>>,
    /// Whether each new connection's Redis is checked for what it must promise (`setup`).
    check_setup: bool,
    /// What the last check found (replicas a redemption waits for).
    setup: Mutex<Setup>,
    /// How long a check holds before the open connection is checked again.
    recheck: Duration,
    /// When the open connection was last checked.
    checked_at: Mutex<Option<Instant>>,
    /// Turns to send a command (see [`IN_FLIGHT`]).
    in_flight: Semaphore,
}

#[derive(Default)]
struct Slot {
    open: Option<(u64, Connection)>,
    opened: u64,
}

impl Link {
    /// A link to `target` for the namespace whose keys begin with `keyspace` (see
    /// [`keyspace`](crate::keyspace)), with the default timeouts (connected on first use).
    pub(crate) fn new(target: Target, keyspace: &str) -> Self {
        Link {
            target,
            connect_timeout: REDIS_CONNECT_TIMEOUT,
            response_timeout: REDIS_RESPONSE_TIMEOUT,
            slot: Mutex::new(Slot::default()),
            epoch_key: format!("{keyspace}:elicit:epoch"),
            evictions_key: format!("{keyspace}:elicit:evictions"),
            epoch: Arc::default(),
            check_setup: true,
            setup: Mutex::default(),
            recheck: REDIS_SETUP_RECHECK,
            checked_at: Mutex::default(),
            in_flight: Semaphore::new(IN_FLIGHT),
        }
    }

    /// The same link with other timeouts (and no connection yet).
    pub(crate) fn with_timeouts(&self, connect: Duration, response: Duration) -> Self {
        Link {
            target: self.target.clone(),
            connect_timeout: connect,
            response_timeout: response,
            slot: Mutex::new(Slot::default()),
            epoch_key: self.epoch_key.clone(),
            evictions_key: self.evictions_key.clone(),
            epoch: Arc::clone(&self.epoch),
            check_setup: self.check_setup,
            setup: Mutex::default(),
            recheck: self.recheck,
            checked_at: Mutex::default(),
            in_flight: Semaphore::new(IN_FLIGHT),
        }
    }

    /// The same link checking what Redis promises again `every` so long (and no connection
    /// yet).
    pub(crate) fn with_setup_recheck(&self, every: Duration) -> Self {
        Link {
            recheck: every,
            ..self.with_timeouts(self.connect_timeout, self.response_timeout)
        }
    }

    /// How long a reading of what Redis promises holds.
    pub(crate) fn setup_recheck(&self) -> Duration {
        self.recheck
    }

    /// The same link without the setup check (and no connection yet).
    pub(crate) fn trusting_setup(&self) -> Self {
        Link {
            check_setup: false,
            ..self.with_timeouts(self.connect_timeout, self.response_timeout)
        }
    }

    /// Whether new connections are checked (see `setup`).
    pub(crate) fn checks_setup(&self) -> bool {
        self.check_setup
    }

    /// What the last setup check found.
    pub(crate) fn setup(&self) -> Setup {
        *self.setup.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn timeouts(&self) -> (Duration, Duration) {
        (self.connect_timeout, self.response_timeout)
    }

    /// What connections are opened to (the completion subscriber opens its own).
    pub(crate) fn target(&self) -> &Target {
        &self.target
    }

    fn slot(&self) -> MutexGuard<'_, Slot> {
        // The slot is consistent between statements: poisoning carries no risk.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The open connection, or a new one within the connect timeout. The lock is never held
    /// across an await: callers that find no connection each connect, and the first one to
    /// finish is kept.
    ///
    /// The rare paths (connecting, reading the setup again) are boxed futures of their own:
    /// every command's future embeds this one, and a held or queued command would otherwise
    /// carry their state (kilobytes) for as long as it waits.
    pub(crate) async fn connection(&self) -> Result<(u64, Connection), String> {
        let open = self.slot().open.clone();
        let Some((number, mut connection)) = open else {
            return Box::pin(self.open_new()).await;
        };
        if self.claim_check() {
            // A setting changed while connected: this command fails, and so does every one
            // after it until a new connection finds the promises kept again.
            if let Err(why) = Box::pin(self.recheck_setup(&mut connection)).await {
                self.forget(number);
                return Err(why);
            }
        }
        Ok((number, connection))
    }

    /// Opens a connection (see [`connection`](Self::connection)): checks what its Redis
    /// promises and reads the epoch marker before anything is sent on it.
    async fn open_new(&self) -> Result<(u64, Connection), String> {
        // The timeouts are ours (`tokio::time::timeout`), so both read the same way in errors.
        let connecting = self.target.open();
        let mut connection = match tokio::time::timeout(self.connect_timeout, connecting).await {
            Ok(Ok(connection)) => connection,
            Ok(Err(e)) => return Err(e),
            Err(_) => {
                return Err(format!(
                    "Redis did not accept the connection within {:?}",
                    self.connect_timeout
                ));
            }
        };
        // What this Redis promises first: nothing is written to one that cannot keep it.
        if self.check_setup {
            self.recheck_setup(&mut connection).await?;
        }
        // A new connection: Redis may have restarted (and forgotten) while there was none.
        let marker = self.bounded(self.ensure(&mut connection)).await?;
        self.saw(&marker)?;
        let mut slot = self.slot();
        if let Some(open) = slot.open.clone() {
            return Ok(open);
        }
        slot.opened += 1;
        let open = (slot.opened, connection);
        slot.open = Some(open.clone());
        Ok(open)
    }

    /// Whether the open connection's reading of what Redis promises is older than the
    /// interval; if so, this caller reads it again: the reading is dated now, so the commands
    /// sent meanwhile do not each read it too (with a zero interval, every command does). A
    /// reading that fails drops the connection, and the next one is checked before use.
    fn claim_check(&self) -> bool {
        if !self.check_setup {
            return false;
        }
        let mut checked_at = self
            .checked_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if checked_at.is_some_and(|at| now.duration_since(at) < self.recheck) {
            return false;
        }
        *checked_at = Some(now);
        true
    }

    /// Reads what this Redis promises now and keeps what it found (and when).
    async fn recheck_setup(&self, connection: &mut Connection) -> Result<(), String> {
        let setup = self.check(connection).await?;
        *self.setup.lock().unwrap_or_else(PoisonError::into_inner) = setup;
        *self
            .checked_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
        Ok(())
    }

    /// Reads what this Redis promises (see `setup`), each answer within the response timeout:
    /// on a cluster, what every primary promises (the namespace's slot may move to any of
    /// them), and the replicas of the one holding the namespace now.
    async fn check(&self, connection: &mut Connection) -> Result<Setup, String> {
        let no_answer = self.no_answer();
        let unreadable = |e: String| {
            if e == no_answer {
                return e;
            }
            format!(
                "cannot read what this Redis promises for spent states ({e}); a provider that \
                 disables `CONFIG` or `INFO` needs `trusting_setup()` and the settings in \
                 elicit-redis's docs, \"What Redis must promise\""
            )
        };
        let mut nodes: BTreeMap<String, Vec<redis::Value>> = BTreeMap::new();
        for cmd in setup::commands() {
            let answers = self
                .bounded(connection.on_every_primary(&cmd))
                .await
                .map_err(unreadable)?;
            for (node, answer) in answers {
                nodes.entry(node).or_default().push(answer);
            }
        }
        let mut found = Setup::default();
        for (node, answers) in nodes {
            found = setup::judge_answers(answers)
                .map_err(|why| match node.as_str() {
                    "" => why,
                    node => format!("the cluster's primary {node}: {why}"),
                })
                .inspect_err(|why| {
                    tracing::error!(target: "elicit", "elicit: Redis refused: {why}");
                })?;
        }
        if let Connection::Cluster(_) = connection {
            let replication = setup::commands()[2].clone();
            let answer = self
                .bounded(connection.on_primary_of(&self.epoch_key, &replication))
                .await
                .and_then(|v| redis::from_redis_value::<String>(v).map_err(|e| e.to_string()))
                .map_err(unreadable)?;
            found = Setup {
                replicas: setup::connected_replicas(&answer),
            };
        }
        Ok(found)
    }

    /// `WAIT`s on the primary that holds the namespace (within the response timeout) and gives
    /// how many replicas confirmed.
    pub(crate) async fn wait_for_replicas(&self, cmd: &redis::Cmd) -> Result<u64, String> {
        let _turn = self.turn().await?;
        let (number, mut connection) = self.connection().await?;
        let waited = connection.on_primary_of(&self.epoch_key, cmd);
        let value = self.on_open(number, waited).await?;
        redis::from_redis_value(value).map_err(|e| format!("Redis failed: {e}"))
    }

    /// Runs `script` with `keys` and `args` (by its hash: see `script`), as [`query`](Self::query)
    /// runs a command.
    pub(crate) async fn run<T: redis::FromRedisValue>(
        &self,
        script: &Script,
        keys: &[&str],
        args: &[&str],
    ) -> Result<T, String> {
        let _turn = self.turn().await?;
        // Boxed, as in `query`.
        Box::pin(async move {
            let (number, mut connection) = self.connection().await?;
            self.on_open(number, script.run(&mut connection, keys, args))
                .await
        })
        .await
    }

    /// Runs the command `build` makes once this call's turn has come (so a command waiting for
    /// its turn holds no buffers): connects if needed, then waits at most the response timeout
    /// for its answer. A timeout or a broken connection drops the connection, so the next call
    /// opens a new one.
    pub(crate) async fn query<T: redis::FromRedisValue>(
        &self,
        build: impl FnOnce() -> redis::Cmd,
    ) -> Result<T, String> {
        let _turn = self.turn().await?;
        // Boxed: a command waiting for its turn is small; only those in flight carry the
        // connection's and the answer's state.
        Box::pin(async move {
            let (number, mut connection) = self.connection().await?;
            let cmd = build();
            self.on_open(number, cmd.query_async(&mut connection)).await
        })
        .await
    }

    /// A turn to send a command (see [`IN_FLIGHT`]), within the response timeout: a Redis too
    /// slow to answer the commands ahead of this one fails it as it would fail them.
    async fn turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, String> {
        match tokio::time::timeout(self.response_timeout, self.in_flight.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            // The semaphore is never closed.
            Ok(Err(_)) => Err("the Redis connection is closed".to_owned()),
            Err(_) => Err(format!(
                "Redis did not answer the {IN_FLIGHT} commands ahead within {:?}",
                self.response_timeout
            )),
        }
    }

    /// `answer` on open connection `number`, within the response timeout; a timeout or a
    /// broken connection drops the connection.
    async fn on_open<T>(
        &self,
        number: u64,
        answer: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, String> {
        match tokio::time::timeout(self.response_timeout, answer).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                if e.is_io_error() || e.is_connection_dropped() || e.is_unrecoverable_error() {
                    self.forget(number);
                }
                Err(format!("Redis failed: {e}"))
            }
            Err(_) => {
                self.forget(number);
                Err(self.no_answer())
            }
        }
    }

    /// `answer`, within the response timeout (on a connection not yet in the slot).
    async fn bounded<T>(
        &self,
        answer: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, String> {
        match tokio::time::timeout(self.response_timeout, answer).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(format!("Redis failed: {e}")),
            Err(_) => Err(self.no_answer()),
        }
    }

    fn no_answer(&self) -> String {
        format!("Redis did not answer within {:?}", self.response_timeout)
    }

    /// The namespace's epoch key (what the redemption script checks).
    pub(crate) fn epoch_key(&self) -> &str {
        &self.epoch_key
    }

    /// The key of the evicted-keys count the epoch began with (what the redemption script
    /// compares).
    pub(crate) fn evictions_key(&self) -> &str {
        &self.evictions_key
    }

    /// The scripts' flag: `1` when the setup is checked (eviction is watched), else `0`.
    pub(crate) fn check_flag(&self) -> &'static str {
        if self.check_setup { "1" } else { "0" }
    }

    /// The epoch this process knows, read from Redis if it knows none yet.
    pub(crate) async fn epoch(&self) -> Result<Epoch, String> {
        // Connecting reads the marker; a link sharing the memory may have read it already.
        self.connection().await?;
        match self.known() {
            Some(epoch) => Ok(epoch),
            None => self.refresh_epoch().await,
        }
    }

    /// Reads the marker again (writing it if it is gone): the redemption found it changed.
    pub(crate) async fn refresh_epoch(&self) -> Result<Epoch, String> {
        let _turn = self.turn().await?;
        let (number, mut connection) = self.connection().await?;
        let marker = self.on_open(number, self.ensure(&mut connection)).await?;
        self.saw(&marker)
    }

    fn known(&self) -> Option<Epoch> {
        self.epoch
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Runs the script that reads (or writes) the marker, telling Redis the epoch seen last.
    async fn ensure(&self, connection: &mut Connection) -> redis::RedisResult<String> {
        let seen = self.known().map(|epoch| epoch.id).unwrap_or_default();
        let keys = [self.epoch_key.as_str(), &self.evictions_key];
        let fresh = fresh_id();
        let args = [fresh.as_str(), &seen, self.check_flag()];
        ENSURE.run(connection, &keys, &args).await
    }

    /// Remembers the marker Redis holds now, and says so loudly if it replaced the one seen
    /// before: Redis lost data, and states sealed before it are refused from now on.
    fn saw(&self, marker: &str) -> Result<Epoch, String> {
        let epoch = Epoch::parse(marker)?;
        let mut known = self.epoch.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(before) = known.as_ref()
            && *before != epoch
        {
            tracing::error!(
                target: "elicit",
                key = %self.epoch_key,
                before = %before.raw,
                now = %epoch.raw,
                first_admitted = epoch.first_admitted(),
                "elicit: Redis lost data (restart without persistence, flush, evicted keys or \
                 deleted marker); every requestState sealed before the new epoch is refused"
            );
        }
        *known = Some(epoch.clone());
        Ok(epoch)
    }

    /// Drops connection `number` if it is still the open one.
    fn forget(&self, number: u64) {
        let mut slot = self.slot();
        if slot.open.as_ref().is_some_and(|(n, _)| *n == number) {
            slot.open = None;
        }
    }
}
