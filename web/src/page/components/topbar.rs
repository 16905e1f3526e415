//! The page's title and its source buttons: choose a folder, open a zip, the demo, Refresh,
//! Download and Share, and the optional `~/.claude.json` under them. A shared snapshot shows
//! only Download.

use web_sys::{HtmlElement, HtmlInputElement};
use yew::prelude::*;

use crate::page::browser;
use crate::page::runs::Engine;
use crate::page::state::{human_bytes, Action, ClaudeJsonInfo, Inputs};
use crate::Page;

/// The header.
#[component]
pub fn TopBar() -> Html {
    let page = use_context::<Page>().expect("the top bar is inside the page");
    let folder_input = use_node_ref();
    let zip_input = use_node_ref();
    let claude_json_input = use_node_ref();
    // The live folders opened last time (Chromium): their handles, kept in this browser,
    // and their names for the offer to reopen them.
    let kept = use_state(|| None::<(js_sys::Array, Vec<String>)>);
    {
        let kept = kept.clone();
        use_effect_with((), move |_| {
            yew::platform::spawn_local(async move {
                let found = Engine::kept_folders().await;
                if !found.1.is_empty() {
                    kept.set(Some(found));
                }
            });
        });
    }
    let state = &page.state;
    let engine = &page.engine;
    let has_report = state.loaded.report.is_some();

    let on_download = {
        let report = state.loaded.report.clone();
        let job = state.loaded.job;
        let dispatch = state.dispatcher();
        let engine = engine.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(report) = report.clone() else { return };
            let (engine, dispatch) = (engine.clone(), dispatch.clone());
            yew::platform::spawn_local(async move {
                if let Err(e) = browser::download_report(&report, engine.remote(job).as_ref()).await
                {
                    dispatch.dispatch(Action::Error(Some(format!(
                        "Could not save the report: {}",
                        browser::js_message(&e)
                    ))));
                }
            });
        })
    };
    let brand = html! {
        <div class="brand">
            <h1>{ "Claude Code Memory Diagnoser" }</h1>
            <p class="tagline">{ "What Claude Code loads from your ~/.claude and your project, what a MEMORY.md loses to its caps, and what it all costs. Everything stays in this browser tab." }</p>
        </div>
    };
    if state.read_only() {
        return html! {
            <header class="topbar">
                { brand }
                <nav class="actions" aria-label="Shared snapshot">
                    <button onclick={on_download} disabled={!has_report} data-testid="download">{ "Download JSON" }</button>
                    { load_legend(&page) }
                </nav>
            </header>
        };
    }

    let click = |node: &NodeRef| {
        let node = node.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = node.cast::<HtmlElement>() {
                input.click();
            }
        })
    };
    let on_folder_chosen = {
        let engine = engine.clone();
        let current = state.sources.inputs.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(list) = input.files() else { return };
            // The list is copied and the input cleared after the page shows it is busy.
            engine.add_folder(input, list, current.clone());
        })
    };
    let on_zip_chosen = {
        let engine = engine.clone();
        let current = state.sources.inputs.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            input.set_value("");
            engine.add_zip(file, current.clone());
        })
    };
    let on_claude_json_chosen = {
        let engine = engine.clone();
        let state_dispatch = state.dispatcher();
        let inputs = state.sources.inputs.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            // Clearing the value lets the same file be chosen again after a change.
            input.set_value("");
            state_dispatch.dispatch(Action::Notice(None));
            engine.set_claude_json(Some(file), inputs.clone());
        })
    };
    let remove_claude_json = {
        let engine = engine.clone();
        let inputs = state.sources.inputs.clone();
        Callback::from(move |_: MouseEvent| engine.set_claude_json(None, inputs.clone()))
    };
    let on_demo = {
        let engine = engine.clone();
        let state_dispatch = state.dispatcher();
        let version = state.sources.inputs.version.clone();
        // The person's own report is not replaced by accident: the demo asks first.
        let own = !state.is_demo() && !state.read_only() && state.loaded.report.is_some();
        Callback::from(move |_: MouseEvent| {
            let asked = "Replace your report with the demo? Your folders stay on your disk; to see them again you add them again.";
            if own && !browser::confirm(asked) {
                return;
            }
            if !engine.load_demo(version.clone()) {
                state_dispatch.dispatch(Action::Error(Some(
                    "This build has no demo snapshot.".to_owned(),
                )));
            }
        })
    };
    let on_refresh = {
        let engine = engine.clone();
        let inputs = state.sources.inputs.clone();
        let scanned_at = state.status.scanned_at;
        Callback::from(move |_: MouseEvent| engine.refresh(inputs.clone(), scanned_at))
    };
    let on_share = state
        .dispatcher()
        .to_callback()
        .reform(|_: MouseEvent| Action::SetShare(Some(browser::now_iso())));
    let loaded = &state.loaded;
    let can_share = loaded.report.is_some() && loaded.tree.is_some() && loaded.input.is_some();
    let has_sources = !state.sources.infos.is_empty();
    // Sources from the folder button (or a browser with no folder handles) cannot be read
    // again: Refresh says so rather than pretend.
    let rereadable = state.sources.infos.iter().any(|s| s.rereadable);
    let can_refresh = has_sources && rereadable;
    let refresh_title = if !has_sources {
        "Nothing to read again yet".to_owned()
    } else if !rereadable {
        "These sources came from the folder button or a browser that gives no folder handle, so the page cannot read them again: drop them again (or choose them again) to see your changes".to_owned()
    } else {
        "Read the sources again (r)".to_owned()
    };

    html! {
        <header class="topbar">
            { brand }
            <div class="source-controls">
                <nav class="actions" aria-label="Sources">
                    <button class="primary" onclick={engine.choose_folder(click(&folder_input), state.sources.inputs.clone())} data-testid="choose-folder" title={if crate::page::browser::framed() { crate::page::browser::FRAMED_NOTE } else { Engine::choose_folder_title() }}>{ "Choose folder" }</button>
                    <button onclick={click(&zip_input)} data-testid="open-zip">{ "Open zip" }</button>
                    <button onclick={on_demo} data-testid="try-demo">{ "Try the demo" }</button>
                    <span class="sep" aria-hidden="true"></span>
                    <span class="refresh-wrap" title={refresh_title.clone()}>
                        <button onclick={on_refresh} disabled={!can_refresh} title={refresh_title} data-testid="refresh"
                            data-rereadable={rereadable.to_string()}>
                            { "Refresh" }<kbd>{ "r" }</kbd>
                        </button>
                    </span>
                    // It says what it holds; the sanitized copy is the Share dialog's download.
                    <button onclick={on_download} disabled={!has_report} data-testid="download"
                        title="The report as JSON: it holds your folder and file names and your files' text. For the sanitized report, use Share… and its Download sanitized report">
                        { "Download JSON (your names & text)" }
                    </button>
                    <button onclick={on_share} disabled={!can_share} aria-haspopup="dialog"
                        title="Share a sanitized, read-only copy of this report as a link or a file" data-testid="share">
                        { "Share…" }
                    </button>
                    { load_legend(&page) }
                    <input ref={folder_input.clone()} type="file" class="hidden-input" tabindex="-1" webkitdirectory=true multiple=true
                        data-testid="folder-input" aria-label="Choose a folder" onchange={on_folder_chosen} />
                    <input ref={zip_input.clone()} type="file" class="hidden-input" tabindex="-1" accept=".zip,application/zip"
                        data-testid="zip-input" aria-label="Open a zip" onchange={on_zip_chosen} />
                    <input ref={claude_json_input.clone()} type="file" class="hidden-input" tabindex="-1" accept=".json,application/json"
                        data-testid="claude-json-input" aria-label="Add ~/.claude.json" onchange={on_claude_json_chosen} />
                </nav>
                { claude_json_line(state.sources.claude_json.as_ref(), &state.sources.inputs, click(&claude_json_input), remove_claude_json) }
                if let Some((handles, names)) = kept.as_ref().filter(|_| !state.sources.infos.iter().any(|s| s.kind == "live folder")) {
                    { reopen_line(names, {
                        let (kept, engine, inputs, handles) = (kept.clone(), engine.clone(), state.sources.inputs.clone(), handles.clone());
                        Callback::from(move |_: MouseEvent| {
                            let (kept, engine, inputs, handles) = (kept.clone(), engine.clone(), inputs.clone(), handles.clone());
                            yew::platform::spawn_local(async move {
                                if engine.reopen(&handles, inputs).await {
                                    kept.set(None);
                                }
                            });
                        })
                    }, {
                        let kept = kept.clone();
                        Callback::from(move |_: MouseEvent| {
                            Engine::forget_folders();
                            kept.set(None);
                        })
                    }) }
                }
            </div>
        </header>
    }
}

