//! The worker's half of getting files in: zips read in place (listed, then only the entries
//! asked for, in merged `File.slice` ranges), the sources mounted into a tree, and the
//! analysis loop that answers the core's requests from them ([`analysis_loop`], with the
//! time of each phase). The page runs the same loop in place where no worker starts (the
//! component tests).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use js_sys::Uint8Array;
use memdiag_core::infer;
use memdiag_core::report::Report;
use memdiag_core::{
    analyze_with, is_share_zip, mount_zip, mount_zip_in_place, open_share_zip, BatchStep,
    ContentSource, Diagnostic, Entry, Fetch, Input, SharedSnapshot, Tree, VPath, ZipInPlace,
    ZipLimits, ZipSource, MANIFEST_NAME, MAX_OPEN_FETCHES,
};
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

use crate::wire::inputs::{run_input, Inputs, Progress};
use crate::wire::js::{js_message, today, yield_now};
use crate::wire::sources::{
    placed_path, source_base, Opened, Origin, Reader, Role, SharedRaw, Snapshot, Source,
    SourceFile, Stat, UNSTATTED,
};

/// How many sizes and dates are asked of the page in one message by the worker.
const STAT_BATCH: usize = 1024;

/// How many contents are read between two yields to the event loop (and asked of the page
/// in one message by the worker).
const READ_BATCH: usize = 64;

impl Source {
    /// A zip source: lists the central directory and decides the role from its layout.
    ///
    /// A zip holding one top folder (`.claude/…`, the usual result of zipping a folder) is
    /// read from inside that folder; `__MACOSX` resource forks are left out.
    ///
    /// # Errors
    /// When the bytes are not a zip archive.
    pub fn zip(file_name: &str, bytes: Vec<u8>, file: Option<File>) -> Result<Source, String> {
        let mut scratch = Tree::new();
        let archive = mount_zip(&mut scratch, "/zip", bytes, ZipLimits::default())
            .map_err(|e| zip_error(file_name, &e))?;
        Ok(Source::zip_listed(file_name, &scratch, archive, file))
    }

    /// A zip source from an archive listed into `scratch` at `/zip`.
    fn zip_listed(
        file_name: &str,
        scratch: &Tree,
        archive: ZipSource,
        file: Option<File>,
    ) -> Source {
        let listed: Vec<(String, u64)> = scratch
            .files()
            .filter_map(|(path, entry)| {
                let rel = path.as_str().strip_prefix("/zip/")?;
                (!rel.starts_with("__MACOSX/")).then(|| (rel.to_owned(), entry.size))
            })
            .collect();
        let modified: BTreeMap<String, Option<String>> = scratch
            .files()
            .filter_map(|(path, entry)| {
                let rel = path.as_str().strip_prefix("/zip/")?;
                Some((rel.to_owned(), entry.modified.clone()))
            })
            .collect();
        let top = single_top_folder(listed.iter().map(|(rel, _)| rel.as_str()));
        let (name, strip) = match &top {
            Some(folder) => (folder.clone(), format!("{folder}/")),
            None => (
                file_name
                    .strip_suffix(".zip")
                    .or_else(|| file_name.strip_suffix(".ZIP"))
                    .unwrap_or(file_name)
                    .to_owned(),
                String::new(),
            ),
        };
        let files: Vec<SourceFile> = listed
            .into_iter()
            .filter_map(|(rel, size)| {
                let inner = rel.strip_prefix(&strip)?.to_owned();
                let path = VPath::new(&format!("/zip/{rel}")).ok()?;
                Some(SourceFile {
                    rel: inner,
                    size,
                    reader: Reader::Zip(path),
                    modified: modified.get(&rel).cloned().flatten(),
                })
            })
            .collect();
        let mut source = Source::folder(name, files, None);
        source.origin = Origin::Zip(file);
        source.zip = RefCell::new(Some(archive));
        source.diagnostics_json = serde_json::to_string(scratch.diagnostics()).unwrap_or_default();
        source
    }

