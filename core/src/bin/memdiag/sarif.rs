//! The SARIF 2.1.0 format, for code scanning.
//!
//! One run, one result per finding. Rule ids are the findings' kebab-case codes, and each
//! rule's description and help are the code's own documentation, taken from the report's
//! JSON Schema (the doc comments of `report::Code`), so they cannot drift from the core.
//! Files inside the project are relative to the `PROJECTROOT` base (what code scanning
//! matches against the repository); other files are absolute `file:` URIs.

use std::collections::BTreeMap;

use memdiag_core::report::{Code, Harm, Report};
use memdiag_core::Severity;
use serde_json::{json, Value};

/// SARIF's `rank` (0 to 100, most important highest) of a finding whose code does `harm`:
/// the verdict's order, so that code scanning lists a cut index before a dead link.
fn rank(harm: Harm) -> f64 {
    match harm {
        Harm::Cuts => 100.0,
        Harm::Drops => 80.0,
        Harm::Wastes => 40.0,
        Harm::Warns => 20.0,
    }
}

/// The SARIF log of `report`.
pub(crate) fn render(report: &Report) -> Value {
    let descriptions = code_descriptions();
    let used: Vec<Code> = {
        let mut codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
        codes.sort();
        codes.dedup();
        codes
    };
    let rules: Vec<Value> = used
        .iter()
        .map(|code| {
            let description = descriptions
                .get(code.as_str())
                .cloned()
                .unwrap_or_else(|| code.as_str().to_owned());
            json!({
                "id": code.as_str(),
                "name": pascal_case(code.as_str()),
                "shortDescription": { "text": description },
                "fullDescription": { "text": description },
                "help": {
                    "text": format!(
                        "{description} memdiag reproduces what Claude Code {} was measured \
                         to load; run `memdiag` in the project for the whole report, \
                         `memdiag --format json` for this finding's evidence, and see the \
                         project's README for where each rule comes from.",
                        memdiag_core::PINNED
                    ),
                },
                "defaultConfiguration": { "level": level(default_severity(report, *code)) },
            })
        })
        .collect();
    let project = report.context.project.as_deref();
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let index = used.iter().position(|c| *c == diagnostic.code).unwrap_or(0);
            let mut result = json!({
                "ruleId": diagnostic.code.as_str(),
                "ruleIndex": index,
                "level": level(diagnostic.severity),
                // The verdict's ranking (the code's harm), as code scanning sorts by it.
                "rank": rank(diagnostic.code.harm()),
                "message": { "text": diagnostic.message },
            });
            // Code scanning refuses a result without a location: a finding about no file in
            // particular (the project's memory key, all instructions together) is placed on
            // the project folder, or the home folder without a project.
            let path = diagnostic
                .path
                .as_deref()
                .or(project)
                .unwrap_or(report.context.home.as_str());
            let mut location = json!({ "artifactLocation": artifact(path, project) });
            if let Some(line) = diagnostic.line.filter(|line| *line > 0) {
                location["region"] = json!({ "startLine": line });
            }
            result["locations"] = json!([{ "physicalLocation": location }]);
            result
        })
        .collect();
    let mut run = json!({
        "tool": {
            "driver": {
                "name": "memdiag",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }
        },
        "results": results,
        "columnKind": "utf16CodeUnits",
    });
    if let Some(project) = project {
        run["originalUriBaseIds"] = json!({
            "PROJECTROOT": { "uri": file_uri(&format!("{}/", project.trim_end_matches('/'))) }
        });
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    })
}

/// A file's location: relative to the project when inside it.
fn artifact(path: &str, project: Option<&str>) -> Value {
    let inside = project.and_then(|project| {
        path.strip_prefix(project)
            .and_then(|rest| rest.strip_prefix('/'))
    });
    if project == Some(path) {
        return json!({ "uri": "./", "uriBaseId": "PROJECTROOT" });
    }
    match inside {
        Some(relative) if !relative.is_empty() => {
            json!({ "uri": percent_encode(relative), "uriBaseId": "PROJECTROOT" })
        }
        _ => json!({ "uri": file_uri(path) }),
    }
}

/// `file:` URI of an absolute virtual path (`/a b` → `file:///a%20b`, `C:/x` → `file:///C:/x`).
fn file_uri(path: &str) -> String {
    let path = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    };
    format!("file://{}", percent_encode(&path))
}

/// Percent-encodes what a URI path cannot hold as is (RFC 3986 `pchar` plus `/`).
fn percent_encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        let keep = byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte);
        if keep {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// SARIF's level for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The most severe level a code has in this report: a code's severity can vary by case.
fn default_severity(report: &Report, code: Code) -> Severity {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.severity)
        .min()
        .unwrap_or(Severity::Info)
}

/// `import-cycle` as `ImportCycle`.
fn pascal_case(code: &str) -> String {
    code.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// Every code's one-line documentation, from the report's JSON Schema.
pub(crate) fn code_descriptions() -> BTreeMap<String, String> {
    let schema = serde_json::to_value(schemars::schema_for!(Code)).unwrap_or(Value::Null);
    let mut out = BTreeMap::new();
    let variants = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for variant in variants {
        let description = variant.get("description").and_then(Value::as_str);
        let names: Vec<&str> = match (variant.get("const"), variant.get("enum")) {
            (Some(Value::String(name)), _) => vec![name.as_str()],
            (_, Some(Value::Array(names))) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if let Some(description) = description {
            for name in names {
                out.insert(name.to_owned(), description.trim().to_owned());
            }
        }
    }
    out
}
