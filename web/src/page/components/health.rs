//! The health view: "is my memory working, and what is it losing?"
//!
//! The five reasons auto memory can look off, each as the core checked it with the findings
//! that are its evidence; the figures of every memory folder; and the growth projection as an
//! inline SVG chart. Every verdict, figure and date comes from the report: the page only lays
//! them out, and each finding opens its file at its line.

use memdiag_core::report::{
    AgentInfo, Code, Diagnostic, DiagnosticData, DroppedEntry, Growth, MemoryHealth, ReasonCheck,
    ReasonId, Report, Scope, SentLabel,
};
use yew::{classes, html, Callback, Html, Properties};

use memdiag_core::date::{format_day, parse_day as day_number};

use crate::page::components::file_view::{severity_label, severity_slug, LINE_CAP};
use crate::page::decimal::fixed;
use crate::page::state::{grouped, open_target, shown_path, Shared};

pub use memdiag_core::caps::REMINDER_LINES as LINES_80_PERCENT;

/// Opens a file, optionally at a line.
type OnOpen = Callback<(String, Option<u64>)>;

/// Props of [`health_view`].
#[derive(Properties, PartialEq)]
pub struct HealthViewProps {
    /// The report.
    pub report: Shared<Report>,
    /// Opens a file at a line.
    #[prop_or_default]
    pub on_open: OnOpen,
}

/// The health view.
pub fn health_view(props: &HealthViewProps) -> Html {
    let report = &props.report;
    let health = &report.health;
    let found = health.reasons.iter().filter(|r| !r.ok).count();
    let verdict = match found {
        _ if health.reasons.is_empty() => "This report holds no health checks.".to_owned(),
        0 => "None of the five reasons applies: auto memory should load as you expect.".to_owned(),
        1 => "One of the five reasons applies; its evidence is below.".to_owned(),
        n => format!("{n} of the five reasons apply; the evidence is below each."),
    };
    let version = report.context.version.as_str();
    html! {
        <section class="health-view" data-testid="health-view" aria-label="Health">
            <header class="health-head">
                <h2>{ "Is my memory working, and what is it losing?" }</h2>
                <p class="health-verdict" data-testid="health-verdict" data-found={found.to_string()}>
                    { verdict }
                    if !version.is_empty() && version != "current" {
                        { " " }
                        <span class="badge warn" data-testid="health-version">{ format!("rules of Claude Code {version}") }</span>
                    }
                </p>
            </header>
            <ol class="reasons" data-testid="reasons">
                { for health.reasons.iter().map(|reason| reason_item(report, reason, &props.on_open)) }
            </ol>
            <h3 class="health-section">{ "Memory health" }</h3>
            if health.memories.is_empty() {
                <p class="muted" data-testid="no-memories">{ "No memory folder was analysed: there is no auto memory for this project and no agent memory." }</p>
            } else {
                { for health.memories.iter().map(|memory| memory_card(report, memory, &props.on_open)) }
            }
            // The clean-ups of each memory folder, below its health and scrolled with it.
            <crate::page::components::cleanup::CleanupPanel />
        </section>
    }
}

/// One reason of the checklist: its verdict, its findings with their evidence, its note.
fn reason_item(report: &Report, reason: &ReasonCheck, on_open: &OnOpen) -> Html {
    let findings: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| reason.codes.contains(&d.code))
        .collect();
    let id = reason_slug(reason.id);
    let state = if reason.ok { "ok" } else { "found" };
    let badge = if reason.ok {
        "fine".to_owned()
    } else if findings.len() == 1 {
        "1 finding".to_owned()
    } else {
        format!("{} findings", findings.len())
    };
    html! {
        <li key={id} class={classes!("reason", state)} data-testid="reason" data-reason={id} data-ok={reason.ok.to_string()}>
            <div class="reason-head">
                <span class="reason-mark" aria-hidden="true">{ if reason.ok { "✓" } else { "!" } }</span>
                <h3>{ reason.title.clone() }</h3>
                <span class={classes!("badge", if reason.ok { "ok" } else { "warn" })}>{ badge }</span>
            </div>
            <p class="reason-summary" data-testid="reason-summary">{ reason.summary.clone() }</p>
            if !findings.is_empty() {
                <ul class="findings">
                    { for findings.iter().enumerate().map(|(i, d)| finding_item(report, i, d, on_open)) }
                </ul>
            }
            if reason.id == ReasonId::SubAgent && !report.health.agents.is_empty() {
                { agents_table(report, &report.health.agents, on_open) }
            }
            if let Some(note) = &reason.note {
                <p class="reason-note muted small" data-testid="reason-note"><strong>{ "Note: " }</strong>{ note.clone() }</p>
            }
        </li>
    }
}