    /// Inflates entries of the source's zip, in the order given. An archive read in place
    /// fetches only the entries' compressed bytes from the zip `File` (`File.slice`), in a
    /// few merged ranges that are all asked for before any is awaited
    /// ([`ZipSource::batch_in_place`]): one fetch per entry, one after the other, was most of
    /// a zip project drop's wait for reads. The worker's copy of a zip opens its archive
    /// (its central directory) on the first read.
    async fn read_zip_entries(&self, paths: &[VPath]) -> Vec<Result<Vec<u8>, String>> {
        let every = |why: &str| vec![Err(why.to_owned()); paths.len()];
        let Origin::Zip(Some(file)) = &self.origin else {
            return every("the archive is gone");
        };
        if self.zip.borrow().is_none() {
            let archive = match take_listed_archive(file) {
                Some(archive) => archive,
                None => match zip_in_place(file).await {
                    Ok((_, archive)) => archive,
                    Err(why) => return every(&why),
                },
            };
            *self.zip.borrow_mut() = Some(archive);
        }
        let Some(mut batch) = self.zip.borrow().as_ref().map(|a| a.batch_in_place(paths)) else {
            return every("the archive is gone");
        };
        // Bounded: the batch names each group's ranges once and a few more per entry.
        loop {
            let step = match self.zip.borrow_mut().as_mut() {
                Some(archive) => batch.step(archive),
                None => return every("the archive is gone"),
            };
            let ranges = match step {
                BatchStep::Done(results) => return results,
                BatchStep::Needs(ranges) => ranges,
            };
            // Every read starts before the first is awaited: the browser serves them at once.
            let pending: Vec<_> = ranges.iter().map(|r| slice_started(file, r)).collect();
            let mut fetched = Vec::with_capacity(ranges.len());
            let mut failed = None;
            for (range, read) in ranges.into_iter().zip(pending) {
                match read {
                    Ok(read) => match slice_finished(file, read).await {
                        Ok(bytes) => fetched.push((range.start, bytes)),
                        Err(why) => failed = Some(why),
                    },
                    Err(why) => failed = Some(why),
                }
            }
            let mut zip = self.zip.borrow_mut();
            let Some(archive) = zip.as_mut() else {
                return every("the archive is gone");
            };
            match failed {
                Some(why) => batch.fail(archive, &why),
                None => {
                    for (offset, bytes) in fetched {
                        archive.add(offset, bytes);
                    }
                }
            }
        }
    }

    /// Reads the zip entries among `indices` that are not read yet in one batch
    /// ([`Source::read_zip_entries`]) and keeps them for [`Source::read`].
    async fn read_zip_ahead(&self, indices: &[usize]) {
        let mut asked: Vec<usize> = Vec::new();
        let mut paths: Vec<VPath> = Vec::new();
        for &index in indices {
            if let Some(SourceFile {
                reader: Reader::Zip(path),
                ..
            }) = self.files.get(index)
            {
                if self.cached(index).is_none() && !asked.contains(&index) {
                    asked.push(index);
                    paths.push(path.clone());
                }
            }
        }
        if asked.is_empty() {
            return;
        }
        let results = self.read_zip_entries(&paths).await;
        for (index, contents) in asked.into_iter().zip(results) {
            self.remember(index, contents);
        }
    }

    /// Keeps this zip source's opened archive (its central directory, read in place) in
    /// this thread, for the run that follows the listing: the worker lists a zip for the
    /// page (`zip` message) and then analyses it (`run`), and without this it would fetch
    /// the directory twice (about half of what a zip drop read).
    pub(crate) fn keep_listed_archive(&self) {
        let (Origin::Zip(Some(file)), Some(archive)) = (&self.origin, self.zip.take()) else {
            return;
        };
        LISTED_ARCHIVES.with(|kept| {
            let mut kept = kept.borrow_mut();
            kept.push((archive_key(file), archive));
            // A page lists a zip and analyses it at once; a few are plenty.
            if kept.len() > LISTED_ARCHIVES_KEPT {
                kept.remove(0);
            }
        });
    }

    /// Keeps what the page answered when asked for one of its files' `File` (the worker's
    /// copy): the `File`, or `None` when the page has none to give.
    pub(crate) fn hand_over(&self, index: usize, file: Option<File>) {
        self.handed.borrow_mut().insert(index, file);
    }

    /// Whether the page was asked for one of its files' `File` (the worker's copy), and what
    /// it answered.
    pub(crate) fn handed(&self, index: usize) -> Option<Option<File>> {
        self.handed.borrow().get(&index).cloned()
    }

