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
/// exactly (`startup | resume`, `startup|`); anything else is a regular expression searched
/// for in the source (`start.*`, `s.*p` and `(startup)` match `startup`; `^start$`, `Startup`
/// and an invalid `[` do not, nor do the words `tup` and `start`).
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

/// Whether a `SessionStart` matcher matches the session source `source`. A regular
/// expression this reader cannot follow (see [`Regex`]) is taken to match when it holds the
/// source's name.
fn session_start_matches(matcher: Option<&str>, source: &str) -> bool {
    let Some(matcher) = matcher.filter(|m| !m.is_empty() && *m != "*") else {
        return true;
    };
    if matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|' || c.is_whitespace())
    {
        return matcher.split('|').any(|word| word.trim() == source);
    }
    match Regex::parse(matcher) {
        Some(Ok(regex)) => regex
            .is_match(source)
            .unwrap_or_else(|| matcher.contains(source)),
        // JavaScript rejects it: the hook never runs.
        Some(Err(())) => false,
        None => matcher.contains(source),
    }
}

/// The longest matcher read as a regular expression, and the deepest nesting of groups.
const MAX_PATTERN_CHARS: usize = 512;
const MAX_GROUP_DEPTH: usize = 16;
/// Steps the search may take before it gives up (a pattern built to backtrack).
const MAX_STEPS: u32 = 10_000;
/// The largest count a `{n,m}` quantifier is read with (the subject is a word).
const MAX_REPEAT: u32 = 1_000;

/// A small regular expression, enough for hook matchers: literals, `.`, classes (`[a-z]`,
/// `[^…]`, `\d`, `\w`, `\s` and their negations), groups with alternation, the quantifiers
/// `*`, `+`, `?`, `{n,m}` (lazy or not) and the anchors `^`, `$`, `\b`, `\B`. Searched for as JavaScript's
/// `RegExp.test` searches, on a short subject.
#[derive(Debug)]
struct Regex(Vec<Vec<Item>>);

#[derive(Debug)]
struct Item {
    atom: Atom,
    min: u32,
    /// At most this many times; `None`: no bound.
    max: Option<u32>,
}

#[derive(Debug)]
enum Atom {
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    Group(Vec<Vec<Item>>),
    Start,
    End,
    /// `\b` (true) or `\B` (false).
    Boundary(bool),
}

impl Regex {
    /// `Some(Ok)` when read, `Some(Err)` when JavaScript would reject it too (an unclosed
    /// group or class, a quantifier with nothing before it), `None` when it uses what this
    /// reader does not follow (look-around, back-references, named groups, other escapes) or is
    /// too large.
    fn parse(pattern: &str) -> Option<Result<Regex, ()>> {
        if pattern.chars().count() > MAX_PATTERN_CHARS {
            return None;
        }
        let chars: Vec<char> = pattern.chars().collect();
        let mut at = 0;
        let alternatives = match parse_alternatives(&chars, &mut at, 0) {
            Ok(alternatives) => alternatives,
            Err(Unread::Invalid) => return Some(Err(())),
            Err(Unread::Unsupported) => return None,
        };
        if at != chars.len() {
            // A `)` with no group open.
            return Some(Err(()));
        }
        Some(Ok(Regex(alternatives)))
    }

    /// Whether the expression matches somewhere in `subject`; `None` past [`MAX_STEPS`].
    fn is_match(&self, subject: &str) -> Option<bool> {
        let text: Vec<char> = subject.chars().collect();
        let mut steps = 0;
        for start in 0..=text.len() {
            let found = match_alternatives(&self.0, &text, start, &mut steps, &mut |_, _| true);
            if steps > MAX_STEPS {
                return None;
            }
            if found {
                return Some(true);
            }
        }
        Some(false)
    }
}

enum Unread {
    Invalid,
    Unsupported,
}

