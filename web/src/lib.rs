//! The browser page of the Claude Code Memory Diagnoser.
//!
//! A person drops a `~/.claude` folder (or a zip of it) and a project folder; the page runs
//! `memdiag-core` on them in the browser and draws its [`Report`]. Nothing is uploaded.
//!
//! - [`ingest`] turns drops, inputs and the demo into sources and runs the analysis loop,
//!   reading only the contents the core asks for.
//! - [`state`] holds the page state and the pure rules behind it.
//! - [`components`] draw the report; they know nothing of files or the core's rules.
//! - [`demo`] is the built-in snapshot.
//!
//! The page never decides what Claude Code loads: every group, load type, cut and figure on it
//! comes from the report.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use memdiag_core::report::Report;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, DragEvent, Element, EventTarget, HtmlAnchorElement, HtmlElement,
    HtmlInputElement, KeyboardEvent, Url,
};
use yew::platform::spawn_local;
use yew::prelude::*;

pub mod components;
pub mod demo;
pub mod ingest;
pub mod state;

use components::context_bar::ContextBar;
use components::diagnostics::DiagnosticsList;
use components::file_view::{file_text, FileText, FileView};
use components::footprint::{FootprintBar, SummaryCards};
use components::health::HealthView;
use components::picker::{choices, ProjectPicker};
use components::tree::TreeView;
use ingest::{Snapshot, Source};
use state::{
    grouped, human_bytes, needs_rescan, Action, Inputs, Progress, RunReason, Shared, State,
    TreeItem, View,
};

