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
            Finding::MixedScript {
                label: "ex\u{430}mple".into()
            },
            Finding::LooksLikeServer {
                server_host: "mcp.example.com".into()
            },
            Finding::International {
                ascii: "mcp.xn--exmple-4nf.com".into(),
                unicode: "mcp.ex\u{430}mple.com".into()
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

const SERVER: Option<&str> = Some("https://mcp.example.com");

fn embeds_server(server_host: &str, site: &str) -> Finding {
    Finding::EmbedsServer {
        server_host: server_host.into(),
        site: site.into(),
    }
}

fn embeds_site(embedded: &str, site: &str) -> Finding {
    Finding::EmbedsSite {
        embedded: embedded.into(),
        site: site.into(),
    }
}

fn this_computer(host: &str) -> Finding {
    Finding::ThisComputer {
        host: host.into(),
        server_site: "example.com".into(),
    }
}

fn local_network(host: &str) -> Finding {
    Finding::LocalNetwork {
        host: host.into(),
        server_site: "example.com".into(),
    }
}

fn other_site() -> Finding {
    Finding::OtherSite {
        server_site: "example.com".into(),
    }
}

#[test]
fn phishing_links_are_named_for_what_they_hide_and_where_they_go() {
    let corpus: Vec<(&str, Option<&str>, Vec<Finding>)> = vec![
        // The server's own host or site in front of another site.
        (
            "https://mcp.example.com.evil.example/connect?e=1",
            SERVER,
            vec![embeds_server("mcp.example.com", "evil.example")],
        ),
        (
            "https://login.example.com.evil.example/",
            SERVER,
            vec![embeds_server("example.com", "evil.example")],
        ),
        (
            "https://mcp.example.dev.evil.example/",
            Some("https://mcp.example.dev:8443/mcp"),
            vec![embeds_server("mcp.example.dev", "evil.example")],
        ),
        (
            "https://203.0.113.7.evil.example/",
            Some("https://203.0.113.7"),
            vec![embeds_server("203.0.113.7", "evil.example")],
        ),
        // Another site's name in front of the real one.
        (
            "https://paypal.com.secure-login.example/signin",
            SERVER,
            vec![
                embeds_site("paypal.com", "secure-login.example"),
                other_site(),
            ],
        ),
        (
            "https://login-paypal.com.evil.example/",
            None,
            vec![embeds_site("login-paypal.com", "evil.example")],
        ),
        (
            "https://www.paypal.com.account-verify.com/",
            None,
            vec![embeds_site("paypal.com", "account-verify.com")],
        ),
        (
            "https://accounts.google.com.oauth.evil.example/o/oauth2/auth",
            None,
            vec![embeds_site("google.com", "evil.example")],
        ),
        (
            "https://bbc.co.uk.news.evil.example/",
            None,
            vec![embeds_site("bbc.co.uk", "evil.example")],
        ),
        (
            "https://user.github.io.evil.example/",
            None,
            vec![embeds_site("user.github.io", "evil.example")],
        ),
        (
            "https://xn--mnchen-3ya.com.evil.example/",
            None,
            vec![
                embeds_site("m\u{fc}nchen.com", "evil.example"),
                Finding::International {
                    ascii: "xn--mnchen-3ya.com.evil.example".into(),
                    unicode: "m\u{fc}nchen.com.evil.example".into(),
                },
            ],
        ),
        // A hostile server's own site still may not pose as another.
        (
            "https://paypal.com.evil.example/",
            Some("https://mcp.evil.example"),
            vec![embeds_site("paypal.com", "evil.example")],
        ),
        // A remote server sending the person to their own computer, however it is written.
        (
            "https://0x7f.1/admin",
            SERVER,
            vec![this_computer("127.0.0.1")],
        ),
        (
            "https://2130706433/",
            SERVER,
            vec![this_computer("127.0.0.1")],
        ),
        (
            "https://127.1.2.3/",
            SERVER,
            vec![this_computer("127.1.2.3")],
        ),
        (
            "https://localhost:8080/",
            SERVER,
            vec![this_computer("localhost")],
        ),
        (
            "https://app.localhost/",
            SERVER,
            vec![this_computer("app.localhost")],
        ),
        ("https://[::1]/", SERVER, vec![this_computer("[::1]")]),
        (
            "https://0.0.0.0/",
            SERVER,
            vec![Finding::IpAddress, this_computer("0.0.0.0")],
        ),
        (
            "https://[::ffff:127.0.0.1]/",
            SERVER,
            vec![Finding::IpAddress, this_computer("[::ffff:7f00:1]")],
        ),
        (
            "http://127.0.0.1:8080/",
            SERVER,
            vec![this_computer("127.0.0.1"), Finding::PlainHttpOnLoopback],
        ),
        (
            "https://127.0.0.1/",
            Some("https://192.168.1.20:8443"),
            vec![Finding::ThisComputer {
                host: "127.0.0.1".into(),
                server_site: "192.168.1.20".into(),
            }],
        ),
        // …or to a device on their local network.
        (
            "https://192.168.1.1/",
            SERVER,
            vec![Finding::IpAddress, local_network("192.168.1.1")],
        ),
        (
            "https://10.0.0.1/",
            SERVER,
            vec![Finding::IpAddress, local_network("10.0.0.1")],
        ),
        (
            "https://172.16.0.1/",
            SERVER,
            vec![Finding::IpAddress, local_network("172.16.0.1")],
        ),
        (
            "https://169.254.169.254/latest/meta-data/",
            SERVER,
            vec![Finding::IpAddress, local_network("169.254.169.254")],
        ),
        (
            "https://[fd00::1]/",
            SERVER,
            vec![Finding::IpAddress, local_network("[fd00::1]")],
        ),
        (
            "https://[fe80::1]/",
            SERVER,
            vec![Finding::IpAddress, local_network("[fe80::1]")],
        ),
        (
            "https://[::ffff:192.168.0.1]/",
            SERVER,
            vec![Finding::IpAddress, local_network("[::ffff:c0a8:1]")],
        ),
        // An accented lookalike of the server's own name.
        (
            "https://mcp.ex\u{e4}mple.com/",
            SERVER,
            vec![
                Finding::LooksLikeServer {
                    server_host: "mcp.example.com".into(),
                },
                Finding::International {
                    ascii: "mcp.xn--exmple-cua.com".into(),
                    unicode: "mcp.ex\u{e4}mple.com".into(),
                },
            ],
        ),
    ];
    for (url, server, expected) in corpus {
        let report = UrlReport::assess(url, server);
        assert_eq!(report.findings(), expected, "{url} from {server:?}");
        assert_eq!(report.worst(), Some(Severity::Warning), "{url}");
        assert!(report.may_open(), "{url}");
    }
}

#[test]
fn honest_links_get_no_warning() {
    let corpus: Vec<(&str, Option<&str>, Vec<Finding>)> = vec![
        ("https://mcp.example.com/connect?e=AbC", SERVER, vec![]),
        (
            "https://www.example.com/pay",
            Some("https://example.com"),
            vec![],
        ),
        ("https://auth.app.example.com/login", SERVER, vec![]),
        ("https://example.com.example.com/", SERVER, vec![]),
        ("https://eu.login.example.com/", SERVER, vec![]),
        (
            "https://accounts.google.com/o/oauth2/auth?client_id=123.apps.googleusercontent.com&redirect_uri=https%3A%2F%2Fmcp.example.com%2Fcallback&response_type=code&scope=openid%20email&state=k3J",
            SERVER,
            vec![other_site()],
        ),
        (
            "https://github.com/login/oauth/authorize?client_id=Iv1.8a61&state=k3J&scope=repo",
            SERVER,
            vec![other_site()],
        ),
        (
            "https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=6731de76&response_type=code",
            SERVER,
            vec![other_site()],
        ),
        // Regions and words in a provider's subdomains are not sites of their own.
        (
            "https://acme.us.auth0.com/authorize",
            SERVER,
            vec![other_site()],
        ),
        (
            "https://acme.eu.auth0.com/authorize",
            SERVER,
            vec![other_site()],
        ),
        (
            "https://acme.my.salesforce.com/services/oauth2/authorize",
            SERVER,
            vec![other_site()],
        ),
        (
            "https://auth.app.provider.example/",
            SERVER,
            vec![other_site()],
        ),
        (
            "https://checkout.stripe.com/c/pay/cs_test_a1",
            SERVER,
            vec![other_site()],
        ),
        // A local server's own pages.
        ("https://127.0.0.1:8443/connect", None, vec![]),
        ("https://localhost/connect", None, vec![]),
        ("https://[::1]:8443/connect", None, vec![]),
        (
            "http://localhost:3000/callback",
            None,
            vec![Finding::PlainHttpOnLoopback],
        ),
        (
            "http://127.0.0.1:9000/connect",
            Some("http://127.0.0.1:8080"),
            vec![Finding::PlainHttpOnLoopback],
        ),
        (
            "http://localhost:3000/connect",
            Some("http://127.0.0.1:8080"),
            vec![
                Finding::PlainHttpOnLoopback,
                Finding::OtherSite {
                    server_site: "127.0.0.1".into(),
                },
            ],
        ),
        // Names in one script.
        (
            "https://m\u{fc}nchen.de/",
            SERVER,
            vec![
                Finding::International {
                    ascii: "xn--mnchen-3ya.de".into(),
                    unicode: "m\u{fc}nchen.de".into(),
                },
                other_site(),
            ],
        ),
        (
            "https://\u{4f8b}\u{3048}.jp/",
            None,
            vec![Finding::International {
                ascii: "xn--r8jz45g.jp".into(),
                unicode: "\u{4f8b}\u{3048}.jp".into(),
            }],
        ),
    ];
    for (url, server, expected) in corpus {
        let report = UrlReport::assess(url, server);
        assert_eq!(report.findings(), expected, "{url} from {server:?}");
        assert!(
            report.worst().is_none_or(|worst| worst < Severity::Warning),
            "{url}"
        );
    }
}

#[test]
fn the_emphasised_site_is_where_the_browser_goes_for_an_embedded_name() {
    let report = UrlReport::assess("https://paypal.com.secure-login.example/signin", None);
    let shown = report.highlighted().unwrap();
    assert_eq!(
        (shown.before, shown.site, shown.after),
        ("https://paypal.com.", "secure-login.example", "/signin")
    );
    assert_eq!(
        kinds(&report),
        [
            "the site name puts `paypal.com` in front of another site: the page is on \
          `secure-login.example`, not `paypal.com`"
        ]
    );
    let local = UrlReport::assess("https://0x7f.1/admin", SERVER);
    assert_eq!(local.highlighted().unwrap().site, "127.0.0.1");
    assert_eq!(
        kinds(&local),
        ["the link opens `127.0.0.1`, which is this computer, not the server's site `example.com`"]
    );
}

#[test]
fn the_emphasised_site_stays_where_the_browser_goes() {
    // Each: the URL, the site the browser goes to, and a finding that must be there.
    let corpus: [(&str, &str, Option<Finding>); 6] = [
        (
            "https://github.com@evil.example/",
            "evil.example",
            Some(Finding::Userinfo),
        ),
        // `\` is `/` to a browser: the rest is the path.
        ("https://evil.example\\@github.com/", "evil.example", None),
        ("https://evil.example#@github.com/", "evil.example", None),
        (
            "https://0xcb.0.113.9/",
            "203.0.113.9",
            Some(Finding::IpAddress),
        ),
        (
            "https://evil.example%2F@github.com/",
            "github.com",
            Some(Finding::Userinfo),
        ),
        (
            "https://[::ffff:203.0.113.9]/",
            "[::ffff:cb00:7109]",
            Some(Finding::IpAddress),
        ),
    ];
    for (url, site, finding) in corpus {
        let report = UrlReport::assess(url, SERVER);
        let shown = report.highlighted().map(|shown| shown.site);
        assert_eq!(shown, Some(site), "{url}: {:?}", report.findings());
        if let Some(finding) = finding {
            assert!(
                report.findings().contains(&finding),
                "{url}: {:?}",
                report.findings()
            );
        }
    }
}

#[test]
fn a_server_on_the_local_network_may_link_to_it_and_a_local_server_here() {
    // Only the bare address is noted, as for any address.
    let lan = UrlReport::assess("https://192.168.1.1/", Some("https://192.168.1.20"));
    assert_eq!(
        lan.findings(),
        [
            Finding::IpAddress,
            Finding::OtherSite {
                server_site: "192.168.1.20".into()
            },
        ]
    );
    let here = UrlReport::assess("https://[::1]/connect", Some("https://127.0.0.1:8443"));
    assert_eq!(
        here.findings(),
        [Finding::OtherSite {
            server_site: "127.0.0.1".into()
        }]
    );
}

#[test]
fn a_host_of_many_labels_gets_a_few_findings_not_one_per_label() {
    let same = format!("https://{}com/", "ex\u{430}mple.".repeat(10_000));
    let report = UrlReport::assess(&same, SERVER);
    assert_eq!(
        report.findings()[..2],
        [
            Finding::MixedScript {
                label: "ex\u{430}mple".into()
            },
            Finding::LooksLikeServer {
                server_host: "mcp.example.com".into()
            },
        ]
    );
    assert_eq!(report.findings().len(), 3, "and the International notice");

    let distinct: String = (0..10_000).map(|i| format!("ex\u{430}mple{i}.")).collect();
    let report = UrlReport::assess(&format!("https://{distinct}com/"), None);
    let labels = report
        .findings()
        .iter()
        .filter(|f| matches!(f, Finding::MixedScript { .. }));
    assert_eq!(labels.count(), host::MAX_NAMED);

    let sites: String = (0..10_000).map(|i| format!("site{i}.com.")).collect();
    let report = UrlReport::assess(&format!("https://{sites}evil.example/"), None);
    assert_eq!(
        report.findings(),
        (0..host::MAX_NAMED)
            .map(|i| embeds_site(&format!("site{i}.com"), "evil.example"))
            .collect::<Vec<_>>()
    );
}
