//! Globs: compile (brace expansion under its bounds) and match, whole and relative. The
//! input is a pattern and a path separated by the first NUL.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::fuzzing;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (pattern, path) = text.split_once('\0').unwrap_or((&text, "src/a/b.ts"));
    let _ = fuzzing::glob(pattern, path);
});
