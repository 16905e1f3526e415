//! The report's findings: sorted by severity, grouped by file or by kind, filterable by
//! severity, with long runs of one kind folded into one line with a count. Each finding is a
//! button that opens its file at its line.

use memdiag_core::report::{Diagnostic, Report, Severity};
use web_sys::HtmlSelectElement;
use yew::{component, html, use_state, Callback, Event, Html, Properties, TargetCast};

use crate::page::state::{display_path, open_target, Shared};

/// A run of one kind longer than this folds into one line with a count.
pub const FOLD_AFTER: usize = 3;

/// How many groups the list draws until asked for the rest ("Show N more"): the groups come
/// most serious first, and a report can have hundreds (a memory folder whose topic files
/// carry no date gives each its own), which were half the elements of a large project's
/// report and most of its render.
pub const GROUPS_SHOWN: usize = 25;

/// How many findings a folded run lists when opened: a crafted shared snapshot can give
/// twenty thousand files one finding of one kind each, and its fold then drew them all.
/// (The summary of a longer run says "the first 200 listed".)
pub const FOLD_SHOWN: usize = 200;

/// Props of [`DiagnosticsList`].
#[derive(Properties, PartialEq)]
pub struct DiagnosticsProps {
    /// The report.
    pub report: Shared<Report>,
    /// Opens a file at a line.
    #[prop_or_default]
    pub on_open: Callback<(String, Option<u64>)>,
}

/// How the findings are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// One group per file (findings about no file last).
    File,
    /// One group per kind (the finding's code).
    Kind,
}

/// One group of findings: its heading and the findings' indexes in the report, most serious
/// first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingGroup {
    /// The file or the kind.
    pub key: String,
    /// Indexes into `report.diagnostics`.
    pub items: Vec<usize>,
}

/// The findings of `report` at or above `least` severity, grouped, each group and each
/// group's findings sorted most harmful first (as the verdict ranks them: [`Harm`]), then
/// most serious, then by place; groups in order of their most harmful finding.
///
/// [`Harm`]: memdiag_core::report::Harm
pub fn group_findings(report: &Report, grouping: Grouping, least: Severity) -> Vec<FindingGroup> {
    let mut groups: Vec<FindingGroup> = Vec::new();
    let mut order: Vec<usize> = (0..report.diagnostics.len())
        .filter(|&i| report.diagnostics[i].severity <= least)
        .collect();
    let d = &report.diagnostics;
    // A search of the rows and of the groups for each finding took seconds at twenty
    // thousand of them: the rows are sorted by path once, and the groups found by sorting
    // the keys (the shared sort, not a map of its own: the page's wasm is on a budget).
    let files = &report.files;
    let by_path = crate::sorted_indices(files.len(), &|a, b| files[a].path.cmp(&files[b].path));
    // The verdict's order: what drops instructions the person wrote first (a cut index
    // above the dead links of the same file), then severity, then place.
    crate::sort_by(&mut order, |&a, &b| {
        (
            d[a].code.harm(),
            d[a].severity,
            &d[a].path,
            d[a].line,
            d[a].code.as_str(),
        )
            .cmp(&(
                d[b].code.harm(),
                d[b].severity,
                &d[b].path,
                d[b].line,
                d[b].code.as_str(),
            ))
    });
    let keys: Vec<String> = order
        .iter()
        .map(|&i| match grouping {
            Grouping::File => d[i]
                .path
                .as_deref()
                .map(|p| {
                    by_path
                        .binary_search_by(|&r| files[r].path.as_str().cmp(p))
                        .map_or_else(
                            |_| p.to_owned(),
                            |at| display_path(&files[by_path[at]], &report.context),
                        )
                })
                .unwrap_or_else(|| "Not about one file".to_owned()),
            Grouping::Kind => d[i].code.as_str().to_owned(),
        })
        .collect();
    // Each finding's group is the first finding with its key (a stable sort keeps equal
    // keys in their order); groups come in the order of their first findings.
    let by_key = crate::sorted_indices(keys.len(), &|a, b| keys[a].cmp(&keys[b]));
    let mut first = vec![0; keys.len()];
    for (k, &at) in by_key.iter().enumerate() {
        first[at] = if k > 0 && keys[by_key[k - 1]] == keys[at] {
            first[by_key[k - 1]]
        } else {
            at
        };
    }
    let mut slot = vec![0; keys.len()];
    for (at, (&i, key)) in order.iter().zip(keys).enumerate() {
        if first[at] == at {
            slot[at] = groups.len();
            groups.push(FindingGroup {
                key,
                items: vec![i],
            });
        } else {
            groups[slot[first[at]]].items.push(i);
        }
    }
    // Within a group, one kind's findings stay together so that a long run can fold.
    for group in &mut groups {
        let mut kinds: Vec<&str> = Vec::new();
        for &i in &group.items {
            let code = d[i].code.as_str();
            if !kinds.contains(&code) {
                kinds.push(code);
            }
        }
        let kind_of = |i: usize| {
            kinds
                .iter()
                .position(|k| *k == d[i].code.as_str())
                .unwrap_or(0)
        };
        crate::sort_by(&mut group.items, |&a, &b| kind_of(a).cmp(&kind_of(b)));
    }
    groups
}