/// Mounts the page into `#app` (or the body).
pub fn run() {
    let document = gloo_document();
    match document.get_element_by_id("app") {
        Some(root) => {
            // The static placeholder says "loading"; the app replaces it.
            root.set_text_content(None);
            yew::Renderer::<App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

fn gloo_document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page runs in a browser window")
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Where a page that has not started yet gets its sources from.
fn wants_demo() -> bool {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    // `?empty` starts with nothing loaded; anything else (`?demo`, a first visit) shows the demo.
    !search.split(['?', '&']).any(|part| part == "empty")
}

/// Everything a run needs that is not page state.
#[derive(Clone)]
struct Engine {
    snapshot: Rc<RefCell<Snapshot>>,
    runs: Rc<RefCell<u64>>,
    dispatch: UseReducerDispatcher<State>,
}

impl Engine {
    fn next_run(&self) -> u64 {
        let mut runs = self.runs.borrow_mut();
        *runs += 1;
        *runs
    }

    /// Runs the analysis with `inputs`, first listing the sources again if `reason` asks.
    fn launch(&self, inputs: Inputs, reason: RunReason, scanned_at: Option<f64>) {
        let run = self.next_run();
        self.dispatch.dispatch(Action::RunStarted(run));
        let engine = self.clone();
        spawn_local(async move {
            if needs_rescan(reason, scanned_at, now_ms()) {
                engine.rescan(run, reason == RunReason::Refresh).await;
            }
            let sources = engine.snapshot.borrow().sources.clone();
            if sources.is_empty() {
                engine.dispatch.dispatch(Action::RunFailed(
                    run,
                    "Nothing to analyse yet: drop a folder or a zip, or try the demo.".to_owned(),
                ));
                return;
            }
            let dispatch = engine.dispatch.clone();
            let progress = move |p: Progress| dispatch.dispatch(Action::Progressed(run, p));
            match ingest::run_analysis(sources, inputs, progress).await {
                Ok((report, tree)) => engine.dispatch.dispatch(Action::RunFinished {
                    run,
                    report: Shared::new(report),
                    tree: Shared::new(tree),
                    at: now_ms(),
                }),
                Err(message) => engine.dispatch.dispatch(Action::RunFailed(run, message)),
            }
        });
    }

    /// Lists and reads again every source the browser lets the page read again.
    async fn rescan(&self, run: u64, tell: bool) {
        let sources = self.snapshot.borrow().sources.clone();
        let mut stuck = Vec::new();
        let mut failed = Vec::new();
        for source in sources {
            let dispatch = self.dispatch.clone();
            let listed = move |n: u64| {
                dispatch.dispatch(Action::Progressed(
                    run,
                    Progress {
                        entries: n,
                        ..Progress::default()
                    },
                ))
            };
            match ingest::reread(&source, &listed).await {
                Ok(Some(fresh)) => self.replace(&source, fresh),
                Ok(None) if !source.rereadable() => stuck.push(source.name.clone()),
                Ok(None) => {}
                Err(message) => failed.push(format!("{}: {message}", source.name)),
            }
        }
        if tell && !(stuck.is_empty() && failed.is_empty()) {
            let mut parts = Vec::new();
            if !stuck.is_empty() {
                parts.push(format!(
                    "{} came from the folder button or a browser that gives no folder handle, so the page cannot read it again. Drop it again (or choose it again) to see your changes.",
                    stuck.join(" and ")
                ));
            }
            if !failed.is_empty() {
                parts.push(format!(
                    "Could not read again: {}. Showing what was read before.",
                    failed.join("; ")
                ));
            }
            self.dispatch
                .dispatch(Action::Notice(Some(parts.join(" "))));
        }
    }

    fn replace(&self, old: &Rc<Source>, fresh: Source) {
        let mut snapshot = self.snapshot.borrow_mut();
        if let Some(slot) = snapshot.sources.iter_mut().find(|s| Rc::ptr_eq(s, old)) {
            *slot = Rc::new(fresh);
        }
    }

    /// Adds sources, infers the host facts again and runs.
    ///
    /// `current` are the fields before the drop: their home is the fallback when no source
    /// tells one, and the simulated version stays as chosen.
    fn add_sources(&self, added: Vec<Source>, current: Inputs) {
        let was_demo = self.snapshot.borrow().is_demo();
        {
            let mut snapshot = self.snapshot.borrow_mut();
            for source in added {
                snapshot.add(source);
            }
        }
        let home = if was_demo {
            Inputs::default().home
        } else {
            current.home
        };
        let (infos, inputs) = {
            let snapshot = self.snapshot.borrow();
            let mut inputs = snapshot.infer_inputs(&home);
            inputs.version = current.version;
            (snapshot.infos(), inputs)
        };
        self.dispatch
            .dispatch(Action::SourcesChanged(infos, inputs.clone()));
        self.launch(inputs, RunReason::NewSources, None);
    }

    /// Shows the demo, simulating `version` (`None` for the current rules).
    fn load_demo(&self, version: Option<String>) -> bool {
        let Some(demo) = demo::source() else {
            return false;
        };
        let inputs = {
            let mut snapshot = self.snapshot.borrow_mut();
            snapshot.set_demo(demo);
            Inputs {
                version,
                ..snapshot.infer_inputs(&Inputs::default().home)
            }
        };
        let infos = self.snapshot.borrow().infos();
        self.dispatch
            .dispatch(Action::SourcesChanged(infos, inputs.clone()));
        self.launch(inputs, RunReason::NewSources, None);
        true
    }
}

/// Keeps a DOM event listener registered for as long as it lives.
struct Listener {
    target: EventTarget,
    kind: &'static str,
    closure: Closure<dyn FnMut(web_sys::Event)>,
}

impl Listener {
    fn new(
        target: &EventTarget,
        kind: &'static str,
        f: impl FnMut(web_sys::Event) + 'static,
    ) -> Listener {
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(f);
        let _ = target.add_event_listener_with_callback(kind, closure.as_ref().unchecked_ref());
        Listener {
            target: target.clone(),
            kind,
            closure,
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.closure.as_ref().unchecked_ref());
    }
}

/// The handlers window-level listeners call; refreshed on every render so they see the
/// current state.
#[derive(Default)]
struct WindowHandlers {
    on_key: Callback<KeyboardEvent>,
    on_drop: Callback<DragEvent>,
    on_drag: Callback<bool>,
}

/// The page.
#[component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let snapshot = use_mut_ref(Snapshot::default);
    let runs = use_mut_ref(|| 0u64);
    let dragging = use_state(|| false);
    let handlers = use_mut_ref(WindowHandlers::default);
    let folder_input = use_node_ref();
    let zip_input = use_node_ref();
    let filter_focus = use_node_ref();
    let engine = Engine {
        snapshot: snapshot.clone(),
        runs: runs.clone(),
        dispatch: state.dispatcher(),
    };

    // Open with the demo, so a first visit shows a full report at once.
    {
        let engine = engine.clone();
        use_effect_with((), move |_| {
            if wants_demo() {
                engine.load_demo(None);
            }
        });
    }

    let refresh = {
        let engine = engine.clone();
        let state = state.clone();
        Callback::from(move |_: ()| {
            if engine.snapshot.borrow().sources.is_empty() {
                return;
            }
            engine.dispatch.dispatch(Action::Notice(None));
            engine.launch(state.inputs.clone(), RunReason::Refresh, state.scanned_at);
        })
    };
    let open_picker = {
        let dispatch = state.dispatcher();
        Callback::from(move |_: ()| dispatch.dispatch(Action::SetPicker(true)))
    };
    let on_inputs = {
        let engine = engine.clone();
        let state = state.clone();
        Callback::from(move |inputs: Inputs| {
            engine.dispatch.dispatch(Action::SetInputs(inputs.clone()));
            engine.launch(inputs, RunReason::InputEdit, state.scanned_at);
        })
    };
    let on_project = {
        let engine = engine.clone();
        let state = state.clone();
        Callback::from(move |project: String| {
            let inputs = state.inputs.with_project(project.trim().to_owned());
            engine.dispatch.dispatch(Action::SetInputs(inputs.clone()));
            engine.dispatch.dispatch(Action::SetPicker(false));
            engine.launch(inputs, RunReason::ProjectSwitch, state.scanned_at);
        })
    };
    let on_pick = {
        let engine = engine.clone();
        let state = state.clone();
        Callback::from(move |project: String| {
            let mut inputs = state.inputs.clone();
            inputs.project = project;
            engine.dispatch.dispatch(Action::SetInputs(inputs.clone()));
            engine.dispatch.dispatch(Action::SetPicker(false));
            engine.launch(inputs, RunReason::ProjectSwitch, state.scanned_at);
        })
    };
    let on_drop_event = {
        let engine = engine.clone();
        let current = state.inputs.clone();
        Callback::from(move |event: DragEvent| {
            let Some(transfer) = event.data_transfer() else {
                return;
            };
            let items = ingest::dropped_items(&transfer);
            if items.is_empty() {
                engine.dispatch.dispatch(Action::Error(Some(
                    "That drop held no files. Drop a folder or a .zip.".to_owned(),
                )));
                return;
            }
            let engine = engine.clone();
            let current = current.clone();
            spawn_local(async move {
                let run = engine.next_run();
                engine.dispatch.dispatch(Action::RunStarted(run));
                let mut added = Vec::new();
                let mut errors = Vec::new();
                for item in items {
                    let dispatch = engine.dispatch.clone();
                    let listed = move |n: u64| {
                        dispatch.dispatch(Action::Progressed(
                            run,
                            Progress {
                                entries: n,
                                ..Progress::default()
                            },
                        ))
                    };
                    match ingest::source_from_drop(item, &listed).await {
                        Ok(source) => added.push(source),
                        Err(message) => errors.push(message),
                    }
                }
                finish_adding(&engine, run, added, errors, current);
            });
        })
    };
    let on_folder_chosen = {
        let engine = engine.clone();
        let current = state.inputs.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(list) = input.files() else { return };
            let result = ingest::folder_from_input(&list);
            // Clearing the value lets the same folder be chosen again after a change.
            input.set_value("");
            let run = engine.next_run();
            engine.dispatch.dispatch(Action::RunStarted(run));
            match result {
                Ok(source) => {
                    finish_adding(&engine, run, vec![source], Vec::new(), current.clone())
                }
                Err(message) => {
                    finish_adding(&engine, run, Vec::new(), vec![message], current.clone())
                }
            }
        })
    };
    let on_zip_chosen = {
        let engine = engine.clone();
        let current = state.inputs.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            input.set_value("");
            let engine = engine.clone();
            let current = current.clone();
            spawn_local(async move {
                let run = engine.next_run();
                engine.dispatch.dispatch(Action::RunStarted(run));
                match ingest::zip_from_file(file).await {
                    Ok(source) => finish_adding(&engine, run, vec![source], Vec::new(), current),
                    Err(message) => finish_adding(&engine, run, Vec::new(), vec![message], current),
                }
            });
        })
    };
    let click = |node: &NodeRef| {
        let node = node.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = node.cast::<HtmlElement>() {
                input.click();
            }
        })
    };
    let on_demo = {
        let engine = engine.clone();
        let version = state.inputs.version.clone();
        Callback::from(move |_: MouseEvent| {
            if !engine.load_demo(version.clone()) {
                engine.dispatch.dispatch(Action::Error(Some(
                    "This build has no demo snapshot.".to_owned(),
                )));
            }
        })
    };
    let on_download = {
        let report = state.report.clone();
        let dispatch = state.dispatcher();
        Callback::from(move |_: MouseEvent| {
            if let Some(report) = &report {
                if let Err(e) = download_report(report) {
                    dispatch.dispatch(Action::Error(Some(format!(
                        "Could not save the report: {}",
                        ingest::js_message(&e)
                    ))));
                }
            }
        })
    };
    let on_key = {
        let refresh = refresh.clone();
        let open_picker = open_picker.clone();
        let filter_focus = filter_focus.clone();
        let picker_open = state.picker_open;
        let has_report = state.report.is_some();
        let dispatch = state.dispatcher();
        Callback::from(move |event: KeyboardEvent| {
            if event.ctrl_key() || event.meta_key() || event.alt_key() || picker_open {
                return;
            }
            let typing = event
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
            if typing {
                return;
            }
            match event.key().as_str() {
                "r" => {
                    event.prevent_default();
                    refresh.emit(());
                }
                "P" if event.shift_key() => {
                    event.prevent_default();
                    open_picker.emit(());
                }
                "h" if has_report => {
                    event.prevent_default();
                    dispatch.dispatch(Action::ToggleView);
                }
                "/" => {
                    if let Some(section) = filter_focus.cast::<Element>() {
                        if let Ok(Some(input)) = section.query_selector("input[type=search]") {
                            if let Ok(input) = input.dyn_into::<HtmlElement>() {
                                event.prevent_default();
                                let _ = input.focus();
                            }
                        }
                    }
                }
                _ => {}
            }
        })
    };
    {
        let mut h = handlers.borrow_mut();
        h.on_key = on_key;
        h.on_drop = on_drop_event;
        let set = dragging.setter();
        h.on_drag = Callback::from(move |on: bool| set.set(on));
    }
    // Window-level listeners: keys work wherever focus is, drops work anywhere on the page.
    {
        let handlers = handlers.clone();
        use_effect_with((), move |_| {
            let window: EventTarget = web_sys::window().expect("a window").into();
            let keys = {
                let handlers = handlers.clone();
                Listener::new(&window, "keydown", move |event| {
                    if let Ok(event) = event.dyn_into::<KeyboardEvent>() {
                        handlers.borrow().on_key.emit(event);
                    }
                })
            };
            let over = {
                let handlers = handlers.clone();
                Listener::new(&window, "dragover", move |event| {
                    // Without this the browser would open the dropped file instead.
                    event.prevent_default();
                    handlers.borrow().on_drag.emit(true);
                })
            };
            let leave = {
                let handlers = handlers.clone();
                Listener::new(&window, "dragleave", move |event| {
                    let left_window = event
                        .dyn_ref::<DragEvent>()
                        .is_some_and(|e| e.related_target().is_none());
                    if left_window {
                        handlers.borrow().on_drag.emit(false);
                    }
                })
            };
            let dropped = {
                let handlers = handlers.clone();
                Listener::new(&window, "drop", move |event| {
                    event.prevent_default();
                    handlers.borrow().on_drag.emit(false);
                    if let Ok(event) = event.dyn_into::<DragEvent>() {
                        handlers.borrow().on_drop.emit(event);
                    }
                })
            };
            move || drop((keys, over, leave, dropped))
        });
    }

    let tree_items = {
        let state = state.clone();
        use_memo(
            (
                state.report.clone(),
                state.collapsed.clone(),
                state.collapsed_rows.clone(),
                state.filter.clone(),
            ),
            move |_| state.visible_items(),
        )
    };
    let selected_index = match state.cursor {
        Some(TreeItem::File(index)) => Some(index),
        _ => None,
    };
    let selected_group = match state.cursor {
        Some(TreeItem::Group(group)) => Some(group),
        _ => None,
    };
    let text = {
        let path = state.selected_row().map(|row| row.path.clone());
        let tree = state.tree.clone();
        use_memo((tree, path), |(tree, path)| match (tree, path) {
            (Some(tree), Some(path)) => file_text(tree, path),
            _ => FileText::Missing,
        })
    };
    let dispatch = state.dispatcher();
    let on_select = {
        let d = dispatch.clone();
        Callback::from(move |item| d.dispatch(Action::Select(item)))
    };
    let on_nav = {
        let d = dispatch.clone();
        Callback::from(move |key| d.dispatch(Action::Key(key)))
    };
    let on_toggle_group = {
        let d = dispatch.clone();
        Callback::from(move |g| d.dispatch(Action::ToggleGroup(g)))
    };
    let on_toggle_row = {
        let d = dispatch.clone();
        Callback::from(move |i| d.dispatch(Action::ToggleRow(i)))
    };
    let on_filter = {
        let d = dispatch.clone();
        Callback::from(move |f| d.dispatch(Action::SetFilter(f)))
    };
    let on_unit = {
        let d = dispatch.clone();
        Callback::from(move |u| d.dispatch(Action::SetUnit(u)))
    };
    let on_tab = {
        let d = dispatch.clone();
        Callback::from(move |t| d.dispatch(Action::SetTab(t)))
    };
    let view_tab = |view: View, label: &'static str, id: &'static str, extra: Html| {
        let d = dispatch.clone();
        let active = state.view == view;
        html! {
            <button role="tab" id={format!("pane-tab-{id}")} class={classes!("pane-tab", active.then_some("active"))}
                aria-selected={active.to_string()} aria-controls="pane" data-testid={format!("view-{id}")}
                title="Switch between the file and the health view (h)"
                onclick={Callback::from(move |_| d.dispatch(Action::SetView(view)))}>
                { label }{ extra }
            </button>
        }
    };
    let on_open = {
        let d = dispatch.clone();
        Callback::from(move |(path, line): (String, Option<u64>)| {
            d.dispatch(Action::SelectPath(path, line))
        })
    };
    let close_picker = {
        let d = dispatch.clone();
        Callback::from(move |_: ()| d.dispatch(Action::SetPicker(false)))
    };
    let dismiss = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            d.dispatch(Action::Error(None));
            d.dispatch(Action::Notice(None));
        })
    };

    let is_demo = state.sources.iter().any(|s| s.role == "demo");
    let picker = state.picker_open.then(|| {
        let folders = state
            .report
            .as_ref()
            .map(|r| r.memory_folders.clone())
            .unwrap_or_default();
        let dropped_name = snapshot.borrow().project_name().map(str::to_owned);
        let dropped = match (&dropped_name, &state.inputs.project_mount) {
            (Some(name), Some(path)) => Some((name.clone(), path.clone())),
            (None, Some(path)) if is_demo => Some(("of the demo".to_owned(), path.clone())),
            _ => None,
        };
        let list = choices(
            &folders,
            dropped.as_ref().map(|(n, p)| (n.as_str(), p.as_str())),
            state.inputs.project.trim(),
        );
        html! { <ProjectPicker choices={list} on_pick={on_pick.clone()} on_close={close_picker.clone()} /> }
    });

    let refresh_click = {
        let refresh = refresh.clone();
        Callback::from(move |_: MouseEvent| refresh.emit(()))
    };
    let pick_click = {
        let open_picker = open_picker.clone();
        Callback::from(move |_: ()| open_picker.emit(()))
    };
    let has_sources = !state.sources.is_empty();

    html! {
        <div class={classes!("app", dragging.then_some("dragging"))} data-testid="app"
            data-busy={state.busy.is_some().to_string()}
            data-run={state.run.to_string()}
            data-ready={(state.busy.is_none() && state.report.is_some()).to_string()}>
            <header class="topbar">
                <div class="brand">
                    <h1>{ "Claude Code Memory Diagnoser" }</h1>
                    <p class="tagline">{ "What Claude Code loads from your ~/.claude and your project, what a MEMORY.md loses to its caps, and what it all costs. Everything stays in this browser tab." }</p>
                </div>
                <nav class="actions" aria-label="Sources">
                    <button class="primary" onclick={click(&folder_input)} data-testid="choose-folder">{ "Choose folder" }</button>
                    <button onclick={click(&zip_input)} data-testid="open-zip">{ "Open zip" }</button>
                    <button onclick={on_demo} data-testid="try-demo">{ "Try the demo" }</button>
                    <span class="sep" aria-hidden="true"></span>
                    <button onclick={refresh_click} disabled={!has_sources} title="Read the sources again (r)" data-testid="refresh">
                        { "Refresh" }<kbd>{ "r" }</kbd>
                    </button>
                    <button onclick={on_download} disabled={state.report.is_none()} data-testid="download">{ "Download JSON" }</button>
                    <input ref={folder_input} type="file" class="hidden-input" webkitdirectory=true multiple=true
                        data-testid="folder-input" aria-label="Choose a folder" onchange={on_folder_chosen} />
                    <input ref={zip_input} type="file" class="hidden-input" accept=".zip,application/zip"
                        data-testid="zip-input" aria-label="Open a zip" onchange={on_zip_chosen} />
                </nav>
            </header>
            <ContextBar inputs={state.inputs.clone()} sources={state.sources.clone()}
                on_change={on_inputs} on_project={on_project} on_pick={pick_click} />
            { status_line(&state, is_demo, dismiss) }
            if let Some(report) = state.report.clone() {
                <FootprintBar footprint={report.footprint.clone()} unit={state.unit} on_unit={on_unit} />
                <main class={classes!("workspace", state.busy.is_some().then_some("stale"))} data-testid="workspace">
                    <div class="tree-column" ref={filter_focus}>
                        <TreeView report={report.clone()} items={tree_items.clone()} cursor={state.cursor}
                            collapsed={state.collapsed.clone()} collapsed_rows={state.collapsed_rows.clone()}
                            filter={state.filter.clone()} on_select={on_select} on_key={on_nav}
                            on_toggle_group={on_toggle_group} on_toggle_row={on_toggle_row} on_filter={on_filter} />
                    </div>
                    <div class="pane-column">
                        <div class="pane-tabs" role="tablist" aria-label="What to show beside the tree">
                            { view_tab(View::File, "File", "file", Html::default()) }
                            { view_tab(View::Health, "Health", "health", health_badge(&report)) }
                            <span class="pane-hint muted small"><kbd>{ "h" }</kbd>{ "switches" }</span>
                        </div>
                        <div class="pane" id="pane" role="tabpanel"
                            aria-labelledby={if state.view == View::Health { "pane-tab-health" } else { "pane-tab-file" }}>
                            if state.view == View::Health {
                                <HealthView report={report.clone()} on_open={on_open.clone()} />
                            } else {
                                <FileView report={report.clone()} index={selected_index} group={selected_group}
                                    text={(*text).clone()} tab={state.tab} focus_line={state.focus_line}
                                    focus_seq={state.focus_seq} on_tab={on_tab} on_open={on_open.clone()} />
                            }
                        </div>
                    </div>
                </main>
                <SummaryCards footprint={report.footprint.clone()} />
                <DiagnosticsList report={report.clone()} on_open={on_open} />
            } else {
                { empty_state(state.busy.is_some()) }
            }
            <footer class="footnote">
                <p>
                    { "Keys: ↑ ↓ ← → and Enter in the tree · / filter · h file or health view · r refresh · Shift+P pick a project. " }
                    { "A zip is the fast path for a large ~/.claude: the browser lists every file of a dropped folder (transcripts too) before the page sees any, while a zip's list is one read. " }
                    <code>{ "cd ~ && zip -r claude.zip .claude -x '.claude/projects/*/*.jsonl'" }</code>
                </p>
            </footer>
            if *dragging {
                <div class="drop-overlay" aria-hidden="true">
                    <div>{ "Drop your ~/.claude folder, a project folder or a .zip" }</div>
                </div>
            }
            { picker.unwrap_or_default() }
        </div>
    }
}

