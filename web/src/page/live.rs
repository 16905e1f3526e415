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

use std::rc::Rc;

use js_sys::{Object, Promise, Reflect};
use memdiag_core::cleanup::Plan;
use memdiag_core::limits::BULK_DATA_FOLDERS;
use memdiag_core::VPath;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::wire::folders::{get, iso_date, message, yield_now};
pub use crate::wire::folders::{
    set_read_timeout, Backup, Dir, FileRef, JsDir, JsFile, Kind, LiveRoot, OriginBackups, Stat,
    Target, Task, BACKUPS_KEPT, BACKUP_FOLDER, READ_TIMEOUT_MS,
};
use crate::wire::inputs::Inputs;
use crate::wire::sources::{placed_path, source_base, Origin, Reader, Role, Source, SourceFile};

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
/// only if the analysis looks at it ([`crate::wire::sources::UNSTATTED`]), which saves one browser
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
                            size: crate::wire::sources::UNSTATTED,
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
    crate::wire::order::sort_by(&mut files, |a, b| a.rel.cmp(&b.rel));
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

/// Every file of `sources` at the path `engine::ingest::mount` gives it with `inputs`, in
/// the order the mount inserts them, with its source and file index: the mount's origins
/// without its tree, which the page's wasm does not hold (it mounts nothing; the worker does).
/// The places are the mount's ([`crate::wire::sources::source_base`]), an added `~/.claude.json` in
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

/// The folder picker a test put in place of the browser's ([`set_picker`]), if any.
pub(crate) fn test_picker() -> Option<Picker> {
    PICKER.with(|p| p.borrow().clone())
}

/// The folder handle a drop item offered (`getAsFileSystemHandle`), when it is a folder.
pub async fn dropped_folder(handle: Promise) -> Option<Rc<dyn Dir>> {
    let handle = JsFuture::from(handle).await.ok()?;
    (get(&handle, "kind").as_string().as_deref() == Some("directory"))
        .then(|| Rc::new(JsDir(handle)) as Rc<dyn Dir>)
}

// ----- the folders opened last time --------------------------------------------------------

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
function tx(mode, f) {
  return new Promise((ok, no) => {
    const open = indexedDB.open('memdiag', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('folders');
    open.onerror = () => no(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const t = db.transaction('folders', mode);
      const r = f(t.objectStore('folders'));
      t.oncomplete = () => { db.close(); ok(r.result); };
      t.onerror = t.onabort = () => { db.close(); no(t.error); };
    };
  });
}
export function memdiag_keep(handles) {
  return tx('readwrite', (s) => handles.length ? s.put(handles, 'last') : s.delete('last')).catch(() => {});
}
export function memdiag_kept() {
  return tx('readonly', (s) => s.get('last')).then((h) => Array.isArray(h) ? h : [], () => []);
}
export function memdiag_reopen(handles) {
  return Promise.all(handles.map((h) => h.requestPermission({ mode: 'read' }).then((p) => p === 'granted' && h, () => false)))
    .then((all) => all.filter(Boolean));
}")]
extern "C" {
    /// Keeps these folder handles in the page's IndexedDB, in place of the last ones (none:
    /// forgets them). Never fails.
    fn memdiag_keep(handles: &js_sys::Array) -> Promise;
    /// The folder handles kept last time (an empty array when none or no IndexedDB).
    fn memdiag_kept() -> Promise;
    /// Asks read permission again for each handle at once (the click's activation covers
    /// them); the handles it was granted for.
    fn memdiag_reopen(handles: &js_sys::Array) -> Promise;
}

/// Keeps the handles of the live folders `dirs` (only the handles: no name, path or file)
/// in this browser's storage for this page, so that the next visit can offer to reopen
/// them. Where the page cannot open live folders, nothing is kept.
pub fn keep_folders(dirs: &[Rc<dyn Dir>]) {
    if !supported() {
        return;
    }
    let handles = js_sys::Array::new();
    for dir in dirs {
        if let Some(handle) = dir.handle() {
            handles.push(&handle);
        }
    }
    let promise = memdiag_keep(&handles);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = JsFuture::from(promise).await;
    });
}

/// The folders kept last time, by name (their handles stay in JavaScript).
pub async fn kept_folders() -> (js_sys::Array, Vec<String>) {
    if !supported() {
        return (js_sys::Array::new(), Vec::new());
    }
    let handles: js_sys::Array = JsFuture::from(memdiag_kept())
        .await
        .ok()
        .and_then(|h| h.dyn_into().ok())
        .unwrap_or_default();
    let names = handles
        .iter()
        .map(|h| get(&h, "name").as_string().unwrap_or_default())
        .collect();
    (handles, names)
}

/// Asks permission again for the kept folders, on a click; the ones granted, as folders.
pub async fn reopen_folders(handles: &js_sys::Array) -> Vec<Rc<dyn Dir>> {
    let granted: js_sys::Array = JsFuture::from(memdiag_reopen(handles))
        .await
        .ok()
        .and_then(|h| h.dyn_into().ok())
        .unwrap_or_default();
    granted
        .iter()
        .map(|h| Rc::new(JsDir(h)) as Rc<dyn Dir>)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{descend, Descend};

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
