//! The architecture invariants of `docs/ARCHITECTURE.md` that can be read off the sources.
//!
//! Each test reads the workspace's Rust files as text and fails, naming the file and the
//! line, when a rule the document states stops holding. Comments are skipped: a doc comment
//! may name a module a rule keeps out of the code.

use std::fs;
use std::path::{Path, PathBuf};

use memdiag_tests::workspace_root;

/// Every `.rs` file below `dir` (relative to the workspace root), sorted, as
/// `(path relative to the root, text)`.
fn sources(dir: &str) -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                out.push(path);
            }
        }
    }
    let root = workspace_root();
    let mut paths = Vec::new();
    walk(&root.join(dir), &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let relative = path
                .strip_prefix(&root)
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/");
            (relative, text)
        })
        .collect()
}

/// The lines of `text` that are code, with their numbers: comment lines are left out, and
/// so is the rest of a line after `//`.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            return None;
        }
        let code = line.find("//").map_or(line, |at| &line[..at]);
        Some((n + 1, code))
    })
}

/// `file:line: needle` for every code line of the `files` that mentions one of `needles`.
fn mentions(files: &[(String, String)], needles: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in files {
        for (n, line) in code_lines(text) {
            for needle in needles {
                if line.contains(needle) {
                    found.push(format!("{path}:{n}: {needle}"));
                }
            }
        }
    }
    found
}

/// The core never does I/O: no file system, environment, browser or clock in `core/src`
/// outside the `memdiag` binary (`core/src/bin/`), which is the one place that touches the
/// disk. A clock may be read in a unit test's time bound only (`#[cfg(test)]` modules, which
/// this project writes last in a file).
#[test]
fn the_core_does_no_io() {
    let core: Vec<(String, String)> = sources("core/src")
        .into_iter()
        .filter(|(path, _)| !path.starts_with("core/src/bin/"))
        .collect();
    let found = mentions(
        &core,
        &[
            "std::fs",
            "std::env",
            "std::net",
            "std::process",
            "web_sys",
            "js_sys",
        ],
    );
    assert!(found.is_empty(), "the core does I/O:\n{}", found.join("\n"));

    let outside_tests: Vec<(String, String)> = core
        .iter()
        .map(|(path, text)| {
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            (path.clone(), code.to_owned())
        })
        .collect();
    let clocks = mentions(&outside_tests, &["SystemTime", "Instant", "std::time"]);
    assert!(
        clocks.is_empty(),
        "the core reads a clock outside a test (today comes in through `Input::today`):\n{}",
        clocks.join("\n")
    );

    let manifest =
        fs::read_to_string(workspace_root().join("core/Cargo.toml")).expect("core/Cargo.toml");
    for crate_name in ["web-sys", "js-sys", "wasm-bindgen"] {
        assert!(
            !manifest.contains(crate_name),
            "core/Cargo.toml depends on {crate_name}: the core knows no browser"
        );
    }
}

/// Only the report's types, and the share payload, are serialisable: a type that derives
/// `Serialize` is part of a boundary, and the report is the boundary.
#[test]
fn only_the_report_and_the_share_payload_serialize() {
    const BOUNDARY: &[&str] = &[
        // The report and what it holds.
        "core/src/report.rs",
        "core/src/report/",
        // A path inside the report writes itself as its text.
        "core/src/vpath.rs",
        // The share payload (link and zip manifest).
        "core/src/share.rs",
    ];
    let core: Vec<(String, String)> = sources("core/src")
        .into_iter()
        .filter(|(path, _)| !path.starts_with("core/src/bin/"))
        .filter(|(path, _)| !BOUNDARY.iter().any(|allowed| path.starts_with(allowed)))
        .collect();
    let found = mentions(&core, &["Serialize"]);
    assert!(
        found.is_empty(),
        "only report types are serialisable; move the type into the report or drop the \
         derive:\n{}",
        found.join("\n")
    );
}

/// Only `text::frontmatter` knows the YAML crate.
#[test]
fn only_frontmatter_knows_yaml() {
    let core: Vec<(String, String)> = sources("core/src")
        .into_iter()
        .filter(|(path, _)| {
            path != "core/src/text/frontmatter.rs"
                && !path.starts_with("core/src/text/frontmatter/")
        })
        .collect();
    let found = mentions(&core, &["serde_norway"]);
    assert!(
        found.is_empty(),
        "YAML outside text::frontmatter:\n{}",
        found.join("\n")
    );
}

/// The page's modules that reach files, the browser's file APIs or the analysis worker.
const FILE_AND_WORKER_MODULES: &[&str] = &[
    "live",
    "ingest",
    "worker",
    "worker_host",
    "engine",
    "messages",
    "pack",
    "cleanups",
    "write",
];

