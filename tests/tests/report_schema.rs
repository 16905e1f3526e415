//! The report's JSON Schema: `core/report.schema.json` is what `schemars` derives from the
//! report types today, and every fixture's report validates against it.
//!
//! After changing a report type, regenerate the file with
//! `MEMDIAG_UPDATE_SCHEMA=1 cargo test -p memdiag-tests --test report_schema` and commit it;
//! change `REPORT_SCHEMA` (`memdiag-report/N`) when a field changes meaning.

#![cfg(not(target_arch = "wasm32"))]

use memdiag_core::report::{Report, REPORT_SCHEMA};
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
    assert!(checked >= 12, "the fixtures are missing ({checked})");
    assert!(failures.is_empty(), "{failures:#?}");
    // The check can fail: a report with a wrong type is refused.
    let mut broken = serde_json::to_value(Fixture::load_dir(&fixture_dirs()[0]).analyze()).unwrap();
    broken["files"][0]["load"] = Value::String("sometimes".to_owned());
    assert!(!validator.is_valid(&broken));
}
