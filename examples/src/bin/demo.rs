//! The one-command demo: starts the demo MCP server (rmcp, stdio) and drives it like a client
//! would, printing every round trip. Scripted answers by default; `--interactive` asks you in
//! the terminal, `--web` in your browser.
//!
//! ```text
//! cargo run -p elicit-examples --bin demo                  # 2026-07-28 (MRTR), scripted
//! cargo run -p elicit-examples --bin demo -- --legacy      # 2025-11-25 (server-to-client requests)
//! cargo run -p elicit-examples --bin demo -- --interactive # you answer in the terminal
//! cargo run -p elicit-examples --bin demo -- --web         # you answer in the browser
//! ```

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use elicit_examples::web_host::WebHost;
use elicit_host::terminal::Terminal;
use elicit_host::wire::ElicitResult;
use elicit_host::{Consent, Elicitation, UrlReport, safe_text};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

type Error = Box<dyn std::error::Error + Send + Sync>;

struct Options {
    interactive: bool,
    web: bool,
    legacy: bool,
}

/// A scripted or interactive user.
struct User {
    interactive: bool,
    /// Answers in the browser, on elicit-host's HTML renderer.
    web: Option<WebHost>,
    script: Vec<(&'static str, Value)>,
    /// The scripted person has opened a link and is on its page.
    on_page: bool,
    /// The person's browser, while it is on a page: joined before a call's end is printed, so
    /// what the person did is printed before what the call ended with.
    browser: Option<std::thread::JoinHandle<()>>,
}

impl User {
    /// The answer to one form or URL request: the bare `ElicitResult`.
    fn answer(&mut self, key: &str, params: &Value) -> Value {
        if self.interactive {
            return interactive_answer(params);
        }
        if let Some(web) = &self.web {
            return web.answer(params);
        }
        if params["mode"] == "url" && self.on_page {
            // The same link asked again while the person is still on its page.
            println!("    (the person is still on the page: accept again)");
            return json!({"action": "accept"});
        }
        let position = self.script.iter().position(|(k, _)| *k == key);
        let answer = match position {
            Some(i) => self.script.remove(i).1,
            None => json!({"action": "cancel"}),
        };
        if params["mode"] == "url" && answer["action"] == "accept" {
            self.on_page = true;
            self.browser = open_in_browser(params["url"].as_str().unwrap_or_default());
        }
        answer
    }
}

/// You answer, on elicit-host's terminal renderer: the request parsed strictly (a schema
/// outside the grammar is refused, not shown), every field reviewed and edited, the URL
/// consent screen with the site emphasised. The reply is exactly what the renderer returns.
fn interactive_answer(params: &Value) -> Value {
    let stdin = std::io::stdin();
    let mut terminal = Terminal::new(stdin.lock(), std::io::stdout());
    let result = match Elicitation::from_params(params) {
        Err(error) => {
            let error = error.to_string();
            println!("    (not shown: {}; answered cancel)", safe_text(&error));
            ElicitResult::cancel()
        }
        Ok(Elicitation::Form(form)) => terminal
            .fill(SERVER_NAME, &form)
            .unwrap_or_else(|_| ElicitResult::cancel()),
        Ok(Elicitation::Url(request)) => {
            let report = UrlReport::assess(&request.url, None);
            let consent = terminal
                .consent(SERVER_NAME, &request.message, &report)
                .unwrap_or(Consent::Cancelled);
            if consent == Consent::Opened {
                println!(
                    "    open the link above in your browser and click Confirm (or Cancel) there;\n    \
                     the server waits for you: each retry is held up to 30 s, and if you take\n    \
                     longer it asks again here with the same link (answer o to keep waiting)"
                );
            }
            consent.result()
        }
    };
    serde_json::to_value(result).unwrap_or_else(|_| json!({"action": "cancel"}))
}

/// The demo server's name, shown with each question.
const SERVER_NAME: &str = "elicit-demo";

/// How long the scripted person takes on the page before clicking Confirm: longer than the
/// two seconds an SDK client's empty rounds would last, so the demo shows the server waiting
/// for a person, not racing one.
const READING_TIME: Duration = Duration::from_secs(3);

/// Stands in for the person and their browser, as a person does it and not at once: the
/// client's callback has already returned `accept`; a moment later the person opens the
/// (loopback) link (keeping the cookie that ties the link to this browser, as a browser does),
/// reads the confirmation page, and clicks Confirm, which posts the page's form with its CSRF
/// token and the headers a browser sends for a same-origin form.
fn open_in_browser(url: &str) -> Option<std::thread::JoinHandle<()>> {
    let Some(rest) = url.strip_prefix("http://") else {
        println!(
            "    (not opening {}: the demo only opens its own loopback page)",
            safe_text(url)
        );
        return None;
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (authority, path) = (authority.to_owned(), path.to_owned());
    Some(std::thread::spawn(move || {
        let (page, cookie) = open_page(&authority, &path);
        let (status, token) = match &page {
            Ok(page) => (page.status.as_str(), token_in(&page.body)),
            Err(e) => {
                println!("    🌐 the browser could not open the link: {e}");
                return;
            }
        };
        println!("    🌐 the person opens the link: {status}, a page asking to confirm");
        let Some(token) = token else {
            println!("    🌐 the page shows no Confirm button");
            return;
        };
        std::thread::sleep(READING_TIME);
        let form = format!("token={token}&decision=confirm");
        let head = format!(
            "POST {path} HTTP/1.1\r\n{cookie}Origin: http://{authority}\r\nSec-Fetch-Site: same-origin\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            form.len()
        );
        match http(&authority, &head, &form) {
            Ok(Page { status, .. }) => println!(
                "    🌐 {} s later the person clicks Confirm: {status}",
                READING_TIME.as_secs()
            ),
            Err(e) => println!("    🌐 confirming failed: {e}"),
        }
    }))
}

/// `GET path`, following the landing page's one redirect that gives this browser its cookie;
/// the page and the `Cookie:` header line to send with the form (empty: no cookie).
fn open_page(authority: &str, path: &str) -> (std::io::Result<Page>, String) {
    let first = http(authority, &format!("GET {path} HTTP/1.1\r\n"), "");
    let (cookie, location) = match &first {
        Ok(page) if page.status.starts_with("303") => (page.cookie.clone(), page.location.clone()),
        _ => return (first, String::new()),
    };
    let (Some(cookie), Some(location)) = (cookie, location) else {
        return (first, String::new());
    };
    let cookie = format!("Cookie: {cookie}\r\n");
    let page = http(
        authority,
        &format!("GET {location} HTTP/1.1\r\n{cookie}"),
        "",
    );
    (page, cookie)
}

/// An HTTP response: its status, the `name=value` of its `Set-Cookie`, its `Location`, its body.
struct Page {
    status: String,
    cookie: Option<String>,
    location: Option<String>,
    body: String,
}

/// One HTTP/1.1 exchange on a fresh connection.
fn http(authority: &str, head: &str, body: &str) -> std::io::Result<Page> {
    let mut stream = TcpStream::connect(authority)?;
    write!(
        stream,
        "{head}Host: {authority}\r\nConnection: close\r\n\r\n{body}"
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response.lines().next().unwrap_or_default();
    let status = status.split_once(' ').map_or(status, |(_, s)| s).to_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let header = |name: &str| {
        head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    };
    Ok(Page {
        cookie: header("set-cookie").and_then(|c| c.split(';').next().map(str::to_owned)),
        location: header("location"),
        status,
        body: body.to_owned(),
    })
}

/// The CSRF token of the confirmation page's form (it is URL-safe base64, no escaping needed).
fn token_in(html: &str) -> Option<String> {
    let (_, rest) = html.split_once(r#"name="token" value=""#)?;
    let (token, _) = rest.split_once('"')?;
    Some(token.to_owned())
}

struct Connection {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: i64,
    legacy: bool,
}

impl Connection {
    async fn start(server: PathBuf, args: &[&str], legacy: bool) -> Result<Self, Error> {
        let mut child = Command::new(server)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
        Ok(Connection {
            child,
            stdin,
            lines,
            next_id: 0,
            legacy,
        })
    }

    async fn send(&mut self, message: &Value) -> Result<(), Error> {
        let mut line = serde_json::to_string(message)?;
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await?;
        Ok(())
    }

    fn meta() -> Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "elicit-demo-client", "version": env!("CARGO_PKG_VERSION")},
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}}
        })
    }

    /// Sends a request and waits for its response, answering server requests meanwhile.
    async fn request(
        &mut self,
        method: &str,
        mut params: Value,
        user: &mut User,
    ) -> Result<Value, Error> {
        if !self.legacy {
            params["_meta"] = Self::meta();
        }
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        loop {
            let line = self
                .lines
                .next_line()
                .await?
                .ok_or("the server closed its output")?;
            let message: Value = serde_json::from_str(&line)?;
            if message.get("method").is_some() && message.get("id").is_some() {
                // A server-to-client request (2025-11-25 only).
                let params = &message["params"];
                println!(
                    "  ← {} ({})",
                    safe_text(message["method"].as_str().unwrap_or_default()),
                    safe_text(&describe_request(params))
                );
                let key = params["requestedSchema"]["properties"]
                    .as_object()
                    .and_then(script_key_for)
                    .unwrap_or_else(|| {
                        if params["mode"] == "url" {
                            "connect".into()
                        } else {
                            String::new()
                        }
                    });
                let answer = user.answer(&key, params);
                println!("  → reply {answer}");
                self.send(&json!({"jsonrpc": "2.0", "id": message["id"], "result": answer}))
                    .await?;
            } else if let Some(method) = message.get("method") {
                let notification = format!("{method} {}", message["params"]);
                println!("  ← notification {}", safe_text(&notification));
            } else if message["id"] == json!(id) {
                return Ok(message);
            }
        }
    }
}

