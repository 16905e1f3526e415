//! The Reads view: what a Read of one of the project's files attaches.
//!
//! When Claude reads a file, Claude Code sends along the `CLAUDE.md` files of the folders
//! between the project and that file, the rules whose `paths:` match it (with their
//! imports), and announces the skills of `.claude/skills` folders on the way. The person
//! picks a file of the dropped project from a searchable list, or types a path; the page
//! asks the analysis again with [`crate::page::state::Inputs::reads`] set, and draws the core's
//! answer ([`memdiag_core::report::ReadAnswer`]): nothing here decides what attaches.

use std::rc::Rc;

use memdiag_core::report::{ReadAnswer, Report};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::page::components::footprint::{share_of, units_tokens, window_shares, WINDOW_200K};
use crate::page::decimal::fixed;
use crate::page::state::{grouped, Shared};

/// How many of the project's files the list shows at once; the filter narrows the rest.
pub const LISTED: usize = 200;

/// Props of [`ReadsView`].
#[derive(Properties, PartialEq)]
pub struct ReadsProps {
    /// The report, whose `reads` holds the answer.
    pub report: Shared<Report>,
    /// Every listed file below the project, absolute and sorted.
    pub files: Rc<Vec<String>>,
    /// The project field; empty for none.
    pub project: String,
    /// The path last asked about, as asked.
    #[prop_or_default]
    pub asked: Option<String>,
    /// True while a run is under way: the answer shown may be the previous one.
    #[prop_or_default]
    pub busy: bool,
    /// True for a shared snapshot, which cannot be asked.
    #[prop_or_default]
    pub read_only: bool,
    /// Asks what a Read of this path attaches.
    pub on_ask: Callback<String>,
    /// Opens an attached file in the tree.
    #[prop_or_default]
    pub on_open: Callback<(String, Option<u64>)>,
}

