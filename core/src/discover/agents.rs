//! Sub-agents: the definitions Claude Code finds, and the listing of agent types that every
//! main-session request carries (measured on 2.1.328: `agents-listing-*` cases).
//!
//! - Where: every `.md` file at any depth below `<config>/agents/` (the user's) and below
//!   `.claude/agents/` of the working directory and each parent up to the git root, or
//!   without git up to the home folder, which is not itself walked (the project's); hidden
//!   folders and files included. A file over 1 MiB is skipped.
//! - What: an agent has frontmatter with a `name` that is a string, does not start with
//!   `-`, holds no `:` and is at most 256 units long, and a `description` that is a
//!   non-empty string. Any other file is no agent (a file without frontmatter, one whose
//!   name is a number, …).
//! - The managed policy's: `.md` files at any depth below `<managed>/.claude/agents/`
//!   (`/etc/claude-code/agents/` is not read).
//! - Which: the managed policy's agents shadow every other of the same name, the project's
//!   the user's, a deeper folder's a parent's, the project's an `--add-dir` folder's; the
//!   user's shadow the built-in ones (measured on 2.1.328:
//!   `agents-managed-policy-agents-skills-and-precedence`,
//!   `agents-order-add-dir-plugin-commands-and-skill-folders`).
//! - Older releases (each a [`Behaviour`], measured with `releases.mjs`): up to 2.1.68 a
//!   frontmatter strict YAML rejects (an unquoted second colon) is no agent; the name checks
//!   came one by one (`-` first, then `:`, then the 256-unit cap), and a parent folder's
//!   agent once shadowed the working directory's.
//! - The line: `- <name>: <description> (Tools: <tools>)`, the description whole with
//!   each written `\n` a line break. The lines, the built-in agents' among them, are sorted
//!   by name: ASCII names first in the locale's order, then the others by UTF-16 code unit.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::Discovery;
use crate::report::{ReadFor, Scope};
use crate::text::frontmatter::{untag, Frontmatter, Value};
use crate::version::{Behaviour, Rules};
use crate::vpath::VPath;

/// A definition file larger than this is skipped (1 MiB).
const AGENT_FILE_MAX_BYTES: u64 = 1024 * 1024;
/// The longest name an agent may have, in UTF-16 units.
const AGENT_NAME_MAX_UTF16: usize = 256;
/// The tools an agent with its own memory gets besides the ones it names, when it names
/// any and auto memory is on (in this order, each one not named already).
const MEMORY_TOOLS: [&str; 3] = ["Write", "Edit", "Read"];

/// A sub-agent definition, as its frontmatter declares it.
#[derive(Debug, Clone)]
pub(super) struct AgentDefinition {
    /// The name the listing shows and an `Agent` call names.
    pub(super) name: String,
    /// Its file.
    pub(super) path: VPath,
    /// Whose it is: the user's or the project's.
    pub(super) scope: Scope,
    /// The agent-memory scope its `memory` field names.
    pub(super) memory: Option<Scope>,
    /// Its line of the listing without the `- ` before it: `<name>: <description> (Tools:
    /// <tools>)`.
    pub(super) line: String,
    /// The definition of the same name that is in force instead, when this one is shadowed.
    pub(super) shadowed_by: Option<VPath>,
}

