//! The built-in demo: a snapshot of `fixtures/demo/` compiled in by `build.rs`. The worker's
//! wasm holds its files; the page's lists them by name and size, and the worker reads them.

use memdiag_core::report::Os;

use crate::ingest::{Reader, Source, SourceFile};
use crate::state::Inputs;

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// True when the page was built with a demo fixture.
pub fn available() -> bool {
    DEMO_FIXTURE.is_some() && !DEMO_SIZES.is_empty()
}

/// The demo as a source, or `None` when the page was built without the fixture.
pub fn source() -> Option<Source> {
    let fixture: serde_json::Value = serde_json::from_str(DEMO_FIXTURE?).ok()?;
    let text = |key: &str| fixture.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let home = text("home")?;
    let os = match text("os").as_deref() {
        Some("macos") => Os::Macos,
        Some("windows") => Os::Windows,
        _ => Os::Linux,
    };
    let mounts = fixture
        .get("mounts")
        .and_then(|v| v.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let project = text("project");
    let inputs = Inputs {
        home,
        project: project.clone().unwrap_or_default(),
        os,
        config_dir: text("config_dir").unwrap_or_default(),
        project_mount: project,
        version: None,
        reads: Vec::new(),
    };
    Some(Source::demo(files(), mounts, inputs))
}

/// The demo's files, with their bytes.
#[cfg(feature = "engine")]
fn files() -> Vec<SourceFile> {
    DEMO_FILES
        .iter()
        .map(|(path, bytes)| SourceFile {
            rel: (*path).to_owned(),
            size: bytes.len() as u64,
            reader: Reader::Static(bytes),
            modified: None,
        })
        .collect()
}

/// The demo's files by name and size: the worker has their bytes.
#[cfg(not(feature = "engine"))]
fn files() -> Vec<SourceFile> {
    DEMO_SIZES
        .iter()
        .map(|(path, size)| SourceFile {
            rel: (*path).to_owned(),
            size: *size,
            reader: Reader::Remote,
            modified: None,
        })
        .collect()
}
