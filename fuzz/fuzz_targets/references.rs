//! Imports and links in Markdown, and the text as loaded and sent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::fuzzing;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzing::references(&String::from_utf8_lossy(data));
});
