//! The page's entry point; everything lives in the library so that tests can mount it.

fn main() {
    memdiag_web::run();
}
