//! The keys of a Claude Code `settings.json` that decide what loads.

use serde_json::{Map, Value};

/// The settings that matter to the analysis; absent keys are `None` or empty.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Settings {
    /// `autoMemoryEnabled`.
    pub(crate) auto_memory_enabled: Option<bool>,
    /// `autoMemoryDirectory`, as written.
    pub(crate) auto_memory_directory: Option<String>,
    /// `claudeMdExcludes`: glob patterns over absolute paths.
    pub(crate) claude_md_excludes: Vec<String>,
    /// `claudeMd`: instructions written inline in the managed settings.
    pub(crate) claude_md: Option<String>,
    /// `skillListingMaxDescChars`: where the skills listing cuts a description.
    pub(crate) skill_listing_max_desc_chars: Option<u64>,
    /// `skillListingBudgetFraction`: the share of the context window the listing may take.
    pub(crate) skill_listing_budget_fraction: Option<f64>,
    /// `hooks`: every command (or prompt) hook, in the file's order, at most
    /// [`MAX_CONFIGURED`]; `hooks_left_out` counts the rest.
    pub(crate) hooks: Vec<Hook>,
    /// Hooks past [`MAX_CONFIGURED`], counted, not kept.
    pub(crate) hooks_left_out: u64,
    /// `disableAllHooks`.
    pub(crate) disable_all_hooks: Option<bool>,
    /// `enableAllProjectMcpServers`: every server of a `.mcp.json` is approved.
    pub(crate) enable_all_project_mcp_servers: Option<bool>,
    /// `enabledMcpjsonServers`: `.mcp.json` servers approved by name.
    pub(crate) enabled_mcpjson_servers: Vec<String>,
    /// `disabledMcpjsonServers`: `.mcp.json` servers switched off by name.
    pub(crate) disabled_mcpjson_servers: Vec<String>,
    /// `enabledPlugins`: each plugin key (`name@marketplace`) with its switch.
    pub(crate) enabled_plugins: Vec<(String, bool)>,
    /// `skillOverrides`: per skill or command name, how the listing shows it.
    pub(crate) skill_overrides: Vec<(String, SkillOverride)>,
}

/// A `skillOverrides` value: how the listing shows a skill or command (measured on 2.1.328:
/// `skills-listing-edge-skill-overrides`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SkillOverride {
    /// `on`: as without an override.
    On,
    /// `name-only`: its name without a description.
    NameOnly,
    /// `user-invocable-only`: not listed (a person can still type `/name`).
    UserInvocableOnly,
    /// `off`: not listed, not invocable.
    Off,
}

/// How many hooks, or MCP servers, one file may list before the rest are only counted: a
/// settings file with ten thousand hooks still gives a short report in a bounded time.
pub(crate) const MAX_CONFIGURED: usize = 1_000;

/// One hook of `hooks.<event>[].hooks[]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hook {
    /// The event (`SessionStart`, …), as written.
    pub(crate) event: String,
    /// The group's `matcher`; `None` when absent, not a string or empty.
    pub(crate) matcher: Option<String>,
    /// The program a `command` hook runs ([`program_name`]); `None` for other types.
    pub(crate) program: Option<String>,
}

/// One server of an `mcpServers` object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct McpServer {
    /// Its name (the object's key).
    pub(crate) name: String,
    /// The program it starts ([`program_name`] of `command`); `None` for a URL.
    pub(crate) program: Option<String>,
}

/// The keys [`parse`] reads, in the order it reads them; a shared snapshot keeps these and
/// no other (a test below keeps the list true).
pub(crate) const READ_KEYS: [&str; 13] = [
    "autoMemoryEnabled",
    "autoMemoryDirectory",
    "claudeMd",
    "claudeMdExcludes",
    "skillListingMaxDescChars",
    "skillListingBudgetFraction",
    "hooks",
    "disableAllHooks",
    "enableAllProjectMcpServers",
    "enabledMcpjsonServers",
    "disabledMcpjsonServers",
    "enabledPlugins",
    "skillOverrides",
];

