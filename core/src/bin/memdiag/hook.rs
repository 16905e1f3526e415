//! memdiag inside Claude Code: `memdiag hook session-start`, `memdiag hook post-tool-use` and
//! `memdiag statusline`, each reading the JSON Claude Code writes on stdin.
//!
//! - `hook session-start` analyses the session's project exactly as `memdiag` does in that
//!   folder ([`crate::project_scan`], [`local::scan`]) and, only when the verdict has lines
//!   that cut or drop instructions, prints them as the hook's `additionalContext` (at most
//!   [`MAX_CONTEXT_CHARS`] characters, most harmful first) with a one-line `systemMessage`.
//! - `hook post-tool-use`, after a `Write`, `Edit` or `MultiEdit` of a `MEMORY.md`, a
//!   `CLAUDE.md` or `CLAUDE.local.md`, or a rule, reads that one file and nothing else and
//!   says how much room it has left under Claude Code's caps ([`caps::cut_index`]).
//! - `hook instructions-loaded` (Claude Code 2.1.69 and later) appends the event's fields
//!   (`file_path`, `memory_type`, `load_reason`, `trigger_file_path`, `parent_file_path`,
//!   with the session and the sub-agent it came from) as one JSON line to
//!   `<config>/memdiag/instructions-loaded.jsonl` ([`MAX_EVENT_LOG_BYTES`], one older file
//!   kept), which `memdiag verify` compares with memdiag's prediction.
//! - `statusline` prints `mem 188/200 · 23.9k/25k` for the project's memory index, found by
//!   the analysis once and then cached by the index's path, size and modification time.
//!
//! **Failure never reaches the session.** Whatever goes wrong (stdin that is not the JSON
//! expected, a missing folder, a panic, more than [`TIME_LIMIT`]), the command exits 0 with
//! nothing on stdout and writes one line to `<config>/memdiag/hooks.log` (bounded to
//! [`MAX_LOG_BYTES`], one older file kept). Nothing here runs anything it finds in the
//! user's setup or sends anything anywhere.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use memdiag_core::caps;
use memdiag_core::report::{Group, Harm, LoadType, Report, Truncation};
use serde_json::{json, Map, Value};

use crate::local;

/// The longest a hook or the status line may take before it gives up, silently.
pub(crate) const TIME_LIMIT: Duration = Duration::from_secs(2);
/// The most `additionalContext` the session-start hook adds to every session, in characters.
pub(crate) const MAX_CONTEXT_CHARS: usize = 400;
/// The most of stdin read: a `Write` payload carries the file's whole text, twice.
const MAX_STDIN_BYTES: u64 = 8 * 1024 * 1024;
/// The log is moved to `hooks.log.old` when it grows past this.
const MAX_LOG_BYTES: u64 = 64 * 1024;
/// The InstructionsLoaded log is moved to `instructions-loaded.jsonl.old` past this.
pub(crate) const MAX_EVENT_LOG_BYTES: u64 = 1024 * 1024;
/// The log of InstructionsLoaded events, under `<config>/memdiag/`.
pub(crate) const EVENT_LOG: &str = "instructions-loaded.jsonl";
/// How long the status line trusts "this project has no memory index" before looking again.
const NO_INDEX_RECHECK_SECONDS: u64 = 60;
/// The most projects the status line's cache remembers.
const MAX_CACHED_PROJECTS: usize = 64;

/// Held while the answer is written, so the time limit never cuts a line of JSON in half.
static WRITING: Mutex<()> = Mutex::new(());

/// What `memdiag hook …` or `memdiag statusline` was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subcommand {
    SessionStart,
    PostToolUse,
    InstructionsLoaded,
    StatusLine,
}

