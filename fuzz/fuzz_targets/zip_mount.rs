//! Zip mounting: any bytes as an archive, listed and every listed file read under the caps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::{mount_zip, ContentSource, Tree, ZipLimits};

fuzz_target!(|data: &[u8]| {
    let mut tree = Tree::new();
    let limits = ZipLimits {
        max_entries: 1_000,
        max_entry_bytes: 1 << 20,
        max_total_bytes: 4 << 20,
        max_ratio: 200,
    };
    let Ok(mut source) = mount_zip(&mut tree, "/home/a", data.to_vec(), limits) else {
        return;
    };
    let paths: Vec<_> = tree.files().map(|(path, _)| path.clone()).collect();
    assert_eq!(paths.len(), source.len());
    for path in paths {
        if let Ok(bytes) = source.read(&path) {
            assert!(bytes.len() as u64 <= limits.max_entry_bytes);
        }
    }
    let _ = memdiag_core::is_share_zip(data);
    let _ = memdiag_core::open_share_zip(data);
});