/// Parses a settings file. A key of the wrong type is ignored with a warning in `warnings`.
///
/// # Errors
/// When the text is not a JSON object, with serde_json's message.
pub(crate) fn parse(text: &str) -> Result<(Settings, Vec<String>), String> {
    // Editors on Windows save JSON with a byte order mark, which serde_json rejects.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Deserialising straight into a map lets serde_json word the error for a top level that
    // is valid JSON but not an object, too.
    let map: Map<String, Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut settings = Settings::default();
    let mut warnings = Vec::new();

    match map.get("autoMemoryEnabled") {
        None => {}
        Some(Value::Bool(b)) => settings.auto_memory_enabled = Some(*b),
        Some(_) => warnings.push("autoMemoryEnabled is not a boolean; ignored".to_owned()),
    }
    match map.get("autoMemoryDirectory") {
        None => {}
        Some(Value::String(s)) => settings.auto_memory_directory = Some(s.clone()),
        Some(_) => warnings.push("autoMemoryDirectory is not a string; ignored".to_owned()),
    }
    match map.get("claudeMd") {
        None => {}
        Some(Value::String(s)) => settings.claude_md = Some(s.clone()),
        Some(_) => warnings.push("claudeMd is not a string; ignored".to_owned()),
    }
    match map.get("claudeMdExcludes") {
        None => {}
        Some(Value::Array(items)) => {
            for (index, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => settings.claude_md_excludes.push(s.clone()),
                    _ => warnings.push(format!(
                        "claudeMdExcludes entry {} is not a string; skipped",
                        index + 1
                    )),
                }
            }
        }
        Some(_) => warnings.push("claudeMdExcludes is not an array; ignored".to_owned()),
    }
    // Claude Code drops a value out of range as if it were absent (measured on 2.1.328).
    match map.get("skillListingMaxDescChars") {
        None => {}
        Some(value) => match value.as_u64().filter(|n| *n > 0) {
            Some(n) => settings.skill_listing_max_desc_chars = Some(n),
            None => warnings
                .push("skillListingMaxDescChars is not a positive integer; ignored".to_owned()),
        },
    }
    match map.get("skillListingBudgetFraction") {
        None => {}
        Some(value) => match value.as_f64().filter(|f| *f > 0.0 && *f <= 1.0) {
            Some(f) => settings.skill_listing_budget_fraction = Some(f),
            None => warnings.push(
                "skillListingBudgetFraction is not a number above 0 and at most 1; ignored"
                    .to_owned(),
            ),
        },
    }
    match map.get("hooks") {
        None => {}
        Some(Value::Object(events)) => {
            let (hooks, left_out) = hooks(events);
            settings.hooks = hooks;
            settings.hooks_left_out = left_out;
        }
        Some(_) => warnings.push("hooks is not an object; ignored".to_owned()),
    }
    match map.get("disableAllHooks") {
        None => {}
        Some(Value::Bool(b)) => settings.disable_all_hooks = Some(*b),
        Some(_) => warnings.push("disableAllHooks is not a boolean; ignored".to_owned()),
    }
    match map.get("enableAllProjectMcpServers") {
        None => {}
        Some(Value::Bool(b)) => settings.enable_all_project_mcp_servers = Some(*b),
        Some(_) => warnings.push("enableAllProjectMcpServers is not a boolean; ignored".to_owned()),
    }
    settings.enabled_mcpjson_servers = names(
        map.get("enabledMcpjsonServers"),
        "enabledMcpjsonServers",
        &mut warnings,
    );
    settings.disabled_mcpjson_servers = names(
        map.get("disabledMcpjsonServers"),
        "disabledMcpjsonServers",
        &mut warnings,
    );
    match map.get("enabledPlugins") {
        None => {}
        Some(value @ Value::Object(_)) => {
            settings.enabled_plugins = crate::text::plugins::enabled(value);
        }
        Some(_) => warnings.push("enabledPlugins is not an object; ignored".to_owned()),
    }
    match map.get("skillOverrides") {
        None => {}
        Some(Value::Object(entries)) => {
            for (name, value) in entries {
                let parsed = match value.as_str() {
                    Some("on") => Some(SkillOverride::On),
                    Some("name-only") => Some(SkillOverride::NameOnly),
                    Some("user-invocable-only") => Some(SkillOverride::UserInvocableOnly),
                    Some("off") => Some(SkillOverride::Off),
                    _ => None,
                };
                match parsed {
                    Some(o) => settings.skill_overrides.push((name.clone(), o)),
                    None => warnings.push(format!(
                        "skillOverrides.{name} is not on, name-only, user-invocable-only or off; \
                         ignored"
                    )),
                }
            }
        }
        Some(_) => warnings.push("skillOverrides is not an object; ignored".to_owned()),
    }
    Ok((settings, warnings))
}