/// A finding as a button that opens its file at its line, with the evidence it carries.
fn finding_item(report: &Report, index: usize, d: &Diagnostic, on_open: &OnOpen) -> Html {
    let target = d
        .path
        .as_deref()
        .and_then(|path| open_target(report, path, d.line));
    let place = d.path.as_deref().map(|path| {
        let shown = shown_path(path, &report.context);
        match d.line {
            Some(line) => format!("{shown}:{line}"),
            None => shown,
        }
    });
    let body = html! {
        <>
            <span class={classes!("sev", severity_slug(d.severity))}>{ severity_label(d.severity) }</span>
            <span class="msg">{ d.message.clone() }</span>
            if let Some(place) = place { <span class="place">{ place }</span> }
        </>
    };
    let head = match target {
        Some(target) => {
            let on_open = on_open.clone();
            html! {
                <button class="finding" data-testid="health-finding" data-code={d.code.as_str()}
                    data-path={target.0.clone()} data-line={target.1.map(|l| l.to_string())}
                    title="Open the file at this line"
                    onclick={Callback::from(move |_| on_open.emit(target.clone()))}>
                    { body }
                </button>
            }
        }
        None => html! {
            <div class="finding static" data-testid="health-finding" data-code={d.code.as_str()}>{ body }</div>
        },
    };
    html! {
        <li key={index}>
            { head }
            if let Some(data) = &d.data {
                { evidence(report, d, data, on_open) }
            }
        </li>
    }
}

/// The evidence a finding carries beyond its message.
fn evidence(report: &Report, d: &Diagnostic, data: &DiagnosticData, on_open: &OnOpen) -> Html {
    let path = d.path.clone().unwrap_or_default();
    match data {
        DiagnosticData::DroppedEntries { entries, more } => {
            dropped_entries(&path, entries, *more, on_open)
        }
        DiagnosticData::Lines { lines } => html! {
            <p class="evidence-lines small">
                { "Lines: " }
                { for lines.iter().map(|&line| line_button(&path, line, line.to_string(), on_open)) }
            </p>
        },
        // The finding's own path already shows beside its message.
        DiagnosticData::Paths { paths } if paths.iter().all(|p| *p == path) => Html::default(),
        DiagnosticData::Paths { paths } => html! {
            <ul class="evidence-paths small">
                { for paths.iter().filter(|p| **p != path).map(|p| {
                    let shown = shown_path(p, &report.context);
                    match open_target(report, p, None) {
                        Some(target) => {
                            let on_open = on_open.clone();
                            html! {
                                <li key={p.clone()}>
                                    <button class="linkish" onclick={Callback::from(move |_| on_open.emit(target.clone()))}>{ shown }</button>
                                </li>
                            }
                        }
                        None => html! { <li key={p.clone()}><code title={p.clone()}>{ shown }</code></li> },
                    }
                }) }
            </ul>
        },
    }
}

