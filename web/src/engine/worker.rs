//! The analysis worker: tree building, analysis, zips, sharing and clean-up plans, off the
//! page's main thread and out of the page's own wasm.
//!
//! The worker has a wasm of its own, `memdiag-engine` (`src/worker_main.rs`, with the
//! `engine` feature; `web/assets/worker.js` starts it and its `main` calls [`start`]); the
//! page's first-paint wasm has no analysis, zip reader, YAML, sanitizer or demo files. The
//! page keeps every source; the worker keeps a copy of each source's listing (names, sizes,
//! dates, and a zip's `File`), mounts them, runs [`crate::engine::ingest::analysis_loop`] and asks
//! the page for the `File`s of the files the core names, which it sizes and reads itself.
//! The messages, page to worker, by their kind ([`ToWorker`]; their fields:
//! [`crate::wire::messages`]), answered with a [`ToPage`]:
//!
//! - [`ToWorker::Source`]: a source's listing, sent once per worker (`id`, `name`, `role`,
//!   `kind`, `rels` and `modified` joined by NUL, `sizes` as a `Float64Array`,
//!   `diagnostics` as JSON; a zip also its `File` and `prefix`, and the worker reads its
//!   entries itself); the demo is named only, the worker has it compiled in;
//! - [`ToWorker::Run`]: analyse (answered with [`ToPage::Progress`], [`ToPage::Files`],
//!   [`ToPage::Stat`] and [`ToPage::Read`] messages, then [`ToPage::Done`], which carries the
//!   inputs used, the report [`crate::wire::pack`]ed, the share basis as `tree_*` fields for
//!   the file view and sharing, the clean-ups each memory folder offers, and `phases`, where
//!   the run's time went, for the page benchmark); with `guess_from` and `fallback`, it first
//!   guesses home, project and OS from those sources and says so ([`ToPage::Guessed`]);
//! - [`ToWorker::Files`]: the answer to a [`ToPage::Files`] request (a `File` per file,
//!   `null` where the page has none to give: a live folder's file, which the page sizes and
//!   reads itself);
//! - [`ToWorker::Stats`]: the answer to a [`ToPage::Stat`] (`sizes` as a `Float64Array`,
//!   `modified` joined by NUL), for files listed by name only whose entries the analysis
//!   looked at;
//! - [`ToWorker::Contents`]: the answer to a [`ToPage::Read`] (an `ArrayBuffer` per file, or
//!   the reason as text);
//! - [`ToWorker::Zip`]: open a zip `File` (answered with [`ToPage::Listed`], its listing as
//!   a source message has it, or [`ToPage::Opened`] with `share` set for a share zip);
//! - [`ToWorker::OpenShared`]: decode a shared link or share zip (answered with
//!   [`ToPage::Opened`]: the snapshot's tree, input, date and format);
//! - [`ToWorker::Shared`]: analyse a shared link or share zip (answered with
//!   [`ToPage::Done`], which also names the files the snapshot lacked);
//! - [`ToWorker::Share`], [`ToWorker::Plan`] and [`ToWorker::Apply`]: sanitize a finished
//!   analysis for sharing (`engine::share::answer`, [`ToPage::SharedCopy`]), plan a
//!   clean-up of it (`engine::cleanups::answer`, [`ToPage::Planned`]) or make one
//!   ([`ToPage::Applied`]); the message carries the analysis as the worker's
//!   [`ToPage::Done`] sent it, so the worker keeps nothing between them;
//! - [`ToWorker::Preview`] and [`ToWorker::ReportJson`], with a `req` number: lay out a
//!   Markdown file, write a report (sent back packed) as the JSON Download JSON saves.
//!   Answered at once, beside any running analysis ([`ToPage::Previewed`],
//!   [`ToPage::Answered`]).
//!
//! What cannot be done is answered with [`ToPage::Failed`]. A panic posts [`ToPage::Panic`]
//! with its text before the wasm traps; the page then ends the worker and says so, and
//! starts a new one for the next run ([`crate::page::worker_host`]).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use js_sys::{Array, Float64Array, Promise, Uint32Array, Uint8Array};
use memdiag_core::{Contents, Tree, VPath};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, MessageEvent};

