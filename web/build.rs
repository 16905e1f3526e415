//! Embeds the demo snapshot (`fixtures/demo/`) into the page at compile time: its bytes into
//! the analysis worker's wasm (the `engine` feature), its names and sizes into both.
//!
//! Browser code and browser tests cannot read the disk, so every file under
//! `fixtures/demo/tree/` becomes an `include_bytes!` entry keyed by its absolute virtual path
//! (the folder layout mirrors the absolute paths without their leading slash), and
//! `fixtures/demo/fixture.json`'s host facts become a `DemoFixture`. A missing folder gives an empty demo, so
//! the crate builds before the fixture exists.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let demo = manifest.join("..").join("fixtures").join("demo");
    // A directory makes cargo rerun when anything below it changes; a missing one reruns
    // every build, which notices the fixture as soon as it appears.
    println!("cargo:rerun-if-changed={}", demo.display());

    let mut files = Vec::new();
    collect(&demo.join("tree"), &mut files);
    files.sort();

    let mut out = String::new();
    // The fixture's host facts, read here so that the page parses no JSON at run time.
    let fixture = fs::read_to_string(demo.join("fixture.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    let text = |key: &str| {
        let value = fixture.as_ref()?.get(key)?.as_str()?;
        Some(value.to_owned())
    };
    match text("home") {
        Some(home) => {
            let os = match text("os").as_deref() {
                Some("macos") => "Os::Macos",
                Some("windows") => "Os::Windows",
                _ => "Os::Linux",
            };
            let mounts: Vec<String> = fixture
                .as_ref()
                .and_then(|f| f.get("mounts")?.as_array().cloned())
                .unwrap_or_default()
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            let _ = writeln!(
                out,
                "pub(crate) static DEMO_FIXTURE: Option<DemoFixture> = Some(DemoFixture {{ \
                 home: {home:?}, project: {:?}, config_dir: {:?}, os: {os}, mounts: &{mounts:?} }});",
                text("project"),
                text("config_dir"),
            );
        }
        None => out.push_str("pub(crate) static DEMO_FIXTURE: Option<DemoFixture> = None;\n"),
    }
    // The page's first-paint wasm (no `engine` feature) lists the demo by name and size;
    // only the worker's wasm (and the component tests) hold its bytes.
    out.push_str("#[cfg(feature = \"engine\")]\n");
    out.push_str("pub(crate) static DEMO_FILES: &[(&str, &[u8])] = &[\n");
    let mut sizes = String::from("pub(crate) static DEMO_SIZES: &[(&str, u64)] = &[\n");
    let root = demo.join("tree");
    for file in &files {
        let Ok(relative) = file.strip_prefix(&root) else {
            continue;
        };
        let Some(relative) = relative.to_str() else {
            continue;
        };
        // A folder named `dot-git` stands for `.git`, which git cannot store in a repository.
        let virtual_path = format!("/{}", relative.replace('\\', "/"))
            .split('/')
            .map(|segment| {
                if segment == "dot-git" {
                    ".git"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let _ = writeln!(
            out,
            "    ({virtual_path:?}, include_bytes!({:?})),",
            file.display().to_string()
        );
        let size = fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        let _ = writeln!(sizes, "    ({virtual_path:?}, {size}),");
    }
    out.push_str("];\n");
    sizes.push_str("];\n");
    out.push_str(&sizes);
    let target = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it")).join("demo_files.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}

/// Every file below `dir`, recursively; nothing when `dir` does not exist.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => collect(&path, out),
            Ok(kind) if kind.is_file() => out.push(path),
            _ => {}
        }
    }
}