/// Adds the sources a drop or an input produced, or shows why none came.
fn finish_adding(
    engine: &Engine,
    run: u64,
    added: Vec<Source>,
    errors: Vec<String>,
    current: Inputs,
) {
    if added.is_empty() {
        let message = if errors.is_empty() {
            "Nothing was added.".to_owned()
        } else {
            errors.join(" ")
        };
        engine.dispatch.dispatch(Action::RunFailed(run, message));
        return;
    }
    engine.add_sources(added, current);
    if !errors.is_empty() {
        engine.dispatch.dispatch(Action::Notice(Some(format!(
            "Some items were left out: {}",
            errors.join(" ")
        ))));
    }
}

/// The one-line status under the fields; it keeps its height so nothing jumps.
fn status_line(state: &State, is_demo: bool, dismiss: Callback<MouseEvent>) -> Html {
    let content = if let Some(p) = state.busy {
        html! {
            <span class="busy" data-testid="progress" data-entries={p.entries.to_string()}
                data-files-read={p.files_read.to_string()} data-bytes-read={p.bytes_read.to_string()}>
                <span class="spinner" aria-hidden="true"></span>
                { format!("Working… {} files listed · {} read · {}", grouped(p.entries), grouped(p.files_read), human_bytes(p.bytes_read)) }
            </span>
        }
    } else if let Some(error) = &state.error {
        html! {
            <span class="error-text" data-testid="error" role="alert">
                { error.clone() }
                <button class="linkish" onclick={dismiss}>{ "Dismiss" }</button>
            </span>
        }
    } else if let Some(notice) = &state.notice {
        html! {
            <span class="notice" data-testid="notice">
                { notice.clone() }
                <button class="linkish" onclick={dismiss}>{ "Dismiss" }</button>
            </span>
        }
    } else if let Some(report) = &state.report {
        let project = report
            .context
            .project
            .clone()
            .unwrap_or_else(|| "no project".to_owned());
        let memory = match &report.context.memory_dir {
            Some(_) => "auto memory found".to_owned(),
            None if report.context.project.is_some() => {
                "no auto memory folder for this project".to_owned()
            }
            None => "pick a project to see its auto memory".to_owned(),
        };
        let version = report.context.version.as_str();
        html! {
            <span class="summary" data-testid="summary">
                if is_demo { <span class="badge demo">{ "demo" }</span>{ " " } }
                if !version.is_empty() && version != "current" {
                    <span class="badge warn" data-testid="simulated-version">{ format!("simulating Claude Code {version}") }</span>{ " " }
                }
                { format!("{} files from {} · {project} · {memory}", grouped(report.files.len() as u64), sources_text(state)) }
            </span>
        }
    } else {
        html! { <span class="muted">{ "Drop a folder or a zip anywhere on this page." }</span> }
    };
    html! { <div class="statusbar" aria-live="polite" data-testid="status">{ content }</div> }
}