impl Subcommand {
    /// The subcommand the arguments after `memdiag` name, if they name one.
    pub(crate) fn of(args: &[String]) -> Option<Result<Subcommand, String>> {
        match args {
            [first, ..] if first == "statusline" => Some(match args.len() {
                1 => Ok(Subcommand::StatusLine),
                _ => Err("statusline takes no arguments".to_owned()),
            }),
            [first, rest @ ..] if first == "hook" => Some(match rest {
                [event] if event == "session-start" => Ok(Subcommand::SessionStart),
                [event] if event == "post-tool-use" => Ok(Subcommand::PostToolUse),
                [event] if event == "instructions-loaded" => Ok(Subcommand::InstructionsLoaded),
                _ => Err(
                    "usage: memdiag hook session-start|post-tool-use|instructions-loaded"
                        .to_owned(),
                ),
            }),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Subcommand::SessionStart => "hook session-start",
            Subcommand::PostToolUse => "hook post-tool-use",
            Subcommand::InstructionsLoaded => "hook instructions-loaded",
            Subcommand::StatusLine => "statusline",
        }
    }
}

/// Runs a subcommand under the rules above: exit 0 always, stdout only for an answer.
pub(crate) fn main(subcommand: Subcommand) -> ExitCode {
    let name = subcommand.name();
    std::panic::set_hook(Box::new(move |info| {
        log(name, &format!("panic: {info}"));
        // The release build aborts on a panic, past any `catch_unwind`: end cleanly first.
        if cfg!(panic = "abort") {
            std::process::exit(0);
        }
    }));
    std::thread::spawn(move || {
        std::thread::sleep(TIME_LIMIT);
        let _writing = WRITING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        log(name, "gave up after the 2 s time limit");
        std::process::exit(0);
    });
    let answer = std::panic::catch_unwind(|| {
        let stdin = read_stdin()?;
        // Debug builds only: lets the tests reach the panic path.
        if cfg!(debug_assertions) && std::env::var_os("MEMDIAG_HOOK_TEST_PANIC").is_some() {
            panic!("MEMDIAG_HOOK_TEST_PANIC is set");
        }
        match subcommand {
            Subcommand::SessionStart => session_start(&stdin),
            Subcommand::PostToolUse => post_tool_use(&stdin),
            Subcommand::InstructionsLoaded => instructions_loaded(&stdin),
            Subcommand::StatusLine => status_line(&stdin),
        }
    });
    let _writing = WRITING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match answer {
        Ok(Ok(Some(text))) => {
            let mut stdout = std::io::stdout().lock();
            if let Err(error) = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.write_all(b"\n"))
                .and_then(|()| stdout.flush())
            {
                log(name, &format!("cannot write to stdout: {error}"));
            }
        }
        Ok(Ok(None)) => {}
        Ok(Err(message)) => log(name, &message),
        // The panic hook has logged it.
        Err(_) => {}
    }
    ExitCode::SUCCESS
}

/// The hook's answer for a session starting in `cwd`: nothing unless instructions are cut
/// or dropped.
fn session_start(stdin: &str) -> Result<Option<String>, String> {
    let payload = parse(stdin)?;
    let cwd = text_at(&payload, "/cwd")?.ok_or("the payload has no cwd")?;
    let report = scan_project(cwd)?;
    Ok(session_start_answer(&report))
}

/// The SessionStart output for `report`, or `None` when nothing is cut or dropped.
pub(crate) fn session_start_answer(report: &Report) -> Option<String> {
    let lines: Vec<String> = report
        .verdict
        .iter()
        .filter(|line| matches!(line.harm, Harm::Cuts | Harm::Drops))
        .map(|line| one_line(&line.message))
        .collect();
    let first = lines.first()?;
    let context = bounded_list(
        "memdiag: in this project, instructions the user wrote do not reach you:",
        &lines,
        MAX_CONTEXT_CHARS,
    );
    let more = match lines.len() - 1 {
        0 => String::new(),
        n => format!(" (and {n} more: run memdiag)"),
    };
    let message = format!("memdiag: {}{more}", cut_chars(first, 200));
    Some(
        json!({
            "systemMessage": message,
            "hookSpecificOutput": {
                "hookEventName": "SessionStart",
                "additionalContext": context,
            },
        })
        .to_string(),
    )
}

