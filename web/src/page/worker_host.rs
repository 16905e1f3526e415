//! The page's side of the analysis worker ([`crate::engine::worker`]): starts it, gives it each
//! source's listing once, answers its reads from the page's sources, and turns its answers
//! (or its death) into results.
//!
//! One job runs at a time. A new job while one runs ends the worker (the old job answers
//! [`Failure::Cancelled`]) and starts a fresh one, so a second drop never waits for the
//! first. A panic in the core ends only the worker: the job answers
//! [`Failure::Crashed`] with the panic's text, and the next job starts a new worker.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::{Rc, Weak};

use js_sys::{Array, Promise, Uint32Array, Uint8Array};
use memdiag_core::report::Report;
use memdiag_core::Tree;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ErrorEvent, File, MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::wire::inputs::{Inputs, Progress};
use crate::wire::messages::{
    get, inputs_from, inputs_message, kind_of, number, object, snapshot_from, source_from_message,
    source_message, text, tree_from, ToPage, ToWorker,
};
use crate::wire::sources::{Opened, SharedRaw, Source};

/// What the page says when it has no analysis worker and no engine of its own.
pub const NO_WORKER: &str = "The analysis worker could not start in this browser, so nothing can be analysed here. Try a current Chrome, Edge, Firefox or Safari.";

/// A finished analysis as the worker sent it. The page hands it back as it came when the
/// worker is to sanitize it for sharing or plan a clean-up of it, so that the page never
/// encodes a report or a tree itself.
pub struct Wire {
    /// The report [`crate::wire::pack`]ed: what the page reads, and hands back to the worker.
    pub report: JsValue,
    /// The `tree_*` fields of the answer (see [`crate::wire::messages::tree_from`]).
    pub tree: JsValue,
    /// The clean-ups each memory folder offers, [`crate::wire::pack`]ed (see [`crate::page::cleanups`]).
    pub cleanups: JsValue,
    /// The sizes and dates the tree's fields lack until the worker is first asked about the
    /// analysis.
    sizes: RefCell<Sizes>,
}

/// Where the sizes and dates of a [`Wire`]'s tree stand.
enum Sizes {
    /// Not looked up yet: the sources the analysis read, and the files of the tree
    /// (`tree_unstatted`: place among the tree's files, source id, file index).
    Pending(Vec<Rc<Source>>, Vec<u32>),
    /// Being looked up, or looked up: the promise that resolves when done, for every
    /// question to wait on.
    Filling(Promise),
    /// Nothing to look up.
    Known,
}

impl Wire {
    /// The analysis the worker's `done` message describes, made from `sources`.
    fn from_answer(answer: &JsValue, sources: Vec<Rc<Source>>) -> Wire {
        let unstatted = get(answer, "tree_unstatted")
            .dyn_into::<Uint32Array>()
            .map(|places| places.to_vec())
            .unwrap_or_default();
        Wire {
            report: get(answer, "report_packed"),
            tree: answer.clone(),
            cleanups: get(answer, "cleanups"),
            sizes: RefCell::new(if unstatted.is_empty() {
                Sizes::Known
            } else {
                Sizes::Pending(sources, unstatted)
            }),
        }
    }

    /// Looks up the sizes and dates the tree lacks (a shared copy keeps them) and writes them
    /// into its fields: started by the first question about the analysis, which waits for
    /// them, as every later one does; the report did not.
    async fn sizes_known(wire: &Rc<Wire>) {
        let filling = {
            let mut sizes = wire.sizes.borrow_mut();
            match std::mem::replace(&mut *sizes, Sizes::Known) {
                Sizes::Pending(sources, places) => {
                    let wire = Rc::clone(wire);
                    let promise = wasm_bindgen_futures::future_to_promise(async move {
                        wire.fill_sizes(&sources, &places).await;
                        Ok(JsValue::UNDEFINED)
                    });
                    *sizes = Sizes::Filling(promise.clone());
                    Some(promise)
                }
                Sizes::Filling(promise) => {
                    *sizes = Sizes::Filling(promise.clone());
                    Some(promise)
                }
                Sizes::Known => None,
            }
        };
        if let Some(promise) = filling {
            let _ = JsFuture::from(promise).await;
        }
    }

