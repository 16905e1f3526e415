//! The file view: what the selected file is, how it loads, and its text.
//!
//! For a `MEMORY.md` the raw text shows the loaded and the dropped lines apart, with a marked
//! cut line, the cap figures and Claude Code's own warning beside it. Text from the dropped
//! files only ever becomes text nodes.

use memdiag_core::report::{
    CutBy, Diagnostic, FileRow, FileStatus, Group, ReferenceKind, Report, Scope, Truncation,
    UnresolvedReason,
};
use memdiag_core::tree::Contents;
use memdiag_core::{Tree, VPath};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::{
    component, html, use_context, use_effect_with, use_mut_ref, use_node_ref, AttrValue, Callback,
    Html, Properties,
};

pub use crate::page::components::diagnostics::{severity_label, severity_slug};
use crate::page::components::markdown::Markdown;
use crate::page::components::{reveal_in, Reveal};
use crate::page::state::{display_path, grouped, human_bytes, ApprovalHint, Shared, Tab};

pub use memdiag_core::caps::{MAX_LINES as LINE_CAP, MAX_UTF16 as SIZE_CAP};
/// Lines shown in the raw view at most.
const MAX_LINES: usize = 20_000;

/// The text of a file as the page has it.
#[derive(Debug, Clone, PartialEq)]
pub enum FileText {
    /// The analysis never read it (it did not need to).
    NotRead,
    /// The snapshot does not hold it.
    Missing,
    /// Reading failed.
    Unreadable(String),
    /// The text; `lossy` when invalid UTF-8 was replaced.
    Text {
        /// The decoded text.
        text: AttrValue,
        /// True when some bytes were not valid UTF-8.
        lossy: bool,
    },
}

/// The text of `path` in `tree`.
pub fn file_text(tree: &Tree, path: &str) -> FileText {
    let Some(entry) = VPath::new(path).ok().and_then(|p| tree.file(&p).cloned()) else {
        return FileText::Missing;
    };
    match entry.contents {
        Contents::Unread => FileText::NotRead,
        Contents::Unreadable(message) => FileText::Unreadable(message),
        Contents::Loaded(bytes) => match String::from_utf8(bytes) {
            Ok(text) => FileText::Text {
                text: AttrValue::from(text),
                lossy: false,
            },
            Err(error) => FileText::Text {
                text: AttrValue::from(String::from_utf8_lossy(error.as_bytes()).into_owned()),
                lossy: true,
            },
        },
    }
}

/// Props of [`FileView`].
#[derive(Properties, PartialEq)]
pub struct FileViewProps {
    /// The report.
    pub report: Shared<Report>,
    /// The selected row, if a file is selected.
    pub index: Option<usize>,
    /// The selected group, if a header is selected.
    #[prop_or_default]
    pub group: Option<Group>,
    /// The selected file's text.
    pub text: FileText,
    /// Raw or preview.
    #[prop_or_default]
    pub tab: Tab,
    /// A line to scroll to.
    #[prop_or_default]
    pub focus_line: Option<u64>,
    /// Changes with every request to open a line, so the same line scrolls into view again.
    #[prop_or_default]
    pub focus_seq: u64,
    /// Switches the tab.
    #[prop_or_default]
    pub on_tab: Callback<Tab>,
    /// Opens another file (a reference's target), optionally at a line.
    #[prop_or_default]
    pub on_open: Callback<(String, Option<u64>)>,
    /// What the page can add to an import waiting for approval.
    #[prop_or_default]
    pub approval: ApprovalHint,
    /// Opens the page's "Add ~/.claude.json" file input.
    #[prop_or_default]
    pub on_add_claude_json: Callback<()>,
}

