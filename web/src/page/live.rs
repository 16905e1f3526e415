//! Live folders: a folder opened through the File System Access API (`showDirectoryPicker`,
//! or a drop's `getAsFileSystemHandle`), which the page walks itself, reads again on Refresh
//! and, with the person's permission, writes clean-ups to.
//!
//! - The page reaches the folder only through the small [`Dir`] and [`FileRef`] traits, so the
//!   component tests drive the same walk, refresh and writes over an in-memory folder
//!   (`web/tests/live.rs`). [`JsDir`] is the browser's handle behind them.
//! - The walk lists only what the analysis can use ([`descend`]): it never enters the bulk
//!   session folders of a config directory ([`BULK_DATA_FOLDERS`]), never lists what a
//!   `projects/<name>/` folder holds beside its `memory/` (the session transcripts and their
//!   folders; one name is taken so that the project picker sees the folder), and in a `.git`
//!   folder lists only what worktree detection reads. `*.jsonl` transcripts are listed by name,
//!   never opened.
//! - Refresh ([`refresh`]) walks again, which asks each file for its size and date only; a
//!   file whose size and date are unchanged keeps the contents read before, so only changed
//!   files are read again, and only if the analysis asks for them.
//! - A read that fails ends as a message on that file, never as a wait: a file deleted or
//!   moved since the walk listed it says so ([`READ_TIMEOUT_MS`] bounds a call the browser
//!   never settles), and the run goes on with the other files.
//! - Writes ([`apply`]) are whole files, from a [`memdiag_core::cleanup::Plan`]: every file
//!   is read back first and compared with the text the plan was made from, and nothing is
//!   written when one differs. Write permission is asked for by [`ask_write`], which the page
//!   calls when the person starts a clean-up, never before.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Object, Promise, Reflect, Uint8Array};
use memdiag_core::cleanup::Plan;
use memdiag_core::limits::BULK_DATA_FOLDERS;
use memdiag_core::VPath;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::page::ingest::{placed_path, source_base, Origin, Reader, Role, Source, SourceFile};
use crate::page::state::Inputs;

/// An operation on a folder or file that may fail with a message for a person.
///
/// The operation starts when the method is called, not when the future is first polled, so a
/// caller can start many (the walk asks a batch of files for their sizes at once) and await
/// them one after the other.
pub type Task<'a, T> = Pin<Box<dyn Future<Output = Result<T, String>> + 'a>>;

/// What an entry of a folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A file.
    File,
    /// A folder.
    Dir,
}

/// A file's size and modification time, as the folder reports them without reading it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stat {
    /// Bytes.
    pub size: u64,
    /// Milliseconds since the epoch, when known.
    pub modified_ms: Option<f64>,
}

/// A folder the page can walk and change: the methods of `FileSystemDirectoryHandle` the page
/// uses.
pub trait Dir {
    /// The folder's own name.
    fn name(&self) -> String;
    /// Its entries, at most `limit` of them when a limit is given, in the folder's order.
    ///
    /// # Errors
    /// When the browser refuses to list the folder.
    fn entries(&self, limit: Option<usize>) -> Task<'_, Vec<(String, Kind)>>;
    /// A child folder, `None` when there is none of that name.
    ///
    /// # Errors
    /// When the browser refuses.
    fn dir<'a>(&'a self, name: &'a str) -> Task<'a, Option<Rc<dyn Dir>>>;
    /// A child file, `None` when there is none of that name and `create` is false.
    ///
    /// # Errors
    /// When the browser refuses (or the name is a folder).
    fn file<'a>(&'a self, name: &'a str, create: bool) -> Task<'a, Option<Rc<dyn FileRef>>>;
    /// Removes a child file.
    ///
    /// # Errors
    /// When the browser refuses or there is no such file.
    fn remove<'a>(&'a self, name: &'a str) -> Task<'a, ()>;
    /// Removes a child file only while it holds `expected`; `Ok(false)` when it holds
    /// anything else (or is gone), and then nothing is removed. The default reads, compares
    /// and removes; the browser's handle sets the file aside first where it can, so that the
    /// bytes it compares are the bytes it removes.
    ///
    /// # Errors
    /// When the browser refuses.
    // Only the analysis worker makes clean-ups (`crate::page::cleanups::apply`): the page's own
    // wasm declares neither this nor `write_if`, so that no vtable of its holds them.
    #[cfg(feature = "engine")]
    fn remove_if<'a>(&'a self, name: &'a str, expected: &'a [u8]) -> Task<'a, bool> {
        Box::pin(async move {
            let Some(file) = self.file(name, false).await? else {
                return Ok(false);
            };
            if file.read().await? != expected {
                return Ok(false);
            }
            self.remove(name).await.map(|()| true)
        })
    }
    /// The browser's handle behind the folder, which the page hands the analysis worker to
    /// make a clean-up there; `None` for a folder that is no browser handle (the tests').
    fn handle(&self) -> Option<JsValue> {
        None
    }
    /// Whether the page may read (or, with `write`, also write) the folder; with `ask`, asks
    /// the person when it may not yet.
    ///
    /// # Errors
    /// When the browser refuses to ask.
    fn permission(&self, write: bool, ask: bool) -> Task<'_, bool>;
}

/// A file of a [`Dir`]: the methods of `FileSystemFileHandle` the page uses.
pub trait FileRef {
    /// Its size and date, without reading it.
    ///
    /// # Errors
    /// When the file is gone or unreadable.
    fn stat(&self) -> Task<'_, Stat>;
    /// Its bytes.
    ///
    /// # Errors
    /// When the file is gone or unreadable.
    fn read(&self) -> Task<'_, Vec<u8>>;
    /// Replaces its bytes.
    ///
    /// # Errors
    /// When the page may not write, or the write fails.
    #[cfg(feature = "engine")]
    fn write(&self, bytes: Vec<u8>) -> Task<'_, ()>;
    /// Replaces its bytes only while it holds `expected`; `Ok(false)` when it holds anything
    /// else, and then nothing is written. The default reads, compares and writes; the
    /// browser's handle opens the write first and compares after, so that an edit that lands
    /// before the write opens is seen.
    ///
    /// # Errors
    /// When the page may not write, or the write fails.
    #[cfg(feature = "engine")]
    fn write_if<'a>(&'a self, expected: &'a [u8], bytes: Vec<u8>) -> Task<'a, bool> {
        Box::pin(async move {
            if self.read().await? != expected {
                return Ok(false);
            }
            self.write(bytes).await.map(|()| true)
        })
    }
}