    async fn fill_sizes(&self, sources: &[Rc<Source>], places: &[u32]) {
        let Ok(sizes) = get(&self.tree, "tree_sizes").dyn_into::<js_sys::Float64Array>() else {
            return;
        };
        let modified = text(&self.tree, "tree_modified");
        let mut dates: Vec<&str> = modified.split('\0').collect();
        let mut looked_up = Vec::new();
        for place in places.chunks_exact(3) {
            let (n, id, index) = (place[0], place[1], place[2] as usize);
            if let Some(source) = sources.iter().find(|s| s.id() == id) {
                looked_up.push((n, source.stat(index).await));
            }
        }
        for (n, (size, date)) in &looked_up {
            sizes.set_index(*n, *size as f64);
            if let Some(slot) = dates.get_mut(*n as usize) {
                *slot = date.as_deref().unwrap_or("");
            }
        }
        let _ = js_sys::Reflect::set(
            &self.tree,
            &"tree_modified".into(),
            &dates.join("\0").into(),
        );
    }
}

thread_local! {
    /// Time spent posting listings to the worker since the last run ended, for the page
    /// benchmark.
    static POST_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// What a run guesses its host facts from ([`Host::run`]).
pub struct Guess {
    /// The dropped folders and zips (not an added `~/.claude.json`).
    pub from: Vec<Rc<Source>>,
    /// The home when no source tells one.
    pub fallback: String,
    /// Hears the guess.
    pub heard: Rc<dyn Fn(Inputs)>,
}

/// Why a job gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A newer job replaced it.
    Cancelled,
    /// The worker died: a panic in the core, or the wasm ran out of stack or memory.
    Crashed(String),
    /// The analysis answered with a message for a person.
    Message(String),
}

impl Failure {
    /// The message the page shows, or `None` for a cancelled job (a newer one shows).
    pub fn message(&self) -> Option<String> {
        match self {
            Failure::Cancelled => None,
            Failure::Crashed(detail) => Some(format!(
                "The analysis failed on this input: {detail}. The page is still usable: what it showed before is kept, and you can drop another folder or zip."
            )),
            Failure::Message(message) => Some(message.clone()),
        }
    }
}

/// A finished analysis that the worker can be asked about (to share it, to plan a clean-up
/// of it): the worker's host and the analysis as the worker sent it.
#[derive(Clone)]
pub struct Remote {
    host: Host,
    wire: Rc<Wire>,
}

impl Remote {
    /// The analysis `wire` that `host` sent.
    pub fn new(host: Host, wire: Wire) -> Remote {
        Remote {
            host,
            wire: Rc::new(wire),
        }
    }

    /// The report as pretty-printed JSON, for Download JSON: the worker writes it when asked,
    /// not with every report (it was a share of every run's time for a button few press).
    /// Asked beside any running analysis, never cancelling it.
    ///
    /// # Errors
    /// When the worker dies or cannot read the report back.
    pub async fn report_json(&self) -> Result<String, Failure> {
        let answer = self
            .host
            .aside(
                ToWorker::ReportJson,
                vec![("report", self.wire.report.clone())],
            )
            .await?;
        match get(&answer, "json").as_string() {
            Some(json) => Ok(json),
            None => Err(Failure::Message(text(&answer, "message"))),
        }
    }

    /// The clean-ups as the worker sent them ([`crate::wire::pack`]ed).
    pub fn cleanups(&self) -> &JsValue {
        &self.wire.cleanups
    }

    /// Asks the worker `kind` about this analysis, with `fields`.
    ///
    /// # Errors
    /// A message for a person when the worker cannot answer.
    pub async fn ask(
        &self,
        kind: ToWorker,
        fields: Vec<(&str, JsValue)>,
    ) -> Result<JsValue, String> {
        Wire::sizes_known(&self.wire).await;
        self.host.ask(kind, &self.wire, fields).await
    }
}

impl PartialEq for Remote {
    fn eq(&self, other: &Remote) -> bool {
        Rc::ptr_eq(&self.wire, &other.wire)
    }
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Remote(..)")
    }
}

/// Runs analyses in a Web Worker.
#[derive(Clone)]
pub struct Host {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    url: String,
    live: Option<Live>,
    /// The last request's number beside the job (a preview, the report's JSON).
    asides_asked: u32,
}