    /// A size and date looked up before, if any.
    pub(crate) fn cached_stat(&self, index: usize) -> Option<Stat> {
        self.stats.borrow().get(&index).cloned()
    }

    /// Reads several of its files as [`Source::read`] does, a zip's entries first, together
    /// (`Source::read` reads no archive: a zip's entries are read here, then kept).
    pub(crate) async fn read_many(&self, indices: &[usize]) -> Vec<Result<Vec<u8>, String>> {
        self.read_zip_ahead(indices).await;
        let mut out = Vec::with_capacity(indices.len());
        for &index in indices {
            out.push(self.read(index).await);
        }
        out
    }
}

impl Snapshot {
    /// Home, project and OS guessed from the sources (see [`memdiag_core::infer`]).
    ///
    /// `fallback_home` is used when no config directory tells the home.
    pub fn infer_inputs(&self, fallback_home: &str) -> Inputs {
        for source in &self.sources {
            if let Origin::Demo { inputs, .. } = &source.origin {
                return inputs.clone();
            }
        }
        let names: Vec<String> = self
            .sources
            .iter()
            .flat_map(|s| s.project_folder_names())
            .collect();
        let home = infer::infer_home(&names).unwrap_or_else(|| match self.home_name() {
            Some(name) => infer::home_named(name, fallback_home),
            None => fallback_home.to_owned(),
        });
        let project = self
            .project_name()
            .map(|name| infer::infer_project_path(&names, name, &home));
        Inputs {
            os: infer::os_of_home(&home),
            home,
            project: project.clone().unwrap_or_default(),
            config_dir: String::new(),
            project_mount: project,
            version: None,
            reads: Vec::new(),
            add_dirs: String::new(),
        }
    }
}

/// The mounted tree of a run, and where each of its files comes from.
pub struct Mounted {
    /// The tree, with every content read so far already in it.
    pub tree: Tree,
    /// Each listed path's source and file index.
    pub origins: HashMap<VPath, (usize, usize)>,
}

/// Mounts every source where the fields say, with cached contents filled in (the worker's
/// runs; on the page, where a clean-up's files come from).
///
/// An added `~/.claude.json` ([`Role::ClaudeJson`]) goes to [`Inputs::claude_json_path`],
/// in place of any file a dropped home folder holds there.
pub fn mount(sources: &[Rc<Source>], inputs: &Inputs) -> Mounted {
    let mut mounts: Vec<String> = Vec::new();
    let mut entries = Vec::new();
    let mut places = Vec::new();
    let mut failures = Vec::new();
    let total: usize = sources.iter().map(|s| s.files.len()).sum();
    entries.reserve(total);
    places.reserve(total);
    let claude_json_path = added_claude_json_path(sources, inputs);
    // Compared once normalised: the fields may spell the home as `C:\Users\bob`.
    let replaced = |path: &str| {
        claude_json_path
            .as_ref()
            .is_some_and(|added| VPath::new(path).is_ok_and(|p| &p == added))
    };
    for (s, source) in sources.iter().enumerate() {
        let Some(base) = source_base(source, inputs, claude_json_path.as_ref()) else {
            continue;
        };
        if let Origin::Demo { mounts: fixed, .. } = &source.origin {
            mounts.extend(fixed.iter().cloned());
        }
        match &base {
            // One file covers no folder: the files beside it stay outside the snapshot.
            Some(_) if source.role == Role::ClaudeJson => {}
            Some(base) => mounts.push(base.clone()),
            None => {}
        }
        let cache = source.cache.borrow();
        let stats = source.stats.borrow();
        for (f, file) in source.files.iter().enumerate() {
            let path = placed_path(base.as_deref(), &file.rel);
            if source.role != Role::ClaudeJson && replaced(&path) {
                // The added file takes the place of the one a dropped folder holds there.
                continue;
            }
            // Most runs have read nothing yet: no search per listed file then.
            let cached = if cache.is_empty() {
                None
            } else {
                cache.get(&file.rel)
            };
            let bytes = match (cached, &file.reader) {
                (Some(Ok(bytes)), _) => Some(bytes.clone()),
                (Some(Err(message)), _) => {
                    failures.push(message.clone());
                    None
                }
                (None, Reader::Static(bytes)) => Some(bytes.to_vec()),
                (None, _) => None,
            };
            let (size, modified) = match (file.size, stats.get(&f)) {
                (UNSTATTED, Some((size, modified))) => (*size, modified.clone()),
                (UNSTATTED, None) => (0, None),
                (size, _) => (size, file.modified.clone()),
            };
            let failed = matches!(cached, Some(Err(_)));
            let unknown = file.size == UNSTATTED && !stats.contains_key(&f);
            entries.push(Entry {
                path,
                size,
                bytes,
                modified,
            });
            places.push((s, f, failed, unknown));
        }
    }
    let mount_refs: Vec<&str> = mounts.iter().map(String::as_str).collect();
    // Each path is made once: for the tree and for where it comes from.
    let mut tree = Tree::from_entries(&mount_refs, std::iter::empty());
    // Hashed, not ordered: at 43,000 entries a `BTreeMap` spent 40 ms of a 180 ms mount
    // comparing paths (measured in Chromium's profiler), and nothing iterates it.
    let mut origins = HashMap::with_capacity(entries.len());
    let mut failures = failures.into_iter();
    for (entry, (s, f, failed, unknown)) in entries.into_iter().zip(places) {
        match tree.insert_entry(entry) {
            Ok(path) => {
                // Marked while the file is the last one inserted, which the tree finds
                // without a search (marking them all afterwards made the tree sort every
                // folder and search each one: a quarter of the mount).
                if failed {
                    let message = failures.next().unwrap_or_default();
                    tree.set_contents(&path, Err(message));
                }
                if unknown {
                    tree.mark_unstatted(&path);
                }
                origins.insert(path, (s, f));
            }
            Err(error) => {
                if failed {
                    failures.next();
                }
                tree.push_left_out(&error);
            }
        }
    }
    for source in sources {
        if !source.diagnostics_json.is_empty() {
            let diagnostics: Vec<Diagnostic> =
                serde_json::from_str(&source.diagnostics_json).unwrap_or_default();
            for diagnostic in diagnostics {
                tree.push_diagnostic(diagnostic);
            }
        }
    }
    Mounted { tree, origins }
}

