//! The engine that runs the analysis: it holds the sources the person gave (the `File`
//! objects, the zip, a shared snapshot), starts runs in the analysis worker (or in place
//! where there is none) and reports every step to the page's reducer as an [`Action`].
//!
//! The page reaches it through one hook, [`use_engine`]; components get it from the
//! [`crate::Page`] context. Nothing here draws: the state it reports is drawn by the
//! components.

use std::cell::RefCell;
use std::rc::Rc;

use memdiag_core::report::Report;
use memdiag_core::SharedSnapshot;
use web_sys::{DragEvent, File, FileList, HtmlInputElement};
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::page::browser::{now_ms, yield_now};
use crate::page::ingest::{self, Opened, SharedRaw, SharedSource, Snapshot, Source};
use crate::page::state::{
    needs_rescan, Action, ClaudeJsonInfo, Inputs, Progress, RunReason, Shared, SharedFrom,
    SharedView, State,
};
use crate::page::worker_host::{Failure, Guess, Host, Remote};
use crate::wire::demo;

/// How many finished runs' analyses the engine keeps for asking the worker about.
const JOBS_KEPT: usize = 4;

/// The worker's analyses of the newest finished runs, each with its run id.
type Jobs = [Option<(u64, Remote)>; JOBS_KEPT];

/// The engine of one page, as [`use_engine`] makes it.
#[derive(Clone)]
pub struct Engine {
    snapshot: Rc<RefCell<Snapshot>>,
    runs: Rc<RefCell<u64>>,
    dispatch: UseReducerDispatcher<State>,
    /// The analysis worker; `None` where the page has none (the component tests), and the
    /// analysis runs in place.
    host: Option<Host>,
    /// Folders the page did not take yet (neither a `~/.claude` nor a project), until the
    /// person takes them as the project or dismisses the banner that names them.
    pending: Rc<RefCell<Vec<Source>>>,
    /// The analyses the worker sent for the newest finished runs, each in the slot of its
    /// run id modulo [`JOBS_KEPT`].
    jobs: Rc<RefCell<Jobs>>,
}

impl Engine {
    /// The analysis worker's host; `None` where the page has none (the component tests).
    pub fn host(&self) -> Option<Host> {
        self.host.clone()
    }

