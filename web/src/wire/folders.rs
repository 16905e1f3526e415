//! Live folders as both wasm modules hold them: the small [`Dir`] and [`FileRef`] traits the
//! page walks and the analysis worker writes through, the browser's handles behind them
//! ([`JsDir`], [`JsFile`]: a `FileSystemDirectoryHandle` crosses to the worker), where a
//! planned change lands ([`Target`]) and the clean-up backups in the browser's
//! origin-private storage ([`OriginBackups`]).
//!
//! The page's walk, Refresh and clean-up placing are in `page::live`; the writes in
//! `engine::write`.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Object, Promise, Reflect, Uint8Array};
use memdiag_core::cleanup::Plan;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

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
    // Only the analysis worker makes clean-ups (`engine::cleanups::apply`): the page's own
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

/// Where a planned change lands: a live source's root and the file's path below it.
pub struct Target {
    /// The change's absolute virtual path.
    pub path: String,
    /// The live folder.
    pub root: Rc<LiveRoot>,
    /// The path below it, `/`-separated.
    pub rel: String,
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
    pub(crate) async fn folder(create: bool) -> Result<Option<JsValue>, String> {
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
        crate::wire::order::sort_by(&mut out, |a, b| b.name.cmp(&a.name));
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

    // Clean-ups are made in the analysis worker (`engine::cleanups::apply`): the page's own
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
            if file.size() > memdiag_core::limits::READ_LIMIT_BYTES as f64 {
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

pub(crate) fn get(target: &JsValue, key: &str) -> JsValue {
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
pub(crate) fn message(value: &JsValue) -> String {
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

pub(crate) fn iso_date(millis: f64) -> String {
    js_sys::Date::new(&JsValue::from_f64(millis))
        .to_iso_string()
        .into()
}

pub(crate) async fn yield_now() {
    yew::platform::time::sleep(std::time::Duration::ZERO).await;
}

#[cfg(test)]
mod tests {
    use super::seconds;

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
}
