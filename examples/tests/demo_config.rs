//! `DemoConfig`: replicas given the same key ring open each other's `requestState`; the local
//! demo keeps its in-memory stores and links to its own landing page.

use elicit_examples::demo::config::DemoConfig;
use elicit_rmcp::state::{Binding, KeyRing, StateError};
use serde_json::json;

fn shared(keys: &str) -> DemoConfig {
    DemoConfig {
        keys: keys.parse().expect("a key ring"),
        ..DemoConfig::local()
    }
}

#[tokio::test]
async fn replicas_sharing_keys_open_each_others_state() {
    let keys = KeyRing::generate_config_entry(1);
    let a = shared(&keys)
        .elicit_server("http://127.0.0.1:1")
        .await
        .unwrap();
    let b = shared(&keys)
        .elicit_server("http://127.0.0.1:2")
        .await
        .unwrap();
    let stranger = DemoConfig::local()
        .elicit_server("http://127.0.0.1:3")
        .await
        .unwrap();

    let binding = Binding::tool_call("book_table", &json!({"restaurant": "Chez Rust"}))
        .with_principal("demo-user");
    let token = a.sealer().seal_now(&binding, &json!({"round": 1})).unwrap();
    let opened = b
        .sealer()
        .open_now::<serde_json::Value>(&token, &binding)
        .unwrap();
    assert_eq!(opened.payload, json!({"round": 1}));
    // Without the shared ring (each process generating its own) the state is refused.
    assert!(matches!(
        stranger
            .sealer()
            .open_now::<serde_json::Value>(&token, &binding),
        Err(StateError::Decrypt | StateError::UnknownKey { .. })
    ));
}

#[tokio::test]
async fn the_local_demo_keeps_memory_stores_and_its_own_links() {
    let server = DemoConfig::local()
        .elicit_server("http://127.0.0.1:8765")
        .await
        .unwrap();
    assert!(server.url_settings().store().is_some());
    // Completions are single use with no setting, in the demo too.
    assert!(server.url_settings().single_use());
    let public = DemoConfig {
        public_origin: Some("https://demo.example.com".into()),
        ..DemoConfig::local()
    };
    assert!(public.elicit_server("http://127.0.0.1:8765").await.is_ok());
    let bad = DemoConfig {
        public_origin: Some("http://demo.example.com".into()),
        ..DemoConfig::local()
    };
    let err = bad
        .elicit_server("http://127.0.0.1:8765")
        .await
        .unwrap_err();
    assert!(
        err.starts_with("links' origin http://demo.example.com: "),
        "{err}"
    );
}

#[tokio::test]
async fn redis_that_does_not_answer_fails_at_startup() {
    // Port 1 on loopback: nothing listens there, so connecting is refused at once.
    let config = DemoConfig {
        redis: Some("redis://127.0.0.1:1".into()),
        ..DemoConfig::local()
    };
    let err = config
        .elicit_server("http://127.0.0.1:8765")
        .await
        .unwrap_err();
    assert!(err.starts_with("Redis: "), "{err}");
}
