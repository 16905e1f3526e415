//! Discovery: walks the tree in Claude Code's order and decides each file's group, load
//! type, scope and status.
//!
//! The walk asks for file contents through [`Discovery::text`]. A file whose contents have
//! not arrived yet is treated as empty for this pass and recorded in `needs`; the caller
//! fetches those and runs the walk again, until a pass needs nothing new. Every pass is a
//! pure function of the tree, so the last pass is the answer.

mod health;

pub(crate) use health::{CORRECTION_WORDS, RULE_MATCH_FILES};

use std::collections::{BTreeMap, BTreeSet};

use crate::encode::{encode_project_path, name_prefix, seed_encode_project_path};
use crate::report::{
    Diagnostic, FileRow, FileStatus, FrontmatterField, Group, Health, LoadType, Measure,
    MemoryFolder, MemoryLookup, Os, ReferenceKind, ReferenceSite, Scope, Severity,
    UnresolvedReason,
};
use crate::text::frontmatter::{self, Frontmatter};
use crate::text::glob::Glob;
use crate::text::measure::{measure, strip_for_loading};
use crate::text::references::{self, RawReference};
use crate::text::{memory_index, settings};
use crate::tree::{Contents, Tree};
use crate::version::{ClaudeVersion, Rules};
use crate::vpath::VPath;

/// A CLAUDE.md larger than this is skipped by Claude Code (4 MiB).
pub(crate) const CLAUDE_MD_MAX_BYTES: u64 = 4 * 1024 * 1024;
/// Claude Code warns about a CLAUDE.md longer than this many characters.
pub(crate) const CLAUDE_MD_WARN_CHARS: u64 = 40_000;
/// The largest file the analysis will ask to read (a 50 MB `MEMORY.md` is still read).
pub(crate) const READ_CAP_BYTES: u64 = 64 * 1024 * 1024;
/// Nested CLAUDE.md files are found this many folders below the project.
pub(crate) const MAX_NESTED_DEPTH: usize = 6;
/// `SKILL.md` is found at most this many path components below a `skills/` folder.
pub(crate) const MAX_SKILL_COMPONENTS: usize = 4;
/// The skill listing keeps this many characters of description and `when_to_use`.
pub(crate) const SKILL_LISTING_CHARS: usize = 1_536;

/// Folders the nested walk never enters (besides every folder whose name starts with `.`).
const SKIPPED_DIRS: [&str; 13] = [
    "node_modules",
    ".git",
    ".hg",
    ".svn",
    "dist",
    "build",
    "out",
    ".next",
    ".nuxt",
    "vendor",
    "__pycache__",
    ".venv",
    "venv",
];

/// Folders of the config directory that hold bulk data the analysis never reads.
const BULK_CONFIG_DIRS: [&str; 9] = [
    "file-history",
    "todos",
    "shell-snapshots",
    "debug",
    "statsig",
    "telemetry",
    "cache",
    "ide",
    "session-env",
];

/// The four CLAUDE.md names checked in every folder, in the order Claude Code concatenates
/// them, with the scope of each.
const CLAUDE_MD_NAMES: [(&str, Scope); 4] = [
    ("CLAUDE.md", Scope::Project),
    (".claude/CLAUDE.md", Scope::Project),
    ("CLAUDE.local.md", Scope::Local),
    (".claude/CLAUDE.local.md", Scope::Local),
];

/// The resolved inputs of one pass.
#[derive(Debug, Clone)]
pub(crate) struct Paths {
    pub(crate) home: VPath,
    pub(crate) config: VPath,
    pub(crate) project: Option<VPath>,
    pub(crate) os: Os,
    /// The loading rules of the simulated release.
    pub(crate) rules: Rules,
    /// The simulated release, for messages; `None` for current.
    pub(crate) version: Option<ClaudeVersion>,
    /// Today as a day number, for the growth projection.
    pub(crate) today: Option<i64>,
}

/// What one discovery pass found.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) rows: Vec<FileRow>,
    pub(crate) memory_folders: Vec<MemoryFolder>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) needs: BTreeSet<VPath>,
    pub(crate) projects_base: VPath,
    pub(crate) git_root: Option<VPath>,
    pub(crate) memory_dir: Option<VPath>,
    pub(crate) memory_found_via: Option<MemoryLookup>,
    pub(crate) memory_folder_name: Option<String>,
    pub(crate) auto_memory_enabled: bool,
    pub(crate) auto_memory_setting_from: Option<VPath>,
    pub(crate) health: Health,
}

/// A row and the rows of the references it holds, before the tree is flattened.
#[derive(Debug)]
struct Node {
    row: FileRow,
    children: Vec<Node>,
}

/// The text of a file, as far as this pass can tell.
enum Text {
    /// Read and decoded.
    Ready(String),
    /// Requested; empty for this pass.
    Pending,
    /// Exists but is not read: bulk data, or too large.
    NotRead(NotRead),
    /// Not in the tree.
    Missing,
}

enum NotRead {
    Bulk,
    TooLarge(u64),
    Unreadable,
}

/// The walk's state for one pass.
struct Discovery<'a> {
    tree: &'a Tree,
    paths: Paths,
    needs: BTreeSet<VPath>,
    diagnostics: Vec<Diagnostic>,
    top_level: BTreeSet<VPath>,
    excludes: Vec<(String, Glob)>,
    projects_base: VPath,
}

/// Runs one discovery pass over `tree`.
pub(crate) fn run(tree: &Tree, paths: Paths) -> Found {
    let projects_base = paths.config.child("projects");
    let mut walk = Discovery {
        tree,
        paths,
        needs: BTreeSet::new(),
        diagnostics: Vec::new(),
        top_level: BTreeSet::new(),
        excludes: Vec::new(),
        projects_base,
    };
    walk.run()
}

