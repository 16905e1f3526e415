//! Clean-up plans across the page's two wasm modules: the analysis worker plans them (a plan
//! reads Markdown, frontmatter and the index's caps, which only the engine has), the page
//! reviews and writes them ([`crate::components::cleanup`], [`crate::live`]).
//!
//! A finished run's `done` message carries the clean-ups each memory folder offers
//! ([`memdiag_core::cleanup::memory_cleanups`]) as JSON; a click asks the worker for the
//! plan ([`plan`]), which comes back as JSON too: its changes with their marked lines
//! ([`memdiag_core::cleanup::Change::lines`]), so that the page's diff, script and undo are
//! the core's own. Where the page has no worker (the component tests), it plans in place.

use memdiag_core::cleanup::{Change, Compaction, DeadLine, MemoryCleanups, Orphan, OverCap, Plan};
use memdiag_core::report::Report;
use memdiag_core::Tree;
use serde_json::{json, Value};
#[cfg(feature = "engine")]
use wasm_bindgen::JsValue;

use crate::messages::text;
use crate::worker_host::Remote;

/// What a person asked to clean up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Remove these raw lines of an index.
    RemoveLines(String, Vec<u64>),
    /// Link these topic files from an index.
    IndexOrphans(String, Vec<String>),
    /// Delete these files.
    DeleteFiles(Vec<String>),
    /// Delete the file of the report's row at this path.
    DeleteRow(String),
    /// Compact an index past its caps.
    Compact(String, Compaction),
}

impl Ask {
    fn to_json(&self) -> String {
        match self {
            Ask::RemoveLines(index, lines) => {
                json!({"ask": "remove-lines", "index": index, "lines": lines})
            }
            Ask::IndexOrphans(index, topics) => {
                json!({"ask": "index-orphans", "index": index, "paths": topics})
            }
            Ask::DeleteFiles(paths) => json!({"ask": "delete-files", "paths": paths}),
            Ask::DeleteRow(path) => json!({"ask": "delete-row", "index": path}),
            Ask::Compact(index, Compaction::MoveTo(topic)) => {
                json!({"ask": "compact", "index": index, "move_to": topic})
            }
            Ask::Compact(index, Compaction::Drop) => json!({"ask": "compact", "index": index}),
        }
        .to_string()
    }

    #[cfg(feature = "engine")]
    fn from_json(json: &str) -> Option<Ask> {
        let value: Value = serde_json::from_str(json).ok()?;
        let index = value
            .get("index")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let paths = || strings(value.get("paths"));
        Some(match value.get("ask")?.as_str()? {
            "remove-lines" => Ask::RemoveLines(
                index,
                value
                    .get("lines")?
                    .as_array()?
                    .iter()
                    .filter_map(Value::as_u64)
                    .collect(),
            ),
            "index-orphans" => Ask::IndexOrphans(index, paths()),
            "delete-files" => Ask::DeleteFiles(paths()),
            "delete-row" => Ask::DeleteRow(index),
            "compact" => Ask::Compact(
                index,
                match value.get("move_to").and_then(Value::as_str) {
                    Some(topic) => Compaction::MoveTo(topic.to_owned()),
                    None => Compaction::Drop,
                },
            ),
            _ => return None,
        })
    }
}

/// The plan for `ask` over the analysis shown: from the worker (`remote`), or made here
/// where the page has no worker.
///
/// # Errors
/// Why nothing can be planned, for a person.
pub async fn plan(
    remote: Option<&Remote>,
    report: &Report,
    tree: &Tree,
    ask: Ask,
) -> Result<Plan, String> {
    match remote {
        Some(remote) => {
            let answer = remote
                .ask("plan", vec![("ask", ask.to_json().into())])
                .await?;
            plan_from_json(&text(&answer, "plan"))
                .ok_or_else(|| "the analysis worker sent no plan".to_owned())
        }
        None => plan_here(report, tree, &ask),
    }
}

#[cfg(feature = "engine")]
fn plan_here(report: &Report, tree: &Tree, ask: &Ask) -> Result<Plan, String> {
    use memdiag_core::cleanup;
    let planned = match ask {
        Ask::RemoveLines(index, lines) => cleanup::remove_lines(tree, index, lines),
        Ask::IndexOrphans(index, topics) => cleanup::index_orphans(report, tree, index, topics),
        Ask::DeleteFiles(paths) => cleanup::delete_files(tree, paths),
        Ask::DeleteRow(path) => match report.files.iter().find(|row| &row.path == path) {
            Some(row) => cleanup::delete_row(tree, row),
            None => Err(cleanup::CleanupError::NotInSnapshot(path.clone())),
        },
        Ask::Compact(index, how) => cleanup::compact(report, tree, index, how),
    };
    planned.map_err(|error| error.to_string())
}

#[cfg(not(feature = "engine"))]
fn plan_here(_: &Report, _: &Tree, _: &Ask) -> Result<Plan, String> {
    Err(crate::worker_host::NO_WORKER.to_owned())
}

/// The clean-ups each memory folder of the analysis offers: as the worker sent them, or
/// found here where the page has no worker.
pub fn memory_cleanups(
    remote: Option<&Remote>,
    report: &Report,
    tree: &Tree,
) -> Vec<MemoryCleanups> {
    match remote {
        Some(remote) => cleanups_from_json(remote.cleanups_json()),
        None => cleanups_here(report, tree),
    }
}

