//! Custom slash commands: the `.md` files below a `commands/` folder, listed in the skills
//! listing under its budget (measured on 2.1.328: `commands-listing-*` cases).
//!
//! - Where: `/etc/claude-code/.claude/commands/` (the managed policy's), `<config>/commands/`
//!   (the user's), and `.claude/commands/` of the working directory and each parent up to
//!   the git root, or without git up to the home folder, which is not itself walked (the
//!   project's); at any depth, hidden folders included; only names ending in `.md` (case
//!   matters: `x.MD` is left out); a file over 1 MiB is skipped.
//! - The name: the path below the `commands/` folder with `/` as `:` and without `.md`
//!   (`ns/deeper/x.md` is `ns:deeper:x`); a frontmatter `name` does not rename it. A folder
//!   that holds a `SKILL.md` (any case) is one command named by the folder, its other files
//!   ignored.
//! - The line: `<name>: <description>`, the description the frontmatter's (a number or a
//!   boolean as written), else the body's first line, else `Custom command`; then
//!   ` - <when_to_use>`, cut as a skill's is. `disable-model-invocation: true` leaves it
//!   out; `user-invocable: false` does not.
//! - Which: of two commands with one name the managed policy's wins, then the user's, then
//!   the working directory's, then a parent's; a skill of that name (the user's or the
//!   project's) beats any command.
//! - The order: after every skill, all commands sorted by name in the locale's order
//!   ([`compare_locale`]), then the plugins' commands, sorted the same way; a plugin's
//!   command is listed only when its frontmatter gives a description.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use super::skills::{
    cut_units, escape_angles, full_description, listed_measure, SkillLine, SkillSource,
};
use super::{Discovery, Node};
use crate::report::{Code, Diagnostic, Group, LoadType, Measure, Scope, Severity};
use crate::text::frontmatter::Frontmatter;
use crate::text::measure::as_sent;
use crate::text::settings::SkillOverride;
use crate::tree::Tree;
use crate::vpath::VPath;

/// A command file larger than this is skipped (1 MiB), as the program's Markdown loader does.
const COMMAND_FILE_MAX_BYTES: u64 = 1024 * 1024;
/// At most this many command files are read from one `commands/` folder: a bound on hostile
/// input, far above any real setup.
const MAX_COMMANDS_PER_FOLDER: usize = 20_000;
/// The description of a command whose frontmatter and body give none.
const NO_DESCRIPTION: &str = "Custom command";

/// A command file as a `commands/` folder holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CommandFile {
    /// The name it is invoked with: `[<prefix>:]<path below the folder, `/` as `:`>`.
    pub(crate) name: String,
    /// Its `.md` file (a `SKILL.md` for a folder-form command).
    pub(crate) path: VPath,
}

/// The commands one `commands/` folder holds, named as the listing names them, in path
/// order: each `.md` file at any depth, but a folder holding a `SKILL.md` (any case) is one
/// command named by the folder. `prefix` goes before each name with a `:` (a plugin's name,
/// `plugin:command`). At most [`MAX_COMMANDS_PER_FOLDER`] files are taken; the second value
/// says whether that bound left some out.
pub(crate) fn commands_in(
    tree: &Tree,
    dir: &VPath,
    prefix: Option<&str>,
) -> (Vec<CommandFile>, bool) {
    let mut bounded = false;
    // Folder (relative, `/`-joined) → its `.md` files, in path order.
    let mut folders: BTreeMap<String, Vec<(String, VPath)>> = BTreeMap::new();
    let mut count = 0;
    // The folder itself, then each folder linked directly in it (followed as ripgrep's
    // `--follow` does; measured on 2.1.328: `skills-listing-edge-symlinked-folders`), its
    // files named below the link.
    let mut roots = vec![(dir.clone(), String::new())];
    for (name, target) in super::skills::linked_folders(tree, dir) {
        roots.push((target, format!("{name}/")));
    }
    let files = roots.iter().flat_map(|(root, under)| {
        tree.files_under(root).filter_map(move |(path, entry)| {
            let relative = path.strip_prefix(root)?;
            Some((path, entry, format!("{under}{relative}")))
        })
    });
    for (path, entry, relative) in files {
        let name = path.file_name();
        if !name.ends_with(".md") || entry.size > COMMAND_FILE_MAX_BYTES {
            continue;
        }
        let relative = relative.as_str();
        if count >= MAX_COMMANDS_PER_FOLDER {
            bounded = true;
            continue;
        }
        count += 1;
        let folder = relative.rsplit_once('/').map_or("", |(f, _)| f).to_owned();
        folders
            .entry(folder)
            .or_default()
            .push((name.to_owned(), path.clone()));
    }
    let named = |relative: &str| -> String {
        let joined = relative.replace('/', ":");
        match prefix {
            Some(prefix) => format!("{prefix}:{joined}"),
            None => joined,
        }
    };
    let mut out = Vec::new();
    for (folder, files) in folders {
        if let Some((_, path)) = files
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("SKILL.md"))
        {
            // Named by the folder; one directly in `commands/` takes that folder's name.
            let relative = if folder.is_empty() {
                dir.file_name().to_owned()
            } else {
                folder.clone()
            };
            out.push(CommandFile {
                name: named(&relative),
                path: path.clone(),
            });
            continue;
        }
        for (name, path) in files {
            let stem = name.strip_suffix(".md").unwrap_or(&name);
            let relative = if folder.is_empty() {
                stem.to_owned()
            } else {
                format!("{folder}/{stem}")
            };
            out.push(CommandFile {
                name: named(&relative),
                path,
            });
        }
    }
    (out, bounded)
}