impl Discovery<'_> {
    fn run(&mut self) -> Found {
        let settings = self.read_settings();
        let mut groups: BTreeMap<Group, Vec<Node>> = BTreeMap::new();

        let managed = self.managed_policy();
        groups
            .entry(Group::ManagedPolicy)
            .or_default()
            .extend(managed);
        let user = self.user_claude_md();
        groups.entry(Group::User).or_default().extend(user);
        let user_rules = self.rules(&self.paths.config.child("rules"), Scope::User);
        groups.entry(Group::Rules).or_default().extend(user_rules);

        let mut auto_memory = Vec::new();
        let mut skills = Vec::new();
        let mut agent_memory = Vec::new();
        let mut git_root = None;
        let mut key_path = None;
        let mut lookup = None;
        let mut memory_folder_name = None;
        if let Some(project) = self.paths.project.clone() {
            let project_md = self.project_claude_md(&project);
            groups.entry(Group::Project).or_default().extend(project_md);
            let (nested, visited) = self.nested_claude_md(&project);
            groups.entry(Group::Project).or_default().extend(nested);
            let project_rules = self.rules(&project.join(".claude/rules").unwrap(), Scope::Project);
            groups
                .entry(Group::Rules)
                .or_default()
                .extend(project_rules);

            skills.extend(self.skills(
                &project.join(".claude/skills").unwrap(),
                None,
                Scope::Project,
            ));
            for sub in &visited {
                let rel = sub.strip_prefix(&project).unwrap_or_default().to_owned();
                let dir = sub.join(".claude/skills").unwrap();
                skills.extend(self.skills(&dir, Some(&rel), Scope::Project));
            }

            let git = self.git_key(&project);
            git_root = git.as_ref().map(|(root, _)| root.clone());
            let linked = git.as_ref().is_some_and(|(_, linked)| *linked);
            // Before 2.1.63 each linked worktree kept its own memory.
            let worktree = linked && self.paths.rules.worktrees_share_memory;
            let key = match git {
                Some(_) if linked && !worktree => project.clone(),
                Some((root, _)) => root,
                None => project.clone(),
            };
            memory_folder_name = Some(encode_project_path(key.as_str()));
            lookup = if self.paths.rules.auto_memory {
                self.find_memory_dir(&project, &key, worktree)
            } else {
                None
            };
            match &lookup {
                Some((dir, _)) => {
                    let dir = dir.clone();
                    auto_memory = self.memory_folder(&dir, Group::AutoMemory, None, None);
                }
                None if !self.paths.rules.auto_memory => self.diagnostics.push(Diagnostic::new(
                    "auto-memory-absent",
                    Severity::Info,
                    None,
                    format!(
                        "{} has no auto memory: it arrived in 2.1.59",
                        self.version_name()
                    ),
                )),
                None => self.diagnostics.push(Diagnostic::new(
                    "memory-folder-not-found",
                    Severity::Info,
                    None,
                    format!(
                        "no auto-memory folder for {key}: looked for {}/{}/memory, its \
                         older encoding and a folder ending with its last two path segments",
                        self.projects_base,
                        memory_folder_name.as_deref().unwrap_or_default()
                    ),
                )),
            }
            key_path = Some(key);
        }
        skills.extend(self.skills(&self.paths.config.child("skills"), None, Scope::User));

        let agent_roots = {
            let mut roots = vec![(self.paths.config.child("agent-memory"), Scope::User)];
            if let Some(project) = &self.paths.project {
                roots.push((
                    project.join(".claude/agent-memory").unwrap(),
                    Scope::Project,
                ));
                roots.push((
                    project.join(".claude/agent-memory-local").unwrap(),
                    Scope::Local,
                ));
            }
            roots
        };
        for (root, scope) in agent_roots {
            for agent in self.tree.child_dirs(&root) {
                let dir = root.child(&agent);
                agent_memory.extend(self.memory_folder(
                    &dir,
                    Group::AgentMemory,
                    Some(scope),
                    Some(&agent),
                ));
            }
        }

        if !settings.auto_memory_enabled {
            for node in &mut auto_memory {
                mark_disabled(node);
            }
            let from = settings
                .enabled_from
                .as_ref()
                .map_or_else(String::new, |p| format!(" ({p})"));
            self.diagnostics.push(Diagnostic::new(
                "auto-memory-disabled",
                Severity::Warning,
                settings.enabled_from.as_ref().map(VPath::as_str),
                format!(
                    "auto memory is switched off by autoMemoryEnabled: false{from}; its files \
                     are listed but not loaded"
                ),
            ));
        }
        groups.insert(Group::AutoMemory, auto_memory);
        groups.insert(Group::Skills, skills);
        groups.insert(Group::AgentMemory, agent_memory);

        let memory_dir = lookup.as_ref().map(|(dir, _)| dir.clone());
        let memory_folders = self.memory_folders(memory_dir.as_ref());

        let mut rows = Vec::new();
        for group in Group::ALL {
            for node in groups.remove(&group).unwrap_or_default() {
                flatten(node, None, &mut rows);
            }
        }
        let facts = health::MemoryFacts {
            key_path,
            git_root: git_root.clone(),
            memory_dir: memory_dir.clone(),
            found_via: lookup.as_ref().map(|(_, via)| *via),
            enabled: settings.auto_memory_enabled,
            votes: settings.votes.clone(),
        };
        let health = self.health(&rows, &facts);
        Found {
            rows,
            memory_folders,
            diagnostics: std::mem::take(&mut self.diagnostics),
            needs: std::mem::take(&mut self.needs),
            projects_base: self.projects_base.clone(),
            git_root,
            memory_dir,
            memory_found_via: lookup.map(|(_, via)| via),
            memory_folder_name,
            auto_memory_enabled: settings.auto_memory_enabled,
            auto_memory_setting_from: settings.enabled_from,
            health,
        }
    }

    // ----- settings -------------------------------------------------------------------

    /// Reads the three settings files, sets the excludes and the projects base, and returns
    /// the effective auto-memory switch.
    fn read_settings(&mut self) -> EffectiveSettings {
        let mut files = vec![(
            self.paths.config.child("settings.json"),
            SettingsLayer::User,
        )];
        if let Some(project) = &self.paths.project {
            files.push((
                project.join(".claude/settings.json").unwrap(),
                SettingsLayer::Project,
            ));
            files.push((
                project.join(".claude/settings.local.json").unwrap(),
                SettingsLayer::Local,
            ));
        }
        let mut effective = EffectiveSettings {
            auto_memory_enabled: true,
            enabled_from: None,
            votes: Vec::new(),
        };
        let mut patterns = Vec::new();
        for (path, layer) in files {
            let Text::Ready(text) = self.text(&path) else {
                continue;
            };
            match settings::parse(&text) {
                Err(error) => self.diagnostics.push(Diagnostic::new(
                    "invalid-settings",
                    Severity::Warning,
                    Some(path.as_str()),
                    format!("settings file ignored: {error}"),
                )),
                Ok((parsed, warnings)) => {
                    for warning in warnings {
                        self.diagnostics.push(Diagnostic::new(
                            "invalid-settings",
                            Severity::Warning,
                            Some(path.as_str()),
                            warning,
                        ));
                    }
                    // Later layers win: local over project over user.
                    if let Some(enabled) = parsed.auto_memory_enabled {
                        effective.auto_memory_enabled = enabled;
                        effective.enabled_from = Some(path.clone());
                        effective.votes.push((path.clone(), enabled));
                    }
                    patterns.extend(parsed.claude_md_excludes);
                    if let Some(dir) = parsed.auto_memory_directory {
                        if layer == SettingsLayer::User {
                            self.set_projects_base(&path, &dir);
                        } else {
                            self.diagnostics.push(Diagnostic::new(
                                "auto-memory-directory-ignored",
                                Severity::Info,
                                Some(path.as_str()),
                                "autoMemoryDirectory is read from the user settings only; \
                                 this one has no effect",
                            ));
                        }
                    }
                }
            }
        }
        for pattern in patterns {
            match Glob::new(&pattern) {
                Ok(glob) => self.excludes.push((pattern, glob)),
                Err(error) => self.diagnostics.push(Diagnostic::new(
                    "invalid-settings",
                    Severity::Warning,
                    None,
                    format!("claudeMdExcludes pattern {pattern:?} ignored: {error}"),
                )),
            }
        }
        effective
    }

    fn set_projects_base(&mut self, settings_path: &VPath, dir: &str) {
        let resolved = if let Some(rest) = dir.strip_prefix("~/") {
            self.paths.home.join(rest).ok()
        } else if dir == "~" {
            Some(self.paths.home.clone())
        } else {
            VPath::new(dir).ok()
        };
        match resolved {
            Some(base) => self.projects_base = base,
            None => self.diagnostics.push(Diagnostic::new(
                "invalid-settings",
                Severity::Warning,
                Some(settings_path.as_str()),
                format!(
                    "autoMemoryDirectory {dir:?} is neither absolute nor under ~/; the default \
                     {} is used",
                    self.projects_base
                ),
            )),
        }
    }

    // ----- the CLAUDE.md family ---------------------------------------------------------

    fn managed_policy(&mut self) -> Vec<Node> {
        let path = VPath::new(match self.paths.os {
            Os::Linux => "/etc/claude-code/CLAUDE.md",
            Os::Macos => "/Library/Application Support/ClaudeCode/CLAUDE.md",
            Os::Windows => "C:/Program Files/ClaudeCode/CLAUDE.md",
        })
        .expect("constant path");
        self.claude_md(
            &path,
            Group::ManagedPolicy,
            LoadType::Always,
            Scope::Managed,
        )
        .into_iter()
        .collect()
    }

    fn user_claude_md(&mut self) -> Vec<Node> {
        let path = self.paths.config.child("CLAUDE.md");
        self.claude_md(&path, Group::User, LoadType::Always, Scope::User)
            .into_iter()
            .collect()
    }

    /// The project folder and every folder above it (not the root), outermost first.
    fn project_claude_md(&mut self, project: &VPath) -> Vec<Node> {
        let mut dirs: Vec<VPath> = project.ancestors().filter(|d| !d.is_root()).collect();
        dirs.reverse();
        let mut nodes = Vec::new();
        for dir in dirs {
            for (name, scope) in CLAUDE_MD_NAMES {
                let path = dir.join(name).expect("constant names");
                nodes.extend(self.claude_md(&path, Group::Project, LoadType::Always, scope));
            }
        }
        nodes
    }

    /// CLAUDE.md files in subfolders 1 to 6 deep; also returns the folders visited, for the
    /// skills in subfolders.
    fn nested_claude_md(&mut self, project: &VPath) -> (Vec<Node>, Vec<VPath>) {
        let mut nodes = Vec::new();
        let mut visited = Vec::new();
        self.walk_nested(project, 0, &mut nodes, &mut visited);
        (nodes, visited)
    }

    fn walk_nested(
        &mut self,
        dir: &VPath,
        depth: usize,
        nodes: &mut Vec<Node>,
        visited: &mut Vec<VPath>,
    ) {
        if depth > 0 {
            visited.push(dir.clone());
            for (name, scope) in CLAUDE_MD_NAMES {
                let path = dir.join(name).expect("constant names");
                nodes.extend(self.claude_md(&path, Group::Project, LoadType::Tree, scope));
            }
        }
        if depth == MAX_NESTED_DEPTH {
            return;
        }
        for child in self.tree.child_dirs(dir) {
            if child.starts_with('.') || SKIPPED_DIRS.contains(&child.as_str()) {
                continue;
            }
            self.walk_nested(&dir.child(&child), depth + 1, nodes, visited);
        }
    }

    /// A CLAUDE.md-family file, if it exists and is not listed yet.
    fn claude_md(
        &mut self,
        path: &VPath,
        group: Group,
        load: LoadType,
        scope: Scope,
    ) -> Option<Node> {
        if !self.tree.is_file(path) || self.top_level.contains(path) {
            return None;
        }
        self.top_level.insert(path.clone());
        let size = self.tree.file(path).map_or(0, |f| f.size);
        if size > CLAUDE_MD_MAX_BYTES {
            self.diagnostics.push(Diagnostic::new(
                "claude-md-skipped",
                Severity::Error,
                Some(path.as_str()),
                format!(
                    "{} is {}, over the 4 MiB Claude Code loads; it is skipped entirely",
                    path.file_name(),
                    format_bytes(size)
                ),
            ));
            let mut row = blank_row(path, group, load, Some(scope), Some(size));
            row.status = FileStatus::Skipped;
            return Some(Node {
                row,
                children: Vec::new(),
            });
        }
        let pattern = (scope != Scope::Managed)
            .then(|| self.exclude_pattern(path))
            .flatten();
        let mut node = self.file_node(path, group, load, Some(scope), pattern.is_none());
        if let Some(pattern) = pattern {
            self.mark_excluded(&mut node.row, &pattern);
        } else if let Some(loaded) = node.row.loaded.filter(|l| l.chars > CLAUDE_MD_WARN_CHARS) {
            self.diagnostics.push(Diagnostic::new(
                "claude-md-too-large",
                Severity::Warning,
                Some(path.as_str()),
                format!(
                    "{} is {} characters, over the 40,000 at which Claude Code warns that a \
                     large memory file hurts performance",
                    path.file_name(),
                    group_digits(loaded.chars)
                ),
            ));
        }
        Some(node)
    }

    /// An excluded file is listed, not loaded, and its references are not followed.
    fn mark_excluded(&mut self, row: &mut FileRow, pattern: &str) {
        row.status = FileStatus::Excluded;
        row.loaded = None;
        self.diagnostics.push(Diagnostic::new(
            "claude-md-excluded",
            Severity::Info,
            Some(&row.path),
            format!("excluded by claudeMdExcludes pattern {pattern:?}; not loaded"),
        ));
    }

    /// The first `claudeMdExcludes` pattern that matches `path`.
    fn exclude_pattern(&self, path: &VPath) -> Option<String> {
        self.excludes
            .iter()
            .find(|(_, glob)| glob.matches(path.as_str()))
            .map(|(pattern, _)| pattern.clone())
    }

    // ----- rules and skills -------------------------------------------------------------

    fn rules(&mut self, dir: &VPath, scope: Scope) -> Vec<Node> {
        let paths: Vec<VPath> = self
            .tree
            .files_under(dir)
            .map(|(path, _)| path.clone())
            .filter(|path| path.extension() == Some("md"))
            .collect();
        let mut nodes = Vec::new();
        for path in paths {
            if !self.top_level.insert(path.clone()) {
                continue;
            }
            let pattern = self.exclude_pattern(&path);
            let mut node = self.file_node(
                &path,
                Group::Rules,
                LoadType::Always,
                Some(scope),
                pattern.is_none(),
            );
            let globs = self.rule_globs(&path);
            if !globs.is_empty() {
                node.row.load = LoadType::Conditional;
            }
            node.row.paths = Some(globs);
            if let Some(pattern) = pattern {
                self.mark_excluded(&mut node.row, &pattern);
            }
            nodes.push(node);
        }
        nodes
    }

    /// A rule's `paths` globs, as the simulated release reads them.
    fn rule_globs(&mut self, path: &VPath) -> Vec<String> {
        let Some(value) = self
            .frontmatter_of(path)
            .and_then(|fm| fm.value("paths").cloned())
        else {
            return Vec::new();
        };
        let globs = frontmatter::parse_paths(&value);
        if self.paths.rules.paths_list || !value.is_sequence() || globs.is_empty() {
            return globs;
        }
        // Before 2.1.84 a YAML list was joined into one pattern, which matches nothing.
        let joined = globs.concat();
        self.diagnostics.push(Diagnostic::new(
            "rule-paths-joined",
            Severity::Warning,
            Some(path.as_str()),
            format!(
                "{} reads a paths list as the single pattern {joined:?}, which matches no \
                 file: write the globs as one comma-separated string",
                self.version_name()
            ),
        ));
        vec![joined]
    }

    fn version_name(&self) -> String {
        self.paths
            .version
            .map_or_else(|| "Claude Code".to_owned(), |v| format!("Claude Code {v}"))
    }

    /// Every `SKILL.md` at most four components below `dir`; `subdir` prefixes the names of
    /// skills found in a project subfolder.
    fn skills(&mut self, dir: &VPath, subdir: Option<&str>, scope: Scope) -> Vec<Node> {
        let paths: Vec<VPath> = self
            .tree
            .files_under(dir)
            .map(|(path, _)| path.clone())
            .filter(|path| {
                let components = path
                    .strip_prefix(dir)
                    .map_or(0, |rest| rest.split('/').count());
                path.file_name() == "SKILL.md" && (2..=MAX_SKILL_COMPONENTS).contains(&components)
            })
            .collect();
        let mut nodes = Vec::new();
        for path in paths {
            if !self.top_level.insert(path.clone()) {
                continue;
            }
            let mut node =
                self.file_node(&path, Group::Skills, LoadType::OnDemand, Some(scope), true);
            let fm = self.frontmatter_of(&path);
            let folder = path
                .parent()
                .map(|p| p.file_name().to_owned())
                .unwrap_or_default();
            let base = fm
                .as_ref()
                .and_then(|fm| fm.string("name"))
                .filter(|n| !n.trim().is_empty())
                .unwrap_or(folder);
            let name = match subdir {
                Some(sub) => format!("{sub}:{base}"),
                None => base,
            };
            let mut described = String::new();
            for key in ["description", "when_to_use"] {
                if let Some(text) = fm.as_ref().and_then(|fm| fm.string(key)) {
                    described.push_str(&text);
                }
            }
            let capped: String = described.chars().take(SKILL_LISTING_CHARS).collect();
            let listing = measure(&format!("{name}{capped}"));
            node.row.skill_listing = Some(Measure {
                lines: 0,
                ..listing
            });
            node.row.skill_name = Some(name);
            node.row.counted = !fm
                .as_ref()
                .and_then(|fm| fm.boolean("disable-model-invocation"))
                .unwrap_or(false);
            nodes.push(node);
        }
        nodes
    }

    // ----- auto memory and agent memory -------------------------------------------------

    /// The git root that keys the memory folder, and whether the project is a linked
    /// worktree (then the root is the main worktree's).
    fn git_key(&mut self, project: &VPath) -> Option<(VPath, bool)> {
        for dir in project.ancestors() {
            let git = dir.child(".git");
            if self.tree.is_dir(&git) {
                return Some((dir, false));
            }
            if self.tree.is_file(&git) {
                let Text::Ready(text) = self.text(&git) else {
                    return Some((dir, false));
                };
                let target = text
                    .lines()
                    .find_map(|line| line.trim().strip_prefix("gitdir:"))
                    .map(str::trim)
                    .unwrap_or_default()
                    .to_owned();
                let resolved = if VPath::new(&target).is_ok() {
                    VPath::new(&target).ok()
                } else {
                    dir.join(&target).ok()
                };
                let main = resolved.as_ref().and_then(|gitdir| {
                    let s = gitdir.as_str();
                    s.find("/.git/worktrees/")
                        .and_then(|cut| VPath::new(&s[..cut]).ok())
                });
                return Some(match main {
                    Some(main) => (main, true),
                    // A submodule or a detached git dir: the folder itself is the root.
                    None => (dir, false),
                });
            }
        }
        None
    }

    fn find_memory_dir(
        &mut self,
        project: &VPath,
        key: &VPath,
        worktree: bool,
    ) -> Option<(VPath, MemoryLookup)> {
        let base = self.projects_base.clone();
        let names = self.tree.child_dirs(&base);
        let has_memory = |name: &str| self.tree.is_dir(&base.child(name).child("memory"));

        let encoded = encode_project_path(key.as_str());
        let (prefix, long) = name_prefix(&encoded);
        let direct = names.iter().find(|name| {
            if long {
                name.starts_with(prefix)
            } else {
                *name == prefix
            }
        });
        if let Some(name) = direct.filter(|n| has_memory(n)) {
            let via = if worktree {
                MemoryLookup::Worktree
            } else {
                MemoryLookup::Path
            };
            return Some((base.child(name).child("memory"), via));
        }
        let seed = seed_encode_project_path(key.as_str());
        if names.contains(&seed) && has_memory(&seed) {
            return Some((
                base.child(&seed).child("memory"),
                MemoryLookup::SeedEncoding,
            ));
        }
        let segments: Vec<&str> = project.segments().collect();
        if segments.len() >= 2 {
            let tail = segments[segments.len() - 2..].join("/");
            let suffix = format!("-{}", encode_project_path(&tail)).to_lowercase();
            if let Some(name) = names
                .iter()
                .find(|n| n.to_lowercase().ends_with(&suffix) && has_memory(n))
            {
                return Some((base.child(name).child("memory"), MemoryLookup::Suffix));
            }
        }
        None
    }

    /// A memory folder: `MEMORY.md` (startup) with what it references, then every topic file
    /// it does not reach (on-demand).
    fn memory_folder(
        &mut self,
        dir: &VPath,
        group: Group,
        scope: Option<Scope>,
        agent: Option<&str>,
    ) -> Vec<Node> {
        let index = dir.child("MEMORY.md");
        let mut nodes = Vec::new();
        let mut claimed = BTreeSet::new();
        if self.tree.is_file(&index) {
            self.top_level.insert(index.clone());
            let mut node =
                self.file_node_with(&index, group, LoadType::Startup, scope, true, Some(dir));
            self.apply_memory_caps(&mut node.row);
            collect_paths(&node, &mut claimed);
            nodes.push(node);
        }
        let topics: Vec<VPath> = self
            .tree
            .files_under(dir)
            .map(|(path, _)| path.clone())
            .filter(|path| path.extension() == Some("md") && *path != index)
            .collect();
        for path in topics {
            if claimed.contains(&path) || !self.top_level.insert(path.clone()) {
                continue;
            }
            nodes.push(self.file_node_with(
                &path,
                group,
                LoadType::OnDemand,
                scope,
                true,
                Some(dir),
            ));
        }
        if let Some(agent) = agent {
            for node in &mut nodes {
                set_agent(node, agent);
            }
        }
        nodes
    }

    fn apply_memory_caps(&mut self, row: &mut FileRow) {
        let Ok(path) = VPath::new(&row.path) else {
            return;
        };
        let Text::Ready(text) = self.text(&path) else {
            return;
        };
        let rules = self.paths.rules;
        let caps = memory_index::Caps {
            size_cap: rules.memory_size_cap,
            strip_first: rules.strip_before_caps,
        };
        let cut = memory_index::cut_with(&text, caps);
        row.loaded = Some(measure(&cut.loaded));
        if let Some(warning) = memory_index::truncated_warning(&cut.truncation) {
            let t = &cut.truncation;
            let detail = format!(
                " {} of {} lines and {} of {} UTF-16 units load; from line {} on, the newest \
                 entries are dropped.",
                t.loaded_lines,
                t.total_lines,
                group_digits(t.loaded_utf16),
                group_digits(t.total_utf16),
                t.first_dropped_line.unwrap_or_default()
            );
            let mut diagnostic = Diagnostic::new(
                "memory-index-truncated",
                Severity::Warning,
                Some(&row.path),
                format!("{warning}{detail}"),
            );
            if let Some(line) = t.first_dropped_line {
                diagnostic = diagnostic.at_line(line);
            }
            self.diagnostics.push(diagnostic);
        } else if let Some(reminder) = memory_index::near_limit_warning(&cut.truncation) {
            self.diagnostics.push(Diagnostic::new(
                "memory-index-near-limit",
                Severity::Warning,
                Some(&row.path),
                reminder,
            ));
        }
        row.truncation = Some(cut.truncation);
    }

    fn memory_folders(&self, current: Option<&VPath>) -> Vec<MemoryFolder> {
        let base = &self.projects_base;
        self.tree
            .child_dirs(base)
            .into_iter()
            .filter_map(|name| {
                let memory = base.child(&name).child("memory");
                if !self.tree.is_dir(&memory) {
                    return None;
                }
                let files = self
                    .tree
                    .files_under(&memory)
                    .filter(|(path, _)| path.extension() == Some("md"))
                    .count() as u64;
                Some(MemoryFolder {
                    decoded_guess: crate::encode::decode_guess(&name),
                    current: current == Some(&memory),
                    name,
                    files,
                })
            })
            .collect()
    }

    // ----- rows and references ----------------------------------------------------------

    fn file_node(
        &mut self,
        path: &VPath,
        group: Group,
        load: LoadType,
        scope: Option<Scope>,
        follow: bool,
    ) -> Node {
        self.file_node_with(path, group, load, scope, follow, None)
    }

    /// A top-level row with the subtree of what it references.
    fn file_node_with(
        &mut self,
        path: &VPath,
        group: Group,
        load: LoadType,
        scope: Option<Scope>,
        follow: bool,
        memory_dir: Option<&VPath>,
    ) -> Node {
        let size = self.tree.file(path).map(|f| f.size);
        let mut row = blank_row(path, group, load, scope, size);
        let text = self.fill_row(&mut row, path);
        let mut children = Vec::new();
        if let (Some(text), true) = (text, follow) {
            let mut ancestors = vec![path.clone()];
            let mut seen = BTreeSet::from([path.clone()]);
            let ctx = RefContext { group, memory_dir };
            children = self.expand(&text, path, &mut row, 0, &mut ancestors, &mut seen, &ctx);
        }
        Node { row, children }
    }

    /// Measures a row and records its frontmatter; returns its text when it has one.
    fn fill_row(&mut self, row: &mut FileRow, path: &VPath) -> Option<String> {
        match self.text(path) {
            Text::Ready(text) => {
                row.raw = Some(measure(&text));
                if !matches!(row.load, LoadType::Link | LoadType::OnDemand) {
                    row.loaded = Some(measure(&strip_for_loading(&text).text));
                }
                if let Some(fm) = frontmatter::parse(&text) {
                    if let Some(error) = &fm.error {
                        self.diagnostics.push(Diagnostic::new(
                            "invalid-frontmatter",
                            Severity::Warning,
                            Some(path.as_str()),
                            format!("frontmatter ignored: {error}"),
                        ));
                    }
                    row.frontmatter = fm
                        .display_fields()
                        .into_iter()
                        .map(|(key, value)| FrontmatterField { key, value })
                        .collect();
                }
                Some(text)
            }
            Text::Pending => None,
            Text::Missing => None,
            Text::NotRead(why) => {
                let (severity, message) = match why {
                    NotRead::Bulk => (
                        Severity::Info,
                        "session data is never read; only its size is shown".to_owned(),
                    ),
                    NotRead::TooLarge(size) => (
                        Severity::Warning,
                        format!(
                            "{} is {}, over the {} this page reads; only its size is shown",
                            path.file_name(),
                            format_bytes(size),
                            format_bytes(READ_CAP_BYTES)
                        ),
                    ),
                    NotRead::Unreadable => return None,
                };
                if matches!(severity, Severity::Warning) {
                    row.status = FileStatus::Skipped;
                }
                self.diagnostics.push(Diagnostic::new(
                    "file-not-read",
                    severity,
                    Some(path.as_str()),
                    message,
                ));
                None
            }
        }
    }

    fn frontmatter_of(&mut self, path: &VPath) -> Option<Frontmatter> {
        match self.text(path) {
            Text::Ready(text) => frontmatter::parse(&text).filter(|fm| fm.error.is_none()),
            _ => None,
        }
    }

    /// The rows for the references in `text`, which belongs to `parent` at `depth` hops.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        text: &str,
        parent: &VPath,
        parent_row: &mut FileRow,
        depth: u32,
        ancestors: &mut Vec<VPath>,
        seen: &mut BTreeSet<VPath>,
        ctx: &RefContext<'_>,
    ) -> Vec<Node> {
        let mut children = Vec::new();
        let folder = parent.parent().unwrap_or_else(|| parent.clone());
        for reference in references::scan(text) {
            let resolved = self.resolve(&folder, &reference.target);
            let exists = resolved.as_ref().is_some_and(|p| self.tree.is_file(p));
            parent_row.references.push(ReferenceSite {
                kind: reference.kind,
                target: reference.target.clone(),
                line: reference.line,
                resolved: resolved.as_ref().map(|p| p.as_str().to_owned()),
                exists,
            });
            let hop = depth + 1;
            let max_import_hops = self.paths.rules.max_import_hops;
            // References are listed one hop past what loads, so the too-deep import shows.
            if hop > max_import_hops + 1 {
                continue;
            }
            if reference.kind == ReferenceKind::Link
                && resolved
                    .as_ref()
                    .is_some_and(|p| self.tree.is_dir(p) && !exists)
            {
                // A link to a folder points at no file to list.
                continue;
            }
            let load = match reference.kind {
                ReferenceKind::Import => LoadType::Import,
                ReferenceKind::Link if self.is_topic_of(ctx, resolved.as_ref()) => {
                    LoadType::OnDemand
                }
                ReferenceKind::Link => LoadType::Link,
            };
            let shown = resolved
                .as_ref()
                .map_or_else(|| reference.target.clone(), |p| p.as_str().to_owned());
            // Sources may list bulk data without its size (see `is_bulk_data`): show none.
            let size = resolved
                .as_ref()
                .filter(|p| !self.is_bulk(p))
                .and_then(|p| self.tree.file(p))
                .map(|f| f.size);
            let mut row = blank_row_str(&shown, ctx.group, load, size);
            row.parent = Some(parent.as_str().to_owned());
            row.depth = hop;
            row.reference = parent_row.references.last().cloned();

            if !exists {
                self.unresolved(&mut row, parent, &reference, resolved.as_ref());
                children.push(Node {
                    row,
                    children: Vec::new(),
                });
                continue;
            }
            let target = resolved.expect("exists implies resolved");
            if reference.kind == ReferenceKind::Import && hop > max_import_hops {
                row.status = FileStatus::TooDeep;
                self.diagnostics.push(
                    Diagnostic::new(
                        "import-too-deep",
                        Severity::Warning,
                        Some(parent.as_str()),
                        format!(
                            "@{} is {hop} hops from the file that starts the chain; Claude \
                             Code stops after {max_import_hops}, so it is not loaded",
                            reference.target
                        ),
                    )
                    .at_line(reference.line),
                );
                children.push(Node {
                    row,
                    children: Vec::new(),
                });
                continue;
            }
            let text = self.fill_row(&mut row, &target);
            if ancestors.contains(&target) {
                if reference.kind == ReferenceKind::Import {
                    self.diagnostics.push(
                        Diagnostic::new(
                            "import-cycle",
                            Severity::Warning,
                            Some(parent.as_str()),
                            format!(
                                "@{} leads back to {}, which is already being loaded; the \
                                 cycle is not followed",
                                reference.target,
                                target.file_name()
                            ),
                        )
                        .at_line(reference.line),
                    );
                }
                children.push(Node {
                    row,
                    children: Vec::new(),
                });
                continue;
            }
            let first_visit = seen.insert(target.clone());
            let mut grandchildren = Vec::new();
            if let (Some(text), true) = (text, first_visit) {
                ancestors.push(target.clone());
                grandchildren = self.expand(&text, &target, &mut row, hop, ancestors, seen, ctx);
                ancestors.pop();
            }
            children.push(Node {
                row,
                children: grandchildren,
            });
        }
        children
    }

    fn is_topic_of(&self, ctx: &RefContext<'_>, target: Option<&VPath>) -> bool {
        match (ctx.memory_dir, target) {
            (Some(dir), Some(target)) => {
                target.starts_with(dir)
                    && target.extension() == Some("md")
                    && target.file_name() != "MEMORY.md"
            }
            _ => false,
        }
    }

    fn unresolved(
        &mut self,
        row: &mut FileRow,
        parent: &VPath,
        reference: &RawReference,
        resolved: Option<&VPath>,
    ) {
        row.status = FileStatus::Unresolved;
        let reason = match resolved {
            Some(path) if self.tree.is_covered(path) => UnresolvedReason::Missing,
            _ => UnresolvedReason::OutsideSnapshot,
        };
        row.unresolved_reason = Some(reason);
        let written = match reference.kind {
            ReferenceKind::Import => format!("@{}", reference.target),
            ReferenceKind::Link => format!("({})", reference.target),
        };
        let message = match reason {
            UnresolvedReason::Missing => {
                format!("{written} points to {}, which does not exist", row.path)
            }
            UnresolvedReason::OutsideSnapshot => format!(
                "{written} points to {}, outside the folders in this snapshot; it may exist on \
                 the machine",
                row.path
            ),
        };
        self.diagnostics.push(
            Diagnostic::new(
                "unresolved-reference",
                Severity::Warning,
                Some(parent.as_str()),
                message,
            )
            .at_line(reference.line),
        );
        if reference.trailing_punctuation {
            let trimmed = reference
                .target
                .trim_end_matches([':', ',', ';', '.', ')', '!', '?']);
            self.diagnostics.push(
                Diagnostic::new(
                    "import-trailing-punctuation",
                    Severity::Info,
                    Some(parent.as_str()),
                    format!(
                        "{written} ends in punctuation that Claude Code keeps as part of the \
                         path; write @{trimmed} with a space after it"
                    ),
                )
                .at_line(reference.line),
            );
        }
    }

    /// Resolves a reference target: `~/` from home, an absolute path as is, anything else
    /// from the folder of the file that holds it.
    fn resolve(&self, folder: &VPath, target: &str) -> Option<VPath> {
        if let Some(rest) = target.strip_prefix("~/") {
            return self.paths.home.join(rest).ok();
        }
        if let Ok(absolute) = VPath::new(target) {
            return Some(absolute);
        }
        folder.join(target).ok()
    }

    // ----- reading ----------------------------------------------------------------------

    /// The text of a file, or why there is none. Requests unread contents.
    fn text(&mut self, path: &VPath) -> Text {
        let Some(entry) = self.tree.file(path) else {
            return Text::Missing;
        };
        if self.is_bulk(path) {
            return Text::NotRead(NotRead::Bulk);
        }
        if entry.size > READ_CAP_BYTES {
            return Text::NotRead(NotRead::TooLarge(entry.size));
        }
        match &entry.contents {
            Contents::Unread => {
                self.needs.insert(path.clone());
                Text::Pending
            }
            Contents::Unreadable(message) => {
                self.diagnostics.push(Diagnostic::new(
                    "file-unreadable",
                    Severity::Warning,
                    Some(path.as_str()),
                    format!("could not be read: {message}"),
                ));
                Text::NotRead(NotRead::Unreadable)
            }
            Contents::Loaded(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => Text::Ready(text.strip_prefix('\u{feff}').unwrap_or(text).to_owned()),
                Err(_) => {
                    self.diagnostics.push(Diagnostic::new(
                        "invalid-utf8",
                        Severity::Warning,
                        Some(path.as_str()),
                        "not valid UTF-8; invalid bytes are shown as U+FFFD and measured that way",
                    ));
                    Text::Ready(String::from_utf8_lossy(bytes).into_owned())
                }
            },
        }
    }

    /// Session transcripts and other bulk data: never read, whatever references them.
    fn is_bulk(&self, path: &VPath) -> bool {
        if path.extension() == Some("jsonl") {
            return true;
        }
        if let Some(rest) = path.strip_prefix(&self.paths.config) {
            let mut parts = rest.split('/');
            let first = parts.next().unwrap_or_default();
            if BULK_CONFIG_DIRS.contains(&first) {
                return true;
            }
        }
        for base in [&self.projects_base, &self.paths.config.child("projects")] {
            if let Some(rest) = path.strip_prefix(base) {
                // Inside projects/<name>/, only memory/ holds what Claude Code loads.
                let mut parts = rest.split('/');
                let _project = parts.next();
                if parts.next() != Some("memory") {
                    return true;
                }
            }
        }
        false
    }
}

