//! The receiver is safe (issue 11): a crafted link or share zip is refused before it is
//! analysed, with a message that names the cap, or it is analysed within a bound, whatever
//! it holds. The links are written by hand here (the payload JSON, raw deflate, base64url),
//! as an attacker would, not made by the sanitizer.
//!
//! The time bounds are for an unoptimised build on a shared two-core machine; the page runs
//! optimised WebAssembly, several times faster.

use std::io::{Cursor, Write};
use std::time::{Duration, Instant};

use memdiag_core::share::{
    check_shareable, decode_link, open_share_zip, ShareError, SharedSnapshot,
};
use memdiag_core::{analyze, sanitize, SanitizeOptions, Step};

/// Past this, refusing a link has hung: a guard against a refusal that never ends, not a
/// speed target (speed is measured by benchmarks; the runs print their times, about 0.1 s
/// on the reference machine, and CI's shared cores made a tight bound fail at random).
const REFUSAL_BOUND: Duration = Duration::from_secs(30);
/// Past this, decoding and analysing an accepted link has hung (the costliest print about
/// 1 to 3 s on two shared cores).
const ANALYSIS_BOUND: Duration = Duration::from_secs(60);

/// A snapshot's files as paths and texts.
type Files = Vec<(String, String)>;

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn payload(files: &[(String, String)]) -> serde_json::Value {
    let files: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, text)| serde_json::json!({"path": path, "size": text.len(), "text": text}))
        .collect();
    serde_json::json!({"format": 1, "made": "2026-11-30T09:12:00Z", "home": "/home/a",
        "project": "/home/a/p", "os": "linux", "mounts": ["/home/a"], "files": files})
}

fn link(files: &[(String, String)]) -> String {
    let json = payload(files).to_string();
    format!(
        "1.{}",
        memdiag_tests::base64(&deflate(json.as_bytes()), true)
    )
}

/// A share zip holding `files` (each as an entry) and its manifest.
fn zip(files: &[(String, String)]) -> Vec<u8> {
    let mut manifest = payload(files);
    let options = zip::write::SimpleFileOptions::default();
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (index, file) in manifest["files"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let text = file["text"].take();
        let entry = format!("e{index}");
        writer.start_file(&entry, options).unwrap();
        writer.write_all(text.as_str().unwrap().as_bytes()).unwrap();
        file.as_object_mut().unwrap().remove("text");
        file["entry"] = entry.into();
    }
    writer.start_file("memdiag-share.json", options).unwrap();
    writer.write_all(manifest.to_string().as_bytes()).unwrap();
    writer.finish().unwrap().into_inner()
}

fn rule(index: usize) -> String {
    format!("/home/a/p/.claude/rules/r{index}.md")
}

fn with_paths(paths: &str) -> String {
    format!("---\npaths: {paths}\n---\nRule.\n")
}

/// Asserts that `opened` is refused for `words`, within the bound.
#[track_caller]
fn refused(name: &str, started: Instant, opened: Result<SharedSnapshot, ShareError>, words: &str) {
    let elapsed = started.elapsed();
    match opened {
        Err(error @ (ShareError::Refused(_) | ShareError::TooLarge(_))) => {
            let message = error.to_string();
            assert!(message.contains(words), "{name}: {message}");
        }
        Err(other) => panic!("{name}: refused for another reason: {other}"),
        Ok(_) => panic!("{name}: opened"),
    }
    assert!(elapsed < REFUSAL_BOUND, "{name}: refusing took {elapsed:?}");
    eprintln!("{name}: refused in {elapsed:.2?}");
}

/// Asserts that `opened` opens and analyses, in one turn, within the bound.
#[track_caller]
fn analysed(name: &str, started: Instant, opened: Result<SharedSnapshot, ShareError>) {
    let snapshot = opened.unwrap_or_else(|e| panic!("{name}: {e}"));
    let step = analyze(&snapshot.tree, &snapshot.input).expect("a valid input");
    assert!(matches!(step, Step::Done(_)), "{name}: asks for contents");
    let elapsed = started.elapsed();
    assert!(elapsed < ANALYSIS_BOUND, "{name}: took {elapsed:?}");
    eprintln!("{name}: analysed in {elapsed:.2?}");
}