/// The file view.
#[component]
pub fn FileView(props: &FileViewProps) -> Html {
    // For the Delete button: a file view mounted on its own (its component tests) has no page.
    let page = use_context::<crate::Page>();
    let body_ref = use_node_ref();
    {
        let body_ref = body_ref.clone();
        use_effect_with(
            (props.index, props.focus_line, props.tab, props.focus_seq),
            move |(_, line, _, _)| {
                let Some(body) = body_ref.cast::<HtmlElement>() else {
                    return;
                };
                let target = match line {
                    Some(line) => body
                        .query_selector(&format!("[data-line=\"{line}\"]"))
                        .ok()
                        .flatten(),
                    None => None,
                };
                match target.and_then(|t| t.dyn_into::<HtmlElement>().ok()) {
                    Some(element) => reveal_in(&body, &element, Reveal::Center),
                    None => body.set_scroll_top(0),
                }
            },
        );
    }
    // Opening a file (from the verdict, a finding, a reference, "largest parts" or the
    // tree) lands here: the view comes into the window and focus goes to its heading, so
    // that a keyboard user, or a phone's reader below the tree, is where they clicked to go.
    // A view that merely shows again leaves focus and the window alone.
    {
        let body_ref = body_ref.clone();
        let seen = use_mut_ref(|| props.focus_seq);
        use_effect_with((props.focus_seq, props.focus_line), move |(seq, line)| {
            if *seen.borrow() != *seq {
                *seen.borrow_mut() = *seq;
                if let Some(body) = body_ref.cast::<HtmlElement>() {
                    let line = line.and_then(|line| {
                        body.query_selector(&format!("[data-line=\"{line}\"]"))
                            .ok()
                            .flatten()
                    });
                    crate::page::browser::land(&body, line);
                }
            }
        });
    }
    let report = &props.report;
    let Some(row) = props.index.and_then(|i| report.files.get(i)) else {
        return html! {
            <section class="file-view" data-testid="file-view" ref={body_ref}>
                { group_summary(report, props.group) }
            </section>
        };
    };
    let diagnostics: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.path.as_deref() == Some(row.path.as_str()))
        .collect();
    let tab_button = |tab: Tab, label: &'static str| {
        let on_tab = props.on_tab.clone();
        let active = props.tab == tab;
        // The ARIA tabs pattern: one tab stop, the arrows move to the other tab and show it.
        let on_key = {
            let on_tab = props.on_tab.clone();
            Callback::from(move |event: web_sys::KeyboardEvent| {
                const TABS: [(Tab, &str); 2] = [(Tab::Raw, "raw"), (Tab::Preview, "preview")];
                let current = TABS.iter().position(|(t, _)| *t == tab).unwrap_or(0);
                if let Some(next) =
                    crate::page::components::tab_key(&event.key(), current, TABS.len())
                {
                    event.prevent_default();
                    let (next, id) = TABS[next];
                    on_tab.emit(next);
                    crate::page::browser::focus_test_id(&format!("tab-{id}"));
                }
            })
        };
        html! {
            <button
                role="tab"
                class={if active { "tab active" } else { "tab" }}
                aria-selected={active.to_string()}
                tabindex={if active { "0" } else { "-1" }}
                data-testid={format!("tab-{}", label.to_ascii_lowercase())}
                onclick={Callback::from(move |_| on_tab.emit(tab))}
                onkeydown={on_key}
            >{ label }</button>
        }
    };
    html! {
        <section class="file-view" data-testid="file-view" data-path={row.path.clone()} ref={body_ref}
            tabindex="-1" aria-label={format!("File {}", display_path(row, &report.context))}>
            { header(report, row) }
            if row.status == FileStatus::NeedsApproval {
                { approval_note(props.approval, &props.on_add_claude_json) }
            }
            if !diagnostics.is_empty() {
                // The notes fold into one line, so that the file's text stays above the fold.
                <details class="file-notes" data-testid="file-notes" data-count={diagnostics.len().to_string()}>
                    <summary>{ notes_summary(&diagnostics) }</summary>
                    <ul class="file-diagnostics">
                        { for diagnostics.iter().map(|d| html! {
                            <li class={format!("diag {}", severity_slug(d.severity))} data-testid="file-diagnostic">
                                <span class="sev">{ severity_label(d.severity) }</span>
                                <span class="msg" title={d.message.clone()}>{ crate::page::components::diagnostics::list_message(d) }</span>
                                if let Some(line) = d.line { <span class="muted">{ format!(" (line {line})") }</span> }
                            </li>
                        }) }
                    </ul>
                </details>
            }
            if let Some(truncation) = &row.truncation {
                { truncation_figures(row, truncation) }
            }
            if !row.frontmatter.is_empty() {
                <details class="frontmatter">
                    <summary>{ "Frontmatter" }</summary>
                    <table data-testid="frontmatter">
                        { for row.frontmatter.iter().map(|field| html! {
                            <tr><th scope="row">{ field.key.clone() }</th><td>{ field.value.clone() }</td></tr>
                        }) }
                    </table>
                    if row.frontmatter_omitted > 0 {
                        <p class="note">{ format!("and {} more keys, not shown", memdiag_core::group_digits(row.frontmatter_omitted)) }</p>
                    }
                </details>
            }
            if !row.references.is_empty() {
                { references(report, row, &props.on_open) }
            }
            { crate::page::components::cleanup::delete_file(page.as_ref(), row) }
            <div class="tabs" role="tablist" aria-label="How to show the text">
                { tab_button(Tab::Raw, "Raw") }
                { tab_button(Tab::Preview, "Preview") }
            </div>
            { text_body(row, &props.text, props.tab, props.focus_line, &props.on_open) }
        </section>
    }
}