/// Where an added `~/.claude.json` ([`Role::ClaudeJson`]) mounts, when one was added.
fn added_claude_json_path(sources: &[Rc<Source>], inputs: &Inputs) -> Option<VPath> {
    sources
        .iter()
        .any(|s| s.role == Role::ClaudeJson)
        .then(|| inputs.claude_json_path())
        .flatten()
}

/// Reads files of sources this thread holds, `(source, file)` each, in the order given;
/// each source's files together ([`Source::read_many`]: a zip's entries in one batch).
pub(crate) async fn read_local(
    sources: &[Rc<Source>],
    items: &[(usize, usize)],
) -> Vec<Result<Vec<u8>, String>> {
    let mut by_source: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (at, &(s, _)) in items.iter().enumerate() {
        by_source.entry(s).or_default().push(at);
    }
    let mut out: Vec<Result<Vec<u8>, String>> = vec![Err("not read".to_owned()); items.len()];
    for (s, at) in by_source {
        let files: Vec<usize> = at.iter().map(|&i| items[i].1).collect();
        for (i, contents) in at.into_iter().zip(sources[s].read_many(&files).await) {
            out[i] = contents;
        }
    }
    out
}

/// Runs the analysis loop in the page itself: mount, analyse, read exactly the files the core
/// names, repeat.
///
/// The page runs it in the analysis worker ([`crate::engine::worker`]); this in-process form serves
/// where no worker can start (the component tests) and states the loop once for both.
///
/// `progress` hears how far it got after every batch, and the loop yields to the event loop
/// between batches so the page stays responsive.
///
/// Returns the report, the tree with every content the analysis read (what sharing
/// sanitizes) and the exact input it ran with.
///
/// # Errors
/// A message for a person when the analysis cannot start (a bad home or project path).
pub async fn run_analysis(
    sources: Vec<Rc<Source>>,
    inputs: Inputs,
    progress: impl Fn(Progress),
) -> Result<(Report, Tree, Input), String> {
    let input = run_input(&inputs, &today());
    let read = |items: Vec<(usize, usize)>| {
        let sources = sources.clone();
        async move { read_local(&sources, &items).await }
    };
    let stat = |items: Vec<(usize, usize)>| {
        let sources = sources.clone();
        async move {
            let mut out = Vec::with_capacity(items.len());
            for (s, f) in items {
                out.push(sources[s].stat(f).await);
            }
            out
        }
    };
    analysis_loop(&sources, &inputs, input, read, stat, progress)
        .await
        .map(|done| (done.report, done.tree, done.input))
}

