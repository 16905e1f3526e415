//! The whole pipeline: a generated tree through analysis, sanitizing, a link and a zip, and
//! back; the reports must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::fuzzing;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = fuzzing::pipeline(data) {
        panic!("{broken}");
    }
});
