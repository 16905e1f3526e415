//! The browser page of the Claude Code Memory Diagnoser.
//!
//! A person drops a `~/.claude` folder (or a zip of it) and a project folder; the page runs
//! `memdiag-core` on them in the browser and draws its [`Report`]. Nothing is uploaded.
//!
//! - [`ingest`] turns drops, inputs and the demo into sources and runs the analysis loop,
//!   reading only the contents the core asks for.
//! - [`state`] holds the page state and the pure rules behind it.
//! - [`components`] draw the report; they know nothing of files or the core's rules.
//! - [`share`] runs the core's sanitizing for the Share dialog and opens shared links and
//!   files, which the page then shows read-only.
//! - [`demo`] is the built-in snapshot.
//!
//! The page never decides what Claude Code loads, nor what a shared snapshot keeps: every
//! group, load type, cut and figure on it comes from the report, and every replaced name and
//! character from the core's sanitizer.
//!
//! A person may add their `~/.claude.json` too (a dropped `~/.claude` never holds it: it sits
//! beside it, in the home folder). The analysis reads one key of it, whether imports that
//! leave the project are approved for this project, and only once it asks for the file.
//!
//! Read-only mode (a shared link or file) shows the whole report with no way to add, refresh
//! or edit anything, except the Claude Code version select: it runs the same shared snapshot
//! again under an older release's rules, which changes nothing that was shared.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use memdiag_core::report::Report;
use memdiag_core::SharedSnapshot;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, DragEvent, Element, EventTarget, File, HtmlElement, HtmlInputElement,
    KeyboardEvent,
};
use yew::platform::spawn_local;
use yew::prelude::*;

pub mod components;
pub mod demo;
pub mod ingest;
pub mod share;
pub mod state;
pub mod worker;
pub mod worker_host;

use components::context_bar::ContextBar;
use components::diagnostics::DiagnosticsList;
use components::file_view::{file_text, FileText, FileView};
use components::footprint::{FootprintBar, SummaryCards};
use components::health::HealthView;
use components::picker::{choices, ProjectPicker};
use components::release::ReleasePanel;
use components::share_dialog::ShareDialog;
use components::tree::TreeView;
use ingest::{Opened, SharedRaw, SharedSource, Snapshot, Source};
use state::{
    approval_hint, grouped, human_bytes, needs_rescan, Action, ApprovalHint, ClaudeJsonInfo,
    Inputs, Progress, RunReason, Shared, SharedFrom, SharedView, State, TreeItem, View,
};
use worker_host::{Failure, Host};

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
    /// The analysis worker; `None` where the page has none (the component tests), and the
    /// analysis runs in place.
    host: Option<Host>,
}