/// How many of the five reasons found something, beside the Health tab.
fn health_badge(report: &Report) -> Html {
    let found = report.health.reasons.iter().filter(|r| !r.ok).count();
    if report.health.reasons.is_empty() {
        return Html::default();
    }
    html! {
        <span class={classes!("pane-count", (found > 0).then_some("warn"))} data-testid="health-count"
            title={format!("{found} of {} reasons found something", report.health.reasons.len())}>
            { if found == 0 { "✓".to_owned() } else { found.to_string() } }
        </span>
    }
}

fn sources_text(state: &State) -> String {
    if state.sources.is_empty() {
        return "nothing".to_owned();
    }
    state
        .sources
        .iter()
        .map(|s| s.label.clone())
        .collect::<Vec<_>>()
        .join(" + ")
}

fn empty_state(busy: bool) -> Html {
    html! {
        <section class={classes!("empty-state", busy.then_some("busy"))} data-testid="empty-state">
            <div class="drop-zone">
                <h2>{ "Drop your ~/.claude folder here" }</h2>
                <p>{ "…and, if you like, a project folder beside it. Or use the buttons above: Choose folder, Open zip, or Try the demo." }</p>
                <p class="muted">{ "On macOS and Linux, ~/.claude is hidden: in the folder dialog press ⌘⇧. (macOS) or Ctrl+H (Linux) to show it." }</p>
                <p class="muted">{ "Nothing is uploaded: the page reads the files in this tab, and only the Markdown and settings files it needs." }</p>
            </div>
        </section>
    }
}

/// Saves the report as JSON through a Blob URL.
fn download_report(report: &Report) -> Result<(), JsValue> {
    let json =
        serde_json::to_string_pretty(report).map_err(|e| JsValue::from_str(&e.to_string()))?;
    let parts = Array::of1(&JsValue::from_str(&json));
    let options = BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let anchor: HtmlAnchorElement = gloo_document().create_element("a")?.dyn_into()?;
    anchor.set_href(&url);
    anchor.set_download("memdiag-report.json");
    anchor.click();
    // The click has started the download; the URL can go once the event loop turns.
    spawn_local(async move {
        ingest::yield_now().await;
        let _ = Url::revoke_object_url(&url);
    });
    Ok(())
}
