//! Share links: any text as a link (and as the JSON a link carries), read under the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::share::{decode_link_with, inspect_link, ShareLimits};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let limits = ShareLimits {
        max_link_chars: 1 << 20,
        max_link_payload_bytes: 4 << 20,
        max_files: 1_000,
        ..ShareLimits::default()
    };
    if let Ok(snapshot) = decode_link_with(&text, &limits) {
        // A link that opens analyses in one turn: every file it reads is in it.
        let _ = memdiag_core::analyze(&snapshot.tree, &snapshot.input);
    }
    let _ = inspect_link(&text);
});
