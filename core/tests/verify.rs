//! `memdiag verify LOG` run as a process on a real folder, with a log recorded from Claude
//! Code 2.1.328 through `memdiag hook instructions-loaded` (its paths moved to this test's
//! folder): no difference and exit 0 as recorded; exit 1 naming the file when the log and
//! the prediction part; exit 2 for a log that is not there. The hook itself writes the
//! lines that verify reads.

#![cfg(not(target_arch = "wasm32"))]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MEMDIAG: &str = env!("CARGO_BIN_EXE_memdiag");

/// The recorded log, `@ROOT@` standing for the folder that holds home/.
const RECORDED: &str = r#"{"cwd":"@ROOT@/home/app","file_path":"@ROOT@/home/.claude/CLAUDE.md","load_reason":"session_start","memory_type":"User","session_id":"eec1b853","time":"2026-12-07T17:58:45Z"}
{"cwd":"@ROOT@/home/app","file_path":"@ROOT@/home/app/CLAUDE.md","load_reason":"session_start","memory_type":"Project","session_id":"eec1b853","time":"2026-12-07T17:58:45Z"}
{"cwd":"@ROOT@/home/app","file_path":"@ROOT@/home/app/notes.md","load_reason":"include","memory_type":"Project","parent_file_path":"@ROOT@/home/app/CLAUDE.md","session_id":"eec1b853","time":"2026-12-07T17:58:45Z"}
{"cwd":"@ROOT@/home/app","file_path":"@ROOT@/home/app/src/CLAUDE.md","load_reason":"nested_traversal","memory_type":"Project","session_id":"eec1b853","time":"2026-12-07T17:58:47Z","trigger_file_path":"@ROOT@/home/app/src/main.py"}
{"cwd":"@ROOT@/home/app","file_path":"@ROOT@/home/app/.claude/rules/py.md","globs":["**/*.py"],"load_reason":"path_glob_match","memory_type":"Project","session_id":"eec1b853","time":"2026-12-07T17:58:47Z","trigger_file_path":"@ROOT@/home/app/src/main.py"}
"#;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The recorded session's folder: a user CLAUDE.md, a project CLAUDE.md that imports
/// notes.md, a nested CLAUDE.md and a rule for Python files.
fn folder(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("memdiag-verify-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let root = std::fs::canonicalize(&root).unwrap();
    let app = root.join("home/app");
    write(&root.join("home/.claude/CLAUDE.md"), "user\n");
    write(&app.join("CLAUDE.md"), "# app\n@notes.md\n");
    write(&app.join("notes.md"), "notes\n");
    write(&app.join("src/CLAUDE.md"), "src rules\n");
    write(&app.join("src/main.py"), "print()\n");
    write(
        &app.join(".claude/rules/py.md"),
        "---\npaths: \"**/*.py\"\n---\npython\n",
    );
    std::fs::create_dir_all(app.join(".git")).unwrap();
    root
}

fn run(root: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(MEMDIAG)
        .args(args)
        .current_dir(root)
        .env("HOME", root.join("home"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
        // What Claude Code sets for its hooks, set here only where a test means it.
        .env_remove("AI_AGENT")
        .env_remove("CLAUDE_CODE_ENTRYPOINT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_recorded_session_verifies_and_a_wrong_one_does_not() {
    let root = folder("recorded");
    let log = root.join("log.jsonl");
    let recorded = RECORDED.replace("@ROOT@", root.to_str().unwrap());
    write(&log, &recorded);
    let output = run(&root, &["verify", log.to_str().unwrap()], b"");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("✓ at startup: 3 file(s) loaded, as predicted"),
        "{stdout}"
    );
    assert!(stdout.contains("No difference"), "{stdout}");

    // The session loaded a file memdiag does not predict, and missed the rule it does.
    let app = root.join("home/app");
    let wrong = recorded.replace(".claude/rules/py.md", "extra.md");
    write(&log, &wrong);
    let output = run(&root, &["verify", log.to_str().unwrap()], b"");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "loaded, not predicted: {}/extra.md",
            app.display()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "predicted, not loaded: {}/.claude/rules/py.md",
            app.display()
        )),
        "{stdout}"
    );

    // A log that is not there.
    let output = run(&root, &["verify", "/nonexistent/log.jsonl"], b"");
    assert_eq!(output.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_hook_writes_the_lines_verify_reads() {
    let root = folder("hook");
    let recorded = RECORDED.replace("@ROOT@", root.to_str().unwrap());
    for line in recorded.lines() {
        // Claude Code's payload has more fields than the log keeps.
        let mut payload: serde_json::Value = serde_json::from_str(line).unwrap();
        payload["hook_event_name"] = "InstructionsLoaded".into();
        payload["transcript_path"] = "/somewhere.jsonl".into();
        payload.as_object_mut().unwrap().remove("time");
        let output = run(
            &root,
            &["hook", "instructions-loaded"],
            payload.to_string().as_bytes(),
        );
        assert_eq!(output.status.code(), Some(0));
        assert!(output.stdout.is_empty());
    }
    // Malformed payloads are logged as failures, never as events.
    for bad in [
        "",
        "{",
        "[]",
        r#"{"hook_event_name":"SessionStart","file_path":"/x"}"#,
    ] {
        let output = run(&root, &["hook", "instructions-loaded"], bad.as_bytes());
        assert_eq!(output.status.code(), Some(0), "{bad}");
        assert!(output.stdout.is_empty(), "{bad}");
    }
    let log = root.join("home/.claude/memdiag/instructions-loaded.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(!text.contains("transcript_path"));
    let output = run(&root, &["verify", log.to_str().unwrap()], b"");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let hooks_log = std::fs::read_to_string(root.join("home/.claude/memdiag/hooks.log")).unwrap();
    assert_eq!(hooks_log.lines().count(), 4, "{hooks_log}");
    let _ = std::fs::remove_dir_all(&root);
}