/// The strings of a list of names (at most [`MAX_CONFIGURED`]), with a warning when it is no
/// list.
fn names(value: Option<&Value>, key: &str, warnings: &mut Vec<String>) -> Vec<String> {
    match value {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .take(MAX_CONFIGURED)
            .map(str::to_owned)
            .collect(),
        Some(_) => {
            warnings.push(format!("{key} is not an array; ignored"));
            Vec::new()
        }
    }
}

/// The hooks of a `hooks` object: `{ "<event>": [ { "matcher": …, "hooks": [ { "type":
/// "command", "command": … } ] } ] }`, the first [`MAX_CONFIGURED`] kept and the rest
/// counted. Entries of another shape are skipped, as Claude Code skips them.
fn hooks(events: &Map<String, Value>) -> (Vec<Hook>, u64) {
    let mut out = Vec::new();
    let mut left_out = 0u64;
    for (event, groups) in events {
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group
                .get("matcher")
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty())
                .map(|m| bounded(m, 200));
            for hook in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !hook.is_object() {
                    continue;
                }
                if out.len() >= MAX_CONFIGURED {
                    left_out += 1;
                    continue;
                }
                let program = match hook.get("type").and_then(Value::as_str) {
                    Some("command") | None => hook
                        .get("command")
                        .and_then(Value::as_str)
                        .map(program_name),
                    _ => None,
                };
                out.push(Hook {
                    event: bounded(event, 200),
                    matcher: matcher.clone(),
                    program,
                });
            }
        }
    }
    (out, left_out)
}

/// The servers of an `mcpServers` object, the first [`MAX_CONFIGURED`] kept and the rest
/// counted; `None` when the value is no object.
pub(crate) fn mcp_servers(value: &Value) -> Option<(Vec<McpServer>, u64)> {
    let servers = value.as_object()?;
    let mut out = Vec::new();
    let mut left_out = 0u64;
    for (name, server) in servers {
        if out.len() >= MAX_CONFIGURED {
            left_out += 1;
            continue;
        }
        out.push(McpServer {
            name: bounded(name, 200),
            program: server
                .get("command")
                .and_then(Value::as_str)
                .map(program_name),
        });
    }
    Some((out, left_out))
}

/// An MCP configuration file (`.mcp.json`, `managed-mcp.json`): its `mcpServers`.
///
/// # Errors
/// When the text is not a JSON object, with serde_json's message, or `mcpServers` is
/// not an object.
pub(crate) fn mcp_json(text: &str) -> Result<(Vec<McpServer>, u64), String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let map: Map<String, Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match map.get("mcpServers") {
        None => Ok((Vec::new(), 0)),
        Some(value) => mcp_servers(value).ok_or_else(|| "mcpServers is not an object".to_owned()),
    }
}

/// The program a command runs, by its name only: the first word (after any `NAME=value`
/// assignments), quotes taken off, without its folder. Arguments, folders and the rest of
/// the line never leave the parser: they can hold secrets and private paths.
pub(crate) fn program_name(command: &str) -> String {
    let mut words = command
        .split_whitespace()
        .map(|w| w.trim_matches(['"', '\'']));
    let first = words
        .find(|w| {
            let assignment = w.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            !w.is_empty() && !assignment
        })
        .unwrap_or("");
    let base = first.rsplit(['/', '\\']).next().unwrap_or(first);
    bounded(base, 100)
}

/// `text` cut to at most `max` characters.
fn bounded(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// The one key of `~/.claude.json` the analysis reads: whether the user approved imports
/// that leave `project` (`projects.<project>.hasClaudeMdExternalIncludesApproved`). `None`
/// when the file does not say (not JSON, no such project, no such key); nothing else of the
/// file is looked at.
pub(crate) fn external_includes_approved(text: &str, project: &str) -> Option<bool> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let map: Map<String, Value> = serde_json::from_str(text).ok()?;
    map.get("projects")?
        .get(project)?
        .get("hasClaudeMdExternalIncludesApproved")?
        .as_bool()
}