impl Discovery<'_> {
    /// Every definition found: those in force in the listing's order, then the shadowed
    /// ones, each marked with the definition that shadows it.
    pub(super) fn find_agents(&mut self) -> Vec<AgentDefinition> {
        let mut found = Vec::new();
        let user = self.paths.config.child("agents");
        self.agent_folder(&user, Scope::User, &mut found);
        // The plugins' agents, `<plugin>:<name>` (measured on 2.1.328).
        for plugin in self.plugins.clone() {
            let before = found.len();
            self.agent_folder(&plugin.root.child("agents"), Scope::User, &mut found);
            for agent in &mut found[before..] {
                agent.name = format!("{}:{}", plugin.name, agent.name);
                agent.line = format!("{}:{}", plugin.name, agent.line);
            }
        }
        // The `--add-dir` folders' agents, before the project's: a project agent of the same
        // name is the one in force (measured on 2.1.328).
        for dir in self.paths.additional_dirs.clone() {
            let agents = dir.child(".claude").child("agents");
            self.agent_folder(&agents, Scope::Project, &mut found);
        }
        if let Some(project) = self.paths.project.clone() {
            // Parents first, so that a deeper folder's agent is the one in force (before
            // `Behaviour::DeeperAgentsShadow`, the working directory's first: a parent's won).
            let mut dirs = Vec::new();
            for dir in project.ancestors() {
                if dir == self.paths.home {
                    break;
                }
                dirs.push(dir.clone());
                if self.git_root.as_ref() == Some(&dir) {
                    break;
                }
            }
            if self.paths.rules.has(Behaviour::DeeperAgentsShadow) {
                dirs.reverse();
            }
            for dir in &dirs {
                let agents = dir.child(".claude").child("agents");
                self.agent_folder(&agents, Scope::Project, &mut found);
            }
        }
        // The managed policy's last: of one name, its agent is in force (measured on 2.1.328).
        let managed = self.managed_dir().child(".claude").child("agents");
        self.agent_folder(&managed, Scope::Managed, &mut found);
        in_force(found)
    }

    /// The definitions below one `agents/` folder, at any depth, in path order.
    fn agent_folder(&mut self, dir: &VPath, scope: Scope, out: &mut Vec<AgentDefinition>) {
        let tree = self.tree;
        let files: Vec<VPath> = tree
            .files_under(dir)
            .filter(|(path, entry)| {
                path.file_name().ends_with(".md") && entry.size <= AGENT_FILE_MAX_BYTES
            })
            .map(|(path, _)| path.clone())
            .collect();
        // Claude Code's tool list for an agent with memory depends on auto memory.
        let memory_on = self.settings.auto_memory_enabled;
        let rules = self.paths.rules;
        for path in files {
            let fm = self.frontmatter_of(&path);
            // Up to 2.1.68 the frontmatter is read by strict YAML too: an unquoted second
            // colon (`description: use it when: …`) makes the file no agent.
            if !rules.has(Behaviour::AgentFrontmatterLenient)
                && !matches!(self.text(&path), super::Text::Ready(text) if super::skills::strict_yaml(&text))
            {
                self.source(&path, ReadFor::AgentDefinition, None);
                continue;
            }
            // Its `name` and `memory` decide an agent memory folder, its name, description
            // and tools its line of the listing: sharing renames the name as a name, and
            // keeps the rest of the file at its length.
            self.source(&path, ReadFor::AgentDefinition, None);
            if let Some(definition) =
                fm.and_then(|fm| definition(&fm, path, scope, memory_on, &rules))
            {
                out.push(definition);
            }
        }
    }
}

/// The agent a file's frontmatter defines, if it defines one.
fn definition(
    fm: &Frontmatter,
    path: VPath,
    scope: Scope,
    memory_on: bool,
    rules: &Rules,
) -> Option<AgentDefinition> {
    let text = |key: &str| match fm.value(key).map(untag) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    };
    let name = text("name")?;
    let colon = ['\u{3a}', '\u{ff1a}', '\u{fe55}', '\u{fe13}'];
    if (name.starts_with('-') && rules.has(Behaviour::AgentNameNoLeadingHyphen))
        || (name.contains(colon) && rules.has(Behaviour::AgentNameNoColon))
        || (name.encode_utf16().count() > AGENT_NAME_MAX_UTF16
            && rules.has(Behaviour::AgentNameCapped))
    {
        return None;
    }
    let description = text("description")?;
    let memory = fm.string("memory").and_then(|m| match m.as_str() {
        "user" => Some(Scope::User),
        "project" => Some(Scope::Project),
        "local" => Some(Scope::Local),
        _ => None,
    });
    let mut tools = tool_list(fm.value("tools"));
    if let (Some(named), Some(_), true) = (&mut tools, memory, memory_on) {
        for tool in MEMORY_TOOLS {
            if !named.iter().any(|t| t == tool) {
                named.push(tool.to_owned());
            }
        }
    }
    let disallowed = tool_list(fm.value("disallowedTools"));
    let line = format!(
        "{name}: {} (Tools: {})",
        description.replace("\\n", "\n"),
        tools_text(tools.as_deref(), disallowed.as_deref())
    );
    Some(AgentDefinition {
        name,
        path,
        scope,
        memory,
        line,
        shadowed_by: None,
    })
}

