//! Hooks and MCP servers: what adds text at session time that no file can tell, since it
//! depends on running a program. They are listed (`Session::not_counted`) with where they
//! are configured and when they run, never run, and left out of the every-session figure.
//!
//! Measured on 2.1.328 (cases `hooks-mcp-listed-never-counted`,
//! `hooks-mcp-managed-mcp-exclusive`): the hooks of the user's, project, local and managed
//! settings all run, a `SessionStart` hook when its matcher is empty or names `startup`;
//! MCP servers come from each `.mcp.json` of the working folder and its parents, from
//! `~/.claude.json` (the user's `mcpServers`, and the project's under the key the
//! external-import approval is read under: the git root's) and from the managed policy's
//! `managed-mcp.json`, which, when present, replaces all of them; `mcpServers` in a
//! settings file is ignored, and a name in `disabledMcpjsonServers` does not start. A
//! `claude -p` session starts a `.mcp.json` server that is not approved; an interactive one
//! asks first.

use std::collections::BTreeSet;

use super::{Discovery, Text};
use crate::input::SessionKind;
use crate::report::{
    Code, ConfigLayer, Diagnostic, NotCounted, NotCountedKind, ReadFor, RunsWhen, Severity,
};
use crate::text::js_regex::{self, Test};
use crate::text::settings::{self, McpServer};
use crate::vpath::VPath;

/// How many hooks and servers the report lists in all; past it they are counted in a
/// finding. Each file is capped too (`settings::MAX_CONFIGURED`).
const MAX_LISTED: usize = 2_000;