    /// The Markdown preview of `source` as the worker lays it out, in the wire's strings
    /// ([`crate::wire::markdown::from_wire`] reads them): `None` where there is no worker,
    /// else the ask, whose `Err` is a message (empty when it was cancelled).
    pub fn preview<'a>(
        &'a self,
        source: &'a str,
    ) -> Option<impl std::future::Future<Output = Result<Vec<String>, String>> + 'a> {
        self.host.as_ref().map(|host| host.preview(source))
    }

    /// The Markdown preview of `source` laid out in the page itself, in the wire's strings:
    /// with the engine (no worker, the component tests), the worker's own layout; without
    /// it, `None` until the worker answers [`Engine::preview`].
    pub fn preview_here(source: &str) -> Option<Vec<String>> {
        #[cfg(feature = "engine")]
        return Some(crate::wire::markdown::to_wire(
            &crate::engine::markdown::layout(source),
        ));
        #[cfg(not(feature = "engine"))]
        {
            let _ = source;
            None
        }
    }

    /// The analysis of the run `job` as the worker sent it, to ask the worker about it;
    /// `None` where the page analysed in place (or the job is no longer kept).
    pub fn remote(&self, job: Option<u64>) -> Option<Remote> {
        let job = job?;
        let jobs = self.jobs.borrow();
        match &jobs[job as usize % JOBS_KEPT] {
            Some((run, remote)) if *run == job => Some(remote.clone()),
            _ => None,
        }
    }

    /// The Choose folder button's click: opens a live folder where the browser can, and
    /// clicks `fallback` (the folder input) where it cannot.
    pub fn choose_folder(
        &self,
        fallback: Callback<web_sys::MouseEvent>,
        inputs: Inputs,
    ) -> Callback<web_sys::MouseEvent> {
        // Where the page can open folders live (or a test put its own picker in), the folder
        // picker, and the folder added as a live source; elsewhere `fallback`, the folder input.
        let engine = self.clone();
        Callback::from(move |event: web_sys::MouseEvent| {
            if let Some(picker) = crate::page::live::test_picker() {
                if let Some(dir) = picker() {
                    engine.add_live(dir, inputs.clone());
                }
                return;
            }
            if !crate::page::live::supported() {
                fallback.emit(event);
                return;
            }
            let (engine, inputs) = (engine.clone(), inputs.clone());
            yew::platform::spawn_local(async move {
                match crate::page::live::pick_folder().await {
                    Ok(Some(dir)) => engine.add_live(dir, inputs),
                    Ok(None) => {}
                    Err(message) => {
                        engine.notice(format!("The folder could not be opened: {message}"))
                    }
                }
            });
        })
    }

    /// The Choose folder button's tooltip: what live folders do, or why this browser has none.
    pub fn choose_folder_title() -> &'static str {
        crate::page::live::choose_folder_title()
    }

    /// Reports how many entries a listing has reached, as progress of `run`.
    pub fn listing_progress(&self, run: u64) -> impl Fn(u64) + 'static {
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

    /// A new run id; results of earlier runs are dropped when they land.
    pub fn next_run(&self) -> u64 {
        let mut runs = self.runs.borrow_mut();
        *runs += 1;
        *runs
    }

    /// Runs the analysis with `inputs`, first listing the sources again if `reason` asks.
    ///
    /// A shared snapshot is analysed as it is: only the simulated version of `inputs` counts.
    pub fn launch(&self, inputs: Inputs, reason: RunReason, scanned_at: Option<f64>) {
        self.start(inputs, reason, scanned_at, None);
    }

    /// [`Engine::launch`]; after sources were `added`, the host facts are guessed from the
    /// sources first (all but the simulated release of `inputs`), in the worker's job where
    /// there is one.
    fn start(
        &self,
        inputs: Inputs,
        reason: RunReason,
        scanned_at: Option<f64>,
        added: Option<NewSources>,
    ) {
        let run = self.next_run();
        self.dispatch.dispatch(Action::RunStarted(run));
        let engine = self.clone();
        let shared = self.snapshot.borrow().shared.clone();
        if let Some(shared) = shared {
            spawn_local(async move {
                if let Some(host) = engine.host.clone() {
                    let version = inputs.version.clone();
                    match host.shared(&shared.raw, version.clone()).await {
                        Ok((report, missing, wire)) => {
                            let mut tree = shared.snapshot.tree.clone();
                            for path in missing {
                                if let Ok(path) = memdiag_core::VPath::new(&path) {
                                    tree.set_contents(
                                        &path,
                                        Err(crate::wire::messages::NOT_SHARED.to_owned()),
                                    );
                                }
                            }
                            let input = memdiag_core::Input {
                                version,
                                ..shared.snapshot.input.clone()
                            };
                            let remote = Remote::new(host, wire);
                            engine.finished(run, report, tree, input, Some(remote));
                        }
                        Err(failure) => engine.failed(run, &failure),
                    }
                    return;
                }
                // One turn of the event loop first, so the page paints that it is working.
                yield_now().await;
                #[cfg(feature = "engine")]
                match crate::engine::ingest::analyze_shared(&shared.snapshot, inputs.version) {
                    Ok((report, tree, input)) => engine.finished(run, report, tree, input, None),
                    Err(message) => engine.dispatch.dispatch(Action::RunFailed(run, message)),
                }
                #[cfg(not(feature = "engine"))]
                engine.dispatch.dispatch(Action::RunFailed(
                    run,
                    crate::page::worker_host::NO_WORKER.to_owned(),
                ));
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
                let today = crate::page::browser::today();
                let guessed = Rc::new(std::cell::Cell::new(false));
                let guess = added.as_ref().map(|added| {
                    let from = engine.snapshot.borrow().sources.clone();
                    let (engine, guessed) = (engine.clone(), Rc::clone(&guessed));
                    Guess {
                        from,
                        fallback: added.fallback.clone(),
                        heard: Rc::new(move |inputs| {
                            guessed.set(true);
                            engine.sources_changed(inputs);
                        }),
                    }
                });
                match host
                    .run(sources.clone(), &inputs, guess.as_ref(), &today, progress)
                    .await
                {
                    Ok((inputs, report, tree, wire)) => {
                        // The worker's tree holds what the file view and sharing read.
                        let input = crate::wire::inputs::run_input(&inputs, &today);
                        let remote = Remote::new(host, wire);
                        engine.finished(run, report, tree, input, Some(remote));
                    }
                    Err(failure) => {
                        // The guess failed on a folder name: back to the sources before.
                        if let Some(added) = added.filter(|_| !guessed.get()) {
                            if failure != Failure::Cancelled {
                                engine.snapshot.borrow_mut().sources = added.before;
                            }
                        }
                        engine.failed(run, &failure);
                    }
                }
                return;
            }
            // Without a worker the page guesses itself (the component tests, with the engine).
            #[cfg(feature = "engine")]
            let inputs = match &added {
                Some(added) => {
                    let guessed = Inputs {
                        version: inputs.version,
                        add_dirs: inputs.add_dirs,
                        ..engine.snapshot.borrow().infer_inputs(&added.fallback)
                    };
                    engine.sources_changed(guessed.clone());
                    guessed
                }
                None => inputs,
            };
            #[cfg(feature = "engine")]
            match crate::engine::ingest::run_analysis(sources, inputs, progress).await {
                Ok((report, tree, input)) => engine.finished(run, report, tree, input, None),
                Err(message) => engine.dispatch.dispatch(Action::RunFailed(run, message)),
            }
            #[cfg(not(feature = "engine"))]
            {
                let _ = (sources, progress);
                engine.dispatch.dispatch(Action::RunFailed(
                    run,
                    crate::page::worker_host::NO_WORKER.to_owned(),
                ));
            }
        });
    }

    fn finished(
        &self,
        run: u64,
        report: Report,
        tree: memdiag_core::Tree,
        input: memdiag_core::Input,
        remote: Option<Remote>,
    ) {
        // The state holds the run's id; the analysis the worker sent stays here, the newest
        // few kept (a report still shown may be older than the newest run that finished).
        let job = remote.map(|remote| {
            // Run ids count up by one, so the newest runs each have a slot of their own.
            self.jobs.borrow_mut()[run as usize % JOBS_KEPT] = Some((run, remote));
            run
        });
        self.dispatch.dispatch(Action::RunFinished {
            run,
            report: Shared::new(report),
            tree: Shared::new(tree),
            input: Shared::new(input),
            job,
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
            match ingest::reread(&source, &listed, self.host.as_ref()).await {
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
    /// The guess reads the dropped folder names, so with a worker it runs there, and the run
    /// follows it in the same job ([`Host::run`]): should the core fail on a name, the page
    /// says so and goes back to the sources it had.
    pub fn add_sources(&self, added: Vec<Source>, current: Inputs) {
        let was_demo = self.snapshot.borrow().is_demo();
        let before = self.snapshot.borrow().sources.clone();
        {
            let mut snapshot = self.snapshot.borrow_mut();
            for source in added {
                snapshot.add(source);
            }
        }
        // The live folders open now are the ones a next visit offers to reopen.
        let live: Vec<Rc<dyn crate::page::live::Dir>> = (self.snapshot.borrow().sources.iter())
            .filter_map(|s| match &s.origin {
                ingest::Origin::Live(root) => Some(root.dir.clone()),
                _ => None,
            })
            .collect();
        if !live.is_empty() {
            crate::page::live::keep_folders(&live);
        }
        let home = if was_demo {
            Inputs::default().home
        } else {
            current.home.clone()
        };
        let added = NewSources {
            fallback: home,
            before,
        };
        self.start(current, RunReason::NewSources, None, Some(added));
    }

    /// Shows the sources as they are now, with the host facts guessed for them.
    fn sources_changed(&self, inputs: Inputs) {
        let infos = self.snapshot.borrow().infos();
        self.dispatch
            .dispatch(Action::SourcesChanged(infos, inputs));
    }

    /// Adds the chosen `~/.claude.json` in place of any added before (`None` removes it), and
    /// runs again with `inputs` when there is something to analyse. Nothing of the file is
    /// read here: the run reads it only if the analysis asks.
    pub fn set_claude_json(&self, file: Option<File>, inputs: Inputs) {
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
    pub fn load_demo(&self, version: Option<String>) -> bool {
        let Some(demo) = demo::source() else {
            return false;
        };
        let ingest::Origin::Demo { inputs, .. } = &demo.origin else {
            return false;
        };
        let inputs = Inputs {
            version,
            ..inputs.clone()
        };
        self.snapshot.borrow_mut().set_demo(demo);
        let infos = self.snapshot.borrow().infos();
        self.dispatch
            .dispatch(Action::SourcesChanged(infos, inputs.clone()));
        self.launch(inputs, RunReason::NewSources, None);
        true
    }

    /// Shows a shared snapshot, read-only, in place of whatever was shown.
    pub fn open_shared(&self, snapshot: SharedSnapshot, from: SharedFrom, raw: SharedRaw) {
        if matches!(from, SharedFrom::File(_)) {
            // What shows is the file, not whatever link the address bar may still hold.
            crate::page::browser::clear_fragment();
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
    ///
    /// The worker decodes it (the page's own wasm has no decoder); where there is no worker
    /// (the component tests), the page does.
    pub fn open_link(&self, fragment: &str) {
        let raw = SharedRaw::Link(fragment.to_owned());
        let Some(host) = self.host.clone() else {
            let opened = open_link_here(&raw);
            return self.link_opened(opened, raw);
        };
        let engine = self.clone();
        spawn_local(async move {
            let opened = host.open_shared(&raw).await;
            engine.link_opened(opened, raw);
        });
    }

    fn link_opened(&self, opened: Result<SharedSnapshot, String>, raw: SharedRaw) {
        match opened {
            Ok(snapshot) => self.open_shared(snapshot, SharedFrom::Link, raw),
            Err(message) => {
                self.start_fresh(false);
                self.dispatch.dispatch(Action::Error(Some(message)));
            }
        }
    }

    /// Forgets everything shown and returns to the empty page; `clear_link` also removes a
    /// share link from the address bar, so that reloading does not open it again.
    pub fn start_fresh(&self, clear_link: bool) {
        self.snapshot.borrow_mut().clear();
        self.pending.borrow_mut().clear();
        let run = self.next_run();
        self.dispatch.dispatch(Action::Reset(run));
        if clear_link {
            crate::page::browser::clear_fragment();
        }
    }
}
impl PartialEq for Engine {
    fn eq(&self, other: &Engine) -> bool {
        Rc::ptr_eq(&self.snapshot, &other.snapshot)
    }
}

/// The page's engine: made once, reporting to `dispatch`.
#[hook]
pub fn use_engine(dispatch: UseReducerDispatcher<State>) -> Engine {
    let snapshot = use_mut_ref(Snapshot::default);
    let runs = use_mut_ref(|| 0u64);
    let host = use_memo((), |_| Host::from_page());
    let pending = use_mut_ref(Vec::new);
    let jobs = use_mut_ref(Default::default);
    Engine {
        jobs,
        snapshot,
        runs,
        dispatch,
        host: (*host).clone(),
        pending,
    }
}

impl Engine {
    /// The sources a run analyses, for a clean-up to find where its files live.
    pub fn sources(&self) -> Vec<Rc<Source>> {
        self.snapshot.borrow().run_sources()
    }

    /// Adds a live folder: one the folder picker opened, or a drop that gave a folder
    /// handle. The page walks it itself ([`crate::page::live::open`]).
    pub fn add_live(&self, dir: Rc<dyn crate::page::live::Dir>, current: Inputs) {
        self.add_live_all(vec![dir], current);
    }

    /// The live folders opened last time (Chromium), kept in this browser: their handles
    /// (which stay in JavaScript) and their names, for the offer to reopen them.
    pub async fn kept_folders() -> (js_sys::Array, Vec<String>) {
        crate::page::live::kept_folders().await
    }

    /// Forgets the live folders kept for the next visit.
    pub fn forget_folders() {
        crate::page::live::keep_folders(&[]);
    }

    /// Asks permission again (on a click) for the folders kept last time and adds the ones
    /// granted; says so when none was, and returns whether any was.
    pub async fn reopen(&self, handles: &js_sys::Array, current: Inputs) -> bool {
        let dirs = crate::page::live::reopen_folders(handles).await;
        if dirs.is_empty() {
            self.notice(
                "The browser did not allow reading those folders again: choose them with Choose folder."
                    .to_owned(),
            );
            return false;
        }
        self.add_live_all(dirs, current);
        true
    }

    /// Adds live folders one after the other, and analyses once: the folders opened last
    /// time, reopened.
    pub fn add_live_all(&self, dirs: Vec<Rc<dyn crate::page::live::Dir>>, current: Inputs) {
        let run = self.next_run();
        self.dispatch.dispatch(Action::RunStarted(run));
        let engine = self.clone();
        spawn_local(async move {
            let listed = engine.listing_progress(run);
            let (mut added, mut errors) = (Vec::new(), Vec::new());
            for dir in dirs {
                match crate::page::live::open(dir, &listed).await {
                    Ok(source) => added.push(source),
                    Err(message) => errors.push(message),
                }
            }
            finish_adding(&engine, run, added, errors, current);
        });
    }

    /// Takes the folders the banner names as the project after all, and runs.
    pub fn take_pending(&self, current: Inputs) {
        let added: Vec<Source> = self.pending.borrow_mut().drain(..).collect();
        self.dispatch.dispatch(Action::DismissRefusal);
        if added.is_empty() {
            return;
        }
        self.add_sources(added, current);
    }

    /// Forgets the folders the banner names, keeping what is shown.
    pub fn dismiss_pending(&self) {
        self.pending.borrow_mut().clear();
        self.dispatch.dispatch(Action::DismissRefusal);
    }

    /// Shows a notice for a person.
    pub fn notice(&self, text: String) {
        self.dispatch.dispatch(Action::Notice(Some(text)));
    }

    /// True when the page holds sources to analyse.
    pub fn has_sources(&self) -> bool {
        !self.snapshot.borrow().sources.is_empty()
    }

    /// The dropped project folder's name, if one was dropped.
    pub fn project_name(&self) -> Option<String> {
        self.snapshot.borrow().project_name().map(str::to_owned)
    }

    /// Reads the sources again and runs, as the Refresh button and `r` do.
    pub fn refresh(&self, inputs: Inputs, scanned_at: Option<f64>) {
        if !self.has_sources() {
            return;
        }
        self.dispatch.dispatch(Action::Notice(None));
        self.launch(inputs, RunReason::Refresh, scanned_at);
    }

    /// Runs with the fields as the person edited them.
    pub fn edit_inputs(&self, inputs: Inputs, scanned_at: Option<f64>) {
        self.dispatch.dispatch(Action::SetInputs(inputs.clone()));
        self.launch(inputs, RunReason::InputEdit, scanned_at);
    }

    /// Runs again asking what a Read of `path` attaches (absolute, or relative to the
    /// project), with the files already read: the Reads view's question.
    pub fn ask_read(&self, inputs: &Inputs, path: String) {
        let mut inputs = inputs.clone();
        inputs.reads = vec![path];
        self.dispatch.dispatch(Action::SetInputs(inputs.clone()));
        self.launch(inputs, RunReason::Read, None);
    }

    /// Every listed file below the project, for the Reads view to offer; empty without a
    /// project or in a shared snapshot, which holds only the files its report lists.
    pub fn project_files(&self, inputs: &Inputs) -> Vec<String> {
        let snapshot = self.snapshot.borrow();
        if snapshot.shared.is_some() {
            return Vec::new();
        }
        ingest::files_below(&snapshot.sources, inputs, &inputs.project)
    }

    /// Runs with another project, closing the picker.
    pub fn switch_project(&self, inputs: Inputs, scanned_at: Option<f64>) {
        self.dispatch.dispatch(Action::SetInputs(inputs.clone()));
        self.dispatch.dispatch(Action::SetPicker(false));
        self.launch(inputs, RunReason::ProjectSwitch, scanned_at);
    }

    /// Takes what was dropped on the page: sources to add, or a shared snapshot to show.
    pub fn drop_items(&self, event: DragEvent, current: Inputs, read_only: bool) {
        if read_only {
            self.dispatch.dispatch(Action::Notice(Some(
                "This is a shared snapshot, read-only: nothing can be added to it. Press Start fresh to open your own files.".to_owned(),
            )));
            return;
        }
        let Some(transfer) = event.data_transfer() else {
            return;
        };
        let items = ingest::dropped_items(&transfer);
        if items.is_empty() {
            self.dispatch.dispatch(Action::Error(Some(
                "That drop held no files. Drop a folder or a .zip.".to_owned(),
            )));
            return;
        }
        let engine = self.clone();
        spawn_local(async move {
            let run = engine.next_run();
            engine.dispatch.dispatch(Action::RunStarted(run));
            let mut added = Vec::new();
            let mut errors = Vec::new();
            let mut shared = None;
            for item in items {
                let listed = engine.listing_progress(run);
                // A folder whose handle the browser gave is opened live: walked by the page.
                let opened = match ingest::from_drop(&item, &listed).await {
                    Some(result) => result.map(Opened::Source),
                    None => ingest::open_dropped(item, &listed, engine.host.as_ref()).await,
                };
                match opened {
                    Ok(Opened::Source(source)) => added.push(source),
                    Ok(Opened::Shared(snapshot, name, raw)) => {
                        shared.get_or_insert((snapshot, name, raw));
                    }
                    Err(message) => errors.push(message),
                }
            }
            if let Some((snapshot, name, raw)) = shared {
                let others = !added.is_empty() || !errors.is_empty();
                engine.open_shared(*snapshot, SharedFrom::File(name.clone()), raw);
                if others {
                    engine.dispatch.dispatch(Action::Notice(Some(format!(
                        "{name} is a shared snapshot and shows on its own: the other dropped items were left out."
                    ))));
                }
                return;
            }
            finish_adding(&engine, run, added, errors, current);
        });
    }

    /// Removes the source at `index` (in the order the page lists them) and runs again with
    /// what is left; removing the last one empties the page.
    pub fn remove_source(&self, index: usize, current: Inputs) {
        {
            let mut snapshot = self.snapshot.borrow_mut();
            if index >= snapshot.sources.len() {
                return;
            }
            snapshot.sources.remove(index);
        }
        if !self.has_sources() {
            self.start_fresh(false);
            return;
        }
        self.add_sources(Vec::new(), current);
    }

    /// Adds the folder the folder input gave, then empties the input so that choosing the same
    /// folder again fires `change`.
    pub fn add_folder(&self, input: HtmlInputElement, files: FileList, current: Inputs) {
        let run = self.next_run();
        self.dispatch.dispatch(Action::RunStarted(run));
        let engine = self.clone();
        spawn_local(async move {
            let listed = engine.listing_progress(run);
            let listing = ingest::folder_from_files(&files, &listed).await;
            ingest::clear_chosen(&input, &files);
            match listing {
                Ok(source) => finish_adding(&engine, run, vec![source], Vec::new(), current),
                Err(message) => finish_adding(&engine, run, Vec::new(), vec![message], current),
            }
        });
    }

    /// Adds the zip the zip input gave, or shows it when it is a shared snapshot.
    pub fn add_zip(&self, file: File, current: Inputs) {
        let engine = self.clone();
        spawn_local(async move {
            let run = engine.next_run();
            engine.dispatch.dispatch(Action::RunStarted(run));
            match ingest::open_zip_file(file, engine.host.as_ref()).await {
                Ok(Opened::Source(source)) => {
                    finish_adding(&engine, run, vec![source], Vec::new(), current)
                }
                Ok(Opened::Shared(snapshot, name, raw)) => {
                    engine.open_shared(*snapshot, SharedFrom::File(name), raw)
                }
                Err(message) => finish_adding(&engine, run, Vec::new(), vec![message], current),
            }
        });
    }
}

/// A run after sources were added: its host facts are guessed first.
struct NewSources {
    /// The home when no source tells one.
    fallback: String,
    /// The sources before, taken back when the guess fails.
    before: Vec<Rc<Source>>,
}

/// Decodes a link in the page itself, where there is no worker.
#[cfg(feature = "engine")]
fn open_link_here(raw: &SharedRaw) -> Result<SharedSnapshot, String> {
    match raw {
        SharedRaw::Link(link) => memdiag_core::decode_link(link)
            .map_err(|error| crate::page::share::open_error("link", &error)),
        SharedRaw::Zip(_) => Err("not a link".to_owned()),
    }
}

#[cfg(not(feature = "engine"))]
fn open_link_here(_: &SharedRaw) -> Result<SharedSnapshot, String> {
    Err(crate::page::worker_host::NO_WORKER.to_owned())
}

/// What the page expects to be given, for the banner that says it got something else.
const EXPECTED: &str = "a ~/.claude folder (CLAUDE.md, settings.json, projects/…), a home folder holding .claude, a project folder (its CLAUDE.md, .claude/, .git or package manifest), or a zip of one of these.";

/// Adds the sources a drop or an input produced, or says in a banner why some or none were
/// taken: a folder or zip with no file in it, one that could not be opened, and a folder
/// that is neither a `~/.claude` nor a project, which waits until the person takes it as the
/// project anyway or dismisses it. What is shown stays meanwhile.
fn finish_adding(
    engine: &Engine,
    run: u64,
    added: Vec<Source>,
    errors: Vec<String>,
    current: Inputs,
) {
    engine.pending.borrow_mut().clear();
    engine.dispatch.dispatch(Action::DismissRefusal);
    let mut found = errors;
    let mut taken = Vec::new();
    let mut unrelated = Vec::new();
    for source in added {
        let files = source.info().files;
        if files == 0 {
            found.push(format!("“{}” holds no files.", source.name));
        } else if source.looks_unrelated() {
            found.push(format!(
                "“{}” holds {} but nothing of a ~/.claude or a project: no CLAUDE.md, no .claude folder, no .git, no package manifest.",
                source.name,
                if files == 1 { "1 file".to_owned() } else { format!("{} files", crate::page::state::grouped(files as u64)) }
            ));
            unrelated.push(source);
        } else {
            taken.push(source);
        }
    }
    let refusal = (!found.is_empty()).then(|| crate::page::state::Refusal {
        found: found.join(" "),
        expected: EXPECTED.to_owned(),
        can_take: !unrelated.is_empty(),
    });
    *engine.pending.borrow_mut() = unrelated;
    if taken.is_empty() {
        let refusal = refusal.unwrap_or_else(|| crate::page::state::Refusal {
            found: "Nothing was added.".to_owned(),
            expected: EXPECTED.to_owned(),
            can_take: false,
        });
        engine.dispatch.dispatch(Action::Refused(run, refusal));
        return;
    }
    if let Some(refusal) = refusal {
        // The rest is taken: the banner names only what was left out (no run ends here).
        engine.dispatch.dispatch(Action::Refused(0, refusal));
    }
    engine.add_sources(taken, current);
}