/// Where the references being expanded belong.
struct RefContext<'a> {
    group: Group,
    /// The memory folder whose topic files keep their on-demand type when linked.
    memory_dir: Option<&'a VPath>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SettingsLayer {
    User,
    Project,
    Local,
}

struct EffectiveSettings {
    auto_memory_enabled: bool,
    enabled_from: Option<VPath>,
    /// Every layer that set `autoMemoryEnabled`, in precedence order: the last one wins.
    votes: Vec<(VPath, bool)>,
}

fn blank_row(
    path: &VPath,
    group: Group,
    load: LoadType,
    scope: Option<Scope>,
    size: Option<u64>,
) -> FileRow {
    let mut row = blank_row_str(path.as_str(), group, load, size);
    row.scope = scope;
    row
}

fn blank_row_str(path: &str, group: Group, load: LoadType, size: Option<u64>) -> FileRow {
    FileRow {
        path: path.to_owned(),
        group,
        load,
        scope: None,
        parent: None,
        parent_index: None,
        depth: 0,
        size,
        raw: None,
        loaded: None,
        counted: false,
        status: FileStatus::Ok,
        unresolved_reason: None,
        reference: None,
        skill_name: None,
        skill_listing: None,
        paths: None,
        agent: None,
        truncation: None,
        frontmatter: Vec::new(),
        references: Vec::new(),
    }
}