/// Components draw: they never reach file or worker code, which the engine and the state
/// stand between. The split of the page into page, engine and wire rooms is pending (issue
/// 32), so four components still do. KNOWN lists each of those reaches: the list may only
/// shrink. A reach that is no longer made fails too, so that its line is removed.
#[test]
fn components_reach_no_file_or_worker_code() {
    const KNOWN: &[(&str, &str)] = &[
        // Clean-ups ask the worker for a plan and write it to live folders.
        ("web/src/components/cleanup.rs", "cleanups"),
        ("web/src/components/cleanup.rs", "ingest"),
        ("web/src/components/cleanup.rs", "live"),
        ("web/src/components/cleanup.rs", "worker_host"),
        // The Markdown preview asks the worker to lay a file out.
        ("web/src/components/markdown.rs", "messages"),
        ("web/src/components/markdown.rs", "worker"),
        ("web/src/components/markdown.rs", "worker_host"),
        // The Share dialog asks the worker to sanitize.
        ("web/src/components/share_dialog.rs", "worker_host"),
        // The top bar names the folder button by whether live folders exist.
        ("web/src/components/topbar.rs", "live"),
    ];
    let components = sources("web/src/components");
    let mut reaches: Vec<(String, String)> = Vec::new();
    for (path, text) in &components {
        for (_, line) in code_lines(text) {
            for module in FILE_AND_WORKER_MODULES {
                if reaches_module(line, module) {
                    reaches.push((path.clone(), (*module).to_owned()));
                }
            }
        }
    }
    reaches.sort();
    reaches.dedup();
    let new: Vec<String> = reaches
        .iter()
        .filter(|(path, module)| !KNOWN.contains(&(path.as_str(), module.as_str())))
        .map(|(path, module)| format!("{path} reaches crate::{module}"))
        .collect();
    assert!(
        new.is_empty(),
        "a component reaches file or worker code; go through the engine or the state:\n{}",
        new.join("\n")
    );
    let gone: Vec<String> = KNOWN
        .iter()
        .filter(|(path, module)| !reaches.iter().any(|(p, m)| p == path && m == module))
        .map(|(path, module)| format!("({path:?}, {module:?})"))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer reached: remove these from KNOWN so the list stays the truth:\n{}",
        gone.join("\n")
    );
}

/// Whether `line` names `crate::<module>` as a path (`crate::live::x`, `use crate::live;`)
/// or in a `use crate::{…}` group.
fn reaches_module(line: &str, module: &str) -> bool {
    let boundary = |rest: &str| {
        rest.chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    };
    let direct = line
        .match_indices(&format!("crate::{module}"))
        .any(|(at, found)| boundary(&line[at + found.len()..]));
    let grouped = line.contains("use crate::{")
        && line
            .split(['{', '}', ',', ' ', ';'])
            .any(|name| name == module);
    direct || grouped
}

#[test]
fn reaches_module_reads_paths_and_groups() {
    assert!(reaches_module("use crate::live;", "live"));
    assert!(reaches_module("    crate::live::choose()", "live"));
    assert!(reaches_module("use crate::{browser, live, Page};", "live"));
    assert!(!reaches_module("use crate::live_view;", "live"));
    assert!(!reaches_module("use crate::worker_host::Remote;", "worker"));
    assert!(reaches_module(
        "use crate::worker_host::Remote;",
        "worker_host"
    ));
}

/// The core's modules hold no circle: drawn from every `crate::` path in `core/src` (a file
/// `foo/bar.rs` belongs to `foo`; a name the crate root re-exports belongs to the module it
/// comes from; the `memdiag` binary and the `#[cfg(test)]` modules, written last in a file,
/// are left out), the arrows between modules never lead back to where they started. A
/// circle is listed with the file and line of each arrow.
#[test]
fn the_core_has_no_circle() {
    let arrows = core_arrows();
    let circles = circles(&arrows);
    assert!(
        circles.is_empty(),
        "the core's modules import each other in a circle; move what both need into a \
         module of its own (as `input` holds `Input`):\n{}",
        circles.join("\n")
    );
}