use crate::engine::ingest;
use crate::engine::reply::{failed, post, scope};
use crate::wire::inputs::{run_input, Inputs, Progress};
use crate::wire::messages::{
    get, input_message, inputs_from, inputs_message, kind_of, number, object, text, ToPage,
    ToWorker, NOT_SHARED,
};
use crate::wire::sources::{read_file, Opened, Origin, Reader, Snapshot, Source, Stat};

thread_local! {
    static SOURCES: RefCell<BTreeMap<u32, Rc<Source>>> = RefCell::default();
    static PENDING: RefCell<BTreeMap<u32, js_sys::Function>> = RefCell::default();
    static NEXT_REQUEST: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
    /// Time spent taking in listings (`source` messages), for the page benchmark.
    static LISTING_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// Starts the worker: answers the messages that arrived while the wasm loaded, then every
/// later one.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = object(&[
            ("type", ToPage::Panic.into()),
            ("message", info.to_string().into()),
        ]);
        let _ = scope().post_message(&message);
    }));
    let queued = get(&scope(), "memdiagQueued");
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        handle(event.data());
    });
    scope().set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
    if let Ok(queued) = queued.dyn_into::<Array>() {
        for event in queued.iter() {
            handle(get(&event, "data"));
        }
        queued.set_length(0);
    }
    wasm_bindgen_futures::spawn_local(warm_up());
}