impl Discovery<'_> {
    /// Lists the hooks the settings layers configure and the MCP servers of every MCP
    /// configuration, with a finding per file that configures any.
    pub(super) fn find_not_counted(&mut self, key: &VPath) {
        let mut out: Vec<NotCounted> = Vec::new();
        let hooks = std::mem::take(&mut self.settings.hooks);
        for (path, layer, hook) in &hooks {
            let when = if self.settings.disable_all_hooks {
                RunsWhen::Disabled
            } else {
                hook_runs(&hook.event, hook.matcher.as_deref())
            };
            out.push(NotCounted {
                kind: NotCountedKind::Hook,
                event: Some(hook.event.clone()),
                server: None,
                matcher: hook.matcher.clone(),
                program: hook.program.clone(),
                path: path.as_str().to_owned(),
                layer: *layer,
                when,
            });
        }
        self.settings.hooks = hooks;

        // The managed policy's servers replace every other (measured on 2.1.328).
        let managed = self.managed_dir().child("managed-mcp.json");
        let managed_servers = self.mcp_file(&managed);
        let exclusive = managed_servers.is_some();
        let mut servers: Vec<(VPath, ConfigLayer, McpServer, bool)> = Vec::new();
        for server in managed_servers.unwrap_or_default() {
            servers.push((managed.clone(), ConfigLayer::Managed, server, true));
        }
        // `~/.claude.json`: the user's servers and the project's (local scope).
        let claude_json = self.claude_json_path();
        let (mut user, mut local) = (Vec::new(), Vec::new());
        if self.tree.is_file(&claude_json) {
            if let Text::Ready(text) = self.text(&claude_json) {
                let ((u, u_over), (l, l_over)) =
                    settings::claude_json_mcp_servers(&text, key.as_str());
                user = u;
                local = l;
                self.left_out(&claude_json, u_over + l_over);
            }
        }
        // Local scope first: it wins over the project's and the user's of the same name.
        for server in local {
            servers.push((claude_json.clone(), ConfigLayer::Local, server, false));
        }
        // Each `.mcp.json` from the working folder up, the nearer first.
        if let Some(project) = self.paths.project.clone() {
            let mut dir = Some(project);
            let mut depth = 0;
            while let Some(at) = dir {
                let file = at.child(".mcp.json");
                for server in self.mcp_file(&file).unwrap_or_default() {
                    servers.push((file.clone(), ConfigLayer::Project, server, false));
                }
                dir = at.parent();
                depth += 1;
                if depth > 256 {
                    break;
                }
            }
        }
        for server in user {
            servers.push((claude_json.clone(), ConfigLayer::User, server, false));
        }
        let mut seen = BTreeSet::new();
        for (path, layer, server, is_managed) in servers {
            // The nearer configuration of a name wins; the other is not started.
            let first = seen.insert(server.name.clone());
            let from_mcp_json = layer == ConfigLayer::Project;
            let when = if (exclusive && !is_managed)
                || !first
                || (from_mcp_json && self.settings.disabled_mcpjson.contains(&server.name))
            {
                RunsWhen::Disabled
            } else if from_mcp_json
                && !self.settings.enable_all_project_mcp
                && !self.settings.enabled_mcpjson.contains(&server.name)
                && self.paths.session == SessionKind::Interactive
            {
                RunsWhen::NeedsApproval
            } else {
                RunsWhen::EverySession
            };
            out.push(NotCounted {
                kind: NotCountedKind::McpServer,
                event: None,
                server: Some(server.name),
                matcher: None,
                program: server.program,
                path: path.as_str().to_owned(),
                layer,
                when,
            });
        }

        self.plugin_not_counted(&mut out);
        for (path, over) in std::mem::take(&mut self.settings.hooks_left_out) {
            self.left_out(&path, over);
        }
        if out.len() > MAX_LISTED {
            let over = out.len() - MAX_LISTED;
            out.truncate(MAX_LISTED);
            self.diagnostics.push(Diagnostic::new(
                Code::SessionTextNotCounted,
                Severity::Info,
                None,
                format!(
                    "{over} more hooks and MCP servers are configured than the report lists \
                     ({MAX_LISTED})"
                ),
            ));
        }
        for hook in &out {
            if let (NotCountedKind::Hook, Some(event)) = (hook.kind, hook.event.as_deref()) {
                if matcher_undecided(event, hook.matcher.as_deref()) {
                    self.diagnostics.push(Diagnostic::new(
                        Code::HookMatcherUndecided,
                        Severity::Info,
                        Some(&hook.path),
                        format!(
                            "memdiag cannot tell when the {event} hook with the matcher {:?} \
                             runs; it takes it to run when the matcher names the source",
                            hook.matcher.as_deref().unwrap_or_default()
                        ),
                    ));
                }
            }
        }
        self.not_counted_findings(&out);
        self.not_counted = out;
    }

    /// The servers of an MCP configuration file, or `None` when there is no such file (a
    /// file that does not parse is a finding and lists none).
    fn mcp_file(&mut self, path: &VPath) -> Option<Vec<McpServer>> {
        if !self.tree.is_file(path) {
            return None;
        }
        self.source(path, ReadFor::McpConfig, None);
        let Text::Ready(text) = self.text(path) else {
            return Some(Vec::new());
        };
        match settings::mcp_json(&text) {
            Ok((servers, over)) => {
                self.left_out(path, over);
                Some(servers)
            }
            Err(error) => {
                self.diagnostics.push(Diagnostic::new(
                    Code::InvalidSettings,
                    Severity::Warning,
                    Some(path.as_str()),
                    format!("MCP configuration ignored: {error}"),
                ));
                Some(Vec::new())
            }
        }
    }

    /// A finding for the hooks or servers of `path` past the per-file cap.
    fn left_out(&mut self, path: &VPath, over: u64) {
        if over == 0 {
            return;
        }
        self.diagnostics.push(Diagnostic::new(
            Code::SessionTextNotCounted,
            Severity::Info,
            Some(path.as_str()),
            format!(
                "{over} more hooks or MCP servers are configured here than the report lists \
                 ({} a file)",
                settings::MAX_CONFIGURED
            ),
        ));
    }

    /// One finding per configuration file: what it configures that adds text the figure
    /// leaves out.
    fn not_counted_findings(&mut self, found: &[NotCounted]) {
        let mut files: Vec<&str> = found.iter().map(|f| f.path.as_str()).collect();
        files.dedup();
        let files: BTreeSet<&str> = files.into_iter().collect();
        for file in files {
            let here = || found.iter().filter(|f| f.path == file);
            let hooks = here().filter(|f| f.kind == NotCountedKind::Hook).count();
            let servers = here()
                .filter(|f| f.kind == NotCountedKind::McpServer)
                .count();
            let mut parts = Vec::new();
            if hooks > 0 {
                parts.push(plural(hooks, "hook", "hooks"));
            }
            if servers > 0 {
                parts.push(plural(servers, "MCP server", "MCP servers"));
            }
            let verb = if hooks + servers == 1 { "adds" } else { "add" };
            self.diagnostics.push(Diagnostic::new(
                Code::SessionTextNotCounted,
                Severity::Info,
                Some(file),
                format!(
                    "{} configured here {verb} text when run, which no file tells: the \
                     every-session figure leaves it out",
                    parts.join(" and ")
                ),
            ));
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// When a hook of `event` with `matcher` runs. A `SessionStart` matcher is tested against
/// each source of a session (`startup`, `resume`, `clear`, `compact`) as Claude Code tests it
/// (measured on 2.1.328: `agents-hooks-session-start-matchers`): empty or `*` matches every
/// source; words, `_`, spaces and `|` alone are a list of names, each trimmed, matched
/// exactly (`startup | resume`, `startup|`); anything else is a JavaScript regular expression
/// searched for in the source (`start.*`, `s.*p`, `(startup)`, `start(?=up)` and `(t)ar\1`
/// match `startup`; `^start$`, `Startup`, `start(?!up)` and an invalid `[` or `(?i)startup`
/// do not, nor do the words `tup` and `start`; measured on 2.1.337 too:
/// `edges-hooks-session-start-lookaround-backrefs`).
pub(super) fn hook_runs(event: &str, matcher: Option<&str>) -> RunsWhen {
    match event {
        "SessionStart" => {
            let matches = |source: &str| session_start_matches(matcher, source);
            if matches("startup") {
                RunsWhen::Startup
            } else if ["resume", "clear", "compact"].iter().any(|s| matches(s)) {
                RunsWhen::SessionResumed
            } else {
                RunsWhen::NoSource
            }
        }
        "UserPromptSubmit" => RunsWhen::EachPrompt,
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionRequest" => {
            RunsWhen::ToolCalls
        }
        _ => RunsWhen::OtherEvent,
    }
}

/// The sources a `SessionStart` matcher is tested against.
const SOURCES: [&str; 4] = ["startup", "resume", "clear", "compact"];

/// Whether a `SessionStart` matcher matches the session source `source`: a list of names,
/// or a JavaScript regular expression ([`js_regex`], measured on 2.1.337 by
/// `edges-hooks-session-start-lookaround-backrefs`: look-around, back-references, modifier
/// groups and escapes are JavaScript's; one JavaScript rejects never runs). One the reader
/// cannot decide (see [`matcher_undecided`]) is taken to match when it holds the source's
/// name.
fn session_start_matches(matcher: Option<&str>, source: &str) -> bool {
    let Some(matcher) = regex_matcher(matcher) else {
        return true;
    };
    if words_only(matcher) {
        return matcher.split('|').any(|word| word.trim() == source);
    }
    match js_regex::test(matcher, source) {
        Test::Matches => true,
        Test::NoMatch | Test::Invalid => false,
        Test::Undecided => matcher.contains(source),
    }
}

/// Whether memdiag cannot tell when a hook of `event` with `matcher` runs: a `SessionStart`
/// matcher read as a regular expression that is too long or too deep, takes too many steps
/// on a source, or uses what the reader does not follow (duplicate group names, a
/// back-reference inside a look-behind).
pub(super) fn matcher_undecided(event: &str, matcher: Option<&str>) -> bool {
    event == "SessionStart"
        && regex_matcher(matcher).is_some_and(|matcher| {
            !words_only(matcher)
                && SOURCES
                    .iter()
                    .any(|source| js_regex::test(matcher, source) == Test::Undecided)
        })
}

/// The matcher, unless it is absent, empty or `*` (every source).
fn regex_matcher(matcher: Option<&str>) -> Option<&str> {
    matcher.filter(|m| !m.is_empty() && *m != "*")
}

/// Words, `_`, spaces and `|` alone: a list of names, each trimmed, matched exactly.
fn words_only(matcher: &str) -> bool {
    matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|' || c.is_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_start_matchers() {
        assert_eq!(hook_runs("SessionStart", None), RunsWhen::Startup);
        assert_eq!(hook_runs("SessionStart", Some("*")), RunsWhen::Startup);
        assert_eq!(
            hook_runs("SessionStart", Some("startup")),
            RunsWhen::Startup
        );
        assert_eq!(
            hook_runs("SessionStart", Some("clear|startup")),
            RunsWhen::Startup
        );
        assert_eq!(
            hook_runs("SessionStart", Some("resume")),
            RunsWhen::SessionResumed
        );
        assert_eq!(
            hook_runs("SessionStart", Some("startups")),
            RunsWhen::NoSource
        );
        // Measured on 2.1.328 (`agents-hooks-session-start-matchers`): these run on a new
        // session, the next list does not.
        for runs in [
            "start.*",
            "startup|resume",
            " startup",
            "(startup)",
            "startup ",
            "s.*p",
            "startup | resume",
            "^startup$",
            "clear|startup",
            "st(art)+up",
            "startup|",
            "[st]tartup",
            "s\\w+",
            ".",
            "s{1}tartup",
            "\\bstartup\\b",
            "x{2}|startup",
            "s{0,}t+a{1,1}rtup",
        ] {
            assert_eq!(
                hook_runs("SessionStart", Some(runs)),
                RunsWhen::Startup,
                "{runs}"
            );
        }
        for never in [
            "^start$",
            "Startup",
            "tup",
            "resume|clear",
            "[",
            "STARTUP",
            "start",
            "st{2}artup",
            "\\Bstartup",
            "startup{",
        ] {
            assert_ne!(
                hook_runs("SessionStart", Some(never)),
                RunsWhen::Startup,
                "{never}"
            );
        }
        assert_eq!(hook_runs("SessionStart", Some("tup")), RunsWhen::NoSource);
        assert_eq!(hook_runs("SessionStart", Some("[")), RunsWhen::NoSource);
        assert_eq!(
            hook_runs("SessionStart", Some("res.*")),
            RunsWhen::SessionResumed
        );
        // Built to backtrack: bounded, no hang.
        let hostile = format!("{}!", "(a*)*".repeat(15));
        let _ = hook_runs("SessionStart", Some(&hostile));
        let deep = format!("{}startup{}", "(".repeat(5_000), ")".repeat(5_000));
        let _ = hook_runs("SessionStart", Some(&deep));
        // Measured on 2.1.337 (`edges-hooks-session-start-lookaround-backrefs`).
        for runs in [
            "start(?=up)",
            "(t)ar\\1",
            "(?<=s)tartup",
            "(?i:S)tartup",
            "\\x73tartup",
        ] {
            assert_eq!(
                hook_runs("SessionStart", Some(runs)),
                RunsWhen::Startup,
                "{runs}"
            );
        }
        for never in [
            "start(?!up)",
            "(?<!s)tartup",
            "\\1startup",
            "(?i)startup",
            "(?=startup",
        ] {
            assert_ne!(
                hook_runs("SessionStart", Some(never)),
                RunsWhen::Startup,
                "{never}"
            );
        }
        assert_eq!(
            hook_runs("SessionStart", Some("(?!startup)(?=res)")),
            RunsWhen::SessionResumed
        );
        // What the reader cannot decide is said, and taken to run when it names the source.
        assert!(matcher_undecided("SessionStart", Some("(?<a>s)(?<a>t)")));
        let backtracks = format!("{}x", "(.*)*".repeat(8));
        assert!(matcher_undecided("SessionStart", Some(&backtracks)));
        assert!(!matcher_undecided("SessionStart", Some(&hostile)));
        assert!(!matcher_undecided("SessionStart", Some("start(?=up)")));
        assert!(!matcher_undecided("SessionStart", Some("[")));
        assert!(!matcher_undecided("PreToolUse", Some(&backtracks)));
        assert_eq!(
            hook_runs("SessionStart", Some("(?<a>startup)|(?<a>x)")),
            RunsWhen::Startup
        );
        assert_eq!(hook_runs("UserPromptSubmit", None), RunsWhen::EachPrompt);
        assert_eq!(hook_runs("PreToolUse", Some("Bash")), RunsWhen::ToolCalls);
        assert_eq!(hook_runs("Stop", None), RunsWhen::OtherEvent);
    }
}
