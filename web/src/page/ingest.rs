//! Getting files in: dropped folders and zips, the folder and zip inputs, the demo, and the
//! analysis loop that reads only what the core asks for.
//!
//! A source is listed once (paths, from a dropped folder's entries, a folder input's
//! `File`s or a zip's central directory) and mounted into a fresh [`Tree`] for every run,
//! because where it mounts depends on the home and project fields. A folder's files are
//! listed by name only ([`UNSTATTED`]): their sizes and dates are looked up when the
//! analysis looks at their entries ([`Tree::take_stats_asked`]), and contents are read when
//! [`memdiag_core::analyze`] names them; both are cached per source so that editing a field
//! does not look anything up twice. A zip is read in place: its central directory, then
//! only the entries asked for (`File.slice`). Session transcripts are never read: the core
//! never asks.
//!
//! An added `~/.claude.json` is one more source of one file, kept apart from the folders and
//! zips (dropping a folder does not replace it). It is placed where the analysis looks for it
//! (see [`crate::page::state::claude_json_path`]) and read, like any file, only if the analysis
//! asks: only when a project is set, and then only for its one approval key.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use js_sys::{Array, Promise, Reflect, Uint8Array};
use memdiag_core::infer::{self, FolderKind};
#[cfg(feature = "engine")]
use memdiag_core::report::Report;
#[cfg(feature = "engine")]
use memdiag_core::{
    analyze_with, is_share_zip, mount_zip, mount_zip_in_place, open_share_zip, BatchStep,
    ContentSource, Fetch, ZipInPlace, ZipLimits, ZipSource, MANIFEST_NAME, MAX_OPEN_FETCHES,
};
use memdiag_core::{is_bulk_data, Diagnostic, Entry, Input, SharedSnapshot, Tree, VPath};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    File, FileList, FileSystemDirectoryEntry, FileSystemDirectoryHandle, FileSystemEntry,
    FileSystemFileEntry, HtmlInputElement,
};

#[cfg(feature = "engine")]
use crate::page::browser::today;
use crate::page::browser::{after_paint, js_message, yield_now, yield_urgent};
#[cfg(feature = "engine")]
use crate::page::state::Progress;
use crate::page::state::{Inputs, SharedFrom, SourceInfo};
use crate::page::worker_host::Host;

/// Files larger than this are not read into the page; the analysis records why. The core's
/// one read limit, which the zip mount and the scan command use too.
pub const MAX_READ_BYTES: f64 = memdiag_core::limits::READ_LIMIT_BYTES as f64;

/// How many `File` lookups are in flight at once while a dropped folder is listed.
const LIST_BATCH: usize = 256;

/// How long a folder input is listed before the page yields to draw its progress; the
/// first time sooner, so that it shows it is busy within a frame or two of the drop.
const LIST_SLICE_MS: f64 = 50.0;
const FIRST_LIST_SLICE_MS: f64 = 16.0;

#[cfg(feature = "engine")]
/// How many sizes and dates are asked of the page in one message by the worker.
const STAT_BATCH: usize = 1024;

#[cfg(feature = "engine")]
/// How many contents are read between two yields to the event loop (and asked of the page
/// in one message by the worker).
const READ_BATCH: usize = 64;

/// Where a source mounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A Claude config directory: `<home>/.claude` (or the config dir field).
    Config,
    /// A home folder holding `.claude/`: mounted at the home field.
    Home,
    /// A project folder: the project field.
    Project,
    /// Files with absolute paths already (the demo).
    Fixed,
    /// The added `~/.claude.json`: one file, placed where the analysis reads it.
    ClaudeJson,
}

/// How one listed file's bytes are fetched.
pub enum Reader {
    /// From a browser `File`.
    File(File),
    /// File `n` of a folder input's list of `File`s, taken from it only when the analysis
    /// asks for its size or contents.
    InList(Rc<Array>, u32),
    /// From the source's zip archive, by its path there.
    Zip(VPath),
    /// Compiled into the page.
    Static(&'static [u8]),
    /// A file listed by name only, from a dropped folder's entry: its `File` is fetched
    /// only if the analysis asks for its size or contents.
    Entry(FileSystemFileEntry),
    /// Bulk data listed by name only, from a kept folder handle (Refresh).
    Handle(JsValue),
    /// From a live folder's file handle ([`crate::page::live`]).
    Live(Rc<dyn crate::page::live::FileRef>),
    /// A copy of a page source inside the analysis worker: the page reads it on request
    /// (see [`crate::engine::worker`]).
    Remote,
}

/// The size of a [`SourceFile`] listed by name only: its size and date are looked up when
/// the analysis asks ([`memdiag_core::Tree::mark_unstatted`]), since the browser's first
/// look-up of either is slow and most files of a real `~/.claude` or project are never
/// looked at.
pub const UNSTATTED: u64 = u64::MAX;

/// One listed file of a source.
pub struct SourceFile {
    /// The path relative to the source's root (absolute for [`Role::Fixed`]).
    pub rel: String,
    /// The size in bytes, or [`UNSTATTED`].
    pub size: u64,
    /// How to read it.
    pub reader: Reader,
    /// The last modification time as ISO 8601, when the source knows it.
    pub modified: Option<String>,
}

/// Where a source came from, which decides whether Refresh can read it again.
pub enum Origin {
    /// A folder; with a handle when the browser gave one on drop.
    Folder(Option<FileSystemDirectoryHandle>),
    /// A zip; with its `File`, which can be read again while it is unchanged on disk.
    Zip(Option<File>),
    /// One file chosen through a file input (the added `~/.claude.json`).
    File(File),
    /// The built-in demo, with its mount points and host facts.
    Demo {
        /// The folders the demo covers.
        mounts: Vec<String>,
        /// Its home, project and OS.
        inputs: Inputs,
    },
    /// The analysis worker's copy of a page source, with the page source's kind
    /// (`folder`, `zip`, `file`).
    Listed(&'static str),
    /// A live folder ([`crate::page::live`]): walked by the page, read again on Refresh, written
    /// to by clean-ups.
    Live(Rc<crate::page::live::LiveRoot>),
}

/// One dropped or chosen folder or zip.
pub struct Source {
    /// Names this source in messages between the page and the analysis worker.
    id: u32,
    /// The folder or zip name.
    pub name: String,
    /// Where it mounts.
    pub role: Role,
    /// Where it came from.
    pub origin: Origin,
    /// Its files in byte order of their relative paths.
    pub files: Vec<SourceFile>,
    #[cfg(feature = "engine")]
    zip: RefCell<Option<ZipSource>>,
    /// The findings made while the source was listed (a zip's rejected entries), as JSON:
    /// they cross to the worker as they came from it.
    diagnostics_json: String,
    cache: RefCell<BTreeMap<String, Result<Vec<u8>, String>>>,
    /// Sizes and dates looked up for files listed by name only.
    stats: RefCell<BTreeMap<usize, Stat>>,
    /// The analysis worker's copy: the `File`s the page handed over when asked, by file
    /// index (`None`: the page has none to give), which the worker sizes and reads itself.
    handed: RefCell<BTreeMap<usize, Option<File>>>,
}

/// A file's size and date, as looked up.
pub type Stat = (u64, Option<String>);

impl Source {
    /// A folder source; its role comes from its name and files.
    pub fn folder(
        name: String,
        mut files: Vec<SourceFile>,
        handle: Option<FileSystemDirectoryHandle>,
    ) -> Source {
        crate::sort_by(&mut files, |a, b| a.rel.cmp(&b.rel));
        let role = match infer::classify_folder(&name, files.iter().map(|f| f.rel.as_str())) {
            FolderKind::ConfigDir => Role::Config,
            FolderKind::Home => Role::Home,
            // An unrelated folder would mount as the project too; the engine asks first
            // ([`Source::looks_unrelated`]).
            FolderKind::Project | FolderKind::Unrelated => Role::Project,
        };
        Source {
            id: next_source_id(),
            name,
            role,
            origin: Origin::Folder(handle),
            files,
            #[cfg(feature = "engine")]
            zip: RefCell::new(None),
            diagnostics_json: String::new(),
            cache: RefCell::default(),
            stats: RefCell::default(),
            handed: RefCell::default(),
        }
    }

