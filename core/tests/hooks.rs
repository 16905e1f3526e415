//! `memdiag hook session-start`, `memdiag hook post-tool-use` and `memdiag statusline` run as
//! processes on recorded stdin payloads (the fields Claude Code sends), in a home folder of
//! their own: what they print when something is cut, that they print nothing when all is
//! well, and that malformed input of every kind ends in exit 0, nothing on stdout and a line
//! in the log. The plugin's files are checked to parse and to name commands that exist.

#![cfg(not(target_arch = "wasm32"))]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

const MEMDIAG: &str = env!("CARGO_BIN_EXE_memdiag");

/// A home folder, a project and a cache of their own, removed at the end.
struct Machine {
    root: PathBuf,
}

impl Machine {
    fn new() -> Machine {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("memdiag-hooks-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("home/.claude")).unwrap();
        std::fs::create_dir_all(root.join("project")).unwrap();
        // The project's path as the analysis sees it (no link on the way).
        let root = std::fs::canonicalize(&root).unwrap();
        Machine { root }
    }

    fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    /// The project's auto memory index.
    fn index(&self) -> PathBuf {
        let key = memdiag_core::encode_project_path(self.project().to_str().unwrap());
        self.home()
            .join(".claude/projects")
            .join(key)
            .join("memory/MEMORY.md")
    }

    fn write(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Runs `memdiag args…` with `stdin`, in this machine's environment.
    fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let mut child = Command::new(MEMDIAG)
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env("XDG_CACHE_HOME", self.root.join("cache"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("memdiag runs");
        let mut pipe = child.stdin.take().unwrap();
        let bytes = stdin.to_vec();
        // A writer of its own: the command may stop reading early (a huge payload).
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
        let output = child.wait_with_output().expect("memdiag ends");
        writer.join().unwrap();
        output
    }

    /// The lines of the hooks' log.
    fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.home().join(".claude/memdiag/hooks.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    fn session_start(&self) -> Vec<u8> {
        json!({
            "session_id": "abc123",
            "transcript_path": self.home().join(".claude/projects/x/abc123.jsonl"),
            "cwd": self.project(),
            "hook_event_name": "SessionStart",
            "source": "startup",
        })
        .to_string()
        .into_bytes()
    }

    fn post_tool_use(&self, tool: &str, file: &Path) -> Vec<u8> {
        json!({
            "session_id": "abc123",
            "transcript_path": self.home().join(".claude/projects/x/abc123.jsonl"),
            "cwd": self.project(),
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": { "file_path": file, "old_string": "a", "new_string": "b" },
            "tool_response": { "filePath": file, "success": true },
        })
        .to_string()
        .into_bytes()
    }

    fn status_line(&self) -> Vec<u8> {
        json!({
            "hook_event_name": "Status",
            "session_id": "abc123",
            "cwd": self.project(),
            "model": { "id": "claude-opus-4-1", "display_name": "Opus" },
            "workspace": { "current_dir": self.project(), "project_dir": self.project() },
            "version": "2.1.328",
        })
        .to_string()
        .into_bytes()
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// `count` index lines of the form `- [entry n](en.md) — about n`.
fn index_lines(count: usize) -> String {
    (1..=count)
        .map(|n| format!("- [entry {n}](e{n}.md) — about {n}\n"))
        .collect()
}

/// Exit 0 and stdout as text.
fn quiet_success(output: &Output) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "exit 0 always: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty(), "nothing on stderr: {output:?}");
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn answer_of(output: &Output) -> Value {
    let stdout = quiet_success(output);
    assert_eq!(stdout.lines().count(), 1, "one line of JSON: {stdout}");
    serde_json::from_str(&stdout).expect("the answer is JSON")
}

#[test]
fn session_start_says_what_is_cut_within_400_characters() {
    let machine = Machine::new();
    machine.write(&machine.index(), &index_lines(215));
    let answer = answer_of(&machine.run(&["hook", "session-start"], &machine.session_start()));
    let output = &answer["hookSpecificOutput"];
    assert_eq!(output["hookEventName"], "SessionStart");
    let context = output["additionalContext"].as_str().unwrap();
    assert!(
        context.contains(
            "MEMORY.md loses 15 of its 215 lines (from line 201) to the 200-line cap in every \
             session"
        ),
        "{context}"
    );
    assert!(context.chars().count() <= 400, "{context}");
    let message = answer["systemMessage"].as_str().unwrap();
    assert!(
        message.starts_with("memdiag: MEMORY.md loses 15"),
        "{message}"
    );
    assert!(
        !message.contains('\n'),
        "one line for the person: {message}"
    );
}

#[test]
fn session_start_prints_nothing_when_all_is_well() {
    let machine = Machine::new();
    machine.write(&machine.index(), &index_lines(20));
    machine.write(
        &machine.project().join("CLAUDE.md"),
        "# Project\n\nUse tabs.\n",
    );
    let output = machine.run(&["hook", "session-start"], &machine.session_start());
    assert_eq!(quiet_success(&output), "");
    assert!(
        machine.log().is_empty(),
        "nothing went wrong: {:?}",
        machine.log()
    );
}

#[test]
fn malformed_payloads_print_nothing_exit_0_and_log_one_line() {
    let machine = Machine::new();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let huge = format!(
        "{{\"cwd\":\"/\",\"padding\":\"{}\"}}",
        "x".repeat(9 * 1024 * 1024)
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("not JSON", b"hello".to_vec()),
        ("not an object", b"[1, 2]".to_vec()),
        ("cwd of the wrong type", br#"{"cwd": 5}"#.to_vec()),
        ("no cwd", br#"{"hook_event_name": "SessionStart"}"#.to_vec()),
        ("a relative cwd", br#"{"cwd": "project"}"#.to_vec()),
        (
            "a missing folder",
            br#"{"cwd": "/no/such/folder/anywhere"}"#.to_vec(),
        ),
        ("not UTF-8", vec![0xff, 0xfe, b'{', b'}']),
        ("nested too deep", deep.into_bytes()),
        ("over 8 MiB", huge.into_bytes()),
    ];
    for subcommand in [
        &["hook", "session-start"][..],
        &["hook", "post-tool-use"],
        &["statusline"],
    ] {
        for (what, stdin) in &cases {
            let before = machine.log().len();
            let output = machine.run(subcommand, stdin);
            assert_eq!(
                quiet_success(&output),
                "",
                "{subcommand:?} on {what} prints nothing"
            );
            assert_eq!(
                machine.log().len(),
                before + 1,
                "{subcommand:?} on {what} logs one line: {:?}",
                machine.log()
            );
        }
    }
    for line in machine.log() {
        assert!(line.chars().count() < 600, "a log line is short: {line}");
    }
}

#[test]
fn post_tool_use_gives_the_headroom_of_an_edited_index() {
    let machine = Machine::new();
    let index = machine.index();
    machine.write(&index, &index_lines(188));
    let answer = answer_of(&machine.run(
        &["hook", "post-tool-use"],
        &machine.post_tool_use("Edit", &index),
    ));
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PostToolUse");
    assert_eq!(
        answer["hookSpecificOutput"]["additionalContext"],
        "MEMORY.md 188/200 lines, 6.2k/25k characters: 12 lines left"
    );
    assert!(
        answer.get("systemMessage").is_none(),
        "nothing for the person"
    );

    // Long lines: the size cap comes first.
    let long: String = (1..=130)
        .map(|n| format!("- [entry {n}](e{n}.md) — {}\n", "word ".repeat(30)))
        .collect();
    machine.write(&index, &long);
    let answer = answer_of(&machine.run(
        &["hook", "post-tool-use"],
        &machine.post_tool_use("Write", &index),
    ));
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.starts_with("MEMORY.md 130/200 lines, 22.6k/25k characters: 2.3k characters left")
            && context.ends_with("(about 13 lines of this length)"),
        "{context}"
    );

    // Past the size cap: the lines from the first that is cut.
    let longer: String = (1..=150)
        .map(|n| format!("- [entry {n}](e{n}.md) — {}\n", "word ".repeat(30)))
        .collect();
    machine.write(&index, &longer);
    let answer = answer_of(&machine.run(
        &["hook", "post-tool-use"],
        &machine.post_tool_use("Write", &index),
    ));
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.starts_with(
            "MEMORY.md 150/200 lines, 26.1k/25k characters: over the 25,000-character cap. \
             Lines 144-150 of the file are past it"
        ),
        "{context}"
    );
}

#[test]
fn post_tool_use_names_the_lines_past_the_cap() {
    let machine = Machine::new();
    let index = machine.index();
    machine.write(&index, &index_lines(215));
    let answer = answer_of(&machine.run(
        &["hook", "post-tool-use"],
        &machine.post_tool_use("MultiEdit", &index),
    ));
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.starts_with("MEMORY.md 215/200 lines, 7.2k/25k characters: over the 200-line cap. Lines 201-215 of the file are past it"),
        "{context}"
    );
    let message = answer["systemMessage"].as_str().unwrap();
    assert!(message.contains("lines 201-215"), "{message}");
}

#[test]
fn post_tool_use_speaks_only_of_memory_and_instruction_files() {
    let machine = Machine::new();
    let claude_md = machine.project().join("CLAUDE.md");
    machine.write(&claude_md, &"Use tabs.\n".repeat(100));
    let rule = machine.project().join(".claude/rules/style.md");
    machine.write(&rule, "Prefer iterators.\n");
    let other = machine.project().join("src/main.rs");
    machine.write(&other, "fn main() {}\n");

    let answer_for = |tool: &str, file: &Path| {
        quiet_success(&machine.run(
            &["hook", "post-tool-use"],
            &machine.post_tool_use(tool, file),
        ))
    };
    let claude: Value = serde_json::from_str(&answer_for("Edit", &claude_md)).unwrap();
    assert_eq!(
        claude["hookSpecificOutput"]["additionalContext"],
        "CLAUDE.md 1k/40k characters as written before Claude Code's large-file warning, \
         about 250 tokens each time it loads"
    );
    let rule: Value = serde_json::from_str(&answer_for("Write", &rule)).unwrap();
    assert!(rule["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .starts_with("style.md 18/40k characters"));
    assert_eq!(answer_for("Edit", &other), "", "not a watched file");
    assert_eq!(answer_for("Read", &claude_md), "", "not a writing tool");
    assert!(machine.log().is_empty(), "{:?}", machine.log());

    // A relative path is the session's folder's.
    let relative = answer_for("Edit", Path::new("CLAUDE.md"));
    assert!(relative.contains("CLAUDE.md 1k/40k"), "{relative}");

    // A watched name that is not there, or a payload of the wrong shape: nothing, one line.
    let missing = machine.project().join("gone/CLAUDE.md");
    assert_eq!(answer_for("Write", &missing), "");
    let wrong = br#"{"tool_name": "Edit", "tool_input": {"file_path": 7}}"#;
    assert_eq!(
        quiet_success(&machine.run(&["hook", "post-tool-use"], wrong)),
        ""
    );
    assert_eq!(machine.log().len(), 2, "{:?}", machine.log());
}

#[test]
fn statusline_shows_the_index_and_follows_its_changes() {
    let machine = Machine::new();
    machine.write(&machine.index(), &index_lines(188));
    let first = quiet_success(&machine.run(&["statusline"], &machine.status_line()));
    assert_eq!(first, "mem 188/200 · 6.2k/25k\n");
    let cache = machine.root.join("cache/memdiag/statusline.json");
    let cached: Value = serde_json::from_slice(&std::fs::read(&cache).unwrap()).unwrap();
    let entry = &cached[machine.project().to_str().unwrap()];
    assert_eq!(entry["index"], machine.index().to_str().unwrap());

    // From the cache: the same answer.
    let again = quiet_success(&machine.run(&["statusline"], &machine.status_line()));
    assert_eq!(again, first);

    // The index grows: its size changes, the segment follows.
    machine.write(&machine.index(), &index_lines(199));
    let grown = quiet_success(&machine.run(&["statusline"], &machine.status_line()));
    assert_eq!(grown, "mem 199/200 · 6.6k/25k\n");

    // Only `cwd`: the same project.
    let cwd_only = json!({ "cwd": machine.project() }).to_string();
    let output = machine.run(&["statusline"], cwd_only.as_bytes());
    assert_eq!(quiet_success(&output), grown);
}

#[test]
fn statusline_prints_nothing_without_an_index() {
    let machine = Machine::new();
    let output = machine.run(&["statusline"], &machine.status_line());
    assert_eq!(quiet_success(&output), "");
    assert!(machine.log().is_empty(), "{:?}", machine.log());
}

#[test]
fn a_bad_subcommand_is_a_usage_error() {
    let machine = Machine::new();
    for args in [
        &["hook"][..],
        &["hook", "stop"],
        &["hook", "session-start", "x"],
        &["statusline", "x"],
    ] {
        let output = machine.run(args, b"{}");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
    }
}

/// The plugin's manifest, hooks and the repository's marketplace parse, and name commands
/// that exist; the hooks run the installed command, and without it say so once.
#[test]
fn the_plugin_parses_and_its_hooks_run_the_command() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &str| -> Value {
        let text = std::fs::read_to_string(repository.join(path))
            .unwrap_or_else(|error| panic!("{path}: {error}"));
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
    };
    let marketplace = read(".claude-plugin/marketplace.json");
    assert!(marketplace["owner"]["name"].is_string());
    let entry = &marketplace["plugins"][0];
    let source = entry["source"].as_str().unwrap();
    let plugin = read(&format!("{source}/.claude-plugin/plugin.json"));
    assert_eq!(plugin["name"], entry["name"]);
    assert_eq!(plugin["name"], "memdiag");
    let skill =
        std::fs::read_to_string(repository.join(source).join("skills/memdiag/SKILL.md")).unwrap();
    assert!(skill.starts_with("---\nname: memdiag\ndescription: "));
    // The MCP server is the installed command's `memdiag mcp` (tests/mcp.rs speaks to it).
    let servers = read(&format!("{source}/.mcp.json"));
    assert_eq!(servers["mcpServers"]["memdiag"]["command"], "memdiag");
    assert_eq!(servers["mcpServers"]["memdiag"]["args"], json!(["mcp"]));

    let hooks = read(&format!("{source}/hooks/hooks.json"));
    let command_of = |event: &str| -> (String, Option<String>) {
        let groups = hooks["hooks"][event].as_array().unwrap();
        assert_eq!(groups.len(), 1, "{event}");
        let hook = &groups[0]["hooks"][0];
        assert_eq!(hook["type"], "command");
        (
            hook["command"].as_str().unwrap().to_owned(),
            groups[0]["matcher"].as_str().map(str::to_owned),
        )
    };
    let (start, _) = command_of("SessionStart");
    let (edit, matcher) = command_of("PostToolUse");
    assert_eq!(matcher.as_deref(), Some("Write|Edit|MultiEdit"));
    assert!(
        start.contains("exec memdiag hook session-start;"),
        "{start}"
    );
    assert!(edit.contains("exec memdiag hook post-tool-use;"), "{edit}");
    let (loaded, matcher) = command_of("InstructionsLoaded");
    assert_eq!(matcher, None);
    assert!(
        loaded.contains("exec memdiag hook instructions-loaded;"),
        "{loaded}"
    );

    // Installed: the hook is the command's answer.
    let machine = Machine::new();
    machine.write(&machine.index(), &index_lines(215));
    let bin = Path::new(MEMDIAG).parent().unwrap();
    let run = |command: &str, path: &str, stdin: &[u8]| -> Output {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .env("PATH", path)
            .env("HOME", machine.home())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(stdin);
        child.wait_with_output().unwrap()
    };
    let installed = format!("{}:/usr/bin:/bin", bin.display());
    let said = answer_of(&run(&start, &installed, &machine.session_start()));
    assert_eq!(said["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let said = answer_of(&run(
        &edit,
        &installed,
        &machine.post_tool_use("Edit", &machine.index()),
    ));
    assert_eq!(said["hookSpecificOutput"]["hookEventName"], "PostToolUse");

    // Not installed: one note, once, from whichever hook runs first.
    let absent = "/usr/bin:/bin";
    let note = answer_of(&run(&edit, absent, &machine.session_start()));
    assert!(note["systemMessage"]
        .as_str()
        .unwrap()
        .contains("memdiag command is not installed"));
    assert_eq!(quiet_success(&run(&start, absent, b"{}")), "");
    assert_eq!(quiet_success(&run(&edit, absent, b"{}")), "");
}

/// A payload that never ends (stdin left open): the watchdog ends the run after 2 s, exit 0,
/// nothing printed, one line logged.
#[test]
fn a_run_past_the_time_limit_ends_quietly() {
    let machine = Machine::new();
    let started = std::time::Instant::now();
    let mut child = Command::new(MEMDIAG)
        .args(["hook", "session-start"])
        .env("HOME", machine.home())
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open, and written to only in part, until the command has ended.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"cwd\": ").unwrap();
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    let took = started.elapsed();
    assert!(
        took >= std::time::Duration::from_millis(1900) && took < std::time::Duration::from_secs(10),
        "{took:?}"
    );
    assert_eq!(quiet_success(&output), "");
    let log = machine.log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(
        log[0].ends_with("hook session-start: gave up after the 2 s time limit"),
        "{log:?}"
    );
}

/// A panic is caught (in a debug build the test can provoke one): exit 0, nothing printed,
/// nothing on stderr, the panic in the log.
#[test]
fn a_panic_ends_quietly() {
    let machine = Machine::new();
    machine.write(&machine.index(), &index_lines(215));
    let mut child = Command::new(MEMDIAG)
        .args(["hook", "session-start"])
        .env("HOME", machine.home())
        .env("MEMDIAG_HOOK_TEST_PANIC", "1")
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(&machine.session_start());
    let output = child.wait_with_output().unwrap();
    assert_eq!(quiet_success(&output), "");
    let log = machine.log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].contains("panic: "), "{log:?}");
}