/// A command's listing line without the `- `: `<name>: <description>`, the description cut
/// to `limit` UTF-16 units (see the module's doc).
pub(crate) fn command_line(
    name: &str,
    fm: Option<&Frontmatter>,
    body: &str,
    limit: usize,
) -> String {
    let mut description = full_description(fm, body);
    // `full_description` gives ` - <when>` after an empty description; the program puts its
    // fallback first.
    let base_empty = description.is_empty() || description.starts_with(" - ");
    if base_empty {
        description = format!("{NO_DESCRIPTION}{description}");
    }
    format!("{name}: {}", cut_units(&escape_angles(&description), limit))
}

impl Discovery<'_> {
    /// Every custom command found, those in force first in listing order; each listed one
    /// adds its line to the skills listing after the skills. `skills` names the skills found
    /// (by the name they are invoked with): a command of one of those names is not listed.
    pub(super) fn commands(&mut self, skills: &BTreeMap<String, VPath>) -> Vec<Node> {
        let mut folders: Vec<(VPath, Scope)> = vec![(
            self.managed_dir().child(".claude").child("commands"),
            Scope::Managed,
        )];
        folders.push((self.paths.config.child("commands"), Scope::User));
        if let Some(project) = self.paths.project.clone() {
            // The working directory first: of two of one name, the deeper folder's wins.
            for dir in project.ancestors() {
                if dir == self.paths.home {
                    break;
                }
                folders.push((dir.child(".claude").child("commands"), Scope::Project));
                if self.git_root.as_ref() == Some(&dir) {
                    break;
                }
            }
        }
        let mut folders: Vec<(VPath, Scope, Option<String>)> =
            folders.into_iter().map(|(d, s)| (d, s, None)).collect();
        // The plugins' commands, `<plugin>:<name>`, after every other command and sorted
        // among themselves; one without a frontmatter description is not listed (measured on
        // 2.1.328: `agents-order-add-dir-plugin-commands-and-skill-folders`).
        for plugin in self.plugins.clone() {
            folders.push((
                plugin.root.child("commands"),
                Scope::User,
                Some(plugin.name),
            ));
        }
        let mut found: Vec<(CommandFile, Scope, bool)> = Vec::new();
        for (dir, scope, prefix) in folders {
            let (files, bounded) = commands_in(self.tree, &dir, prefix.as_deref());
            if bounded {
                self.diagnostics.push(crate::report::Diagnostic::new(
                    crate::report::Code::ScanSkipped,
                    crate::report::Severity::Info,
                    Some(dir.as_str()),
                    format!(
                        "more than {MAX_COMMANDS_PER_FOLDER} command files: the rest are left \
                         out of the report (Claude Code lists them all)"
                    ),
                ));
            }
            let plugin = prefix.is_some();
            found.extend(files.into_iter().map(|f| (f, scope, plugin)));
        }
        // The first of a name wins; a skill's name beats every command. Rows come in the
        // order found (a shared snapshot keeps it), the listing sorts lines by name.
        self.own_names = skills.keys().cloned().collect();
        self.own_names.extend(
            found
                .iter()
                .filter(|(_, _, plugin)| !plugin)
                .map(|(file, _, _)| file.name.clone()),
        );
        let mut taken: HashMap<String, (VPath, Scope)> = HashMap::new();
        let limit = self.description_limit();
        let mut nodes = Vec::new();
        let mut lines = Vec::new();
        let mut plugin_lines = Vec::new();
        for (file, scope, plugin) in found {
            let hidden_by = match skills.get(&file.name) {
                Some(skill) => Some(Winner::Skill(skill.clone())),
                None => match taken.get(&file.name) {
                    Some((command, scope)) => Some(Winner::Command(command.clone(), *scope)),
                    None => {
                        taken.insert(file.name.clone(), (file.path.clone(), scope));
                        None
                    }
                },
            };
            let listed = hidden_by.is_none();
            if !self.top_level.insert(file.path.clone()) {
                continue;
            }
            let mut node = self.file_node(
                &file.path,
                Group::Commands,
                LoadType::OnDemand,
                Some(scope),
                true,
            );
            node.row.skill_name = Some(file.name.clone());
            if listed {
                let fm = self.frontmatter_of(&file.path);
                let body = match self.text(&file.path) {
                    super::Text::Ready(text) => as_sent(&text),
                    _ => String::new(),
                };
                let line = command_line(&file.name, fm.as_ref(), &body, limit);
                node.row.skill_listing = Some(Measure {
                    lines: 0,
                    ..listed_measure(self.tree, &line, &file.name).0
                });
                let described = !plugin
                    || fm
                        .as_ref()
                        .and_then(|fm| fm.value("description"))
                        .is_some_and(|d| {
                            !matches!(
                                crate::text::frontmatter::untag(d),
                                crate::text::frontmatter::Value::Null
                            )
                        });
                let invocable = described
                    && !fm
                        .as_ref()
                        .and_then(|fm| fm.boolean("disable-model-invocation"))
                        .unwrap_or(false);
                let overridden = self.skill_override(&file.name);
                super::skills::note_override(
                    self.tree,
                    &mut node.row,
                    overridden,
                    &line,
                    &file.name,
                );
                let line = match overridden {
                    SkillOverride::Off | SkillOverride::UserInvocableOnly => None,
                    SkillOverride::NameOnly => Some(file.name.clone()),
                    SkillOverride::On => Some(line),
                };
                if let (true, Some(line)) = (invocable, line) {
                    let to = if plugin {
                        &mut plugin_lines
                    } else {
                        &mut lines
                    };
                    to.push(SkillLine {
                        path: file.path.clone(),
                        shown: file.name.clone(),
                        line,
                        source: SkillSource::Listed,
                        paths: Vec::new(),
                    });
                }
            }
            if let Some(winner) = hidden_by {
                let fm = self.frontmatter_of(&file.path);
                let body = match self.text(&file.path) {
                    super::Text::Ready(text) => as_sent(&text),
                    _ => String::new(),
                };
                let disabled = fm
                    .as_ref()
                    .and_then(|fm| fm.boolean("disable-model-invocation"))
                    .unwrap_or(false);
                let cost = match self.skill_override(&file.name) {
                    SkillOverride::Off | SkillOverride::UserInvocableOnly => None,
                    _ if disabled || plugin => None,
                    SkillOverride::NameOnly => Some(file.name.clone()),
                    SkillOverride::On => Some(command_line(&file.name, fm.as_ref(), &body, limit)),
                }
                .map(|line| listed_measure(self.tree, &line, &file.name).0.utf16);
                self.diagnostics
                    .push(shadowed_command(&file.path, &file.name, &winner, cost));
            }
            nodes.push(node);
        }
        lines.sort_by(|a, b| compare_locale(&a.shown, &b.shown));
        plugin_lines.sort_by(|a, b| compare_locale(&a.shown, &b.shown));
        self.skill_lines.extend(lines);
        self.skill_lines.extend(plugin_lines);
        nodes
    }
}

