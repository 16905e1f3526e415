//! Settings files and `~/.claude.json`'s approval key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::fuzzing;

fuzz_target!(|data: &[u8]| {
    let _ = fuzzing::settings(&String::from_utf8_lossy(data));
});