/// A live folder source's root: the folder it was opened from.
pub struct LiveRoot {
    /// The folder.
    pub dir: Rc<dyn Dir>,
}

/// How far the walk goes into a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Descend {
    /// Everything in it.
    All,
    /// Only its `memory/` folder (and one name, so the project picker sees the folder): a
    /// `projects/<name>/` folder of a config directory.
    MemoryOnly,
    /// Only `HEAD`, `config` and `worktrees/*/gitdir`: a `.git` folder.
    GitOnly,
    /// Nothing: bulk session data.
    Skip,
}

/// How far the walk goes into the folder `rel` (relative to the walked folder,
/// `/`-separated). `config_root` says the walked folder is a Claude config directory
/// ([`memdiag_core::infer::classify_folder`] on its top entries); a `.claude` folder inside
/// any walked folder is one too. A project's own `debug/` or `projects/` is read like any
/// other folder.
pub fn descend(config_root: bool, rel: &str) -> Descend {
    let segments: Vec<&str> = rel.split('/').filter(|s| !s.is_empty()).collect();
    let Some((name, parents)) = segments.split_last() else {
        return Descend::All;
    };
    if *name == ".git" {
        return Descend::GitOnly;
    }
    // The folder's parent is the top of a config directory.
    let config_top = |parents: &[&str]| match parents.last() {
        None => config_root,
        Some(last) => *last == ".claude",
    };
    if BULK_DATA_FOLDERS.contains(name) && config_top(parents) {
        return Descend::Skip;
    }
    if let Some((projects, above)) = parents.split_last() {
        if *projects == "projects" && config_top(above) {
            return Descend::MemoryOnly;
        }
    }
    Descend::All
}

/// True when a folder named `name` with these top entries is a Claude config directory.
fn is_config_root(name: &str, top: &[(String, Kind)]) -> bool {
    // A folder holding `.claude/` is a home (or a project), never a config directory.
    if top.iter().any(|(n, k)| n == ".claude" && *k == Kind::Dir) {
        return false;
    }
    // Folders count as `<name>/…` so that the classifier sees them as folders.
    let paths: Vec<String> = top
        .iter()
        .map(|(n, k)| match k {
            Kind::Dir => format!("{n}/…"),
            Kind::File => n.clone(),
        })
        .collect();
    memdiag_core::infer::classify_folder(name, paths.iter().map(String::as_str))
        == memdiag_core::infer::FolderKind::ConfigDir
}

/// True for a file the walk lists by name only, never asking its size: a transcript.
pub fn by_name(rel: &str) -> bool {
    rel.ends_with(".jsonl")
}

/// Folders of a project that hold dependencies, build output or virtual environments: often
/// most of a project's files, and none of them instructions but the odd `CLAUDE.md`.
pub const LAZY_FOLDERS: [&str; 9] = [
    "node_modules",
    "vendor",
    "dist",
    "build",
    ".venv",
    "venv",
    "__pycache__",
    ".next",
    ".nuxt",
];

/// True for a file the walk lists without asking its size: one inside a [`LAZY_FOLDERS`]
/// folder that is no Markdown file and not inside a `.claude` folder. The walk still lists
/// those folders whole, because Claude Code attaches a `CLAUDE.md` anywhere below them when it
/// reads a file there (measured on 2.1.328: the conformance case
/// `nested-read-no-depth-limit-and-no-skip-list`); the size of any other file there is asked
/// only if the analysis looks at it ([`crate::page::ingest::UNSTATTED`]), which saves one browser
/// call per file.
pub fn lazy(rel: &str) -> bool {
    let Some((folders, name)) = rel.rsplit_once('/') else {
        return false;
    };
    let folders: Vec<&str> = folders.split('/').collect();
    folders.iter().any(|f| LAZY_FOLDERS.contains(f))
        && !folders.contains(&".claude")
        && !name.to_ascii_lowercase().ends_with(".md")
}

/// How many files are asked for their sizes at once.
const STAT_BATCH: usize = 128;

/// How many entries of a `projects/<name>/` folder without `memory/` are looked at for one
/// name to show the project picker.
const PROJECT_PEEK: usize = 32;

/// What a walk found.
pub struct Walked {
    /// Every listed file, in byte order of its relative path.
    pub files: Vec<SourceFile>,
    /// Every folder whose entries were listed, relative to the root (`""` for the root), in
    /// the order they were listed: what the tests check no transcript folder is among.
    pub listed_folders: Vec<String>,
}