struct Live {
    worker: Worker,
    /// The sources whose listing this worker holds.
    known: BTreeSet<u32>,
    job: Option<Job>,
    /// Requests beside the job (previews, the report's JSON) waiting for their answer, by
    /// number.
    asides: BTreeMap<u32, js_sys::Function>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

struct Job {
    sources: Vec<Rc<Source>>,
    callbacks: Callbacks,
    resolve: js_sys::Function,
}

/// What a job hears before its answer.
#[derive(Default)]
struct Callbacks {
    /// The host facts the worker guessed ([`Host::run`] with a [`Guess`]).
    guessed: Option<Rc<dyn Fn(Inputs)>>,
    /// How far the analysis got.
    progress: Option<Rc<dyn Fn(Progress)>>,
}

impl Host {
    /// The host for the worker script the page's loader names (`globalThis.memdiagWorker`);
    /// `None` where there is none (the component tests), and the page analyses in place.
    ///
    /// The worker starts at once, so that it has compiled the wasm before the first drop.
    pub fn from_page() -> Option<Host> {
        let url = get(&js_sys::global(), "memdiagWorker").as_string()?;
        let host = Host {
            inner: Rc::new(RefCell::new(Inner {
                url,
                live: None,
                asides_asked: 0,
            })),
        };
        let started = host.start_worker(&host.inner.borrow().url).ok();
        host.inner.borrow_mut().live = started;
        Some(host)
    }

    /// Analyses `sources` with `inputs` on `today`; `progress` hears how far it got.
    ///
    /// With a `guess`, the worker first guesses home, project and OS from the folders and
    /// zips it names, tells it, and runs with that guess (and the simulated release of
    /// `inputs`): one job, so that the run does not wait for the page. A folder input gives
    /// the page one of Chromium's tasks per file after its `change` event (about 300 ms of
    /// them for 30,000 files), and an answer from the worker waits behind them all. The
    /// guess reads folder names, which the core must survive whatever they hold.
    ///
    /// Returns the inputs the run used, the report and the part of the tree the page reads:
    /// what sharing keeps ([`memdiag_core::sanitize::basis`]: every file the report lists,
    /// with the contents read), not a tree of every listed file, which would cost the page
    /// as long to build again as the worker took.
    ///
    /// # Errors
    /// When the analysis cannot start, the worker dies, or a newer job replaces this one.
    pub async fn run(
        &self,
        sources: Vec<Rc<Source>>,
        inputs: &Inputs,
        guess: Option<&Guess>,
        today: &str,
        progress: impl Fn(Progress) + 'static,
    ) -> Result<(Inputs, Report, Tree, Wire), Failure> {
        let mut fields = vec![
            ("type", ToWorker::Run.into()),
            ("sources", ids(&sources).into()),
            ("inputs", inputs_message(inputs)),
            ("today", today.into()),
        ];
        if let Some(guess) = guess {
            fields.push(("guess_from", ids(&guess.from).into()));
            fields.push(("fallback", guess.fallback.as_str().into()));
        }
        let callbacks = Callbacks {
            guessed: guess.map(|guess| Rc::clone(&guess.heard)),
            progress: Some(Rc::new(progress)),
        };
        let answer = self
            .job(sources.clone(), callbacks, object(&fields))
            .await?;
        let inputs = inputs_from(&get(&answer, "inputs"))
            .ok_or_else(|| Failure::Message("the worker sent no host facts".to_owned()))?;
        let started = js_sys::Date::now();
        let wire = Wire::from_answer(&answer, sources);
        let (report, tree) = (report_of(&wire)?, tree_from(&answer));
        // Where the run's time went, for the page benchmark (tests/e2e/bench.mjs).
        let phases = get(&answer, "phases");
        let _ = js_sys::Reflect::set(
            &phases,
            &"page_receive_ms".into(),
            &(js_sys::Date::now() - started).into(),
        );
        let posted = POST_MS.with(|ms| ms.replace(0.0));
        let _ = js_sys::Reflect::set(&phases, &"page_post_ms".into(), &posted.into());
        let _ = js_sys::Reflect::set(&js_sys::global(), &"memdiagPhases".into(), &phases);
        Ok((inputs, report, tree, wire))
    }

