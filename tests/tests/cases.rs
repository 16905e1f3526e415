//! The discovery rules, one case file each under `fixtures/rules/`.
//!
//! A case file is a tree in the `//-` format of [`memdiag_tests::Fixture::parse`], a first
//! line `//# what the rule is`, then `//= rows` and optionally `//= diagnostics` with the
//! expected rendering. `MEMDIAG_BLESS=1` rewrites the expectations; review the diff.

use std::fmt::Write as _;

use memdiag_tests::{render, render_diagnostics, workspace_root, Fixture};

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
        let wants_diagnostics = expected.contains("//= diagnostics\n");
        let report = Fixture::parse(tree).analyze();
        let mut actual = format!("//= rows\n{}", render(&report));
        if wants_diagnostics {
            let _ = write!(actual, "//= diagnostics\n{}", render_diagnostics(&report));
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