/// The seven load-type icons and what each means, one click away in every view: a button
/// in the header (the Icons button) that opens them in a dialog. A plain function, not a
/// component: each component costs the page's wasm its own copy of Yew's lifecycle code.
pub fn load_legend(page: &Page) -> Html {
    let open = page.state.dialogs.legend;
    let toggle = page
        .state
        .dispatcher()
        .to_callback()
        .reform(move |_: MouseEvent| Action::SetLegend(!open));
    let close = page
        .state
        .dispatcher()
        .to_callback()
        .reform(|_: ()| Action::SetLegend(false));
    html! {
        <span class="load-legend" data-testid="load-legend" data-open={open.to_string()}>
            <button class="legend-open" data-testid="legend-open" aria-haspopup="dialog" aria-expanded={open.to_string()}
                title="What the icons in the tree mean" onclick={toggle}>{ "Icons" }</button>
            if open {
                <LegendDialog on_close={close} />
            }
        </span>
    }
}

/// Props of [`LegendDialog`].
#[derive(Properties, PartialEq)]
pub struct LegendDialogProps {
    /// Closes the legend.
    pub on_close: Callback<()>,
}

/// The legend of the seven load types, a modal dialog: focus on its Close button, Tab stays
/// inside, Escape or a click beside it closes it.
#[component]
pub fn LegendDialog(props: &LegendDialogProps) -> Html {
    use memdiag_core::report::LoadType;
    let dialog = crate::page::components::dialog::use_dialog(props.on_close.clone());
    let meaning = |load: LoadType| match load {
        LoadType::Always => "in every session",
        LoadType::Startup => "at session start, up to its caps (MEMORY.md)",
        LoadType::Conditional => "when Claude reads a file its paths match",
        LoadType::OnDemand => "only when Claude reads it (topic files, skill bodies)",
        LoadType::Tree => "when Claude reads a file in its folder (nested CLAUDE.md)",
        LoadType::Import => "with the file that imports it",
        LoadType::Link => "never by itself: a link only points to it",
    };
    let loads = [
        LoadType::Always,
        LoadType::Startup,
        LoadType::Conditional,
        LoadType::OnDemand,
        LoadType::Tree,
        LoadType::Import,
        LoadType::Link,
    ];
    let on_backdrop = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let on_close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    html! {
        <div class="modal-backdrop" onclick={on_backdrop}>
            <div class="modal legend-dialog" role="dialog" aria-modal="true" aria-labelledby="legend-title"
                data-testid="legend-dialog" ref={dialog.node.clone()} onkeydown={dialog.onkeydown.clone()}
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2 id="legend-title">{ "What the icons mean" }</h2>
                <p class="muted small">{ "Each row of the tree says when Claude Code loads its file. Only the first loads in every session." }</p>
                <dl>
                    { for loads.iter().map(|&load| html! {
                        <div data-testid="legend-load" data-load={load.label()}>
                            <dt><span class="icon" aria-hidden="true">{ load.icon() }</span>{ format!(" {}", load.label()) }</dt>
                            <dd>{ meaning(load) }</dd>
                        </div>
                    }) }
                </dl>
                <div class="modal-actions">
                    <button data-testid="legend-close" autofocus=true onclick={on_close}>{ "Close" }</button>
                </div>
            </div>
        </div>
    }
}

