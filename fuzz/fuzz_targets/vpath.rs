//! Virtual paths: the one normalising constructor, and what a valid path promises.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::VPath;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (raw, rest) = text.split_once('\0').unwrap_or((&text, "x/../y"));
    let Ok(path) = VPath::new(raw) else {
        return;
    };
    // Normalising is idempotent, and the parts of a path are paths or names.
    assert_eq!(VPath::new(path.as_str()).as_ref(), Ok(&path));
    let _ = (
        path.root(),
        path.file_name(),
        path.extension(),
        path.is_root(),
    );
    if let Some(parent) = path.parent() {
        assert!(
            path.starts_with(&parent),
            "{path} is not below its parent {parent}"
        );
    }
    if let Ok(joined) = path.join(rest) {
        assert_eq!(VPath::new(joined.as_str()).as_ref(), Ok(&joined));
        let _ = joined.strip_prefix(&path);
    }
});
