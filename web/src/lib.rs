//! The browser page of the Claude Code Memory Diagnoser.
//!
//! A person drops a `~/.claude` folder (or a zip of it) and a project folder; the page runs
//! `memdiag-core` on them in the browser and draws its [`Report`]. Nothing is uploaded.
//!
//! - [`App`] is the layout: it makes the state and the engine hook, shares them through
//!   the [`Page`] context, and places the components.
//! - The crate is three rooms, each importing only those below it (`docs/ARCHITECTURE.md`,
//!   held by `tests/tests/architecture.rs`): [`page`], the `engine` and [`wire`].
//! - [`page::runs`] holds the sources and runs the analysis (in the analysis worker, through
//!   [`page::worker_host`]), reporting each step to the reducer; the page reaches it through
//!   one hook, [`page::runs::use_engine`].
//! - The page is two wasm modules. `memdiag-web` (`src/main.rs`, built without the `engine`
//!   feature) is what first paint loads: the page and the wire. `memdiag-engine`
//!   (`src/worker_main.rs`, with `engine`) is the worker: `engine::worker` answers the page's
//!   messages ([`wire::messages`] says what they hold), and the engine holds the analysis,
//!   zips, sanitizing, clean-up planning, the Markdown preview's layout and the demo's files.
//!   With `engine` on and no worker (the component tests), the page does all of it in place.
//! - [`page::ingest`] turns drops and inputs into sources ([`wire::sources`], which both
//!   sides hold); the engine's `ingest` reads zips, mounts the sources and runs the analysis
//!   loop, reading only the contents the core asks for.
//! - [`page::state`] holds the page state in its parts, the one reducer that changes it, and
//!   the pure rules behind it.
//! - [`page::components`] draw the report; they know nothing of files or the worker.
//! - [`page::share`] asks for the sanitized copy for the Share dialog and opens shared links
//!   and files, which the page then shows read-only.
//! - [`wire::pack`] is the compact form in which the page and the worker hand each other the
//!   report and every other value that is not a file (the page holds no serde or JSON
//!   reader).
//! - [`page::decimal`] writes figures with a fixed count of decimals exactly as `{:.N}`
//!   does, without the standard library's float formatting.
//! - [`page::browser`] wraps what the page asks of the browser (the clock, the address bar,
//!   downloads, the clipboard, listeners); every other page module reaches the browser
//!   through it ([`wire::js`] holds the helpers the worker uses too).
//! - [`wire::demo`] is the built-in snapshot.
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

use wasm_bindgen::JsCast;
use web_sys::{DragEvent, Element, EventTarget, HtmlElement, KeyboardEvent};
use yew::prelude::*;

// Three rooms, each importing only the ones below it: the page (the Yew app, its state and
// components, the browser's files, the worker's host), the engine (what runs in the worker),
// and the wire (the messages between the two and their packed form).
//
// The rooms are declared here rather than in `engine.rs`, `page.rs` and `wire.rs` so that the
// page's old `engine.rs` (now `page/runs.rs`) keeps its history.
#[cfg(feature = "engine")]
pub mod engine {
    //! The engine: what runs in the analysis worker (`memdiag-engine`, the `engine`
    //! feature). It answers the page's messages ([`worker`]) and makes clean-up plans in live
    //! folders ([`write`]). It imports the wire, never the page.

    pub mod cleanups;
    pub mod ingest;
    pub mod markdown;
    mod reply;
    pub mod share;
    pub mod worker;
    pub mod write;
}

pub mod page {
    //! The page: the Yew app's state and components, the sources the browser hands it
    //! (drops, inputs, live folders, the demo), and the page's side of the analysis worker.
    //! It may import the engine (in place, when the `engine` feature is on and there is no
    //! worker) and the wire; neither imports it.

    pub mod browser;
    pub mod cleanups;
    pub mod components;
    pub mod decimal;
    pub mod ingest;
    pub mod live;
    pub mod runs;
    pub mod share;
    pub mod state;
    pub mod worker_host;
}

pub mod wire {
    //! The wire: the messages between the page and the analysis worker ([`messages`]) and
    //! the packed form of every value that is not a file ([`pack`]). Both wasm modules
    //! compile it; it imports neither the page nor the engine.

