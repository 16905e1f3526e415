//! Helpers shared by the workspace-level tests.
//!
//! Two kinds of fixture feed the same analysis:
//! - a whole tree written in one string with `//- /path` markers ([`Fixture::parse`]), for the
//!   one-rule-per-case discovery tests;
//! - a folder under `fixtures/` with a `fixture.json` and a `tree/` ([`Fixture::load_dir`]),
//!   for the larger cases and the demo, checked against a reviewed `expected.json`.
//!
//! Both read contents through a [`FixtureSource`] that records every read, so a test can
//! prove that a transcript was never requested.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use memdiag_core::report::{Code, FileStatus, Os, Report};
use memdiag_core::{analyze_with, ContentSource, Entry, Input, Tree, VPath};

/// A tree, the analysis input, and the contents behind the tree.
pub struct Fixture {
    /// The listed files (no contents yet).
    pub tree: Tree,
    /// What the analysis is told.
    pub input: Input,
    /// The contents, served on request.
    pub source: FixtureSource,
}

/// Serves fixture contents and records what was read.
#[derive(Debug, Default)]
pub struct FixtureSource {
    contents: BTreeMap<String, Vec<u8>>,
    /// Every path read, in order.
    pub reads: Vec<String>,
}

impl ContentSource for FixtureSource {
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        self.reads.push(path.as_str().to_owned());
        self.contents
            .get(path.as_str())
            .cloned()
            .ok_or_else(|| format!("the fixture has no contents for {path}"))
    }
}

/// The settings of a fixture folder's `fixture.json`.
#[derive(Debug, Clone)]
pub struct FixtureMeta {
    /// The home directory.
    pub home: String,
    /// The project, if any.
    pub project: Option<String>,
    /// The config directory, if not `<home>/.claude`.
    pub config_dir: Option<String>,
    /// The operating system.
    pub os: Os,
    /// Folders the snapshot covers.
    pub mounts: Vec<String>,
}

impl Fixture {
    /// Parses a tree written in one string.
    ///
    /// The first line may set options: `//@ home=/home/alice project=/home/alice/app
    /// config=/x os=macos mounts=/a,/b`. Defaults: home `/home/alice`, no project, linux,
    /// mounts = home. Each file starts with `//- /absolute/path`, optionally followed by
    /// ` size=N` (a listed size with no contents behind it: reading it fails); its contents run
    /// to the next marker, carriage returns included. The path may hold spaces.
    pub fn parse(text: &str) -> Fixture {
        let mut meta = FixtureMeta {
            home: "/home/alice".to_owned(),
            project: None,
            config_dir: None,
            os: Os::Linux,
            mounts: Vec::new(),
        };
        let mut files: Vec<(String, Option<u64>, String)> = Vec::new();
        // Lines end at `\n` alone, so that a file's CRLF line ends reach it as written.
        for line in text
            .split_inclusive('\n')
            .map(|l| l.strip_suffix('\n').unwrap_or(l))
        {
            let trimmed = line.trim_start();
            if let Some(options) = trimmed.strip_prefix("//@") {
                for option in options.split_whitespace() {
                    let (key, value) = option.split_once('=').expect("options are key=value");
                    match key {
                        "home" => meta.home = value.to_owned(),
                        "project" => meta.project = Some(value.to_owned()),
                        "config" => meta.config_dir = Some(value.to_owned()),
                        "os" => meta.os = parse_os(value),
                        "mounts" => meta.mounts = value.split(',').map(str::to_owned).collect(),
                        other => panic!("unknown fixture option {other}"),
                    }
                }
            } else if let Some(header) = trimmed.strip_prefix("//- ") {
                // The path runs to ` size=` or the end of the line, so it may hold spaces.
                let (path, size) = match header.split_once(" size=") {
                    Some((path, size)) => (path, Some(size.trim().parse().expect("size=N"))),
                    None => (header, None),
                };
                files.push((path.trim_end().to_owned(), size, String::new()));
            } else if let Some((_, _, contents)) = files.last_mut() {
                contents.push_str(line);
                contents.push('\n');
            }
        }
        if meta.mounts.is_empty() {
            meta.mounts.push(meta.home.clone());
        }
        let mut source = FixtureSource::default();
        let mut entries = Vec::new();
        for (path, size, contents) in files {
            let contents = dedent_marker(&contents);
            let size = match size {
                Some(size) => size,
                None => {
                    let bytes = contents.into_bytes();
                    let size = bytes.len() as u64;
                    source.contents.insert(path.clone(), bytes);
                    size
                }
            };
            entries.push(Entry {
                path,
                size,
                bytes: None,
                modified: None,
            });
        }
        Fixture::build(meta, entries, source)
    }