/// Walks a live folder: lists what [`descend`] allows, and asks every file but transcripts
/// for its size and date. `listed` hears the number of files listed so far.
///
/// # Errors
/// When the browser refuses to list a folder.
pub async fn walk(root: &Rc<dyn Dir>, listed: &dyn Fn(u64)) -> Result<Walked, String> {
    let config_root = is_config_root(&root.name(), &root.entries(None).await?);
    let mut folders: Vec<(Rc<dyn Dir>, String)> = vec![(root.clone(), String::new())];
    let mut listed_folders = Vec::new();
    let mut pending: Vec<(String, Rc<dyn FileRef>)> = Vec::new();
    let mut files = Vec::new();
    while let Some((folder, rel)) = folders.pop() {
        let prefix = if rel.is_empty() {
            String::new()
        } else {
            format!("{rel}/")
        };
        match descend(config_root, &rel) {
            Descend::Skip => continue,
            Descend::MemoryOnly => {
                if let Some(memory) = folder.dir("memory").await? {
                    folders.push((memory, format!("{prefix}memory")));
                } else {
                    // One name, so that the project picker lists the folder; never opened.
                    listed_folders.push(format!("{rel} (first {PROJECT_PEEK} names)"));
                    let peek = folder.entries(Some(PROJECT_PEEK)).await?;
                    if let Some((name, _)) =
                        peek.iter().find(|(n, k)| *k == Kind::File && by_name(n))
                    {
                        if let Some(file) = folder.file(name, false).await? {
                            files.push(SourceFile {
                                rel: format!("{prefix}{name}"),
                                size: 0,
                                modified: None,
                                reader: Reader::Live(file),
                            });
                        }
                    }
                }
                continue;
            }
            Descend::GitOnly => {
                // A `.git` folder whose HEAD is a folder is no repository to read.
                if let Some(head) = folder.file("HEAD", false).await.ok().flatten() {
                    pending.push((format!("{prefix}HEAD"), head));
                }
                // The remote's URL names the repository of a project copied under another
                // name (the health view's first reason).
                if let Some(config) = folder.file("config", false).await.ok().flatten() {
                    pending.push((format!("{prefix}config"), config));
                }
                if let Some(worktrees) = folder.dir("worktrees").await? {
                    listed_folders.push(format!("{prefix}worktrees"));
                    for (name, kind) in worktrees.entries(None).await? {
                        if kind != Kind::Dir {
                            continue;
                        }
                        if let Some(tree) = worktrees.dir(&name).await? {
                            if let Some(gitdir) = tree.file("gitdir", false).await.ok().flatten() {
                                pending.push((format!("{prefix}worktrees/{name}/gitdir"), gitdir));
                            }
                        }
                    }
                }
                continue;
            }
            Descend::All => {}
        }
        listed_folders.push(rel.clone());
        for (name, kind) in folder.entries(None).await? {
            let child = format!("{prefix}{name}");
            match kind {
                Kind::Dir => {
                    if descend(config_root, &child) == Descend::Skip {
                        continue;
                    }
                    if let Some(dir) = folder.dir(&name).await? {
                        folders.push((dir, child));
                    }
                }
                Kind::File => {
                    let Some(file) = folder.file(&name, false).await? else {
                        continue;
                    };
                    if by_name(&child) {
                        files.push(SourceFile {
                            rel: child,
                            size: 0,
                            modified: None,
                            reader: Reader::Live(file),
                        });
                    } else if lazy(&child) {
                        files.push(SourceFile {
                            rel: child,
                            size: crate::page::ingest::UNSTATTED,
                            modified: None,
                            reader: Reader::Live(file),
                        });
                    } else {
                        pending.push((child, file));
                    }
                }
            }
            if pending.len() >= STAT_BATCH {
                stat_all(&mut pending, &mut files).await;
                listed(files.len() as u64);
                yield_now().await;
            }
        }
    }
    stat_all(&mut pending, &mut files).await;
    listed(files.len() as u64);
    crate::sort_by(&mut files, |a, b| a.rel.cmp(&b.rel));
    Ok(Walked {
        files,
        listed_folders,
    })
}

/// Asks every pending file for its size and date at once; a file that vanished in between is
/// left out.
async fn stat_all(pending: &mut Vec<(String, Rc<dyn FileRef>)>, out: &mut Vec<SourceFile>) {
    let started: Vec<_> = pending
        .drain(..)
        .map(|(rel, file)| {
            let task = {
                let file = file.clone();
                async move { file.stat().await }
            };
            (rel, file, Box::pin(task))
        })
        .collect();
    for (rel, file, task) in started {
        if let Ok(stat) = task.await {
            out.push(SourceFile {
                rel,
                size: stat.size,
                modified: stat.modified_ms.map(iso_date),
                reader: Reader::Live(file),
            });
        }
    }
}

/// A live file's size and date as the page keeps them (`(0, None)` when the browser cannot
/// open it any more): the look-up of a file the walk listed without asking ([`lazy`]).
pub(crate) async fn stat_of(file: &dyn FileRef) -> crate::page::ingest::Stat {
    match file.stat().await {
        Ok(stat) => (stat.size, stat.modified_ms.map(iso_date)),
        Err(_) => (0, None),
    }
}

/// Opens a live folder as a source: walks it and keeps its root for Refresh and writes.
///
/// # Errors
/// When the browser refuses to list it.
pub async fn open(root: Rc<dyn Dir>, listed: &dyn Fn(u64)) -> Result<Source, String> {
    let walked = walk(&root, listed).await?;
    let mut source = Source::folder(root.name(), walked.files, None);
    source.origin = Origin::Live(Rc::new(LiveRoot { dir: root }));
    Ok(source)
}

/// Reads a live source again: walks it (sizes and dates only) and keeps the contents read
/// before of every file whose size and date did not change.
///
/// # Errors
/// When the browser no longer lets the page list the folder.
pub async fn refresh(
    old: &Source,
    root: &Rc<LiveRoot>,
    listed: &dyn Fn(u64),
) -> Result<Source, String> {
    let walked = walk(&root.dir, listed).await?;
    let fresh = Source::folder(root.dir.name(), walked.files, None);
    let mut fresh = fresh;
    fresh.origin = Origin::Live(root.clone());
    for (index, file) in fresh.files.iter().enumerate() {
        let Ok(before) = old.files.binary_search_by(|f| f.rel.cmp(&file.rel)) else {
            continue;
        };
        let was = &old.files[before];
        if was.size == file.size && was.modified == file.modified && file.modified.is_some() {
            if let Some(contents) = old.cached(before) {
                fresh.remember(index, contents);
            }
        }
    }
    Ok(fresh)
}

