//! Replays every conformance capture against the core, offline.
//!
//! Each folder of `fixtures/conformance/` is a case that `tests/conformance/run.mjs` ran
//! through the real Claude Code (the release its `capture.json` names): the capture holds
//! what the program sent. This test lays the same files out in a virtual tree at the same
//! absolute paths, runs the core, and checks that its report says the same, to the
//! character: the instruction block's files, order, labels and sizes as sent; the skills
//! listing; the listing of agent types; the memory folder and whether memory is on; what each scripted Read attached;
//! what each sub-agent received; and the lengths of Claude Code's own text around them.

use std::path::{Path, PathBuf};

use memdiag_core::report::{Measure, NotCountedKind, Report, RunsWhen, SentFile, SentLabel};
use memdiag_core::{
    analyze_with, AnalyzeError, ClaudeVersion, ContentSource, Entry, Input, SessionKind, Tree,
    VPath, FIRST_SIMULATED, NOT_REPRODUCED, RULE_CHANGES,
};
use memdiag_tests::workspace_root;
use serde_json::Value;

/// Files are handed over with the listing, so nothing is read later.
struct NoReads;

impl ContentSource for NoReads {
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        Err(format!("{path} was not in the case"))
    }
}

fn cases() -> Vec<PathBuf> {
    let dir = workspace_root().join("fixtures/conformance");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/conformance exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.join("capture.json").is_file())
        .collect();
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The tree and input the program saw: `tree/` at the capture's root (its `etc/claude-code/`
/// at `/etc/claude-code/`), the `.git` folders and files the runner made, `~/.claude.json`.
fn lay_out(case: &Path, capture: &Value) -> (Tree, Input) {
    let root = capture["root"].as_str().expect("root");
    let mut entries = Vec::new();
    let tree_dir = case.join("tree");
    let mut files = Vec::new();
    walk(&tree_dir, &mut files);
    for file in files {
        let relative = file
            .strip_prefix(&tree_dir)
            .expect("below tree/")
            .to_string_lossy()
            .replace('\\', "/");
        let path = if relative.starts_with("etc/claude-code/") {
            format!("/{relative}")
        } else {
            format!("{root}/{relative}")
        };
        let bytes = std::fs::read(&file).expect("readable case file");
        entries.push(entry(path, bytes));
    }
    // A link to a file is what a snapshot lists as that file at the link's path (the scan
    // command does the same); links to folders are not followed, as the program does not.
    for (link, target) in capture["symlinks"].as_object().into_iter().flatten() {
        let target = target.as_str().unwrap_or("");
        let folder = Path::new(link).parent().unwrap_or(Path::new("/"));
        // Resolved by name, not on the disk: git keeps no empty folders, so the link's own
        // folder may not exist below tree/.
        let resolved = lexically_normal(&folder.join(target));
        let local = resolved
            .to_string_lossy()
            .strip_prefix(&format!("{root}/"))
            .map(|rel| tree_dir.join(rel));
        if let Some(bytes) = local
            .filter(|l| l.is_file())
            .and_then(|l| std::fs::read(l).ok())
        {
            entries.push(entry(link.clone(), bytes));
        }
    }
    for (path, text) in capture["git_files"].as_object().into_iter().flatten() {
        entries.push(entry(
            path.clone(),
            text.as_str().unwrap_or("").as_bytes().to_vec(),
        ));
    }
    let home = capture["home"].as_str().expect("home");
    if let Some(text) = capture["claude_json"].as_str() {
        entries.push(entry(
            format!("{home}/.claude.json"),
            text.as_bytes().to_vec(),
        ));
    }
    let mut tree = Tree::from_entries(&[root, "/etc/claude-code"], entries);
    // What each link resolves to, as the scan command records it.
    for (link, target) in capture["symlinks"].as_object().into_iter().flatten() {
        let folder = Path::new(link).parent().unwrap_or(Path::new("/"));
        let resolved = lexically_normal(&folder.join(target.as_str().unwrap_or("")));
        if let (Ok(link), Ok(target)) = (VPath::new(link), VPath::new(&resolved.to_string_lossy()))
        {
            tree.add_link(link, target);
        }
    }
    for dir in capture["git_dirs"].as_array().into_iter().flatten() {
        let git = format!("{}/.git", dir.as_str().expect("git dir"));
        tree.add_dir(VPath::new(&git).expect("absolute"));
    }
    let reads = capture["reads"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["path"].as_str().expect("read path").to_owned())
        .collect();
    let spec: Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).expect("case.json"))
            .expect("case.json is JSON");
    let input = Input {
        home: home.to_owned(),
        project: Some(capture["cwd"].as_str().expect("cwd").to_owned()),
        reads,
        disable_auto_memory_env: spec["env"]["CLAUDE_CODE_DISABLE_AUTO_MEMORY"]
            .as_str()
            .map(str::to_owned),
        skill_listing_budget_env: spec["env"]["SLASH_COMMAND_TOOL_CHAR_BUDGET"]
            .as_str()
            .map(str::to_owned),
        // The runner gives CLAUDE_CODE_DISABLE… and CLAUDE_CONFIG_DIR relative to the root.
        config_dir: spec["env"]["CLAUDE_CONFIG_DIR"].as_str().map(|dir| {
            if dir.starts_with('/') {
                dir.to_owned()
            } else {
                format!("{root}/{dir}")
            }
        }),
        // `--add-dir D` in the case's `args` (`$ROOT` is the case's root), and the variable
        // that makes D's instruction files load.
        additional_dirs: flag_values(&spec, "--add-dir", root),
        plugin_dirs: flag_values(&spec, "--plugin-dir", root),
        additional_dirs_claude_md_env: spec["env"]["CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD"]
            .as_str()
            .map(str::to_owned),
        // The runner starts every case as `claude -p`, which on some releases decides what
        // a Read attaches (version::Behaviour::PrintSessionReadsAttach).
        session: SessionKind::Print,
        ..Input::default()
    };
    (tree, input)
}

