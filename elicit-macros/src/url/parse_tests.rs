use super::{Host, Url};

#[test]
fn splits_every_part() {
    let url = Url::parse("HTTPS://me:pw@Example.COM:8443/a/b%20c?x=1&y=a+b%40c#top").unwrap();
    assert_eq!(url.scheme, "https");
    assert_eq!(url.userinfo, Some("me:pw"));
    assert_eq!(url.host, Some(Host::Domain("example.com".into())));
    assert_eq!(url.port, Some(8443));
    assert_eq!(url.path, "/a/b%20c");
    assert_eq!(url.path_segments().collect::<Vec<_>>(), ["a", "b c"]);
    assert_eq!(url.query, Some("x=1&y=a+b%40c"));
    assert_eq!(
        url.query_pairs().collect::<Vec<_>>(),
        [("x".into(), "1".into()), ("y".into(), "a b@c".into())]
    );
    assert_eq!(url.fragment, Some("top"));
}

#[test]
fn hosts() {
    let host = |raw| Url::parse(raw).unwrap().host;
    assert_eq!(
        host("http://localhost:8080/"),
        Some(Host::Domain("localhost".into()))
    );
    assert_eq!(
        host("http://127.0.0.1/"),
        Some(Host::Ipv4([127, 0, 0, 1].into()))
    );
    assert_eq!(
        host("http://[::1]:3000/x"),
        Some(Host::Ipv6("::1".parse().unwrap()))
    );
    assert_eq!(
        host("http://[2001:db8::7]"),
        Some(Host::Ipv6("2001:db8::7".parse().unwrap()))
    );
    assert_eq!(host("mailto:a@example.com"), None);
    for bad in [
        "https:///path",
        "https://[::1/",
        "https://[nope]/",
        "https://[::1]x/",
        "https://1.2.3.999/",
        "https://127.1/",
        "https://exa mple.com/",
        "https://exa$mple.com/",
        "https://example.com:99999/",
        "https://example.com:80a/",
        "https://bücher.example/",
    ] {
        assert!(Url::parse(bad).is_err(), "{bad} should not parse");
    }
}

#[test]
fn needs_a_scheme() {
    for bad in ["/connect", "not a url", "example.com", "1http://x", ":x"] {
        assert!(Url::parse(bad).is_err(), "{bad} should not parse");
    }
    assert_eq!(
        Url::parse("/connect").unwrap_err(),
        "relative URL without a base"
    );
}

#[test]
fn empty_parts() {
    let url = Url::parse("https://example.com").unwrap();
    assert_eq!(
        (url.path, url.query, url.fragment, url.port),
        ("", None, None, None)
    );
    assert_eq!(url.path_segments().collect::<Vec<_>>(), [""]);
    let url = Url::parse("https://example.com:/?#").unwrap();
    assert_eq!(
        (url.path, url.query, url.fragment, url.port),
        ("/", Some(""), Some(""), None)
    );
    assert_eq!(url.query_pairs().count(), 0);
    assert_eq!(
        Url::parse("https://@example.com/").unwrap().userinfo,
        Some("")
    );
}

#[test]
fn decodes_leniently() {
    let url = Url::parse("https://e.com/%zz/%4/%2B?a=%+1").unwrap();
    assert_eq!(url.path_segments().collect::<Vec<_>>(), ["%zz", "%4", "+"]);
    assert_eq!(url.query_pairs().next(), Some(("a".into(), "% 1".into())));
}