    /// A zip source: lists the central directory and decides the role from its layout.
    ///
    /// A zip holding one top folder (`.claude/…`, the usual result of zipping a folder) is
    /// read from inside that folder; `__MACOSX` resource forks are left out.
    ///
    /// # Errors
    /// When the bytes are not a zip archive.
    #[cfg(feature = "engine")]
    pub fn zip(file_name: &str, bytes: Vec<u8>, file: Option<File>) -> Result<Source, String> {
        let mut scratch = Tree::new();
        let archive = mount_zip(&mut scratch, "/zip", bytes, ZipLimits::default())
            .map_err(|e| zip_error(file_name, &e))?;
        Ok(Source::zip_listed(file_name, &scratch, archive, file))
    }

    /// A zip source from an archive listed into `scratch` at `/zip`.
    #[cfg(feature = "engine")]
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

    /// Inflates one entry of the source's zip (see [`Source::read_zip_entries`]).
    #[cfg(feature = "engine")]
    async fn read_zip(&self, path: &VPath) -> Result<Vec<u8>, String> {
        let mut results = self.read_zip_entries(std::slice::from_ref(path)).await;
        results
            .pop()
            .unwrap_or_else(|| Err("the archive read nothing".to_owned()))
    }

    /// Inflates entries of the source's zip, in the order given. An archive read in place
    /// fetches only the entries' compressed bytes from the zip `File` (`File.slice`), in a
    /// few merged ranges that are all asked for before any is awaited
    /// ([`ZipSource::batch_in_place`]): one fetch per entry, one after the other, was most of
    /// a zip project drop's wait for reads. The worker's copy of a zip opens its archive
    /// (its central directory) on the first read.
    #[cfg(feature = "engine")]
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
    #[cfg(feature = "engine")]
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
        if asked.len() < 2 {
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
    #[cfg(feature = "engine")]
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

    /// The page reads no archive: the worker reads a zip's entries.
    #[cfg(not(feature = "engine"))]
    async fn read_zip(&self, _path: &VPath) -> Result<Vec<u8>, String> {
        Err("a zip's files are read by the analysis worker".to_owned())
    }

    /// The demo source, with absolute paths (and, in the worker, the bytes compiled in).
    pub fn demo(files: Vec<SourceFile>, mounts: Vec<String>, inputs: Inputs) -> Source {
        Source {
            id: next_source_id(),
            name: "demo".to_owned(),
            role: Role::Fixed,
            origin: Origin::Demo { mounts, inputs },
            files,
            #[cfg(feature = "engine")]
            zip: RefCell::new(None),
            diagnostics_json: String::new(),
            cache: RefCell::default(),
            stats: RefCell::default(),
            handed: RefCell::default(),
        }
    }

    /// The added `~/.claude.json`: listed by its size only; nothing of it is read here.
    pub fn claude_json(file: File) -> Source {
        Source {
            id: next_source_id(),
            name: file.name(),
            role: Role::ClaudeJson,
            files: vec![SourceFile {
                rel: ".claude.json".to_owned(),
                size: file.size() as u64,
                modified: modified_of(&file),
                reader: Reader::File(file.clone()),
            }],
            origin: Origin::File(file),
            #[cfg(feature = "engine")]
            zip: RefCell::new(None),
            diagnostics_json: String::new(),
            cache: RefCell::default(),
            stats: RefCell::default(),
            handed: RefCell::default(),
        }
    }

    /// True when Refresh can read this source again.
    pub fn rereadable(&self) -> bool {
        match &self.origin {
            Origin::Folder(handle) => handle.is_some(),
            Origin::Live(_) => true,
            Origin::Zip(file) => file.is_some(),
            Origin::File(_) | Origin::Demo { .. } => true,
            Origin::Listed(_) => false,
        }
    }

    /// Forgets every content read so far, so the next run reads again.
    pub fn forget_contents(&self) {
        self.cache.borrow_mut().clear();
        self.stats.borrow_mut().clear();
    }

    /// True for a folder or zip that is neither a `~/.claude`, a home nor a project (see
    /// [`memdiag_core::infer::FolderKind::Unrelated`]): the page asks before it takes it as
    /// the project.
    pub fn looks_unrelated(&self) -> bool {
        self.role == Role::Project
            && matches!(
                infer::classify_folder(&self.name, self.files.iter().map(|f| f.rel.as_str())),
                FolderKind::Unrelated
            )
    }

    /// The names of the folders under `projects/`, for a config directory.
    pub fn project_folder_names(&self) -> Vec<String> {
        match self.role {
            Role::Config => infer::project_folder_names(self.files.iter().map(|f| f.rel.as_str())),
            Role::Home => infer::project_folder_names(
                self.files
                    .iter()
                    .filter_map(|f| infer::config_relative(&f.rel)),
            ),
            Role::Project | Role::Fixed | Role::ClaudeJson => Vec::new(),
        }
    }

    /// The source as the top bar lists it.
    pub fn info(&self) -> SourceInfo {
        SourceInfo {
            label: self.name.clone(),
            kind: match self.origin {
                Origin::Folder(_) => "folder",
                Origin::Live(_) => "live folder",
                Origin::Zip(_) => "zip",
                Origin::File(_) => "file",
                Origin::Demo { .. } => "demo",
                Origin::Listed(kind) => kind,
            },
            role: match self.role {
                Role::Config => "config",
                Role::Home => "home",
                Role::Project => "project",
                Role::Fixed => "demo",
                Role::ClaudeJson => "claude-json",
            },
            files: self.files.len(),
            rereadable: self.rereadable(),
        }
    }

    /// The number that names this source between the page and the analysis worker.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The worker's copy of a page source: the same listing and findings, read on request.
    pub(crate) fn listed(
        id: u32,
        name: String,
        role: Role,
        kind: &'static str,
        files: Vec<SourceFile>,
        diagnostics_json: String,
    ) -> Source {
        Source {
            id,
            name,
            role,
            origin: Origin::Listed(kind),
            files,
            #[cfg(feature = "engine")]
            zip: RefCell::new(None),
            diagnostics_json,
            cache: RefCell::default(),
            stats: RefCell::default(),
            handed: RefCell::default(),
        }
    }

    /// The same source under another id (the worker's demo, named as the page's).
    pub(crate) fn with_id(mut self, id: u32) -> Source {
        self.id = id;
        self
    }

    /// The same source read from the zip `file` (a zip's listing, from its message).
    pub(crate) fn with_zip(mut self, file: File) -> Source {
        self.origin = Origin::Zip(Some(file));
        self
    }

    /// The same source under a new id of this side (a zip the worker listed for the page).
    pub(crate) fn with_new_id(self) -> Source {
        self.with_id(next_source_id())
    }

    /// The findings made while the source was listed (a zip's rejected entries).
    pub(crate) fn diagnostics_json(&self) -> &str {
        &self.diagnostics_json
    }

    /// A content read before, if any.
    pub(crate) fn cached(&self, index: usize) -> Option<Result<Vec<u8>, String>> {
        let rel = &self.files.get(index)?.rel;
        self.cache.borrow().get(rel).cloned()
    }

    /// Keeps a content read elsewhere (the worker's copy, from the page).
    pub(crate) fn remember(&self, index: usize, contents: Result<Vec<u8>, String>) {
        if let Some(file) = self.files.get(index) {
            self.cache.borrow_mut().insert(file.rel.clone(), contents);
        }
    }

    /// The size and date of one of its files: as listed, or looked up (once) for a file
    /// listed by name only. A file the browser cannot open any more has size 0 and no date
    /// (reading it then fails with the reason).
    pub(crate) async fn stat(&self, index: usize) -> Stat {
        let Some(file) = self.files.get(index) else {
            return (0, None);
        };
        if file.size != UNSTATTED {
            return (file.size, file.modified.clone());
        }
        if let Some(hit) = self.stats.borrow().get(&index) {
            return hit.clone();
        }
        if let Reader::Live(live) = &file.reader {
            // A live folder's file the walk listed without its size (crate::page::live::lazy).
            let stat = crate::page::live::stat_of(live.as_ref()).await;
            self.remember_stat(index, stat.clone());
            return stat;
        }
        let stat = match self.file_object(index).await {
            Some(found) => (found.size() as u64, modified_of(&found)),
            None => (0, None),
        };
        self.remember_stat(index, stat.clone());
        stat
    }

    /// The browser's `File` behind one of its files, for the analysis worker to size and
    /// read itself: a folder input's, a dropped folder's, a chosen file's, or (in the
    /// worker) one the page handed over. `None` for a file with none (a zip's entry, a live
    /// folder's, the demo's) or one the browser cannot open any more.
    pub(crate) async fn file_object(&self, index: usize) -> Option<File> {
        match &self.files.get(index)?.reader {
            Reader::File(handle) => Some(handle.clone()),
            Reader::InList(list, n) => list.get(*n).dyn_into::<File>().ok(),
            Reader::Entry(entry) => entry_file(entry).await,
            Reader::Handle(handle) => handle_file(handle).await,
            Reader::Remote => self.handed.borrow().get(&index).cloned().flatten(),
            Reader::Live(_) | Reader::Static(_) | Reader::Zip(_) => None,
        }
    }

    #[cfg(feature = "engine")]
    /// Keeps what the page answered when asked for one of its files' `File` (the worker's
    /// copy): the `File`, or `None` when the page has none to give.
    pub(crate) fn hand_over(&self, index: usize, file: Option<File>) {
        self.handed.borrow_mut().insert(index, file);
    }

    #[cfg(feature = "engine")]
    /// Whether the page was asked for one of its files' `File` (the worker's copy), and what
    /// it answered.
    pub(crate) fn handed(&self, index: usize) -> Option<Option<File>> {
        self.handed.borrow().get(&index).cloned()
    }

    #[cfg(feature = "engine")]
    /// A size and date looked up before, if any.
    pub(crate) fn cached_stat(&self, index: usize) -> Option<Stat> {
        self.stats.borrow().get(&index).cloned()
    }

    /// Keeps a size and date looked up elsewhere (the worker's copy, from the page).
    pub(crate) fn remember_stat(&self, index: usize, stat: Stat) {
        self.stats.borrow_mut().insert(index, stat);
    }

    /// Reads one of its files, from the cache when it was read before.
    pub(crate) async fn read(&self, index: usize) -> Result<Vec<u8>, String> {
        let file = &self.files[index];
        if let Some(hit) = self.cache.borrow().get(&file.rel) {
            return hit.clone();
        }
        // The size looked up when the analysis asked for it: Chromium looks a file's size up
        // again (slowly) at every ask, and most files read were sized just before.
        let sized = self
            .stats
            .borrow()
            .get(&index)
            .map(|(size, _)| *size as f64);
        let result = match &file.reader {
            Reader::File(handle) => read_file(handle).await,
            Reader::InList(list, n) => match list.get(*n).dyn_into::<File>() {
                Ok(file) => read_sized(&file, sized).await,
                Err(_) => Err("the browser no longer holds the file".to_owned()),
            },
            Reader::Entry(entry) => match entry_file(entry).await {
                Some(handle) => read_file(&handle).await,
                None => Err("the browser could not open the file".to_owned()),
            },
            Reader::Live(file) => file.read().await,
            Reader::Handle(handle) => match handle_file(handle).await {
                Some(file) => read_file(&file).await,
                None => Err("the browser could not open the file".to_owned()),
            },
            Reader::Static(bytes) => Ok(bytes.to_vec()),
            Reader::Remote => match self.file_object(index).await {
                Some(file) => read_sized(&file, sized).await,
                None => Err("the page did not hand this file over".to_owned()),
            },
            Reader::Zip(path) => self.read_zip(path).await,
        };
        self.cache
            .borrow_mut()
            .insert(file.rel.clone(), result.clone());
        result
    }

    /// Reads several of its files as [`Source::read`] does, a zip's entries together.
    #[cfg(feature = "engine")]
    pub(crate) async fn read_many(&self, indices: &[usize]) -> Vec<Result<Vec<u8>, String>> {
        self.read_zip_ahead(indices).await;
        let mut out = Vec::with_capacity(indices.len());
        for &index in indices {
            out.push(self.read(index).await);
        }
        out
    }
}

thread_local! {
    static NEXT_SOURCE_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

fn next_source_id() -> u32 {
    NEXT_SOURCE_ID.with(|next| {
        let id = next.get();
        next.set(id.wrapping_add(1));
        id
    })
}

/// A shared snapshot opened from a link or a share zip.
pub struct SharedSource {
    /// What the link or file holds.
    pub snapshot: SharedSnapshot,
    /// Where it came from.
    pub from: SharedFrom,
    /// The link or file itself, which the analysis worker opens again for its own copy.
    pub raw: SharedRaw,
}

/// A shared snapshot as it came: the analysis worker decodes it again from this.
#[derive(Clone)]
pub enum SharedRaw {
    /// A link's fragment.
    Link(String),
    /// A share zip.
    Zip(File),
}

impl SharedSource {
    /// The host facts it was shared with, as the fields show them.
    pub fn inputs(&self) -> Inputs {
        let input = &self.snapshot.input;
        Inputs {
            home: input.home.clone(),
            project: input.project.clone().unwrap_or_default(),
            os: input.os,
            config_dir: input.config_dir.clone().unwrap_or_default(),
            project_mount: None,
            version: input.version.clone(),
            reads: Vec::new(),
            add_dirs: input.additional_dirs.join(","),
        }
    }

    /// The shared snapshot as the top bar lists it.
    pub fn info(&self) -> SourceInfo {
        SourceInfo {
            label: match &self.from {
                SharedFrom::Link => "link".to_owned(),
                SharedFrom::File(name) => name.clone(),
            },
            kind: "shared",
            role: "shared",
            files: self.snapshot.tree.len(),
            rereadable: false,
        }
    }
}

/// The sources of the snapshot: at most one config directory and one project, the demo, or
/// a shared snapshot; and, beside them, the added `~/.claude.json`.
#[derive(Default)]
pub struct Snapshot {
    /// The sources, config first.
    pub sources: Vec<Rc<Source>>,
    /// The shared snapshot shown read-only; when set, there are no sources.
    pub shared: Option<Rc<SharedSource>>,
    /// The added `~/.claude.json` ([`Source::claude_json`]); it stays when sources are
    /// added or the demo is shown, and goes with [`Snapshot::clear`] and a shared snapshot.
    pub claude_json: Option<Rc<Source>>,
}

impl Snapshot {
    /// Adds a source; it replaces the demo, a shared snapshot and any earlier source in the
    /// same place (a home folder and a config directory both bring the config directory).
    pub fn add(&mut self, source: Source) {
        self.shared = None;
        let brings_config = |role: Role| matches!(role, Role::Config | Role::Home);
        self.sources.retain(|s| {
            s.role != Role::Fixed
                && s.role != source.role
                && !(brings_config(s.role) && brings_config(source.role))
        });
        self.sources.push(Rc::new(source));
        crate::sort_by(&mut self.sources, |a, b| {
            (a.role == Role::Project).cmp(&(b.role == Role::Project))
        });
    }

    /// Replaces everything with the demo.
    pub fn set_demo(&mut self, demo: Source) {
        self.shared = None;
        self.sources = vec![Rc::new(demo)];
    }

    /// Replaces everything with a shared snapshot.
    pub fn set_shared(&mut self, shared: SharedSource) {
        self.sources.clear();
        self.claude_json = None;
        self.shared = Some(Rc::new(shared));
    }

    /// Adds a `~/.claude.json` in place of any added before, or removes it (`None`).
    pub fn set_claude_json(&mut self, source: Option<Source>) {
        self.claude_json = source.map(Rc::new);
    }

    /// What a run mounts: the sources, then the added `~/.claude.json`. Empty while there
    /// are no sources: a `~/.claude.json` alone holds nothing to analyse.
    pub fn run_sources(&self) -> Vec<Rc<Source>> {
        if self.sources.is_empty() {
            return Vec::new();
        }
        self.sources
            .iter()
            .chain(&self.claude_json)
            .cloned()
            .collect()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.sources.clear();
        self.shared = None;
        self.claude_json = None;
    }

    /// True when the demo is what the page shows.
    pub fn is_demo(&self) -> bool {
        self.sources.iter().any(|s| s.role == Role::Fixed)
    }

    /// The sources as the top bar lists them.
    pub fn infos(&self) -> Vec<SourceInfo> {
        match &self.shared {
            Some(shared) => vec![shared.info()],
            None => self.sources.iter().map(|s| s.info()).collect(),
        }
    }

    /// The dropped home folder's name, if one was dropped.
    pub fn home_name(&self) -> Option<&str> {
        self.sources
            .iter()
            .find(|s| s.role == Role::Home)
            .map(|s| s.name.as_str())
    }

    /// The dropped project folder's name, if one was dropped.
    pub fn project_name(&self) -> Option<&str> {
        self.sources
            .iter()
            .find(|s| s.role == Role::Project)
            .map(|s| s.name.as_str())
    }

    /// Home, project and OS guessed from the sources (see [`memdiag_core::infer`]).
    ///
    /// `fallback_home` is used when no config directory tells the home.
    #[cfg(feature = "engine")]
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

/// Where the files of `source` go, by its role and the fields: `Some(Some(folder))` below
/// that folder, `Some(None)` at their own whole paths (the demo, a fixed source), `None`
/// nowhere (a project folder without a place; an added `~/.claude.json`, whose folder is
/// `claude_json_path`'s, without an absolute home). [`mount`], the Reads view's
/// [`files_below`] and the page's clean-up targets (`live::placed`) place files by it, so
/// they agree on every path.
pub(crate) fn source_base(
    source: &Source,
    inputs: &Inputs,
    claude_json_path: Option<&VPath>,
) -> Option<Option<String>> {
    Some(match (&source.origin, source.role) {
        (Origin::Demo { .. }, _) | (_, Role::Fixed) => None,
        (_, Role::Config) => Some(inputs.effective_config_dir()),
        (_, Role::Home) => Some(inputs.home.trim().to_owned()),
        (_, Role::Project) => match inputs.project_mount.clone() {
            Some(place) => Some(place),
            None if !inputs.project.trim().is_empty() => Some(inputs.project.trim().to_owned()),
            // A project folder needs a place to mount; without one it stays out.
            None => return None,
        },
        // Its one file is `.claude.json`, in the folder the analysis reads it from.
        (_, Role::ClaudeJson) => Some(claude_json_path?.parent()?.as_str().to_owned()),
    })
}

/// The path a file listed at `rel` in its source gets below `base` ([`source_base`]).
pub(crate) fn placed_path(base: Option<&str>, rel: &str) -> String {
    match base {
        Some(base) => {
            // Pushed, not `format!`ted: this runs once per listed file of every mount.
            let base = base.trim_end_matches('/');
            let mut path = String::with_capacity(base.len() + 1 + rel.len());
            path.push_str(base);
            path.push('/');
            path.push_str(rel);
            path
        }
        None => rel.to_owned(),
    }
}

/// Every listed file below `dir` (absolute, as the analysis sees it), sorted: what the Reads
/// view offers to ask about. Files inside a `.git` folder are left out: Claude Code never
/// reads them as a person's files.
pub fn files_below(sources: &[Rc<Source>], inputs: &Inputs, dir: &str) -> Vec<String> {
    let dir = dir.trim().trim_end_matches('/');
    if dir.is_empty() {
        return Vec::new();
    }
    let prefix = format!("{dir}/");
    let mut out = Vec::new();
    for source in sources {
        if source.role == Role::ClaudeJson {
            continue;
        }
        let Some(base) = source_base(source, inputs, None) else {
            continue;
        };
        for file in &source.files {
            let path = placed_path(base.as_deref(), &file.rel);
            let inside_git = path.split('/').any(|segment| segment == ".git");
            if path.starts_with(&prefix) && !inside_git {
                out.push(path);
            }
        }
    }
    crate::sort_by(&mut out, |a, b| a.cmp(b));
    out.dedup();
    out
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

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
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

/// The analysis input the fields describe, on the day `today` (`YYYY-MM-DD`).
pub fn run_input(inputs: &Inputs, today: &str) -> Input {
    let mut input = inputs.to_input();
    input.today = Some(today.to_owned());
    input
}

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
thread_local! {
    static PHASES: std::cell::Cell<Phases> = std::cell::Cell::new(Phases::default());
}

#[cfg(feature = "engine")]
/// The [`Phases`] of the last analysis loop run on this thread.
pub fn last_phases() -> Phases {
    PHASES.with(std::cell::Cell::get)
}

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
/// What a shared snapshot answers for a file it does not hold.
struct NotShared;

#[cfg(feature = "engine")]
impl ContentSource for NotShared {
    fn read(&mut self, _: &VPath) -> Result<Vec<u8>, String> {
        Err("not in the shared snapshot".to_owned())
    }
}

/// Reads a `File` whole.
///
/// # Errors
/// When the file is too large for the page or the browser cannot read it (it changed on disk
/// since it was chosen, or permission was withdrawn).
pub async fn read_file(file: &File) -> Result<Vec<u8>, String> {
    read_sized(file, None).await
}

/// [`read_file`], with the file's size when it was looked up already (`sized`).
async fn read_sized(file: &File, sized: Option<f64>) -> Result<Vec<u8>, String> {
    let size = sized.unwrap_or_else(|| file.size());
    if size > MAX_READ_BYTES {
        return Err(format!(
            "{} is too large to read in the browser ({} MB)",
            file.name(),
            crate::page::decimal::fixed(size / 1_048_576.0, 0)
        ));
    }
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
export function memdiag_relative_paths(files, start, end, kept) {
  const paths = new Array(end - start);
  for (let i = start; i < end; i++) {
    const file = files[i];
    kept.push(file);
    paths[i - start] = file.webkitRelativePath || file.name;
  }
  return paths.join('\\0');
}")]
extern "C" {
    /// The paths of files `start..end` of a folder input's list relative to the chosen
    /// folder's parent (a file's name alone when the browser gives none), joined by NUL, which
    /// no file name holds: one call and one string for many files. Asked file by file from
    /// wasm, the three calls per file were most of the page's 115 ms listing 30,000 files
    /// (measured in Chromium's profiler). Each `File` is pushed onto `kept` as well, since
    /// clearing the input empties its list.
    #[wasm_bindgen(js_name = memdiag_relative_paths)]
    fn relative_paths(files: &FileList, start: u32, end: u32, kept: &Array) -> String;
}

/// How many files' paths [`folder_from_files`] asks for in one call: at 300,000 files one
/// call for all kept the page from showing it was busy for a third of a second.
const PATHS_BATCH: usize = 4096;

/// The files of a folder input (`webkitdirectory`), as one folder source named after the
/// chosen folder. It waits for the frame that shows the page busy, then lists in slices,
/// yielding after [`FIRST_LIST_SLICE_MS`] and then every [`LIST_SLICE_MS`], so that `listed`
/// can show how far it got. The `File`s are copied out of `list` batch by batch: taken all at
/// once in the `change` handler (`Array.from`), 300,000 of them held the page 200 ms before it
/// could say it was busy.
///
/// # Errors
/// When the list is empty.
pub async fn folder_from_files(list: &FileList, listed: &dyn Fn(u64)) -> Result<Source, String> {
    after_paint().await;
    let count = list.length() as usize;
    let kept = Rc::new(Array::new());
    let mut root = None;
    let mut files = Vec::with_capacity(count);
    let (mut slice_started, mut slice_ms) = (js_sys::Date::now(), FIRST_LIST_SLICE_MS);
    while files.len() < count {
        let (start, end) = (files.len(), (files.len() + PATHS_BATCH).min(count));
        let paths = relative_paths(list, start as u32, end as u32, &kept);
        for (offset, relative) in paths.split('\0').take(end - start).enumerate() {
            files.push(input_file(&mut root, relative, &kept, start + offset));
        }
        if end < count && js_sys::Date::now() - slice_started >= slice_ms {
            listed(files.len() as u64);
            // Not behind the tasks Chromium queued for the chosen files: a plain yield here
            // waited for all of them (200 to 300 ms of a 12,900-file project drop).
            yield_urgent().await;
            (slice_started, slice_ms) = (js_sys::Date::now(), LIST_SLICE_MS);
        }
    }
    listed(files.len() as u64);
    input_folder(root, files)
}

/// Empties a file input whose `list` [`folder_from_files`] has copied, so that choosing the
/// same folder again fires `change`; not when the input already holds a newer choice.
pub fn clear_chosen(input: &HtmlInputElement, list: &FileList) {
    if input.files().as_ref() == Some(list) {
        input.set_value("");
    }
}

/// File `index` of a folder input's `list`, at `relative` (from its [`relative_paths`]);
/// `root` learns the chosen folder's name from the first.
fn input_file(
    root: &mut Option<String>,
    relative: &str,
    list: &Rc<Array>,
    index: usize,
) -> SourceFile {
    let (first, rest) = relative.split_once('/').unwrap_or(("", relative));
    if root.is_none() && !first.is_empty() {
        *root = Some(first.to_owned());
    }
    // Asking Chromium for a file's size or date costs a slow lookup the first time: every
    // file is listed by name only, and looked up when the analysis asks.
    SourceFile {
        rel: rest.to_owned(),
        size: UNSTATTED,
        modified: None,
        reader: Reader::InList(Rc::clone(list), index as u32),
    }
}

fn input_folder(root: Option<String>, files: Vec<SourceFile>) -> Result<Source, String> {
    if files.is_empty() {
        return Err("That folder holds no files.".to_owned());
    }
    Ok(Source::folder(
        root.unwrap_or_else(|| "folder".to_owned()),
        files,
        None,
    ))
}

/// One item of a drop, taken while the drop event lasts (the browser forgets them after).
pub struct DroppedItem {
    /// The entry for walking a folder or getting a file.
    pub entry: FileSystemEntry,
    /// A promise of a `FileSystemHandle`, where the browser offers one.
    pub handle: Option<Promise>,
}

/// Takes the items of a drop. Must be called inside the `drop` event handler.
pub fn dropped_items(transfer: &web_sys::DataTransfer) -> Vec<DroppedItem> {
    let items = transfer.items();
    let mut out = Vec::new();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        if item.kind() != "file" {
            continue;
        }
        // getAsFileSystemHandle is not in every browser; ask for it only where it exists,
        // and before webkitGetAsEntry while the item is still live. Inside another page's
        // frame a drop is read as a copy: no folder opens in place there.
        let handle = Reflect::get(&item, &JsValue::from_str("getAsFileSystemHandle"))
            .ok()
            .filter(|_| !crate::page::browser::framed())
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call0(&item).ok())
            .and_then(|p| p.dyn_into::<Promise>().ok());
        if let Ok(Some(entry)) = item.webkit_get_as_entry() {
            out.push(DroppedItem { entry, handle });
        }
    }
    out
}

/// What a dropped or opened item turned out to be.
// Which variant is larger differs between the page's wasm and the engine's (a source holds
// an open archive only in the engine); an item is opened once per drop.
#[allow(clippy::large_enum_variant)]
pub enum Opened {
    /// A folder or an ordinary zip: a source of the person's own files.
    Source(Source),
    /// A share zip: a shared snapshot to show read-only, with the zip's file name and the
    /// zip itself.
    Shared(Box<SharedSnapshot>, String, SharedRaw),
}

impl Opened {
    /// The source, when it is not a shared snapshot.
    pub fn into_source(self) -> Option<Source> {
        match self {
            Opened::Source(source) => Some(source),
            Opened::Shared(..) => None,
        }
    }
}

/// Turns one dropped item into a source: a folder is walked, a `.zip` is opened (a share zip
/// as a shared snapshot).
///
/// # Errors
/// A message for a person: not a folder or zip, a broken zip, an unreadable folder.
pub async fn open_dropped(
    item: DroppedItem,
    listed: &dyn Fn(u64),
    host: Option<&Host>,
) -> Result<Opened, String> {
    let name = item.entry.name();
    if item.entry.is_directory() {
        let dir: FileSystemDirectoryEntry = item.entry.unchecked_into();
        let files = list_entry_folder(&dir, listed).await?;
        let handle = match item.handle {
            Some(promise) => JsFuture::from(promise)
                .await
                .ok()
                .and_then(|h| h.dyn_into::<FileSystemDirectoryHandle>().ok()),
            None => None,
        };
        return Ok(Opened::Source(Source::folder(name, files, handle)));
    }
    if name.to_ascii_lowercase().ends_with(".zip") {
        let entry: FileSystemFileEntry = item.entry.unchecked_into();
        let file = entry_file(&entry)
            .await
            .ok_or_else(|| format!("cannot open {name}"))?;
        return open_zip_file(file, host).await;
    }
    let json = if name.to_ascii_lowercase().ends_with(".json") {
        " To add your ~/.claude.json, use Add ~/.claude.json at the top of the page."
    } else {
        ""
    };
    Err(format!(
        "{name} is a single file. Drop a folder (your ~/.claude or a project) or a .zip of one.{json}"
    ))
}

/// Opens a zip `File` the person dropped or chose: a share zip as a shared snapshot, any
/// other as a source. With the analysis worker (`host`), the worker opens it and sends its
/// listing: the page itself never opens an archive.
///
/// # Errors
/// When it cannot be read, is not a zip archive, or is a damaged share zip.
pub async fn open_zip_file(file: File, host: Option<&Host>) -> Result<Opened, String> {
    match host {
        Some(host) => host.open_zip(file).await,
        None => open_zip_here(file).await,
    }
}

/// [`open_zip_file`] in this thread: the worker's, or the page's where there is no worker
/// (the component tests).
///
/// # Errors
/// As [`open_zip_file`].
#[cfg(feature = "engine")]
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
                    format!("{name}: {}", crate::page::share::open_error("file", &error))
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

#[cfg(not(feature = "engine"))]
async fn open_zip_here(_file: File) -> Result<Opened, String> {
    Err(crate::page::worker_host::NO_WORKER.to_owned())
}

/// Archives listed and kept for the run that follows ([`Source::keep_listed_archive`]).
#[cfg(feature = "engine")]
const LISTED_ARCHIVES_KEPT: usize = 4;

#[cfg(feature = "engine")]
thread_local! {
    static LISTED_ARCHIVES: RefCell<Vec<(ArchiveKey, ZipSource)>> = const { RefCell::new(Vec::new()) };
}

/// What names a zip `File` across messages (each message gives the worker a new `File`
/// object): its name, size and modification time. Should another archive ever share all
/// three, its entries' local headers and checksums would not match and its reads fail.
#[cfg(feature = "engine")]
type ArchiveKey = (String, u64, u64);

#[cfg(feature = "engine")]
fn archive_key(file: &File) -> ArchiveKey {
    (file.name(), file.size() as u64, file.last_modified() as u64)
}

/// The archive of `file` as the listing opened it, once ([`Source::keep_listed_archive`]):
/// a run takes it, so a later run (a version change, a project added) opens the zip again
/// with its caps counted afresh.
#[cfg(feature = "engine")]
fn take_listed_archive(file: &File) -> Option<ZipSource> {
    let key = archive_key(file);
    LISTED_ARCHIVES.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = kept.iter().position(|(k, _)| *k == key)?;
        Some(kept.remove(at).1)
    })
}

#[cfg(feature = "engine")]
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

#[cfg(feature = "engine")]
/// The message for a zip that cannot be opened.
fn zip_error(file_name: &str, error: &memdiag_core::ZipError) -> String {
    format!(
        "{file_name} cannot be opened ({error}). Zip the folder again, or drop the folder itself."
    )
}

#[cfg(feature = "engine")]
/// Reads `range` of a `File` (`File.slice`).
async fn slice_bytes(file: &File, range: &std::ops::Range<u64>) -> Result<Vec<u8>, String> {
    slice_finished(file, slice_started(file, range)?).await
}

#[cfg(feature = "engine")]
/// Starts reading `range` of a `File`: the browser reads it while the caller goes on.
fn slice_started(file: &File, range: &std::ops::Range<u64>) -> Result<JsFuture, String> {
    let blob = file
        .slice_with_f64_and_f64(range.start as f64, range.end as f64)
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(JsFuture::from(blob.array_buffer()))
}

#[cfg(feature = "engine")]
/// The bytes a [`slice_started`] read gave.
async fn slice_finished(file: &File, read: JsFuture) -> Result<Vec<u8>, String> {
    let buffer = read
        .await
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

#[cfg(feature = "engine")]
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

/// Lists a dropped folder recursively through its entries.
///
/// `readEntries` answers in batches (100 at a time in Chromium), so each folder is read until
/// it returns nothing. Files are listed by name only ([`UNSTATTED`]): their `File`, size and
/// date are fetched when the analysis asks, which for most of a real `~/.claude` is never.
///
/// # Errors
/// When the browser refuses to read a folder.
pub async fn list_entry_folder(
    root: &FileSystemDirectoryEntry,
    listed: &dyn Fn(u64),
) -> Result<Vec<SourceFile>, String> {
    let mut folders = vec![(root.clone(), String::new())];
    let mut files = Vec::new();
    let mut reported = 0;
    while let Some((folder, prefix)) = folders.pop() {
        let reader = folder.create_reader();
        loop {
            let batch = JsFuture::from(Promise::new(&mut |resolve, reject| {
                if let Err(error) =
                    reader.read_entries_with_callback_and_callback(&resolve, &reject)
                {
                    let _ = reject.call1(&JsValue::NULL, &error);
                }
            }))
            .await
            .map_err(|e| {
                format!(
                    "cannot read the folder {}: {}",
                    folder.name(),
                    js_message(&e)
                )
            })?;
            let batch: Array = batch.unchecked_into();
            if batch.length() == 0 {
                break;
            }
            for value in batch.iter() {
                let entry: FileSystemEntry = value.unchecked_into();
                let rel = format!("{prefix}{}", entry.name());
                if entry.is_directory() {
                    folders.push((entry.unchecked_into(), format!("{rel}/")));
                } else if entry.is_file() {
                    files.push(SourceFile {
                        rel,
                        size: UNSTATTED,
                        modified: None,
                        reader: Reader::Entry(entry.unchecked_into()),
                    });
                }
            }
            if files.len() >= reported + 4 * LIST_BATCH {
                reported = files.len();
                listed(reported as u64);
                yield_now().await;
            }
        }
    }
    listed(files.len() as u64);
    Ok(files)
}

/// A promise of an entry's `File` that resolves (to the error) even when the browser fails.
fn file_promise(entry: &FileSystemFileEntry) -> Promise {
    Promise::new(&mut |resolve, _reject| {
        entry.file_with_callback_and_callback(&resolve, &resolve);
    })
}

/// The `File` behind a `FileSystemFileHandle`.
async fn handle_file(handle: &JsValue) -> Option<File> {
    let promise = get(handle, "getFile")
        .dyn_into::<js_sys::Function>()
        .ok()?
        .call0(handle)
        .ok()?
        .dyn_into::<Promise>()
        .ok()?;
    JsFuture::from(promise).await.ok()?.dyn_into::<File>().ok()
}

async fn entry_file(entry: &FileSystemFileEntry) -> Option<File> {
    JsFuture::from(file_promise(entry))
        .await
        .ok()
        .and_then(|v| v.dyn_into::<File>().ok())
}

/// Lists a folder again through the handle kept from its drop (for Refresh).
///
/// # Errors
/// When the browser no longer lets the page read the folder.
pub async fn list_handle_folder(
    root: &FileSystemDirectoryHandle,
    listed: &dyn Fn(u64),
) -> Result<Vec<SourceFile>, String> {
    let root_name = root.name();
    let mut folders = vec![(JsValue::from(root.clone()), String::new())];
    let mut pending: Vec<(String, JsValue)> = Vec::new();
    let mut files = Vec::new();
    let fail = |e: JsValue| format!("cannot read the folder again: {}", js_message(&e));
    while let Some((folder, prefix)) = folders.pop() {
        let folder: FileSystemDirectoryHandle = folder.unchecked_into();
        let iterator = folder.values();
        loop {
            let next = JsFuture::from(iterator.next().map_err(fail)?)
                .await
                .map_err(fail)?;
            if get(&next, "done").as_bool().unwrap_or(true) {
                break;
            }
            let handle = get(&next, "value");
            let name = get(&handle, "name").as_string().unwrap_or_default();
            let rel = format!("{prefix}{name}");
            match get(&handle, "kind").as_string().as_deref() {
                Some("directory") => folders.push((handle, format!("{rel}/"))),
                Some("file") if listed_by_name(&root_name, &rel) => files.push(SourceFile {
                    rel,
                    size: 0,
                    modified: None,
                    reader: Reader::Handle(handle),
                }),
                Some("file") => pending.push((rel, handle)),
                _ => {}
            }
            if pending.len() >= LIST_BATCH {
                resolve_handles(&mut pending, &mut files).await;
                listed(files.len() as u64);
                yield_now().await;
            }
        }
    }
    resolve_handles(&mut pending, &mut files).await;
    listed(files.len() as u64);
    Ok(files)
}

async fn resolve_handles(pending: &mut Vec<(String, JsValue)>, out: &mut Vec<SourceFile>) {
    let promises: Array = pending
        .iter()
        .map(|(_, handle)| {
            let call = get(handle, "getFile")
                .dyn_into::<js_sys::Function>()
                .ok()
                .and_then(|f| f.call0(handle).ok())
                .and_then(|p| p.dyn_into::<Promise>().ok())
                .unwrap_or_else(|| Promise::resolve(&JsValue::NULL));
            // A file that vanished between listing and reading must not fail the others:
            // its error settles the promise like a value and is skipped below.
            JsValue::from(Promise::new(&mut |resolve, _reject| {
                if let Ok(then) = get(&call, "then").dyn_into::<js_sys::Function>() {
                    let _ = then.call2(&call, &resolve, &resolve);
                }
            }))
        })
        .collect();
    let results: Array = match JsFuture::from(Promise::all(&promises)).await {
        Ok(results) => results.unchecked_into(),
        Err(_) => Array::new(),
    };
    for ((rel, _), value) in pending.drain(..).zip(results.iter()) {
        if let Ok(file) = value.dyn_into::<File>() {
            out.push(SourceFile {
                rel,
                size: file.size() as u64,
                modified: modified_of(&file),
                reader: Reader::File(file),
            });
        }
    }
}

/// Reads a source again for Refresh: through its kept handle, or its zip `File`.
///
/// `Ok(None)` when the source cannot be read again (a folder chosen through the input).
///
/// # Errors
/// When the browser refuses the read.
pub async fn reread(
    source: &Source,
    listed: &dyn Fn(u64),
    host: Option<&Host>,
) -> Result<Option<Source>, String> {
    match &source.origin {
        Origin::Folder(Some(handle)) => {
            let files = list_handle_folder(handle, listed).await?;
            Ok(Some(Source::folder(
                source.name.clone(),
                files,
                Some(handle.clone()),
            )))
        }
        Origin::Zip(Some(file)) => match open_zip_file(file.clone(), host).await? {
            Opened::Source(source) => Ok(Some(source)),
            Opened::Shared(..) => Err(format!("{} is now a share zip", file.name())),
        },
        Origin::Live(root) => crate::page::live::refresh(source, root, listed)
            .await
            .map(Some),
        Origin::Folder(None) | Origin::Zip(None) | Origin::Listed(_) => Ok(None),
        // Read again only if the next run asks for it.
        Origin::File(_) | Origin::Demo { .. } => {
            source.forget_contents();
            Ok(None)
        }
    }
}

/// True for a file the page lists by name only, with no size or date: bulk data
/// ([`is_bulk_data`]) and, in a dropped `.claude` folder (`root`), everything in
/// `projects/<name>/` but its `memory/`, which the analysis never reads either (session
/// transcripts, their sub-agent logs and tool results).
///
/// The first read of a `File`'s size or date is a slow lookup in Chromium, and a real
/// `~/.claude` holds tens of thousands of such files: 73 % of a large drop went to them.
pub fn listed_by_name(root: &str, rel: &str) -> bool {
    if is_bulk_data(rel) {
        return true;
    }
    let mut parts = rel.split('/');
    root == ".claude"
        && parts.next() == Some("projects")
        && parts.next().is_some()
        && parts.next().is_some_and(|third| third != "memory")
}

#[cfg(feature = "engine")]
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

/// A file's modification time as ISO 8601.
fn modified_of(file: &File) -> Option<String> {
    let millis = file.last_modified();
    (millis > 0.0).then(|| {
        js_sys::Date::new(&JsValue::from_f64(millis))
            .to_iso_string()
            .into()
    })
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

#[cfg(test)]
mod tests {
    use super::listed_by_name;

    #[test]
    fn only_files_the_analysis_never_reads_are_listed_by_name() {
        for never in [
            "projects/-home-a/0b7e.jsonl",
            "projects/-home-a/0b7e/subagents/agent-1.jsonl",
            "projects/-home-a/0b7e/tool-results/out.txt",
            "projects/-home-a/notes.txt",
            "todos/a.json",
        ] {
            assert!(listed_by_name(".claude", never), "{never}");
        }
        for read in [
            "projects/-home-a/memory/MEMORY.md",
            "projects/-home-a/memory/topic.md",
            "CLAUDE.md",
            "rules/a.md",
        ] {
            assert!(!listed_by_name(".claude", read), "{read}");
        }
        // A project may have a projects/ folder of its own, read like any other.
        assert!(!listed_by_name("shop", "projects/app/src/CLAUDE.md"));
    }
}
