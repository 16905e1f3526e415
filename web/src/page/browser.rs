//! The page's helpers around the browser: the clock, the address bar, downloads, the
//! clipboard, window listeners and turns of the event loop.
//!
//! Everything here is a thin wrapper over `web_sys` with no knowledge of the report; the
//! page's modules ([`crate::page::ingest`], [`crate::page::share`], [`crate::page::runs`], the components)
//! reach the browser through it, so none of them needs another for a helper.

use js_sys::{Array, Function, Promise, Reflect};
use memdiag_core::report::Report;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, EventTarget, HtmlAnchorElement, Url};

use crate::page::worker_host::Remote;
pub use crate::wire::js::{all_at_once, js_message, today, yield_now};

/// The page's document.
///
/// # Panics
/// Outside a browser window (the page never runs there).
pub fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page runs in a browser window")
}

/// True when the page runs inside another page's frame (`window.top !== window.self`).
///
/// The host's headers forbid framing (`frame-ancestors 'none'` in `_headers`), but a host
/// that sends none cannot: framed, the page opens no folder in place, so that a page around
/// it cannot have the person grant it a folder.
pub fn framed() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    // A cross-origin `top` may be compared but not read; reaching it cannot fail for a
    // window, and if it ever did the page acts as framed.
    match (
        Reflect::get(&window, &"top".into()),
        Reflect::get(&window, &"self".into()),
    ) {
        (Ok(top), Ok(own)) => top != own,
        _ => true,
    }
}

/// What the page says where it opens no folder in place because it is framed.
pub const FRAMED_NOTE: &str =
    "Framed by another page: open this page in its own tab to open folders in place.";

/// The page clock, in milliseconds.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// True when a page that has not started yet should show the demo: `?empty` starts with
/// nothing loaded; anything else (`?demo`, a first visit) shows the demo.
pub fn wants_demo() -> bool {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    !search.split(['?', '&']).any(|part| part == "empty")
}

/// The page's current fragment, `#…` or empty.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Removes the fragment from the address bar without reloading or adding a history entry.
pub fn clear_fragment() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let (Ok(path), Ok(search)) = (location.pathname(), location.search()) else {
        return;
    };
    if let Ok(history) = window.history() {
        let _ =
            history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{search}")));
    }
}

/// Now as an ISO 8601 date-time to the second (`2026-11-30T12:22:30Z`), for `made`.
pub fn now_iso() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    // `2026-11-30T12:22:30.123Z`: the milliseconds say nothing a reader needs.
    match iso.split_once('.') {
        Some((seconds, _)) => format!("{seconds}Z"),
        None => iso,
    }
}