/// What hides a command: a skill of its name, or a command of its name that wins.
enum Winner {
    Skill(VPath),
    Command(VPath, Scope),
}

/// The `command-shadowed` finding for the command `name` at `path`, hidden by `winner`
/// (measured on 2.1.328: a skill of a command's name, the user's or the project's, beats it;
/// of two commands of one name the managed policy's wins, then the user's, then the working
/// directory's, then a parent's; `commands-listing-order-and-precedence`,
/// `commands-listing-sources-and-forms`). `cost` is the UTF-16 units of the listing line it
/// would have had in every session, `None` when it would not be listed either way.
fn shadowed_command(path: &VPath, name: &str, winner: &Winner, cost: Option<u64>) -> Diagnostic {
    let by = match winner {
        Winner::Skill(skill) => format!("hidden by the skill {skill} of the same name, which a skill's name always beats: /{name} runs the skill"),
        Winner::Command(command, scope) => {
            let whose = match scope {
                Scope::Managed => "the managed policy's",
                Scope::User => "the user's",
                _ => "a nearer folder's",
            };
            format!("hidden by {command}, {whose} command of the same name, which wins: /{name} runs that one")
        }
    };
    let cost = match cost {
        Some(units) => format!(
            "its line in the skills listing would have cost {} characters (UTF-16 units) in \
             every session",
            super::group_digits(units)
        ),
        None => "it would not be listed either way".to_owned(),
    };
    Diagnostic::new(
        Code::CommandShadowed,
        Severity::Warning,
        Some(path.as_str()),
        format!("{by}, and this command never reaches Claude; {cost}; rename one to keep both"),
    )
}