#[test]
fn crafted_frontmatter_is_refused_in_links_and_zips() {
    let braces = with_paths(&format!("\"{}a{}\"", "{".repeat(1_000), "}".repeat(1_000)));
    let cases: Vec<(&str, Files, &str)> = vec![
        // The link: braces a thousand deep in a rule's paths, about 340 characters.
        (
            "braces a thousand deep",
            vec![(rule(0), braces.clone())],
            "deeper than 8 levels",
        ),
        (
            "flow lists a million deep, unclosed",
            vec![(rule(0), with_paths(&"[".repeat(1_000_000)))],
            "deeper than 8 levels",
        ),
        (
            "flow maps nested",
            vec![(rule(0), with_paths(&"{a: ".repeat(100_000)))],
            "deeper than 8 levels",
        ),
        (
            "a brace bomb",
            vec![(rule(0), with_paths(&format!("\"{}\"", "{a,b}".repeat(12))))],
            "could expand to 4,096 patterns",
        ),
        (
            "stars",
            vec![(rule(0), with_paths(&format!("\"{}\"", "*a".repeat(2_000))))],
            "2000 wildcards",
        ),
        (
            "many braces",
            vec![(rule(0), with_paths(&format!("\"{}\"", "{a}".repeat(40))))],
            "40 braces",
        ),
        (
            "deep settings",
            vec![(
                "/home/a/.claude/settings.json".to_owned(),
                "[".repeat(10_000),
            )],
            "the settings of",
        ),
        (
            "thousands of rules",
            (0..1_001)
                .map(|i| (rule(i), with_paths("\"src/**\"")))
                .collect(),
            "more than 1000 files with frontmatter",
        ),
        (
            "rules times files",
            {
                let glob = format!("\"{}{}\"", "{a,b}".repeat(6), "*/".repeat(14));
                let mut files: Vec<_> = (0..60).map(|i| (rule(i), with_paths(&glob))).collect();
                files.extend((0..200).map(|i| (format!("/home/a/p/src/f{i}.ts"), String::new())));
                files
            },
            "steps to match",
        ),
    ];
    for (name, files, words) in cases {
        let l = link(&files);
        if name == "braces a thousand deep" {
            assert!(l.len() < 400, "{} characters", l.len());
        }
        let started = Instant::now();
        refused(
            &format!("link: {name} ({} characters)", l.len()),
            started,
            decode_link(&l),
            words,
        );
        let z = zip(&files);
        let started = Instant::now();
        refused(&format!("zip: {name}"), started, open_share_zip(&z), words);
    }
}

#[test]
fn the_costliest_accepted_links_analyse_within_the_bound() {
    let mut at_the_caps = Vec::new();
    // Just under the glob budget: rules of 64 expansions and 32 wildcards, 8 deep.
    let glob = format!("\"{}{}\"", "{a,b}".repeat(6), "*/".repeat(14));
    let paths = format!("[{glob}, {}a{}, \"*?*?\"]", "[".repeat(6), "]".repeat(6));
    at_the_caps.push(("rules at every per-file cap", {
        let mut files: Vec<_> = (0..20).map(|i| (rule(i), with_paths(&paths))).collect();
        files.extend((0..20).map(|i| {
            (
                format!("/home/a/p/src/{}/f{i}.ts", "a/".repeat(i + 1)),
                String::new(),
            )
        }));
        files
    }));
    // A thousand memory topics (the frontmatter cap), each 8 deep.
    at_the_caps.push(("a thousand deep topics", {
        (0..1_000)
            .map(|i| {
                let topic = format!("/home/a/.claude/projects/-home-a-p/memory/t{i}.md");
                (
                    topic,
                    format!("---\ntype: {}a{}\n---\nx\n", "[".repeat(8), "]".repeat(8)),
                )
            })
            .collect()
    }));
    // Twenty thousand files (the file cap) that the analysis lists but never parses. Each
    // path once: a payload that lists one twice is refused.
    at_the_caps.push(("twenty thousand plain files", {
        (0..20_000)
            .map(|i| {
                (
                    format!("/home/a/p/d{}/e{}/CLAUDE.md", i % 500, i / 500),
                    format!("line {i}\n"),
                )
            })
            .take(20_000)
            .collect()
    }));
    for (name, files) in at_the_caps {
        let l = link(&files);
        let started = Instant::now();
        analysed(
            &format!("link: {name} ({} characters)", l.len()),
            started,
            decode_link(&l),
        );
    }
}

#[test]
fn a_sender_is_told_before_sending_what_a_receiver_would_refuse() {
    let mut fixture = memdiag_tests::Fixture::parse(&format!(
        "//@ project=/home/a/p mounts=/home/a\n//- /home/a/p/.claude/rules/deep.md\n{}//- /home/a/p/src/a.ts\nx\n",
        with_paths(&format!("\"{}src{}\"", "{".repeat(20), "}".repeat(20)))
    ));
    let report = fixture.analyze();
    // Placeholders keep punctuation, so the braces stay whatever the options.
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    let refusal = check_shareable(&shared).expect_err("the sender is told");
    assert!(
        refusal.to_string().contains("deeper than 8 levels"),
        "{refusal}"
    );
    // The same snapshot with ordinary paths is shareable.
    let mut fixture = memdiag_tests::Fixture::parse(&format!(
        "//@ project=/home/a/p mounts=/home/a\n//- /home/a/p/.claude/rules/deep.md\n{}//- /home/a/p/src/a.ts\nx\n",
        with_paths("\"src/**/*.{ts,tsx}\"")
    ));
    let report = fixture.analyze();
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    check_shareable(&shared).expect("an ordinary rule is shareable");
}