/// The MCP servers of `~/.claude.json`: the user's (`mcpServers`) and the project's
/// (`projects.<key>.mcpServers`, the local scope), each with the servers left out past the
/// cap. Nothing else of the file is looked at.
pub(crate) fn claude_json_mcp_servers(
    text: &str,
    key: &str,
) -> ((Vec<McpServer>, u64), (Vec<McpServer>, u64)) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Ok(map) = serde_json::from_str::<Map<String, Value>>(text) else {
        return Default::default();
    };
    let user = map
        .get("mcpServers")
        .and_then(mcp_servers)
        .unwrap_or_default();
    let local = map
        .get("projects")
        .and_then(|p| p.get(key))
        .and_then(|p| p.get("mcpServers"))
        .and_then(mcp_servers)
        .unwrap_or_default();
    (user, local)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_names_only() {
        assert_eq!(program_name("echo hi"), "echo");
        assert_eq!(program_name("/usr/local/bin/guard --token s3cret"), "guard");
        assert_eq!(
            program_name("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh arg"),
            "check.sh"
        );
        assert_eq!(program_name("FOO=1 BAR=x node script.js"), "node");
        assert_eq!(program_name("C:\\tools\\hook.exe /q"), "hook.exe");
        assert_eq!(program_name("   "), "");
    }

    #[test]
    fn hooks_and_mcp_keys() {
        let (s, w) = parse(
            r#"{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "/x/y.sh a"}, {"type": "prompt", "prompt": "p"}]}],
                "Stop": [{"hooks": [{"command": "echo"}]}, 5]},
                "disableAllHooks": false, "enabledMcpjsonServers": ["a", 1], "disabledMcpjsonServers": "b"}"#,
        )
        .unwrap();
        assert_eq!(s.hooks.len(), 3);
        assert_eq!(s.hooks[0].event, "SessionStart");
        assert_eq!(s.hooks[0].matcher.as_deref(), Some("startup"));
        assert_eq!(s.hooks[0].program.as_deref(), Some("y.sh"));
        assert_eq!(s.hooks[1].program, None);
        assert_eq!(s.hooks[2].event, "Stop");
        assert_eq!(s.disable_all_hooks, Some(false));
        assert_eq!(s.enabled_mcpjson_servers, ["a"]);
        assert_eq!(w, ["disabledMcpjsonServers is not an array; ignored"]);
        let (_, w) = parse(r#"{"hooks": []}"#).unwrap();
        assert_eq!(w, ["hooks is not an object; ignored"]);
    }

    #[test]
    fn ten_thousand_hooks_are_counted_past_the_cap() {
        let one = r#"{"hooks": [{"type": "command", "command": "echo x"}]}"#;
        let text = format!(
            r#"{{"hooks": {{"PreToolUse": [{}]}}}}"#,
            vec![one; 10_000].join(",")
        );
        let (s, _) = parse(&text).unwrap();
        assert_eq!(s.hooks.len(), MAX_CONFIGURED);
        assert_eq!(s.hooks_left_out, 10_000 - MAX_CONFIGURED as u64);
    }

    #[test]
    fn mcp_files() {
        let (servers, _) = mcp_json(
            r#"{"mcpServers": {"a": {"command": "/opt/a-mcp", "args": ["--key", "k"]}, "b": {"type": "http", "url": "https://x.invalid/mcp"}}}"#,
        )
        .unwrap();
        assert_eq!(
            servers,
            [
                McpServer {
                    name: "a".into(),
                    program: Some("a-mcp".into())
                },
                McpServer {
                    name: "b".into(),
                    program: None
                },
            ]
        );
        assert!(mcp_json("{").is_err());
        assert!(mcp_json(r#"{"mcpServers": []}"#).is_err());
        let ((user, _), (local, _)) = claude_json_mcp_servers(
            r#"{"mcpServers": {"u": {"command": "u"}}, "projects": {"/p": {"mcpServers": {"l": {"command": "l"}}}}}"#,
            "/p",
        );
        assert_eq!((user.len(), local.len()), (1, 1));
    }

    #[test]
    fn read_keys_are_the_keys_parse_reads() {
        let source = include_str!("settings.rs");
        let body = &source[source.find("pub(crate) fn parse(").unwrap()..];
        let body = &body[..body.find("\n}\n").unwrap()];
        let read: Vec<&str> = body
            .match_indices("map.get(\"")
            .map(|(at, call)| {
                let rest = &body[at + call.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect();
        assert_eq!(read, READ_KEYS);
    }

    #[test]
    fn reads_only_the_approval_of_the_project() {
        let json =
            r#"{"projects": {"/p": {"hasClaudeMdExternalIncludesApproved": true}, "/q": {}}}"#;
        assert_eq!(external_includes_approved(json, "/p"), Some(true));
        assert_eq!(external_includes_approved(json, "/q"), None);
        assert_eq!(external_includes_approved(json, "/r"), None);
        assert_eq!(external_includes_approved("not json", "/p"), None);
    }

    /// Checks `parse` as `enabled=<..> dir=<..> excludes=[..] warnings=[..]`, or `error: <..>`.
    fn check(text: &str, expected: &str) {
        let actual = match parse(text) {
            Err(error) => format!("error: {error}"),
            Ok((s, warnings)) => format!(
                "enabled={:?} dir={:?} excludes={:?} warnings={:?}",
                s.auto_memory_enabled, s.auto_memory_directory, s.claude_md_excludes, warnings
            ),
        };
        assert_eq!(actual, expected, "input: {text:?}");
    }

    #[test]
    fn keys() {
        check("{}", "enabled=None dir=None excludes=[] warnings=[]");
        check(
            r#"{"autoMemoryEnabled": false}"#,
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
        check(
            r#"{"autoMemoryEnabled": true}"#,
            "enabled=Some(true) dir=None excludes=[] warnings=[]",
        );
        check(
            r#"{"autoMemoryDirectory": "~/mem"}"#,
            r#"enabled=None dir=Some("~/mem") excludes=[] warnings=[]"#,
        );
        check(
            r#"{"claudeMdExcludes": ["**/a/CLAUDE.md", "/x/*"]}"#,
            r#"enabled=None dir=None excludes=["**/a/CLAUDE.md", "/x/*"] warnings=[]"#,
        );
        check(
            r#"{"model": "x", "hooks": {}, "permissions": {"allow": []}}"#,
            "enabled=None dir=None excludes=[] warnings=[]",
        );
        check(
            "\u{feff}{\"autoMemoryEnabled\": false}",
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
        check(
            " \n{\"autoMemoryEnabled\": false}\n ",
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
        check(
            r#"{"autoMemoryEnabled": true, "autoMemoryEnabled": false}"#,
            "enabled=Some(false) dir=None excludes=[] warnings=[]",
        );
    }

    #[test]
    fn wrong_types_warn() {
        check(
            r#"{"autoMemoryEnabled": "false"}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored"]"#,
        );
        check(
            r#"{"autoMemoryEnabled": 0}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored"]"#,
        );
        check(
            r#"{"autoMemoryEnabled": null}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored"]"#,
        );
        check(
            r#"{"autoMemoryDirectory": 5}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryDirectory is not a string; ignored"]"#,
        );
        check(
            r#"{"claudeMdExcludes": "a/*"}"#,
            r#"enabled=None dir=None excludes=[] warnings=["claudeMdExcludes is not an array; ignored"]"#,
        );
        check(
            r#"{"claudeMdExcludes": ["a", 1, null, "b"]}"#,
            r#"enabled=None dir=None excludes=["a", "b"] warnings=["claudeMdExcludes entry 2 is not a string; skipped", "claudeMdExcludes entry 3 is not a string; skipped"]"#,
        );
        check(
            r#"{"autoMemoryEnabled": [], "autoMemoryDirectory": {}, "claudeMdExcludes": {}}"#,
            r#"enabled=None dir=None excludes=[] warnings=["autoMemoryEnabled is not a boolean; ignored", "autoMemoryDirectory is not a string; ignored", "claudeMdExcludes is not an array; ignored"]"#,
        );
    }

    #[test]
    fn not_an_object_is_an_error() {
        check("", "error: EOF while parsing a value at line 1 column 0");
        check(
            "[]",
            "error: invalid type: sequence, expected a map at line 1 column 0",
        );
        check(
            "\"x\"",
            "error: invalid type: string \"x\", expected a map at line 1 column 3",
        );
        check(
            "null",
            "error: invalid type: null, expected a map at line 1 column 4",
        );
        check("{", "error: EOF while parsing an object at line 1 column 1");
        check("{\"a\": 1,}", "error: trailing comma at line 1 column 9");
        check("{} {}", "error: trailing characters at line 1 column 4");
        check(
            "\u{feff}\u{feff}{}",
            "error: expected value at line 1 column 1",
        );
    }
}