    pub mod cleanups;
    pub mod demo;
    pub mod folders;
    pub mod inputs;
    pub mod js;
    pub mod markdown;
    pub mod messages;
    pub mod order;
    pub mod pack;
    pub mod share;
    pub mod sources;
}

use crate::page::runs::{use_engine, Engine};
use crate::page::{browser, components, share, state};
pub use crate::wire::order::sort_by;
pub(crate) use crate::wire::order::sorted_indices;
use browser::Listener;
use components::context_bar::{context_bar, ContextBarProps};
use components::diagnostics::DiagnosticsList;
use components::footprint::{
    contributors, later_loads, summary_cards, ContributorsProps, FootprintBar, LaterLoadsProps,
    SummaryCardsProps,
};
use components::picker::{choices, ProjectPicker};
use components::release::{release_panel, ReleasePanelProps};
use components::share_dialog::ShareDialog;
use components::status::{
    empty_state, guidance, input_banner, shared_banner, shared_waiting, status_line,
};
use components::topbar::TopBar;
use components::workspace::{use_workspace, workspace};
use state::{Action, SharedFrom, State};

/// Mounts the page into `#app` (or the body).
pub fn run() {
    match browser::document().get_element_by_id("app") {
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

/// What every component of the page may read: the state, and the engine to act on it.
///
/// Components take it with `use_context::<Page>()`; a change of state changes the context,
/// so they draw again.
#[derive(Clone, PartialEq)]
pub struct Page {
    /// The state and its one reducer.
    pub state: UseReducerHandle<State>,
    /// The engine that runs the analysis.
    pub engine: Engine,
}

impl Page {
    /// Dispatches one action to the reducer.
    pub fn dispatch(&self, action: Action) {
        self.state.dispatch(action);
    }

    /// A callback that dispatches the action `make` builds from its argument.
    pub fn callback<T: 'static>(&self, make: impl Fn(T) -> Action + 'static) -> Callback<T> {
        let dispatch = self.state.dispatcher();
        Callback::from(move |value: T| dispatch.dispatch(make(value)))
    }
}

/// The page: the state, the engine, the window's listeners, and the layout.
#[component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let engine = use_engine(state.dispatcher());
    let page = Page {
        state: state.clone(),
        engine: engine.clone(),
    };
    let dragging = use_state(|| false);
    let read_only = state.read_only();

    use_start(&engine);
    use_window_events(&page, dragging.setter());
    let workspace_memos = use_workspace(&page);
    // A shared snapshot opens at the top of the page, where its banner says what it is; the
    // tree scrolling its first selected row into view would otherwise move the page down.
    {
        let opened = state.sources.shared.clone();
        let shown = state.loaded.report.is_some();
        use_effect_with((opened, shown), |(opened, shown)| {
            if opened.is_some() && *shown {
                browser::scroll_to_top();
            }
        });
    }

    let busy = state.status.busy.is_some();
    html! {
        <ContextProvider<Page> context={page.clone()}>
            <div class={classes!("app", dragging.then_some("dragging"))} data-testid="app"
                data-busy={busy.to_string()}
                data-run={state.status.run.to_string()}
                data-ready={(!busy && state.loaded.report.is_some()).to_string()}>
                <TopBar />
                { input_banner(&page) }
                if state.sources.shared.is_some() {
                    { shared_banner(&page) }
                }
                // The verdict first: what is lost or broken is what a person came for.
                if let Some(report) = state.loaded.report.clone() {
                    { components::verdict::verdict(&report, &open_path(&state.dispatcher())) }
                }
                { context_bar(&ContextBarProps { inputs: state.sources.inputs.clone(), sources: state.sources.infos.clone(),
                    on_change: inputs_changed(&state, &engine), on_project: project_typed(&state, &engine),
                    on_pick: state.dispatcher().to_callback().reform(|_: ()| Action::SetPicker(true)), read_only,
                    on_remove: Some(source_removed(&state, &engine)) }) }
                { status_line(&page) }
                { guidance(&page) }
                if let Some(report) = state.loaded.report.clone() {
                    { release_panel(&ReleasePanelProps { report: report.clone(),
                        on_select: state.dispatcher().to_callback().reform(Action::Select) }) }
                    <FootprintBar footprint={report.footprint.clone()} unit={state.pane.unit}
                        on_unit={state.dispatcher().to_callback().reform(Action::SetUnit)}
                        cost={Some(report.session.cost)} sample={state.is_demo()}
                        on_group={state.dispatcher().to_callback().reform(|g| Action::Select(state::TreeItem::Group(g)))} />
                    { later_loads(&LaterLoadsProps { later: report.session.later, report: report.clone() }) }
                    { contributors(&ContributorsProps { report: report.clone(),
                        on_select: state.dispatcher().to_callback().reform(Action::Select) }) }
                    { workspace(&page, &workspace_memos) }
                    { summary_cards(&SummaryCardsProps { footprint: report.footprint.clone(), cost: report.session.cost, sample: state.is_demo() }) }
                    <DiagnosticsList report={report.clone()} on_open={open_path(&state.dispatcher())} />
                } else if read_only {
                    { shared_waiting(&page) }
                } else {
                    { empty_state(&page) }
                }
                { footer(read_only) }
                if *dragging && !read_only {
                    <div class="drop-overlay" aria-hidden="true">
                        <div>{ "Drop your ~/.claude folder, a project folder or a .zip" }</div>
                    </div>
                }
                { picker(&state, &engine) }
                { share_dialog(&state) }
                <components::cleanup::CleanupHost />
            </div>
        </ContextProvider<Page>>
    }
}