/// One line for a file's findings: how many of each severity, and the first one.
fn notes_summary(diagnostics: &[&Diagnostic]) -> String {
    use memdiag_core::report::Severity;
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let parts: Vec<String> = [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "note"),
    ]
    .iter()
    .filter_map(|&(s, name)| {
        let n = count(s);
        (n > 0).then(|| format!("{n} {name}{}", if n == 1 { "" } else { "s" }))
    })
    .collect();
    let mut first = diagnostics
        .iter()
        .min_by_key(|d| d.severity)
        .map(|d| crate::page::components::diagnostics::list_message(d))
        .unwrap_or_default();
    if first.chars().count() > 90 {
        first = first.chars().take(89).collect::<String>() + "…";
    }
    format!("{} about this file: {first}", parts.join(", "))
}

/// True when the report found that the file at `path` could not be read.
fn unreadable(report: &Report, path: &str) -> bool {
    report.diagnostics.iter().any(|d| {
        d.code == memdiag_core::report::Code::FileUnreadable && d.path.as_deref() == Some(path)
    })
}

fn header(report: &Report, row: &FileRow) -> Html {
    let shown = display_path(row, &report.context);
    let scope = row.scope.map(|s| match s {
        Scope::Managed => "managed",
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Local => "local",
    });
    let status = match row.status {
        FileStatus::Ok => None,
        FileStatus::Unresolved => Some(match row.unresolved_reason {
            Some(UnresolvedReason::OutsideSnapshot) => {
                "⚠ unresolved: the target lies outside the dropped folders".to_owned()
            }
            Some(UnresolvedReason::NotLookedAt) => {
                "⚠ unresolved: the page did not look where it points (session data is not read)"
                    .to_owned()
            }
            _ => "⚠ unresolved: the file does not exist".to_owned(),
        }),
        FileStatus::Excluded => {
            Some("excluded by claudeMdExcludes: Claude Code skips it".to_owned())
        }
        FileStatus::Disabled => Some("auto memory is switched off: this does not load".to_owned()),
        // A file whose read failed is skipped too: say which of the two it is.
        FileStatus::Skipped if unreadable(report, &row.path) => Some(
            "could not be read (a damaged zip entry or a read error): nothing of it is counted"
                .to_owned(),
        ),
        FileStatus::Skipped => Some("skipped: too large".to_owned()),
        FileStatus::TooDeep => Some("too deep: beyond the maximum import depth".to_owned()),
        FileStatus::NeedsApproval => Some(
            "needs approval: an import that leaves the project loads only once you approve external imports"
                .to_owned(),
        ),
        FileStatus::Empty => Some("empty once frontmatter and comments are stripped: nothing is sent".to_owned()),
        FileStatus::NotText => Some("not a text file: Claude Code skips the import".to_owned()),
    };
    let status = if row.backfilled {
        Some("not in the snapshot: Claude Code writes this MEMORY.md itself from the topic files' frontmatter, and loads it from its next start".to_owned())
    } else {
        status
    };
    let parent = row.parent.as_ref().map(|p| {
        let via = match row.reference.as_ref().map(|r| r.kind) {
            Some(ReferenceKind::Link) => "linked from",
            _ => "imported by",
        };
        format!("{via} {p}")
    });
    html! {
        <header class="file-head">
            <h2 data-testid="file-title" tabindex="-1">
                <span class={format!("icon load-{}", row.load.label().to_ascii_lowercase())} title={row.load.label()}>{ row.load.icon() }</span>
                { " " }{ shown }
            </h2>
            <p class="full-path muted">{ row.path.clone() }</p>
            <dl class="facts">
                <div><dt>{ "Loads" }</dt><dd data-testid="file-load">{ load_sentence(row) }</dd></div>
                <div><dt>{ "Group" }</dt><dd>{ row.group.name() }{ scope.map(|s| format!(" · {s}")).unwrap_or_default() }</dd></div>
                if let Some(size) = row.size {
                    <div><dt>{ "Size" }</dt><dd>{ format!("{} bytes", grouped(size)) }</dd></div>
                }
                if let Some(loaded) = &row.loaded {
                    <div title="The text as Claude Code sends it: frontmatter and comments stripped, trimmed">
                        <dt>{ "As sent" }</dt><dd>{ format!("{} characters · {} bytes", grouped(loaded.utf16), grouped(loaded.bytes)) }</dd>
                    </div>
                }
                <div><dt>{ "Every session" }</dt><dd data-testid="file-session" data-counted={row.counted.to_string()}>{ session_sentence(report, row) }</dd></div>
                if let Some(paths) = &row.paths {
                    if !paths.is_empty() {
                        <div><dt>{ "Paths" }</dt><dd><code>{ paths.join(", ") }</code></dd></div>
                    }
                }
                if let Some(listing) = &row.skill_listing {
                    <div><dt>{ "Skill listing" }</dt><dd>{ if row.counted {
                        format!("{} characters in every session", grouped(listing.utf16))
                    } else {
                        format!("{} characters, not in every session", grouped(listing.utf16))
                    } }</dd></div>
                }
                if let Some(parent) = parent {
                    <div><dt>{ "From" }</dt><dd>{ parent }</dd></div>
                }
            </dl>
            if let Some(status) = status {
                <p class="status-line" data-testid="file-status">{ status }</p>
            }
        </header>
    }
}