    /// Loads a fixture folder: `fixture.json` and the files under `tree/`, each at the
    /// absolute path its place below `tree/` names.
    pub fn load_dir(dir: &Path) -> Fixture {
        let meta = read_meta(&dir.join("fixture.json"));
        let root = dir.join("tree");
        let mut source = FixtureSource::default();
        let mut entries = Vec::new();
        for file in walk(&root) {
            let relative = file.strip_prefix(&root).expect("walk stays below root");
            let virtual_path = virtual_path_of(relative);
            let bytes = std::fs::read(&file).expect("fixture file readable");
            entries.push(Entry {
                path: virtual_path.clone(),
                size: bytes.len() as u64,
                bytes: None,
                modified: None,
            });
            source.contents.insert(virtual_path, bytes);
        }
        Fixture::build(meta, entries, source)
    }

    fn build(meta: FixtureMeta, entries: Vec<Entry>, source: FixtureSource) -> Fixture {
        let mounts: Vec<&str> = meta.mounts.iter().map(String::as_str).collect();
        let tree = Tree::from_entries(&mounts, entries);
        let input = Input {
            home: meta.home,
            project: meta.project,
            config_dir: meta.config_dir,
            os: meta.os,
            ..Input::default()
        };
        Fixture {
            tree,
            input,
            source,
        }
    }

    /// Runs the analysis to the end.
    pub fn analyze(&mut self) -> Report {
        analyze_with(&mut self.tree, &self.input, &mut self.source).expect("fixture input is valid")
    }
}