/// A callback that opens a file of the report at a line, as findings and the health view do.
pub fn open_path(dispatcher: &UseReducerDispatcher<State>) -> Callback<(String, Option<u64>)> {
    dispatcher
        .to_callback()
        .reform(|(path, line): (String, Option<u64>)| Action::SelectPath(path, line))
}

fn inputs_changed(state: &UseReducerHandle<State>, engine: &Engine) -> Callback<state::Inputs> {
    let engine = engine.clone();
    let scanned_at = state.status.scanned_at;
    Callback::from(move |inputs| engine.edit_inputs(inputs, scanned_at))
}

fn source_removed(state: &UseReducerHandle<State>, engine: &Engine) -> Callback<usize> {
    let engine = engine.clone();
    let inputs = state.sources.inputs.clone();
    Callback::from(move |index| engine.remove_source(index, inputs.clone()))
}

fn project_typed(state: &UseReducerHandle<State>, engine: &Engine) -> Callback<String> {
    let engine = engine.clone();
    let inputs = state.sources.inputs.clone();
    let scanned_at = state.status.scanned_at;
    Callback::from(move |project: String| {
        engine.switch_project(inputs.with_project(project.trim().to_owned()), scanned_at)
    })
}

/// The project picker, while it is open.
fn picker(state: &UseReducerHandle<State>, engine: &Engine) -> Html {
    if !state.dialogs.picker {
        return Html::default();
    }
    let folders = state
        .loaded
        .report
        .as_ref()
        .map(|r| r.memory_folders.clone())
        .unwrap_or_default();
    let inputs = &state.sources.inputs;
    let dropped = match (engine.project_name(), &inputs.project_mount) {
        (Some(name), Some(path)) => Some((name, path.clone())),
        (None, Some(path)) if state.is_demo() => Some(("of the demo".to_owned(), path.clone())),
        _ => None,
    };
    let list = choices(
        &folders,
        dropped.as_ref().map(|(n, p)| (n.as_str(), p.as_str())),
        inputs.project.trim(),
    );
    let on_pick = {
        let engine = engine.clone();
        let inputs = inputs.clone();
        let scanned_at = state.status.scanned_at;
        Callback::from(move |project: String| {
            let mut inputs = inputs.clone();
            inputs.project = project;
            engine.switch_project(inputs, scanned_at);
        })
    };
    let on_close = state
        .dispatcher()
        .to_callback()
        .reform(|_: ()| Action::SetPicker(false));
    html! { <ProjectPicker choices={list} on_pick={on_pick} on_close={on_close} /> }
}

