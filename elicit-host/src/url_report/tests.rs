use super::*;

fn kinds(report: &UrlReport) -> Vec<String> {
    report.findings().iter().map(ToString::to_string).collect()
}

#[test]
fn a_providers_sign_in_page_is_another_site_and_nothing_else() {
    let report = UrlReport::assess(
        "https://github.com/login/oauth/authorize?client_id=Iv1.8a61&state=k3J&scope=repo",
        Some("https://mcp.example.com:8443/mcp"),
    );
    assert_eq!(report.relation(), Relation::OtherSite);
    assert_eq!(
        report.findings(),
        [Finding::OtherSite {
            server_site: "example.com".into()
        }]
    );
    assert_eq!(report.worst(), Some(Severity::Notice));
    let shown = report.highlighted().unwrap();
    assert_eq!((shown.before, shown.site), ("https://", "github.com"));
    assert!(shown.after.starts_with("/login/oauth/authorize?"));
}

#[test]
fn the_servers_own_connect_page_is_same_origin_and_its_other_hosts_same_site() {
    let own = UrlReport::assess(
        "https://mcp.example.com/connect?e=AbC",
        Some("https://mcp.example.com"),
    );
    assert_eq!(own.relation(), Relation::SameOrigin);
    assert_eq!(own.findings(), []);
    let shown = own.highlighted().unwrap();
    assert_eq!(
        (shown.before, shown.site, shown.after),
        ("https://mcp.", "example.com", "/connect?e=AbC")
    );

    let sibling = UrlReport::assess(
        "https://auth.example.com/connect",
        Some("https://mcp.example.com"),
    );
    assert_eq!(sibling.relation(), Relation::SameSite);
    assert_eq!(sibling.findings(), []);
}

#[test]
fn the_registrable_domain_follows_the_public_suffix_list() {
    let report = UrlReport::assess("https://shop.example.co.uk/pay", None);
    assert_eq!(report.site(), Some("example.co.uk"));
    // A host on a public suffix someone else controls is its own site.
    let pages = UrlReport::assess("https://evil.github.io/", Some("https://good.github.io"));
    assert_eq!(pages.site(), Some("evil.github.io"));
    assert_eq!(pages.relation(), Relation::OtherSite);
}

#[test]
fn only_https_and_http_to_this_computer_may_open() {
    for url in [
        "http://github.com/login",
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "vscode://extension/install",
        "ftp://example.com/",
    ] {
        let report = UrlReport::assess(url, None);
        assert!(!report.may_open(), "{url}");
        assert_eq!(report.worst(), Some(Severity::Refuse), "{url}");
    }
    for url in [
        "http://127.0.0.1:8080/connect",
        "http://localhost:3000/",
        "http://[::1]/x",
        "http://app.localhost/",
    ] {
        let report = UrlReport::assess(url, None);
        assert!(report.may_open(), "{url}");
        assert_eq!(report.findings(), [Finding::PlainHttpOnLoopback], "{url}");
    }
    let loopback = UrlReport::assess("http://127.0.0.1:8080/connect", None);
    assert_eq!(loopback.highlighted().unwrap().site, "127.0.0.1");
}

#[test]
fn text_that_is_not_a_url_is_refused_with_the_reason() {
    let report = UrlReport::assess("/connect?e=1", None);
    assert!(!report.may_open());
    assert_eq!(
        kinds(&report),
        ["this is not a valid URL (relative URL without a base)"]
    );
    assert_eq!(report.url(), None);
    assert_eq!(report.highlighted(), None);
}

#[test]
fn user_info_before_the_host_is_flagged_and_the_real_host_emphasised() {
    let report = UrlReport::assess("https://accounts.google.com:pw@evil.example/x", None);
    assert!(report.findings().contains(&Finding::Userinfo));
    let shown = report.highlighted().unwrap();
    assert_eq!(shown.before, "https://accounts.google.com:pw@");
    assert_eq!(shown.site, "evil.example");
}