fn flatten(node: Node, parent_index: Option<usize>, rows: &mut Vec<FileRow>) {
    let Node { mut row, children } = node;
    row.parent_index = parent_index;
    let index = rows.len();
    rows.push(row);
    for child in children {
        flatten(child, Some(index), rows);
    }
}

fn collect_paths(node: &Node, out: &mut BTreeSet<VPath>) {
    for child in &node.children {
        if let Ok(path) = VPath::new(&child.row.path) {
            out.insert(path);
        }
        collect_paths(child, out);
    }
}

fn mark_disabled(node: &mut Node) {
    if node.row.status == FileStatus::Ok {
        node.row.status = FileStatus::Disabled;
    }
    for child in &mut node.children {
        mark_disabled(child);
    }
}

fn set_agent(node: &mut Node, agent: &str) {
    node.row.agent = Some(agent.to_owned());
    for child in &mut node.children {
        set_agent(child, agent);
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A byte count for a person: `512 B`, `4.0 MiB`.
pub(crate) fn format_bytes(n: u64) -> String {
    const KIB: f64 = 1024.0;
    let n_f = n as f64;
    if n_f < KIB {
        format!("{n} B")
    } else if n_f < KIB * KIB {
        format!("{:.1} KiB", n_f / KIB)
    } else if n_f < KIB * KIB * KIB {
        format!("{:.1} MiB", n_f / KIB / KIB)
    } else {
        format!("{:.1} GiB", n_f / KIB / KIB / KIB)
    }
}