/// `header`, then one `- line` per line while they fit in `limit` characters, then how many
/// did not: the first line is shortened rather than left out.
pub(crate) fn bounded_list(header: &str, lines: &[String], limit: usize) -> String {
    let mut out = header.to_owned();
    for (index, line) in lines.iter().enumerate() {
        let after = lines.len() - index - 1;
        let tail = |left: usize| match left {
            0 => String::new(),
            n => format!("\n({n} more: run memdiag)"),
        };
        let item = format!("\n- {line}");
        if chars(&out) + chars(&item) + chars(&tail(after)) <= limit {
            out.push_str(&item);
            continue;
        }
        if index == 0 {
            let room = limit.saturating_sub(chars(&out) + chars(&tail(after)));
            out.push_str(&cut_chars(&item, room));
            out.push_str(&tail(after));
        } else {
            out.push_str(&tail(after + 1));
        }
        break;
    }
    out
}

/// Appends the event to the InstructionsLoaded log; answers nothing.
fn instructions_loaded(stdin: &str) -> Result<Option<String>, String> {
    let payload = parse(stdin)?;
    let when = local::iso_8601_utc(SystemTime::now()).unwrap_or_default();
    let line = event_line(&payload, &when, &SessionFacts::from_env())?;
    let dir = config_dir()
        .ok_or("no home folder to keep the log in")?
        .join("memdiag");
    let file = dir.join(EVENT_LOG);
    if fs::metadata(&file).is_ok_and(|m| m.len() > MAX_EVENT_LOG_BYTES) {
        let _ = fs::rename(&file, dir.join(format!("{EVENT_LOG}.old")));
    }
    fs::create_dir_all(&dir)
        .and_then(|()| {
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&file)?
                .write_all(line.as_bytes())
        })
        .map_err(|error| format!("cannot write {}: {error}", file.display()))?;
    Ok(None)
}

/// What the hook's environment says about the session, beside the payload.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SessionFacts {
    /// The release, from `AI_AGENT=claude-code_2-1-328_harness` (2.1.328 and 2.1.337 set it
    /// for hooks).
    pub(crate) release: Option<String>,
    /// `CLAUDE_CODE_ENTRYPOINT`: `cli` for an interactive session, `sdk-cli` for `claude -p`.
    pub(crate) entrypoint: Option<String>,
}

impl SessionFacts {
    fn from_env() -> SessionFacts {
        SessionFacts {
            release: std::env::var("AI_AGENT")
                .ok()
                .as_deref()
                .and_then(release_of),
            entrypoint: std::env::var("CLAUDE_CODE_ENTRYPOINT").ok(),
        }
    }
}

/// `2.1.328` from `claude-code_2-1-328_harness`; `None` for anything else.
pub(crate) fn release_of(ai_agent: &str) -> Option<String> {
    let rest = ai_agent.strip_prefix("claude-code_")?;
    let version = rest.split('_').next()?.replace('-', ".");
    let numeric = |p: &&str| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = version.split('.').collect();
    (parts.len() == 3 && parts.iter().all(numeric)).then_some(version)
}

/// The log's line for one InstructionsLoaded payload: the fields `memdiag verify` reads,
/// each text bounded, in a fixed order, ending in a newline.
pub(crate) fn event_line(
    payload: &Value,
    when: &str,
    session: &SessionFacts,
) -> Result<String, String> {
    const FIELDS: [&str; 9] = [
        "session_id",
        "cwd",
        "agent_id",
        "agent_type",
        "file_path",
        "memory_type",
        "load_reason",
        "trigger_file_path",
        "parent_file_path",
    ];
    if let Some(event) = text_at(payload, "/hook_event_name")? {
        if event != "InstructionsLoaded" {
            return Err(format!("the payload is a {event} event"));
        }
    }
    text_at(payload, "/file_path")?.ok_or("the payload has no file_path")?;
    let mut line = Map::new();
    line.insert("time".to_owned(), Value::String(when.to_owned()));
    for field in FIELDS {
        if let Some(text) = text_at(payload, &format!("/{field}"))? {
            line.insert(field.to_owned(), Value::String(cut_chars(text, 4096)));
        }
    }
    if let Some(Value::Array(globs)) = payload.get("globs") {
        let globs: Vec<Value> = globs
            .iter()
            .filter_map(Value::as_str)
            .take(64)
            .map(|g| Value::String(cut_chars(g, 1024)))
            .collect();
        line.insert("globs".to_owned(), Value::Array(globs));
    }
    if let Some(release) = &session.release {
        line.insert("release".to_owned(), Value::String(release.clone()));
    }
    if let Some(entrypoint) = &session.entrypoint {
        line.insert(
            "entrypoint".to_owned(),
            Value::String(cut_chars(entrypoint, 64)),
        );
    }
    let mut text = Value::Object(line).to_string();
    text.push('\n');
    Ok(text)
}

