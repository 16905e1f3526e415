//! The page's entry point; everything lives in the library so that tests can mount it.
//!
//! This is the wasm first paint loads; the analysis runs in a second one, `memdiag-engine`
//! (`src/worker_main.rs`), which the page's worker loads.

fn main() {
    memdiag_web::run();
}
