//! Frontmatter: the block, the bounded YAML reading, display fields and `paths` globs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::fuzzing;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = fuzzing::frontmatter(&text);
    // The same bytes as a block's YAML, so the fuzzer need not find the `---` lines.
    let _ = fuzzing::frontmatter(&format!("---\n{text}\n---\n"));
    let _ = fuzzing::yaml_error(&text);
});