impl Engine {
    /// Reports how many entries a listing has reached, as progress of `run`.
    fn listing_progress(&self, run: u64) -> impl Fn(u64) + 'static {
        let dispatch = self.dispatch.clone();
        move |entries: u64| {
            dispatch.dispatch(Action::Progressed(
                run,
                Progress {
                    entries,
                    ..Progress::default()
                },
            ))
        }
    }

    fn next_run(&self) -> u64 {
        let mut runs = self.runs.borrow_mut();
        *runs += 1;
        *runs
    }

    /// Runs the analysis with `inputs`, first listing the sources again if `reason` asks.
    ///
    /// A shared snapshot is analysed as it is: only the simulated version of `inputs` counts.
    fn launch(&self, inputs: Inputs, reason: RunReason, scanned_at: Option<f64>) {
        let run = self.next_run();
        self.dispatch.dispatch(Action::RunStarted(run));
        let engine = self.clone();
        let shared = self.snapshot.borrow().shared.clone();
        if let Some(shared) = shared {
            spawn_local(async move {
                if let Some(host) = engine.host.clone() {
                    let version = inputs.version.clone();
                    match host.shared(&shared.raw, version.clone()).await {
                        Ok((report, missing)) => {
                            let mut tree = shared.snapshot.tree.clone();
                            for path in missing {
                                if let Ok(path) = memdiag_core::VPath::new(&path) {
                                    tree.set_contents(&path, Err(worker::NOT_SHARED.to_owned()));
                                }
                            }
                            let input = memdiag_core::Input {
                                version,
                                ..shared.snapshot.input.clone()
                            };
                            engine.finished(run, report, tree, input);
                        }
                        Err(failure) => engine.failed(run, &failure),
                    }
                    return;
                }
                // One turn of the event loop first, so the page paints that it is working.
                ingest::yield_now().await;
                match ingest::analyze_shared(&shared.snapshot, inputs.version) {
                    Ok((report, tree, input)) => engine.dispatch.dispatch(Action::RunFinished {
                        run,
                        report: Shared::new(report),
                        tree: Shared::new(tree),
                        input: Shared::new(input),
                        at: now_ms(),
                    }),
                    Err(message) => engine.dispatch.dispatch(Action::RunFailed(run, message)),
                }
            });
            return;
        }
        spawn_local(async move {
            if needs_rescan(reason, scanned_at, now_ms()) {
                engine.rescan(run, reason == RunReason::Refresh).await;
            }
            let sources = engine.snapshot.borrow().run_sources();
            if sources.is_empty() {
                engine.dispatch.dispatch(Action::RunFailed(
                    run,
                    "Nothing to analyse yet: drop a folder or a zip, or try the demo.".to_owned(),
                ));
                return;
            }
            let dispatch = engine.dispatch.clone();
            let progress = move |p: Progress| dispatch.dispatch(Action::Progressed(run, p));
            if let Some(host) = engine.host.clone() {
                let today = ingest::today();
                match host.run(sources.clone(), &inputs, &today, progress).await {
                    Ok(report) => {
                        // The page's own tree, for the file view and sharing: the same
                        // listing, with every content the worker asked the page for.
                        let tree = ingest::mount(&sources, &inputs).tree;
                        let input = ingest::run_input(&inputs, &today);
                        engine.finished(run, report, tree, input);
                    }
                    Err(failure) => engine.failed(run, &failure),
                }
                return;
            }
            match ingest::run_analysis(sources, inputs, progress).await {
                Ok((report, tree, input)) => engine.dispatch.dispatch(Action::RunFinished {
                    run,
                    report: Shared::new(report),
                    tree: Shared::new(tree),
                    input: Shared::new(input),
                    at: now_ms(),
                }),
                Err(message) => engine.dispatch.dispatch(Action::RunFailed(run, message)),
            }
        });
    }

    fn finished(
        &self,
        run: u64,
        report: Report,
        tree: memdiag_core::Tree,
        input: memdiag_core::Input,
    ) {
        self.dispatch.dispatch(Action::RunFinished {
            run,
            report: Shared::new(report),
            tree: Shared::new(tree),
            input: Shared::new(input),
            at: now_ms(),
        });
    }

    fn failed(&self, run: u64, failure: &Failure) {
        if let Some(message) = failure.message() {
            self.dispatch.dispatch(Action::RunFailed(run, message));
        }
    }

    /// Lists and reads again every source the browser lets the page read again.
    async fn rescan(&self, run: u64, tell: bool) {
        let sources = self.snapshot.borrow().run_sources();
        let mut stuck = Vec::new();
        let mut failed = Vec::new();
        for source in sources {
            let listed = self.listing_progress(run);
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
    ///
    /// The guess reads the dropped folder names, so with a worker it runs there: should the
    /// core fail on a name, the page says so and goes back to the sources it had.
    fn add_sources(&self, run: u64, added: Vec<Source>, current: Inputs) {
        let was_demo = self.snapshot.borrow().is_demo();
        let before = self.snapshot.borrow().sources.clone();
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
        let engine = self.clone();
        spawn_local(async move {
            let guessed = match engine.host.clone() {
                Some(host) => {
                    let sources = engine.snapshot.borrow().sources.clone();
                    host.infer(&sources, &home).await
                }
                None => Ok(engine.snapshot.borrow().infer_inputs(&home)),
            };
            let mut inputs = match guessed {
                Ok(inputs) => inputs,
                Err(failure) => {
                    if failure != Failure::Cancelled {
                        engine.snapshot.borrow_mut().sources = before;
                    }
                    engine.failed(run, &failure);
                    return;
                }
            };
            inputs.version = current.version;
            let infos = engine.snapshot.borrow().infos();
            engine
                .dispatch
                .dispatch(Action::SourcesChanged(infos, inputs.clone()));
            engine.launch(inputs, RunReason::NewSources, None);
        });
    }

    /// Adds the chosen `~/.claude.json` in place of any added before (`None` removes it), and
    /// runs again with `inputs` when there is something to analyse. Nothing of the file is
    /// read here: the run reads it only if the analysis asks.
    fn set_claude_json(&self, file: Option<File>, inputs: Inputs) {
        let info = file.as_ref().map(|file| ClaudeJsonInfo {
            name: file.name(),
            size: file.size() as u64,
        });
        self.snapshot
            .borrow_mut()
            .set_claude_json(file.map(Source::claude_json));
        self.dispatch.dispatch(Action::SetClaudeJson(info));
        if !self.snapshot.borrow().sources.is_empty() {
            self.launch(inputs, RunReason::NewSources, None);
        }
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

    /// Shows a shared snapshot, read-only, in place of whatever was shown.
    fn open_shared(&self, snapshot: SharedSnapshot, from: SharedFrom, raw: SharedRaw) {
        if matches!(from, SharedFrom::File(_)) {
            // What shows is the file, not whatever link the address bar may still hold.
            share::clear_fragment();
        }
        let view = SharedView {
            made: snapshot.made.clone(),
            from: from.clone(),
            format: snapshot.format,
            text_kept: snapshot.text_kept,
        };
        let source = SharedSource {
            snapshot,
            from,
            raw,
        };
        let inputs = source.inputs();
        let infos = vec![source.info()];
        self.snapshot.borrow_mut().set_shared(source);
        self.dispatch
            .dispatch(Action::OpenShared(view, infos, inputs.clone()));
        self.launch(inputs, RunReason::NewSources, None);
    }

    /// Opens the share link in a URL fragment; a link that cannot be opened leaves the page
    /// empty, with the reason.
    fn open_link(&self, fragment: &str) {
        match memdiag_core::decode_link(fragment) {
            Ok(snapshot) => self.open_shared(
                snapshot,
                SharedFrom::Link,
                SharedRaw::Link(fragment.to_owned()),
            ),
            Err(error) => {
                self.start_fresh(false);
                self.dispatch
                    .dispatch(Action::Error(Some(share::open_error("link", &error))));
            }
        }
    }

    /// Forgets everything shown and returns to the empty page; `clear_link` also removes a
    /// share link from the address bar, so that reloading does not open it again.
    fn start_fresh(&self, clear_link: bool) {
        self.snapshot.borrow_mut().clear();
        let run = self.next_run();
        self.dispatch.dispatch(Action::Reset(run));
        if clear_link {
            share::clear_fragment();
        }
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
    on_hash: Callback<()>,
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
    let claude_json_input = use_node_ref();
    let filter_focus = use_node_ref();
    let share_button = use_node_ref();
    // When the Share dialog is open: the moment its snapshot is made.
    let sharing = use_state(|| None::<String>);
    let read_only = state.read_only();

    // A shared snapshot opens at the top of the page, where its banner says what it is; the
    // tree scrolling its first selected row into view would otherwise move the page down.
    {
        let opened = state.shared.clone();
        let shown = state.report.is_some();
        use_effect_with((opened, shown), |(opened, shown)| {
            if opened.is_some() && *shown {
                if let Some(window) = web_sys::window() {
                    window.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        });
    }
    // A shared snapshot replacing the person's own files (a link pasted into the address
    // bar, a share zip dropped) closes the Share dialog: there is nothing of theirs to share.
    {
        let sharing = sharing.clone();
        use_effect_with(read_only, move |read_only| {
            if *read_only {
                sharing.set(None);
            }
        });
    }
    let host = use_memo((), |_| Host::from_page());
    let engine = Engine {
        snapshot: snapshot.clone(),
        runs: runs.clone(),
        dispatch: state.dispatcher(),
        host: (*host).clone(),
    };

    // A share link opens what it carries; anything else opens with the demo, so a first
    // visit shows a full report at once.
    {
        let engine = engine.clone();
        use_effect_with((), move |_| {
            let fragment = share::current_fragment();
            if share::fragment_has_link(&fragment) {
                engine.open_link(&fragment);
            } else if wants_demo() {
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
            if read_only {
                engine.dispatch.dispatch(Action::Notice(Some(
                    "This is a shared snapshot, read-only: nothing can be added to it. Press Start fresh to open your own files.".to_owned(),
                )));
                return;
            }
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
                let mut shared = None;
                for item in items {
                    let listed = engine.listing_progress(run);
                    match ingest::open_dropped(item, &listed).await {
                        Ok(Opened::Source(source)) => added.push(source),
                        Ok(Opened::Shared(snapshot, name, raw)) => {
                            shared.get_or_insert((snapshot, name, raw));
                        }
                        Err(message) => errors.push(message),
                    }
                }
                if let Some((snapshot, name, raw)) = shared {
                    let others = !added.is_empty() || !errors.is_empty();
                    engine.open_shared(snapshot, SharedFrom::File(name.clone()), raw);
                    if others {
                        engine.dispatch.dispatch(Action::Notice(Some(format!(
                            "{name} is a shared snapshot and shows on its own: the other dropped items were left out."
                        ))));
                    }
                    return;
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
            let files = ingest::files_of(&list);
            // Clearing the value lets the same folder be chosen again after a change.
            input.set_value("");
            let run = engine.next_run();
            engine.dispatch.dispatch(Action::RunStarted(run));
            let engine = engine.clone();
            let current = current.clone();
            spawn_local(async move {
                let listed = engine.listing_progress(run);
                match ingest::folder_from_files(files, &listed).await {
                    Ok(source) => finish_adding(&engine, run, vec![source], Vec::new(), current),
                    Err(message) => finish_adding(&engine, run, Vec::new(), vec![message], current),
                }
            });
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
                match ingest::open_zip_file(file).await {
                    Ok(Opened::Source(source)) => {
                        finish_adding(&engine, run, vec![source], Vec::new(), current)
                    }
                    Ok(Opened::Shared(snapshot, name, raw)) => {
                        engine.open_shared(snapshot, SharedFrom::File(name), raw)
                    }
                    Err(message) => finish_adding(&engine, run, Vec::new(), vec![message], current),
                }
            });
        })
    };
    let on_claude_json_chosen = {
        let engine = engine.clone();
        let inputs = state.inputs.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            // Clearing the value lets the same file be chosen again after a change.
            input.set_value("");
            engine.dispatch.dispatch(Action::Notice(None));
            engine.set_claude_json(Some(file), inputs.clone());
        })
    };
    let remove_claude_json = {
        let engine = engine.clone();
        let inputs = state.inputs.clone();
        Callback::from(move |_: MouseEvent| engine.set_claude_json(None, inputs.clone()))
    };
    let add_claude_json = {
        let node = claude_json_input.clone();
        Callback::from(move |_: ()| {
            if let Some(input) = node.cast::<HtmlElement>() {
                input.click();
            }
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
        let modal_open = state.picker_open || sharing.is_some();
        let has_report = state.report.is_some();
        let dispatch = state.dispatcher();
        Callback::from(move |event: KeyboardEvent| {
            if event.ctrl_key() || event.meta_key() || event.alt_key() || modal_open {
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
                "r" if !read_only => {
                    event.prevent_default();
                    refresh.emit(());
                }
                "P" if event.shift_key() && !read_only => {
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
    // The address bar's fragment changed: a pasted share link opens; going back from a
    // link's read-only view to no link leaves it.
    let on_hash = {
        let engine = engine.clone();
        let from_link = state
            .shared
            .as_ref()
            .is_some_and(|s| s.from == SharedFrom::Link);
        Callback::from(move |_: ()| {
            let fragment = share::current_fragment();
            if share::fragment_has_link(&fragment) {
                engine.open_link(&fragment);
            } else if from_link {
                engine.start_fresh(false);
            }
        })
    };
    {
        let mut h = handlers.borrow_mut();
        h.on_key = on_key;
        h.on_drop = on_drop_event;
        h.on_hash = on_hash;
        let set = dragging.setter();
        // A read-only view takes no drops, so it shows no drop target either.
        h.on_drag = Callback::from(move |on: bool| set.set(on && !read_only));
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
            let hash = {
                let handlers = handlers.clone();
                Listener::new(&window, "hashchange", move |_| {
                    handlers.borrow().on_hash.emit(());
                })
            };
            move || drop((keys, over, leave, dropped, hash))
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
    let open_share = {
        let sharing = sharing.clone();
        Callback::from(move |_: MouseEvent| sharing.set(Some(share::now_iso())))
    };
    let close_share = {
        let sharing = sharing.clone();
        let share_button = share_button.clone();
        Callback::from(move |_: ()| {
            sharing.set(None);
            // Focus goes back where it was before the dialog opened.
            if let Some(button) = share_button.cast::<HtmlElement>() {
                let _ = button.focus();
            }
        })
    };
    let share_dialog = match (&*sharing, &state.report, &state.tree, &state.input) {
        (Some(made), Some(report), Some(tree), Some(input)) if !read_only => html! {
            <ShareDialog report={report.clone()} tree={tree.clone()} input={input.clone()}
                made={made.clone()} on_close={close_share} />
        },
        _ => Html::default(),
    };
    let can_share = state.report.is_some() && state.tree.is_some() && state.input.is_some();
    let approval = match (&state.report, &state.tree) {
        (Some(report), Some(tree)) => approval_hint(report, tree, read_only),
        _ => ApprovalHint::Nothing,
    };
    let start_fresh = {
        let engine = engine.clone();
        Callback::from(move |_: MouseEvent| engine.start_fresh(true))
    };

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
                if read_only {
                    <nav class="actions" aria-label="Shared snapshot">
                        <button onclick={on_download} disabled={state.report.is_none()} data-testid="download">{ "Download JSON" }</button>
                    </nav>
                } else {
                    <div class="source-controls">
                        <nav class="actions" aria-label="Sources">
                            <button class="primary" onclick={click(&folder_input)} data-testid="choose-folder">{ "Choose folder" }</button>
                            <button onclick={click(&zip_input)} data-testid="open-zip">{ "Open zip" }</button>
                            <button onclick={on_demo} data-testid="try-demo">{ "Try the demo" }</button>
                            <span class="sep" aria-hidden="true"></span>
                            <button onclick={refresh_click} disabled={!has_sources} title="Read the sources again (r)" data-testid="refresh">
                                { "Refresh" }<kbd>{ "r" }</kbd>
                            </button>
                            <button onclick={on_download} disabled={state.report.is_none()} data-testid="download">{ "Download JSON" }</button>
                            <button ref={share_button} onclick={open_share} disabled={!can_share} aria-haspopup="dialog"
                                title="Share a sanitized, read-only copy of this report as a link or a file" data-testid="share">
                                { "Share…" }
                            </button>
                            <input ref={folder_input} type="file" class="hidden-input" webkitdirectory=true multiple=true
                                data-testid="folder-input" aria-label="Choose a folder" onchange={on_folder_chosen} />
                            <input ref={zip_input} type="file" class="hidden-input" accept=".zip,application/zip"
                                data-testid="zip-input" aria-label="Open a zip" onchange={on_zip_chosen} />
                            <input ref={claude_json_input} type="file" class="hidden-input" accept=".json,application/json"
                                data-testid="claude-json-input" aria-label="Add ~/.claude.json" onchange={on_claude_json_chosen} />
                        </nav>
                        { claude_json_line(state.claude_json.as_ref(), &state.inputs, add_claude_json.reform(|_: MouseEvent| ()), remove_claude_json) }
                    </div>
                }
            </header>
            if let Some(view) = &state.shared {
                { shared_banner(view, start_fresh) }
            }
            <ContextBar inputs={state.inputs.clone()} sources={state.sources.clone()}
                on_change={on_inputs} on_project={on_project} on_pick={pick_click} read_only={read_only} />
            { status_line(&state, is_demo, dismiss) }
            if let Some(report) = state.report.clone() {
                <ReleasePanel report={report.clone()} on_select={on_select.clone()} />
                <FootprintBar footprint={report.footprint.clone()} unit={state.unit} on_unit={on_unit}
                    cost={Some(report.session.cost)} />
                <main class={classes!("workspace", state.busy.is_some().then_some("stale"))} data-testid="workspace">
                    <div class="tree-column" ref={filter_focus}>
                        <TreeView report={report.clone()} items={tree_items.clone()} cursor={state.cursor}
                            collapsed={state.collapsed.clone()} collapsed_rows={state.collapsed_rows.clone()}
                            filter={state.filter.clone()} on_select={on_select} on_key={on_nav}
                            on_toggle_group={on_toggle_group} on_toggle_row={on_toggle_row} on_filter={on_filter}
                            approval={approval} />
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
                                    focus_seq={state.focus_seq} on_tab={on_tab} on_open={on_open.clone()}
                                    approval={approval} on_add_claude_json={add_claude_json.clone()} />
                            }
                        </div>
                    </div>
                </main>
                <SummaryCards footprint={report.footprint.clone()} cost={report.session.cost} />
                <DiagnosticsList report={report.clone()} on_open={on_open} />
            } else if read_only {
                <main class="empty-state shared-waiting" data-testid="shared-waiting">
                    <p class="muted">
                        if state.busy.is_some() {
                            <span class="spinner" aria-hidden="true"></span>{ " Opening the shared snapshot…" }
                        } else {
                            { "The shared snapshot could not be analysed. Press Start fresh to open your own files." }
                        }
                    </p>
                </main>
            } else {
                { empty_state(state.busy.is_some()) }
            }
            <footer class="footnote">
                if read_only {
                    <p>{ "Keys: ↑ ↓ ← → and Enter in the tree · / filter · h file or health view." }</p>
                } else {
                    <p>
                        { "Keys: ↑ ↓ ← → and Enter in the tree · / filter · h file or health view · r refresh · Shift+P pick a project. " }
                        { "A zip is the fast path for a large ~/.claude: the browser lists every file of a dropped folder (transcripts too) before the page sees any, while a zip's list is one read. " }
                        <code>{ "cd ~ && zip -r claude.zip .claude -x '.claude/projects/*/*.jsonl'" }</code>
                    </p>
                }
            </footer>
            if *dragging && !read_only {
                <div class="drop-overlay" aria-hidden="true">
                    <div>{ "Drop your ~/.claude folder, a project folder or a .zip" }</div>
                </div>
            }
            { picker.unwrap_or_default() }
            { share_dialog }
        </div>
    }
}

/// The banner over a shared snapshot: what it is, when it was made, and the way out.
fn shared_banner(view: &SharedView, start_fresh: Callback<MouseEvent>) -> Html {
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
    engine.add_sources(run, added, current);
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
                if state.read_only() { <span class="badge shared">{ "shared" }</span>{ " " } }
                if !version.is_empty() && version != "current" {
                    <span class="badge warn" data-testid="simulated-version">{ format!("simulating Claude Code {version}") }</span>{ " " }
                }
                { format!("{} files from {} · {project} · {memory}", grouped(report.files.len() as u64), sources_text(state)) }
                if state.claude_json.is_some() && !state.read_only() {
                    <span data-testid="status-claude-json">{ format!(" · {} in use (its import approval only)", state.inputs.claude_json_place()) }</span>
                }
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

/// Saves the report as JSON through a Blob URL.
fn download_report(report: &Report) -> Result<(), JsValue> {
    let json =
        serde_json::to_string_pretty(report).map_err(|e| JsValue::from_str(&e.to_string()))?;
    let parts = Array::of1(&JsValue::from_str(&json));
    let options = BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    share::save_blob(&blob, "memdiag-report.json")
}