/// The Reads view.
#[component]
pub fn ReadsView(props: &ReadsProps) -> Html {
    let filter = use_state(String::new);
    let typed = use_state(|| props.asked.clone().unwrap_or_default());
    let intro = html! {
        <p class="muted small">
            { "When Claude reads a file, Claude Code attaches the CLAUDE.md files of the folders between the project and that file, the rules whose paths match it (with their imports), and announces the skills of the .claude/skills folders on the way. None of it is in every session: it arrives with that read." }
        </p>
    };
    let heading = html! { <h2 id="reads-title" class="reads-title">{ "What loads when Claude reads a file" }</h2> };
    if props.read_only {
        return html! {
            <section class="reads-view" aria-labelledby="reads-title" data-testid="reads-view">
                { heading }{ intro }
                <p class="reads-none" data-testid="reads-none" data-why="shared">
                    { "A shared snapshot holds only the files its report lists, so what a read of another file attaches cannot be worked out here. Open the project itself to ask." }
                </p>
            </section>
        };
    }
    if props.project.trim().is_empty() {
        return html! {
            <section class="reads-view" aria-labelledby="reads-title" data-testid="reads-view">
                { heading }{ intro }
                <p class="reads-none" data-testid="reads-none" data-why="no-project">
                    { "No project is set, and a read attaches files from the project it happens in. Drop the project folder on the page (or Choose folder), or pick a project (Shift+P), then ask here." }
                </p>
            </section>
        };
    }

    let on_submit = {
        let typed = typed.clone();
        let on_ask = props.on_ask.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let path = typed.trim().to_owned();
            if !path.is_empty() {
                on_ask.emit(path);
            }
        })
    };
    let on_typed = {
        let typed = typed.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            typed.set(input.value());
        })
    };
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            filter.set(input.value());
        })
    };
    let needle = crate::page::state::lowercase(filter.trim());
    let project = props.project.trim().trim_end_matches('/');
    let relative = |path: &str| -> String {
        path.strip_prefix(project)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(path)
            .to_owned()
    };
    let matching: Vec<&String> = props
        .files
        .iter()
        .filter(|path| {
            needle.is_empty() || crate::page::state::lowercase(&relative(path)).contains(&needle)
        })
        .collect();
    let answer = props.report.reads.first();
    let list = if props.files.is_empty() {
        html! {
            <p class="muted small" data-testid="reads-no-files">
                { "The project folder is not among the sources, so there is no list of its files to pick from: type a path above. Without the project's files only the rules and skills of your ~/.claude can attach." }
            </p>
        }
    } else {
        let shown = matching.len().min(LISTED);
        html! {
            <>
                <div class="reads-filter">
                    <label for="reads-filter">{ "Find a file of the project" }</label>
                    <input id="reads-filter" type="search" data-testid="reads-filter" value={(*filter).clone()}
                        placeholder="part of a path, e.g. src/api" oninput={on_filter} autocomplete="off" />
                    <span class="muted small" data-testid="reads-count" data-matching={matching.len().to_string()}>
                        { if matching.len() > shown {
                            format!("{} of {} files match; the first {shown} show, type more to narrow", grouped(matching.len() as u64), grouped(props.files.len() as u64))
                        } else {
                            format!("{} of {} files", grouped(matching.len() as u64), grouped(props.files.len() as u64))
                        } }
                    </span>
                </div>
                if matching.is_empty() {
                    <p class="empty-text" data-testid="reads-no-match">{ format!("No file of the project has “{}” in its path.", filter.trim()) }</p>
                } else {
                    <ul class="read-files" data-testid="reads-files" aria-label="Files of the project">
                        { for matching.iter().take(shown).map(|path| {
                            let on_ask = props.on_ask.clone();
                            let typed = typed.clone();
                            let asked = answer.is_some_and(|a| &a.path == *path);
                            let emit = (*path).clone();
                            html! {
                                <li key={(*path).clone()}>
                                    <button class={classes!("linkish", "read-file", asked.then_some("asked"))}
                                        data-testid="read-file" data-path={(*path).clone()}
                                        aria-pressed={asked.to_string()}
                                        onclick={Callback::from(move |_: MouseEvent| {
                                            // The path field shows the file chosen, as if typed.
                                            typed.set(emit.clone());
                                            on_ask.emit(emit.clone())
                                        })}>
                                        { relative(path) }
                                    </button>
                                </li>
                            }
                        }) }
                    </ul>
                }
            </>
        }
    };

    html! {
        <section class="reads-view" aria-labelledby="reads-title" data-testid="reads-view">
            { heading }{ intro }
            <form class="reads-ask" onsubmit={on_submit} data-testid="reads-form">
                <label for="reads-path">{ "Path of a file (absolute, or relative to the project)" }</label>
                <div class="reads-ask-row">
                    <input id="reads-path" type="text" data-testid="reads-path" value={(*typed).clone()}
                        placeholder={format!("{project}/src/main.ts")} oninput={on_typed} autocomplete="off" spellcheck="false" />
                    <button type="submit" data-testid="reads-ask" disabled={typed.trim().is_empty()}>{ "Show what a read attaches" }</button>
                </div>
            </form>
            <div class="read-answer-slot" aria-live="polite">
                { answer_view(answer, &props.report, project, props.asked.as_deref(), props.busy, &props.on_open) }
            </div>
            { list }
        </section>
    }
}

