//! What asked parameters cost per call: the same tool, the same two questions, written as
//! `#[elicit_rmcp::asks]` parameters (`asked`) and asked by hand in the body (`by_hand`,
//! the baseline), each a whole 2026-07-28 call (first round, then the retry with both answers)
//! from rmcp's own client in process (`testing::ScriptedClient`), in one run, each on a fresh
//! server.
//!
//! Run: `cargo bench -p elicit-rmcp --bench asked -- --warm-up-time 1 --measurement-time 5`;
//! the first line it prints is the paired comparison (see `paired`), the figure to read.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use elicit_rmcp::testing::ScriptedClient;
use elicit_rmcp::wire::ProtocolEra;
use elicit_rmcp::{Answer, Asked, Elicit, ElicitForm, ElicitHandler};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData as McpError, ServerHandler, schemars, tool, tool_router};
use serde_json::json;

/// When do you travel?
#[derive(ElicitForm)]
struct Dates {
    #[elicit(format = "date")]
    start: String,
    #[elicit(minimum = 1, maximum = 30)]
    nights: u8,
}

/// Who travels?
#[derive(ElicitForm)]
struct Travelers {
    #[elicit(minimum = 1, maximum = 9)]
    adults: u8,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Trip {
    destination: String,
}

#[derive(Clone)]
struct Server {
    elicit: ElicitHandler,
}

fn plan(destination: &str, dates: Answer<Dates>, travelers: Answer<Travelers>) -> String {
    match (dates, travelers) {
        (Answer::Accepted(d), Answer::Accepted(t)) => format!(
            "{} nights in {destination} from {} for {}",
            d.nights, d.start, t.adults
        ),
        _ => "not planned".into(),
    }
}

#[tool_router]
impl Server {
    #[elicit_rmcp::asks]
    #[tool(description = "Plan a trip")]
    async fn asked(
        &self,
        Parameters(Trip { destination }): Parameters<Trip>,
        #[ask(message = format!("When do you travel to {destination}?"))] dates: Asked<Dates>,
        travelers: Asked<Travelers>,
    ) -> Result<String, McpError> {
        Ok(plan(&destination, dates, travelers))
    }

    #[tool(description = "Plan a trip")]
    async fn by_hand(
        &self,
        Parameters(Trip { destination }): Parameters<Trip>,
        mut cx: Elicit,
    ) -> Result<String, McpError> {
        let dates = Dates::question()
            .message(format!("When do you travel to {destination}?"))
            .ask(&mut cx)
            .await;
        let travelers = Travelers::ask(&mut cx).await;
        Ok(plan(&destination, dates?, travelers?))
    }
}

#[elicit_rmcp::handler]
impl ServerHandler for Server {}

fn whole_call(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // A fresh server for each call (not timed): the spent states a server remembers grow
    // with every call, and would make whichever routine runs second pay for the first's.
    let server = || Server {
        elicit: ElicitHandler::local("bench"),
    };
    let client = ScriptedClient::new(ProtocolEra::Mrtr2026)
        .accept(&Dates {
            start: "2026-09-01".into(),
            nights: 4,
        })
        .accept(&Travelers { adults: 2 });
    paired(&runtime, &client, &server);
    let mut group = c.benchmark_group("asked_whole_call_2026");
    for tool in ["asked", "by_hand"] {
        group.bench_function(tool, |b| {
            b.iter_batched(
                server,
                |server| {
                    let arguments = json!({"destination": "Lisbon"});
                    let run = runtime.block_on(client.call_tool(server, tool, arguments));
                    assert_eq!(run.text(), "4 nights in Lisbon from 2026-09-01 for 2");
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// Whatever runs later in this process runs slower (the per-call figures drift upwards by
/// up to 1.7x over a run, whichever routine is second), so criterion's two groups alone
/// cannot compare them: this alternates batches of each, `ASKED_PAIRED` rounds (default 30)
/// of 50 calls, and prints the medians per call and the median of the per-round ratios.
fn paired(
    runtime: &tokio::runtime::Runtime,
    client: &ScriptedClient,
    server: &impl Fn() -> Server,
) {
    let rounds: usize = std::env::var("ASKED_PAIRED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30);
    let batch = |tool: &str| {
        let servers: Vec<Server> = (0..50).map(|_| server()).collect();
        let start = std::time::Instant::now();
        for server in servers {
            let arguments = json!({"destination": "Lisbon"});
            let run = runtime.block_on(client.call_tool(server, tool, arguments));
            assert_eq!(run.text(), "4 nights in Lisbon from 2026-09-01 for 2");
        }
        start.elapsed().as_secs_f64() * 1e6 / 50.0
    };
    let (mut by_hand, mut asked, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternate which goes first, too.
        let (h, a) = if round % 2 == 0 {
            let h = batch("by_hand");
            (h, batch("asked"))
        } else {
            let a = batch("asked");
            (batch("by_hand"), a)
        };
        by_hand.push(h);
        asked.push(a);
        ratios.push(a / h);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "paired, {rounds} rounds of 50 calls: by_hand {:.1} µs, asked {:.1} µs per call; \
         median ratio asked/by_hand {:.3}",
        median(by_hand),
        median(asked),
        median(ratios)
    );
}

criterion_group!(benches, whole_call);
criterion_main!(benches);