/// Below an import that waits for approval: where the approval lives, and the way to add it.
fn approval_note(approval: ApprovalHint, on_add: &Callback<()>) -> Html {
    match approval {
        ApprovalHint::Nothing => Html::default(),
        ApprovalHint::AddClaudeJson => {
            let on_add = on_add.reform(|_: yew::MouseEvent| ());
            html! {
                <p class="approval-note" data-testid="approval-note" data-hint="add">
                    { "Claude Code keeps whether you approved them in ~/.claude.json, beside ~/.claude, which a dropped ~/.claude folder does not hold. " }
                    <button class="linkish" onclick={on_add} data-testid="approval-add-claude-json">{ "Add ~/.claude.json" }</button>
                    { " to see whether it loads: only hasClaudeMdExternalIncludesApproved for this project is read, and nothing leaves the page." }
                </p>
            }
        }
        ApprovalHint::NotApproved => html! {
            <p class="approval-note" data-testid="approval-note" data-hint="not-approved">
                { "Your ~/.claude.json does not approve external imports for this project, so Claude Code does not load it." }
            </p>
        },
    }
}

/// Whether every session carries the file, and how: its place in the instruction block and
/// the label Claude Code gives it, or the skill's listing line.
fn session_sentence(report: &Report, row: &FileRow) -> String {
    let files = &report.session.files;
    let sent = files
        .iter()
        .position(|f| report.files.get(f.row).map(|r| &r.path) == Some(&row.path));
    match sent {
        Some(at) => {
            let label = files[at]
                .label
                .map(|l| format!(", labelled{}", l.text()))
                .unwrap_or_default();
            format!("sent: file {} of {}{label}", at + 1, files.len())
        }
        None if matches!(row.group, Group::Skills | Group::Commands) && row.depth == 0 => {
            if row.counted {
                "listed: its name and description"
            } else {
                "not listed"
            }
            .to_owned()
        }
        None => "not sent".to_owned(),
    }
}

fn load_sentence(row: &FileRow) -> String {
    use memdiag_core::report::LoadType;
    let when = match row.load {
        LoadType::Always => "always: in every session",
        LoadType::Startup => "at startup, up to its caps",
        LoadType::Conditional => "conditionally: when Claude reads a file its paths match",
        LoadType::OnDemand => "on demand: only when Claude reads it",
        LoadType::Tree => "when Claude reads a file in its folder",
        LoadType::Import => "with the file that imports it",
        LoadType::Link => "never by itself: a link only points to it",
    };
    format!("{} {} · {when}", row.load.icon(), row.load.label())
}