/// Where the last analysis loop of this thread spent its time, in milliseconds of the
/// clock: mounting the tree, the core's turns, and waiting for contents. The worker hands
/// them to the page with its report, for the page benchmark (`tests/e2e/bench.mjs`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Phases {
    /// Mounting every source into the tree.
    pub mount_ms: f64,
    /// The core's turns, added up.
    pub analyze_ms: f64,
    /// Waiting for the contents the core asked for.
    pub read_ms: f64,
    /// How many turns the analysis took.
    pub turns: u32,
    /// Looking up the sizes and dates the core asked for.
    pub stat_ms: f64,
    /// How many sizes and dates it asked for.
    pub statted: u32,
}

thread_local! {
    static PHASES: std::cell::Cell<Phases> = std::cell::Cell::new(Phases::default());
}

/// The [`Phases`] of the last analysis loop run on this thread.
pub fn last_phases() -> Phases {
    PHASES.with(std::cell::Cell::get)
}

/// What [`analysis_loop`] gives: the report, the tree with every content read, the exact
/// input, and where each listed path comes from.
pub struct Analysed {
    /// The report.
    pub report: Report,
    /// The tree, with the contents and stats the analysis asked for.
    pub tree: Tree,
    /// The input it ran with.
    pub input: Input,
    /// Each listed path's source and file index.
    pub origins: HashMap<VPath, (usize, usize)>,
}

/// The analysis loop over `sources`, reading through `read` (source and file indexes in,
/// contents out in the same order), which the page and the worker each supply.
///
/// # Errors
/// A message for a person when the analysis cannot start.
pub async fn analysis_loop<R, F, S, G>(
    sources: &[Rc<Source>],
    inputs: &Inputs,
    input: Input,
    read: R,
    stat: S,
    progress: impl Fn(Progress),
) -> Result<Analysed, String>
where
    R: Fn(Vec<(usize, usize)>) -> F,
    F: std::future::Future<Output = Vec<Result<Vec<u8>, String>>>,
    S: Fn(Vec<(usize, usize)>) -> G,
    G: std::future::Future<Output = Vec<Stat>>,
{
    let started = js_sys::Date::now();
    let Mounted { mut tree, origins } = mount(sources, inputs);
    let seen = Progress {
        entries: tree.len() as u64,
        ..Progress::default()
    };
    progress(seen);
    yield_now().await;
    let mut dropped = Dropped {
        origins,
        read,
        stat,
        progress,
        seen,
        phases: Phases {
            mount_ms: js_sys::Date::now() - started,
            ..Phases::default()
        },
        turn_started: 0.0,
    };
    let report = memdiag_core::drive(&mut tree, &input, &mut dropped).await;
    PHASES.with(|last| last.set(dropped.phases));
    Ok(Analysed {
        report: report.map_err(|e| e.to_string())?,
        tree,
        input,
        origins: dropped.origins,
    })
}

/// The dropped files as they answer the analysis: sizes and contents asked for from the
/// browser's files in batches (`read` and `stat`: source and file indexes in, answers out in
/// the same order), with progress and the time of each phase. Everything was listed at the
/// mount, so there is never a folder to list or a path to look up.
struct Dropped<R, S, P> {
    origins: HashMap<VPath, (usize, usize)>,
    read: R,
    stat: S,
    progress: P,
    seen: Progress,
    phases: Phases,
    turn_started: f64,
}