/// The relative paths of a refreshed source whose size or date changed, and those added and
/// removed, for the page to say what a refresh found.
pub fn changed_files(old: &Source, fresh: &Source) -> Changes {
    let mut changes = Changes::default();
    let (mut i, mut j) = (0, 0);
    while i < old.files.len() || j < fresh.files.len() {
        match (old.files.get(i), fresh.files.get(j)) {
            (Some(a), Some(b)) if a.rel == b.rel => {
                if a.size != b.size || a.modified != b.modified {
                    changes.changed.push(b.rel.clone());
                }
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a.rel < b.rel => {
                changes.removed.push(a.rel.clone());
                i += 1;
            }
            (Some(_), Some(b)) | (None, Some(b)) => {
                changes.added.push(b.rel.clone());
                j += 1;
            }
            (Some(a), None) => {
                changes.removed.push(a.rel.clone());
                i += 1;
            }
            (None, None) => break,
        }
    }
    changes
}

/// What a refresh found changed in one source, by relative path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Files that are new.
    pub added: Vec<String>,
    /// Files that are gone.
    pub removed: Vec<String>,
    /// Files whose size or date changed.
    pub changed: Vec<String>,
}

/// Where a planned change lands: a live source's root and the file's path below it.
pub struct Target {
    /// The change's absolute virtual path.
    pub path: String,
    /// The live folder.
    pub root: Rc<LiveRoot>,
    /// The path below it, `/`-separated.
    pub rel: String,
}

/// Finds where each change of `plan` lands among `sources` mounted with `inputs`: a listed
/// file by its place in the mount, a file to create beside a listed one by that one's folder.
///
/// # Errors
/// When a change lands outside every live source (a zip, a shared report, a folder chosen
/// without the File System Access API): the page offers the script there instead.
pub fn targets(
    plan: &Plan,
    sources: &[Rc<Source>],
    inputs: &Inputs,
) -> Result<Vec<Target>, String> {
    let placed = placed(sources, inputs);
    // A path mounted twice comes from the source mounted last, as in the mount's origins.
    let origin = |path: &VPath| {
        placed
            .iter()
            .rev()
            .find(|(p, _)| p == path)
            .map(|(_, o)| *o)
    };
    let place = |path: &VPath| -> Option<(usize, String)> {
        let (s, f) = origin(path)?;
        Some((s, sources[s].files[f].rel.clone()))
    };
    let mut out = Vec::new();
    for change in &plan.changes {
        let path = VPath::new(&change.path).map_err(|e| e.to_string())?;
        let found = place(&path).or_else(|| {
            // A new file: beside a listed file of the same folder (the first by path).
            let parent = path.parent()?;
            let first = placed
                .iter()
                .map(|(p, _)| p)
                .filter(|p| p.parent().as_ref() == Some(&parent))
                .min()?;
            let (s, f) = origin(first)?;
            let sibling = &sources[s].files[f].rel;
            let rel = match sibling.rsplit_once('/') {
                Some((folder, _)) => format!("{folder}/{}", path.file_name()),
                None => path.file_name().to_owned(),
            };
            Some((s, rel))
        });
        let Some((s, rel)) = found else {
            return Err(format!("{} is in no live folder", change.path));
        };
        match &sources[s].origin {
            Origin::Live(root) => out.push(Target {
                path: change.path.clone(),
                root: root.clone(),
                rel,
            }),
            _ => {
                return Err(format!(
                    "{} comes from {}, which the page cannot write to",
                    change.path, sources[s].name
                ))
            }
        }
    }
    Ok(out)
}

/// Every file of `sources` at the path [`crate::page::ingest::mount`] gives it with `inputs`, in
/// the order the mount inserts them, with its source and file index: the mount's origins
/// without its tree, which the page's wasm does not hold (it mounts nothing; the worker does).
/// The places are the mount's ([`crate::page::ingest::source_base`]), an added `~/.claude.json` in
/// place of the file a dropped home folder holds there.
fn placed(sources: &[Rc<Source>], inputs: &Inputs) -> Vec<(VPath, (usize, usize))> {
    let claude_json_path = sources
        .iter()
        .any(|s| s.role == Role::ClaudeJson)
        .then(|| inputs.claude_json_path())
        .flatten();
    let mut placed = Vec::new();
    for (s, source) in sources.iter().enumerate() {
        let Some(base) = source_base(source, inputs, claude_json_path.as_ref()) else {
            continue;
        };
        for (f, file) in source.files.iter().enumerate() {
            let Ok(path) = VPath::new(&placed_path(base.as_deref(), &file.rel)) else {
                continue;
            };
            if source.role != Role::ClaudeJson && claude_json_path.as_ref() == Some(&path) {
                continue;
            }
            placed.push((path, (s, f)));
        }
    }
    placed
}

/// Asks for write permission on every live folder the targets lie in. The page calls it when
/// the person starts a clean-up (a click), never earlier.
///
/// # Errors
/// When the person refuses, or the browser cannot ask.
pub async fn ask_write(targets: &[Target]) -> Result<(), String> {
    let mut asked: Vec<*const LiveRoot> = Vec::new();
    for target in targets {
        let key = Rc::as_ptr(&target.root);
        if asked.contains(&key) {
            continue;
        }
        asked.push(key);
        if !target.root.dir.permission(true, true).await? {
            return Err(format!(
                "the page may not change files in {}: the browser did not give write permission",
                target.root.dir.name()
            ));
        }
    }
    Ok(())
}

// ----- backups ---------------------------------------------------------------------------

/// The folder of the browser's origin-private storage that holds clean-up backups.
pub const BACKUP_FOLDER: &str = "memdiag-backups";

/// How many backups are kept; the oldest go first.
pub const BACKUPS_KEPT: usize = 30;

/// A clean-up's backup, as listed: the plan made, with every file's text before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// Its name in the backup folder (the time it was made, then a counter).
    pub name: String,
    /// When it was made (ISO 8601).
    pub made: String,
    /// The plan.
    pub plan: Plan,
}

/// Backups in the browser's origin-private storage (`navigator.storage.getDirectory()`):
/// they outlive the tab and a reload, stay on this machine, and are listed and restored
/// from the page. Nothing of them leaves the browser.
pub struct OriginBackups;