/// The message as the list shows it: without a leading `> WARNING:` that repeats the
/// severity beside it (the whole message stays in the tooltip and the file view).
pub fn list_message(d: &Diagnostic) -> String {
    let text = d.message.trim_start_matches('>').trim_start();
    let label = severity_label(d.severity);
    match text.split_once(':') {
        Some((head, rest)) if head.trim().eq_ignore_ascii_case(label) => rest.trim().to_owned(),
        _ => text.to_owned(),
    }
}

/// The findings list.
#[component]
pub fn DiagnosticsList(props: &DiagnosticsProps) -> Html {
    let grouping = use_state(|| Grouping::File);
    let least = use_state(|| Severity::Info);
    let every_group = use_state(|| false);
    let report = &props.report;
    if report.diagnostics.is_empty() {
        return html! {
            <section class="diagnostics" aria-label="Findings" data-testid="diagnostics">
                <h2>{ "Findings" }</h2>
                <p class="muted">{ "No findings: nothing is cut, missing or broken." }</p>
            </section>
        };
    }
    let count = |s: Severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == s)
            .count()
    };
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    let groups = group_findings(report, *grouping, *least);
    let on_grouping = {
        let grouping = grouping.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            grouping.set(if select.value() == "kind" {
                Grouping::Kind
            } else {
                Grouping::File
            });
        })
    };
    let on_least = {
        let least = least.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            least.set(match select.value().as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                _ => Severity::Info,
            });
        })
    };
    let shown_count: usize = groups.iter().map(|g| g.items.len()).sum();
    let drawn = if *every_group {
        groups.len()
    } else {
        groups.len().min(GROUPS_SHOWN)
    };
    let more = more_button(report, &groups[drawn..], *grouping, &every_group);
    html! {
        <section class="diagnostics" aria-label="Findings" data-testid="diagnostics"
            data-grouping={if *grouping == Grouping::Kind { "kind" } else { "file" }}>
            <div class="diagnostics-head">
                <h2>{ format!("Findings ({})", report.diagnostics.len()) }</h2>
                <span class="muted small" data-testid="findings-counts">
                    { format!("{errors} error{} · {warnings} warning{} · {infos} info", plural(errors), plural(warnings)) }
                </span>
                <label class="small">{ "Group by " }
                    <select data-testid="findings-group" onchange={on_grouping}>
                        <option value="file" selected={*grouping == Grouping::File}>{ "file" }</option>
                        <option value="kind" selected={*grouping == Grouping::Kind}>{ "kind" }</option>
                    </select>
                </label>
                <label class="small">{ "Show " }
                    <select data-testid="findings-severity" onchange={on_least}>
                        <option value="info" selected={*least == Severity::Info}>{ "all" }</option>
                        <option value="warning" selected={*least == Severity::Warning}>{ "warnings and errors" }</option>
                        <option value="error" selected={*least == Severity::Error}>{ "errors only" }</option>
                    </select>
                </label>
            </div>
            if shown_count == 0 {
                <p class="muted" data-testid="findings-none">{ "No finding of that severity." }</p>
            }
            { for groups[..drawn].iter().map(|group| html! {
                <div key={group.key.clone()} class="finding-group" data-testid="finding-group" data-key={group.key.clone()}>
                    <h3 class="finding-group-head">
                        <span class="finding-group-key">{ group.key.clone() }</span>
                        <span class="muted small">{ format!(" {}", group.items.len()) }</span>
                    </h3>
                    <ul>{ runs(report, group, *grouping, &props.on_open) }</ul>
                </div>
            }) }
            { more }
        </section>
    }
}

