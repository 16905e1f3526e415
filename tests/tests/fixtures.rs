//! Every folder under `fixtures/` against its reviewed snapshot, `expected.txt`.
//!
//! The snapshot is the rendered report: rows, footprint and diagnostics. To accept a change,
//! run with `MEMDIAG_BLESS=1`, then read the diff of `expected.txt` line by line before
//! committing it: a snapshot is reviewed, never accepted blindly.

use std::fmt::Write as _;

use memdiag_tests::{fixture_dirs, render, render_diagnostics, Fixture};

#[test]
fn every_fixture_matches_its_snapshot() {
    let bless = std::env::var_os("MEMDIAG_BLESS").is_some();
    let mut failures = Vec::new();
    for dir in fixture_dirs() {
        let mut fixture = Fixture::load_dir(&dir);
        let report = fixture.analyze();
        let f = &report.footprint;
        let mut actual = render(&report);
        let _ = writeln!(
            actual,
            "\nfootprint: files={} chars={} bytes={} utf16={} always_loaded={} tokens_estimate={}",
            f.files, f.chars, f.bytes, f.utf16, f.always_loaded, f.tokens_estimate
        );
        for (group, g) in &f.groups {
            let _ = writeln!(
                actual,
                "  {group}: files={} chars={} bytes={}",
                g.files, g.chars, g.bytes
            );
        }
        let _ = writeln!(actual, "\nmemory folders:");
        for m in &report.memory_folders {
            let _ = writeln!(
                actual,
                "  {} files={} current={}",
                m.name, m.files, m.current
            );
        }
        let _ = writeln!(actual, "\nhealth:");
        for reason in &report.health.reasons {
            let mark = if reason.ok { "ok" } else { "FINDING" };
            let _ = writeln!(
                actual,
                "  {:?} {mark} [{}] {}",
                reason.id,
                reason
                    .codes
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                reason.summary
            );
        }
        for m in &report.health.memories {
            let _ = writeln!(
                actual,
                "  memory {} agent={:?} lines={} mean_chars={} mean_bytes={} long={} topics={} no_timestamp={} orphans={} types={:?}",
                m.folder, m.agent, m.index_lines, m.mean_line_chars, m.mean_line_bytes, m.long_lines,
                m.topic_files, m.without_timestamp, m.orphan_topics, m.types
            );
        }
        for a in &report.health.agents {
            let _ = writeln!(
                actual,
                "  agent {} memory={:?} exists={}",
                a.name, a.memory, a.memory_exists
            );
        }
        let _ = writeln!(actual, "\ndiagnostics:\n{}", render_diagnostics(&report));
        let _ = writeln!(
            actual,
            "read: {} of {} files",
            fixture.source.reads.len(),
            fixture.tree.len()
        );
        assert!(
            !fixture.source.reads.iter().any(|r| r.ends_with(".jsonl")),
            "{}: a transcript was read",
            dir.display()
        );

        let path = dir.join("expected.txt");
        if bless {
            std::fs::write(&path, &actual).expect("write the snapshot");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}: snapshot differs (MEMDIAG_BLESS=1 rewrites it; review the diff)\n--- expected\n{expected}\n--- actual\n{actual}",
                dir.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixture_gives_byte_identical_json_twice() {
    for dir in fixture_dirs() {
        let first = serde_json::to_string(&Fixture::load_dir(&dir).analyze()).unwrap();
        let second = serde_json::to_string(&Fixture::load_dir(&dir).analyze()).unwrap();
        assert_eq!(first, second, "{}", dir.display());
    }
}