impl OriginBackups {
    /// The backup folder, created when `create` is true; `None` when there is none yet.
    async fn folder(create: bool) -> Result<Option<JsValue>, String> {
        let navigator = get(&js_sys::global(), "navigator");
        let storage = get(&navigator, "storage");
        if !get(&storage, "getDirectory").is_function() {
            return Err("this browser has no origin-private storage".to_owned());
        }
        let root = await_call(&storage, "getDirectory", &[]).await?;
        let options = Object::new();
        let _ = Reflect::set(&options, &"create".into(), &create.into());
        match settle(call(
            &root,
            "getDirectoryHandle",
            &[BACKUP_FOLDER.into(), options.into()],
        ))
        .await
        {
            Ok(folder) => Ok(Some(folder)),
            Err(e) if is_not_found(&e) => Ok(None),
            Err(e) => Err(message(&e)),
        }
    }

    /// Every backup, newest first; one that cannot be read is left out.
    ///
    /// # Errors
    /// When the storage cannot be listed.
    pub async fn list() -> Result<Vec<Backup>, String> {
        let Some(folder) = OriginBackups::folder(false).await? else {
            return Ok(Vec::new());
        };
        let dir = JsDir(folder);
        let mut out = Vec::new();
        for (name, kind) in dir.entries(None).await? {
            if kind != Kind::File {
                continue;
            }
            let Some(file) = dir.file(&name, false).await? else {
                continue;
            };
            let Ok(bytes) = file.read().await else {
                continue;
            };
            if let Some((made, plan)) = crate::wire::pack::from_bytes::<(String, Plan)>(&bytes) {
                out.push(Backup { name, made, plan });
            }
        }
        crate::sort_by(&mut out, |a, b| b.name.cmp(&a.name));
        Ok(out)
    }

    /// Removes one backup.
    ///
    /// # Errors
    /// When the storage refuses.
    pub async fn remove(name: &str) -> Result<(), String> {
        match OriginBackups::folder(false).await? {
            Some(folder) => JsDir(folder).remove(name).await,
            None => Ok(()),
        }
    }
}

#[cfg(feature = "engine")]
impl crate::engine::write::Backups for OriginBackups {
    fn keep<'a>(&'a self, plan: &'a Plan) -> Task<'a, String> {
        Box::pin(async move {
            let folder = OriginBackups::folder(true)
                .await?
                .ok_or("the backup folder could not be made")?;
            let dir = JsDir(folder);
            let now = js_sys::Date::new_0();
            let made: String = now.to_iso_string().into();
            let mut existing: Vec<String> = dir
                .entries(None)
                .await?
                .into_iter()
                .filter(|(_, kind)| *kind == Kind::File)
                .map(|(name, _)| name)
                .collect();
            crate::sort_by(&mut existing, |a, b| a.cmp(b));
            // Sortable by time: the ISO time without its punctuation, then a counter.
            let stamp: String = made.chars().filter(char::is_ascii_alphanumeric).collect();
            let mut n = 1;
            let name = loop {
                let name = format!("{stamp}-{n}.backup");
                if !existing.contains(&name) {
                    break name;
                }
                n += 1;
            };
            let file = dir
                .file(&name, true)
                .await?
                .ok_or("the backup file could not be made")?;
            let bytes = crate::wire::pack::to_bytes(&(made, plan.clone()));
            file.write(bytes.clone()).await?;
            // Read back: a backup that does not hold the plan is no backup.
            if file.read().await? != bytes {
                return Err("the backup did not read back as written".to_owned());
            }
            for old in existing.iter().rev().skip(BACKUPS_KEPT - 1) {
                let _ = dir.remove(old).await;
            }
            Ok(name)
        })
    }
}

// ----- the browser's handles -------------------------------------------------------------

/// True where the page can open live folders (Chromium-based browsers), and the page is not
/// inside another page's frame ([`crate::page::browser::framed`]).
pub fn supported() -> bool {
    !crate::page::browser::framed()
        && web_sys::window().is_some_and(|w| {
            Reflect::get(&w, &JsValue::from_str("showDirectoryPicker"))
                .is_ok_and(|f| f.is_function())
        })
}

/// What the live mode adds, for the browsers without it.
pub const UNSUPPORTED_NOTE: &str = "This browser has no File System Access API, so the page \
    reads a copy of the folder: Refresh needs the folder dropped again, the page lists every \
    file of a dropped folder (transcripts included) before it starts, and clean-ups come as a \
    shell script to run. In Chrome, Edge or another Chromium-based browser the page opens the \
    folder in place: it lists only the folders that matter, Refresh re-reads only files that \
    changed, and clean-ups are made from the page, with a diff, a confirmation and an undo.";

/// What "Choose folder" does in this browser, for its tooltip.
pub fn choose_folder_title() -> &'static str {
    if supported() {
        "Opens the folder in place (read permission first): the page lists only the folders \
         that matter, Refresh re-reads only files that changed, and clean-ups can be made \
         from the page once you allow writing"
    } else {
        UNSUPPORTED_NOTE
    }
}