/// A `tools` or `disallowedTools` field as Claude Code reads it: absent is `None` (every
/// tool), a string or a list of strings is split at commas and spaces outside parentheses;
/// a `*` among them is `None` too; anything else is an empty list.
fn tool_list(value: Option<&Value>) -> Option<Vec<String>> {
    let items: Vec<&str> = match untag(value?) {
        Value::String(s) if !s.is_empty() => vec![s.as_str()],
        Value::Sequence(items) => items
            .iter()
            .filter_map(|item| match untag(item) {
                Value::String(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let names: Vec<String> = items.into_iter().flat_map(split_tools).collect();
    (!names.iter().any(|n| n == "*")).then_some(names)
}

/// One written tool list split at commas and spaces outside parentheses, each name trimmed.
fn split_tools(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut name = String::new();
    let mut open = false;
    let mut push = |name: &mut String| {
        let trimmed = name.trim();
        if !trimmed.is_empty() {
            out.push(trimmed.to_owned());
        }
        name.clear();
    };
    for c in text.chars() {
        match c {
            '(' => {
                open = true;
                name.push(c);
            }
            ')' => {
                open = false;
                name.push(c);
            }
            ',' | ' ' if !open => push(&mut name),
            c if !name.is_empty() || !c.is_whitespace() => name.push(c),
            _ => {}
        }
    }
    push(&mut name);
    out
}

/// What the listing says an agent may use.
fn tools_text(tools: Option<&[String]>, disallowed: Option<&[String]>) -> String {
    let tools = tools.filter(|t| !t.is_empty());
    let disallowed = disallowed.filter(|d| !d.is_empty());
    match (tools, disallowed) {
        (Some(tools), Some(denied)) => {
            let left: Vec<&str> = tools
                .iter()
                .filter(|t| !denied.contains(t))
                .map(String::as_str)
                .collect();
            if left.is_empty() {
                "None".to_owned()
            } else {
                left.join(", ")
            }
        }
        (Some(tools), None) => tools.join(", "),
        (None, Some(denied)) => format!("All tools except {}", denied.join(", ")),
        (None, None) => "All tools".to_owned(),
    }
}

/// The definitions in force, sorted as the listing sorts names, then the shadowed ones in
/// the order found: of two with the same name, the one found later is in force.
fn in_force(mut found: Vec<AgentDefinition>) -> Vec<AgentDefinition> {
    let mut winner: HashMap<String, usize> = HashMap::new();
    for (index, definition) in found.iter().enumerate() {
        winner.insert(definition.name.clone(), index);
    }
    let paths: Vec<VPath> = found.iter().map(|d| d.path.clone()).collect();
    for (index, definition) in found.iter_mut().enumerate() {
        let at = winner[&definition.name];
        if at != index {
            definition.shadowed_by = Some(paths[at].clone());
        }
    }
    let (mut listed, shadowed): (Vec<_>, Vec<_>) =
        found.into_iter().partition(|d| d.shadowed_by.is_none());
    listed.sort_by(|a, b| compare_names(&a.name, &b.name));
    listed.extend(shadowed);
    listed
}

/// The order the listing gives agent names: ASCII names before the others; ASCII names in
/// the locale's order (ICU's root collation: punctuation, then digits, then letters, case
/// ignored but lower case first on a tie), the others by UTF-16 code unit.
pub(super) fn compare_names(a: &str, b: &str) -> Ordering {
    match (a.is_ascii(), b.is_ascii()) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => a.encode_utf16().cmp(b.encode_utf16()),
        (true, true) => {
            let primary = |s: &str| -> Vec<u16> { s.bytes().filter_map(primary_weight).collect() };
            primary(a)
                .cmp(&primary(b))
                .then_with(|| {
                    // Tertiary: lower case before upper case, position by position.
                    let case = |s: &str| -> Vec<bool> {
                        s.bytes()
                            .filter(|b| primary_weight(*b).is_some())
                            .map(|b| b.is_ascii_uppercase())
                            .collect()
                    };
                    case(a).cmp(&case(b))
                })
                .then_with(|| a.cmp(b))
        }
    }
}

/// The primary weight of an ASCII byte in ICU's root collation: white space, then
/// punctuation and symbols in CLDR's order, then digits, then letters without case; a
/// control character weighs nothing.
fn primary_weight(byte: u8) -> Option<u16> {
    const ORDER: &[u8] = b"\t\n\x0b\x0c\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";
    if byte.is_ascii_alphabetic() {
        return Some(ORDER.len() as u16 + u16::from(byte.to_ascii_lowercase() - b'a'));
    }
    ORDER.iter().position(|b| *b == byte).map(|at| at as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_as_the_listing_sorts_them() {
        // Measured on 2.1.328 (`agents-listing-line-forms-and-order`).
        let mut names = vec![
            "日本",
            "Zulu",
            "éclair",
            "bravo",
            "ab",
            "a1",
            "Bravo",
            "a-b",
            "a_b",
            "ångström",
            "Explore",
            "escaped",
            "general-purpose",
        ];
        names.sort_by(|a, b| compare_names(a, b));
        assert_eq!(
            names,
            [
                "a_b",
                "a-b",
                "a1",
                "ab",
                "bravo",
                "Bravo",
                "escaped",
                "Explore",
                "general-purpose",
                "Zulu",
                "ångström",
                "éclair",
                "日本"
            ]
        );
    }

    #[test]
    fn tools_split_at_commas_and_spaces_outside_parentheses() {
        assert_eq!(
            split_tools("Bash(git log:*), Read  Grep,"),
            ["Bash(git log:*)", "Read", "Grep"]
        );
        let list = |names: &[&str]| -> Option<Vec<String>> {
            Some(names.iter().map(|n| (*n).to_owned()).collect())
        };
        assert_eq!(tools_text(None, None), "All tools");
        assert_eq!(
            tools_text(
                list(&["Read", "Bash"]).as_deref(),
                list(&["Bash"]).as_deref()
            ),
            "Read"
        );
        assert_eq!(
            tools_text(list(&["Read"]).as_deref(), list(&["Read"]).as_deref()),
            "None"
        );
        assert_eq!(
            tools_text(None, list(&["Bash", "Write"]).as_deref()),
            "All tools except Bash, Write"
        );
    }
}