#[cfg(feature = "engine")]
fn cleanups_here(report: &Report, tree: &Tree) -> Vec<MemoryCleanups> {
    memdiag_core::cleanup::memory_cleanups(report, tree)
}

#[cfg(not(feature = "engine"))]
fn cleanups_here(_: &Report, _: &Tree) -> Vec<MemoryCleanups> {
    Vec::new()
}

/// The worker's answer to a `plan` message: the plan for its `ask` over the analysis the
/// message carries, or why there is none (a `failed` message).
#[cfg(feature = "engine")]
pub(crate) fn answer(data: &JsValue) {
    use crate::messages::{get, tree_from};
    use crate::worker::{failed, post};
    let report: Report = match serde_json::from_str(&text(data, "report")) {
        Ok(report) => report,
        Err(error) => return failed(&format!("the report could not be read: {error}")),
    };
    let Some(ask) = Ask::from_json(&text(data, "ask")) else {
        return failed("the clean-up asked for could not be read");
    };
    let tree = tree_from(&get(data, "tree"));
    match plan_here(&report, &tree, &ask) {
        Ok(plan) => post(&[
            ("type", "plan".into()),
            ("plan", JsValue::from_str(&plan_to_json(&plan))),
        ]),
        Err(message) => failed(&message),
    }
}

/// A plan as JSON.
#[cfg(feature = "engine")]
pub(crate) fn plan_to_json(plan: &Plan) -> String {
    let changes: Vec<Value> = plan
        .changes
        .iter()
        .map(|change| {
            let lines: Vec<String> = change
                .lines()
                .into_iter()
                .map(|(mark, line)| format!("{mark}{line}"))
                .collect();
            json!({
                "path": change.path,
                "summary": change.summary,
                "before": change.before,
                "after": change.after,
                "lines": lines,
            })
        })
        .collect();
    json!({"title": plan.title, "notes": plan.notes, "changes": changes}).to_string()
}

/// The plan from [`plan_to_json`].
pub(crate) fn plan_from_json(json: &str) -> Option<Plan> {
    let value: Value = serde_json::from_str(json).ok()?;
    let maybe = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let changes = value
        .get("changes")?
        .as_array()?
        .iter()
        .map(|change| {
            let lines = strings(change.get("lines"))
                .into_iter()
                .map(|line| {
                    let mut chars = line.chars();
                    let mark = chars.next().unwrap_or(' ');
                    (mark, chars.as_str().to_owned())
                })
                .collect();
            Change::from_lines(
                maybe(change, "path").unwrap_or_default(),
                maybe(change, "summary").unwrap_or_default(),
                maybe(change, "before"),
                maybe(change, "after"),
                lines,
            )
        })
        .collect();
    Some(Plan {
        title: maybe(&value, "title")?,
        changes,
        notes: strings(value.get("notes")),
    })
}

/// Clean-ups as JSON, for the `done` message.
#[cfg(feature = "engine")]
pub(crate) fn cleanups_to_json(all: &[MemoryCleanups]) -> String {
    let all: Vec<Value> = all
        .iter()
        .map(|m| {
            json!({
                "folder": m.folder,
                "index": m.index,
                "agent": m.agent,
                "dead_lines": m.dead_lines.iter().map(|d| json!({
                    "line": d.line, "text": d.text, "missing": d.missing, "live_links": d.live_links,
                })).collect::<Vec<_>>(),
                "orphans": m.orphans.iter().map(|o| json!({
                    "path": o.path, "index_line": o.index_line,
                })).collect::<Vec<_>>(),
                "over_cap": m.over_cap.as_ref().map(|o| json!({
                    "first_dropped_line": o.first_dropped_line,
                    "entries": o.entries,
                    "suggested_topic": o.suggested_topic,
                })),
            })
        })
        .collect();
    Value::Array(all).to_string()
}

/// The clean-ups from [`cleanups_to_json`].
fn cleanups_from_json(json: &str) -> Vec<MemoryCleanups> {
    let Ok(Value::Array(all)) = serde_json::from_str::<Value>(json) else {
        return Vec::new();
    };
    let text_of =
        |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
    let list = |v: &Value, key: &str| {
        v.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    all.iter()
        .map(|m| MemoryCleanups {
            folder: text_of(m, "folder"),
            index: text_of(m, "index"),
            agent: m.get("agent").and_then(Value::as_str).map(str::to_owned),
            dead_lines: list(m, "dead_lines")
                .iter()
                .map(|d| DeadLine {
                    line: number(d, "line"),
                    text: text_of(d, "text"),
                    missing: strings(d.get("missing")),
                    live_links: number(d, "live_links") as usize,
                })
                .collect(),
            orphans: list(m, "orphans")
                .iter()
                .map(|o| Orphan {
                    path: text_of(o, "path"),
                    index_line: text_of(o, "index_line"),
                })
                .collect(),
            over_cap: m
                .get("over_cap")
                .filter(|o| o.is_object())
                .map(|o| OverCap {
                    first_dropped_line: number(o, "first_dropped_line"),
                    entries: list(o, "entries")
                        .iter()
                        .filter_map(|entry| {
                            let pair = entry.as_array()?;
                            Some((pair.first()?.as_u64()?, pair.get(1)?.as_str()?.to_owned()))
                        })
                        .collect(),
                    suggested_topic: text_of(o, "suggested_topic"),
                }),
        })
        .collect()
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