thread_local! {
    /// Whether the page asked for a run yet: then there is nothing to warm up for.
    static ASKED_TO_RUN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Analyses the built-in demo once when the worker starts, and throws the result away,
/// unless the page asked for a run first (it does on a first visit, for the demo itself).
///
/// V8 compiles a wasm function the first time it runs, with its baseline compiler, and
/// optimises it only after it has run a while: the first drop's analysis otherwise pays for
/// compiling the whole pipeline (mounting, discovery, the report, its packing) as it goes. The demo runs through all of it in a few tens of milliseconds, while the person
/// is still choosing a folder.
async fn warm_up() {
    crate::wire::js::yield_now().await;
    if ASKED_TO_RUN.with(std::cell::Cell::get) {
        return;
    }
    let Some(demo) = crate::wire::demo::source() else {
        return;
    };
    let Origin::Demo { inputs, .. } = &demo.origin else {
        return;
    };
    let inputs = inputs.clone();
    let sources = vec![Rc::new(demo)];
    let started = js_sys::Date::now();
    for _ in 0..WARM_UP_ROUNDS {
        let analysed = ingest::run_analysis(sources.clone(), inputs.clone(), |_| {}).await;
        if let Ok((report, tree, _)) = analysed {
            let basis = memdiag_core::sanitize::basis(&tree, &report);
            let _ = tree_fields(&basis);
            let _ = crate::wire::pack::to_js(&report);
            let _ = memdiag_core::cleanup::memory_cleanups(&report, &basis);
        }
        let spent = js_sys::Date::now() - started;
        if spent > WARM_UP_MS || ASKED_TO_RUN.with(std::cell::Cell::get) {
            break;
        }
        crate::wire::js::yield_now().await;
    }
}

/// At most this many rounds of [`warm_up`], and no round begun after [`WARM_UP_MS`].
const WARM_UP_ROUNDS: usize = 30;
const WARM_UP_MS: f64 = 150.0;

fn handle(data: JsValue) {
    let Some(kind) = kind_of::<ToWorker>(&data) else {
        return;
    };
    match kind {
        ToWorker::Source => {
            let started = js_sys::Date::now();
            let source = source_from_message(&data);
            LISTING_MS.with(|ms| ms.set(ms.get() + js_sys::Date::now() - started));
            if let Some(source) = source {
                SOURCES.with(|all| all.borrow_mut().insert(source.id(), Rc::new(source)));
            }
        }
        ToWorker::Contents | ToWorker::Stats | ToWorker::Files => {
            let request = number(&data, "req") as u32;
            if let Some(resolve) = PENDING.with(|p| p.borrow_mut().remove(&request)) {
                let _ = resolve.call1(&JsValue::NULL, &data);
            }
        }
        ToWorker::Run => {
            ASKED_TO_RUN.with(|asked| asked.set(true));
            let sources = sources_named(&data);
            keep_only(&sources);
            let mut inputs = inputs_from(&get(&data, "inputs")).unwrap_or_default();
            if let Ok(guess_from) = get(&data, "guess_from").dyn_into::<Uint32Array>() {
                // Guessed here and run at once: see `Host::run`. From the folders and zips,
                // not an added `~/.claude.json`; the simulated release stays as asked.
                let guess_from = guess_from.to_vec();
                let snapshot = Snapshot {
                    sources: sources
                        .iter()
                        .filter(|s| guess_from.contains(&s.id()))
                        .cloned()
                        .collect(),
                    ..Snapshot::default()
                };
                inputs = Inputs {
                    version: inputs.version,
                    add_dirs: inputs.add_dirs,
                    ..snapshot.infer_inputs(&text(&data, "fallback"))
                };
                post(&[
                    ("type", ToPage::Guessed.into()),
                    ("inputs", inputs_message(&inputs)),
                ]);
            }
            let input = run_input(&inputs, &text(&data, "today"));
            wasm_bindgen_futures::spawn_local(run(sources, inputs, input));
        }
        ToWorker::Shared => wasm_bindgen_futures::spawn_local(shared(data)),
        ToWorker::OpenShared => wasm_bindgen_futures::spawn_local(async move {
            match open_raw(&data).await {
                Ok(snapshot) => post_snapshot(&snapshot, false),
                Err(message) => failed(&message),
            }
        }),
        ToWorker::Zip => wasm_bindgen_futures::spawn_local(open_zip(data)),
        ToWorker::Share => crate::engine::share::answer(&data),
        ToWorker::Plan => crate::engine::cleanups::answer(&data),
        ToWorker::Apply => {
            wasm_bindgen_futures::spawn_local(crate::engine::cleanups::answer_apply(data));
        }
        ToWorker::Preview => crate::engine::markdown::answer(&data),
        ToWorker::ReportJson => report_json(&data),
    }
}

async fn run(sources: Vec<Rc<Source>>, inputs: Inputs, input: memdiag_core::Input) {
    let read = |items: Vec<(usize, usize)>| {
        let sources = sources.clone();
        async move { read_through_page(&sources, items).await }
    };
    let progress = |p: Progress| {
        post(&[
            ("type", ToPage::Progress.into()),
            ("entries", (p.entries as f64).into()),
            ("files_read", (p.files_read as f64).into()),
            ("bytes_read", (p.bytes_read as f64).into()),
            ("files_to_go", (p.files_to_go as f64).into()),
        ]);
    };
    let stat = |items: Vec<(usize, usize)>| {
        let sources = sources.clone();
        async move { stat_through_page(&sources, items).await }
    };
    match ingest::analysis_loop(&sources, &inputs, input, read, stat, progress).await {
        Ok(ingest::Analysed {
            report,
            tree,
            input: _,
            origins,
        }) => {
            // The page's file view and sharing read only what sharing would keep: every
            // file the report lists, with its contents, and the folders around them.
            let started = js_sys::Date::now();
            let basis = memdiag_core::sanitize::basis(&tree, &report);
            // Sharing keeps a few files the analysis saw by name only (a rule's witnesses,
            // other projects' memory files). Only a shared copy needs their sizes, so the page
            // looks them up when it asks about this analysis ([`crate::page::worker_host::Remote`]),
            // not before the report shows: for the 30,000-entry `~/.claude` of the page
            // benchmark that was a round trip through the busy page, 100 ms of every drop.
            // `tree_unstatted` names them: (place among the basis's files, source, file).
            let unstatted: Vec<u32> = basis
                .files()
                .enumerate()
                .filter(|(_, (path, _))| tree.is_unstatted(path))
                .filter_map(|(n, (path, _))| {
                    let (s, f) = *origins.get(path)?;
                    Some([n as u32, sources[s].id(), f as u32])
                })
                .flatten()
                .collect();
            let (mut fields, transfer) = tree_fields(&basis);
            fields.push((
                "tree_unstatted",
                Uint32Array::from(unstatted.as_slice()).into(),
            ));
            let cleanups = memdiag_core::cleanup::memory_cleanups(&report, &basis);
            fields.push(("cleanups", crate::wire::pack::to_js(&cleanups)));
            let phases = ingest::last_phases();
            let timings = object(&[
                ("listing_ms", LISTING_MS.with(std::cell::Cell::get).into()),
                ("mount_ms", phases.mount_ms.into()),
                ("analyze_ms", phases.analyze_ms.into()),
                ("read_ms", phases.read_ms.into()),
                ("turns", f64::from(phases.turns).into()),
                ("stat_ms", phases.stat_ms.into()),
                ("statted", f64::from(phases.statted).into()),
                ("basis_ms", (js_sys::Date::now() - started).into()),
                ("basis_files", (basis.len() as f64).into()),
                ("tree_files", (tree.len() as f64).into()),
            ]);
            fields.push(("type", ToPage::Done.into()));
            fields.push(("inputs", inputs_message(&inputs)));
            fields.push(("report_packed", crate::wire::pack::to_js(&report)));
            fields.push(("phases", timings));
            let _ = scope().post_message_with_transfer(&object(&fields), &transfer);
        }
        Err(message) => failed(&message),
    }
}

/// A tree as message fields (`tree_files`, `tree_sizes`, `tree_modified`, `tree_contents`,
/// `tree_dirs`, `tree_mounts`, `tree_diagnostics`, `tree_carried`), with the buffers to
/// transfer.
pub fn tree_fields(tree: &Tree) -> (Vec<(&'static str, JsValue)>, Array) {
    let mut paths = String::new();
    let mut modified = String::new();
    let mut sizes = Vec::with_capacity(tree.len());
    let contents = Array::new();
    let transfer = Array::new();
    for (n, (path, entry)) in tree.files().enumerate() {
        if n > 0 {
            paths.push('\0');
            modified.push('\0');
        }
        paths.push_str(path.as_str());
        modified.push_str(entry.modified.as_deref().unwrap_or(""));
        sizes.push(entry.size as f64);
        match &entry.contents {
            Contents::Unread => contents.push(&JsValue::NULL),
            Contents::Unreadable(message) => contents.push(&JsValue::from_str(message)),
            Contents::Loaded(bytes) => {
                let buffer = Uint8Array::from(bytes.as_slice()).buffer();
                transfer.push(&buffer);
                contents.push(&buffer)
            }
        };
    }
    let names = |dirs: &mut dyn Iterator<Item = &VPath>| -> Array {
        dirs.map(|d| JsValue::from_str(d.as_str())).collect()
    };
    let diagnostics = crate::wire::pack::to_js(&tree.diagnostics().to_vec());
    let fields = vec![
        ("tree_files", paths.into()),
        ("tree_modified", modified.into()),
        ("tree_sizes", Float64Array::from(sizes.as_slice()).into()),
        ("tree_contents", contents.into()),
        ("tree_dirs", names(&mut tree.named_dirs()).into()),
        ("tree_mounts", names(&mut tree.mounts()).into()),
        ("tree_diagnostics", diagnostics),
        ("tree_carried", carried_message(tree)),
    ];
    (fields, transfer)
}

/// What a tree carries besides its files, for the worker to read back when the page hands a
/// finished analysis over for sharing or a clean-up ([`crate::wire::messages::tree_from`]): a
/// shared snapshot's quoted lengths, stand-ins and orders, and the skills folders' listing
/// order a zip recorded. Without them a snapshot shared again, or a zip's skills order on
/// the releases that follow it, would not survive the page's round trip. One list per
/// record, of strings: `q` name and the four lengths, `o` or `l` a folder and its names,
/// `s` a file and its stand-ins each followed by its target.
fn carried_message(tree: &Tree) -> JsValue {
    let record = |parts: Vec<String>| -> JsValue {
        parts
            .into_iter()
            .map(JsValue::from)
            .collect::<Array>()
            .into()
    };
    let records = Array::new();
    for (name, q) in tree.quoted_lengths() {
        records.push(&record(vec![
            "q".to_owned(),
            name.clone(),
            q.bytes.to_string(),
            q.chars.to_string(),
            q.utf16.to_string(),
            q.columns.to_string(),
        ]));
    }
    let orders = tree.orders().map(|o| ("o", o));
    for (kind, (dir, names)) in orders.chain(tree.listing_orders().map(|o| ("l", o))) {
        let head = [kind.to_owned(), dir.as_str().to_owned()];
        records.push(&record(
            head.into_iter().chain(names.iter().cloned()).collect(),
        ));
    }
    for (file, stand_ins) in tree.stand_ins() {
        let pairs = stand_ins.iter().flat_map(|(k, v)| [k.clone(), v.clone()]);
        let head = ["s".to_owned(), file.as_str().to_owned()];
        records.push(&record(head.into_iter().chain(pairs).collect()));
    }
    records.into()
}

/// Reads what the worker has not read before through the page, and keeps it.
async fn read_through_page(
    sources: &[Rc<Source>],
    items: Vec<(usize, usize)>,
) -> Vec<Result<Vec<u8>, String>> {
    let mut out: Vec<Option<Result<Vec<u8>, String>>> = items
        .iter()
        .map(|&(s, f)| match sources[s].files[f].reader {
            Reader::Remote => sources[s].cached(f),
            // The demo's bytes are compiled into the worker too.
            _ => None,
        })
        .collect();
    let static_or_asked: Vec<usize> = (0..items.len()).filter(|&i| out[i].is_none()).collect();
    let (remote, here): (Vec<usize>, Vec<usize>) = static_or_asked.into_iter().partition(|&i| {
        let (s, f) = items[i];
        matches!(sources[s].files[f].reader, Reader::Remote)
    });
    // What this worker reads itself (a zip's entries, the demo's) is read a source at a
    // time, a zip's entries in one batch of merged ranges.
    let local: Vec<(usize, usize)> = here.iter().map(|&i| items[i]).collect();
    for (i, contents) in here
        .into_iter()
        .zip(ingest::read_local(sources, &local).await)
    {
        out[i] = Some(contents);
    }
    // A page's file is read here when the page hands its `File` over, all at once; the
    // page reads the others (a live folder's) and sends their bytes.
    let remote_items: Vec<(usize, usize)> = remote.iter().map(|&i| items[i]).collect();
    hand_over(sources, &remote_items).await;
    let (handed, asked): (Vec<usize>, Vec<usize>) = remote.into_iter().partition(|&i| {
        let (s, f) = items[i];
        matches!(sources[s].handed(f), Some(Some(_)))
    });
    let reads = handed.iter().map(|&i| {
        let (s, f) = items[i];
        let source = Rc::clone(&sources[s]);
        async move { source.read(f).await }
    });
    for (i, contents) in handed
        .iter()
        .zip(crate::wire::js::all_at_once(reads.collect()).await)
    {
        out[*i] = Some(contents);
    }
    if !asked.is_empty() {
        let pairs: Vec<u32> = asked
            .iter()
            .flat_map(|&i| {
                let (s, f) = items[i];
                [sources[s].id(), f as u32]
            })
            .collect();
        let answer = ask_page(ToPage::Read, &pairs).await;
        let results: Array = get(&answer, "results").dyn_into().unwrap_or_default();
        for (n, &i) in asked.iter().enumerate() {
            let value = results.get(n as u32);
            let contents = match value.as_string() {
                Some(message) => Err(message),
                None if value.is_instance_of::<js_sys::ArrayBuffer>() => {
                    Ok(Uint8Array::new(&value).to_vec())
                }
                None => Err("the page did not hand this file over".to_owned()),
            };
            let (s, f) = items[i];
            sources[s].remember(f, contents.clone());
            out[i] = Some(contents);
        }
    }
    out.into_iter()
        .map(|c| c.unwrap_or_else(|| Err("not read".to_owned())))
        .collect()
}

/// Looks up through the page the sizes and dates the worker does not know yet, and keeps
/// them.
async fn stat_through_page(sources: &[Rc<Source>], items: Vec<(usize, usize)>) -> Vec<Stat> {
    let mut out: Vec<Option<Stat>> = items
        .iter()
        .map(|&(s, f)| match sources[s].files[f].reader {
            Reader::Remote => sources[s].cached_stat(f),
            _ => None,
        })
        .collect();
    let remote: Vec<(usize, usize)> = items
        .iter()
        .enumerate()
        .filter(|&(i, &(s, f))| {
            out[i].is_none() && matches!(sources[s].files[f].reader, Reader::Remote)
        })
        .map(|(_, &item)| item)
        .collect();
    hand_over(sources, &remote).await;
    let mut asked = Vec::new();
    for (i, &(s, f)) in items.iter().enumerate() {
        if out[i].is_some() {
            continue;
        }
        let page_has_it = matches!(sources[s].files[f].reader, Reader::Remote)
            && !matches!(sources[s].handed(f), Some(Some(_)));
        if page_has_it {
            asked.push(i);
        } else {
            // A handed `File` knows its size and date: copying it to the worker looked
            // them up.
            out[i] = Some(sources[s].stat(f).await);
        }
    }
    if !asked.is_empty() {
        let pairs: Vec<u32> = asked
            .iter()
            .flat_map(|&i| {
                let (s, f) = items[i];
                [sources[s].id(), f as u32]
            })
            .collect();
        let answer = ask_page(ToPage::Stat, &pairs).await;
        let sizes = get(&answer, "sizes")
            .dyn_into::<Float64Array>()
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let modified = text(&answer, "modified");
        let mut dates = modified.split('\0');
        for (n, &i) in asked.iter().enumerate() {
            let size = sizes.get(n).map_or(0, |&size| size as u64);
            let date = dates.next().filter(|d| !d.is_empty()).map(str::to_owned);
            let (s, f) = items[i];
            sources[s].remember_stat(f, (size, date.clone()));
            out[i] = Some((size, date));
        }
    }
    out.into_iter().map(Option::unwrap_or_default).collect()
}

/// Asks the page for the `File`s of the page's files among `items` that it was not asked
/// for before, and keeps its answers ([`Source::hand_over`]).
async fn hand_over(sources: &[Rc<Source>], items: &[(usize, usize)]) {
    let wanted: Vec<(usize, usize)> = items
        .iter()
        .copied()
        .filter(|&(s, f)| sources[s].handed(f).is_none())
        .collect();
    if wanted.is_empty() {
        return;
    }
    let pairs: Vec<u32> = wanted
        .iter()
        .flat_map(|&(s, f)| [sources[s].id(), f as u32])
        .collect();
    let answer = ask_page(ToPage::Files, &pairs).await;
    let files: Array = get(&answer, "files").dyn_into().unwrap_or_default();
    for (n, &(s, f)) in wanted.iter().enumerate() {
        sources[s].hand_over(f, files.get(n as u32).dyn_into::<File>().ok());
    }
}

/// Posts a request of `kind` naming `pairs` (source id, file index) to the page and waits
/// for its answer.
async fn ask_page(kind: ToPage, pairs: &[u32]) -> JsValue {
    let request = NEXT_REQUEST.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let promise = Promise::new(&mut |resolve, _reject| {
        PENDING.with(|p| p.borrow_mut().insert(request, resolve));
    });
    post(&[
        ("type", kind.into()),
        ("req", f64::from(request).into()),
        ("items", Uint32Array::from(pairs).into()),
    ]);
    JsFuture::from(promise).await.unwrap_or_default()
}

/// The shared snapshot a `shared` or `open-shared` message names: a link, or a share zip.
async fn open_raw(data: &JsValue) -> Result<memdiag_core::SharedSnapshot, String> {
    match get(data, "link").as_string() {
        Some(link) => {
            memdiag_core::decode_link(&link).map_err(|e| crate::wire::share::open_error("link", &e))
        }
        None => match get(data, "zip").dyn_into::<File>() {
            Ok(file) => match read_file(&file).await {
                Ok(bytes) => memdiag_core::open_share_zip(&bytes)
                    .map_err(|e| crate::wire::share::open_error("file", &e)),
                Err(message) => Err(message),
            },
            Err(_) => Err("nothing to open".to_owned()),
        },
    }
}

/// Answers with a shared snapshot: its tree's fields, its input, when it was made.
fn post_snapshot(snapshot: &memdiag_core::SharedSnapshot, share_zip: bool) {
    let (mut fields, transfer) = tree_fields(&snapshot.tree);
    fields.push(("type", ToPage::Opened.into()));
    fields.push(("share", share_zip.into()));
    fields.push(("input", input_message(&snapshot.input)));
    fields.push(("made", snapshot.made.as_str().into()));
    fields.push(("format", f64::from(snapshot.format).into()));
    fields.push(("text_kept", snapshot.text_kept.into()));
    let _ = scope().post_message_with_transfer(&object(&fields), &transfer);
}

/// Opens a zip the page was given: a share zip answers with its snapshot, any other with
/// its listing (the worker reads its entries when the analysis asks).
async fn open_zip(data: JsValue) {
    let Ok(file) = get(&data, "zip").dyn_into::<File>() else {
        return failed("nothing to open");
    };
    match ingest::open_zip_here(file).await {
        Ok(Opened::Shared(snapshot, ..)) => post_snapshot(&snapshot, true),
        Ok(Opened::Source(source)) => {
            // The run that follows reads the entries with the directory read here.
            source.keep_listed_archive();
            let listing = crate::wire::messages::source_message(&source);
            let _ = js_sys::Reflect::set(&listing, &"type".into(), &ToPage::Listed.into());
            let _ = scope().post_message(&listing);
        }
        Err(message) => failed(&message),
    }
}

async fn shared(data: JsValue) {
    let version = get(&data, "version").as_string();
    let snapshot = match open_raw(&data).await {
        Ok(snapshot) => snapshot,
        Err(message) => return failed(&message),
    };
    match ingest::analyze_shared(&snapshot, version) {
        Ok((report, tree, _input)) => {
            let missing: Array = tree
                .files()
                .filter(|(_, entry)| {
                    matches!(&entry.contents, Contents::Unreadable(m) if m == NOT_SHARED)
                })
                .map(|(path, _)| JsValue::from_str(path.as_str()))
                .collect();
            // The tree as analysed, for asking about it later (its clean-ups).
            let (mut fields, transfer) = tree_fields(&tree);
            let cleanups = memdiag_core::cleanup::memory_cleanups(&report, &tree);
            fields.push(("cleanups", crate::wire::pack::to_js(&cleanups)));
            fields.push(("type", ToPage::Done.into()));
            fields.push(("report_packed", crate::wire::pack::to_js(&report)));
            fields.push(("missing", missing.into()));
            let _ = scope().post_message_with_transfer(&object(&fields), &transfer);
        }
        Err(message) => failed(&message),
    }
}

/// Answers a `report-json` request: the report it carries, packed, as pretty-printed JSON
/// (what Download JSON saves), or why not.
fn report_json(data: &JsValue) {
    let report: Option<memdiag_core::report::Report> =
        crate::wire::pack::from_js(&get(data, "report"));
    let json = match report.map(|report| serde_json::to_string_pretty(&report)) {
        Some(Ok(json)) => ("json", json),
        Some(Err(error)) => ("message", error.to_string()),
        None => ("message", "the report could not be read back".to_owned()),
    };
    post(&[
        ("type", ToPage::Answered.into()),
        ("req", get(data, "req")),
        (json.0, json.1.into()),
    ]);
}

/// The sources a message names, in its order, that this worker holds.
/// Forgets every source but `sources`: the page names every source a run uses, the others
/// were replaced.
fn keep_only(sources: &[Rc<Source>]) {
    let keep: Vec<u32> = sources.iter().map(|s| s.id()).collect();
    SOURCES.with(|all| all.borrow_mut().retain(|id, _| keep.contains(id)));
}

fn sources_named(data: &JsValue) -> Vec<Rc<Source>> {
    let ids = get(data, "sources")
        .dyn_into::<Uint32Array>()
        .map(|ids| ids.to_vec())
        .unwrap_or_default();
    SOURCES.with(|all| {
        let all = all.borrow();
        ids.iter().filter_map(|id| all.get(id).cloned()).collect()
    })
}

/// The worker's copy of a source from its `source` message: the demo's files are compiled
/// in here.
fn source_from_message(data: &JsValue) -> Option<Source> {
    if text(data, "kind") == "demo" {
        let id = number(data, "id") as u32;
        return crate::wire::demo::source().map(|demo| demo.with_id(id));
    }
    crate::wire::messages::source_from_message(data)
}