/// Every fixture folder under `fixtures/` (those holding a `fixture.json`), by name.
pub fn fixture_dirs() -> Vec<PathBuf> {
    let root = workspace_root().join("fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("fixture.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// A compact, reviewable rendering of a report: one line per row, then the footprint and the
/// diagnostics. Home is shown as `~`.
///
/// Row: indentation by depth, group, load type, path, then `counted` and any status that is
/// not ok, the unresolved reason, a rule's globs, a skill's name, truncation figures.
pub fn render(report: &Report) -> String {
    let home = &report.context.home;
    let short = |p: &str| match p.strip_prefix(home.as_str()) {
        Some(rest) => format!("~{rest}"),
        None => p.to_owned(),
    };
    let mut out = String::new();
    for row in &report.files {
        let mut line = format!(
            "{}{} {} {}",
            "  ".repeat(row.depth as usize),
            row.group.name(),
            serde_plain(&row.load),
            short(&row.path)
        );
        if row.counted {
            line.push_str(" counted");
        }
        if row.status != FileStatus::Ok {
            let _ = write!(line, " [{}]", serde_plain(&row.status));
        }
        if let Some(reason) = row.unresolved_reason {
            let _ = write!(line, " ({})", serde_plain(&reason));
        }
        if let Some(scope) = row.scope {
            let _ = write!(line, " scope={}", serde_plain(&scope));
        }
        if let Some(paths) = row.paths.as_ref().filter(|p| !p.is_empty()) {
            let _ = write!(line, " paths={}", paths.join("|"));
        }
        if let Some(name) = &row.skill_name {
            let _ = write!(line, " skill={name}");
        }
        if let (Some(word), Some(saves)) = (&row.skill_override, row.skill_override_saves) {
            let _ = write!(line, " override={word} saves={saves}");
        }
        if let Some(agent) = &row.agent {
            let _ = write!(line, " agent={agent}");
        }
        if let Some(t) = &row.truncation {
            let _ = write!(
                line,
                " lines={}/{} utf16={}/{} cut={} first_dropped={}",
                t.loaded_lines,
                t.total_lines,
                t.loaded_utf16,
                t.total_utf16,
                t.cut_by.map_or("none".to_owned(), |c| serde_plain(&c)),
                t.first_dropped_line
                    .map_or("none".to_owned(), |l| l.to_string())
            );
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The diagnostics of a report as `code path:line`, one per line (home as `~`).
pub fn render_diagnostics(report: &Report) -> String {
    let home = &report.context.home;
    let mut out = String::new();
    for d in &report.diagnostics {
        let path =
            d.path
                .as_deref()
                .map_or(String::new(), |p| match p.strip_prefix(home.as_str()) {
                    Some(rest) => format!(" ~{rest}"),
                    None => format!(" {p}"),
                });
        let line = d.line.map_or(String::new(), |l| format!(":{l}"));
        let _ = writeln!(out, "{}{path}{line}", d.code);
    }
    out
}

/// The paths of the files every session sends, in the order Claude Code sends them.
pub fn sent_paths(report: &Report) -> Vec<&str> {
    report
        .session
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect()
}

/// The distinct diagnostic codes of a report.
pub fn codes(report: &Report) -> BTreeSet<Code> {
    report.diagnostics.iter().map(|d| d.code).collect()
}

/// Compares rendered text with the expectation, showing both in full when they differ.
#[track_caller]
pub fn assert_text(actual: &str, expected: &str) {
    let expected = dedent(expected);
    if actual.trim() != expected.trim() {
        panic!(
            "\n--- expected\n{}\n--- actual\n{}\n",
            expected.trim(),
            actual.trim()
        );
    }
}

/// Base64 of `bytes` without padding, written here independently of the core's encoder so
/// that tests do not check the core against itself; `url` picks the URL-safe alphabet.
pub fn base64(bytes: &[u8], url: bool) -> String {
    let alphabet: &[u8; 64] = if url {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    } else {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    };
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(alphabet[(n >> (18 - 6 * i) & 0x3f) as usize] as char);
        }
    }
    out
}

/// Removes the common leading indentation of a multi-line string literal.
pub fn dedent(text: &str) -> String {
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    text.lines()
        .map(|l| {
            if l.len() >= indent {
                &l[indent..]
            } else {
                l.trim_start()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn dedent_marker(contents: &str) -> String {
    // Fixture strings are indented with the test code; the first file line sets the indent.
    let indent = contents
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in contents
        .split_inclusive('\n')
        .map(|l| l.strip_suffix('\n').unwrap_or(l))
    {
        out.push_str(if line.len() >= indent {
            &line[indent..]
        } else {
            line.trim_start()
        });
        out.push('\n');
    }
    // A fixture's last line break is the test's, not the file's, when the file is empty.
    if out.trim().is_empty() {
        out.clear();
    }
    out
}

fn serde_plain<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn parse_os(value: &str) -> Os {
    match value {
        "linux" => Os::Linux,
        "macos" => Os::Macos,
        "windows" => Os::Windows,
        other => panic!("unknown os {other}"),
    }
}

fn read_meta(path: &Path) -> FixtureMeta {
    let text = std::fs::read_to_string(path).expect("fixture.json readable");
    let value: serde_json::Value = serde_json::from_str(&text).expect("fixture.json is JSON");
    let string = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    FixtureMeta {
        home: string("home").expect("fixture.json has home"),
        project: string("project"),
        config_dir: string("config_dir"),
        os: parse_os(&string("os").unwrap_or_else(|| "linux".to_owned())),
        mounts: value
            .get("mounts")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// `home/alice/x.md` below `tree/` is `/home/alice/x.md`; a first segment like `C:` makes a
/// Windows path. A folder named `dot-git` stands for `.git`, which git cannot store inside a
/// repository (see `fixtures/README.md`).
pub fn virtual_path_of(relative: &Path) -> String {
    let joined = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .map(|segment| {
            if segment == "dot-git" {
                ".git".to_owned()
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    if joined.len() >= 2 && joined.as_bytes()[1] == b':' {
        joined
    } else {
        format!("/{joined}")
    }
}

fn walk(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
