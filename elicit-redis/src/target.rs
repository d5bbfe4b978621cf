//! Where the namespace lives: one Redis (a primary, maybe with replicas) or a Redis Cluster.
//!
//! Both are reached through one [`Connection`] that runs commands the same way; what differs
//! is routing. On a cluster every key of a namespace carries the same hash tag (see
//! [`keyspace`](crate::keyspace)), so each command and script touches the one slot that holds
//! the namespace, and the cluster client follows that slot when it moves (`MOVED`, `ASK`) or
//! its primary fails over. The setup check reads every primary (the slot may move to any of
//! them), and `WAIT` goes to the primary that holds the namespace's slot.

use redis::aio::{ConnectionLike, MultiplexedConnection};
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::cluster_routing::{
    MultipleNodeRoutingInfo, Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr,
};
use redis::{Cmd, RedisFuture, Value};

/// What a [`Link`](crate::connection::Link) connects to.
#[derive(Clone)]
pub(crate) enum Target {
    /// One Redis (the primary).
    Single(redis::Client),
    /// A Redis Cluster: the client that routes by slot, and one plain client per seed node for
    /// the completion subscriber (classic pub/sub reaches every node of a cluster).
    Cluster {
        client: Box<ClusterClient>,
        seeds: Vec<redis::Client>,
    },
}

impl Target {
    /// One Redis at `url`.
    pub(crate) fn single(url: &str) -> Result<Self, String> {
        redis::Client::open(url)
            .map(Target::Single)
            .map_err(|e| e.to_string())
    }

    /// A Redis Cluster reached through any of `urls` (at least one).
    pub(crate) fn cluster(urls: &[&str]) -> Result<Self, String> {
        if urls.is_empty() {
            return Err("a Redis Cluster needs at least one node's URL".to_owned());
        }
        let seeds = urls
            .iter()
            .map(|url| redis::Client::open(*url).map_err(|e| format!("{url}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        // The bounds are ours (`tokio::time::timeout` around each wait), as on one Redis.
        let client = ClusterClient::builder(urls.iter().copied())
            .build()
            .map(Box::new)
            .map_err(|e| e.to_string())?;
        Ok(Target::Cluster { client, seeds })
    }

    /// The plain clients the completion subscriber tries, in turn.
    pub(crate) fn subscribers(&self) -> Vec<redis::Client> {
        match self {
            Target::Single(client) => vec![client.clone()],
            Target::Cluster { seeds, .. } => seeds.clone(),
        }
    }

    /// Opens a connection (unbounded: the caller bounds it).
    pub(crate) async fn open(&self) -> Result<Connection, String> {
        match self {
            Target::Single(client) => {
                let config = redis::AsyncConnectionConfig::new()
                    .set_connection_timeout(None)
                    .set_response_timeout(None);
                client
                    .get_multiplexed_async_connection_with_config(&config)
                    .await
                    .map(Connection::Single)
            }
            Target::Cluster { client, .. } => client
                .get_async_connection()
                .await
                .map(|c| Connection::Cluster(Box::new(c))),
        }
        .map_err(|e| format!("cannot connect to Redis: {e}"))
    }
}

/// An open connection to one Redis or to a cluster.
#[derive(Clone)]
pub(crate) enum Connection {
    Single(MultiplexedConnection),
    Cluster(Box<ClusterConnection>),
}

impl Connection {
    /// Runs `cmd` on every primary (one Redis: on it) and gives each node's answer, named by
    /// its address (empty for one Redis).
    pub(crate) async fn on_every_primary(
        &mut self,
        cmd: &Cmd,
    ) -> redis::RedisResult<Vec<(String, Value)>> {
        match self {
            Connection::Single(connection) => {
                let value = cmd.query_async(connection).await?;
                Ok(vec![(String::new(), value)])
            }
            Connection::Cluster(connection) => {
                let routing = RoutingInfo::MultiNode((MultipleNodeRoutingInfo::AllMasters, None));
                let Value::Map(answers) = connection.route_command(cmd.clone(), routing).await?
                else {
                    return Err(redis::RedisError::from((
                        redis::ErrorKind::Client,
                        "the cluster's primaries did not answer node by node",
                    )));
                };
                Ok(answers
                    .into_iter()
                    .map(|(node, value)| {
                        let node = redis::from_redis_value::<String>(node).unwrap_or_default();
                        (node, value)
                    })
                    .collect())
            }
        }
    }

    /// Runs `cmd` (a command without keys, such as `WAIT` or `INFO`) on the primary that holds
    /// `key`'s slot (one Redis: on it).
    pub(crate) async fn on_primary_of(
        &mut self,
        key: &str,
        cmd: &Cmd,
    ) -> redis::RedisResult<Value> {
        match self {
            Connection::Single(connection) => cmd.query_async(connection).await,
            Connection::Cluster(connection) => {
                let routing = RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(
                    Route::with_key(key, SlotAddr::Master),
                ));
                connection.route_command(cmd.clone(), routing).await
            }
        }
    }
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Connection::Single(connection) => connection.req_packed_command(cmd),
            Connection::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Connection::Single(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
            Connection::Cluster(connection) => {
                connection.req_packed_commands(pipeline, offset, count)
            }
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Connection::Single(connection) => connection.get_db(),
            Connection::Cluster(connection) => connection.get_db(),
        }
    }
}
