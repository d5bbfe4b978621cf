//! The demo MCP server: stdio by default, streamable HTTP with `--http PORT`.

use elicit_examples::demo::run;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => run::serve_stdio().await,
        [flag, port] if flag == "--http" => run::serve_http(port.parse()?).await,
        _ => {
            eprintln!("usage: demo-server [--http PORT]");
            std::process::exit(2);
        }
    }
}
