//! What simulating another Claude Code release changes: which measured behaviours that
//! release has, and what its report of the same files does differently from the pinned
//! release's (rows, findings, figures). Everything here is read off the report
//! (`report.rules`, `report.comparison`); the page computes nothing.

use memdiag_core::report::comparison::{Comparison, RowChangeKind};
use memdiag_core::report::Report;
use memdiag_core::PINNED;
use yew::{html, Callback, Html, Properties};

use crate::page::state::{grouped, Shared, TreeItem};

/// Props of [`release_panel`].
#[derive(Properties, PartialEq)]
pub struct ReleasePanelProps {
    /// A report of a simulated release (it carries `comparison`).
    pub report: Shared<Report>,
    /// Selects a changed row in the tree.
    pub on_select: Callback<TreeItem>,
}

/// The simulated release's rules and its differences from the pinned release, folded into
/// one summary line that opens.
pub fn release_panel(props: &ReleasePanelProps) -> Html {
    let report = &props.report;
    let Some(comparison) = &report.comparison else {
        return Html::default();
    };
    let rules = &report.rules;
    let release = &rules.release;
    let pinned = PINNED.to_string();
    let applies = rules.behaviours.iter().filter(|b| b.applies).count();
    let summary = if comparison.is_empty() {
        format!("Claude Code {release} loads these files exactly as {pinned} does.")
    } else {
        format!(
            "Claude Code {release} differs from {pinned} here: {}.",
            difference_counts(comparison).join(", ")
        )
    };
    html! {
        <details class="release-panel" data-testid="release-panel" data-release={release.clone()}
            data-rows={comparison.rows.len().to_string()}
            data-appeared={comparison.findings_appeared.len().to_string()}
            data-vanished={comparison.findings_vanished.len().to_string()}
            data-figures={comparison.figures.len().to_string()}>
            <summary>
                <span class="release-summary" data-testid="release-summary">{ summary }</span>
                <span class="muted small">{ format!(" {applies} of {} measured changes apply.", rules.behaviours.len()) }</span>
            </summary>
            <div class="release-body">
                <div class="release-part">
                    <h2 id="release-behaviours">{ format!("Measured behaviours in {release}") }</h2>
                    <ul class="release-behaviours">
                        { for rules.behaviours.iter().map(|b| html! {
                            <li key={b.id.clone()} data-testid="release-behaviour" data-id={b.id.clone()}
                                data-applies={b.applies.to_string()} class={if b.applies { "applies" } else { "absent" }}>
                                <span class="mark" aria-hidden="true">{ if b.applies { "✓" } else { "✗" } }</span>
                                <span class="visually-hidden">{ if b.applies { "applies: " } else { "does not apply: " } }</span>
                                { b.summary.clone() }
                                <span class="muted small">{ format!(" (from {})", b.since) }</span>
                            </li>
                        }) }
                    </ul>
                    <p class="muted small" data-testid="release-caps">
                        { format!(
                            "MEMORY.md loads {} lines{}; imports follow {} hops; {}; the skills listing fits {} {}.",
                            rules.memory_max_lines,
                            rules.memory_max_utf16.map_or_else(
                                || " whatever their size (no size cap)".to_owned(),
                                |cap| format!(" and {} characters", grouped(cap)),
                            ),
                            rules.import_max_hops,
                            rules.file_max_bytes.map_or_else(
                                || "an instruction file loads whatever its size".to_owned(),
                                |cap| format!("an instruction file over {} bytes is skipped", grouped(cap)),
                            ),
                            grouped(rules.skills_listing_budget),
                            if rules.skills_listing_counts_columns { "columns" } else { "characters" },
                        ) }
                    </p>
                    if !rules.not_reproduced.is_empty() {
                        <p class="release-gap" data-testid="release-not-reproduced">
                            { "Measured on this release but not reproduced, so its figures are approximate there: " }
                            { rules.not_reproduced.join("; ") }
                        </p>
                    }
                </div>
                if !comparison.figures.is_empty() {
                    <div class="release-part">
                        <h2 id="release-figures">{ "Figures" }</h2>
                        <table class="release-figures">
                            <thead><tr><th>{ "figure" }</th><th>{ pinned.clone() }</th><th>{ release.clone() }</th></tr></thead>
                            <tbody>
                                { for comparison.figures.iter().map(|f| html! {
                                    <tr data-testid="release-figure" data-name={f.name.id()}
                                        data-base={f.base.to_string()} data-other={f.other.to_string()}>
                                        <th scope="row">{ f.name.label() }</th>
                                        <td>{ grouped(f.base) }</td>
                                        <td>{ format!("{} ({})", grouped(f.other), signed(f.other as i128 - f.base as i128)) }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    </div>
                }
                if !comparison.rows.is_empty() {
                    <div class="release-part">
                        <h2 id="release-rows">{ "Files" }</h2>
                        <ul class="release-rows">
                            { for comparison.rows.iter().map(|change| {
                                let kind = change.kind();
                                let label = match kind {
                                    RowChangeKind::Added => format!("only {release} lists it"),
                                    RowChangeKind::Removed => format!("only {pinned} lists it"),
                                    RowChangeKind::Changed => "loads differently".to_owned(),
                                };
                                let open = change.other_index.map(|index| {
                                    let on_select = props.on_select.clone();
                                    Callback::from(move |_| on_select.emit(TreeItem::File(index)))
                                });
                                html! {
                                    <li data-testid="release-row" data-path={change.path.clone()}
                                        data-kind={format!("{kind:?}").to_ascii_lowercase()}>
                                        if let Some(open) = open {
                                            <button class="linkish" onclick={open}>{ change.path.clone() }</button>
                                        } else {
                                            <code>{ change.path.clone() }</code>
                                        }
                                        <span class="muted small">{ format!(" · {label}") }</span>
                                    </li>
                                }
                            }) }
                        </ul>
                    </div>
                }
                if !comparison.findings_appeared.is_empty() || !comparison.findings_vanished.is_empty() {
                    <div class="release-part">
                        <h2 id="release-findings">{ "Findings" }</h2>
                        <ul class="release-findings">
                            { for comparison.findings_appeared.iter().map(|f| html! {
                                <li data-testid="release-finding" data-change="appeared" data-code={f.code.as_str()}>
                                    <span class="badge warn">{ format!("only in {release}") }</span>{ " " }{ f.message.clone() }
                                </li>
                            }) }
                            { for comparison.findings_vanished.iter().map(|f| html! {
                                <li data-testid="release-finding" data-change="vanished" data-code={f.code.as_str()}>
                                    <span class="badge">{ format!("only in {pinned}") }</span>{ " " }{ f.message.clone() }
                                </li>
                            }) }
                        </ul>
                    </div>
                }
            </div>
        </details>
    }
}

/// "3 files, 1 finding more, 2 figures", the parts that are not zero.
fn difference_counts(comparison: &Comparison) -> Vec<String> {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if !comparison.rows.is_empty() {
        parts.push(plural(comparison.rows.len(), "file", "files"));
    }
    if !comparison.findings_appeared.is_empty() {
        parts.push(plural(
            comparison.findings_appeared.len(),
            "finding more",
            "findings more",
        ));
    }
    if !comparison.findings_vanished.is_empty() {
        parts.push(plural(
            comparison.findings_vanished.len(),
            "finding fewer",
            "findings fewer",
        ));
    }
    if !comparison.figures.is_empty() {
        parts.push(plural(comparison.figures.len(), "figure", "figures"));
    }
    parts
}

/// `+1,234` or `−56`.
fn signed(delta: i128) -> String {
    let size = grouped(delta.unsigned_abs() as u64);
    if delta < 0 {
        format!("\u{2212}{size}")
    } else {
        format!("+{size}")
    }
}