    /// Analyses a shared snapshot as `raw` holds it, simulating `version`; also returns the
    /// paths the analysis asked for that the snapshot lacks.
    ///
    /// # Errors
    /// When it cannot be opened, the worker dies, or a newer job replaces this one.
    pub async fn shared(
        &self,
        raw: &SharedRaw,
        version: Option<String>,
    ) -> Result<(Report, Vec<String>, Wire), Failure> {
        let (key, value): (&str, JsValue) = match raw {
            SharedRaw::Link(link) => ("link", link.as_str().into()),
            SharedRaw::Zip(file) => ("zip", file.clone().into()),
        };
        let message = object(&[
            ("type", ToWorker::Shared.into()),
            (key, value),
            ("version", version.map_or(JsValue::NULL, JsValue::from)),
        ]);
        let answer = self.job(Vec::new(), Callbacks::default(), message).await?;
        let missing = get(&answer, "missing")
            .dyn_into::<Array>()
            .map(|list| list.iter().filter_map(|v| v.as_string()).collect())
            .unwrap_or_default();
        let wire = Wire::from_answer(&answer, Vec::new());
        Ok((report_of(&wire)?, missing, wire))
    }

    /// Opens a shared link or share zip in the worker (decoding it reads hostile input) and
    /// returns the snapshot it holds.
    ///
    /// # Errors
    /// A message for a person when it cannot be opened (see [`crate::wire::share::open_error`]).
    pub async fn open_shared(
        &self,
        raw: &SharedRaw,
    ) -> Result<memdiag_core::SharedSnapshot, String> {
        let (key, value): (&str, JsValue) = match raw {
            SharedRaw::Link(link) => ("link", link.as_str().into()),
            SharedRaw::Zip(file) => ("zip", file.clone().into()),
        };
        let message = object(&[("type", ToWorker::OpenShared.into()), (key, value)]);
        let answer = self
            .job(Vec::new(), Callbacks::default(), message)
            .await
            .map_err(said)?;
        snapshot_from(&answer).ok_or_else(|| "the worker sent no snapshot".to_owned())
    }

    /// Opens a zip `File` in the worker: a share zip as its snapshot, any other as a source
    /// whose entries the worker reads (the page never opens an archive).
    ///
    /// # Errors
    /// A message for a person: not a zip, damaged, unreadable.
    pub async fn open_zip(&self, file: File) -> Result<Opened, String> {
        let name = file.name();
        let message = object(&[("type", ToWorker::Zip.into()), ("zip", file.clone().into())]);
        let answer = self
            .job(Vec::new(), Callbacks::default(), message)
            .await
            .map_err(said)?;
        if get(&answer, "share").as_bool() == Some(true) {
            let snapshot =
                snapshot_from(&answer).ok_or_else(|| "the worker sent no snapshot".to_owned())?;
            return Ok(Opened::Shared(
                Box::new(snapshot),
                name,
                SharedRaw::Zip(file),
            ));
        }
        let source = source_from_message(&answer)
            .ok_or_else(|| format!("{name}: the worker sent no listing"))?;
        Ok(Opened::Source(source.with_new_id().with_zip(file)))
    }

    /// Asks the worker a question about a finished analysis (`wire`) and waits for the
    /// answer: `kind` names it, `fields` say the rest.
    ///
    /// # Errors
    /// A message for a person when the worker cannot answer.
    pub async fn ask(
        &self,
        kind: ToWorker,
        wire: &Wire,
        fields: Vec<(&str, JsValue)>,
    ) -> Result<JsValue, String> {
        let mut all = vec![
            ("type", kind.into()),
            ("report", wire.report.clone()),
            ("tree", wire.tree.clone()),
        ];
        all.extend(fields);
        self.job(Vec::new(), Callbacks::default(), object(&all))
            .await
            .map_err(said)
    }

    /// Sends one job, replacing any that runs, and waits for its final answer.
    async fn job(
        &self,
        sources: Vec<Rc<Source>>,
        callbacks: Callbacks,
        message: JsValue,
    ) -> Result<JsValue, Failure> {
        let mut resolve_slot = None;
        let promise = Promise::new(&mut |resolve, _reject| resolve_slot = Some(resolve));
        let resolve = resolve_slot.expect("a promise calls its executor at once");
        {
            let mut inner = self.inner.borrow_mut();
            if inner.live.as_ref().is_some_and(|live| live.job.is_some()) {
                // The running job is cancelled: ending the worker is the only way to stop a
                // long analysis, and the new worker gets every listing again.
                if let Some(live) = inner.live.take() {
                    live.end(&object(&[("type", ToPage::Cancelled.into())]));
                }
            }
            let live = self.live(&mut inner)?;
            let posting = js_sys::Date::now();
            for source in &sources {
                if live.known.insert(source.id()) {
                    let _ = live.worker.post_message(&source_message(source));
                }
            }
            POST_MS.with(|ms| ms.set(ms.get() + js_sys::Date::now() - posting));
            live.job = Some(Job {
                sources,
                callbacks,
                resolve,
            });
            if let Err(error) = live.worker.post_message(&message) {
                let detail = crate::wire::js::js_message(&error);
                if let Some(live) = inner.live.take() {
                    live.end(&crashed(&detail));
                }
            }
        }
        let answer = JsFuture::from(promise).await.unwrap_or(JsValue::UNDEFINED);
        match kind_of(&answer) {
            Some(ToPage::Cancelled) => Err(Failure::Cancelled),
            Some(ToPage::Crashed) => Err(Failure::Crashed(text(&answer, "message"))),
            Some(ToPage::Failed) => Err(Failure::Message(text(&answer, "message"))),
            _ => Ok(answer),
        }
    }

