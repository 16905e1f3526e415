//! What the page says about itself: the status line under the fields, the banner over a
//! shared snapshot, and the empty page.

use yew::prelude::*;

use crate::page::components::picker::{choices, Choice};
use crate::page::share;
use crate::page::state::{grouped, human_bytes, Action, SharedFrom, State};
use crate::Page;

/// What a first visit, or a `~/.claude` without its project, needs to hear: the demo is
/// sample data and how to open one's own; which projects have memory folders, one click
/// from being picked, and that the project folder can be added.
pub fn guidance(page: &Page) -> Html {
    let state = &page.state;
    if state.read_only() || state.status.busy.is_some() {
        return Html::default();
    }
    if state.is_demo() {
        return html! {
            <section class="guidance demo-note" aria-label="About the demo" data-testid="demo-banner">
                <p>
                    <span class="badge demo">{ "demo" }</span>
                    <strong>{ " This is sample data: " }</strong>
                    { "a made-up ~/.claude and project (alice's shop), so you can see what the page shows. Nothing of yours is loaded." }
                </p>
                <p class="small">
                    { "To see your own: press Choose folder and pick your ~/.claude (it is hidden: press ⌘⇧. on macOS or Ctrl+H on Linux in the folder dialog), then add your project folder the same way, or drop both on the page. For a large ~/.claude a zip is faster: " }
                    <code>{ "cd ~ && zip -r claude.zip .claude -x '.claude/projects/*/*.jsonl'" }</code>
                    { ", then Open zip." }
                </p>
            </section>
        };
    }
    let Some(report) = state.loaded.report.as_ref() else {
        return Html::default();
    };
    let roles: Vec<&str> = state.sources.infos.iter().map(|s| s.role).collect();
    let config_only = roles.contains(&"config") && !roles.contains(&"project");
    if !config_only {
        return Html::default();
    }
    let project = state.sources.inputs.project.trim();
    if !project.is_empty() {
        // A project picked (or typed) without its folder: said for as long as it lasts.
        return html! {
            <section class="guidance projects" aria-label="The project folder is not added" data-testid="project-missing">
                <p>
                    <strong>{ "The project folder is not added. " }</strong>
                    { format!("{project} is worked out from your ~/.claude alone: its auto memory is read, but the project's own CLAUDE.md files, rules, skills and settings are left out. Drop the project folder on the page (or Choose folder) to add them.") }
                </p>
            </section>
        };
    }
    let list: Vec<Choice> = choices(&report.memory_folders, None, "");
    let engine = page.engine.clone();
    let inputs = state.sources.inputs.clone();
    let scanned_at = state.status.scanned_at;
    html! {
        <section class="guidance projects" aria-label="Pick a project" data-testid="project-guidance">
            <p>
                <strong>{ "Your ~/.claude is in. " }</strong>
                { "Claude Code also loads each project's own CLAUDE.md, rules and auto memory: drop the project folder on the page (or Choose folder again), or pick one of the projects that have a memory folder here." }
            </p>
            if list.is_empty() {
                <p class="muted" data-testid="project-guidance-none">{ "This ~/.claude holds no project memory folder." }</p>
            } else {
                <ul class="project-list">
                    { for list.into_iter().map(|choice| {
                        let engine = engine.clone();
                        let mut picked = inputs.clone();
                        picked.project = choice.path.clone();
                        html! {
                            <li key={choice.path.clone()}>
                                <button class="linkish" data-testid="guidance-project" data-path={choice.path.clone()}
                                    onclick={Callback::from(move |_: MouseEvent| engine.switch_project(picked.clone(), scanned_at))}>
                                    { choice.title.clone() }
                                </button>
                                <span class="muted small">{ format!(" {}", choice.detail) }</span>
                            </li>
                        }
                    }) }
                </ul>
            }
        </section>
    }
}

