//! `memdiag mcp` run as a process, spoken to over stdio as Claude Code does: `initialize`,
//! `tools/list`, a call of each tool on a small home and project of its own, and malformed
//! messages of several kinds, each answered with a JSON-RPC error while the server goes on.

#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

const MEMDIAG: &str = env!("CARGO_BIN_EXE_memdiag");
/// Generous: a debug build on a shared machine.
const WAIT: Duration = Duration::from_secs(20);

/// A home and project of their own, and the server running over them.
struct Session {
    root: PathBuf,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start(name: &str, setup: impl FnOnce(&Path, &Path)) -> Session {
        let root = std::env::temp_dir().join(format!("memdiag-mcp-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("home/.claude")).unwrap();
        std::fs::create_dir_all(root.join("project/.git")).unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        setup(&root.join("home"), &root.join("project"));
        // Started from the home folder: the project comes from CLAUDE_PROJECT_DIR, as
        // Claude Code sets it for the servers it starts.
        let mut child = Command::new(MEMDIAG)
            .arg("mcp")
            .current_dir(root.join("home"))
            .env("HOME", root.join("home"))
            .env("CLAUDE_PROJECT_DIR", root.join("project"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("memdiag mcp starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            root,
            child,
            stdin,
            lines,
        }
    }

    fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message the server writes.
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(WAIT)
            .expect("the server answers in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends a request and waits for the answer with its id.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send_raw(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        loop {
            let message = self.next();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn initialize(&mut self) {
        let answer = self.request(
            1,
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "memdiag-test", "version": "0"}
            }),
        );
        assert_eq!(
            answer["result"]["serverInfo"]["name"], "memdiag",
            "{answer}"
        );
        self.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    /// The text of a tool's answer, and whether it is an error.
    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> (String, bool) {
        let answer = self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        );
        let result = &answer["result"];
        assert!(result.is_object(), "{answer}");
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        (text, result["isError"] == json!(true))
    }

    /// Closes stdin and waits for the server to end on its own.
    fn finish(mut self) {
        drop(self.stdin.take());
        for _ in 0..100 {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                let _ = std::fs::remove_dir_all(&self.root);
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the server did not end when its stdin closed");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn setup(home: &Path, project: &Path) {
    write(
        &home.join(".claude/settings.json"),
        r#"{"claudeMdExcludes": ["**/vendor/CLAUDE.md"]}"#,
    );
    write(&project.join("CLAUDE.md"), "# the project\nbe brief\n");
    write(&project.join("vendor/CLAUDE.md"), "not ours\n");
    write(&project.join("src/CLAUDE.md"), "the source folder\n");
    write(&project.join("src/main.rs"), "fn main() {}\n");
    write(
        &project.join(".claude/rules/go.md"),
        "---\npaths: \"**/*.go\"\n---\ngo rules\n",
    );
    write(
        &project.join(".claude/agents/reviewer.md"),
        "---\nname: reviewer\ndescription: reviews code\n---\nreview it\n",
    );
    let key = memdiag_core::encode_project_path(project.to_str().unwrap());
    let index: String = (1..=230).map(|n| format!("- entry {n}\n")).collect();
    write(
        &home
            .join(".claude/projects")
            .join(key)
            .join("memory/MEMORY.md"),
        &index,
    );
}

#[test]
fn the_tools_answer_from_the_report() {
    let mut session = Session::start("tools", setup);
    let project = session.root.join("project");
    let project = project.to_str().unwrap();
    session.initialize();

    let list = session.request(2, "tools/list", json!({}));
    let mut names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .expect("a list of tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "every_session",
            "memory_health",
            "read_attaches",
            "subagent",
            "why"
        ]
    );

    let (text, error) = session.call(3, "why", json!({"path": "vendor/CLAUDE.md"}));
    assert!(!error, "{text}");
    assert!(
        text.starts_with(&format!("{project}/vendor/CLAUDE.md: never")),
        "{text}"
    );
    assert!(
        text.contains("claudeMdExcludes pattern \\\"**/vendor/CLAUDE.md\\\" in ")
            || text.contains("claudeMdExcludes pattern \"**/vendor/CLAUDE.md\" in "),
        "{text}"
    );
    assert!(text.contains("/home/.claude/settings.json"), "{text}");

    let (text, _) = session.call(4, "why", json!({"path": ".claude/rules/go.md"}));
    assert!(
        text.contains("no file of the project matches **/*.go"),
        "{text}"
    );

    let (text, _) = session.call(5, "read_attaches", json!({"path": "src/main.rs"}));
    assert!(text.contains("attaches 1 file(s)"), "{text}");
    assert!(text.contains(&format!("{project}/src/CLAUDE.md")), "{text}");

    let (text, _) = session.call(6, "every_session", json!({}));
    assert!(
        text.contains(&format!("\"path\": \"{project}/CLAUDE.md\"")),
        "{text}"
    );
    assert!(text.contains("MEMORY.md"), "{text}");
    assert!(!text.contains("vendor"), "{text}");

    let (text, _) = session.call(7, "memory_health", json!({}));
    assert!(text.contains("- entry 201"), "{text}");
    assert!(text.contains("\"reasons\""), "{text}");

    let (text, error) = session.call(8, "subagent", json!({"name": "reviewer"}));
    assert!(!error, "{text}");
    assert!(text.starts_with("Sub-agent reviewer ("), "{text}");
    assert!(text.contains(&format!("{project}/CLAUDE.md")), "{text}");

    let (text, _) = session.call(9, "subagent", json!({"name": "nobody"}));
    assert!(text.contains("No sub-agent named \"nobody\""), "{text}");
    assert!(text.contains("reviewer"), "{text}");

    session.finish();
}

#[test]
fn malformed_messages_get_errors_and_the_server_goes_on() {
    let mut session = Session::start("malformed", setup);
    let error_code = |message: &Value| message["error"]["code"].as_i64();

    // Before initialize: a request is refused, not a reason to stop.
    let early = session.request(1, "tools/list", json!({}));
    assert_eq!(error_code(&early), Some(-32002), "{early}");
    session.send_raw("this is not json");
    assert_eq!(error_code(&session.next()), Some(-32700));
    // An initialize without its parameters is refused; a good one after it still starts.
    let bad = session.request(2, "initialize", Value::Null);
    assert_eq!(error_code(&bad), Some(-32602), "{bad}");

    session.initialize();
    session.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\"");
    let message = session.next();
    assert_eq!(error_code(&message), Some(-32700), "{message}");
    assert_eq!(message["id"], Value::Null);
    session.send_raw("[1, 2, 3]");
    assert_eq!(error_code(&session.next()), Some(-32600));
    session.send_raw(r#"{"id": 6, "method": "tools/list"}"#);
    let message = session.next();
    assert_eq!(error_code(&message), Some(-32600), "{message}");
    assert_eq!(message["id"], 6);
    // Binary junk, then a line far over the limit.
    session.send_raw("\u{1}\u{2}\u{fffd}");
    assert_eq!(error_code(&session.next()), Some(-32700));
    session.send_raw(&"x".repeat(5 * 1024 * 1024));
    assert_eq!(error_code(&session.next()), Some(-32600));

    // Well formed but wrong: the SDK answers.
    let unknown = session.request(7, "no/such/method", json!({}));
    assert_eq!(error_code(&unknown), Some(-32601), "{unknown}");
    let answer = session.request(8, "tools/call", json!({"name": "no_such_tool"}));
    assert!(
        answer["error"].is_object() || answer["result"]["isError"] == json!(true),
        "{answer}"
    );
    let (text, error) = session.call(9, "why", json!({"path": 42}));
    assert!(error, "{text}");

    // Still serving.
    let (text, error) = session.call(10, "why", json!({"path": "CLAUDE.md"}));
    assert!(!error, "{text}");
    assert!(text.contains("every-session"), "{text}");
    session.finish();
}
