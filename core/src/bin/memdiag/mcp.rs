//! `memdiag mcp`: a stdio MCP server (the official Rust SDK, `rmcp`) whose tools answer from
//! the report `memdiag` builds for the session's project.
//!
//! Tools: `every_session` (the files and parts every session carries, with figures),
//! `read_attaches(path)` (what a Read of that file attaches, in order), `why(path)` (whether
//! and when a file loads and, if not, the exact reason: [`memdiag_core::why`]),
//! `memory_health` (the five reasons, the cut with the lost lines, growth) and
//! `subagent(name)` (what that sub-agent receives). Every call runs a fresh analysis, exactly
//! as `memdiag` with the same flags would ([`local::scan`]), so an answer never lags behind
//! a file the session just wrote.
//!
//! The project is `--project`, else `CLAUDE_PROJECT_DIR` (which Claude Code sets for the
//! servers it starts), else the current folder; every other flag of the scan command applies
//! (`--home`, `--mount`, `--claude-version`, …).
//!
//! **Bounded and robust.** A call that takes more than [`CALL_LIMIT`] answers with a tool
//! error and the analysis is abandoned. Standard input passes through [`guard`] before the
//! SDK sees it: a line that is not JSON gets a JSON-RPC parse error (`-32700`), a request
//! before `initialize` gets `-32002`, a line over [`MAX_LINE_BYTES`] gets `-32600`; none of
//! them ends the server. Nothing here runs a hook or server found in the user's setup.

use std::process::ExitCode;
use std::time::Duration;

use memdiag_core::report::{Code, Report};
use memdiag_core::Input;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{schemars, tool, tool_handler, tool_router, ErrorData, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::local::{self, Sources};

/// The longest one tool call may take.
pub(crate) const CALL_LIMIT: Duration = Duration::from_secs(2);
/// The longest line of standard input read; a longer one is answered with an error.
const MAX_LINE_BYTES: u64 = 4 * 1024 * 1024;
/// The most characters one answer carries; past it the answer says it was cut.
const MAX_ANSWER_CHARS: usize = 60_000;

const INSTRUCTIONS: &str = "memdiag reproduces which instruction and memory files Claude \
Code loads in this project, and when. Ask `why` when a CLAUDE.md, rule, memory file, skill \
or agent did not seem to load; `read_attaches` for what reading a file brings in; \
`every_session` for what every session carries; `memory_health` when auto memory looks \
off; `subagent` for what a sub-agent receives.";

/// Runs the server until standard input closes.
pub(crate) fn main(args: &[String]) -> ExitCode {
    // A panic in an analysis ends the process (the release build aborts): say why first, in
    // the hooks' log, since stderr is Claude Code's.
    std::panic::set_hook(Box::new(|info| {
        crate::hook::log("mcp", &format!("panic: {info}"))
    }));
    let (input, sources) = match inputs(args) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("memdiag: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .max_blocking_threads(4)
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("memdiag: cannot start the MCP server: {error}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(serve(Server::new(input, sources))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("memdiag: mcp: {message}");
            ExitCode::from(1)
        }
    }
}

/// The scan's inputs from the flags after `mcp`, with `CLAUDE_PROJECT_DIR` as the default
/// project.
fn inputs(args: &[String]) -> Result<(Input, Sources), String> {
    let mut args = args.to_vec();
    let names_project = args
        .iter()
        .any(|a| a == "--project" || a.starts_with("--project=") || a == "--mount");
    if !names_project {
        if let Some(dir) = std::env::var_os("CLAUDE_PROJECT_DIR").filter(|d| !d.is_empty()) {
            let dir = dir
                .into_string()
                .map_err(|_| "CLAUDE_PROJECT_DIR is not valid UTF-8".to_owned())?;
            args.extend(["--project".to_owned(), dir]);
        }
    }
    match crate::parse_args(&args, &crate::Host::from_env())? {
        crate::Command::Scan(scan) => {
            if scan.share.is_some() {
                return Err("mcp takes no --share-* option".to_owned());
            }
            Ok((scan.input, scan.sources))
        }
        crate::Command::Help | crate::Command::Version => {
            Err("usage: memdiag mcp [--project P] [the scan's options]".to_owned())
        }
    }
}

/// Serves the tools over standard input and output, through [`guard`].
async fn serve(server: Server) -> Result<(), String> {
    // The SDK reads from `to_sdk` and writes to `from_sdk`; the pumps below join them to the
    // process's own streams.
    let (sdk_in, mut to_sdk) = tokio::io::duplex(64 * 1024);
    let (mut from_sdk, sdk_out) = tokio::io::duplex(64 * 1024);
    let (lines, mut outgoing) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = outgoing.recv().await {
            if stdout.write_all(&line).await.is_err() || stdout.flush().await.is_err() {
                break;
            }
        }
    });
    let answers = lines.clone();
    let relay = tokio::spawn(async move {
        let mut reader = BufReader::new(&mut from_sdk);
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if answers.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let reader = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut state = Guard::default();
        loop {
            let mut line = Vec::new();
            let read = (&mut stdin)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut line)
                .await;
            match read {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.len() as u64 > MAX_LINE_BYTES && !line.ends_with(b"\n") {
                // Too long: skip to the end of the line, then say so.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    match (&mut stdin)
                        .take(64 * 1024)
                        .read_until(b'\n', &mut rest)
                        .await
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) if rest.ends_with(b"\n") => break,
                        Ok(_) => {}
                    }
                }
                let _ = lines.send(error_line(
                    &Value::Null,
                    -32600,
                    "the message is over the 4 MiB memdiag reads",
                ));
                continue;
            }
            match guard(&mut state, &line) {
                Verdict::Forward => {
                    if to_sdk.write_all(&line).await.is_err() {
                        break;
                    }
                    if !line.ends_with(b"\n") && to_sdk.write_all(b"\n").await.is_err() {
                        break;
                    }
                }
                Verdict::Answer(answer) => {
                    let _ = lines.send(answer);
                }
                Verdict::Skip => {}
            }
        }
        // Standard input closed: so does the SDK's.
        let _ = to_sdk.shutdown().await;
    });
    let outcome = match server.serve((sdk_in, sdk_out)).await {
        Ok(running) => running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|error| format!("the server stopped: {error}")),
        // Standard input closed before `initialize`: nothing to serve.
        Err(_) if reader.is_finished() => Ok(()),
        Err(error) => Err(format!("the session did not start: {error}")),
    };
    // The writer ends once every sender is gone: the reader's and the relay's.
    reader.abort();
    let _ = relay.await;
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
    outcome
}