/// The script key of a legacy form, told apart by a field only it has (not by its first
/// field: a `Value` holds the properties sorted by name).
fn script_key_for(properties: &Map<String, Value>) -> Option<String> {
    let known = [
        ("date", "booking"),
        ("confirm", "confirm"),
        ("start", "dates"),
        ("adults", "travelers"),
    ];
    known
        .iter()
        .find(|(field, _)| properties.contains_key(*field))
        .map(|(_, key)| (*key).to_owned())
        .or_else(|| properties.keys().next().cloned())
}

/// One request in a line, in the server's own words: print it through [`safe_text`].
fn describe_request(params: &Value) -> String {
    if params["mode"] == "url" {
        let id = params
            .get("elicitationId")
            .map(|id| format!(", elicitationId {id}"))
            .unwrap_or_default();
        return format!(
            "url: \"{}\" → {}{id}",
            params["message"].as_str().unwrap_or_default(),
            shorten(params["url"].as_str().unwrap_or_default())
        );
    }
    let fields: Vec<String> = params["requestedSchema"]["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, p)| {
            let required = params["requestedSchema"]["required"]
                .as_array()
                .is_some_and(|r| r.contains(&json!(name)));
            format!("{name}{}", if required { "*" } else { "" }).to_owned()
                + &p.get("default")
                    .map(|d| format!("={d}"))
                    .unwrap_or_default()
        })
        .collect();
    format!(
        "form: \"{}\" [{}]",
        params["message"].as_str().unwrap_or_default(),
        fields.join(", ")
    )
}