/// The Share dialog, while it is open over the person's own files.
fn share_dialog(state: &UseReducerHandle<State>) -> Html {
    let loaded = &state.loaded;
    match (
        &state.dialogs.share,
        &loaded.report,
        &loaded.tree,
        &loaded.input,
    ) {
        (Some(made), Some(report), Some(tree), Some(input)) if !state.read_only() => {
            let dispatch = state.dispatcher();
            let on_close = Callback::from(move |_: ()| {
                dispatch.dispatch(Action::SetShare(None));
                // Focus goes back where it was before the dialog opened.
                browser::focus_test_id("share");
            });
            html! {
                <ShareDialog report={report.clone()} tree={tree.clone()} input={input.clone()}
                    made={made.clone()} on_close={on_close} job={loaded.job} />
            }
        }
        _ => Html::default(),
    }
}

fn footer(read_only: bool) -> Html {
    html! {
        <footer class="footnote">
            if read_only {
                <p class="keys-hint">{ "Keys: ↑ ↓ ← → and Enter in the tree · / filter · h file or health view." }</p>
            } else {
                <p>
                    <span class="keys-hint">{ "Keys: ↑ ↓ ← → and Enter in the tree · / filter · h file or health view · r refresh · Shift+P pick a project. " }</span>
                    { "A zip is the fast path for a large ~/.claude: the browser lists every file of a dropped folder (transcripts too) before the page sees any, while a zip's list is one read. " }
                    <code>{ "cd ~ && zip -r claude.zip .claude -x '.claude/projects/*/*.jsonl'" }</code>
                </p>
            }
        </footer>
    }
}

/// What the page opens with: a share link opens what it carries; anything else opens with
/// the demo, so a first visit shows a full report at once.
#[hook]
fn use_start(engine: &Engine) {
    let engine = engine.clone();
    use_effect_with((), move |_| {
        let fragment = browser::current_fragment();
        if share::fragment_has_link(&fragment) {
            engine.open_link(&fragment);
        } else if browser::wants_demo() {
            engine.load_demo(None);
        }
    });
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

/// Window-level listeners: keys work wherever focus is, drops work anywhere on the page, and
/// a share link pasted into the address bar opens.
#[hook]
fn use_window_events(page: &Page, dragging: UseStateSetter<bool>) {
    let handlers = use_mut_ref(WindowHandlers::default);
    let state = &page.state;
    let engine = &page.engine;
    let read_only = state.read_only();
    {
        let mut h = handlers.borrow_mut();
        h.on_key = page_keys(page);
        h.on_drop = {
            let engine = engine.clone();
            let current = state.sources.inputs.clone();
            Callback::from(move |event: DragEvent| {
                engine.drop_items(event, current.clone(), read_only)
            })
        };
        // The address bar's fragment changed: a pasted share link opens; going back from a
        // link's read-only view to no link leaves it.
        h.on_hash = {
            let engine = engine.clone();
            let from_link = state
                .sources
                .shared
                .as_ref()
                .is_some_and(|s| s.from == SharedFrom::Link);
            Callback::from(move |_: ()| {
                let fragment = browser::current_fragment();
                if share::fragment_has_link(&fragment) {
                    engine.open_link(&fragment);
                } else if from_link {
                    engine.start_fresh(false);
                }
            })
        };
        // A read-only view takes no drops, so it shows no drop target either.
        h.on_drag = Callback::from(move |on: bool| dragging.set(on && !read_only));
    }
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

/// The page's keys: `r` refreshes, Shift+P opens the picker, `h` switches the pane, `/`
/// goes to the filter. None acts while a dialog is open or the person types in a field.
fn page_keys(page: &Page) -> Callback<KeyboardEvent> {
    let state = page.state.clone();
    let engine = page.engine.clone();
    Callback::from(move |event: KeyboardEvent| {
        let modal_open = state.dialogs.any_open();
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
        let read_only = state.read_only();
        match event.key().as_str() {
            "r" if !read_only => {
                event.prevent_default();
                engine.refresh(state.sources.inputs.clone(), state.status.scanned_at);
            }
            "P" if event.shift_key() && !read_only => {
                event.prevent_default();
                state.dispatch(Action::SetPicker(true));
            }
            "h" if state.loaded.report.is_some() => {
                event.prevent_default();
                state.dispatch(Action::ToggleView);
            }
            "/" => {
                let input = browser::document()
                    .query_selector(".tree-column input[type=search]")
                    .ok()
                    .flatten()
                    .and_then(|e| e.dyn_into::<HtmlElement>().ok());
                if let Some(input) = input {
                    event.prevent_default();
                    let _ = input.focus();
                }
            }
            _ => {}
        }
    })
}