/// The button that draws the groups left out (`rest`), saying how many and how serious.
fn more_button(
    report: &Report,
    rest: &[FindingGroup],
    grouping: Grouping,
    every_group: &yew::UseStateHandle<bool>,
) -> Html {
    if rest.is_empty() {
        return Html::default();
    }
    let mut counts = [0usize; 3];
    for &i in rest.iter().flat_map(|g| &g.items) {
        counts[report.diagnostics[i].severity as usize] += 1;
    }
    let severities = [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .map(|(severity, n)| match severity {
            Severity::Info => format!("{n} info"),
            _ => format!("{n} {}{}", severity_slug(severity), plural(n)),
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let what = match grouping {
        Grouping::File => "files",
        Grouping::Kind => "kinds",
    };
    let onclick = {
        let every_group = every_group.clone();
        Callback::from(move |_| every_group.set(true))
    };
    html! {
        <button type="button" class="findings-more" data-testid="findings-more"
            data-groups={rest.len().to_string()} {onclick}>
            { format!("Show {} more {what} ({severities})", rest.len()) }
        </button>
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A group's findings: each run of one kind longer than [`FOLD_AFTER`] shows its first
/// finding and folds the rest behind one line with their count.
fn runs(
    report: &Report,
    group: &FindingGroup,
    grouping: Grouping,
    on_open: &Callback<(String, Option<u64>)>,
) -> Html {
    let d = &report.diagnostics;
    let mut out = Vec::new();
    let mut start = 0;
    while start < group.items.len() {
        let code = d[group.items[start]].code;
        let mut end = start + 1;
        while end < group.items.len() && d[group.items[end]].code == code {
            end += 1;
        }
        let run = &group.items[start..end];
        out.push(item(report, run[0], grouping, on_open));
        if run.len() > FOLD_AFTER {
            let rest = &run[1..];
            let listed = &rest[..rest.len().min(FOLD_SHOWN)];
            out.push(html! {
                <li key={format!("fold-{}", run[0])} class="diag-fold" data-testid="finding-fold"
                    data-code={code.as_str()} data-count={run.len().to_string()}>
                    <details>
                        <summary>{ format!("{} more of this kind ({} in all{}): {}", rest.len(), run.len(),
                            if listed.len() < rest.len() { ", the first 200 listed" } else { "" }, code.as_str()) }</summary>
                        <ul>{ for listed.iter().map(|&i| item(report, i, grouping, on_open)) }</ul>
                    </details>
                </li>
            });
        } else {
            out.extend(run[1..].iter().map(|&i| item(report, i, grouping, on_open)));
        }
        start = end;
    }
    out.into_iter().collect()
}

fn shown(report: &Report, path: &str) -> String {
    report
        .files
        .iter()
        .find(|row| row.path == path)
        .map(|row| display_path(row, &report.context))
        .unwrap_or_else(|| path.to_owned())
}

fn item(
    report: &Report,
    index: usize,
    grouping: Grouping,
    on_open: &Callback<(String, Option<u64>)>,
) -> Html {
    let d = &report.diagnostics[index];
    // Grouped by file, the heading names the file: the line says only where in it.
    let place = d.path.as_ref().map(|path| {
        let shown = match grouping {
            Grouping::File => String::new(),
            Grouping::Kind => shown(report, path),
        };
        match d.line {
            Some(line) if shown.is_empty() => format!("line {line}"),
            Some(line) => format!("{shown}:{line}"),
            None => shown,
        }
    });
    let body = html! {
        <>
            <span class={format!("sev {}", severity_slug(d.severity))}>{ severity_label(d.severity) }</span>
            <span class="msg" title={d.message.clone()}>{ list_message(d) }</span>
            if let Some(place) = place.clone().filter(|p| !p.is_empty()) { <span class="place">{ place }</span> }
            if grouping == Grouping::File {
                <span class="code muted">{ d.code.as_str() }</span>
            }
        </>
    };
    // A finding about a folder opens its first file (a memory folder's MEMORY.md).
    let target = d
        .path
        .as_deref()
        .and_then(|path| open_target(report, path, d.line));
    html! {
        <li key={index} class={format!("diag {}", severity_slug(d.severity))} data-testid="diagnostic"
            data-code={d.code.as_str()} data-severity={severity_slug(d.severity)}
            data-harm={(d.code.harm() as u8).to_string()}>
            if let Some(target) = target {
                <button class="diag-open" data-path={target.0.clone()} data-line={target.1.map(|l| l.to_string())} onclick={{
                    let on_open = on_open.clone();
                    Callback::from(move |_| on_open.emit(target.clone()))
                }}>{ body }</button>
            } else {
                <div class="diag-static">{ body }</div>
            }
        </li>
    }
}

/// A short label for a severity.
pub fn severity_label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// A CSS class for a severity.
pub fn severity_slug(severity: Severity) -> &'static str {
    severity_label(severity)
}