fn truncation_figures(row: &FileRow, t: &Truncation) -> Html {
    let cut_by = match t.cut_by {
        Some(CutBy::Lines) => "Cut by the 200-line cap.",
        Some(CutBy::Size) => "Cut by the 25,000-unit size cap.",
        None => "Nothing is cut: all of it loads.",
    };
    let over_lines = t.total_lines > LINE_CAP;
    let over_size = t.total_utf16 > SIZE_CAP;
    html! {
        <div
            class={if t.cut_by.is_some() { "truncation cut" } else { "truncation" }}
            data-testid="truncation"
            data-loaded-lines={t.loaded_lines.to_string()}
            data-total-lines={t.total_lines.to_string()}
            data-loaded-utf16={t.loaded_utf16.to_string()}
            data-total-utf16={t.total_utf16.to_string()}
            data-first-dropped-line={t.first_dropped_line.map(|l| l.to_string())}
        >
            <p class="cut-by"><strong>{ cut_by }</strong></p>
            if let Some(warning) = &t.warning {
                <div class="cut-warning">
                    <p class="small muted">{ "Claude Code appends its own warning to what loads, word for word:" }</p>
                    <pre data-testid="cut-warning">{ warning.clone() }</pre>
                </div>
            }
            <table class="caps">
                <thead><tr><th><span class="visually-hidden">{ "measure" }</span></th><th>{ "loaded" }</th><th>{ "whole file" }</th><th>{ "cap" }</th></tr></thead>
                <tr class={if over_lines { "over" } else { "" }}>
                    <th scope="row">{ "Lines" }</th>
                    <td>{ grouped(t.loaded_lines) }</td><td>{ grouped(t.total_lines) }</td><td>{ grouped(LINE_CAP) }</td>
                </tr>
                <tr class={if over_size { "over" } else { "" }}>
                    <th scope="row">{ "Characters" }</th>
                    <td>{ grouped(t.loaded_utf16) }</td><td>{ grouped(t.total_utf16) }</td><td>{ grouped(SIZE_CAP) }</td>
                </tr>
            </table>
            if let Some(sent) = &row.loaded {
                <p class="small" data-testid="sent-figures" data-utf16={sent.utf16.to_string()}>
                    { format!(
                        "Sent{}: {} lines · {} characters · {} bytes (bytes have no cap).",
                        if t.warning.is_some() { ", the warning included" } else { "" },
                        grouped(sent.lines), grouped(sent.utf16), grouped(sent.bytes)
                    ) }
                </p>
            }
            <p class="muted small">{ "The size cap counts characters, not bytes: Korean, Japanese or Chinese text takes 3 bytes per character but counts 1." }</p>
        </div>
    }
}

fn references(report: &Report, row: &FileRow, on_open: &Callback<(String, Option<u64>)>) -> Html {
    html! {
        <details class="references" open=true>
            <summary>{ format!("References ({})", row.references.len()) }</summary>
            <ul data-testid="references">
                { for row.references.iter().map(|r| {
                    let kind = match r.kind { ReferenceKind::Import => "@ import", ReferenceKind::Link => "↗ link" };
                    let to_line = {
                        let on_open = on_open.clone();
                        let here = row.path.clone();
                        let line = r.line;
                        Callback::from(move |_| on_open.emit((here.clone(), Some(line))))
                    };
                    let shown = r.resolved.as_deref().map(|p| short_path(p, &report.context));
                    let target = match (&r.resolved, r.exists) {
                        (Some(resolved), true) => {
                            let on_open = on_open.clone();
                            let path = resolved.clone();
                            html! {
                                <button class="linkish" title={format!("Open {resolved}")} onclick={Callback::from(move |_| on_open.emit((path.clone(), None)))}>
                                    { format!("✓ {}", shown.clone().unwrap_or_default()) }
                                </button>
                            }
                        }
                        (Some(resolved), false) => {
                            // The row the reference made says why it did not resolve.
                            let outside = report.files.iter().any(|f| {
                                &f.path == resolved
                                    && matches!(
                                        f.unresolved_reason,
                                        Some(UnresolvedReason::OutsideSnapshot | UnresolvedReason::NotLookedAt)
                                    )
                            });
                            let why = if outside { "outside the dropped folders: cannot be checked" } else { "not found" };
                            html! { <span class="warn-text" title={resolved.clone()}>{ format!("⚠ {} ({why})", shown.clone().unwrap_or_default()) }</span> }
                        }
                        (None, _) => html! { <span class="warn-text">{ "⚠ cannot be resolved" }</span> },
                    };
                    html! {
                        <li data-exists={r.exists.to_string()}>
                            <span class="kind">{ kind }</span>
                            <code>{ r.target.clone() }</code>
                            <button class="linkish line" onclick={to_line}>{ format!("line {}", r.line) }</button>
                            <span class="arrow">{ "→" }</span>
                            { target }
                        </li>
                    }
                }) }
            </ul>
        </details>
    }
}

