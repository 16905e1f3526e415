//! The report's diagnostics, each a button that opens its file at its line.

use memdiag_core::report::{Diagnostic, Report};
use yew::{component, html, Callback, Html, Properties};

use crate::components::file_view::{severity_label, severity_slug};
use crate::state::{display_path, open_target, Shared};

/// Props of [`DiagnosticsList`].
#[derive(Properties, PartialEq)]
pub struct DiagnosticsProps {
    /// The report.
    pub report: Shared<Report>,
    /// Opens a file at a line.
    #[prop_or_default]
    pub on_open: Callback<(String, Option<u64>)>,
}

/// The diagnostics list.
#[component]
pub fn DiagnosticsList(props: &DiagnosticsProps) -> Html {
    let report = &props.report;
    if report.diagnostics.is_empty() {
        return html! {
            <section class="diagnostics" aria-label="Findings" data-testid="diagnostics">
                <h2>{ "Findings" }</h2>
                <p class="muted">{ "No findings: nothing is cut, missing or broken." }</p>
            </section>
        };
    }
    html! {
        <section class="diagnostics" aria-label="Findings" data-testid="diagnostics">
            <h2>{ format!("Findings ({})", report.diagnostics.len()) }</h2>
            <ul>
                { for report.diagnostics.iter().enumerate().map(|(i, d)| item(report, i, d, &props.on_open)) }
            </ul>
        </section>
    }
}

fn item(
    report: &Report,
    index: usize,
    d: &Diagnostic,
    on_open: &Callback<(String, Option<u64>)>,
) -> Html {
    let place = d.path.as_ref().map(|path| {
        let shown = report
            .files
            .iter()
            .find(|row| &row.path == path)
            .map(|row| display_path(row, &report.context))
            .unwrap_or_else(|| path.clone());
        match d.line {
            Some(line) => format!("{shown}:{line}"),
            None => shown,
        }
    });
    let body = html! {
        <>
            <span class={format!("sev {}", severity_slug(d.severity))}>{ severity_label(d.severity) }</span>
            <span class="msg">{ d.message.clone() }</span>
            if let Some(place) = place.clone() { <span class="place">{ place }</span> }
            <span class="code muted">{ d.code.as_str() }</span>
        </>
    };
    // A finding about a folder opens its first file (a memory folder's MEMORY.md).
    let target = d
        .path
        .as_deref()
        .and_then(|path| open_target(report, path, d.line));
    html! {
        <li key={index} class={format!("diag {}", severity_slug(d.severity))} data-testid="diagnostic" data-code={d.code.as_str()}>
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