/// What [`guard`] decides for a line of standard input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Pass it to the SDK.
    Forward,
    /// Answer it here, with this line.
    Answer(Vec<u8>),
    /// Drop it (an empty line, a notification before `initialize`).
    Skip,
}

/// What [`guard`] remembers between lines.
#[derive(Debug, Default)]
pub(crate) struct Guard {
    /// An `initialize` request has gone through.
    initialized: bool,
}

/// Decides what to do with one line of standard input: JSON-RPC errors for what the SDK
/// would drop silently or stop on.
pub(crate) fn guard(state: &mut Guard, line: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if text.is_empty() {
        return Verdict::Skip;
    }
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Verdict::Answer(error_line(&Value::Null, -32700, "parse error: not JSON"));
    };
    let Some(object) = value.as_object() else {
        return Verdict::Answer(error_line(
            &Value::Null,
            -32600,
            "invalid request: a message is one JSON object (batches are not supported)",
        ));
    };
    let id = object.get("id").cloned();
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Verdict::Answer(error_line(
            id.as_ref().unwrap_or(&Value::Null),
            -32600,
            "invalid request: jsonrpc must be \"2.0\"",
        ));
    }
    let method = object.get("method").and_then(Value::as_str);
    if state.initialized {
        return Verdict::Forward;
    }
    match (method, id) {
        (Some("initialize"), Some(_)) => {
            state.initialized = true;
            Verdict::Forward
        }
        (Some(_), Some(id)) => Verdict::Answer(error_line(
            &id,
            -32002,
            "the server is not initialized: send initialize first",
        )),
        // A notification, or a response to nothing, before the session starts.
        _ => Verdict::Skip,
    }
}

/// One JSON-RPC error response, as a line.
fn error_line(id: &Value, code: i64, message: &str) -> Vec<u8> {
    let mut line = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    })
    .to_string()
    .into_bytes();
    line.push(b'\n');
    line
}

/// The tools, over the inputs of one project.
#[derive(Clone)]
pub(crate) struct Server {
    input: Input,
    sources: Sources,
    tool_router: ToolRouter<Self>,
}

/// A path, absolute or relative to the project (`~/` for the home folder).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct PathArg {
    /// The file: absolute, relative to the project, or starting with `~/`.
    pub(crate) path: String,
}

/// A sub-agent's name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct NameArg {
    /// The agent's name, as in its definition's `name:` (or its file name).
    pub(crate) name: String,
}

#[tool_router]
impl Server {
    fn new(input: Input, sources: Sources) -> Server {
        Server {
            input,
            sources,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "The files and parts every session of this project carries, in the order \
                       Claude Code sends them, with their sizes (characters as Claude Code \
                       counts them, UTF-16 units) and the estimated tokens; what can load later."
    )]
    async fn every_session(&self) -> Result<CallToolResult, ErrorData> {
        self.answer(None, every_session).await
    }

