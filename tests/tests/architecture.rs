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

/// The page's crate, `web/src`, is three rooms, highest first: the page (the Yew app, its
/// state and components, the browser's files, the worker's host; `lib.rs` is the app), the
/// engine (what runs in the worker) and the wire (the messages and their packed form). A
/// room imports only rooms below it.
const ROOMS: &[&str] = &["page", "engine", "wire"];

/// What a component may not import: the worker's code and its transport (the engine, the
/// wire's messages and packed form, the page's side of the worker) and file code (live
/// folders, ingest). Components get data and `Callback`s; what they ask of the worker or the
/// folders goes through the page's services (`page::runs`' engine, `page::share`,
/// `page::cleanups`).
const NOT_FOR_COMPONENTS: &[&str] = &[
    "engine",
    "wire::messages",
    "wire::pack",
    "page::worker_host",
    "page::live",
    "page::ingest",
];

/// Arrows of the graph that still break a rule, as `(from, to)` modules: none since issue 32's
/// split. Should one ever have to stay for a while, it is listed here, and the list may only
/// shrink (a listed arrow that is gone fails too, so that its line goes).
const KNOWN_BREAKS: &[(&str, &str)] = &[];

/// Strongly connected groups of modules (import cycles) that remain, each sorted and joined
/// by `" "`. The list may only shrink, like [`KNOWN_BREAKS`].
const KNOWN_CYCLES: &[&str] = &[];

/// The room the module `module` (a `::` path below `crate`, `""` for `lib.rs`) lives in.
fn room_of(module: &str) -> &str {
    let first = module.split("::").next().unwrap_or_default();
    if ROOMS.contains(&first) {
        first
    } else {
        "page"
    }
}

/// The import graph of `web/src`: one node per file (its module path: `page::state`,
/// `wire::pack`; `""` for `lib.rs`), and an arrow to each module a `crate::` path in its code
/// names (a path to an item counts as an arrow to the module holding it). The binaries'
/// `main.rs` files are left out: they only start the library.
fn web_graph() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let files = sources("web/src");
    let module_of = |path: &str| -> Option<String> {
        let rel = path.strip_prefix("web/src/")?.strip_suffix(".rs")?;
        match rel {
            "lib" => Some(String::new()),
            "main" | "worker_main" => None,
            _ => Some(rel.replace('/', "::")),
        }
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|(p, _)| module_of(p)).collect();
    let mut graph = BTreeMap::new();
    for (path, text) in &files {
        let Some(from) = module_of(path) else {
            continue;
        };
        // The unit tests at the end of a file may reach anything; the rules are about the
        // code that ships.
        let shipped = text.split("#[cfg(test)]").next().unwrap_or_default();
        let code: String = code_lines(shipped)
            .map(|(_, line)| line)
            .collect::<Vec<_>>()
            .join("\n");
        let mut to = BTreeSet::new();
        for item in crate_paths(&code) {
            // The longest module that is a prefix of the path.
            let segments: Vec<&str> = item.split("::").collect();
            let target = (0..=segments.len())
                .rev()
                .map(|n| segments[..n].join("::"))
                .find(|m| modules.contains(m))
                .unwrap_or_default();
            if target != from {
                to.insert(target);
            }
        }
        graph.insert(from, to);
    }
    graph
}

/// Every path that `code` names below `crate::`, with `use crate::{a, b::{c, d}}` groups
/// spread out (`a`, `b::c`, `b::d`); `self` in a group names the group's prefix.
fn crate_paths(code: &str) -> Vec<String> {
    fn path_chars(c: char) -> bool {
        c.is_alphanumeric() || c == '_' || c == ':'
    }
    // Reads a path tree at `rest` (after a `::`) under `prefix`; returns what it read.
    fn tree(rest: &str, prefix: &str, out: &mut Vec<String>) -> usize {
        let rest_trimmed = rest.trim_start();
        let skipped = rest.len() - rest_trimmed.len();
        if let Some(inner) = rest_trimmed.strip_prefix('{') {
            let mut at = 0;
            loop {
                let here = &inner[at..];
                let blank = here.len() - here.trim_start().len();
                at += blank;
                let here = &inner[at..];
                if here.starts_with('}') {
                    return skipped + 1 + at + 1;
                }
                if here.is_empty() {
                    return skipped + 1 + at;
                }
                at += tree(here, prefix, out);
                let here = &inner[at..];
                let blank = here.len() - here.trim_start().len();
                at += blank;
                if inner[at..].starts_with(',') {
                    at += 1;
                }
            }
        }
        let len = rest_trimmed
            .find(|c: char| !path_chars(c))
            .unwrap_or(rest_trimmed.len());
        let name = rest_trimmed[..len].trim_end_matches(':');
        let name = name.strip_suffix("::self").unwrap_or(name);
        let full = match (prefix.is_empty(), name) {
            (_, "self") => prefix.to_owned(),
            (true, _) => name.to_owned(),
            (false, _) => format!("{prefix}::{name}"),
        };
        let mut read = skipped + len;
        if rest_trimmed[..len].ends_with("::") && rest_trimmed[len..].starts_with('{') {
            read += tree(&rest_trimmed[len..], &full, out);
        } else if !full.is_empty() {
            out.push(full);
        }
        // `as name` renames change nothing.
        read
    }
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("crate::") {
        let start = from + at;
        let before = code[..start].chars().next_back();
        from = start + "crate::".len();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `memdiag_crate::`, `$crate::`
        }
        from += tree(&code[from..], "", &mut out);
    }
    out
}