/// The index lines a truncation drops, the likely corrections flagged.
fn dropped_entries(path: &str, entries: &[DroppedEntry], more: u64, on_open: &OnOpen) -> Html {
    let corrections: Vec<u64> = entries
        .iter()
        .filter(|e| e.correction)
        .map(|e| e.line)
        .collect();
    let total = entries.len() as u64 + more;
    let head = match corrections.len() {
        0 => format!("{} dropped index lines, newest last.", grouped(total)),
        1 => format!(
            "{} dropped index lines, newest last. One looks like a correction of an earlier entry, so the older entry stands: line",
            grouped(total)
        ),
        n => format!(
            "{} dropped index lines, newest last. {n} look like corrections of earlier entries, so the older entries stand: lines",
            grouped(total)
        ),
    };
    html! {
        <div class="dropped" data-testid="dropped-entries" data-corrections={corrections.len().to_string()}>
            <p class="small">
                { head }
                { for corrections.iter().map(|&line| line_button(path, line, line.to_string(), on_open)) }
            </p>
            <div class="dropped-scroll">
                <table>
                    <tbody>
                        { for entries.iter().map(|entry| html! {
                            <tr key={entry.line} class={classes!(entry.correction.then_some("correction"))}
                                data-testid="dropped-entry" data-line={entry.line.to_string()} data-correction={entry.correction.to_string()}>
                                <td class="dropped-line">{ line_button(path, entry.line, entry.line.to_string(), on_open) }</td>
                                <td class="dropped-text"><code>{ entry.text.clone() }</code></td>
                                <td class="dropped-flag">
                                    if entry.correction {
                                        <span class="badge warn" title="It says not, instead, wrong, actually, corrected or no longer, or links a topic an earlier entry links: an overflow drops these first">{ "correction" }</span>
                                    }
                                </td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if more > 0 {
                <p class="small muted" data-testid="dropped-more">{ format!("{} more dropped lines not listed.", grouped(more)) }</p>
            }
        </div>
    }
}

fn line_button(path: &str, line: u64, label: String, on_open: &OnOpen) -> Html {
    let on_open = on_open.clone();
    let target = (path.to_owned(), Some(line));
    html! {
        <button key={line} class="linkish line-link" data-line={line.to_string()} title={format!("Open line {line}")}
            onclick={Callback::from(move |_| on_open.emit(target.clone()))}>{ label }</button>
    }
}

/// The sub-agents, their memory scope, whether their folder exists, and what a spawned one
/// receives.
fn agents_table(report: &Report, agents: &[AgentInfo], on_open: &OnOpen) -> Html {
    html! {
        <table class="agents" data-testid="agents">
            <thead><tr><th>{ "Sub-agent" }</th><th>{ "Memory" }</th><th>{ "Folder" }</th><th>{ "Receives when spawned" }</th></tr></thead>
            <tbody>
                { for agents.iter().map(|agent| {
                    let scope = match agent.memory {
                        Some(Scope::User) => "user",
                        Some(Scope::Project) => "project",
                        Some(Scope::Local) => "local",
                        Some(Scope::Managed) => "managed",
                        None => "none",
                    };
                    let folder = agent.memory_dir.as_deref().map(|dir| shown_path(dir, &report.context));
                    let open = agent.memory_dir.as_deref().and_then(|dir| open_target(report, dir, None));
                    html! {
                        <tr key={agent.path.clone()}>
                            <td><code title={agent.path.clone()}>{ agent.name.clone() }</code></td>
                            <td>{ scope }</td>
                            <td>
                                { match (folder, agent.memory_exists, open) {
                                    (None, _, _) => html! { <span class="muted">{ "no agent memory" }</span> },
                                    (Some(folder), true, Some(target)) => {
                                        let on_open = on_open.clone();
                                        html! { <button class="linkish" onclick={Callback::from(move |_| on_open.emit(target.clone()))}>{ format!("✓ {folder}") }</button> }
                                    }
                                    (Some(folder), true, None) => html! { <span>{ format!("✓ {folder}") }</span> },
                                    (Some(folder), false, _) => html! { <span class="warn-text">{ format!("✗ {folder} (missing)") }</span> },
                                } }
                            </td>
                            <td data-testid="agent-receives" data-files={agent.receives.len().to_string()}>{ receives(agent) }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// What a spawned sub-agent gets: its instruction block's files (the main `MEMORY.md` among
/// them, as measured) and its own index.
fn receives(agent: &AgentInfo) -> String {
    let chars: u64 = agent.receives.iter().map(|f| f.loaded.utf16).sum();
    let main_memory = agent
        .receives
        .iter()
        .any(|f| f.label == Some(SentLabel::AutoMemory));
    let mut text = match agent.receives.len() {
        0 => "no instruction files".to_owned(),
        1 => format!("1 file, {} characters", grouped(chars)),
        n => format!("{n} files, {} characters", grouped(chars)),
    };
    if main_memory {
        text.push_str(", the main MEMORY.md included");
    }
    if let Some(index) = &agent.memory_index {
        text.push_str(&format!(
            "; its own index, {} characters",
            grouped(index.utf16)
        ));
    }
    text
}

/// One memory folder's figures and its growth.
fn memory_card(report: &Report, memory: &MemoryHealth, on_open: &OnOpen) -> Html {
    let in_folder = |code: Code| -> Vec<&Diagnostic> {
        let folder = format!("{}/", memory.folder.trim_end_matches('/'));
        report
            .diagnostics
            .iter()
            .filter(|d| d.code == code && d.path.as_deref().is_some_and(|p| p.starts_with(&folder)))
            .collect()
    };
    // The long lines: each finding's line, and the lines of the one that lists the rest.
    let long: Vec<u64> = in_folder(Code::MemoryIndexLongLine)
        .iter()
        .flat_map(|d| {
            let mut lines: Vec<u64> = d.line.into_iter().collect();
            if let Some(DiagnosticData::Lines { lines: more }) = &d.data {
                lines.extend(more);
            }
            lines
        })
        .collect();
    let index = memory.index.clone();
    let file_links = |found: Vec<&Diagnostic>| -> Html {
        found
            .iter()
            .filter_map(|d| d.path.clone())
            .map(|path| {
                let name = path
                    .strip_prefix(&format!("{}/", memory.folder.trim_end_matches('/')))
                    .unwrap_or(&path)
                    .to_owned();
                match open_target(report, &path, None) {
                    Some(target) => {
                        let on_open = on_open.clone();
                        html! { <button key={path.clone()} class="linkish chip-link" onclick={Callback::from(move |_| on_open.emit(target.clone()))}>{ name }</button> }
                    }
                    None => html! { <code key={path.clone()} class="chip-link">{ name }</code> },
                }
            })
            .collect()
    };
    let (title, kind) = match &memory.agent {
        Some(agent) => (format!("Agent memory · {agent}"), "agent"),
        None => ("Auto memory".to_owned(), "auto"),
    };
    let over = memory.index_lines > LINE_CAP;
    let near = memory.index_lines >= LINES_80_PERCENT;
    let open_index = index
        .as_deref()
        .and_then(|path| open_target(report, path, None))
        .map(|target| {
            let on_open = on_open.clone();
            html! { <button class="linkish" onclick={Callback::from(move |_| on_open.emit(target.clone()))}>{ "open MEMORY.md" }</button> }
        });
    let chart = memory.growth.as_ref().map(|growth| {
        growth_chart(&GrowthChartProps {
            growth: growth.clone(),
            index_lines: memory.index_lines,
        })
    });
    html! {
        <section key={memory.folder.clone()} class={classes!("memory-card", kind)} data-testid="memory-health" data-folder={memory.folder.clone()}>
            <header class="memory-head">
                <h4>{ title }</h4>
                <code class="muted small" title={memory.folder.clone()}>{ shown_path(&memory.folder, &report.context) }</code>
                { open_index.unwrap_or_default() }
            </header>
            <div class="memory-body">
                <table class="figures" data-testid="memory-figures">
                    <tbody>
                        <tr class={classes!(over.then_some("over"), (near && !over).then_some("near"))} data-figure="index-lines">
                            <th scope="row">{ "Index lines" }</th>
                            <td colspan="2">
                                <strong>{ grouped(memory.index_lines) }</strong>
                                <span class="muted">{
                                    if over {
                                        format!(" · over the {LINE_CAP}-line cap")
                                    } else if near {
                                        format!(" · past the {LINES_80_PERCENT}-line reminder, cap {LINE_CAP}")
                                    } else {
                                        format!(" of {LINE_CAP}")
                                    }
                                }</span>
                                if index.is_none() { <span class="muted">{ " · no MEMORY.md" }</span> }
                            </td>
                        </tr>
                        <tr class="nowrap" data-figure="mean-line">
                            <th scope="row" title="Mean over the non-empty index lines">{ "Mean per index line" }</th>
                            <td data-testid="mean-chars">{ format!("{} chars", one_decimal(memory.mean_line_chars)) }</td>
                            <td data-testid="mean-bytes">{ format!("{} UTF-8 bytes", one_decimal(memory.mean_line_bytes)) }</td>
                        </tr>
                        { figure_row(
                            "long-lines",
                            "Lines over 200 characters",
                            "Claude Code asks for one line under about 200 characters per entry",
                            memory.long_lines,
                            match index.as_deref() {
                                Some(index) => long.iter().map(|&line| line_button(index, line, format!("line {line}"), on_open)).collect(),
                                None => Html::default(),
                            },
                        ) }
                        { figure_row("topic-files", "Topic files", "Every .md file of the folder but MEMORY.md", memory.topic_files, Html::default()) }
                        { figure_row(
                            "without-timestamp",
                            "Without a modified timestamp",
                            "Written through the shell, which skips the timestamp and the size check",
                            memory.without_timestamp,
                            file_links(in_folder(Code::MemoryFileNoTimestamp)),
                        ) }
                        { figure_row(
                            "orphans",
                            "Not linked from the loaded index",
                            "Recall runs through the index, so these are effectively never read",
                            memory.orphan_topics,
                            file_links(in_folder(Code::MemoryTopicOrphan)),
                        ) }
                        <tr data-figure="types">
                            <th scope="row">{ "Files per type" }</th>
                            <td colspan="2" class="types">
                                if memory.types.is_empty() {
                                    <span class="muted">{ "none" }</span>
                                }
                                { for memory.types.iter().map(|(kind, count)| {
                                    let odd = kind == "none" || kind == "unknown";
                                    html! {
                                        <span key={kind.clone()} class={classes!("badge", "type", odd.then_some("warn"))} data-type={kind.clone()}>
                                            { format!("{kind} {count}") }
                                        </span>
                                    }
                                }) }
                            </td>
                        </tr>
                    </tbody>
                </table>
                if memory.agent.is_none() {
                    <div class="growth">{ chart.unwrap_or_else(no_growth) }</div>
                } else {
                    <details class="growth">
                        <summary>{ "Growth projection" }</summary>
                        { chart.unwrap_or_else(no_growth) }
                    </details>
                }
            </div>
        </section>
    }
}

/// A row of the figures table: a count, and links to its evidence. Topic files are a plain
/// count; any other count above zero is something to look at.
fn figure_row(
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    count: u64,
    links: Html,
) -> Html {
    let flagged = count > 0 && id != "topic-files";
    html! {
        <tr class={classes!(flagged.then_some("warn"))} data-figure={id}>
            <th scope="row" title={hint}>{ label }</th>
            <td colspan="2">{ grouped(count) }<span class="chips">{ links }</span></td>
        </tr>
    }
}

fn no_growth() -> Html {
    html! { <p class="muted small" data-testid="no-growth">{ "No date was given, so there is no growth projection." }</p> }
}

/// A figure with at most one decimal, without a trailing `.0`.
fn one_decimal(value: f64) -> String {
    let text = fixed(value, 1);
    text.strip_suffix(".0").map(str::to_owned).unwrap_or(text)
}

fn reason_slug(id: ReasonId) -> &'static str {
    match id {
        ReasonId::DifferentFolder => "different-folder",
        ReasonId::NothingSaved => "nothing-saved",
        ReasonId::SwitchedOff => "switched-off",
        ReasonId::SubAgent => "sub-agent",
        ReasonId::Truncated => "truncated",
    }
}

// --- the growth chart ----------------------------------------------------------------------

/// Props of [`growth_chart`].
#[derive(Properties, PartialEq)]
pub struct GrowthChartProps {
    /// The growth of one memory folder.
    pub growth: Growth,
    /// The index's lines today.
    pub index_lines: u64,
}

/// Width of the chart's coordinate system.
const W: f64 = 480.0;
/// Height of the chart's coordinate system.
const H: f64 = 220.0;
const LEFT: f64 = 30.0;
/// Room on the right for the labels of the 80 % and 100 % lines.
const RIGHT: f64 = 76.0;
/// About how wide one character of the chart's 10-unit labels is.
const CHAR_WIDTH: f64 = 5.8;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 30.0;

/// The index lines over time, the projection at the recent rate, and the 80 % and 100 % lines.
pub fn growth_chart(props: &GrowthChartProps) -> Html {
    let growth = &props.growth;
    let text = growth_sentence(growth, props.index_lines);
    let honest = "Assumes each saved topic file adds one index line; earlier weeks are estimated from the files' dates, not recorded.";
    let Some(plan) = ChartPlan::new(growth, props.index_lines) else {
        return html! {
            <div class="growth-chart" data-testid="growth">
                <p class="small" data-testid="growth-text">{ text }</p>
            </div>
        };
    };
    let x = |day: i64| fixed(plan.x(day), 1);
    let y = |lines: f64| fixed(plan.y(lines), 1);
    let points = |list: &[(i64, f64)]| {
        list.iter()
            .map(|&(day, lines)| format!("{},{}", fixed(plan.x(day), 1), fixed(plan.y(lines), 1)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let history: Vec<(i64, f64)> = plan
        .history
        .iter()
        .map(|&(day, lines)| (day, lines as f64))
        .collect();
    let limit = |lines: u64, label: String, id: &'static str| {
        html! {
            <g class={classes!("limit", id)} data-testid={id} data-lines={lines.to_string()}>
                <line x1={x(plan.first)} x2={x(plan.last)} y1={y(lines as f64)} y2={y(lines as f64)} />
                <text x={fixed(W - RIGHT + 5.0, 1)} y={fixed(plan.y(lines as f64) + 3.5, 1)}>{ label }</text>
            </g>
        }
    };
    let labels = plan.axis_labels();
    let summary = format!(
        "Index lines by week, from {} to {} today, with the projection: {text}",
        plan.history.first().map(|h| h.1).unwrap_or_default(),
        props.index_lines
    );
    html! {
        <div class="growth-chart" data-testid="growth">
            <svg viewBox={format!("0 0 {} {}", fixed(W, 0), fixed(H, 0))} role="img" aria-label={summary.clone()} data-testid="growth-chart"
                data-y-max={plan.y_max.to_string()}>
                <title>{ summary }</title>
                <rect class="plot" x={fixed(LEFT, 0)} y={fixed(TOP, 0)} width={fixed(W - LEFT - RIGHT, 1)} height={fixed(H - TOP - BOTTOM, 1)} />
                { for plan.y_ticks().into_iter().map(|tick| html! {
                    <g key={tick} class="tick">
                        <line x1={fixed(LEFT, 0)} x2={fixed(W - RIGHT, 1)} y1={y(tick as f64)} y2={y(tick as f64)} />
                        <text x={fixed(LEFT - 4.0, 1)} y={fixed(plan.y(tick as f64) + 3.5, 1)} text-anchor="end">{ tick }</text>
                    </g>
                }) }
                { limit(LINES_80_PERCENT, format!("80 % · {LINES_80_PERCENT}"), "limit-80") }
                { limit(LINE_CAP, format!("100 % · {LINE_CAP}"), "limit-100") }
                <line class="today" x1={x(plan.today)} x2={x(plan.today)} y1={fixed(TOP, 0)} y2={fixed(H - BOTTOM, 1)} />
                <text class="x-label" x={fixed(plan.x(plan.today) - 3.0, 1)} y={fixed(TOP + 10.0, 1)} text-anchor="end">{ "today" }</text>
                <polyline class="projection" data-testid="projection-line" points={points(&plan.projection)} />
                <polyline class="history" data-testid="history-line" points={points(&history)} />
                { for plan.history.iter().zip(&growth.history).map(|(&(day, lines), week)| html! {
                    <circle key={week.start.clone()} class="point" cx={x(day)} cy={y(lines as f64)} r="2.6">
                        <title>{ format!("week of {}: about {lines} lines", week.start) }</title>
                    </circle>
                }) }
                { for plan.crossings.iter().map(|&(lines, day)| html! {
                    <g key={lines} class="crossing" data-lines={lines.to_string()}>
                        <line x1={x(day)} x2={x(day)} y1={y(lines as f64)} y2={fixed(H - BOTTOM, 1)} />
                        <circle cx={x(day)} cy={y(lines as f64)} r="3.4" />
                    </g>
                }) }
                { for labels.into_iter().map(|(day, label, anchor)| html! {
                    <text key={label.clone()} class="x-label" x={x(day)} y={fixed(H - BOTTOM + 16.0, 1)} text-anchor={anchor}>{ label }</text>
                }) }
            </svg>
            <p class="small" data-testid="growth-text">{ text }</p>
            <p class="muted small">
                { honest }
                if growth.dated_by_file_time > 0 {
                    { format!(" {} files had no modified date and were dated by their file time.", growth.dated_by_file_time) }
                }
            </p>
        </div>
    }
}

/// The projection in words, with both projected dates.
pub fn growth_sentence(growth: &Growth, lines: u64) -> String {
    let rate = format!(
        "{} files a week over the last 60 days",
        one_decimal(growth.files_per_week)
    );
    if lines >= LINE_CAP {
        return format!(
            "{rate}. The index is already at {} lines: past the {LINE_CAP}-line cap, so the lines after {LINE_CAP} do not load.",
            grouped(lines)
        );
    }
    let at = |date: &Option<String>, target: u64| match date {
        Some(date) => format!("reaches {target} lines on {date}"),
        None if lines >= target => format!("is already past {target} lines"),
        None => format!("does not reach {target} lines"),
    };
    if growth.files_per_week <= 0.0 && growth.reaches_80_percent.is_none() {
        return format!(
            "No file was saved in the last 60 days: at this rate the index stays at {} lines and {}.",
            grouped(lines),
            if lines >= LINES_80_PERCENT {
                format!("stays past {LINES_80_PERCENT}")
            } else {
                "never reaches the caps".to_owned()
            }
        );
    }
    format!(
        "At {rate}, the index {} (80 %) and {} (the cap).",
        at(&growth.reaches_80_percent, LINES_80_PERCENT),
        at(&growth.reaches_limit, LINE_CAP)
    )
}

/// Where everything of the growth chart goes: days on x, index lines on y.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartPlan {
    /// The first day shown (the first week's last day).
    pub first: i64,
    /// The last day shown.
    pub last: i64,
    /// Today.
    pub today: i64,
    /// The top of the y axis, in lines.
    pub y_max: u64,
    /// The weekly points: day and lines.
    pub history: Vec<(i64, u64)>,
    /// The projection from today to the last day (or the cap), as day and lines.
    pub projection: Vec<(i64, f64)>,
    /// The projected crossings shown: lines (160 or 200) and day.
    pub crossings: Vec<(u64, i64)>,
    dates: Vec<(i64, String)>,
}

/// How far the chart looks ahead at most: two years.
const HORIZON_DAYS: i64 = 730;

impl ChartPlan {
    /// Lays out a growth; `None` when its dates cannot be read.
    pub fn new(growth: &Growth, lines: u64) -> Option<ChartPlan> {
        let today = day_number(&growth.today)?;
        // Each weekly point is the estimate at the end of its week; the last one is today.
        let history: Vec<(i64, u64)> = growth
            .history
            .iter()
            .map(|week| Some(((day_number(&week.start)? + 6).min(today), week.count)))
            .collect::<Option<_>>()?;
        let first = history.first().map_or(today - 56, |h| h.0).min(today);
        let crossing_days: Vec<(u64, i64)> = [
            (LINES_80_PERCENT, &growth.reaches_80_percent),
            (LINE_CAP, &growth.reaches_limit),
        ]
        .into_iter()
        .filter_map(|(level, date)| Some((level, day_number(date.as_deref()?)?)))
        .collect();
        // Look ahead at least as far as the history looks back, and far enough to show each
        // projected crossing within two years, with a little room after it.
        let mut last = today + (today - first).max(56);
        for &(_, day) in &crossing_days {
            if day <= today + HORIZON_DAYS {
                last = last.max(day + (day - first) / 12);
            }
        }
        // The slope per day: through the projected crossing where there is one (the core's
        // dates are exact), else from the rounded rate.
        let per_day = crossing_days
            .last()
            .filter(|&&(_, day)| day > today)
            .map(|&(level, day)| (level as f64 - lines as f64) / (day - today) as f64)
            .unwrap_or(growth.files_per_week / 7.0)
            .max(0.0);
        let mut projection = vec![(today, lines as f64)];
        for &(level, day) in &crossing_days {
            if day > today && day < last {
                projection.push((day, level as f64));
            }
        }
        projection.push((last, lines as f64 + per_day * (last - today) as f64));
        let top = history
            .iter()
            .map(|h| h.1 as f64)
            .chain(projection.iter().map(|p| p.1))
            .fold(LINE_CAP as f64, f64::max);
        let y_max = ((top * 1.08 / 50.0).ceil() * 50.0) as u64;
        let crossings = crossing_days
            .iter()
            .copied()
            .filter(|&(_, day)| day > today && day <= last)
            .collect();
        let mut dates = Vec::new();
        if let Some(point) = history.first() {
            dates.push((point.0, format_day(point.0)));
        }
        for (level, date) in [
            (LINES_80_PERCENT, &growth.reaches_80_percent),
            (LINE_CAP, &growth.reaches_limit),
        ] {
            if let Some(date) = date {
                if let Some(&(_, day)) = crossing_days.iter().find(|c| c.0 == level) {
                    if day <= last {
                        dates.push((day, date.clone()));
                    }
                }
            }
        }
        Some(ChartPlan {
            first,
            last,
            today,
            y_max,
            history,
            projection,
            crossings,
            dates,
        })
    }

    /// The x coordinate of a day.
    pub fn x(&self, day: i64) -> f64 {
        let span = (self.last - self.first).max(1) as f64;
        LEFT + (day - self.first) as f64 / span * (W - LEFT - RIGHT)
    }

    /// The y coordinate of a number of lines.
    pub fn y(&self, lines: f64) -> f64 {
        H - BOTTOM - lines / self.y_max.max(1) as f64 * (H - TOP - BOTTOM)
    }

    /// Round values for the y axis; the cap has its own labelled line.
    fn y_ticks(&self) -> Vec<u64> {
        let step = if self.y_max > 600 { 200 } else { 100 };
        (0..=self.y_max)
            .step_by(step as usize)
            .filter(|&t| t != LINE_CAP)
            .collect()
    }

    /// The dates written under the axis: the projected crossings, then the first week,
    /// leaving out any that would overlap one already placed. ("today" is written at the top
    /// of its own line.)
    fn axis_labels(&self) -> Vec<(i64, String, &'static str)> {
        let mut wanted: Vec<(i64, String)> = self.dates.iter().skip(1).rev().cloned().collect();
        wanted.extend(self.dates.first().cloned());
        let mut placed: Vec<(i64, String, &'static str)> = Vec::new();
        let mut taken: Vec<(f64, f64)> = Vec::new();
        for (day, label) in wanted {
            let at = self.x(day);
            let width = label.chars().count() as f64 * CHAR_WIDTH;
            let (anchor, from) = if at - width / 2.0 < LEFT {
                ("start", at)
            } else if at + width / 2.0 > W - RIGHT {
                ("end", at - width)
            } else {
                ("middle", at - width / 2.0)
            };
            let extent = (from - 4.0, from + width + 4.0);
            if taken.iter().any(|&(a, b)| extent.0 < b && a < extent.1) {
                continue;
            }
            taken.push(extent);
            placed.push((day, label, anchor));
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use memdiag_core::report::WeekCount;

    use super::*;

    fn growth(
        today: &str,
        counts: &[u64],
        rate: f64,
        r80: Option<&str>,
        rlim: Option<&str>,
    ) -> Growth {
        let today_n = day_number(today).unwrap();
        let n = counts.len() as i64;
        Growth {
            today: today.to_owned(),
            weeks: Vec::new(),
            files_per_week: rate,
            history: counts
                .iter()
                .enumerate()
                .map(|(k, &count)| WeekCount {
                    start: civil(today_n - 7 * (n - 1 - k as i64) - 6),
                    count,
                })
                .collect(),
            reaches_80_percent: r80.map(str::to_owned),
            reaches_limit: rlim.map(str::to_owned),
            dated_by_file_time: 0,
        }
    }

    fn civil(z: i64) -> String {
        format_day(z)
    }

    #[test]
    fn the_projection_runs_through_both_crossings() {
        // The core's pinned example: 150 lines, 1.4 a week, 160 on 2027-01-19, 200 on 2027-08-07.
        let g = growth(
            "2026-11-30",
            &[138, 139, 141, 142, 144, 145, 147, 148, 150],
            1.4,
            Some("2027-01-19"),
            Some("2027-08-07"),
        );
        let plan = ChartPlan::new(&g, 150).unwrap();
        let today = day_number("2026-11-30").unwrap();
        assert_eq!(plan.history.last(), Some(&(today, 150)));
        assert_eq!(plan.history.len(), 9);
        assert_eq!(plan.first, today - 56);
        let r80 = day_number("2027-01-19").unwrap();
        let rlim = day_number("2027-08-07").unwrap();
        assert_eq!(plan.crossings, vec![(160, r80), (200, rlim)]);
        assert!(plan.last > rlim);
        assert_eq!(plan.projection[0], (today, 150.0));
        assert_eq!(plan.projection[1], (r80, 160.0));
        assert_eq!(plan.projection[2], (rlim, 200.0));
        assert!(plan.projection[3].1 > 200.0);
        assert_eq!(plan.y_max, 250);
        // The cap line sits above the 80 % line, both inside the plot.
        assert!(plan.y(200.0) < plan.y(160.0) && plan.y(200.0) > TOP);
        assert!((plan.x(plan.first) - LEFT).abs() < 1e-9);
        assert!((plan.x(plan.last) - (W - RIGHT)).abs() < 1e-9);
        let labels: Vec<String> = plan.axis_labels().into_iter().map(|l| l.1).collect();
        assert!(labels.contains(&"2027-08-07".to_owned()), "{labels:?}");
        assert!(labels.contains(&"2027-01-19".to_owned()), "{labels:?}");
    }

    #[test]
    fn no_growth_draws_a_flat_line_and_says_so() {
        let g = growth("2026-11-30", &[1; 9], 0.0, None, None);
        let plan = ChartPlan::new(&g, 1).unwrap();
        assert!(plan.crossings.is_empty());
        assert_eq!(plan.projection.len(), 2);
        assert_eq!(plan.projection[1].1, 1.0);
        assert_eq!(plan.y_max, 250);
        assert!(growth_sentence(&g, 1).contains("never reaches the caps"));
    }

    #[test]
    fn an_index_past_the_cap_projects_on_from_its_rate() {
        let g = growth(
            "2026-11-30",
            &[209, 209, 209, 209, 210, 213, 213, 214, 215],
            0.7,
            None,
            None,
        );
        let plan = ChartPlan::new(&g, 215).unwrap();
        assert!(plan.crossings.is_empty());
        let end = plan.projection.last().unwrap();
        assert!((end.1 - (215.0 + 0.1 * (plan.last - plan.today) as f64)).abs() < 1e-9);
        assert_eq!(plan.y_max, 250);
        assert!(growth_sentence(&g, 215).contains("already at 215 lines"));
    }

    #[test]
    fn a_crossing_years_away_stays_in_words_only() {
        let g = growth(
            "2026-11-30",
            &[10; 9],
            0.1,
            Some("2050-01-01"),
            Some("2060-01-01"),
        );
        let plan = ChartPlan::new(&g, 10).unwrap();
        assert!(plan.crossings.is_empty());
        assert!(plan.last - plan.today < HORIZON_DAYS);
        let text = growth_sentence(&g, 10);
        assert!(
            text.contains("2050-01-01") && text.contains("2060-01-01"),
            "{text}"
        );
    }

    #[test]
    fn a_bad_date_gives_no_chart() {
        let mut g = growth("2026-11-30", &[1], 0.0, None, None);
        g.today = "soon".to_owned();
        assert_eq!(ChartPlan::new(&g, 1), None);
    }

    #[test]
    fn figures_drop_a_trailing_zero() {
        assert_eq!(one_decimal(47.0), "47");
        assert_eq!(one_decimal(61.8), "61.8");
    }
}