/// The config folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub(crate) fn config_dir() -> Option<PathBuf> {
    let host = crate::Host::from_env();
    match (&host.config_dir, &host.home) {
        (Some(dir), _) => Some(PathBuf::from(dir)),
        (None, Some(home)) => Some(PathBuf::from(home).join(".claude")),
        (None, None) => None,
    }
}

/// The hook's answer after a tool wrote a file: the headroom of a memory index, an
/// instruction file or a rule; nothing for any other file or tool.
fn post_tool_use(stdin: &str) -> Result<Option<String>, String> {
    let payload = parse(stdin)?;
    let tool = text_at(&payload, "/tool_name")?.ok_or("the payload has no tool_name")?;
    if !matches!(tool, "Write" | "Edit" | "MultiEdit") {
        return Ok(None);
    }
    let file = text_at(&payload, "/tool_input/file_path")?
        .ok_or("the payload has no tool_input.file_path")?;
    let mut path = PathBuf::from(file);
    if path.is_relative() {
        let cwd = text_at(&payload, "/cwd")?.ok_or("a relative file_path and no cwd")?;
        path = Path::new(cwd).join(path);
    }
    let Some(kind) = kind_of(&path) else {
        return Ok(None);
    };
    let bytes = read_capped(&path)?;
    let text = String::from_utf8_lossy(&bytes);
    let (context, message) = match kind {
        Watched::Index => index_headroom(&text),
        Watched::Instructions => (instructions_size(&path, bytes.len() as u64, &text), None),
    };
    let mut answer = json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": context,
        },
    });
    if let Some(message) = message {
        answer["systemMessage"] = Value::String(message);
    }
    Ok(Some(answer.to_string()))
}

/// The files the post-tool-use hook speaks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Watched {
    /// A `MEMORY.md`: the auto memory's index or an agent's, wherever `autoMemoryDirectory`
    /// puts it.
    Index,
    /// A `CLAUDE.md`, a `CLAUDE.local.md`, or a Markdown file under a `.claude/rules/`.
    Instructions,
}

/// Which kind of watched file `path` is, by its name alone.
pub(crate) fn kind_of(path: &Path) -> Option<Watched> {
    let name = path.file_name()?.to_str()?;
    if name == "MEMORY.md" {
        return Some(Watched::Index);
    }
    if name == "CLAUDE.md" || name == "CLAUDE.local.md" {
        return Some(Watched::Instructions);
    }
    let names: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let in_rules = names.windows(2).any(|w| w == [".claude", "rules"]);
    (in_rules && name.ends_with(".md")).then_some(Watched::Instructions)
}

