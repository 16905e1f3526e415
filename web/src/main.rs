//! The page's entry point; everything lives in the library so that tests can mount it.
//!
//! The same wasm runs the analysis worker: there is no window in a worker, and `main` starts
//! the worker's message loop instead of the page.

use wasm_bindgen::JsCast;

fn main() {
    if js_sys::global().dyn_into::<web_sys::Window>().is_ok() {
        memdiag_web::run();
    } else {
        memdiag_web::worker::start();
    }
}
