//! The JavaScript helpers both wasm modules use: turns of the event loop, tasks run at once,
//! the local date and the message of a thrown value. `page::browser` re-exports them for the
//! page.

use std::time::Duration;

use js_sys::{Array, Promise, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// The person's local date as `YYYY-MM-DD`: the core never reads a clock, and the growth
/// projection wants the local date rather than the one in UTC.
pub fn today() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        now.get_full_year(),
        now.get_month() + 1,
        now.get_date()
    )
}

/// Lets the browser handle events and paint before the work goes on.
pub async fn yield_now() {
    yew::platform::time::sleep(Duration::ZERO).await;
}

/// Runs every one of `tasks` at once and gives their outputs in order: reads and look-ups
/// that the browser answers away from this thread overlap instead of waiting in turn.
pub async fn all_at_once<T: 'static>(
    tasks: Vec<impl std::future::Future<Output = T> + 'static>,
) -> Vec<T> {
    let slots: std::rc::Rc<std::cell::RefCell<Vec<Option<T>>>> = std::rc::Rc::new(
        std::cell::RefCell::new(tasks.iter().map(|_| None).collect()),
    );
    let started: Array = tasks
        .into_iter()
        .enumerate()
        .map(|(n, task)| {
            let slots = std::rc::Rc::clone(&slots);
            JsValue::from(wasm_bindgen_futures::future_to_promise(async move {
                let output = task.await;
                slots.borrow_mut()[n] = Some(output);
                Ok(JsValue::UNDEFINED)
            }))
        })
        .collect();
    let _ = JsFuture::from(Promise::all(&started)).await;
    let outputs = std::mem::take(&mut *slots.borrow_mut());
    outputs
        .into_iter()
        .map(|output| output.expect("every task ran to its end"))
        .collect()
}

/// A readable message from a thrown JavaScript value.
pub fn js_message(value: &JsValue) -> String {
    if let Some(text) = value.as_string() {
        return text;
    }
    let message = get(value, "message").as_string();
    let name = get(value, "name").as_string();
    match (name, message) {
        (Some(name), Some(message)) if !message.is_empty() => format!("{name}: {message}"),
        (_, Some(message)) => message,
        (Some(name), None) => name,
        (None, None) => "unknown error".to_owned(),
    }
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