/// The core's answer for the path asked, with its figures.
fn answer_view(
    answer: Option<&ReadAnswer>,
    report: &Report,
    project: &str,
    asked: Option<&str>,
    busy: bool,
    on_open: &Callback<(String, Option<u64>)>,
) -> Html {
    if busy && asked.is_some() {
        return html! {
            <p class="muted" data-testid="read-pending">
                <span class="spinner" aria-hidden="true"></span>{ format!(" Working out what a read of {} attaches…", asked.unwrap_or_default()) }
            </p>
        };
    }
    let Some(answer) = answer else {
        return html! {
            <p class="muted small" data-testid="read-prompt">{ "Pick a file below or type a path to see what a read of it attaches." }</p>
        };
    };
    if let Some(note) = &answer.note {
        return html! {
            <section class="read-answer" data-testid="read-answer" data-path={answer.path.clone()}
                data-files="0" data-skills="0" data-total="0">
                <h3>{ format!("A read of {}", answer.path) }</h3>
                <p class="reads-none" data-testid="read-note">{ note.clone() }</p>
            </section>
        };
    }
    let cost = answer.cost;
    let total = cost.total();
    let tokens = units_tokens(total);
    let nothing = answer.files.is_empty() && answer.skills.is_empty();
    html! {
        <section class="read-answer" data-testid="read-answer" data-path={answer.path.clone()}
            data-files={answer.files.len().to_string()} data-skills={answer.skills.len().to_string()}
            data-user={cost.user.to_string()} data-claude-code={cost.claude_code.to_string()}
            data-total={total.to_string()} data-tokens={tokens.to_string()}
            data-share={fixed(share_of(tokens, WINDOW_200K), 2)}>
            <h3>{ format!("A read of {}", answer.path) }</h3>
            if nothing {
                <p data-testid="read-nothing">{ "attaches nothing: no CLAUDE.md in the folders between the project and this file, no rule whose paths match it, no skill folder on the way." }</p>
            } else {
                <p class="read-figures" data-testid="read-figures">
                    { format!("attaches {} and announces {}: ", plural(answer.files.len(), "file"), plural(answer.skills.len(), "skill")) }
                    <strong>{ format!("{} characters", grouped(total)) }</strong>
                    { format!(" ({} of your text + {} of Claude Code's own), ", grouped(cost.user), grouped(cost.claude_code)) }
                    <span title="Characters divided by 4: a rough estimate, not a tokenizer's count">
                        { format!("≈ {} tokens, {} (estimate)", grouped(tokens), window_shares(tokens)) }
                    </span>
                    { ". Only with this read, never in every session." }
                </p>
            }
            if !answer.files.is_empty() {
                <ol class="read-attached" aria-label="Files attached, in the order Claude Code sends them">
                    { for answer.files.iter().map(|file| {
                        let row = report.files.get(file.row);
                        let on_open = on_open.clone();
                        let path = file.path.clone();
                        html! {
                            <li data-testid="read-attached" data-path={file.path.clone()} data-utf16={file.loaded.utf16.to_string()}>
                                if let Some(row) = row {
                                    <span class="icon" aria-hidden="true">{ format!("{} ", row.load.icon()) }</span>
                                    <span class="read-kind muted small">{ format!("{} ", row.load.label()) }</span>
                                }
                                // A rule says which of its globs brought it.
                                if let Some(globs) = row.and_then(|r| r.paths.as_ref()).filter(|g| !g.is_empty()) {
                                    <span class="muted small" data-testid="read-glob">{ format!("(paths: {}) ", globs.join(", ")) }</span>
                                }
                                <button class="linkish read-open" title={format!("Open {} in the tree", file.path)}
                                    onclick={Callback::from(move |_: MouseEvent| on_open.emit((path.clone(), None)))}>
                                    { shown_path(&file.path, project) }
                                </button>
                                <span class="size muted">{ format!(" {} characters", grouped(file.loaded.utf16)) }</span>
                            </li>
                        }
                    }) }
                </ol>
            }
            if !answer.skills.is_empty() {
                <ul class="read-skills" aria-label="Skills announced">
                    { for answer.skills.iter().map(|skill| html! {
                        <li data-testid="read-skill">{ skill.clone() }</li>
                    }) }
                </ul>
            }
        </section>
    }
}

/// A path below the project relative to it, any other path as it is.
fn shown_path(path: &str, project: &str) -> String {
    path.strip_prefix(project)
        .and_then(|rest| rest.strip_prefix('/'))
        .map_or_else(|| path.to_owned(), str::to_owned)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", grouped(n as u64))
    }
}
