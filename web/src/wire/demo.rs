//! The built-in demo: a snapshot of `fixtures/demo/` compiled in by `build.rs`. The worker's
//! wasm holds its files; the page's lists them by name and size, and the worker reads them.

use memdiag_core::report::Os;

use crate::wire::inputs::Inputs;
use crate::wire::sources::{Reader, Source, SourceFile};

/// The demo's host facts, from `fixtures/demo/fixture.json` (read by `build.rs`).
pub(crate) struct DemoFixture {
    home: &'static str,
    project: Option<&'static str>,
    config_dir: Option<&'static str>,
    os: Os,
    mounts: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// True when the page was built with a demo fixture.
pub fn available() -> bool {
    DEMO_FIXTURE.is_some() && !DEMO_SIZES.is_empty()
}

/// The demo as a source, or `None` when the page was built without the fixture.
pub fn source() -> Option<Source> {
    let fixture = DEMO_FIXTURE.as_ref()?;
    let project = fixture.project.map(str::to_owned);
    let inputs = Inputs {
        home: fixture.home.to_owned(),
        project: project.clone().unwrap_or_default(),
        os: fixture.os,
        config_dir: fixture.config_dir.unwrap_or_default().to_owned(),
        project_mount: project,
        version: None,
        reads: Vec::new(),
        add_dirs: String::new(),
    };
    let mounts = fixture.mounts.iter().map(|m| (*m).to_owned()).collect();
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