fn shorten(url: &str) -> String {
    if url.chars().count() > 72 {
        // By characters: a byte index could split one and panic.
        format!("{}…", url.chars().take(72).collect::<String>())
    } else {
        url.to_owned()
    }
}

/// Calls one tool to completion, printing each round.
async fn call(
    conn: &mut Connection,
    user: &mut User,
    tool: &str,
    arguments: Value,
) -> Result<(), Error> {
    println!("\n── {tool} {arguments}");
    let first = json!({"name": tool, "arguments": arguments});
    let mut params = first.clone();
    for round in 1..=10 {
        println!(
            "  → tools/call {tool}{}",
            if round > 1 { " (retry)" } else { "" }
        );
        let sent = std::time::Instant::now();
        let response = conn.request("tools/call", params.clone(), user).await?;
        let held = sent.elapsed();
        if response["result"]["resultType"] != "input_required"
            && let Some(browser) = user.browser.take()
        {
            // The call ended: the person's last click is printed before its end.
            let _ = browser.join();
        }
        if held > Duration::from_secs(1) {
            println!(
                "  (the server held this call {:.1} s, while the person was on the page)",
                held.as_secs_f64()
            );
        }
        if let Some(error) = response.get("error") {
            println!(
                "  ← error {}: {}",
                error["code"],
                safe_text(error["message"].as_str().unwrap_or_default())
            );
            return Ok(());
        }
        let result = &response["result"];
        if result["resultType"] != "input_required" {
            let text = result["content"][0]["text"].as_str().unwrap_or_default();
            println!("  ← result: {}", safe_text(text));
            return Ok(());
        }
        let state = result["requestState"].as_str().unwrap_or_default();
        let mut responses = Map::new();
        let requests = result["inputRequests"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        println!(
            "  ← input_required: {} question(s), requestState {} bytes (sealed)",
            requests.len(),
            state.len()
        );
        for (key, request) in &requests {
            let asked = describe_request(&request["params"]);
            println!("    [{}] {}", safe_text(key), safe_text(&asked));
            let answer = user.answer(key, &request["params"]);
            println!("    answer [{}]: {answer}", safe_text(key));
            responses.insert(key.clone(), answer);
        }
        params = first.clone();
        if !responses.is_empty() {
            params["inputResponses"] = Value::Object(responses);
        }
        if !state.is_empty() {
            params["requestState"] = Value::from(state);
        }
    }
    println!("  (gave up after 10 rounds)");
    Ok(())
}

fn script() -> Vec<(&'static str, Value)> {
    vec![
        (
            "booking",
            json!({"action": "accept", "content": {"date": "2026-12-24", "time": "20:00", "guests": 4, "seating": "terrace", "extras": ["birthday_cake"], "email": "ada@example.com"}}),
        ),
        (
            "confirm",
            json!({"action": "accept", "content": {"confirm": true}}),
        ),
        ("connect", json!({"action": "accept"})),
        (
            "dates",
            json!({"action": "accept", "content": {"start": "2027-03-01", "nights": 5}}),
        ),
        (
            "travelers",
            json!({"action": "accept", "content": {"adults": 2, "children": 1}}),
        ),
        ("booking", json!({"action": "decline"})),
    ]
}

fn server_command() -> Result<(PathBuf, Vec<&'static str>), Error> {
    let me = std::env::current_exe()?;
    let sibling = me.with_file_name(format!("demo-server{}", std::env::consts::EXE_SUFFIX));
    if sibling.exists() {
        Ok((sibling, vec![]))
    } else {
        // Not built yet: this binary carries the same server.
        Ok((me, vec!["--serve"]))
    }
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--serve") {
        let config = elicit_examples::demo::config::DemoConfig::local();
        return elicit_examples::demo::run::serve_stdio(&config).await;
    }
    let options = Options {
        interactive: args.iter().any(|a| a == "--interactive"),
        web: args.iter().any(|a| a == "--web"),
        legacy: args.iter().any(|a| a == "--legacy"),
    };
    let web = if options.web {
        let web = WebHost::start(SERVER_NAME).await?;
        println!("answering in the browser: open {}", web.url());
        Some(web)
    } else {
        None
    };
    let (server, server_args) = server_command()?;
    let mut conn = Connection::start(server, &server_args, options.legacy).await?;
    let mut user = User {
        interactive: options.interactive,
        web,
        script: script(),
        on_page: false,
        browser: None,
    };
    if options.legacy {
        println!(
            "protocol 2025-11-25: initialize, then the server sends elicitation/create requests"
        );
        let init = conn
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}, "url": {}}}, "clientInfo": {"name": "elicit-demo-client", "version": env!("CARGO_PKG_VERSION")}}),
                &mut user,
            )
            .await?;
        let server_info = init["result"]["serverInfo"].to_string();
        println!("  ← initialized: {}", safe_text(&server_info));
        conn.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await?;
    } else {
        println!(
            "protocol 2026-07-28: stateless requests, input-required rounds (MRTR), sealed requestState"
        );
    }
    call(
        &mut conn,
        &mut user,
        "book_table",
        json!({"restaurant": "Chez Rust"}),
    )
    .await?;
    call(
        &mut conn,
        &mut user,
        "cancel_reservation",
        json!({"reservation_id": "R-1042"}),
    )
    .await?;
    call(
        &mut conn,
        &mut user,
        "connect_account",
        json!({"service": "github"}),
    )
    .await?;
    call(
        &mut conn,
        &mut user,
        "plan_trip",
        json!({"destination": "Lisbon"}),
    )
    .await?;
    call(
        &mut conn,
        &mut user,
        "book_table",
        json!({"restaurant": "Le Borrow Checker"}),
    )
    .await?;
    drop(conn.stdin);
    let _ = conn.child.wait().await;
    Ok(())
}
