//! The analysis worker's entry point (`web/assets/worker.js` loads this wasm): the engine
//! without the page. It answers the page's messages ([`memdiag_web::engine::worker`]).

fn main() {
    memdiag_web::engine::worker::start();
}