/// Starts the download of `blob` as `name`.
///
/// # Errors
/// When the browser refuses to make the link.
pub fn save_blob(blob: &Blob, name: &str) -> Result<(), JsValue> {
    let url = Url::create_object_url_with_blob(blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let anchor: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // The click has started the download; the URL can go once the event loop turns.
    wasm_bindgen_futures::spawn_local(async move {
        yield_now().await;
        let _ = Url::revoke_object_url(&url);
    });
    Ok(())
}

/// Writes `text` to the clipboard.
///
/// # Errors
/// When the browser has no clipboard for the page (an insecure origin, an old browser) or
/// refuses the write (no permission, the page not focused).
pub async fn copy_text(text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let navigator =
        Reflect::get(&window, &JsValue::from_str("navigator")).map_err(|e| js_message(&e))?;
    let clipboard = Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .ok()
        .filter(|c| c.is_object())
        .ok_or("this browser offers no clipboard here")?;
    let write = Reflect::get(&clipboard, &JsValue::from_str("writeText"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("this browser offers no clipboard here")?;
    let promise = write
        .call1(&clipboard, &JsValue::from_str(text))
        .map_err(|e| js_message(&e))?
        .dyn_into::<js_sys::Promise>()
        .map_err(|_| "the clipboard did not answer".to_owned())?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| js_message(&e))
}

/// [`yield_now`], ahead of the tasks the browser queued before: after a folder input's
/// `change` event Chromium runs one task per chosen file (about 300 ms of them for 30,000
/// files, seen in its trace), and a `setTimeout` waits behind them all. Uses
/// `scheduler.postTask` at `user-blocking` priority where the browser has it.
pub async fn yield_urgent() {
    let scheduler = crate::wire::messages::get(&js_sys::global(), "scheduler");
    if let Ok(post_task) = crate::wire::messages::get(&scheduler, "postTask").dyn_into::<Function>()
    {
        let options = crate::wire::messages::object(&[("priority", "user-blocking".into())]);
        let posted = post_task
            .call2(&scheduler, &Closure::once_into_js(|| {}), &options)
            .and_then(|promise| promise.dyn_into::<Promise>());
        if let Ok(promise) = posted {
            let _ = JsFuture::from(promise).await;
            return;
        }
    }
    yield_now().await;
}

/// Waits until the browser has painted a frame, so that what the page just drew shows before
/// a long piece of work: a `requestAnimationFrame` callback runs just before a frame's paint
/// and a task queued from it just after. A hidden page paints no frames, so it only yields.
pub async fn after_paint() {
    let window = web_sys::window();
    if let Some(window) = window.filter(|w| w.document().is_some_and(|d| !d.hidden())) {
        let frame = Promise::new(&mut |resolve, _| {
            let _ = window.request_animation_frame(&resolve);
        });
        let _ = JsFuture::from(frame).await;
    }
    yield_urgent().await;
}

/// Saves the report as JSON through a Blob URL: written by the worker when asked (`remote`),
/// or here where the page analysed in place.
///
/// # Errors
/// When the worker cannot write it, or the browser refuses to make the Blob or the link.
pub async fn download_report(report: &Report, remote: Option<&Remote>) -> Result<(), JsValue> {
    let json = match remote {
        Some(remote) => remote.report_json().await.map_err(|failure| {
            JsValue::from_str(&failure.message().unwrap_or_else(|| "cancelled".to_owned()))
        })?,
        None => report_json_here(report)?,
    };
    let parts = Array::of1(&JsValue::from_str(&json));
    let options = BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    save_blob(&blob, "memdiag-report.json")
}

#[cfg(feature = "engine")]
fn report_json_here(report: &Report) -> Result<String, JsValue> {
    serde_json::to_string_pretty(report).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// The page's own wasm has no report writer: a report there always came from the worker.
#[cfg(not(feature = "engine"))]
fn report_json_here(_: &Report) -> Result<String, JsValue> {
    Err(JsValue::from_str(crate::page::worker_host::NO_WORKER))
}

/// Asks the person `question` with the browser's own OK / Cancel dialog; true on OK (and
/// where no dialog can show).
pub fn confirm(question: &str) -> bool {
    web_sys::window().is_none_or(|w| w.confirm_with_message(question).unwrap_or(true))
}

/// Scrolls the window to its top.
pub fn scroll_to_top() {
    if let Some(window) = web_sys::window() {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// Keeps a DOM event listener registered for as long as it lives.
pub struct Listener {
    target: EventTarget,
    kind: &'static str,
    closure: Closure<dyn FnMut(web_sys::Event)>,
}

impl Listener {
    /// Registers `f` for `kind` events on `target`.
    pub fn new(
        target: &EventTarget,
        kind: &'static str,
        f: impl FnMut(web_sys::Event) + 'static,
    ) -> Listener {
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(f);
        let _ = target.add_event_listener_with_callback(kind, closure.as_ref().unchecked_ref());
        Listener {
            target: target.clone(),
            kind,
            closure,
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self
            .target
            .remove_event_listener_with_callback(self.kind, self.closure.as_ref().unchecked_ref());
    }
}

/// Moves focus to the element with this `data-testid`, if the page has one.
pub fn focus_test_id(id: &str) {
    let found = document()
        .query_selector(&format!("[data-testid={id}]"))
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(element) = found {
        let _ = element.focus();
    }
}

/// Lands on `view`, the pane a link opened: focus goes to its heading (its first `h2`, or
/// the view itself) without scrolling, and the window scrolls when what was opened is out of
/// sight: the line asked for (`line`, an element of the view, which the view has already
/// scrolled to within itself), else the heading. A view that fits in the window comes in
/// whole; a taller one (on a phone, where the file view sits below the tree and does not
/// scroll inside) brings the target a third of the way down.
pub fn land(view: &web_sys::HtmlElement, line: Option<web_sys::Element>) {
    let heading = view
        .query_selector("h2")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .unwrap_or_else(|| view.clone());
    focus_quietly(&heading);
    let Some(window) = web_sys::window() else {
        return;
    };
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let target = line.unwrap_or_else(|| heading.into());
    let at = target.get_bounding_client_rect();
    if at.top() >= 0.0 && at.bottom() <= height {
        return;
    }
    if view.get_bounding_client_rect().height() <= height {
        view.scroll_into_view_with_bool(true);
    } else {
        window.scroll_by_with_x_and_y(0.0, at.top() - height / 3.0);
    }
}

/// Focuses `element` without scrolling the window to it (`focus({ preventScroll: true })`):
/// on a phone the window would otherwise jump away from what the person was reading.
pub fn focus_quietly(element: &web_sys::HtmlElement) {
    let options = js_sys::Object::new();
    let _ = Reflect::set(
        &options,
        &JsValue::from_str("preventScroll"),
        &JsValue::TRUE,
    );
    match Reflect::get(element, &JsValue::from_str("focus"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        Some(focus) => {
            let _ = focus.call1(element, &options);
        }
        None => {
            let _ = element.focus();
        }
    }
}
