//! How the worker answers the page: one message posted to the page's side
//! ([`crate::page::worker_host`] reads it). Every answerer of the engine posts through here,
//! so that none of them imports the worker's dispatch ([`crate::engine::worker`]).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::DedicatedWorkerGlobalScope;

use crate::wire::messages::{object, ToPage};

/// The worker's global scope.
pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts one message of `fields` to the page.
pub(crate) fn post(fields: &[(&str, JsValue)]) {
    let _ = scope().post_message(&object(fields));
}

/// Posts a [`ToPage::Failed`] answer with `message`.
pub(crate) fn failed(message: &str) {
    post(&[("type", ToPage::Failed.into()), ("message", message.into())]);
}