/// "MEMORY.md 188/200 lines, 23.9k/25k characters: 12 lines left", and, when the caps cut,
/// which lines are past them (with a one-line message for the person too).
pub(crate) fn index_headroom(raw: &str) -> (String, Option<String>) {
    let cut = caps::cut_index(raw);
    let figures = figures(&cut);
    let Some(first) = cut.first_dropped_line.filter(|_| cut.cut_by.is_some()) else {
        let lines_left = caps::MAX_LINES.saturating_sub(cut.total_lines);
        let chars_left = caps::MAX_UTF16.saturating_sub(cut.total_utf16);
        // The cap that comes first at this index's average line length.
        let average = cut.total_utf16.div_ceil(cut.total_lines.max(1)).max(1);
        let left = if chars_left / average < lines_left {
            format!(
                "{} characters left (about {} lines of this length)",
                short(chars_left),
                chars_left / average
            )
        } else {
            format!("{lines_left} lines left")
        };
        return (format!("MEMORY.md {figures}: {left}"), None);
    };
    let last = raw.lines().count().max(first as usize);
    let past = if last as u64 > first {
        format!("lines {first}-{last} of the file are")
    } else {
        format!("line {first} of the file is")
    };
    let which = match cut.cut_by {
        Some(memdiag_core::report::CutBy::Size) => "the 25,000-character cap",
        _ => "the 200-line cap",
    };
    let context = format!(
        "MEMORY.md {figures}: over {which}. {} past it and no longer load in any \
         session. Keep one short line per entry and move detail into topic files.",
        capitalized(&past)
    );
    let message = format!("memdiag: MEMORY.md is over {which}: {past} no longer loaded");
    (context, Some(message))
}

/// "188/200 lines, 23.9k/25k characters".
fn figures(cut: &Truncation) -> String {
    format!(
        "{}/{} lines, {}/{} characters",
        cut.total_lines,
        caps::MAX_LINES,
        short(cut.total_utf16),
        short(caps::MAX_UTF16)
    )
}

/// How large an instruction file or rule is against Claude Code's large-file warning.
fn instructions_size(path: &Path, bytes: u64, text: &str) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    if bytes > caps::CLAUDE_MD_MAX_BYTES {
        return format!(
            "{name} is over the 4 MiB Claude Code loads: it is skipped entirely, not one line \
             of it reaches you"
        );
    }
    let units = text.encode_utf16().count() as u64;
    let tokens = short(units / 4);
    if units > caps::LARGE_FILE_CHARS {
        format!(
            "{name} {}/{} characters as written: over the size at which Claude Code warns it \
             will impact performance; about {tokens} tokens each time it loads",
            short(units),
            short(caps::LARGE_FILE_CHARS)
        )
    } else {
        format!(
            "{name} {}/{} characters as written before Claude Code's large-file warning, about \
             {tokens} tokens each time it loads",
            short(units),
            short(caps::LARGE_FILE_CHARS)
        )
    }
}

/// The status line's segment for the project of the payload, from the cache when the index
/// has not changed.
fn status_line(stdin: &str) -> Result<Option<String>, String> {
    let payload = parse(stdin)?;
    let dir = match text_at(&payload, "/workspace/current_dir")? {
        Some(dir) => dir,
        None => text_at(&payload, "/cwd")?.ok_or("the payload has no workspace.current_dir")?,
    };
    let cache_file = cache_file();
    let mut cache = cache_file.as_deref().map(read_cache).unwrap_or_default();
    let now = now_seconds();
    if let Some(entry) = cache.get(dir).cloned() {
        match entry.get("index").and_then(Value::as_str) {
            Some(index) => {
                if let Some(stamp) = stamp_of(Path::new(index)) {
                    if entry.get("stamp") == Some(&stamp) {
                        return Ok(entry
                            .get("segment")
                            .and_then(Value::as_str)
                            .map(str::to_owned));
                    }
                    // The index changed: measure it again, no analysis needed.
                    let bytes = read_capped(Path::new(index))?;
                    let segment = segment(&caps::cut_index(&String::from_utf8_lossy(&bytes)));
                    remember(&mut cache, dir, Some(index), Some(stamp), &segment, now);
                    save_cache(cache_file.as_deref(), &cache);
                    return Ok(Some(segment));
                }
            }
            None => {
                let checked = entry.get("checked").and_then(Value::as_u64).unwrap_or(0);
                if now.saturating_sub(checked) < NO_INDEX_RECHECK_SECONDS {
                    return Ok(None);
                }
            }
        }
    }
    // First time here, or the index moved: the analysis finds the memory folder.
    let report = scan_project(dir)?;
    let row = report.files.iter().find(|row| {
        row.group == Group::AutoMemory && row.load == LoadType::Startup && row.truncation.is_some()
    });
    let found = row.and_then(|row| row.truncation.as_ref().map(|cut| (row.path.as_str(), cut)));
    let Some((index, cut)) = found else {
        remember(&mut cache, dir, None, None, "", now);
        save_cache(cache_file.as_deref(), &cache);
        return Ok(None);
    };
    let segment = segment(cut);
    remember(
        &mut cache,
        dir,
        Some(index),
        stamp_of(Path::new(index)),
        &segment,
        now,
    );
    save_cache(cache_file.as_deref(), &cache);
    Ok(Some(segment))
}

