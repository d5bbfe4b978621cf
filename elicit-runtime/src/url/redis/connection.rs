//! The one Redis connection a store and a guard share: multiplexed, opened lazily, every wait
//! bounded (connect, then each command), and dropped after a failure so that the next call
//! connects again.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use redis::aio::MultiplexedConnection;

/// How long opening a connection to Redis (TCP connect and handshake) may take by default.
pub const REDIS_CONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// How long Redis may take to answer one command by default.
pub const REDIS_RESPONSE_TIMEOUT: Duration = Duration::from_millis(500);

/// A lazily opened, multiplexed connection with bounded waits.
pub(crate) struct Link {
    client: redis::Client,
    connect_timeout: Duration,
    response_timeout: Duration,
    /// The open connection, with a number telling it apart from the ones before it.
    slot: Mutex<Slot>,
}

#[derive(Default)]
struct Slot {
    open: Option<(u64, MultiplexedConnection)>,
    opened: u64,
}

impl Link {
    /// A link to `url` (checked here, connected on first use).
    pub(crate) fn new(
        url: &str,
        connect_timeout: Duration,
        response_timeout: Duration,
    ) -> Result<Self, String> {
        Ok(Link {
            client: redis::Client::open(url).map_err(|e| e.to_string())?,
            connect_timeout,
            response_timeout,
            slot: Mutex::new(Slot::default()),
        })
    }

    /// The same link with other timeouts (and no connection yet).
    pub(crate) fn with_timeouts(&self, connect: Duration, response: Duration) -> Self {
        Link {
            client: self.client.clone(),
            connect_timeout: connect,
            response_timeout: response,
            slot: Mutex::new(Slot::default()),
        }
    }

    pub(crate) fn timeouts(&self) -> (Duration, Duration) {
        (self.connect_timeout, self.response_timeout)
    }

    fn slot(&self) -> MutexGuard<'_, Slot> {
        // The slot is consistent between statements: poisoning carries no risk.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The open connection, or a new one within the connect timeout. The lock is never held
    /// across an await: callers that find no connection each connect, and the first one to
    /// finish is kept.
    pub(crate) async fn connection(&self) -> Result<(u64, MultiplexedConnection), String> {
        if let Some(open) = self.slot().open.clone() {
            return Ok(open);
        }
        // The timeouts are ours (`tokio::time::timeout`), so both read the same way in errors.
        let config = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(None)
            .set_response_timeout(None);
        let connecting = self
            .client
            .get_multiplexed_async_connection_with_config(&config);
        let connection = match tokio::time::timeout(self.connect_timeout, connecting).await {
            Ok(Ok(connection)) => connection,
            Ok(Err(e)) => return Err(format!("cannot connect to Redis: {e}")),
            Err(_) => {
                return Err(format!(
                    "Redis did not accept the connection within {:?}",
                    self.connect_timeout
                ));
            }
        };
        let mut slot = self.slot();
        if let Some(open) = slot.open.clone() {
            return Ok(open);
        }
        slot.opened += 1;
        let open = (slot.opened, connection);
        slot.open = Some(open.clone());
        Ok(open)
    }

    /// Runs `cmd`: connects if needed, then waits at most the response timeout for its answer.
    /// A timeout or a broken connection drops the connection, so the next call opens a new one.
    pub(crate) async fn query<T: redis::FromRedisValue>(
        &self,
        cmd: &redis::Cmd,
    ) -> Result<T, String> {
        let (number, mut connection) = self.connection().await?;
        match tokio::time::timeout(self.response_timeout, cmd.query_async(&mut connection)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                if e.is_io_error() || e.is_connection_dropped() || e.is_unrecoverable_error() {
                    self.forget(number);
                }
                Err(format!("Redis failed: {e}"))
            }
            Err(_) => {
                self.forget(number);
                Err(format!(
                    "Redis did not answer within {:?}",
                    self.response_timeout
                ))
            }
        }
    }

    /// Drops connection `number` if it is still the open one.
    fn forget(&self, number: u64) {
        let mut slot = self.slot();
        if slot.open.as_ref().is_some_and(|(n, _)| *n == number) {
            slot.open = None;
        }
    }
}