    /// Lays out Markdown `source` for the file view's preview in the worker, which holds the
    /// parser ([`crate::engine::markdown::layout`]). A preview runs beside any job and
    /// never cancels it; when a newer job replaces the worker, it asks the new one.
    ///
    /// # Errors
    /// When the worker dies (the message says why; empty when the ask was cancelled).
    pub async fn preview(&self, source: &str) -> Result<Vec<String>, String> {
        match self
            .aside(ToWorker::Preview, vec![("source", source.into())])
            .await
        {
            Ok(answer) => Ok(crate::wire::markdown::wire_of(
                &get(&answer, "pieces").dyn_into().unwrap_or_default(),
            )),
            Err(Failure::Crashed(detail) | Failure::Message(detail)) => Err(detail),
            Err(Failure::Cancelled) => Err(String::new()),
        }
    }

    /// Asks the worker `kind` with `fields` beside any running job, never cancelling it (the
    /// worker answers at once, between the job's turns, with `answered` and the same `req`);
    /// when a newer job replaces the worker, it asks the new one.
    ///
    /// # Errors
    /// When the worker dies (the message says why).
    async fn aside(
        &self,
        kind: ToWorker,
        fields: Vec<(&str, JsValue)>,
    ) -> Result<JsValue, Failure> {
        loop {
            let mut resolve_slot = None;
            let promise = Promise::new(&mut |resolve, _reject| resolve_slot = Some(resolve));
            let resolve = resolve_slot.expect("a promise calls its executor at once");
            {
                let mut inner = self.inner.borrow_mut();
                inner.asides_asked += 1;
                let req = inner.asides_asked;
                let live = self.live(&mut inner)?;
                live.asides.insert(req, resolve);
                let mut all = vec![("type", kind.into()), ("req", f64::from(req).into())];
                all.extend(fields.iter().cloned());
                if let Err(error) = live.worker.post_message(&object(&all)) {
                    live.asides.remove(&req);
                    return Err(Failure::Crashed(crate::wire::js::js_message(&error)));
                }
            }
            let answer = JsFuture::from(promise).await.unwrap_or(JsValue::UNDEFINED);
            match kind_of(&answer) {
                Some(ToPage::Answered | ToPage::Previewed) => return Ok(answer),
                Some(ToPage::Cancelled) => continue,
                _ => return Err(Failure::Crashed(text(&answer, "message"))),
            }
        }
    }