#[test]
fn an_ip_address_is_flagged() {
    let report = UrlReport::assess("https://203.0.113.9/login", None);
    assert_eq!(report.findings(), [Finding::IpAddress]);
    assert_eq!(report.site(), Some("203.0.113.9"));
}

#[test]
fn a_mixed_script_lookalike_of_the_servers_host_is_named() {
    // "exаmple.com" with a Cyrillic а, sent as Unicode: the browser opens the Punycode.
    let report = UrlReport::assess(
        "https://mcp.ex\u{430}mple.com/connect",
        Some("https://mcp.example.com"),
    );
    assert_eq!(report.url(), Some("https://mcp.xn--exmple-4nf.com/connect"));
    assert_eq!(report.host_unicode(), Some("mcp.ex\u{430}mple.com"));
    assert_eq!(report.relation(), Relation::OtherSite);
    assert_eq!(
        report.findings(),
        [
            Finding::International {
                ascii: "mcp.xn--exmple-4nf.com".into(),
                unicode: "mcp.ex\u{430}mple.com".into()
            },
            Finding::MixedScript {
                label: "ex\u{430}mple".into()
            },
            Finding::LooksLikeServer {
                server_host: "mcp.example.com".into()
            },
        ]
    );
}

#[test]
fn an_ascii_lookalike_of_the_servers_site_is_named() {
    // "rn" reads as "m".
    let report = UrlReport::assess(
        "https://login.exarnple.com/",
        Some("https://mcp.example.com"),
    );
    assert_eq!(
        report.findings(),
        [Finding::LooksLikeServer {
            server_host: "mcp.example.com".into()
        }]
    );
}

#[test]
fn a_whole_script_lookalike_reads_as_ascii() {
    // All Cyrillic: "раураӏ".
    let report = UrlReport::assess(
        "https://\u{440}\u{430}\u{443}\u{440}\u{430}\u{4cf}.com/",
        None,
    );
    assert!(
        report.findings().contains(&Finding::LooksLikeAscii {
            label: "\u{440}\u{430}\u{443}\u{440}\u{430}\u{4cf}".into(),
            looks_like: "paypal".into()
        }),
        "{:?}",
        report.findings()
    );
}

#[test]
fn a_genuine_international_name_is_decoded_and_only_noted_as_such() {
    let report = UrlReport::assess("https://xn--mnchen-3ya.de/", None);
    assert_eq!(report.site_unicode(), Some("m\u{fc}nchen.de"));
    assert_eq!(
        report.findings(),
        [Finding::International {
            ascii: "xn--mnchen-3ya.de".into(),
            unicode: "m\u{fc}nchen.de".into()
        }]
    );
}

#[test]
fn broken_punycode_is_refused_by_the_url_parser() {
    for url in [
        "https://xn--abc.com/",
        "https://xn--ls8h-.com/",
        "https://xn--abc-.com/",
    ] {
        let report = UrlReport::assess(url, None);
        assert!(!report.may_open(), "{url}: {:?}", report.findings());
    }
}

#[test]
fn secrets_and_personal_data_in_the_query_or_fragment_are_flagged_once_each() {
    let report = UrlReport::assess(
        "https://pay.example.com/checkout?amount=5&api_key=sk_live_1&email=ada%40example.com&api_key=2#access_token=abc",
        Some("https://pay.example.com"),
    );
    assert_eq!(
        report.findings(),
        [
            Finding::SensitiveParameter {
                name: "api_key".into(),
                kind: Sensitive::Credential
            },
            Finding::SensitiveParameter {
                name: "email".into(),
                kind: Sensitive::PersonalData
            },
            Finding::SensitiveParameter {
                name: "access_token".into(),
                kind: Sensitive::Credential
            },
        ]
    );
    assert_eq!(
        kinds(&report)[0],
        "the link carries what looks like a secret (`api_key`)"
    );
}

#[test]
fn the_most_severe_finding_comes_first() {
    let report = UrlReport::assess("http://user@github.com/?token=x", None);
    assert_eq!(report.worst(), Some(Severity::Refuse));
    assert!(matches!(
        report.findings()[0],
        Finding::SchemeNotAllowed { .. }
    ));
}