    #[tool(
        description = "What a Read of this file attaches in this project, beyond what the \
                       session already carries: nested CLAUDE.md files, their rules, \
                       conditional rules whose paths match, skills, in the order Claude Code \
                       sends them, with their sizes."
    )]
    async fn read_attaches(
        &self,
        Parameters(PathArg { path }): Parameters<PathArg>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(Some(path), |report| {
            let answer = report.reads.first();
            let summary = match answer {
                Some(read) if read.files.is_empty() && read.skills.is_empty() => format!(
                    "A Read of {} attaches nothing{}.",
                    read.path,
                    read.note
                        .as_deref()
                        .map_or_else(String::new, |n| format!(": {n}"))
                ),
                Some(read) => format!(
                    "A Read of {} attaches {} file(s) and {} skill line(s), {} characters.",
                    read.path,
                    read.files.len(),
                    read.skills.len(),
                    read.cost.total()
                ),
                None => "No answer for that path.".to_owned(),
            };
            (summary, json!(answer))
        })
        .await
    }

    #[tool(
        description = "Whether and when a file (CLAUDE.md, CLAUDE.local.md, rule, import, \
                       MEMORY.md or topic file, skill, agent) loads in this project and, if \
                       not, the exact reason: excluded by a claudeMdExcludes pattern (and the \
                       settings file), import needs approval, past the import depth, over 4 \
                       MiB, paths match no file, outside the working directory, shadowed, \
                       a skill too deep, the memory index's caps."
    )]
    async fn why(
        &self,
        Parameters(PathArg { path }): Parameters<PathArg>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(None, move |report| {
            let answer = memdiag_core::why(report, &path);
            let loads = serde_json::to_value(answer.loads).unwrap_or(Value::Null);
            let mut summary = format!(
                "{}: {} ({})",
                answer.path,
                loads.as_str().unwrap_or("?"),
                answer.when
            );
            for reason in &answer.reasons {
                summary.push_str("\n- ");
                summary.push_str(reason);
            }
            (summary, json!(answer))
        })
        .await
    }

    #[tool(
        description = "Auto memory's health in this project: the five reasons memory can look \
                       off (a different folder, nothing saved, switched off, sub-agents, the \
                       index cut), the index lines past the caps that never load, each memory \
                       folder's figures and growth."
    )]
    async fn memory_health(&self) -> Result<CallToolResult, ErrorData> {
        self.answer(None, memory_health).await
    }

    #[tool(
        description = "What a sub-agent of this name receives when spawned: its definition, the \
                       instruction files of its instruction block, the session's skills listing, \
                       its own memory index."
    )]
    async fn subagent(
        &self,
        Parameters(NameArg { name }): Parameters<NameArg>,
    ) -> Result<CallToolResult, ErrorData> {
        self.answer(None, move |report| {
            let found: Vec<_> = report
                .health
                .agents
                .iter()
                .filter(|agent| agent.name == name)
                .collect();
            let summary = match found.iter().find(|a| a.shadowed_by.is_none()) {
                Some(agent) => format!(
                    "Sub-agent {} ({}) receives {} instruction file(s), the session's skills \
                     listing ({} characters, no listing of agent types){}.",
                    agent.name,
                    agent.path,
                    agent.receives.len(),
                    agent.skills_listing.total(),
                    match &agent.memory_index {
                        Some(index) =>
                            format!(" and its own memory index ({} characters)", index.utf16),
                        None => String::new(),
                    }
                ),
                None if found.is_empty() => {
                    let names: Vec<&str> = report
                        .health
                        .agents
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect();
                    format!(
                        "No sub-agent named {name:?} is defined; the defined ones: {}.",
                        if names.is_empty() {
                            "none".to_owned()
                        } else {
                            names.join(", ")
                        }
                    )
                }
                None => format!("Every definition of {name:?} is shadowed."),
            };
            (summary, json!(found))
        })
        .await
    }
}

impl Server {
    /// Runs a fresh analysis (answering a Read of `read` when given) off the async thread,
    /// within [`CALL_LIMIT`], and shapes its answer with `shape`: a summary, then the JSON.
    async fn answer<F>(&self, read: Option<String>, shape: F) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce(&Report) -> (String, Value) + Send + 'static,
    {
        let mut input = self.input.clone();
        input.reads = read.into_iter().collect();
        let sources = self.sources.clone();
        let work = tokio::task::spawn_blocking(move || {
            local::scan(&input, &sources).map(|report| shape(&report))
        });
        let text = match tokio::time::timeout(CALL_LIMIT, work).await {
            Ok(Ok(Ok((summary, value)))) => {
                let json = serde_json::to_string_pretty(&value).unwrap_or_default();
                format!("{summary}\n\n{json}")
            }
            Ok(Ok(Err(message))) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "memdiag could not analyse this project: {message}"
                ))]))
            }
            Ok(Err(_)) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(
                    "memdiag failed while analysing this project",
                )]))
            }
            Err(_) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(
                    "memdiag gave up after its 2-second limit: the setup is too large to \
                     analyse in time (run memdiag in a terminal)",
                )]))
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(bounded(
            text,
        ))]))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("memdiag", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}

