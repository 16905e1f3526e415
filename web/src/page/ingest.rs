//! Getting files in on the page: dropped folders and zips, the folder and zip inputs, and
//! Refresh. The page lists a source (by name, sizing nothing it need not) and hands it to the
//! analysis worker, which opens zips and reads what the core asks for
//! ([`crate::wire::sources`] holds the sources both sides keep; the worker's half is
//! `engine::ingest`).
//!
//! An added `~/.claude.json` is one more source of one file, kept apart from the folders and
//! zips (dropping a folder does not replace it). It is placed where the analysis looks for it
//! (see [`crate::wire::inputs::claude_json_path`]) and read, like any file, only if the
//! analysis asks: only when a project is set, and then only for its one approval key.

use std::rc::Rc;

use js_sys::{Array, Promise, Reflect};
use memdiag_core::is_bulk_data;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    File, FileList, FileSystemDirectoryEntry, FileSystemDirectoryHandle, FileSystemEntry,
    FileSystemFileEntry, HtmlInputElement,
};

#[cfg(feature = "engine")]
use crate::engine::ingest::open_zip_here;
use crate::page::browser::{after_paint, js_message, yield_now, yield_urgent};
use crate::page::worker_host::Host;
use crate::wire::inputs::Inputs;
use crate::wire::sources::{entry_file, get, modified_of, placed_path, source_base};
pub use crate::wire::sources::{
    read_file, Opened, Origin, Reader, Role, SharedRaw, SharedSource, Snapshot, Source, SourceFile,
    Stat, MAX_READ_BYTES, UNSTATTED,
};

/// How many `File` lookups are in flight at once while a dropped folder is listed.
const LIST_BATCH: usize = 256;

/// How long a folder input is listed before the page yields to draw its progress; the
/// first time sooner, so that it shows it is busy within a frame or two of the drop.
const LIST_SLICE_MS: f64 = 50.0;
const FIRST_LIST_SLICE_MS: f64 = 16.0;

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
    crate::wire::order::sort_by(&mut out, |a, b| a.cmp(b));
    out.dedup();
    out
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

#[cfg(not(feature = "engine"))]
async fn open_zip_here(_file: File) -> Result<Opened, String> {
    Err(crate::page::worker_host::NO_WORKER.to_owned())
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

/// Opens a dropped folder live when the browser gave its handle; `None` for anything else
/// (a zip, a file, a browser without handles), which the usual drop path takes.
pub async fn from_drop(item: &DroppedItem, listed: &dyn Fn(u64)) -> Option<Result<Source, String>> {
    if !item.entry.is_directory() {
        return None;
    }
    let dir = crate::page::live::dropped_folder(item.handle.clone()?).await?;
    Some(crate::page::live::open(dir, listed).await)
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
