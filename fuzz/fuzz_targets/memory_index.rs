//! The `MEMORY.md` caps under every release's rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::fuzzing;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let loaded = fuzzing::memory_index(&text);
    assert!(
        loaded <= text.len() + 1,
        "the loaded index is longer than the file"
    );
});