/// The order the file system listed each skills folder in right before the run, as the
/// capture recorded it (`dir_order`, from `tests/conformance/releases.mjs`): the order some
/// releases list skills in, which the tree records as a source that saw it would.
fn record_listing_order(tree: &mut Tree, sent: &Value) {
    for (dir, names) in sent["dir_order"].as_object().into_iter().flatten() {
        let names = names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect();
        tree.set_listing_order(VPath::new(dir).expect("absolute folder"), names);
    }
}

/// `path` with `.` and `..` resolved by name.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn entry(path: String, bytes: Vec<u8>) -> Entry {
    Entry {
        path,
        size: bytes.len() as u64,
        bytes: Some(bytes),
        modified: None,
    }
}

/// Sizes of a text the way the report gives them.
fn measure(text: &str) -> Measure {
    Measure {
        bytes: text.len() as u64,
        chars: text.chars().count() as u64,
        utf16: text.encode_utf16().count() as u64,
        lines: text.lines().count() as u64,
    }
}

fn label(value: &Value) -> Option<SentLabel> {
    serde_json::from_value(value.clone()).ok()
}

/// Compares the files the program sent with the report's, collecting every difference.
fn compare_files(
    what: &str,
    sent: &[Value],
    report: &[SentFile],
    labels: bool,
    out: &mut Vec<String>,
) {
    let want: Vec<&str> = sent
        .iter()
        .map(|f| f["path"].as_str().unwrap_or(""))
        .collect();
    let got: Vec<&str> = report.iter().map(|f| f.path.as_str()).collect();
    if want != got {
        out.push(format!(
            "{what}: the program sent\n    {}\n  the core says\n    {}",
            want.join("\n    "),
            got.join("\n    ")
        ));
        return;
    }
    for (file, row) in sent.iter().zip(report) {
        let text = file["text"].as_str().unwrap_or("");
        if measure(text) != row.loaded {
            out.push(format!(
                "{what}: {} is {:?} as sent, the core says {:?}\n    sent: {:?}",
                row.path,
                measure(text),
                row.loaded,
                text.chars().take(300).collect::<String>()
            ));
        }
        if labels && label(&file["label"]) != row.label {
            out.push(format!(
                "{what}: {} has label {}, the core says {:?}",
                row.path, file["label"], row.label
            ));
        }
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Replays the pinned release's capture (`capture.json`) with the current rules.
fn check(case: &Path) -> Vec<String> {
    let capture = read_json(&case.join("capture.json"));
    check_release(case, &capture, &capture, None)
}

/// Replays what `release` sent (`sent`: a capture, or a `releases/<ver>.json`) on the
/// case's layout (from `capture.json`), simulating `version`.
fn check_release(case: &Path, capture: &Value, sent: &Value, version: Option<&str>) -> Vec<String> {
    let (mut tree, mut input) = lay_out(case, capture);
    input.version = version.map(str::to_owned);
    record_listing_order(&mut tree, sent);
    let capture = sent;
    let report: Report = match analyze_with(&mut tree, &input, &mut NoReads) {
        Ok(report) => report,
        Err(error) => return vec![format!("analysis failed: {error}")],
    };
    let mut out = Vec::new();
    let session = &report.session;

    // 1. The instruction block.
    let startup = &capture["startup"];
    let sent = startup["files"].as_array().cloned().unwrap_or_default();
    compare_files("startup", &sent, &session.files, true, &mut out);
    let block = session.cost.instruction_block.total();
    let want = startup["chars"].as_u64().unwrap_or(0);
    if block != want && out.is_empty() {
        out.push(format!(
            "instruction block: {want} characters sent, the core says {block}"
        ));
    }

    // 3. The skills listing.
    let skills = &capture["skills"];
    let want: Vec<String> = entry_names(skills);
    if want != session.skills {
        out.push(format!(
            "skills listing: the program lists {want:?}, the core {:?}",
            session.skills
        ));
    } else if skills["chars"].as_u64().unwrap_or(0) != session.cost.skills_listing.total() {
        // A release with no built-in skills sends no listing at all when the user has none.
        out.push(format!(
            "skills listing: {} characters, the core says {}",
            skills["chars"],
            session.cost.skills_listing.total()
        ));
    }

    // 4. The listing of agent types (captures from before it was recorded hold none).
    let listing = &capture["agent_types"];
    if listing.is_object() {
        let want: Vec<String> = entry_names(listing);
        if want != session.agents {
            out.push(format!(
                "agent types: the program lists {want:?}, the core {:?}",
                session.agents
            ));
        } else if listing["chars"].as_u64() != Some(session.cost.agents.total()) {
            out.push(format!(
                "agent types: {} characters, the core says {} ({} of them the user's)",
                listing["chars"],
                session.cost.agents.total(),
                session.cost.agents.user
            ));
        }
    } else if capture.get("agent_types").is_some() && !session.agents.is_empty() {
        out.push(format!(
            "agent types: the program sends no listing, the core lists {:?}",
            session.agents
        ));
    }

    // 5. The memory folder, and memory on or off.
    let memory = &capture["memory"];
    let want_dir = memory["dir"].as_str();
    if want_dir != session.memory_dir.as_deref() {
        out.push(format!(
            "memory folder: the program names {want_dir:?}, the core {:?}",
            session.memory_dir
        ));
    } else if memory["chars"].as_u64() != Some(session.cost.memory_section.total()) {
        out.push(format!(
            "memory section: {} characters, the core says {}",
            memory["chars"],
            session.cost.memory_section.total()
        ));
    }

    // 5b. Hooks and MCP servers: what ran (a hook's output line, a server named as
    // configured) against what the core lists as running at startup, on each prompt or with
    // every session. Their text is not in any figure above.
    let ran = &capture["session_time"];
    let mut hooks: Vec<String> = ran["hooks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h.as_str()?.split(": ").next().map(str::to_owned))
        .collect();
    hooks.sort();
    let mut listed_hooks: Vec<String> = session
        .not_counted
        .iter()
        .filter(|n| n.kind == NotCountedKind::Hook)
        .filter_map(|n| match n.when {
            RunsWhen::Startup => Some(format!("{}:startup", n.event.as_deref()?)),
            RunsWhen::EachPrompt => n.event.clone(),
            _ => None,
        })
        .collect();
    listed_hooks.sort();
    if hooks != listed_hooks {
        out.push(format!(
            "hooks: the program ran {hooks:?}, the core lists {listed_hooks:?}"
        ));
    }
    let servers: Vec<&str> = ran["mcp_servers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut listed_servers: Vec<&str> = session
        .not_counted
        .iter()
        .filter(|n| n.kind == NotCountedKind::McpServer && n.when == RunsWhen::EverySession)
        .filter_map(|n| n.server.as_deref())
        .collect();
    listed_servers.sort();
    if servers != listed_servers {
        out.push(format!(
            "MCP servers: the program started {servers:?}, the core lists {listed_servers:?}"
        ));
    }

    // 6. Reads.
    for (i, read) in capture["reads"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(answer) = report.reads.get(i) else {
            out.push(format!("read {}: the core has no answer", read["path"]));
            continue;
        };
        let files = read["files"].as_array().cloned().unwrap_or_default();
        compare_files(
            &format!("read of {}", answer.path),
            &files,
            &answer.files,
            false,
            &mut out,
        );
        let want: Vec<String> = read["skills"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["entries"].as_array().cloned().unwrap_or_default())
            .map(|e| e.as_str().unwrap_or("").to_owned())
            .collect();
        if want != answer.skills {
            out.push(format!(
                "read of {}: skills announced {want:?}, the core {:?}",
                answer.path, answer.skills
            ));
        }
    }

    // 7. Sub-agents.
    for agent in capture["agents"].as_array().into_iter().flatten() {
        let name = agent["agent"].as_str().unwrap_or("");
        let Some(info) = report.health.agents.iter().find(|a| a.name == name) else {
            out.push(format!("sub-agent {name}: not in the report"));
            continue;
        };
        let files = agent["files"].as_array().cloned().unwrap_or_default();
        compare_files(
            &format!("sub-agent {name}"),
            &files,
            &info.receives,
            true,
            &mut out,
        );
        // Its skills listing: the main session's (captures from before it was recorded
        // hold none).
        let listing = &agent["skills"];
        if listing.is_object() {
            let want: Vec<String> = entry_names(listing);
            if want != session.skills {
                out.push(format!(
                    "sub-agent {name}: its skills listing is {want:?}, the core's {:?}",
                    session.skills
                ));
            } else if listing["chars"].as_u64() != Some(info.skills_listing.total()) {
                out.push(format!(
                    "sub-agent {name}: its skills listing is {} characters, the core says {}",
                    listing["chars"],
                    info.skills_listing.total()
                ));
            }
        }
        // A sub-agent's own requests carry no listing of agent types.
        if agent["agent_types"].as_bool() == Some(true) {
            out.push(format!(
                "sub-agent {name}: its request lists agent types, the core says none"
            ));
        }
        let index = agent["agent_memory"]["index"].as_str().map(measure);
        if index != info.memory_index {
            out.push(format!(
                "sub-agent {name}: memory index {index:?}, the core says {:?}",
                info.memory_index
            ));
        }
    }
    out
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}…")
}

#[test]
fn every_capture_replays_against_the_core() {
    let cases = cases();
    assert!(
        !cases.is_empty(),
        "no conformance cases under fixtures/conformance/"
    );
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        let problems = check(case);
        // A case whose case.json says `core_differs` names a behaviour the core does not
        // reproduce yet (the README lists them); it must still differ, so the list stays
        // true when the core catches up.
        let spec = read_json(&case.join("case.json"));
        let known = spec["core_differs"].as_str();
        match (known, problems.is_empty()) {
            (None, false) => {
                let shown: Vec<String> = problems.iter().map(|p| shorten(p, 1_500)).collect();
                failures.push(format!("== {name}\n  {}", shown.join("\n  ")));
            }
            (Some(why), true) => failures.push(format!(
                "== {name}\n  now replays, but case.json says the core differs ({why}): \
                 remove core_differs and its README line"
            )),
            _ => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance cases differ from what Claude Code did:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The recorded captures of other releases: `(release, capture)` for each
/// `releases/<ver>.json` of a case, oldest first.
fn release_captures(case: &Path) -> Vec<(ClaudeVersion, Value)> {
    let dir = case.join("releases");
    let mut out: Vec<(ClaudeVersion, Value)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let stem = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let version = ClaudeVersion::parse(&stem).expect("releases/<version>.json");
            (version, read_json(&p))
        })
        .collect();
    out.sort_by_key(|(v, _)| *v);
    out
}

/// One replayed release capture: its case, release, what differs, and the fit's record.
struct Replayed {
    name: String,
    version: ClaudeVersion,
    problems: Vec<String>,
    fit: Option<Value>,
}

/// Every recorded release capture from [`FIRST_SIMULATED`] on, replayed once for the two
/// tests that read it (the replay and the fit), whichever runs first.
fn replayed_releases() -> &'static [Replayed] {
    static REPLAYED: std::sync::OnceLock<Vec<Replayed>> = std::sync::OnceLock::new();
    REPLAYED.get_or_init(|| {
        let mut out = Vec::new();
        for case in &cases() {
            let name = case
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let layout = read_json(&case.join("capture.json"));
            for (version, sent) in release_captures(case) {
                if sent.get("error").is_some() || version < FIRST_SIMULATED {
                    continue;
                }
                let release = version.to_string();
                let problems = check_release(case, &layout, &sent, Some(&release));
                let fit = fit_line(case, &layout, &sent, &name, &release, &problems);
                out.push(Replayed {
                    name: name.clone(),
                    version,
                    problems,
                    fit,
                });
            }
        }
        out
    })
}

#[test]
fn every_recorded_release_replays_against_the_core() {
    let mut failures = Vec::new();
    let mut replayed = 0;
    let mut refused = 0;
    let mut replays = replayed_releases().iter();
    for case in &cases() {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let layout = read_json(&case.join("capture.json"));
        for (version, sent) in release_captures(case) {
            if sent.get("error").is_some() {
                // The release could not run this case (README, "Releases").
                continue;
            }
            let release = version.to_string();
            if version < FIRST_SIMULATED {
                // Measured, but the core refuses to simulate it rather than guess.
                let (mut tree, mut input) = lay_out(case, &layout);
                input.version = Some(release.clone());
                match analyze_with(&mut tree, &input, &mut NoReads) {
                    Err(AnalyzeError::Unsimulated(_)) => refused += 1,
                    other => failures.push(format!(
                        "== {name} on {release}: older than {FIRST_SIMULATED} but not refused: {:?}",
                        other.map(|r| r.rules.release)
                    )),
                }
                continue;
            }
            replayed += 1;
            let replay = replays.next().expect("replayed with the others");
            assert_eq!((&replay.name, replay.version), (&name, version));
            let problems = &replay.problems;
            if std::env::var_os("MEMDIAG_FIT").is_some() {
                if let Some(line) = &replay.fit {
                    eprintln!("FIT {line}");
                }
            }
            let excuse = NOT_REPRODUCED
                .iter()
                .find(|k| k.from <= version && version <= k.to && k.cases.contains(&name.as_str()));
            match (excuse, problems.is_empty()) {
                (None, false) => {
                    let shown: Vec<String> = problems.iter().map(|p| shorten(p, 1_200)).collect();
                    failures.push(format!("== {name} on {release}\n  {}", shown.join("\n  ")));
                }
                (Some(k), true) => failures.push(format!(
                    "== {name} on {release} now replays, but NOT_REPRODUCED says the core \
                     differs ({}): narrow that entry",
                    k.summary
                )),
                _ => {}
            }
        }
    }
    assert!(
        replayed > 0,
        "no release captures under fixtures/conformance/*/releases/"
    );
    assert!(
        failures.is_empty(),
        "{} release captures differ from the core ({replayed} replayed, {refused} refused):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The fit's record of one capture, printed as a `FIT {json}` line on stderr with
/// `MEMDIAG_FIT=1` for `tests/conformance/fit-tables.py`: what differs in this capture, and
/// by how many characters the program's figures exceed the core's; none when the core
/// refuses it.
fn fit_line(
    case: &Path,
    layout: &Value,
    sent: &Value,
    name: &str,
    release: &str,
    problems: &[String],
) -> Option<Value> {
    let (mut tree, mut input) = lay_out(case, layout);
    input.version = Some(release.to_owned());
    let report = analyze_with(&mut tree, &input, &mut NoReads).ok()?;
    let cost = &report.session.cost;
    let excess = |figure: &Value, core: u64| figure.as_u64().map(|x| x as i64 - core as i64);
    let line = serde_json::json!({
        "case": name,
        "release": release,
        "problems": problems,
        "skills": excess(&sent["skills"]["chars"], cost.skills_listing.total()),
        "memory": excess(&sent["memory"]["chars"], cost.memory_section.total()),
        "block": excess(&sent["startup"]["chars"], cost.instruction_block.total()),
        "agents": excess(&sent["agent_types"]["chars"], cost.agents.total()),
    });
    Some(line)
}

/// Issue 32: the fit is re-run on every test run. `OWN_TEXT` in `core/src/version/fitted.rs`
/// is written by `tests/conformance/fit-tables.py own` from the replay's differences
/// (`MEMDIAG_FIT=1`, fixtures/conformance/README.md, "Fitting"); this replays every recorded
/// release as that recipe does, hands the same `FIT` lines to the same script, and fails
/// when the rows it writes are not the rows the file holds: a capture recorded, or a rule
/// changed, without the table fitted again. No network, a few seconds; needs `python3`.
/// (The listing tables come from requests that are not committed, so only OWN_TEXT can be
/// fitted again here; the replay itself checks their sums.)
#[test]
fn the_fitted_own_text_is_what_the_fit_writes() {
    let mut log = String::new();
    for line in replayed_releases().iter().filter_map(|r| r.fit.as_ref()) {
        log.push_str(&format!("FIT {line}\n"));
    }
    assert!(!log.is_empty(), "no release captures to fit");
    let root = workspace_root();
    let fit_log = std::env::temp_dir().join(format!("memdiag-fit-{}.log", std::process::id()));
    std::fs::write(&fit_log, &log).expect("the fit log is written");
    let fitted = root.join("core/src/version/fitted.rs");
    let output = std::process::Command::new("python3")
        .arg(root.join("tests/conformance/fit-tables.py"))
        .arg("own")
        .arg(&fit_log)
        .arg(&fitted)
        .output();
    let _ = std::fs::remove_file(&fit_log);
    let output = output.expect("python3 runs the fitting script (install python3)");
    assert!(
        output.status.success(),
        "fit-tables.py own failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let written = String::from_utf8(output.stdout).expect("the script writes UTF-8");
    let source = std::fs::read_to_string(&fitted).expect("fitted.rs is readable");
    let start = source
        .find("pub(crate) const OWN_TEXT")
        .and_then(|at| source[at..].find("= &[\n").map(|i| at + i + "= &[\n".len()))
        .expect("fitted.rs holds OWN_TEXT");
    let end = start + source[start..].find("];").expect("OWN_TEXT ends");
    let held = &source[start..end];
    if written != held {
        let first = written
            .lines()
            .zip(held.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| written.lines().count().min(held.lines().count()));
        panic!(
            "OWN_TEXT in core/src/version/fitted.rs is stale: the fit writes other rows (first \
             difference at row line {}: the fit writes {:?}, the file holds {:?}). Fit it again: \
             MEMDIAG_FIT=1 cargo test -p memdiag-tests --test conformance every_recorded_release \
             -- --nocapture 2>fit.log >/dev/null; python3 tests/conformance/fit-tables.py own \
             fit.log core/src/version/fitted.rs --write",
            first + 1,
            written.lines().nth(first),
            held.lines().nth(first)
        );
    }
}

/// What the user's files made a release send, without Claude Code's own text: the files
/// and texts, the user's skills, the memory folder, reads and sub-agents, and the user's
/// lines of the listing of agent types when `agent_types` (captures recorded before it was
/// read hold none: compared only when both sides hold it).
fn behaviour(capture: &Value, agent_types: bool) -> Value {
    serde_json::json!({
        "startup": capture["startup"]["files"],
        "skills": capture["skills"]["entries"],
        "memory": [capture["memory"]["enabled"], capture["memory"]["dir"]],
        "reads": capture["reads"],
        "agents": capture["agents"],
        "agent_types": if agent_types { capture["agent_types"]["entries"].clone() } else { Value::Null },
    })
}

/// The capture of `case` on `version`: its `releases/<ver>.json`, or its `capture.json`
/// when that is the release it was recorded on.
fn capture_on(case: &Path, version: ClaudeVersion) -> Option<Value> {
    let file = case.join("releases").join(format!("{version}.json"));
    if file.is_file() {
        return Some(read_json(&file));
    }
    let pinned = read_json(&case.join("capture.json"));
    (pinned["release"].as_str() == Some(version.to_string().as_str())).then_some(pinned)
}

#[test]
fn each_rule_change_is_shown_by_the_captures_it_names() {
    let root = workspace_root().join("fixtures/conformance");
    let mut failures = Vec::new();
    for change in RULE_CHANGES {
        for name in change.cases {
            let case = root.join(name);
            let (Some(before), Some(after)) = (
                capture_on(&case, change.before),
                capture_on(&case, change.version),
            ) else {
                failures.push(format!(
                    "{} ({}): {name} has no capture on {} and {}",
                    change.behaviour.id(),
                    change.version,
                    change.before,
                    change.version
                ));
                continue;
            };
            let agent_types =
                before.get("agent_types").is_some() && after.get("agent_types").is_some();
            if behaviour(&before, agent_types) == behaviour(&after, agent_types) {
                failures.push(format!(
                    "{} ({}): {name} sends the same on {} and {}",
                    change.behaviour.id(),
                    change.version,
                    change.before,
                    change.version
                ));
            }
            // The core must say the same on each side: its report under each release's
            // rules replays that release's capture, but for what NOT_REPRODUCED names.
            let layout = read_json(&case.join("capture.json"));
            for (version, sent) in [(change.before, &before), (change.version, &after)] {
                let problems = check_release(&case, &layout, sent, Some(&version.to_string()));
                let excused = NOT_REPRODUCED
                    .iter()
                    .any(|k| k.from <= version && version <= k.to && k.cases.contains(name));
                if !problems.is_empty() && !excused {
                    failures.push(format!(
                        "{} ({}): the core does not replay {name} on {version}: {}",
                        change.behaviour.id(),
                        change.version,
                        shorten(&problems.join("; "), 600)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The values of `flag` in the case's `args` (`--add-dir D`), `$ROOT` being the case's root.
fn flag_values(spec: &Value, flag: &str, root: &str) -> Vec<String> {
    let args: Vec<&str> = spec["args"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    args.windows(2)
        .filter(|pair| pair[0] == flag)
        .map(|pair| pair[1].replace("$ROOT", root))
        .collect()
}

/// A captured listing's lines (`entries`, each a string).
fn entry_names(listing: &Value) -> Vec<String> {
    listing["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e.as_str().unwrap_or("").to_owned())
        .collect()
}

/// A text long enough for its second copy to be worth a `sent-twice` finding (30 units).
fn long_enough(text: &str) -> bool {
    text.encode_utf16().count() >= 30
}

/// The second copies among `(name, text)` pairs in the order the program sent them, each as
/// (its name, the first copy's name, its UTF-16 units), for [`long_enough`] texts.
fn second_copies(pairs: impl Iterator<Item = (String, String)>) -> Vec<(String, String, u64)> {
    let mut first: std::collections::BTreeMap<String, String> = Default::default();
    let mut copies = Vec::new();
    for (name, text) in pairs {
        if !long_enough(&text) {
            continue;
        }
        match first.get(&text) {
            Some(earlier) => {
                copies.push((name, earlier.clone(), text.encode_utf16().count() as u64))
            }
            None => {
                first.insert(text, name);
            }
        }
    }
    copies
}

/// What every capture shows the program sending twice is what the core's `sent-twice`
/// findings say, copy for copy: each instruction file whose text as sent repeats an earlier
/// one's, and each listing line whose description an earlier line sends, with the second
/// copy's length (texts under the finding's 30 units left out, as the core leaves them).
/// `sent-twice-links-copies-imports-and-listings` shows both kinds; on every other case the
/// program sends nothing twice and the core finds nothing.

#[test]
fn what_each_capture_sends_twice_is_a_sent_twice_finding() {
    use memdiag_core::report::{Code, DiagnosticData};
    let mut failures = Vec::new();
    let mut shown = 0;
    for case in cases() {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let spec = read_json(&case.join("case.json"));
        if spec["core_differs"].is_string() {
            continue;
        }
        let capture = read_json(&case.join("capture.json"));
        let (mut tree, input) = lay_out(&case, &capture);
        record_listing_order(&mut tree, &capture);
        let Ok(report) = analyze_with(&mut tree, &input, &mut NoReads) else {
            continue;
        };
        // (the second copy's file or listed name, the earlier one's, its UTF-16 units)
        let files = capture["startup"]["files"].as_array().into_iter().flatten();
        let mut want = second_copies(files.filter_map(|file| {
            Some((
                file["path"].as_str()?.to_owned(),
                file["text"].as_str()?.to_owned(),
            ))
        }));
        want.extend(second_copies(
            entry_names(&capture["skills"])
                .into_iter()
                .filter_map(|entry| {
                    let (shown, description) = entry.split_once(": ")?;
                    Some((shown.to_owned(), description.to_owned()))
                }),
        ));
        // The core's findings, in the same terms: a listing line's by the names its
        // message opens with, its length by the figure it states.
        let mut got: Vec<(String, String, u64)> = Vec::new();
        for finding in report
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::SentTwice)
        {
            let units = finding
                .message
                .split("costs ")
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.replace(',', "").parse().ok())
                .unwrap_or(0);
            let earlier = match &finding.data {
                Some(DiagnosticData::Paths { paths }) => paths.join(" "),
                _ => String::new(),
            };
            match finding
                .message
                .split_once(" is listed with the same description as ")
            {
                Some((later, rest)) => {
                    let earlier_shown = rest.split(" (").next().unwrap_or("");
                    got.push((later.to_owned(), earlier_shown.to_owned(), units));
                }
                None => got.push((finding.path.clone().unwrap_or_default(), earlier, units)),
            }
        }
        want.sort();
        got.sort();
        shown += want.len();
        if want != got {
            failures.push(format!(
                "== {name}\n  sent twice: {want:?}\n  the core: {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(shown >= 2, "the sent-twice case shows a copy of each kind");
}