/// `mem 188/200 · 23.9k/25k`.
pub(crate) fn segment(cut: &Truncation) -> String {
    format!(
        "mem {}/{} · {}/{}",
        cut.total_lines,
        caps::MAX_LINES,
        short(cut.total_utf16),
        short(caps::MAX_UTF16)
    )
}

/// The analysis `memdiag` runs with no arguments in the folder `dir`.
fn scan_project(dir: &str) -> Result<Report, String> {
    if !Path::new(dir).is_absolute() {
        return Err(format!("the folder {dir:?} is not absolute"));
    }
    let (input, sources) = crate::project_scan(dir)?;
    local::scan(&input, &sources)
}

/// The payload: a JSON object.
pub(crate) fn parse(stdin: &str) -> Result<Value, String> {
    let value: Value =
        serde_json::from_str(stdin).map_err(|error| format!("stdin is not JSON: {error}"))?;
    if value.is_object() {
        Ok(value)
    } else {
        Err("stdin is not a JSON object".to_owned())
    }
}

/// The text at `pointer`: `None` when it is missing or null, an error when it is not text.
pub(crate) fn text_at<'a>(value: &'a Value, pointer: &str) -> Result<Option<&'a str>, String> {
    match value.pointer(pointer) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(format!("{pointer} in the payload is not text")),
    }
}

fn read_stdin() -> Result<String, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read stdin: {error}"))?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Err(format!(
            "stdin is over {} MiB",
            MAX_STDIN_BYTES / 1024 / 1024
        ));
    }
    String::from_utf8(bytes).map_err(|_| "stdin is not UTF-8".to_owned())
}

/// Reads one file, refusing more than the core's read limit.
fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    let file = fs::File::open(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let limit = memdiag_core::limits::READ_LIMIT_BYTES;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    if bytes.len() as u64 > limit {
        return Err(format!("{} is over the read limit", path.display()));
    }
    Ok(bytes)
}

/// A file's size and modification time, as the cache compares them.
fn stamp_of(path: &Path) -> Option<Value> {
    let metadata = fs::metadata(path).ok()?;
    let modified = metadata
        .modified()
        .ok()?
        .duration_since(UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(json!([metadata.len(), modified.to_string()]))
}

/// The status line's cache: `$XDG_CACHE_HOME/memdiag/statusline.json`, else
/// `~/.cache/memdiag/…`, else the system temp folder.
fn cache_file() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let base = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    Some(base.join("memdiag").join("statusline.json"))
}

fn read_cache(path: &Path) -> Map<String, Value> {
    fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Value>(&bytes).ok())
        .and_then(|value| match value {
            Value::Object(map) => Some(map),
            _ => None,
        })
        .unwrap_or_default()
}

fn remember(
    cache: &mut Map<String, Value>,
    dir: &str,
    index: Option<&str>,
    stamp: Option<Value>,
    segment: &str,
    now: u64,
) {
    cache.insert(
        dir.to_owned(),
        json!({ "index": index, "stamp": stamp, "segment": segment, "checked": now }),
    );
    while cache.len() > MAX_CACHED_PROJECTS {
        let oldest = cache
            .iter()
            .min_by_key(|(_, entry)| entry.get("checked").and_then(Value::as_u64))
            .map(|(dir, _)| dir.clone());
        match oldest {
            Some(dir) => cache.remove(&dir),
            None => break,
        };
    }
}

