//! The report's JSON Schema: `core/report.schema.json` is what `schemars` derives from the
//! report types today, and every fixture's report validates against it.
//!
//! After changing a report type, regenerate the file with
//! `MEMDIAG_UPDATE_SCHEMA=1 cargo test -p memdiag-tests --test report_schema` and commit it;
//! change `REPORT_SCHEMA` (`memdiag-report/N`) when a field changes meaning.

#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use memdiag_core::report::{Report, REPORT_SCHEMA};
use memdiag_core::{analyze_with, ContentSource, Entry, Input, Tree, VPath};
use memdiag_tests::{fixture_dirs, workspace_root, Fixture};
use serde_json::Value;

/// The schema as committed text: pretty JSON and a final newline.
fn generated() -> String {
    let schema = schemars::schema_for!(Report);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serialises");
    text.push('\n');
    text
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let path = workspace_root().join("core/report.schema.json");
    let generated = generated();
    if std::env::var_os("MEMDIAG_UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "core/report.schema.json is not what the report types derive: regenerate it with \
         MEMDIAG_UPDATE_SCHEMA=1 cargo test -p memdiag-tests --test report_schema, review the \
         diff, and bump REPORT_SCHEMA ({REPORT_SCHEMA}) if a field changed meaning"
    );
    let value: Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(value["title"], "Report");
}

fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&generated()).unwrap();
    jsonschema::validator_for(&schema).expect("the generated schema is a valid schema")
}

fn check(
    validator: &jsonschema::Validator,
    report: &Report,
    what: &str,
    failures: &mut Vec<String>,
) {
    let value = serde_json::to_value(report).expect("a report serialises");
    for error in validator.iter_errors(&value).take(3) {
        failures.push(format!("{what}: {error} at {}", error.instance_path()));
    }
}

#[test]
fn every_fixture_report_validates_against_the_schema() {
    let validator = validator();
    let mut failures = Vec::new();
    let mut checked = 0;
    // The fixture folders (the demo, the canary).
    for dir in fixture_dirs() {
        let report = Fixture::load_dir(&dir).analyze();
        check(
            &validator,
            &report,
            &dir.display().to_string(),
            &mut failures,
        );
        checked += 1;
    }
    // The rule cases: the tree part of each file.
    let mut cases: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
        .expect("fixtures/rules exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    cases.sort();
    for path in cases {
        let text = std::fs::read_to_string(&path).unwrap();
        let tree = text
            .split_once("//= rows\n")
            .map_or(text.as_str(), |(t, _)| t);
        let files: String = tree
            .lines()
            .filter(|l| !l.trim_start().starts_with("//> "))
            .map(|l| format!("{l}\n"))
            .collect();
        let report = Fixture::parse(&files).analyze();
        check(
            &validator,
            &report,
            &path.display().to_string(),
            &mut failures,
        );
        checked += 1;
    }
    // The conformance cases, laid out as the program saw them (files, git folders and files,
    // `~/.claude.json`; the replay in conformance.rs also follows the cases' links).
    let mut conformance: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/conformance"))
        .expect("fixtures/conformance exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("capture.json").is_file())
        .collect();
    conformance.sort();
    assert!(conformance.len() >= 50, "the conformance cases are missing");
    for case in &conformance {
        let report = conformance_report(case);
        check(
            &validator,
            &report,
            &case.display().to_string(),
            &mut failures,
        );
        checked += 1;
    }
    assert!(checked >= 62, "the fixtures are missing ({checked})");
    assert!(failures.is_empty(), "{failures:#?}");
    // The check can fail: a report with a wrong type is refused.
    let mut broken = serde_json::to_value(Fixture::load_dir(&fixture_dirs()[0]).analyze()).unwrap();
    broken["files"][0]["load"] = Value::String("sometimes".to_owned());
    assert!(!validator.is_valid(&broken));
}

/// Contents come with the entries; nothing else is read.
struct NoReads;

impl ContentSource for NoReads {
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        Err(format!("{path} is not in the case"))
    }
}

/// The report of one conformance case: `tree/` at the capture's root (`tree/etc/claude-code/`
/// at `/etc/claude-code/`), the git folders and files the runner made, `~/.claude.json`.
fn conformance_report(case: &Path) -> Report {
    let json = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(case.join(name)).expect(name)).expect(name)
    };
    let capture = json("capture.json");
    let spec = json("case.json");
    let root = capture["root"].as_str().expect("root");
    let home = capture["home"].as_str().expect("home");
    let entry = |path: String, bytes: Vec<u8>| Entry {
        path,
        size: bytes.len() as u64,
        bytes: Some(bytes),
        modified: None,
    };
    let mut entries = Vec::new();
    let tree_dir = case.join("tree");
    let mut stack = vec![tree_dir.clone()];
    while let Some(dir) = stack.pop() {
        for item in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = item.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let relative = path
                .strip_prefix(&tree_dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let at = if relative.starts_with("etc/claude-code/") {
                format!("/{relative}")
            } else {
                format!("{root}/{relative}")
            };
            entries.push(entry(at, std::fs::read(&path).unwrap_or_default()));
        }
    }
    for (path, text) in capture["git_files"].as_object().into_iter().flatten() {
        entries.push(entry(path.clone(), text.as_str().unwrap_or("").into()));
    }
    if let Some(text) = capture["claude_json"].as_str() {
        entries.push(entry(format!("{home}/.claude.json"), text.into()));
    }
    let mut tree = Tree::from_entries(&[root, "/etc/claude-code"], entries);
    for dir in capture["git_dirs"].as_array().into_iter().flatten() {
        let git = format!("{}/.git", dir.as_str().expect("git dir"));
        tree.add_dir(VPath::new(&git).expect("absolute"));
    }
    let input = Input {
        home: home.to_owned(),
        project: capture["cwd"].as_str().map(str::to_owned),
        reads: capture["reads"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["path"].as_str().map(str::to_owned))
            .collect(),
        disable_auto_memory_env: spec["env"]["CLAUDE_CODE_DISABLE_AUTO_MEMORY"]
            .as_str()
            .map(str::to_owned),
        skill_listing_budget_env: spec["env"]["SLASH_COMMAND_TOOL_CHAR_BUDGET"]
            .as_str()
            .map(str::to_owned),
        config_dir: spec["env"]["CLAUDE_CONFIG_DIR"].as_str().map(|dir| {
            if dir.starts_with('/') {
                dir.to_owned()
            } else {
                format!("{root}/{dir}")
            }
        }),
        ..Input::default()
    };
    analyze_with(&mut tree, &input, &mut NoReads).expect("a case's input is valid")
}