/// The order JavaScript's `localeCompare` gives names (ICU's root collation), as the
/// program sorts commands: letters without their accents and case first (`é` with `e`),
/// punctuation before digits before letters, other scripts after Latin by code point; then
/// unaccented before accented; then lower case before upper case.
pub(crate) fn compare_locale(a: &str, b: &str) -> Ordering {
    let primary = |s: &str| -> Vec<u32> { s.chars().filter_map(primary_weight).collect() };
    let secondary = |s: &str| -> Vec<bool> {
        s.chars()
            .filter(|c| primary_weight(*c).is_some())
            .map(|c| !c.is_ascii() && latin_base(c).is_some())
            .collect()
    };
    let tertiary = |s: &str| -> Vec<bool> {
        s.chars()
            .filter(|c| primary_weight(*c).is_some())
            .map(char::is_uppercase)
            .collect()
    };
    primary(a)
        .cmp(&primary(b))
        .then_with(|| secondary(a).cmp(&secondary(b)))
        .then_with(|| tertiary(a).cmp(&tertiary(b)))
        .then_with(|| a.cmp(b))
}

/// A character's primary weight: white space, punctuation and symbols in CLDR's order,
/// digits, Latin letters without case or accent, then every other character by code point;
/// a control character weighs nothing.
fn primary_weight(c: char) -> Option<u32> {
    const ORDER: &str = "\t\n\x0b\x0c\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";
    let letters = ORDER.len() as u32;
    if let Some(base) = latin_base(c) {
        return Some(letters + u32::from(base as u8 - b'a'));
    }
    if let Some(at) = ORDER.find(c) {
        return Some(at as u32);
    }
    if c.is_control() {
        return None;
    }
    Some(letters + 26 + u32::from(c))
}

/// The lower-case ASCII letter a Latin letter is written on (`É` → `e`), for ASCII letters
/// and the accented letters of Latin-1 and Latin Extended-A.
fn latin_base(c: char) -> Option<char> {
    // U+00C0 to U+017F, one base letter (or `.` for none) each.
    const BASES: &str = "AAAAAA.CEEEEIIII.NOOOOO..UUUUY..aaaaaa.ceeeeiiii.nooooo..uuuuy.yAaAaAaCcCcCcCcDd..EeEeEeEeEeGgGgGgGgHh..IiIiIiIiI...JjKk.LlLlLl....NnNnNn...OoOoOo..RrRrRrSsSsSsSsTtTt..UuUuUuUuUuUuWwYyYZzZzZz.";
    if c.is_ascii_alphabetic() {
        return Some(c.to_ascii_lowercase());
    }
    let at = (c as u32).checked_sub(0xC0)? as usize;
    BASES
        .as_bytes()
        .get(at)
        .filter(|b| b.is_ascii_alphabetic())
        .map(|b| b.to_ascii_lowercase() as char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_as_localecompare_sorts_them() {
        // Measured on 2.1.328 (`commands-listing-order-and-precedence`).
        let mut names = vec![
            "日本",
            "Zeta",
            "éclair",
            "bravo",
            "alpha",
            "a1",
            "Bravo",
            "a-b",
            "a_b",
            ".hidden:x",
            "everywhere",
            "cwd-vs-parent",
            "sk:form",
            "sk:plain",
            "user-over-cwd",
        ];
        names.sort_by(|a, b| compare_locale(a, b));
        assert_eq!(
            names,
            [
                ".hidden:x",
                "a_b",
                "a-b",
                "a1",
                "alpha",
                "bravo",
                "Bravo",
                "cwd-vs-parent",
                "éclair",
                "everywhere",
                "sk:form",
                "sk:plain",
                "user-over-cwd",
                "Zeta",
                "日本"
            ]
        );
    }

    #[test]
    fn a_command_without_description_gets_the_programs() {
        assert_eq!(command_line("x", None, "", 1536), "x: Custom command");
        assert_eq!(command_line("x", None, "# Title\nmore", 1536), "x: Title");
    }
}