fn text_body(
    row: &FileRow,
    text: &FileText,
    tab: Tab,
    focus: Option<u64>,
    on_open: &Callback<(String, Option<u64>)>,
) -> Html {
    let (text, lossy) = match text {
        FileText::Text { text, lossy } => (text.clone(), *lossy),
        FileText::NotRead => {
            return html! { <p class="empty-text muted" data-testid="not-read">{ "This file was not read: the analysis did not need its text." }</p> };
        }
        FileText::Missing => {
            let why = if row.status == FileStatus::Unresolved {
                "This file does not exist in the dropped folders."
            } else if row.backfilled {
                "The snapshot does not hold this file: Claude Code writes it from the topic files' frontmatter, so there is no text to show yet."
            } else {
                "The snapshot does not hold this file."
            };
            return html! { <p class="empty-text muted" data-testid="missing">{ why }</p> };
        }
        FileText::Unreadable(message) => {
            return html! { <p class="empty-text error-text" data-testid="unreadable">{ format!("This file could not be read: {message}") }</p> };
        }
    };
    let note = lossy.then(|| html! {
        <p class="note" data-testid="lossy">{ "This file is not valid UTF-8: the invalid bytes show as �." }</p>
    });
    match tab {
        Tab::Preview => {
            // A link in the preview has no href; a click on one that the report resolved to
            // a file in the snapshot opens that file here instead.
            let onclick = {
                let on_open = on_open.clone();
                let references = row.references.clone();
                Callback::from(move |event: yew::MouseEvent| {
                    let Some(link) = event
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .and_then(|e| e.closest("a.md-link").ok().flatten())
                    else {
                        return;
                    };
                    let dest = link.get_attribute("title").unwrap_or_default();
                    let dest = dest.split('#').next().unwrap_or_default();
                    if let Some(target) = references.iter().find(|r| r.exists && r.target == dest) {
                        if let Some(resolved) = &target.resolved {
                            on_open.emit((resolved.clone(), None));
                        }
                    }
                })
            };
            html! {
                <div class="preview" onclick={onclick}>
                    { note.unwrap_or_default() }
                    <Markdown source={text} />
                </div>
            }
        }
        Tab::Raw => {
            let cut_at = row.truncation.as_ref().and_then(|t| t.first_dropped_line);
            let lines: Vec<&str> = text.lines().collect();
            let total = lines.len();
            let shown = total.min(MAX_LINES);
            let mut nodes = Vec::with_capacity(shown + 1);
            for (i, line) in lines.iter().take(shown).enumerate() {
                let number = i as u64 + 1;
                if cut_at == Some(number) {
                    nodes.push(cut_marker(number, total as u64));
                }
                let dropped = cut_at.is_some_and(|cut| number >= cut);
                let class = match (dropped, focus == Some(number)) {
                    (true, true) => "line dropped focus",
                    (true, false) => "line dropped",
                    (false, true) => "line focus",
                    (false, false) => "line",
                };
                nodes.push(html! {
                    <div class={class} data-line={number.to_string()} key={number}>
                        <span class="ln" aria-hidden="true">{ number }</span>
                        <span class="lt">{ *line }</span>
                    </div>
                });
            }
            html! {
                <>
                    { note.unwrap_or_default() }
                    <div class={if cut_at.is_some() { "raw has-cut" } else { "raw" }} data-testid="raw" data-lines={total.to_string()}
                        tabindex="0" role="region" aria-label="the file's text, line by line">
                        { for nodes }
                    </div>
                    if total > shown {
                        <p class="muted">{ format!("{} more lines not shown.", grouped((total - shown) as u64)) }</p>
                    }
                </>
            }
        }
    }
}