/// Opens the folder picker (read permission), `None` when the person cancels.
///
/// # Errors
/// When the browser has no picker or refuses.
pub async fn pick_folder() -> Result<Option<Rc<dyn Dir>>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let picker = Reflect::get(&window, &JsValue::from_str("showDirectoryPicker"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("this browser cannot open folders in place")?;
    let options = Object::new();
    let _ = Reflect::set(&options, &"mode".into(), &"read".into());
    let _ = Reflect::set(&options, &"id".into(), &"memdiag".into());
    let promise: Promise = picker
        .call1(&window, &options)
        .map_err(|e| message(&e))?
        .dyn_into()
        .map_err(|_| "the picker gave no promise".to_owned())?;
    match JsFuture::from(promise).await {
        Ok(handle) => Ok(Some(Rc::new(JsDir(handle)))),
        Err(e) if get(&e, "name").as_string().as_deref() == Some("AbortError") => Ok(None),
        Err(e) => Err(message(&e)),
    }
}

/// A folder picker: gives a folder, or `None` when the person cancels.
pub type Picker = Rc<dyn Fn() -> Option<Rc<dyn Dir>>>;

/// A folder picker in place of the browser's, for the component tests: it hands the page an
/// in-memory folder when "Choose folder" is pressed. `None` restores the browser's.
pub fn set_picker(picker: Option<Picker>) {
    PICKER.with(|p| *p.borrow_mut() = picker);
}

thread_local! {
    static PICKER: std::cell::RefCell<Option<Picker>> =
        const { std::cell::RefCell::new(None) };
}

/// What "Choose folder" does: where the page can open folders live (or a test put its own
/// picker in), the folder picker, and the folder added as a live source; elsewhere
/// `fallback`, the folder input.
pub fn choose_folder(
    fallback: yew::Callback<web_sys::MouseEvent>,
    engine: crate::page::runs::Engine,
    inputs: Inputs,
) -> yew::Callback<web_sys::MouseEvent> {
    yew::Callback::from(move |event: web_sys::MouseEvent| {
        if let Some(picker) = PICKER.with(|p| p.borrow().clone()) {
            if let Some(dir) = picker() {
                engine.add_live(dir, inputs.clone());
            }
            return;
        }
        if !supported() {
            fallback.emit(event);
            return;
        }
        let (engine, inputs) = (engine.clone(), inputs.clone());
        yew::platform::spawn_local(async move {
            match pick_folder().await {
                Ok(Some(dir)) => engine.add_live(dir, inputs),
                Ok(None) => {}
                Err(message) => engine.notice(format!("The folder could not be opened: {message}")),
            }
        });
    })
}

/// Opens a dropped folder live when the browser gave its handle; `None` for anything else
/// (a zip, a file, a browser without handles), which the usual drop path takes.
pub async fn from_drop(
    item: &crate::page::ingest::DroppedItem,
    listed: &dyn Fn(u64),
) -> Option<Result<Source, String>> {
    if !item.entry.is_directory() {
        return None;
    }
    let dir = dropped_folder(item.handle.clone()?).await?;
    Some(open(dir, listed).await)
}

/// The folder handle a drop item offered (`getAsFileSystemHandle`), when it is a folder.
pub async fn dropped_folder(handle: Promise) -> Option<Rc<dyn Dir>> {
    let handle = JsFuture::from(handle).await.ok()?;
    (get(&handle, "kind").as_string().as_deref() == Some("directory"))
        .then(|| Rc::new(JsDir(handle)) as Rc<dyn Dir>)
}

/// A browser `FileSystemDirectoryHandle`, reached through its methods by name so that the
/// page needs no unstable `web-sys` bindings.
pub struct JsDir(pub JsValue);

/// A browser `FileSystemFileHandle`.
pub struct JsFile(pub JsValue);

impl Dir for JsDir {
    fn name(&self) -> String {
        get(&self.0, "name").as_string().unwrap_or_default()
    }

    fn handle(&self) -> Option<JsValue> {
        Some(self.0.clone())
    }

    fn entries(&self, limit: Option<usize>) -> Task<'_, Vec<(String, Kind)>> {
        let iterator = call(&self.0, "values", &[]);
        Box::pin(async move {
            let iterator = iterator?;
            let mut out = Vec::new();
            while limit.is_none_or(|n| out.len() < n) {
                let next = await_call(&iterator, "next", &[]).await?;
                if get(&next, "done").as_bool().unwrap_or(true) {
                    break;
                }
                let value = get(&next, "value");
                let name = get(&value, "name").as_string().unwrap_or_default();
                let kind = match get(&value, "kind").as_string().as_deref() {
                    Some("directory") => Kind::Dir,
                    _ => Kind::File,
                };
                out.push((name, kind));
            }
            Ok(out)
        })
    }

    fn dir<'a>(&'a self, name: &'a str) -> Task<'a, Option<Rc<dyn Dir>>> {
        let started = call(&self.0, "getDirectoryHandle", &[name.into()]);
        Box::pin(async move {
            match settle(started).await {
                Ok(handle) => Ok(Some(Rc::new(JsDir(handle)) as Rc<dyn Dir>)),
                Err(e) if is_not_found(&e) => Ok(None),
                Err(e) => Err(message(&e)),
            }
        })
    }

    fn file<'a>(&'a self, name: &'a str, create: bool) -> Task<'a, Option<Rc<dyn FileRef>>> {
        let options = Object::new();
        let _ = Reflect::set(&options, &"create".into(), &create.into());
        let started = call(&self.0, "getFileHandle", &[name.into(), options.into()]);
        Box::pin(async move {
            match settle(started).await {
                Ok(handle) => Ok(Some(Rc::new(JsFile(handle)) as Rc<dyn FileRef>)),
                // Only "not found" is absent: a folder of that name is in the way, and any
                // other refusal is an error, never taken for a file that is not there.
                Err(e) if error_name(&e).as_deref() == Some("NotFoundError") => Ok(None),
                Err(e) if error_name(&e).as_deref() == Some("TypeMismatchError") => {
                    Err(format!("a folder named {name} is in the way"))
                }
                Err(e) => Err(message(&e)),
            }
        })
    }

    fn remove<'a>(&'a self, name: &'a str) -> Task<'a, ()> {
        let started = call(&self.0, "removeEntry", &[name.into()]);
        Box::pin(async move { settle(started).await.map(|_| ()).map_err(|e| message(&e)) })
    }

    // Clean-ups are made in the analysis worker (`crate::page::cleanups::apply`): the page's own
    // wasm keeps the default.
    #[cfg(feature = "engine")]
    fn remove_if<'a>(&'a self, name: &'a str, expected: &'a [u8]) -> Task<'a, bool> {
        Box::pin(async move {
            let handle = match settle(call(&self.0, "getFileHandle", &[name.into()])).await {
                Ok(handle) => handle,
                Err(e) if error_name(&e).as_deref() == Some("NotFoundError") => return Ok(false),
                Err(e) => return Err(message(&e)),
            };
            let file = JsFile(handle.clone());
            // Where the browser can rename (`move`), set the file aside under a name of its
            // own first: the bytes compared are then the bytes removed, and an edit that
            // comes after lands in a new file at the old name.
            if !get(&handle, "move").is_function() {
                if file.read().await? != expected {
                    return Ok(false);
                }
                return self.remove(name).await.map(|()| true);
            }
            let aside = format!(".{name}.memdiag-removing");
            settle(call(&handle, "move", &[aside.as_str().into()]))
                .await
                .map_err(|e| message(&e))?;
            if file.read().await? == expected {
                self.remove(&aside).await?;
                return Ok(true);
            }
            // Not what was expected: put it back under its name, unless a new file took it.
            if self.file(name, false).await?.is_none() {
                settle(call(&handle, "move", &[name.into()]))
                    .await
                    .map_err(|e| message(&e))?;
                return Ok(false);
            }
            Err(format!(
                "{name} changed while the page removed it, and a new {name} appeared: the \
                 earlier one is kept as {aside}"
            ))
        })
    }

    fn permission(&self, write: bool, ask: bool) -> Task<'_, bool> {
        let options = Object::new();
        let mode = if write { "readwrite" } else { "read" };
        let _ = Reflect::set(&options, &"mode".into(), &mode.into());
        let handle = self.0.clone();
        Box::pin(async move {
            // A browser without the permission methods (an origin-private folder in some
            // releases) lets the page do what the handle allows.
            if !get(&handle, "queryPermission").is_function() {
                return Ok(true);
            }
            let state = settle(call(&handle, "queryPermission", &[options.clone().into()]))
                .await
                .map_err(|e| message(&e))?;
            if state.as_string().as_deref() == Some("granted") {
                return Ok(true);
            }
            if !ask {
                return Ok(false);
            }
            let state = settle(call(&handle, "requestPermission", &[options.into()]))
                .await
                .map_err(|e| message(&e))?;
            Ok(state.as_string().as_deref() == Some("granted"))
        })
    }
}

