//! The discovery rules, one case file each under `fixtures/rules/`.
//!
//! A case file is a tree in the `//-` format of [`memdiag_tests::Fixture::parse`], a first
//! line `//# what the rule is`, then `//= rows` and optionally `//= diagnostics`,
//! `//= session` and `//= reads` with the expected rendering. `//= session` is what every
//! session sends: the instruction block's files in order with their labels, the skills
//! listing lines, the user's agent types and the memory folder the system prompt names. `//= reads` answers each
//! `//> /path` line of the tree (a Read Claude makes, in order): the files and skills that
//! Read attaches, each with its UTF-16 units as sent. `MEMDIAG_BLESS=1` rewrites the
//! expectations; review the diff.

use std::fmt::Write as _;

use memdiag_core::report::{Report, SentFile};
use memdiag_tests::{render, render_diagnostics, workspace_root, Fixture};

/// The marker of a Read in a case's tree.
const READ: &str = "//> ";

#[test]
fn every_rule_case_renders_as_expected() {
    let bless = std::env::var_os("MEMDIAG_BLESS").is_some();
    let mut paths: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
        .expect("fixtures/rules exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 10, "the rule cases are missing");
    let mut failures = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable case");
        let (tree, expected) = text.split_once("//= rows\n").expect("a //= rows section");
        let section = |name: &str| expected.contains(&format!("//= {name}\n"));
        // Read markers are the case's, not file contents.
        let reads: Vec<String> = tree
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix(READ))
            .map(|p| p.trim().to_owned())
            .collect();
        let files: String = tree
            .lines()
            .filter(|l| !l.trim_start().starts_with(READ))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut fixture = Fixture::parse(&files);
        fixture.input.reads = reads;
        let report = fixture.analyze();
        let mut actual = format!("//= rows\n{}", render(&report));
        if section("diagnostics") {
            let _ = write!(actual, "//= diagnostics\n{}", render_diagnostics(&report));
        }
        if section("session") {
            let _ = write!(actual, "//= session\n{}", render_session(&report));
        }
        if section("reads") {
            let _ = write!(actual, "//= reads\n{}", render_reads(&report));
        }
        if bless {
            std::fs::write(&path, format!("{tree}{actual}")).expect("writable case");
        } else if format!("//= rows\n{expected}") != actual {
            failures.push(format!(
                "{}\n--- expected\n//= rows\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `file <path> (<label>)` for each file of the instruction block in order, `skill <line>`
/// for each listing line, `agent <line>` for each of the user's lines of the listing of
/// agent types, then `memory <folder>`.
fn render_session(report: &Report) -> String {
    let mut out = String::new();
    for file in &report.session.files {
        let _ = writeln!(out, "file {}", sent(report, file));
    }
    for line in &report.session.skills {
        let _ = writeln!(out, "skill {line}");
    }
    for line in &report.session.agents {
        let _ = writeln!(out, "agent {line}");
    }
    if let Some(dir) = &report.session.memory_dir {
        let _ = writeln!(out, "memory {}", short(report, dir));
    }
    out
}

/// `read <path>`, then what it attaches, indented: files in order with their UTF-16 units
/// as sent, then announced skills.
fn render_reads(report: &Report) -> String {
    let mut out = String::new();
    for read in &report.reads {
        let _ = writeln!(out, "read {}", short(report, &read.path));
        for file in &read.files {
            let units = file.loaded.utf16;
            let _ = writeln!(out, "  file {} {units} units", sent(report, file));
        }
        for line in &read.skills {
            let _ = writeln!(out, "  skill {line}");
        }
    }
    out
}

/// A sent file's path and, when it has one, its label.
fn sent(report: &Report, file: &SentFile) -> String {
    let label = file
        .label
        .and_then(|l| serde_json::to_value(l).ok())
        .and_then(|v| v.as_str().map(|s| format!(" ({s})")))
        .unwrap_or_default();
    format!("{}{label}", short(report, &file.path))
}

/// Home as `~`, as the rows show it.
fn short(report: &Report, path: &str) -> String {
    match path.strip_prefix(report.context.home.as_str()) {
        Some(rest) => format!("~{rest}"),
        None => path.to_owned(),
    }
}