fn cut_marker(line: u64, total: u64) -> Html {
    let dropped = total + 1 - line;
    html! {
        <div class="cut-line" role="separator" data-testid="cut-line" data-line-cut={line.to_string()} key="cut">
            <span>{ format!("✂ Claude Code stops reading here: lines {line}–{total} ({dropped} lines) do not load") }</span>
        </div>
    }
}

fn group_summary(report: &Report, group: Option<Group>) -> Html {
    let Some(group) = group else {
        return html! { <p class="empty-text muted">{ "Select a file in the tree to see how it loads and what it holds." }</p> };
    };
    let about = match group {
        Group::ManagedPolicy => "The administrator's CLAUDE.md at a fixed system path. Sent in every session.",
        Group::User => "Your personal CLAUDE.md in the config directory. Sent in every session.",
        Group::Project => "CLAUDE.md and CLAUDE.local.md of the project and its parents (sent in every session) and of its subfolders (sent when Claude reads a file there).",
        Group::Rules => "Rules in .claude/rules/: sent in every session, or, with paths, only when Claude reads a file they match.",
        Group::AutoMemory => "The project's auto memory: MEMORY.md is sent in every session up to 200 lines and 25,000 characters; topic files are read on demand.",
        Group::Skills => "Skills: the name and description of each listed skill are in every session (a project subfolder's skills only once Claude reads a file there); the body loads when used.",
        Group::Commands => "Custom slash commands in .claude/commands/: each one's name and description are listed with the skills in every session, under the same budget; the body loads when used.",
        Group::AgentMemory => "Memory of sub-agents: each agent's MEMORY.md goes into that agent's own prompt when it is spawned, not into the main session; topic files on demand.",
    };
    let figures = report.footprint.groups.get(group.name());
    html! {
        <div class="group-summary" data-testid="group-summary">
            <h2>{ group.name() }</h2>
            <p>{ about }</p>
            if let Some(f) = figures {
                <p class="muted">{ format!("In every session: {} files · {} characters · {} bytes", f.files, grouped(f.utf16), grouped(f.bytes)) }</p>
            }
            <p class="muted small">{ format!("Size of every file of the group: {}", human_bytes(report.files.iter().filter(|r| r.group == group).filter_map(|r| r.size).fold(0, u64::saturating_add))) }</p>
        </div>
    }
}

/// A path as a person reads it: relative to the project, or `~/…` below home.
fn short_path(path: &str, context: &memdiag_core::report::Context) -> String {
    let under = |base: &str| {
        path.strip_prefix(base.trim_end_matches('/'))
            .and_then(|rest| rest.strip_prefix('/'))
            .map(str::to_owned)
    };
    if let Some(rest) = context.project.as_deref().and_then(under) {
        return rest;
    }
    if let Some(rest) = under(&context.home) {
        return format!("~/{rest}");
    }
    path.to_owned()
}

#[cfg(test)]
mod tests {
    use memdiag_core::{Entry, Tree};

    use super::{file_text, FileText};

    fn tree_with(path: &str, bytes: Option<Vec<u8>>) -> Tree {
        let size = bytes.as_ref().map_or(0, |b| b.len() as u64);
        Tree::from_entries(
            &["/p"],
            [Entry {
                path: path.to_owned(),
                size,
                bytes,
                modified: None,
            }],
        )
    }

    #[test]
    fn invalid_utf8_is_shown_with_replacement_characters() {
        let tree = tree_with("/p/CLAUDE.md", Some(b"ok \xff\xfe end".to_vec()));
        match file_text(&tree, "/p/CLAUDE.md") {
            FileText::Text { text, lossy } => {
                assert!(lossy);
                assert_eq!(text.as_str(), "ok \u{fffd}\u{fffd} end");
            }
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn unread_unreadable_and_missing_files_say_so() {
        let mut tree = tree_with("/p/CLAUDE.md", None);
        assert_eq!(file_text(&tree, "/p/CLAUDE.md"), FileText::NotRead);
        assert_eq!(file_text(&tree, "/p/other.md"), FileText::Missing);
        let path = memdiag_core::VPath::new("/p/CLAUDE.md").unwrap();
        tree.set_contents(&path, Err("too large".to_owned()));
        assert_eq!(
            file_text(&tree, "/p/CLAUDE.md"),
            FileText::Unreadable("too large".to_owned())
        );
    }
}