/// Writes the cache through a file beside it, so a reader never sees half of it.
fn save_cache(path: Option<&Path>, cache: &Map<String, Value>) {
    let Some(path) = path else { return };
    let Some(dir) = path.parent() else { return };
    let written = fs::create_dir_all(dir).and_then(|()| {
        let temporary = path.with_extension(format!("{}.tmp", std::process::id()));
        fs::write(&temporary, Value::Object(cache.clone()).to_string())?;
        fs::rename(&temporary, path)
    });
    if let Err(error) = written {
        log(
            "statusline",
            &format!("cannot write {}: {error}", path.display()),
        );
    }
}

/// Appends one line to `<config>/memdiag/hooks.log`, keeping it small; never fails.
pub(crate) fn log(what: &str, message: &str) {
    let Some(config) = config_dir() else { return };
    let dir = config.join("memdiag");
    let file = dir.join("hooks.log");
    if fs::metadata(&file).is_ok_and(|m| m.len() > MAX_LOG_BYTES) {
        let _ = fs::rename(&file, dir.join("hooks.log.old"));
    }
    let when = local::iso_8601_utc(SystemTime::now()).unwrap_or_default();
    let line = format!("{when} {what}: {}\n", cut_chars(&one_line(message), 500));
    let _ = fs::create_dir_all(&dir).and_then(|()| {
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)?
            .write_all(line.as_bytes())
    });
}

