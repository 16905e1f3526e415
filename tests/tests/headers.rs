//! The page's Content-Security-Policy, as index.html's `<meta>` gives it and as the host's
//! headers file (`web/assets/_headers`, copied into dist/) sends it with every file (issue 30).
//!
//! The two are one policy: the header adds only what a `<meta>` cannot carry
//! (`frame-ancestors`), and it is what reaches the worker, which the page's `<meta>` does not.
//! The end-to-end test `tests/e2e/headers.test.mjs` runs the built page under the header.

use std::collections::BTreeMap;
use std::path::Path;

fn read(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A policy as directive → its sources, in order.
fn directives(policy: &str) -> BTreeMap<String, Vec<String>> {
    policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let mut words = d.split_whitespace().map(str::to_owned);
            (words.next().unwrap(), words.collect())
        })
        .collect()
}

/// The `content` of index.html's CSP `<meta>`.
fn meta_policy(html: &str) -> String {
    let at = html
        .find("http-equiv=\"Content-Security-Policy\"")
        .expect("index.html has a CSP <meta>");
    let rest = &html[at..];
    let start = rest.find("content=\"").expect("the <meta> has a content") + "content=\"".len();
    let end = rest[start..].find('"').unwrap();
    rest[start..start + end].to_owned()
}

/// The headers `_headers` gives the path pattern `pattern`.
fn header_rule(text: &str, pattern: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in text.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            inside = line.trim() == pattern;
            continue;
        }
        if inside {
            let (name, value) = line.trim().split_once(':').expect("Name: value");
            out.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    out
}

#[test]
fn the_header_policy_is_the_meta_policy_and_forbids_framing() {
    let html = read("index.html");
    let headers = read("web/assets/_headers");
    let every = header_rule(&headers, "/*");
    let header = directives(
        every
            .get("content-security-policy")
            .expect("_headers gives every file a CSP"),
    );
    let mut meta = directives(&meta_policy(&html));
    // A <meta> policy ignores frame-ancestors: only the header can say it.
    assert!(!meta.contains_key("frame-ancestors"), "{meta:?}");
    assert_eq!(header.get("frame-ancestors").unwrap(), &["'none'"]);
    meta.insert("frame-ancestors".to_owned(), vec!["'none'".to_owned()]);
    assert_eq!(
        header, meta,
        "the header's policy is the <meta>'s plus frame-ancestors"
    );
    assert_eq!(
        every.get("x-frame-options").map(String::as_str),
        Some("DENY")
    );
    assert_eq!(
        every.get("referrer-policy").map(String::as_str),
        Some("no-referrer")
    );
    // Trunk copies the file into dist/, where hosts look for it.
    assert!(html.contains(r#"<link data-trunk rel="copy-file" href="web/assets/_headers" />"#));
}

#[test]
fn the_policy_allows_nothing_the_page_does_not_use() {
    let policy = directives(&meta_policy(&read("index.html")));
    // No fonts, no media, no data: images: the page has none. The web manifest and the
    // service worker are the page's own files.
    assert_eq!(policy["manifest-src"], ["'self'"]);
    assert_eq!(policy["worker-src"], ["'self'"]);
    for unused in ["font-src", "media-src", "child-src"] {
        assert!(!policy.contains_key(unused), "{unused} is allowed");
    }
    assert_eq!(policy["default-src"], ["'none'"]);
    assert_eq!(policy["img-src"], ["'self'"]);
    let html = read("index.html");
    assert!(
        !html.contains("href=\"data:"),
        "a data: link the policy would refuse"
    );
    let style = read("web/assets/style.css");
    assert!(!style.contains("url("), "the style sheet loads nothing");
}