    /// The running worker, started first if there is none.
    fn live<'a>(&self, inner: &'a mut Inner) -> Result<&'a mut Live, Failure> {
        if inner.live.is_none() {
            let live = self.start_worker(&inner.url).map_err(|e| {
                Failure::Crashed(format!(
                    "the analysis worker could not start ({})",
                    crate::wire::js::js_message(&e)
                ))
            })?;
            inner.live = Some(live);
        }
        Ok(inner.live.as_mut().expect("started above"))
    }

    fn start_worker(&self, url: &str) -> Result<Live, JsValue> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(url, &options)?;
        let weak = Rc::downgrade(&self.inner);
        let from = worker.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            on_message(&weak, &from, event.data());
        });
        let weak = Rc::downgrade(&self.inner);
        let from = worker.clone();
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            let detail = match event.message() {
                message if message.is_empty() => "the worker stopped".to_owned(),
                message => message,
            };
            died(&weak, &from, &detail);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Live {
            worker,
            known: BTreeSet::new(),
            job: None,
            asides: BTreeMap::new(),
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

impl Live {
    /// Ends the worker, answering its job (if any) and its waiting asides with `answer`.
    fn end(self, answer: &JsValue) {
        let Live {
            worker,
            job,
            asides,
            _on_message,
            _on_error,
            ..
        } = self;
        worker.terminate();
        worker.set_onmessage(None);
        worker.set_onerror(None);
        // This may run inside one of the closures: they are dropped after it returns.
        wasm_bindgen_futures::spawn_local(async move {
            drop((_on_message, _on_error));
        });
        if let Some(job) = job {
            let _ = job.resolve.call1(&JsValue::NULL, answer);
        }
        for resolve in asides.into_values() {
            let _ = resolve.call1(&JsValue::NULL, answer);
        }
    }
}

fn on_message(inner: &Weak<RefCell<Inner>>, from: &Worker, data: JsValue) {
    let Some(inner) = inner.upgrade() else { return };
    let kind = kind_of::<ToPage>(&data);
    let mut guard = inner.borrow_mut();
    let Some(live) = guard.live.as_mut().filter(|live| &live.worker == from) else {
        return;
    };
    match kind {
        Some(ToPage::Guessed) => {
            let guessed = live
                .job
                .as_ref()
                .and_then(|job| job.callbacks.guessed.clone());
            if let (Some(guessed), Some(inputs)) = (guessed, inputs_from(&get(&data, "inputs"))) {
                drop(guard);
                guessed(inputs);
            }
        }
        Some(ToPage::Progress) => {
            if let Some(progress) = live
                .job
                .as_ref()
                .and_then(|job| job.callbacks.progress.clone())
            {
                drop(guard);
                progress(Progress {
                    entries: number(&data, "entries") as u64,
                    files_read: number(&data, "files_read") as u64,
                    bytes_read: number(&data, "bytes_read") as u64,
                    files_to_go: number(&data, "files_to_go") as u64,
                });
            }
        }
        Some(kind @ (ToPage::Files | ToPage::Read | ToPage::Stat)) => {
            let sources = live
                .job
                .as_ref()
                .map(|job| job.sources.clone())
                .unwrap_or_default();
            let worker = live.worker.clone();
            drop(guard);
            match kind {
                ToPage::Files => {
                    wasm_bindgen_futures::spawn_local(answer_files(worker, sources, data));
                }
                ToPage::Read => {
                    wasm_bindgen_futures::spawn_local(answer_read(worker, sources, data))
                }
                _ => wasm_bindgen_futures::spawn_local(answer_stat(worker, sources, data)),
            }
        }
        // A preview answers `previewed` (components::markdown), anything else beside the job
        // `answered`.
        Some(ToPage::Answered | ToPage::Previewed) => {
            let req = number(&data, "req") as u32;
            if let Some(resolve) = live.asides.remove(&req) {
                drop(guard);
                let _ = resolve.call1(&JsValue::NULL, &data);
            }
        }
        Some(ToPage::Panic | ToPage::Crashed) => {
            // The trap that follows a panic may surface as an error event, a rejected
            // promise, or nothing at all: the worker is ended here either way.
            let detail = text(&data, "message");
            let live = guard.live.take();
            drop(guard);
            if let Some(live) = live {
                live.end(&crashed(&detail));
            }
        }
        _ => {
            if let Some(job) = live.job.take() {
                drop(guard);
                let _ = job.resolve.call1(&JsValue::NULL, &data);
            }
        }
    }
}

fn died(inner: &Weak<RefCell<Inner>>, from: &Worker, detail: &str) {
    let Some(inner) = inner.upgrade() else { return };
    let live = {
        let mut guard = inner.borrow_mut();
        match &guard.live {
            Some(live) if &live.worker == from => guard.live.take(),
            _ => None,
        }
    };
    if let Some(live) = live {
        live.end(&crashed(detail));
    }
}

/// Answers a `files` message with the `File` of each file it names (`null` where the page
/// has none: a live folder's file, one the browser cannot open any more), for the worker to
/// size and read itself.
///
/// Posting a `File` costs the page about what asking its size does (Chromium looks the size
/// and date up to copy it), and nothing more: reading it, and every later look at its size
/// and date, happens in the worker. Sizing and reading the 156 memory files of the page
/// benchmark's project on the page took 250 to 400 ms of the page's thread.
async fn answer_files(worker: Worker, sources: Vec<Rc<Source>>, data: JsValue) {
    let files = each_file(&sources, &data, |source, index| async move {
        match source {
            Some(source) => source
                .file_object(index)
                .await
                .map_or(JsValue::NULL, JsValue::from),
            None => JsValue::NULL,
        }
    })
    .await;
    let answer = object(&[
        ("type", ToWorker::Files.into()),
        ("req", get(&data, "req")),
        ("files", files.into()),
    ]);
    let _ = worker.post_message(&answer);
}

/// Reads the files a `read` message names from the page's sources and answers it.
///
/// Every read starts at once: the browser reads files away from the main thread, and read one
/// after the other each waited for the last to come back (the project drop of the page
/// benchmark reads 150 files).
async fn answer_read(worker: Worker, sources: Vec<Rc<Source>>, data: JsValue) {
    let results = each_file(&sources, &data, |source, index| async move {
        let contents = match source {
            Some(source) if index < source.files.len() => source.read(index).await,
            _ => Err("the page no longer holds this file".to_owned()),
        };
        match contents {
            Ok(bytes) => Uint8Array::from(bytes.as_slice()).buffer().into(),
            Err(message) => JsValue::from_str(&message),
        }
    })
    .await;
    let transfer: Array = results
        .iter()
        .filter(|value| value.is_instance_of::<js_sys::ArrayBuffer>())
        .collect();
    let answer = object(&[
        ("type", ToWorker::Contents.into()),
        ("req", get(&data, "req")),
        ("results", results.into()),
    ]);
    let _ = worker.post_message_with_transfer(&answer, &transfer);
}

/// Looks up the sizes and dates a `stat` message names in the page's sources and answers
/// it: `sizes` as a `Float64Array`, `modified` joined by NUL (empty for none). The look-ups
/// start at once, as the reads do (a dropped folder's file is fetched for each).
async fn answer_stat(worker: Worker, sources: Vec<Rc<Source>>, data: JsValue) {
    let results = each_file(&sources, &data, |source, index| async move {
        let (size, date) = match source {
            Some(source) => source.stat(index).await,
            None => (0, None),
        };
        Array::of2(&(size as f64).into(), &date.unwrap_or_default().into()).into()
    })
    .await;
    let mut sizes = Vec::with_capacity(results.length() as usize);
    let mut modified = String::new();
    for (n, pair) in results.iter().enumerate() {
        let pair: Array = pair.unchecked_into();
        if n > 0 {
            modified.push('\0');
        }
        modified.push_str(&pair.get(1).as_string().unwrap_or_default());
        sizes.push(pair.get(0).as_f64().unwrap_or(0.0));
    }
    let answer = object(&[
        ("type", ToWorker::Stats.into()),
        ("req", get(&data, "req")),
        ("sizes", js_sys::Float64Array::from(sizes.as_slice()).into()),
        ("modified", modified.into()),
    ]);
    let _ = worker.post_message(&answer);
}

/// Runs `each` for every (source id, file index) pair of the message's `items`, all at once,
/// and gives their answers in the order asked.
async fn each_file<F, G>(sources: &[Rc<Source>], data: &JsValue, each: F) -> Array
where
    F: Fn(Option<Rc<Source>>, usize) -> G,
    G: std::future::Future<Output = JsValue> + 'static,
{
    let items = get(data, "items")
        .dyn_into::<Uint32Array>()
        .map(|items| items.to_vec())
        .unwrap_or_default();
    let answers = items
        .chunks_exact(2)
        .map(|pair| {
            let source = sources.iter().find(|s| s.id() == pair[0]).cloned();
            each(source, pair[1] as usize)
        })
        .collect();
    crate::wire::js::all_at_once(answers)
        .await
        .into_iter()
        .collect()
}

/// What the page says for a job that gave no answer.
fn said(failure: Failure) -> String {
    failure
        .message()
        .unwrap_or_else(|| "a newer request replaced this one".to_owned())
}

/// The report a `done` answer carries (its JSON is for saving only).
fn report_of(wire: &Wire) -> Result<Report, Failure> {
    crate::wire::pack::from_js(&wire.report)
        .ok_or_else(|| Failure::Message("the worker's report could not be read".to_owned()))
}

fn crashed(detail: &str) -> JsValue {
    object(&[("type", ToPage::Crashed.into()), ("message", detail.into())])
}

fn ids(sources: &[Rc<Source>]) -> Uint32Array {
    let ids: Vec<u32> = sources.iter().map(|s| s.id()).collect();
    Uint32Array::from(ids.as_slice())
}
