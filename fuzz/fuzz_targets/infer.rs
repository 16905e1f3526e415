//! Inferring home, project and OS from a snapshot's names: the input is a list of
//! relative paths, one a line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdiag_core::infer;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let paths: Vec<&str> = text.lines().collect();
    let _ = infer::classify_folder(paths.first().copied().unwrap_or(""), paths.iter().copied());
    let names = infer::project_folder_names(paths.iter().copied());
    let home = infer::infer_home(&names)
        .unwrap_or_else(|| infer::home_named(paths.first().copied().unwrap_or("a"), "/home/user"));
    let _ = infer::os_of_home(&home);
    let project = paths.last().copied().unwrap_or("p");
    let _ = infer::infer_project_path(&names, project, &home);
    for path in &paths {
        let _ = infer::config_relative(path);
        let _ = memdiag_core::decode_guess(path);
        let _ = memdiag_core::encode_project_path(path);
        let _ = memdiag_core::is_bulk_data(path);
    }
});