#[test]
fn crate_paths_reads_paths_and_groups() {
    assert_eq!(crate_paths("use crate::page::live;"), ["page::live"]);
    assert_eq!(
        crate_paths("    crate::wire::pack::read(x)"),
        ["wire::pack::read"]
    );
    assert_eq!(
        crate_paths("use crate::{\n    page::browser,\n    wire::{messages::{self, get}, pack},\n    Page,\n};"),
        [
            "page::browser",
            "wire::messages",
            "wire::messages::get",
            "wire::pack",
            "Page"
        ]
    );
    assert!(crate_paths("use memdiag_core::x; $crate::y").is_empty());
}

/// The page's rooms hold: no arrow from a lower room to a higher one (the engine and the
/// wire never import the page, the wire imports neither), components import no file or
/// worker code (they get data and `Callback`s), the state imports neither the worker's host
/// nor the engine (it holds a job id), and no module of `web/src` is in an import
/// cycle. Draws the graph it checks in the failure message.
#[test]
fn the_page_rooms_hold() {
    let graph = web_graph();
    let rank = |module: &str| ROOMS.iter().position(|r| *r == room_of(module));
    let mut breaks: Vec<(String, String)> = Vec::new();
    for (from, tos) in &graph {
        for to in tos {
            let up = rank(to) < rank(from);
            let component = from.starts_with("page::components")
                && NOT_FOR_COMPONENTS
                    .iter()
                    .any(|no| to == no || to.starts_with(&format!("{no}::")));
            // The state holds data and a job id, never the worker or its host.
            let state = from == "page::state"
                && (to == "page::worker_host" || to == "page::runs" || room_of(to) == "engine");
            if up || component || state {
                breaks.push((from.clone(), to.clone()));
            }
        }
    }
    let drawn = || {
        graph
            .iter()
            .map(|(from, tos)| {
                let from = if from.is_empty() { "lib" } else { from };
                let tos: Vec<&str> = tos
                    .iter()
                    .map(|t| if t.is_empty() { "lib" } else { t.as_str() })
                    .collect();
                format!("  {from} -> {}", tos.join(", "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let new: Vec<String> = breaks
        .iter()
        .filter(|(f, t)| !KNOWN_BREAKS.contains(&(f.as_str(), t.as_str())))
        .map(|(f, t)| format!("({f:?}, {t:?}),"))
        .collect();
    assert!(
        new.is_empty(),
        "an arrow runs from a lower room to a higher one, or a component reaches file or \
         worker code:\n{}\n\nthe graph:\n{}",
        new.join("\n"),
        drawn()
    );
    let gone: Vec<String> = KNOWN_BREAKS
        .iter()
        .filter(|(f, t)| !breaks.iter().any(|(a, b)| a == f && b == t))
        .map(|(f, t)| format!("({f:?}, {t:?})"))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer an arrow: remove these from KNOWN_BREAKS:\n{}",
        gone.join("\n")
    );

    let cycles = strongly_connected(&graph);
    let new: Vec<&String> = cycles
        .iter()
        .filter(|c| !KNOWN_CYCLES.contains(&c.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "import cycles in web/src:\n{new:#?}\n\nthe graph:\n{}",
        drawn()
    );
    let gone: Vec<&&str> = KNOWN_CYCLES
        .iter()
        .filter(|c| !cycles.iter().any(|have| have == *c))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer a cycle: remove these from KNOWN_CYCLES:\n{gone:#?}"
    );
}

/// The groups of more than one module that import each other round a circle (Tarjan's
/// strongly connected components), each as its sorted modules joined by `" "`, sorted.
fn strongly_connected(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<String> {
    use std::collections::BTreeMap;
    struct Walk<'a> {
        graph: &'a BTreeMap<String, std::collections::BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: std::collections::BTreeSet<&'a str>,
        found: Vec<String>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, node: &'a str) {
            let n = self.index.len();
            self.index.insert(node, n);
            self.low.insert(node, n);
            self.stack.push(node);
            self.on_stack.insert(node);
            let graph = self.graph;
            for next in graph.get(node).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    group.push(if top.is_empty() { "lib" } else { top });
                    if top == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort_unstable();
                    self.found.push(group.join(" "));
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: std::collections::BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.found.sort();
    walk.found
}

#[test]
fn strongly_connected_finds_cycles() {
    let graph = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "")]
        .iter()
        .fold(std::collections::BTreeMap::new(), |mut g, (f, t)| {
            g.entry(f.to_string())
                .or_insert_with(std::collections::BTreeSet::new)
                .insert(t.to_string());
            g
        });
    assert_eq!(strongly_connected(&graph), ["a b c"]);
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