impl FileRef for JsFile {
    fn stat(&self) -> Task<'_, Stat> {
        let started = call(&self.0, "getFile", &[]);
        Box::pin(async move {
            let file: web_sys::File = settle_within(started)
                .await
                .map_err(|e| read_error(&e))?
                .dyn_into()
                .map_err(|_| "not a file".to_owned())?;
            let millis = file.last_modified();
            Ok(Stat {
                size: file.size() as u64,
                modified_ms: (millis > 0.0).then_some(millis),
            })
        })
    }

    fn read(&self) -> Task<'_, Vec<u8>> {
        let started = call(&self.0, "getFile", &[]);
        Box::pin(async move {
            let file: web_sys::File = settle_within(started)
                .await
                .map_err(|e| read_error(&e))?
                .dyn_into()
                .map_err(|_| "not a file".to_owned())?;
            if file.size() > crate::page::ingest::MAX_READ_BYTES {
                return Err("too large to read".to_owned());
            }
            let buffer = settle_within(Ok(file.array_buffer().into()))
                .await
                .map_err(|e| read_error(&e))?;
            Ok(Uint8Array::new(&buffer).to_vec())
        })
    }

    #[cfg(feature = "engine")]
    fn write(&self, bytes: Vec<u8>) -> Task<'_, ()> {
        let started = call(&self.0, "createWritable", &[]);
        Box::pin(async move {
            let stream = settle(started).await.map_err(|e| message(&e))?;
            finish_write(&stream, &bytes).await
        })
    }

    #[cfg(feature = "engine")]
    fn write_if<'a>(&'a self, expected: &'a [u8], bytes: Vec<u8>) -> Task<'a, bool> {
        let started = call(&self.0, "createWritable", &[]);
        Box::pin(async move {
            // The write is open (the browser writes a copy and swaps it in on close), so an
            // edit that landed before now shows in this read.
            let stream = settle(started).await.map_err(|e| message(&e))?;
            let holds = match self.read().await {
                Ok(now) => now == expected,
                Err(e) => {
                    let _ = settle(call(&stream, "abort", &[])).await;
                    return Err(e);
                }
            };
            if !holds {
                let _ = settle(call(&stream, "abort", &[])).await;
                return Ok(false);
            }
            finish_write(&stream, &bytes).await.map(|()| true)
        })
    }
}

/// Writes the bytes to an open writable stream and closes it (aborting it on failure).
#[cfg(feature = "engine")]
async fn finish_write(stream: &JsValue, bytes: &[u8]) -> Result<(), String> {
    let data = Uint8Array::from(bytes);
    if let Err(e) = settle(call(stream, "write", &[data.into()])).await {
        let _ = settle(call(stream, "abort", &[])).await;
        return Err(message(&e));
    }
    settle(call(stream, "close", &[]))
        .await
        .map(|_| ())
        .map_err(|e| message(&e))
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Calls a method by name; its promise (or value) when the call itself did not throw.
fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let function: js_sys::Function = get(target, method)
        .dyn_into()
        .map_err(|_| format!("the browser has no {method}"))?;
    let args: js_sys::Array = args.iter().collect();
    function.apply(target, &args).map_err(|e| message(&e))
}