fn now_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// 950, 23.9k, 25k: thousands with one decimal, rounded down so a figure under a cap never
/// shows as the cap.
pub(crate) fn short(n: u64) -> String {
    if n < 1000 {
        return n.to_string();
    }
    let tenths = n / 100;
    match tenths % 10 {
        0 => format!("{}k", tenths / 10),
        digit => format!("{}.{digit}k", tenths / 10),
    }
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `text` in at most `limit` characters, ending in `…` when shortened.
fn cut_chars(text: &str, limit: usize) -> String {
    if chars(text) <= limit {
        return text.to_owned();
    }
    if limit == 0 {
        return String::new();
    }
    let mut out: String = text.chars().take(limit.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// `text` on one line: control characters become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use memdiag_core::report::{Code, Severity, VerdictLine};

    fn line(harm: Harm, text: &str) -> VerdictLine {
        VerdictLine {
            harm,
            code: Code::MemoryIndexTruncated,
            severity: Severity::Warning,
            count: 1,
            message: text.to_owned(),
            path: None,
            line: None,
        }
    }

    #[test]
    fn the_context_keeps_to_its_bound_and_counts_what_it_leaves_out() {
        let lines: Vec<String> = (1..=20)
            .map(|n| format!("finding {n}: {}", "x".repeat(60)))
            .collect();
        let listed = bounded_list("header:", &lines, MAX_CONTEXT_CHARS);
        assert!(listed.chars().count() <= MAX_CONTEXT_CHARS, "{listed}");
        let shown = listed.matches("\n- ").count();
        assert!(shown >= 4, "{listed}");
        assert!(listed.ends_with(&format!("\n({} more: run memdiag)", 20 - shown)));

        // One line longer than the bound is shortened, not left out.
        let long = vec!["y".repeat(1000), "second".to_owned()];
        let listed = bounded_list("header:", &long, MAX_CONTEXT_CHARS);
        assert_eq!(listed.chars().count(), MAX_CONTEXT_CHARS, "{listed}");
        assert!(listed.contains("y…\n(1 more: run memdiag)"), "{listed}");

        // Every line that fits is there, with no count.
        let few = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(bounded_list("h:", &few, 400), "h:\n- a\n- b");
    }

    #[test]
    fn only_what_cuts_or_drops_reaches_the_session() {
        let mut report = Report {
            verdict: vec![line(Harm::Wastes, "big"), line(Harm::Warns, "look")],
            ..Report::default()
        };
        assert_eq!(session_start_answer(&report), None);
        report
            .verdict
            .insert(0, line(Harm::Drops, "a rule never loads\nreally"));
        let answer: Value = serde_json::from_str(&session_start_answer(&report).unwrap()).unwrap();
        let context = answer["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        assert!(
            context.ends_with("\n- a rule never loads really"),
            "{context}"
        );
        assert!(!context.contains("big"));
        assert_eq!(
            answer["systemMessage"],
            "memdiag: a rule never loads really"
        );
    }

    #[test]
    fn the_release_comes_from_ai_agent() {
        assert_eq!(
            release_of("claude-code_2-1-328_harness").as_deref(),
            Some("2.1.328")
        );
        assert_eq!(release_of("claude-code_2-1-69").as_deref(), Some("2.1.69"));
        assert_eq!(release_of("claude-code_latest_harness"), None);
        assert_eq!(release_of("cursor_1-2-3"), None);
        assert_eq!(release_of("claude-code_2-1_x"), None);
    }

    #[test]
    fn an_event_line_keeps_the_fields_verify_reads() {
        let payload = json!({
            "hook_event_name": "InstructionsLoaded",
            "session_id": "s",
            "transcript_path": "/t.jsonl",
            "file_path": "/p/CLAUDE.md",
            "memory_type": "Project",
            "load_reason": "session_start",
            "globs": ["**/*.py", 5],
        });
        let facts = SessionFacts {
            release: Some("2.1.328".to_owned()),
            entrypoint: Some("sdk-cli".to_owned()),
        };
        let line = event_line(&payload, "2026-12-07T00:00:00Z", &facts).unwrap();
        assert!(line.ends_with('\n'));
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["release"], "2.1.328");
        assert_eq!(value["entrypoint"], "sdk-cli");
        assert_eq!(value["globs"], json!(["**/*.py"]));
        assert_eq!(value.get("transcript_path"), None);
        assert!(event_line(&json!({"file_path": 3}), "", &facts).is_err());
        let stop = json!({"hook_event_name": "Stop", "file_path": "/x"});
        assert!(event_line(&stop, "", &facts).is_err());
    }

    #[test]
    fn figures_round_down_so_nothing_under_a_cap_shows_as_the_cap() {
        assert_eq!(short(999), "999");
        assert_eq!(short(1000), "1k");
        assert_eq!(short(23_950), "23.9k");
        assert_eq!(short(24_999), "24.9k");
        assert_eq!(short(25_000), "25k");
    }

    #[test]
    fn watched_files_by_name() {
        let kind = |path: &str| kind_of(Path::new(path));
        assert_eq!(
            kind("/h/.claude/projects/-a/memory/MEMORY.md"),
            Some(Watched::Index)
        );
        assert_eq!(
            kind("/a/.claude/agent-memory/x/MEMORY.md"),
            Some(Watched::Index)
        );
        assert_eq!(kind("/a/CLAUDE.md"), Some(Watched::Instructions));
        assert_eq!(kind("/a/CLAUDE.local.md"), Some(Watched::Instructions));
        assert_eq!(kind("/a/.claude/rules/x/y.md"), Some(Watched::Instructions));
        assert_eq!(kind("/a/.claude/rules/notes.txt"), None);
        assert_eq!(kind("/a/rules/y.md"), None);
        assert_eq!(kind("/a/memory.md"), None);
    }

    #[test]
    fn subcommands_are_recognised_before_the_flags() {
        let of = |args: &[&str]| {
            Subcommand::of(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
        };
        assert_eq!(of(&["statusline"]), Some(Ok(Subcommand::StatusLine)));
        assert_eq!(
            of(&["hook", "post-tool-use"]),
            Some(Ok(Subcommand::PostToolUse))
        );
        assert!(matches!(of(&["hook"]), Some(Err(_))));
        assert_eq!(of(&["--format", "json"]), None);
        assert_eq!(of(&[]), None);
    }
}