/// The `every_session` answer.
fn every_session(report: &Report) -> (String, Value) {
    let session = &report.session;
    let files: Vec<Value> = session
        .files
        .iter()
        .map(|file| {
            json!({
                "path": file.path,
                "label": file.label.map(|l| l.text().trim().trim_matches(['(', ')'])),
                "chars": file.loaded.utf16,
                "lines": file.loaded.lines,
                "bytes": file.loaded.bytes,
            })
        })
        .collect();
    let cost = session.cost;
    let summary = format!(
        "Every session of {} carries {} instruction file(s), {} skill listing line(s) and {} \
         sub-agent line(s): {} characters in all, about {} tokens (estimated: characters / 4), \
         on Claude Code {}.",
        report.context.project.as_deref().unwrap_or("(no project)"),
        session.files.len(),
        session.skills.len(),
        session.agents.len(),
        cost.total.total(),
        cost.tokens_estimate,
        report.context.version
    );
    let value = json!({
        "project": report.context.project,
        "release": report.context.version,
        "files": files,
        "skills": session.skills,
        "agents": session.agents,
        "memory_dir": session.memory_dir,
        "cost": {
            "instruction_block": cost.instruction_block,
            "skills_listing": cost.skills_listing,
            "memory_section": cost.memory_section,
            "agents": cost.agents,
            "total": cost.total,
            "tokens_estimate": cost.tokens_estimate,
        },
        "later": session.later,
    });
    (summary, value)
}

/// The `memory_health` answer.
fn memory_health(report: &Report) -> (String, Value) {
    let health = &report.health;
    let off: Vec<&str> = health
        .reasons
        .iter()
        .filter(|r| !r.ok)
        .map(|r| r.title.as_str())
        .collect();
    let cuts: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| matches!(d.code, Code::MemoryIndexTruncated | Code::MemoryTopicCutOff))
        .collect();
    let mut summary = if off.is_empty() {
        "None of the five reasons applies: auto memory looks as it should.".to_owned()
    } else {
        format!(
            "{} of the five reasons apply: {}",
            off.len(),
            off.join("; ")
        )
    };
    for cut in &cuts {
        summary.push_str("\n- ");
        summary.push_str(&cut.message);
    }
    let value = json!({
        "reasons": health.reasons,
        "cuts": cuts,
        "memories": health.memories,
    });
    (summary, value)
}

/// `text` in at most [`MAX_ANSWER_CHARS`] characters, saying so when cut.
fn bounded(text: String) -> String {
    if text.chars().count() <= MAX_ANSWER_CHARS {
        return text;
    }
    let mut out: String = text.chars().take(MAX_ANSWER_CHARS).collect();
    out.push_str("\n… (cut: the answer is longer; run memdiag --format json for all of it)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(state: &mut Guard, line: &str) -> Verdict {
        guard(state, line.as_bytes())
    }

    fn code_of(verdict: &Verdict) -> Option<i64> {
        match verdict {
            Verdict::Answer(line) => {
                serde_json::from_slice::<Value>(line).ok()?["error"]["code"].as_i64()
            }
            _ => None,
        }
    }

    #[test]
    fn malformed_lines_get_json_rpc_errors() {
        let mut state = Guard::default();
        assert_eq!(code_of(&decided(&mut state, "{not json")), Some(-32700));
        assert_eq!(code_of(&decided(&mut state, "[1, 2]")), Some(-32600));
        assert_eq!(
            code_of(&decided(&mut state, r#"{"id":1,"method":"initialize"}"#)),
            Some(-32600)
        );
        assert_eq!(
            code_of(&decided(
                &mut state,
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#
            )),
            Some(-32002)
        );
        assert_eq!(decided(&mut state, "   "), Verdict::Skip);
        assert_eq!(
            decided(
                &mut state,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
            ),
            Verdict::Skip
        );
        assert_eq!(
            decided(
                &mut state,
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
            ),
            Verdict::Forward
        );
        // After initialize, the SDK answers everything well formed.
        assert_eq!(
            decided(&mut state, r#"{"jsonrpc":"2.0","id":2,"method":"nope"}"#),
            Verdict::Forward
        );
        assert_eq!(code_of(&decided(&mut state, "}")), Some(-32700));
    }

    #[test]
    fn long_answers_are_cut_and_say_so() {
        let text = "x".repeat(MAX_ANSWER_CHARS + 10);
        let cut = bounded(text);
        assert!(cut.ends_with("for all of it)"));
        assert_eq!(bounded("short".to_owned()), "short");
    }
}