async fn await_call(target: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, String> {
    settle(call(target, method, args))
        .await
        .map_err(|e| message(&e))
}

/// Awaits a started call's promise (a plain value passes through).
async fn settle(started: Result<JsValue, String>) -> Result<JsValue, JsValue> {
    let value = started.map_err(|m| JsValue::from_str(&m))?;
    match value.dyn_into::<Promise>() {
        Ok(promise) => JsFuture::from(promise).await,
        Err(value) => Ok(value),
    }
}

/// How long a read or a size look-up of a live file may take before the page gives up on
/// it, in milliseconds (a folder on a network drive that stopped answering, a browser that
/// never settles the call): the file then ends with a message like any unreadable file, and
/// the run goes on.
pub const READ_TIMEOUT_MS: i32 = 30_000;

thread_local! {
    static READ_TIMEOUT: std::cell::Cell<i32> = const { std::cell::Cell::new(READ_TIMEOUT_MS) };
}

/// Sets the read timeout in place of [`READ_TIMEOUT_MS`], for the component tests (`None`
/// restores it).
pub fn set_read_timeout(ms: Option<i32>) {
    READ_TIMEOUT.with(|t| t.set(ms.unwrap_or(READ_TIMEOUT_MS)));
}

/// What a timed-out call rejects with: its `name`.
const TIMED_OUT: &str = "MemdiagTimeout";

/// [`settle`], but a promise that has not settled within the read timeout rejects with
/// [`TIMED_OUT`].
async fn settle_within(started: Result<JsValue, String>) -> Result<JsValue, JsValue> {
    let value = started.map_err(|m| JsValue::from_str(&m))?;
    let promise = match value.dyn_into::<Promise>() {
        Ok(promise) => promise,
        Err(value) => return Ok(value),
    };
    let ms = READ_TIMEOUT.with(std::cell::Cell::get);
    let global = js_sys::global();
    let timer_id = Rc::new(std::cell::Cell::new(JsValue::UNDEFINED));
    let timer = {
        let (global, timer_id) = (global.clone(), timer_id.clone());
        Promise::new(&mut |_resolve, reject| {
            let error = Object::new();
            let _ = Reflect::set(&error, &"name".into(), &TIMED_OUT.into());
            let fire = wasm_bindgen::closure::Closure::once_into_js(move || {
                let _ = reject.call1(&JsValue::NULL, &error);
            });
            if let Ok(id) = call(&global, "setTimeout", &[fire, ms.into()]) {
                timer_id.set(id);
            }
        })
    };
    let result = JsFuture::from(Promise::race(&js_sys::Array::of2(&promise, &timer))).await;
    let _ = call(&global, "clearTimeout", &[timer_id.take()]);
    result
}

/// A message for a person about a live file that could not be read: a file deleted or
/// moved since the folder was listed, changed while it was read, or that never answered.
fn read_error(error: &JsValue) -> String {
    match get(error, "name").as_string().as_deref() {
        Some("NotFoundError") => "the file is gone: it was deleted or moved after the folder \
            was listed (Refresh lists the folder again)"
            .to_owned(),
        Some("NotReadableError") => "the file changed or went away while the page read it \
            (Refresh reads it again)"
            .to_owned(),
        Some(TIMED_OUT) => format!(
            "the browser did not hand the file over within {} s (Refresh tries again)",
            seconds(READ_TIMEOUT.with(std::cell::Cell::get))
        ),
        _ => message(error),
    }
}

/// Milliseconds as seconds, written as `{}` wrote the `f64` quotient (`30`, `0.05`), with
/// integers only: this was the first-paint wasm's last `{}` of an `f64`, and it alone kept
/// Rust's float formatting (7 KB gzipped) in it.
fn seconds(ms: i32) -> String {
    let whole = ms / 1000;
    let fraction = (ms % 1000).unsigned_abs();
    let sign = if ms < 0 && whole == 0 { "-" } else { "" };
    if fraction == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{fraction:03}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
}

/// A folder look-up that found no folder: none of that name, or a file of that name.
fn is_not_found(error: &JsValue) -> bool {
    matches!(
        error_name(error).as_deref(),
        Some("NotFoundError" | "TypeMismatchError")
    )
}

/// The `name` of a thrown DOMException.
fn error_name(error: &JsValue) -> Option<String> {
    get(error, "name").as_string()
}

/// A readable message from a thrown JavaScript value.
fn message(value: &JsValue) -> String {
    if let Some(text) = value.as_string() {
        return text;
    }
    match (
        get(value, "name").as_string(),
        get(value, "message").as_string(),
    ) {
        (Some(name), Some(text)) if !text.is_empty() => format!("{name}: {text}"),
        (_, Some(text)) => text,
        (Some(name), None) => name,
        (None, None) => "unknown error".to_owned(),
    }
}

fn iso_date(millis: f64) -> String {
    js_sys::Date::new(&JsValue::from_f64(millis))
        .to_iso_string()
        .into()
}

async fn yield_now() {
    yew::platform::time::sleep(std::time::Duration::ZERO).await;
}

#[cfg(test)]
mod tests {
    use super::{descend, seconds, Descend};

    #[test]
    fn seconds_read_as_the_float_quotient_did() {
        for ms in [
            -1500, -999, -5, 0, 1, 5, 10, 50, 100, 999, 1000, 1001, 1500, 30_000, 30_050,
        ]
        .into_iter()
        .chain([i32::MIN, i32::MAX])
        {
            assert_eq!(seconds(ms), format!("{}", f64::from(ms) / 1000.0), "{ms}");
        }
    }

    #[test]
    fn the_walk_enters_only_what_the_analysis_reads() {
        let cases = [
            (true, "", Descend::All),
            (true, "projects", Descend::All),
            (true, "projects/-home-a", Descend::MemoryOnly),
            (true, "projects/anything", Descend::MemoryOnly),
            (true, "todos", Descend::Skip),
            (true, "file-history", Descend::Skip),
            (true, "rules", Descend::All),
            (true, "rules/debug", Descend::All),
            (false, ".claude/projects/x", Descend::MemoryOnly),
            (false, ".claude/debug", Descend::Skip),
            (false, "work/shop/.git", Descend::GitOnly),
            // A project's own folders of these names are read like any other.
            (false, "projects/app", Descend::All),
            (false, "debug", Descend::All),
            (false, "src/debug", Descend::All),
            (false, "node_modules", Descend::All),
        ];
        for (config, rel, expected) in cases {
            assert_eq!(descend(config, rel), expected, "{config}: {rel}");
        }
    }

    #[test]
    fn files_in_dependency_folders_are_listed_without_their_sizes_but_instructions() {
        for rel in [
            "node_modules/pkg/index.js",
            "web/node_modules/@scope/pkg/lib/a.js",
            "vendor/lib/v.go",
            ".venv/lib/site.py",
        ] {
            assert!(super::lazy(rel), "{rel}");
        }
        for rel in [
            "node_modules/pkg/CLAUDE.md",
            "node_modules/pkg/CLAUDE.local.md",
            "node_modules/pkg/.claude/settings.json",
            "node_modules",
            "src/index.js",
            "package.json",
        ] {
            assert!(!super::lazy(rel), "{rel}");
        }
    }
}