/// Opens the file dialog for `~/.claude.json`, as the file view's approval hint asks.
pub fn choose_claude_json() {
    let input = browser::document()
        .query_selector("[data-testid=claude-json-input]")
        .ok()
        .flatten();
    if let Some(input) = input.and_then(|e| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(e).ok()) {
        input.click();
    }
}

/// The optional `~/.claude.json` under the source buttons: a button to add it and what is read
/// of it, or, once added, that it is in use and a way to replace or remove it.
fn claude_json_line(
    info: Option<&ClaudeJsonInfo>,
    inputs: &Inputs,
    on_add: Callback<MouseEvent>,
    on_remove: Callback<MouseEvent>,
) -> Html {
    let place = inputs.claude_json_place();
    let read = "only hasClaudeMdExternalIncludesApproved for this project is read";
    let title = "Your ~/.claude.json sits in your home folder, beside .claude (in the file dialog, ⌘⇧. on macOS or Ctrl+H on Linux shows hidden files). Claude Code keeps in it whether you approved imports that leave a project.";
    match info {
        None => html! {
            <p class="claude-json" data-testid="claude-json" data-added="false">
                <button class="linkish" onclick={on_add} title={title} data-testid="add-claude-json">{ "Add ~/.claude.json" }</button>
                { format!(" (optional): {read}; nothing else, and nothing leaves the page.") }
            </p>
        },
        Some(info) => {
            let from = if info.name == ".claude.json" {
                String::new()
            } else {
                format!(" from {}", info.name)
            };
            html! {
                <p class="claude-json" data-testid="claude-json" data-added="true" data-place={place.clone()}>
                    <span class="badge ok">{ "added" }</span>
                    { format!(" {place}{from}, {}: {read}. ", human_bytes(info.size)) }
                    <button class="linkish" onclick={on_add} title={title} data-testid="replace-claude-json">{ "Replace" }</button>
                    <button class="linkish" onclick={on_remove} data-testid="remove-claude-json">{ "Remove" }</button>
                </p>
            }
        }
    }
}

/// The offer to reopen the live folders opened last time, named, with what the page keeps
/// of them.
fn reopen_line(
    names: &[String],
    reopen: Callback<MouseEvent>,
    forget: Callback<MouseEvent>,
) -> Html {
    html! {
        <p class="reopen-line small" data-testid="reopen-offer">
            { "Last time you opened " }<strong>{ names.join(", ") }</strong>{ " in place. " }
            <button onclick={reopen} data-testid="reopen">{ "Reopen" }</button>{ " " }
            <button class="linkish" onclick={forget} data-testid="reopen-forget">{ "Forget them" }</button>
            <span class="muted">{ " The page keeps only these folders' handles (no file, no text), in this browser on this device; the browser asks your permission again." }</span>
        </p>
    }
}