fn parse_alternatives(
    chars: &[char],
    at: &mut usize,
    depth: usize,
) -> Result<Vec<Vec<Item>>, Unread> {
    if depth > MAX_GROUP_DEPTH {
        return Err(Unread::Unsupported);
    }
    let mut alternatives = vec![Vec::new()];
    while let Some(&c) = chars.get(*at) {
        *at += 1;
        let atom = match c {
            '|' => {
                alternatives.push(Vec::new());
                continue;
            }
            ')' => {
                *at -= 1;
                break;
            }
            '(' => {
                if chars.get(*at) == Some(&'?') {
                    if chars.get(*at + 1) == Some(&':') {
                        *at += 2;
                    } else {
                        return Err(Unread::Unsupported);
                    }
                }
                let inner = parse_alternatives(chars, at, depth + 1)?;
                if chars.get(*at) != Some(&')') {
                    return Err(Unread::Invalid);
                }
                *at += 1;
                Atom::Group(inner)
            }
            '[' => {
                let negated = chars.get(*at) == Some(&'^');
                if negated {
                    *at += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let Some(&c) = chars.get(*at) else {
                        return Err(Unread::Invalid);
                    };
                    *at += 1;
                    if c == ']' && !first {
                        break;
                    }
                    if c == ']' {
                        // `[]` matches nothing in JavaScript.
                        break;
                    }
                    first = false;
                    let low = if c == '\\' {
                        let Some(&e) = chars.get(*at) else {
                            return Err(Unread::Invalid);
                        };
                        *at += 1;
                        match escape_class(e) {
                            Some((set, false)) => {
                                ranges.extend(set);
                                continue;
                            }
                            Some((_, true)) => return Err(Unread::Unsupported),
                            None => e,
                        }
                    } else {
                        c
                    };
                    if chars.get(*at) == Some(&'-') && chars.get(*at + 1).is_some_and(|c| *c != ']')
                    {
                        let high = chars[*at + 1];
                        if high == '\\' || high < low {
                            return Err(Unread::Unsupported);
                        }
                        *at += 2;
                        ranges.push((low, high));
                    } else {
                        ranges.push((low, low));
                    }
                }
                Atom::Class(ranges, negated)
            }
            '\\' => {
                let Some(&e) = chars.get(*at) else {
                    return Err(Unread::Invalid);
                };
                *at += 1;
                match escape_class(e) {
                    Some((set, negated)) => Atom::Class(set, negated),
                    None if e == 'b' || e == 'B' => Atom::Boundary(e == 'b'),
                    None if e.is_ascii_alphanumeric() => return Err(Unread::Unsupported),
                    None => Atom::Char(e),
                }
            }
            '.' => Atom::Any,
            '^' => Atom::Start,
            '$' => Atom::End,
            '*' | '+' | '?' => return Err(Unread::Invalid),
            // A `{` that is no quantifier is itself (JavaScript's web reading); one that is
            // has nothing to repeat.
            '{' if braces(chars, *at - 1).is_some() => return Err(Unread::Invalid),
            c => Atom::Char(c),
        };
        let (min, max, width) = match chars.get(*at) {
            Some('*') => (0, None, 1),
            Some('+') => (1, None, 1),
            Some('?') => (0, Some(1), 1),
            Some('{') => match braces(chars, *at) {
                Some((min, max, width)) if max.is_none_or(|max| min <= max) => (min, max, width),
                Some(_) => return Err(Unread::Invalid),
                None => (1, Some(1), 0),
            },
            _ => (1, Some(1), 0),
        };
        if width > 0 {
            *at += width;
            if chars.get(*at) == Some(&'?') {
                *at += 1;
            }
            if matches!(atom, Atom::Start | Atom::End | Atom::Boundary(_)) {
                return Err(Unread::Unsupported);
            }
        }
        alternatives
            .last_mut()
            .expect("one alternative at least")
            .push(Item { atom, min, max });
    }
    Ok(alternatives)
}

/// The quantifier `{n}`, `{n,}` or `{n,m}` at `at` (its `{`): its bounds (each at most
/// [`MAX_REPEAT`]) and its width in characters; `None` when the text there is no quantifier.
fn braces(chars: &[char], at: usize) -> Option<(u32, Option<u32>, usize)> {
    let close = at + chars.get(at..)?.iter().position(|c| *c == '}')?;
    let inside: String = chars[at + 1..close].iter().collect();
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().unwrap_or(u32::MAX).min(MAX_REPEAT))
    };
    let (min, max) = match inside.split_once(',') {
        None => {
            let n = number(&inside)?;
            (n, Some(n))
        }
        Some((low, "")) => (number(low)?, None),
        Some((low, high)) => (number(low)?, Some(number(high)?)),
    };
    Some((min, max, close - at + 1))
}