impl<R, F, S, G, P> memdiag_core::Answerer for Dropped<R, S, P>
where
    R: Fn(Vec<(usize, usize)>) -> F,
    F: std::future::Future<Output = Vec<Result<Vec<u8>, String>>>,
    S: Fn(Vec<(usize, usize)>) -> G,
    G: std::future::Future<Output = Vec<Stat>>,
    P: Fn(Progress),
{
    async fn list(&mut self, tree: &mut Tree, asks: &[memdiag_core::ListingAsk]) {
        for ask in asks {
            tree.set_listed(&ask.dir);
        }
    }

    async fn probe(&mut self, _: &mut Tree, _: &[memdiag_core::Probe]) {}

    async fn stat(&mut self, tree: &mut Tree, paths: &[VPath]) {
        let started = js_sys::Date::now();
        self.seen.files_to_go = paths.len() as u64;
        (self.progress)(self.seen);
        for chunk in paths.chunks(STAT_BATCH) {
            let known: Vec<(usize, usize)> = chunk
                .iter()
                .filter_map(|path| self.origins.get(path).copied())
                .collect();
            let mut stats = (self.stat)(known).await.into_iter();
            for path in chunk {
                let (size, modified) = match self.origins.get(path) {
                    Some(_) => stats.next().unwrap_or((0, None)),
                    None => (0, None),
                };
                tree.set_stat(path, size, modified);
            }
            self.seen.files_to_go -= chunk.len() as u64;
            (self.progress)(self.seen);
        }
        self.phases.stat_ms += js_sys::Date::now() - started;
        self.phases.statted += paths.len() as u32;
    }

    async fn read(&mut self, tree: &mut Tree, paths: &[VPath]) {
        let mut wanted = Vec::new();
        for path in paths {
            match self.origins.get(path) {
                Some(&place) => wanted.push((path, place)),
                None => tree.set_contents(path, Err("not part of the dropped files".to_owned())),
            }
        }
        self.seen.files_to_go = wanted.len() as u64;
        if !wanted.is_empty() {
            (self.progress)(self.seen);
        }
        for chunk in wanted.chunks(READ_BATCH) {
            let asked = js_sys::Date::now();
            let contents = (self.read)(chunk.iter().map(|(_, place)| *place).collect()).await;
            self.phases.read_ms += js_sys::Date::now() - asked;
            for ((path, _), contents) in chunk.iter().zip(contents) {
                if let Ok(bytes) = &contents {
                    self.seen.files_read += 1;
                    self.seen.bytes_read += bytes.len() as u64;
                }
                tree.set_contents(path, contents);
            }
            self.seen.files_to_go -= chunk.len() as u64;
            (self.progress)(self.seen);
            yield_now().await;
        }
        (self.progress)(self.seen);
    }

    fn turn_starts(&mut self) {
        self.turn_started = js_sys::Date::now();
    }

    fn turn_ends(&mut self) {
        self.phases.analyze_ms += js_sys::Date::now() - self.turn_started;
        self.phases.turns += 1;
        PHASES.with(|last| last.set(self.phases));
    }
}

/// Analyses a shared snapshot, simulating `version` (the one it was shared with, or another
/// the reader picked).
///
/// The shared tree holds every content the analysis reads, so this finishes in one turn; a
/// file it would still ask for is marked unreadable rather than looked for.
///
/// # Errors
/// A message for a person when the analysis cannot start (a path the snapshot got wrong).
pub fn analyze_shared(
    shared: &SharedSnapshot,
    version: Option<String>,
) -> Result<(Report, Tree, Input), String> {
    let mut tree = shared.tree.clone();
    let input = Input {
        version,
        ..shared.input.clone()
    };
    let report = analyze_with(&mut tree, &input, &mut NotShared).map_err(|e| e.to_string())?;
    Ok((report, tree, input))
}

/// What a shared snapshot answers for a file it does not hold.
struct NotShared;

impl ContentSource for NotShared {
    fn read(&mut self, _: &VPath) -> Result<Vec<u8>, String> {
        Err("not in the shared snapshot".to_owned())
    }
}

/// `page::ingest::open_zip_file` in this thread: the worker's, or the page's where there is no worker
/// (the component tests).
///
/// # Errors
/// As `page::ingest::open_zip_file`.
pub async fn open_zip_here(file: File) -> Result<Opened, String> {
    let name = file.name();
    let (scratch, archive) = zip_in_place(&file).await?;
    let manifest = VPath::new(&format!("/zip/{MANIFEST_NAME}")).ok();
    if manifest.is_some_and(|m| scratch.is_file(&m)) {
        // A share zip is small and is opened whole, as a link is.
        let bytes = zip_bytes(&file).await?;
        if is_share_zip(&bytes) {
            return open_share_zip(&bytes)
                .map(|shared| {
                    Opened::Shared(Box::new(shared), name.clone(), SharedRaw::Zip(file.clone()))
                })
                .map_err(|error| {
                    format!("{name}: {}", crate::wire::share::open_error("file", &error))
                });
        }
    }
    Ok(Opened::Source(Source::zip_listed(
        &name,
        &scratch,
        archive,
        Some(file),
    )))
}