/// The banner at the top of the main view when the page did not take what it was given:
/// what was found, what was expected, that what is shown stays, and the choice.
pub fn input_banner(page: &Page) -> Html {
    let Some(refusal) = page.state.status.refusal.clone() else {
        return Html::default();
    };
    let shown = page.state.loaded.report.is_some();
    let dismiss = {
        let engine = page.engine.clone();
        Callback::from(move |_: MouseEvent| engine.dismiss_pending())
    };
    let take = {
        let engine = page.engine.clone();
        let inputs = page.state.sources.inputs.clone();
        Callback::from(move |_: MouseEvent| engine.take_pending(inputs.clone()))
    };
    html! {
        <section class="input-banner" role="alert" aria-labelledby="input-banner-title" data-testid="input-banner"
            data-can-take={refusal.can_take.to_string()}>
            <div class="input-banner-text">
                <p id="input-banner-title" class="input-banner-title"><strong>{ "That is not what the page reads." }</strong></p>
                <p data-testid="input-banner-found"><strong>{ "Found: " }</strong>{ refusal.found.clone() }</p>
                <p data-testid="input-banner-expected"><strong>{ "Expected: " }</strong>{ refusal.expected.clone() }</p>
                <p class="small muted">
                    if shown {
                        { "What was shown before stays until you choose." }
                    } else {
                        { "Nothing was loaded." }
                    }
                </p>
            </div>
            <div class="input-banner-actions">
                if refusal.can_take {
                    <button class="primary" data-testid="banner-take" onclick={take}
                        title="Analyse the folder as the project: Claude Code would find nothing of its own in it">
                        { "Use it as the project anyway" }
                    </button>
                }
                <button data-testid="banner-dismiss" onclick={dismiss}>
                    { if shown { "Keep what is shown" } else { "Dismiss" } }
                </button>
            </div>
        </section>
    }
}

/// The one-line status under the fields; it keeps its height so nothing jumps.
pub fn status_line(page: &Page) -> Html {
    let state = &page.state;
    let dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| {
            d.dispatch(Action::Error(None));
            d.dispatch(Action::Notice(None));
        })
    };
    let status = &state.status;
    let content = if let Some(p) = status.busy {
        html! {
            <span class="busy" data-testid="progress" data-entries={p.entries.to_string()}
                data-files-read={p.files_read.to_string()} data-bytes-read={p.bytes_read.to_string()}
                data-files-to-go={p.files_to_go.to_string()}>
                <span class="spinner" aria-hidden="true"></span>
                { format!("Working… {} files listed · {} read ({})", grouped(p.entries), grouped(p.files_read), human_bytes(p.bytes_read)) }
                if p.files_to_go > 0 {
                    { format!(" · {} to go", grouped(p.files_to_go)) }
                }
            </span>
        }
    } else if let Some(error) = &status.error {
        html! {
            <span class="error-text" data-testid="error" role="alert">
                { error.clone() }{ " " }
                <button class="linkish" onclick={dismiss}>{ "Dismiss" }</button>
            </span>
        }
    } else if let Some(notice) = &status.notice {
        html! {
            <span class="notice" data-testid="notice">
                { notice.clone() }{ " " }
                <button class="linkish" onclick={dismiss}>{ "Dismiss" }</button>
            </span>
        }
    } else if let Some(report) = &state.loaded.report {
        let project = report
            .context
            .project
            .clone()
            .unwrap_or_else(|| "no project".to_owned());
        // `memory_dir` names the folder Claude Code would use even when there is none yet;
        // `memory_found_via` says whether it was found.
        let found =
            report.context.memory_dir.is_some() && report.context.memory_found_via.is_some();
        let memory = match found {
            true => "auto memory found".to_owned(),
            false if report.context.project.is_some() => {
                "no auto memory folder for this project".to_owned()
            }
            false => "pick a project to see its auto memory".to_owned(),
        };
        let version = report.context.version.as_str();
        html! {
            <span class="summary" data-testid="summary">
                if state.is_demo() { <span class="badge demo">{ "demo" }</span>{ " " } }
                if state.read_only() { <span class="badge shared">{ "shared" }</span>{ " " } }
                if !version.is_empty() && version != "current" {
                    <span class="badge warn" data-testid="simulated-version">{ format!("simulating Claude Code {version}") }</span>{ " " }
                }
                <span data-testid="status-files" data-listed={report.files.len().to_string()}
                    data-sent={report.footprint.files.to_string()}>
                    { format!("{} files listed ({} sent in every session)", grouped(report.files.len() as u64), grouped(report.footprint.files)) }
                </span>
                { format!(" from {} · {project} · {memory}", sources_text(state)) }
                if state.sources.claude_json.is_some() && !state.read_only() {
                    <span data-testid="status-claude-json">{ format!(" · {} in use (its import approval only)", state.sources.inputs.claude_json_place()) }</span>
                }
            </span>
        }
    } else {
        html! { <span class="muted">{ "Drop a folder or a zip anywhere on this page." }</span> }
    };
    html! { <div class="statusbar" aria-live="polite" data-testid="status">{ content }</div> }
}

