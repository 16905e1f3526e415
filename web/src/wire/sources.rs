//! The sources the page lists and the analysis worker reads: a dropped or chosen folder or
//! zip, a live folder, the demo, an added `~/.claude.json` ([`Source`], its files and how
//! each is read), a shared snapshot ([`SharedSource`]) and the set of them a run mounts
//! ([`Snapshot`]).
//!
//! A source is listed once (paths, from a dropped folder's entries, a folder input's
//! `File`s or a zip's central directory) and mounted into a fresh tree for every run,
//! because where it mounts ([`source_base`]) depends on the home and project fields. A
//! folder's files are listed by name only ([`UNSTATTED`]): their sizes and dates are looked
//! up when the analysis looks at their entries, and contents are read when the core names
//! them; both are cached per source so that editing a field does not look anything up
//! twice. Both wasm modules hold sources: the page lists them (`page::ingest`), the worker
//! keeps a copy of each, reads zips in place and mounts them (`engine::ingest`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use js_sys::{Array, Promise, Reflect, Uint8Array};
use memdiag_core::infer::{self, FolderKind};
#[cfg(feature = "engine")]
use memdiag_core::ZipSource;
use memdiag_core::{SharedSnapshot, VPath};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, FileSystemDirectoryHandle, FileSystemFileEntry};

use crate::wire::folders::FileRef;
use crate::wire::inputs::{Inputs, SharedFrom, SourceInfo};
use crate::wire::js::js_message;

/// Files larger than this are not read into the page; the analysis records why. The core's
/// one read limit, which the zip mount and the scan command use too.
pub const MAX_READ_BYTES: f64 = memdiag_core::limits::READ_LIMIT_BYTES as f64;

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
    Live(Rc<dyn crate::wire::folders::FileRef>),
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
    Live(Rc<crate::wire::folders::LiveRoot>),
}

/// One dropped or chosen folder or zip.
pub struct Source {
    /// Names this source in messages between the page and the analysis worker.
    pub(crate) id: u32,
    /// The folder or zip name.
    pub name: String,
    /// Where it mounts.
    pub role: Role,
    /// Where it came from.
    pub origin: Origin,
    /// Its files in byte order of their relative paths.
    pub files: Vec<SourceFile>,
    #[cfg(feature = "engine")]
    pub(crate) zip: RefCell<Option<ZipSource>>,
    /// The findings made while the source was listed (a zip's rejected entries), as JSON:
    /// they cross to the worker as they came from it.
    pub(crate) diagnostics_json: String,
    pub(crate) cache: RefCell<BTreeMap<String, Result<Vec<u8>, String>>>,
    /// Sizes and dates looked up for files listed by name only.
    pub(crate) stats: RefCell<BTreeMap<usize, Stat>>,
    /// The analysis worker's copy: the `File`s the page handed over when asked, by file
    /// index (`None`: the page has none to give), which the worker sizes and reads itself.
    pub(crate) handed: RefCell<BTreeMap<usize, Option<File>>>,
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
        crate::wire::order::sort_by(&mut files, |a, b| a.rel.cmp(&b.rel));
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
            // A live folder's file the walk listed without its size (crate::wire::folders::lazy).
            let stat = stat_of(live.as_ref()).await;
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
            // The worker reads a zip's entries, in batches, before it reads them here
            // (`engine::ingest`'s `Source::read_many`); the page reads no archive.
            Reader::Zip(_) => Err("a zip's files are read by the analysis worker".to_owned()),
        };
        self.cache
            .borrow_mut()
            .insert(file.rel.clone(), result.clone());
        result
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
        crate::wire::order::sort_by(&mut self.sources, |a, b| {
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
            (size / 1_048_576.0).round_ties_even() as u64
        ));
    }
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {}", file.name(), js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
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

/// A promise of an entry's `File` that resolves (to the error) even when the browser fails.
fn file_promise(entry: &FileSystemFileEntry) -> Promise {
    Promise::new(&mut |resolve, _reject| {
        entry.file_with_callback_and_callback(&resolve, &resolve);
    })
}

/// The `File` behind a `FileSystemFileHandle`.
pub(crate) async fn handle_file(handle: &JsValue) -> Option<File> {
    let promise = get(handle, "getFile")
        .dyn_into::<js_sys::Function>()
        .ok()?
        .call0(handle)
        .ok()?
        .dyn_into::<Promise>()
        .ok()?;
    JsFuture::from(promise).await.ok()?.dyn_into::<File>().ok()
}

pub(crate) async fn entry_file(entry: &FileSystemFileEntry) -> Option<File> {
    JsFuture::from(file_promise(entry))
        .await
        .ok()
        .and_then(|v| v.dyn_into::<File>().ok())
}

/// A file's modification time as ISO 8601.
pub(crate) fn modified_of(file: &File) -> Option<String> {
    let millis = file.last_modified();
    (millis > 0.0).then(|| {
        js_sys::Date::new(&JsValue::from_f64(millis))
            .to_iso_string()
            .into()
    })
}

pub(crate) fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A live file's size and date as the page keeps them (`(0, None)` when the browser cannot
/// open it any more): the look-up of a file the walk listed without asking ([`lazy`]).
pub(crate) async fn stat_of(file: &dyn FileRef) -> Stat {
    match file.stat().await {
        Ok(stat) => (
            stat.size,
            stat.modified_ms.map(crate::wire::folders::iso_date),
        ),
        Err(_) => (0, None),
    }
}