/// Archives listed and kept for the run that follows ([`Source::keep_listed_archive`]).
const LISTED_ARCHIVES_KEPT: usize = 4;

thread_local! {
    static LISTED_ARCHIVES: RefCell<Vec<(ArchiveKey, ZipSource)>> = const { RefCell::new(Vec::new()) };
}

/// What names a zip `File` across messages (each message gives the worker a new `File`
/// object): its name, size and modification time. Should another archive ever share all
/// three, its entries' local headers and checksums would not match and its reads fail.
type ArchiveKey = (String, u64, u64);

fn archive_key(file: &File) -> ArchiveKey {
    (file.name(), file.size() as u64, file.last_modified() as u64)
}

/// The archive of `file` as the listing opened it, once ([`Source::keep_listed_archive`]):
/// a run takes it, so a later run (a version change, a project added) opens the zip again
/// with its caps counted afresh.
fn take_listed_archive(file: &File) -> Option<ZipSource> {
    let key = archive_key(file);
    LISTED_ARCHIVES.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = kept.iter().position(|(k, _)| *k == key)?;
        Some(kept.remove(at).1)
    })
}

/// Lists a zip `File` in place into a scratch tree at `/zip`: its end and central directory
/// are read through `File.slice`, never the whole archive; entries are read when asked.
async fn zip_in_place(file: &File) -> Result<(Tree, ZipSource), String> {
    let name = file.name();
    let mut archive = ZipInPlace::new(file.size() as u64);
    let mut range = archive.tail();
    for _ in 0..MAX_OPEN_FETCHES {
        let bytes = slice_bytes(file, &range).await?;
        archive.add(range.start, bytes);
        let mut scratch = Tree::new();
        match mount_zip_in_place(&mut scratch, "/zip", &archive, ZipLimits::default()) {
            Ok(Fetch::Done(source)) => return Ok((scratch, source)),
            Ok(Fetch::Needs(next)) => range = next,
            Err(error) => return Err(zip_error(&name, &error)),
        }
    }
    Err(zip_error(
        &name,
        &memdiag_core::ZipError::NotAZip("its directory could not be found".to_owned()),
    ))
}

/// The message for a zip that cannot be opened.
fn zip_error(file_name: &str, error: &memdiag_core::ZipError) -> String {
    format!(
        "{file_name} cannot be opened ({error}). Zip the folder again, or drop the folder itself."
    )
}

/// Reads `range` of a `File` (`File.slice`).
async fn slice_bytes(file: &File, range: &std::ops::Range<u64>) -> Result<Vec<u8>, String> {
    slice_finished(file, slice_started(file, range)?).await
}

/// Starts reading `range` of a `File`: the browser reads it while the caller goes on.
fn slice_started(file: &File, range: &std::ops::Range<u64>) -> Result<JsFuture, String> {
    let blob = file
        .slice_with_f64_and_f64(range.start as f64, range.end as f64)
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(JsFuture::from(blob.array_buffer()))
}

/// The bytes a [`slice_started`] read gave.
async fn slice_finished(file: &File, read: JsFuture) -> Result<Vec<u8>, String> {
    let buffer = read
        .await
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

async fn zip_bytes(file: &File) -> Result<Vec<u8>, String> {
    if file.size() > 2048.0 * 1024.0 * 1024.0 {
        return Err(format!(
            "{} is larger than 2 GB; zip only what matters.",
            file.name()
        ));
    }
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// The name of the single top folder every path sits in, if there is one.
fn single_top_folder<'a>(paths: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut top: Option<&str> = None;
    for path in paths {
        let (first, _) = path.split_once('/')?;
        match top {
            None => top = Some(first),
            Some(seen) if seen == first => {}
            Some(_) => return None,
        }
    }
    top.map(str::to_owned)
}