/// The arrows `from → to` between the core's modules, each with the first `file:line` that
/// draws it.
fn core_arrows() -> std::collections::BTreeMap<(String, String), String> {
    let files: Vec<(String, String)> = sources("core/src")
        .into_iter()
        .filter(|(path, _)| !path.starts_with("core/src/bin/"))
        .collect();
    let module_of = |path: &str| -> String {
        let rest = path.trim_start_matches("core/src/");
        let first = rest.split('/').next().unwrap_or(rest);
        first.trim_end_matches(".rs").to_owned()
    };
    let modules: std::collections::BTreeSet<String> = files
        .iter()
        .map(|(path, _)| module_of(path))
        .filter(|m| m != "lib")
        .collect();
    // The crate root's re-exports (`pub use analyze::{analyze, Step};`): a name to its module.
    let lib = &files
        .iter()
        .find(|(path, _)| path == "core/src/lib.rs")
        .expect("core/src/lib.rs")
        .1;
    let mut reexported = std::collections::BTreeMap::new();
    let lib_code: String = code_lines(lib).map(|(_, l)| format!("{l}\n")).collect();
    for statement in lib_code.split(';') {
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let path = statement[at + "pub use ".len()..].trim();
        let module = path.split("::").next().unwrap_or_default().trim();
        if !modules.contains(module) {
            continue;
        }
        for name in path
            .split(['{', '}', ',', ':', ' ', '\n'])
            .filter(|n| !n.is_empty())
        {
            reexported
                .entry(name.to_owned())
                .or_insert_with(|| module.to_owned());
        }
    }
    let mut arrows = std::collections::BTreeMap::new();
    for (path, text) in &files {
        let from = module_of(path);
        if from == "lib" {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        // Joined, so that a `use crate::{…}` group over several lines reads as one.
        let lines: Vec<(usize, &str)> = code_lines(code).collect();
        let joined: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
        let line_at = |offset: usize| {
            let n = joined[..offset].matches('\n').count();
            lines.get(n).map_or(0, |(number, _)| *number)
        };
        for (at, _) in joined.match_indices("crate::") {
            let rest = &joined[at + "crate::".len()..];
            let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
                // The first segment of each path in the group, at its top level.
                let mut depth = 0;
                let mut top = String::new();
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        _ if depth == 0 => top.push(c),
                        _ => {}
                    }
                }
                top.split(',')
                    .filter_map(|item| item.trim().split("::").next())
                    .filter_map(|name| name.split_whitespace().next())
                    .map(str::to_owned)
                    .collect()
            } else {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                vec![rest[..end].to_owned()]
            };
            for name in names {
                let to = if modules.contains(&name) {
                    name
                } else if let Some(module) = reexported.get(&name) {
                    module.clone()
                } else {
                    continue;
                };
                if to != from {
                    arrows
                        .entry((from.clone(), to))
                        .or_insert_with(|| format!("{path}:{}", line_at(at)));
                }
            }
        }
    }
    arrows
}

/// Each circle among `arrows`, as `a → b → a` with where each arrow is drawn: one line per
/// group of modules that reach each other.
fn circles(arrows: &std::collections::BTreeMap<(String, String), String>) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        next.entry(from).or_default().insert(to);
    }
    let reach = |start: &str| -> BTreeSet<&str> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start];
        while let Some(at) = todo.pop() {
            for to in next.get(at).into_iter().flatten() {
                if seen.insert(*to) {
                    todo.push(to);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&str, BTreeSet<&str>> = next.keys().map(|m| (*m, reach(m))).collect();
    let mut shown: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for (module, reached) in &reaches {
        if !reached.contains(module) || shown.contains(module) {
            continue;
        }
        // The shortest way back to `module`, breadth first.
        let mut back: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([*module]);
        'search: while let Some(at) = queue.pop_front() {
            for to in next.get(at).into_iter().flatten() {
                if *to == *module {
                    back.insert(module, at);
                    break 'search;
                }
                if !back.contains_key(to) {
                    back.insert(to, at);
                    queue.push_back(to);
                }
            }
        }
        let mut path = vec![*module];
        let mut at = back[module];
        while at != *module {
            path.push(at);
            at = back[at];
        }
        path.push(module);
        path.reverse();
        let steps: Vec<String> = path
            .windows(2)
            .map(|w| {
                let place = &arrows[&(w[0].to_owned(), w[1].to_owned())];
                format!("{} → {} ({place})", w[0], w[1])
            })
            .collect();
        shown.extend(
            reached
                .iter()
                .filter(|m| reaches.get(*m).is_some_and(|r| r.contains(module))),
        );
        out.push(steps.join(", "));
    }
    out
}

#[test]
fn circles_are_found_and_listed() {
    let arrows: std::collections::BTreeMap<(String, String), String> = [
        ("analyze", "discover", "a.rs:1"),
        ("discover", "version", "d.rs:2"),
        ("version", "analyze", "v.rs:3"),
        ("discover", "text", "d.rs:4"),
    ]
    .into_iter()
    .map(|(a, b, at)| ((a.to_owned(), b.to_owned()), at.to_owned()))
    .collect();
    assert_eq!(
        circles(&arrows),
        ["analyze → discover (a.rs:1), discover → version (d.rs:2), version → analyze (v.rs:3)"]
    );
    // The core's arrows are read from `use crate::…` lines, groups over several lines
    // included.
    let core = core_arrows();
    assert!(core.contains_key(&("analyze".to_owned(), "discover".to_owned())));
    assert!(core.contains_key(&("answer".to_owned(), "analyze".to_owned())));
}
