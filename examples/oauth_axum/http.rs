//! Just enough HTTP/1.1 for the example's stand-ins (the browser and the token exchange), over
//! a plain loopback socket, so the example needs no HTTP client crate.

use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A response: its status, its `Location` and `Set-Cookie` headers and its body.
#[derive(Debug)]
pub(crate) struct Response {
    pub status: u16,
    pub location: Option<String>,
    pub set_cookies: Vec<String>,
    pub body: String,
}

/// Sends one request to an `http://host:port/path` URL and reads the whole response.
pub(crate) async fn send(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> io::Result<Response> {
    let invalid =
        |what: &str| io::Error::new(io::ErrorKind::InvalidInput, format!("{what}: {url}"));
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| invalid("not an http URL"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);

    let mut stream = TcpStream::connect(authority).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await?;

    let (head, body) = raw
        .split_once("\r\n\r\n")
        .ok_or_else(|| invalid("no response head"))?;
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| invalid("no status line"))?;
    let headers: Vec<(&str, &str)> = lines.filter_map(|line| line.split_once(':')).collect();
    let values = |wanted: &'static str| -> Vec<String> {
        headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case(wanted))
            .map(|(_, value)| value.trim().to_owned())
            .collect()
    };
    Ok(Response {
        status,
        location: values("location").into_iter().next(),
        set_cookies: values("set-cookie"),
        body: body.to_owned(),
    })
}