fn sources_text(state: &State) -> String {
    if state.sources.infos.is_empty() {
        return "nothing".to_owned();
    }
    state
        .sources
        .infos
        .iter()
        .map(|s| s.label.clone())
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The banner over a shared snapshot: what it is, when it was made, and the way out.
pub fn shared_banner(page: &Page) -> Html {
    let Some(view) = page.state.sources.shared.clone() else {
        return Html::default();
    };
    let start_fresh = {
        let engine = page.engine.clone();
        Callback::from(move |_: MouseEvent| engine.start_fresh(true))
    };
    let from = match &view.from {
        SharedFrom::Link => "from a link".to_owned(),
        SharedFrom::File(name) => format!("from the file {name}"),
    };
    html! {
        <section class="shared-banner" role="region" aria-label="Shared snapshot" data-testid="shared-banner"
            data-made={view.made.clone()} data-format={view.format.to_string()}
            data-text-kept={view.text_kept.to_string()}>
            <div class="shared-banner-text">
                <p class="shared-banner-title">
                    <span class="badge shared">{ "read-only" }</span>
                    <strong>{ " A shared, sanitized snapshot" }</strong>
                    { format!(", made {} and opened {from}.", share::made_label(&view.made)) }
                </p>
                <p class="small">
                    if view.text_kept {
                        { "Its files were copied for sharing, and the sender chose to keep their text: you are reading their own words. Names may be replaced. " }
                    } else {
                        { "Its files were copied for sharing: file text shows as placeholders of the same length (x for a letter, 0 for a digit), and names may be replaced. " }
                    }
                    { "Every figure, cut and finding is as the sender's page showed it. Nothing here can be added to or edited, except the version select." }
                </p>
            </div>
            <button class="primary" onclick={start_fresh} data-testid="start-fresh"
                title="Leave this snapshot and open your own files">{ "Start fresh" }</button>
        </section>
    }
}

/// What a shared view shows before its report is there, or when it cannot be analysed.
pub fn shared_waiting(page: &Page) -> Html {
    let busy = page.state.status.busy.is_some();
    html! {
        <main class="empty-state shared-waiting" data-testid="shared-waiting">
            <p class="muted">
                if busy {
                    <span class="spinner" aria-hidden="true"></span>{ " Opening the shared snapshot…" }
                } else {
                    { "The shared snapshot could not be analysed. Press Start fresh to open your own files." }
                }
            </p>
        </main>
    }
}

/// The page with nothing loaded.
pub fn empty_state(page: &Page) -> Html {
    let busy = page.state.status.busy.is_some();
    html! {
        // The page's one main landmark while nothing is loaded; the workspace is it otherwise.
        <main class={classes!("empty-state", busy.then_some("busy"))} data-testid="empty-state">
            <div class="drop-zone">
                <h2>{ "Drop your ~/.claude folder here" }</h2>
                <p>{ "…and, if you like, a project folder beside it. Or use the buttons above: Choose folder, Open zip, or Try the demo." }</p>
                <p class="muted">{ "On macOS and Linux, ~/.claude is hidden: in the folder dialog press ⌘⇧. (macOS) or Ctrl+H (Linux) to show it." }</p>
                <p class="muted">{ "Nothing is uploaded: the page reads the files in this tab, and only the Markdown and settings files it needs." }</p>
                <p class="muted">{ "Imports that leave a project load only once you approved them, which Claude Code keeps in ~/.claude.json beside ~/.claude: add it with Add ~/.claude.json above, and only that approval is read." }</p>
            </div>
        </main>
    }
}