/// The class `\d`, `\w`, `\s` (or a capital: negated) stands for, as ranges; `None` for
/// any other escape.
fn escape_class(e: char) -> Option<(Vec<(char, char)>, bool)> {
    let set = match e.to_ascii_lowercase() {
        'd' => vec![('0', '9')],
        'w' => vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
        's' => vec![(' ', ' '), ('\t', '\r')],
        _ => return None,
    };
    Some((set, e.is_ascii_uppercase()))
}

/// Whether one of `alternatives` matches at `at`, then `next` accepts where it ends.
fn match_alternatives(
    alternatives: &[Vec<Item>],
    text: &[char],
    at: usize,
    steps: &mut u32,
    next: &mut dyn FnMut(usize, &mut u32) -> bool,
) -> bool {
    alternatives
        .iter()
        .any(|items| match_items(items, text, at, steps, next))
}

fn match_items(
    items: &[Item],
    text: &[char],
    at: usize,
    steps: &mut u32,
    next: &mut dyn FnMut(usize, &mut u32) -> bool,
) -> bool {
    *steps += 1;
    if *steps > MAX_STEPS {
        return false;
    }
    let Some((item, rest)) = items.split_first() else {
        return next(at, steps);
    };
    match_repeated(item, 0, rest, text, at, steps, next)
}

/// `item` matched `count` times so far, ending at `at`: tries once more (greedy) while it
/// may, then the rest.
fn match_repeated(
    item: &Item,
    count: u32,
    rest: &[Item],
    text: &[char],
    at: usize,
    steps: &mut u32,
    next: &mut dyn FnMut(usize, &mut u32) -> bool,
) -> bool {
    let more = item.max.is_none_or(|max| count < max);
    if more {
        let mut after = |end: usize, steps: &mut u32| {
            // A repetition past the minimum that consumed nothing stops repeating.
            (end != at || count < item.min)
                && match_repeated(item, count + 1, rest, text, end, steps, next)
        };
        if match_atom(&item.atom, text, at, steps, &mut after) {
            return true;
        }
    }
    count >= item.min && match_items(rest, text, at, steps, next)
}

fn match_atom(
    atom: &Atom,
    text: &[char],
    at: usize,
    steps: &mut u32,
    next: &mut dyn FnMut(usize, &mut u32) -> bool,
) -> bool {
    let one = |ok: bool, steps: &mut u32, next: &mut dyn FnMut(usize, &mut u32) -> bool| {
        ok && next(at + 1, steps)
    };
    match atom {
        Atom::Char(c) => one(text.get(at) == Some(c), steps, next),
        Atom::Any => one(
            text.get(at)
                .is_some_and(|c| !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')),
            steps,
            next,
        ),
        Atom::Class(ranges, negated) => one(
            text.get(at)
                .is_some_and(|c| ranges.iter().any(|(l, h)| l <= c && c <= h) != *negated),
            steps,
            next,
        ),
        Atom::Group(alternatives) => match_alternatives(alternatives, text, at, steps, next),
        Atom::Start => at == 0 && next(at, steps),
        Atom::Boundary(wanted) => {
            let word = |c: Option<&char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_');
            let before = at.checked_sub(1).and_then(|i| text.get(i));
            (word(before) != word(text.get(at))) == *wanted && next(at, steps)
        }
        Atom::End => at == text.len() && next(at, steps),
    }
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
        assert_eq!(hook_runs("UserPromptSubmit", None), RunsWhen::EachPrompt);
        assert_eq!(hook_runs("PreToolUse", Some("Bash")), RunsWhen::ToolCalls);
        assert_eq!(hook_runs("Stop", None), RunsWhen::OtherEvent);
    }
}
