//! Discovery: reproduces, over the tree, what Claude Code 2.1.328 reads, and decides each
//! file's group, load type, scope and status.
//!
//! One stage per source, each in its own file, run in the order the program sends what
//! they find (so the order in which top-level rows are made is the session's order):
//! - [`settings`]: the settings layers, `claudeMdExcludes`, the memory switch and folder,
//!   and the external-import approval in `~/.claude.json`;
//! - [`walk`]: the managed policy, the user's files, the directory walk from `/` down to the
//!   project (three names and the rules of every directory, `AGENTS.md`), and every folder
//!   below the project, whose files attach when Claude reads there;
//! - [`rules`]: one `.claude/rules/` folder and what its `paths` mean;
//! - [`skills`]: listed skills and the ones a read announces;
//! - [`memory`]: auto memory (folder, caps, the index the program writes when missing) and
//!   agent memory;
//! - [`agents`]: the sub-agent definitions and their lines in the listing of agent types;
//! - [`references`]: imports and links of every file, with the program's accept rule,
//!   depth, approval and exclusion;
//! - [`session`]: what every session carries, what a read attaches, what a sub-agent
//!   receives, and their cost;
//! - [`health`]: the findings about memory, over the finished rows.
//!
//! The walk asks for file contents through [`Discovery::text`]. A file whose contents have
//! not arrived yet is treated as empty for this pass and recorded in `needs`; the caller
//! fetches those and runs the walk again, until a pass needs nothing new. Every pass is a
//! pure function of the tree, so the last pass is the answer.

mod agents;
mod commands;
mod health;
mod memory;
mod not_counted;
mod plugins;
pub use memory::{memory_candidates, MemoryCandidate};
mod references;
mod rules;
pub(crate) mod session;
pub(crate) mod settings;
mod skills;
mod walk;

pub(crate) use commands::compare_locale;
pub(crate) use health::{CORRECTION_WORDS, MEMORY_TYPES};

/// Every frontmatter key discovery and the health view read (`fm.string`, `fm.boolean`,
/// `fm.value` in `discover/`; a test below keeps the list true). Sharing keeps these keys as
/// written and replaces every other one.
pub(crate) const FRONTMATTER_KEYS: [&str; 10] = [
    "name",
    "description",
    "when_to_use",
    "paths",
    "type",
    "modified",
    "memory",
    "disable-model-invocation",
    "tools",
    "disallowedTools",
];

/// The agent-memory scopes a sub-agent's `memory` field names (read in `discover::memory`).
pub(crate) const AGENT_MEMORY_SCOPES: [&str; 3] = ["user", "project", "local"];

/// How many frontmatter keys a row carries in the report; the rest are only counted.
pub(crate) const FRONTMATTER_FIELDS_SHOWN: usize = 100;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::input::Paths;
use crate::report::{
    Code, Diagnostic, FileRow, FileStatus, FrontmatterField, Group, Health, LoadType, Measure,
    MemoryFolder, MemoryLookup, ReadAnswer, ReadFor, Scope, Session, Severity, SourceRead,
};
use crate::text::frontmatter::{self, Frontmatter};
use crate::text::measure::{as_attached, measure, trimmed_for_block};
use crate::tree::{Contents, Tree};
use crate::version::{Behaviour, Rules};
use crate::vpath::VPath;

use settings::EffectiveSettings;

/// A CLAUDE.md larger than this is skipped by Claude Code (4 MiB).
pub const CLAUDE_MD_MAX_BYTES: u64 = 4 * 1024 * 1024;
/// Claude Code warns about an instruction file longer than this many characters (UTF-16
/// units): `max(40000, context window × 0.05 × chars per token)`, 40,000 for a 200k window.
pub const LARGE_FILE_CHARS: u64 = 40_000;
/// Claude Code warns when all instruction files together are longer than this:
/// `max(120000, the large-file threshold)`.
pub(crate) const TOTAL_CHARS: u64 = 120_000;
/// The largest file the analysis will ask to read: the one limit every source shares.
pub(crate) const READ_CAP_BYTES: u64 = crate::limits::READ_LIMIT_BYTES;

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
    pub(crate) session: Session,
    /// The budget the skills listing was fitted to (`session.rs`).
    pub(crate) skills_listing_budget: u64,
    pub(crate) reads: Vec<ReadAnswer>,
    pub(crate) sources: Vec<SourceRead>,
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
    TooLarge,
    Unreadable,
}

/// Where a top-level row stands in what Claude Code sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sent {
    /// In the instruction block at session start.
    AtStartup,
    /// Attached when Claude reads a file below `dir` (nested files, their rules).
    OnReadBelow,
}

/// The walk's state for one pass.
struct Discovery<'a> {
    tree: &'a Tree,
    paths: Paths,
    needs: BTreeSet<VPath>,
    diagnostics: Vec<Diagnostic>,
    /// The top-level rows' files so far: a file is one row.
    top_level: HashSet<VPath>,
    settings: EffectiveSettings,
    /// Top-level rows in the order the program sends them at startup.
    startup: Vec<VPath>,
    /// Files that attach on a read below a directory: the directory, and the file.
    attach: Vec<(VPath, VPath)>,
    /// The memory folder, when auto memory is on and there is a project.
    memory_dir: Option<VPath>,
    /// The git root that keys memory and bounds the parents' skills.
    git_root: Option<VPath>,
    /// Each skill that can be listed: its `SKILL.md`, its listing line, where it lists.
    skill_lines: Vec<skills::SkillLine>,
    /// The names the listed skills are invoked with (their folders'), each with the
    /// `SKILL.md` that wins it: a later skill or a command of one of these names is hidden.
    skill_names: BTreeMap<String, VPath>,
    /// The skills a skill of the same name hides ([`Code::SkillShadowed`]), which the
    /// duplicate-name finding leaves to that one.
    shadowed_skills: BTreeSet<VPath>,
    /// While an `--add-dir` folder's skills are read, the label its skills of a name already
    /// listed get (`skills.rs`).
    add_dir_scope: Option<String>,
    /// The names the user's and project's skills and commands are invoked with: one of a
    /// built-in skill's name replaces it.
    own_names: BTreeSet<String>,
    /// The `--add-dir` skills whose names were taken, listed last with their scope.
    scoped_skill_lines: Vec<skills::SkillLine>,
    /// Every sub-agent definition found, in the listing's order, shadowed ones marked.
    agents: Vec<agents::AgentDefinition>,
    /// What a Read attaches of a file (its text untrimmed), where that differs from the
    /// row's `loaded`.
    attached: HashMap<VPath, Measure>,
    /// The fingerprint of each instruction file's text as every session sends it, where a
    /// second copy would be worth telling ([`twice_print`], [`Code::SentTwice`]).
    sent_texts: BTreeMap<VPath, u64>,
    /// What was read or looked up besides the rows, and why (`Report::sources`).
    sources: BTreeMap<VPath, (ReadFor, Option<String>)>,
    /// Every file whose text was asked for (rows included).
    read: HashSet<VPath>,
    /// The frontmatter of each file whose text was read and parsed in this pass: a rule's
    /// is wanted by its row, its globs and the health check.
    frontmatters: HashMap<VPath, Option<Frontmatter>>,
    /// Skill announcements a Read reached that the next Read sends (releases that announced
    /// them one Read late), with their units.
    announce_on_next_read: Vec<(String, u64)>,
    /// The skills folders the release lists in the file system's order, which the source
    /// did not record (`skills.rs`): their skills are listed by name instead, and the report
    /// says so.
    skill_order_unknown: Vec<VPath>,
    /// Files whose size was checked against Claude Code's 4 MiB cap while still pending
    /// ([`Tree::mark_unstatted`]): read once sized only under that cap too.
    size_capped: BTreeSet<VPath>,
    /// Hooks and MCP servers found (`not_counted`): listed, never run, never counted.
    not_counted: Vec<crate::report::NotCounted>,
    /// The plugins that load.
    plugins: Vec<plugins::Plugin>,
    /// Every plugin found, for the report.
    plugin_infos: Vec<crate::report::PluginInfo>,
}

/// Runs one discovery pass over `tree`.
pub(crate) fn run(tree: &Tree, paths: Paths) -> Found {
    let mut walk = Discovery {
        tree,
        settings: EffectiveSettings::new(&paths.config),
        paths,
        needs: BTreeSet::new(),
        diagnostics: Vec::new(),
        top_level: HashSet::new(),
        startup: Vec::new(),
        attach: Vec::new(),
        memory_dir: None,
        git_root: None,
        skill_lines: Vec::new(),
        skill_names: BTreeMap::new(),
        shadowed_skills: BTreeSet::new(),
        add_dir_scope: None,
        own_names: BTreeSet::new(),
        scoped_skill_lines: Vec::new(),
        agents: Vec::new(),
        announce_on_next_read: Vec::new(),
        skill_order_unknown: Vec::new(),
        size_capped: BTreeSet::new(),
        attached: HashMap::new(),
        sent_texts: BTreeMap::new(),
        sources: BTreeMap::new(),
        read: HashSet::new(),
        frontmatters: HashMap::new(),
        not_counted: Vec::new(),
        plugins: Vec::new(),
        plugin_infos: Vec::new(),
    };
    walk.run()
}

impl Discovery<'_> {
    fn run(&mut self) -> Found {
        // Whether a missing path is missing or outside the snapshot depends on the roots.
        let mounts: Vec<VPath> = self.tree.mounts().cloned().collect();
        for mount in &mounts {
            self.looked_at(mount, ReadFor::Mount);
        }
        self.read_settings();
        self.find_plugins();
        let mut groups: BTreeMap<Group, Vec<Node>> = BTreeMap::new();
        let add = |groups: &mut BTreeMap<Group, Vec<Node>>, nodes: Vec<Node>| {
            for node in nodes {
                groups.entry(node.row.group).or_default().push(node);
            }
        };

        let git = self.paths.project.clone().and_then(|p| self.git_key(&p));
        self.git_root = git.as_ref().map(|g| g.root.clone());
        if let Some(project) = self.paths.project.clone() {
            // Before 2.1.63 a linked worktree kept its own project entry, as its own memory.
            let key = match &git {
                Some(g) if g.linked && !self.paths.rules.has(Behaviour::WorktreesShareMemory) => {
                    g.top.clone()
                }
                Some(g) => g.root.clone(),
                None => project,
            };
            self.read_claude_json(&key);
            self.find_not_counted(&key);
        }

        // The instruction block, in the program's order.
        let managed = self.managed_policy();
        add(&mut groups, managed);
        let user = self.user_files();
        add(&mut groups, user);
        if let Some(project) = self.paths.project.clone() {
            let walked = self.directory_walk(&project, git.as_ref());
            add(&mut groups, walked);
        }
        let additional = self.additional_dirs_files();
        add(&mut groups, additional);
        let memory = self.auto_memory(git.as_ref());
        let memory_facts = memory.facts;
        add(&mut groups, memory.nodes);

        // What attaches later, on a read below the project.
        if let Some(project) = self.paths.project.clone() {
            let nested = self.nested(&project);
            add(&mut groups, nested);
        }
        let skills = self.skills();
        add(&mut groups, skills);
        let names = std::mem::take(&mut self.skill_names);
        let commands = self.commands(&names);
        add(&mut groups, commands);
        let plugin_skills = self.plugin_skills();
        add(&mut groups, plugin_skills);
        // An `--add-dir` folder's skills whose names were taken come last, scoped.
        let scoped = std::mem::take(&mut self.scoped_skill_lines);
        self.skill_lines.extend(scoped);
        let agent_memory = self.agent_memory();
        add(&mut groups, agent_memory);
        self.agents = self.find_agents();
        if !self.settings.auto_memory_enabled {
            if let Some(nodes) = groups.get_mut(&Group::AutoMemory) {
                for node in nodes {
                    mark_disabled(node);
                }
            }
            let from = self.settings.enabled_from.clone();
            let why = match &from {
                Some(path) => format!("autoMemoryEnabled: false ({path})"),
                None => "CLAUDE_CODE_DISABLE_AUTO_MEMORY".to_owned(),
            };
            self.diagnostics.push(Diagnostic::new(
                Code::AutoMemoryDisabled,
                Severity::Warning,
                from.as_ref().map(VPath::as_str),
                format!(
                    "auto memory is switched off by {why}; its files are listed but not loaded"
                ),
            ));
        }
        self.size_findings(&groups);

        let memory_folders = self.memory_folders(self.memory_dir.clone().as_ref());
        let mut rows = Vec::new();
        for group in Group::ALL {
            for node in groups.remove(&group).unwrap_or_default() {
                flatten(node, None, &mut rows);
            }
        }
        let session = self.session(&mut rows);
        // Each file attaches once per session: a later read gets only what is new.
        let mut reads = Vec::new();
        if !self.paths.reads.is_empty() {
            let mut sent: BTreeSet<String> = session.files.iter().map(|f| f.path.clone()).collect();
            reads = self
                .paths
                .reads
                .clone()
                .iter()
                .map(|read| self.read_answer(&rows, read, &mut sent))
                .collect();
        }
        // Health runs over the finished discovery only: while files are still arriving this
        // pass is thrown away (and its rule matching, the costliest part of a pass, waits
        // for the listings and sizes too).
        let mut health = Health::default();
        if self.needs.is_empty() {
            health = self.health(&rows, &memory_facts);
            self.agent_receives(&session, &mut health);
        }
        // Files read that are no row (sub-agent definitions, agent memory indexes): sources.
        let listed: HashSet<&str> = rows.iter().map(|row| row.path.as_str()).collect();
        let read = std::mem::take(&mut self.read);
        // Into a map by path, whatever the order the set gives them in.
        #[allow(clippy::iter_over_hash_type)]
        for path in &read {
            if !listed.contains(path.as_str()) {
                self.sources
                    .entry(path.clone())
                    .and_modify(|(why, _)| {
                        if !why.reads_text() {
                            *why = ReadFor::Text;
                        }
                    })
                    .or_insert((ReadFor::Text, None));
            }
        }
        // A row is its own record: what was only counted or matched of it goes, but not that
        // its day was read. A row whose text was never read (bulk data, too large, skipped
        // for its size) says so.
        self.sources.retain(|path, (why, _)| {
            why.reads_text()
                || why.is_folder()
                || *why == ReadFor::Dated
                || !listed.contains(path.as_str())
        });
        for row in &rows {
            // A row read is a normal path already: no path made, nothing looked up.
            if read.contains(row.path.as_str()) {
                continue;
            }
            if let Ok(path) = VPath::new(&row.path) {
                if self.tree.is_file(&path) && !read.contains(&path) {
                    self.looked_at(&path, ReadFor::Unread);
                }
            }
        }
        Found {
            rows,
            memory_folders,
            diagnostics: std::mem::take(&mut self.diagnostics),
            needs: std::mem::take(&mut self.needs),
            projects_base: self.settings.projects_base.clone(),
            git_root: self.git_root.clone(),
            memory_dir: self.memory_dir.clone(),
            memory_found_via: memory_facts.found_via,
            memory_folder_name: memory.folder_name,
            auto_memory_enabled: self.settings.auto_memory_enabled,
            auto_memory_setting_from: self.settings.enabled_from.clone(),
            health,
            session,
            skills_listing_budget: self.listing_budget(&self.paths.rules.listing_budget),
            reads,
            sources: std::mem::take(&mut self.sources)
                .into_iter()
                .map(|(path, (why, key))| SourceRead {
                    path: path.as_str().to_owned(),
                    why,
                    key,
                })
                .collect(),
        }
    }

    fn version_name(&self) -> String {
        self.paths
            .version
            .map_or_else(|| "Claude Code".to_owned(), |v| format!("Claude Code {v}"))
    }

    // ----- the CLAUDE.md family ---------------------------------------------------------

    /// A CLAUDE.md-family file, if it exists and is not listed yet; `sent` says when it
    /// reaches the model.
    fn family_file(
        &mut self,
        path: &VPath,
        group: Group,
        load: LoadType,
        scope: Scope,
        sent: Sent,
    ) -> Option<Node> {
        if !self.tree.is_file(path) || self.top_level.contains(path) {
            return None;
        }
        // A file reached under two paths (a link to a family file already sent, or the file
        // a link sent before) is sent once, under the path met first (measured on 2.1.328
        // and 2.1.337: `sent-twice-links-copies-imports-and-listings`).
        if let Some(target) = self.tree.link_target(path).cloned() {
            if !self.top_level.insert(target) {
                return None;
            }
        }
        self.top_level.insert(path.clone());
        let size = self.tree.file(path).map_or(0, |f| f.size);
        if self.skipped_for_size(path, size) {
            self.diagnostics.push(Diagnostic::new(
                Code::ClaudeMdSkipped,
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
        // The managed policy is never excluded.
        let pattern = (scope != Scope::Managed)
            .then(|| self.exclude_pattern(path))
            .flatten();
        let mut node = self.file_node(path, group, load, Some(scope), pattern.is_none());
        if let Some(pattern) = pattern {
            self.mark_excluded(&mut node.row, &pattern);
        }
        self.note_sent(path, sent);
        Some(node)
    }

    /// True when Claude Code skips a file of `size` bytes: over 4 MiB from 2.1.196. Before,
    /// it read a file of any size whole (2.1.195's loader has no size check).
    fn over_size_cap(&self, size: u64) -> bool {
        size > CLAUDE_MD_MAX_BYTES && self.paths.rules.has(crate::version::Behaviour::FileSizeCap)
    }

    /// [`Discovery::over_size_cap`] for the file at `path`, of `size` bytes as the tree
    /// says; a file whose size is pending passes for now, and is read once sized only
    /// under the cap ([`Discovery::text`]).
    fn skipped_for_size(&mut self, path: &VPath, size: u64) -> bool {
        if self.paths.rules.has(crate::version::Behaviour::FileSizeCap)
            && self.tree.is_unstatted(path)
        {
            self.size_capped.insert(path.clone());
        }
        self.over_size_cap(size)
    }

    /// Records when a top-level row is sent, so that the session can list it in order.
    fn note_sent(&mut self, path: &VPath, sent: Sent) {
        match sent {
            Sent::AtStartup => self.startup.push(path.clone()),
            Sent::OnReadBelow => self.attach.push((family_dir(path), path.clone())),
        }
    }

    /// An excluded file is listed, not loaded, and its references are not followed.
    fn mark_excluded(&mut self, row: &mut FileRow, pattern: &str) {
        row.status = FileStatus::Excluded;
        row.loaded = None;
        row.claude_code = None;
        self.diagnostics.push(Diagnostic::new(
            Code::ClaudeMdExcluded,
            Severity::Info,
            Some(&row.path),
            format!("excluded by claudeMdExcludes pattern {pattern}; not loaded"),
        ));
    }

    /// The first `claudeMdExcludes` pattern that matches `path`, quoted, with the settings
    /// file that set it: `"**/a/**" in /p/.claude/settings.json`.
    fn exclude_pattern(&self, path: &VPath) -> Option<String> {
        self.settings
            .excludes
            .iter()
            .find(|(_, glob, _)| glob.matches(path.as_str()))
            .map(|(pattern, _, from)| format!("{pattern:?} in {from}"))
    }

    /// Claude Code's size notices: one per instruction file over the large-file threshold,
    /// and one for the whole block over the total limit.
    fn size_findings(&mut self, groups: &BTreeMap<Group, Vec<Node>>) {
        let mut total = 0;
        let mut files = 0;
        let startup: HashSet<&str> = self.startup.iter().map(VPath::as_str).collect();
        let mut large = Vec::new();
        for nodes in groups.values() {
            for node in nodes {
                visit(node, &mut |row| {
                    let Some(loaded) = row.loaded.filter(|l| l.utf16 > 0) else {
                        return;
                    };
                    if row.status != FileStatus::Ok || row.group == Group::AutoMemory {
                        return;
                    }
                    // A row's path is a normal path: looked up as it is first.
                    if row.depth == 0
                        && (startup.contains(row.path.as_str())
                            || VPath::new(&row.path).is_ok_and(|p| startup.contains(p.as_str())))
                    {
                        total += loaded.utf16;
                        files += 1;
                    }
                    if loaded.utf16 > LARGE_FILE_CHARS {
                        large.push((row.path.clone(), loaded.utf16));
                    }
                });
            }
        }
        for (path, chars) in large {
            self.diagnostics.push(Diagnostic::new(
                Code::ClaudeMdTooLarge,
                Severity::Warning,
                Some(&path),
                format!(
                    "Claude Code warns: Large {path} will impact performance ({chars} chars > \
                     {LARGE_FILE_CHARS})"
                ),
            ));
        }
        if total > TOTAL_CHARS {
            self.diagnostics.push(Diagnostic::new(
                Code::InstructionsTooLarge,
                Severity::Warning,
                None,
                format!(
                    "Claude Code warns: Instruction files will impact performance: {files} \
                     files, {total} chars in total > {TOTAL_CHARS}"
                ),
            ));
        }
    }

    // ----- rows -------------------------------------------------------------------------

    /// A top-level row with the subtree of what it references.
    fn file_node(
        &mut self,
        path: &VPath,
        group: Group,
        load: LoadType,
        scope: Option<Scope>,
        follow: bool,
    ) -> Node {
        let size = self.tree.file(path).map(|f| f.size);
        let mut row = blank_row(path, group, load, scope, size);
        let text = self.fill_row(&mut row, path);
        let mut children = Vec::new();
        if let (Some(text), true) = (text, follow) {
            children = self.references_of(&text, path, &mut row, scope);
        }
        Node { row, children }
    }

    /// Measures a row and records its frontmatter; returns its text when it has one.
    fn fill_row(&mut self, row: &mut FileRow, path: &VPath) -> Option<String> {
        match self.text(path) {
            Text::Ready(text) => {
                let mut raw = measure(&text);
                // The size on disk, whatever the decoding made of it.
                if let Some(bytes) = self.raw_bytes(path) {
                    raw.bytes = bytes;
                }
                row.raw = Some(raw);
                if !matches!(row.load, LoadType::Link | LoadType::OnDemand) {
                    // The Markdown strip runs once: a read attaches it as it is, every session
                    // sends it trimmed.
                    let attached = session_text(&self.paths.rules, &text);
                    // Nothing left once trimmed: not sent (before 2.1.72 a file of comments
                    // alone was sent, comments and all).
                    let sent = trimmed_for_block(&attached);
                    if sent.is_empty() && row.group != Group::AutoMemory {
                        row.status = FileStatus::Empty;
                    }
                    let read = read_text(&text, &attached);
                    if !sent.is_empty() && read != sent {
                        self.attached.insert(path.clone(), measure(&read));
                    }
                    // Before 2.1.79 every session sent them untrimmed too (from 2.1.72 with
                    // CRLF made LF where the Markdown lexer stripped a comment), and before
                    // 2.1.72 with their comments and carriage returns.
                    let loaded = if self.paths.rules.has(Behaviour::InstructionFilesTrimmed) {
                        sent
                    } else {
                        lexer_line_ends(&self.paths.rules, &text, attached)
                    };
                    if let Some(print) = twice_print(&loaded) {
                        self.sent_texts.insert(path.clone(), print);
                    }
                    row.loaded = Some(measure(&loaded));
                }
                let fm = self.parse_frontmatter(path, &text);
                self.frontmatters.insert(path.clone(), fm.clone());
                if let Some(fm) = fm {
                    if let Some(error) = &fm.error {
                        self.diagnostics.push(Diagnostic::new(
                            Code::InvalidFrontmatter,
                            Severity::Warning,
                            Some(path.as_str()),
                            format!("frontmatter ignored: {error}"),
                        ));
                    }
                    // The report shows frontmatter for reading, not for analysis: a block
                    // of a million keys or a megabyte-long value must not travel whole.
                    let fields = fm.display_fields();
                    row.frontmatter_omitted =
                        fields.len().saturating_sub(FRONTMATTER_FIELDS_SHOWN) as u64;
                    row.frontmatter = fields
                        .into_iter()
                        .take(FRONTMATTER_FIELDS_SHOWN)
                        .map(|(key, value)| FrontmatterField {
                            key: health::excerpt(&key),
                            value: health::excerpt(&value),
                        })
                        .collect();
                }
                Some(text)
            }
            Text::Pending | Text::Missing => None,
            Text::NotRead(why) => {
                let (severity, message) = match why {
                    NotRead::Bulk => (
                        Severity::Info,
                        "session data is never read; only its size is shown".to_owned(),
                    ),
                    // `text` made the finding, for this and every other file it was asked
                    // for; the row is not ok, so nothing of it is counted.
                    NotRead::TooLarge | NotRead::Unreadable => {
                        row.status = FileStatus::Skipped;
                        return None;
                    }
                };
                if matches!(severity, Severity::Warning) {
                    row.status = FileStatus::Skipped;
                }
                self.diagnostics.push(Diagnostic::new(
                    Code::FileNotRead,
                    severity,
                    Some(path.as_str()),
                    message,
                ));
                None
            }
        }
    }

    /// The frontmatter of `path`'s text, when read and valid. Parsed once a pass: a text
    /// that was ready stays so for the pass, and asking for it again would only repeat its
    /// findings (which the report holds once).
    fn frontmatter_of(&mut self, path: &VPath) -> Option<Frontmatter> {
        if let Some(fm) = self.frontmatters.get(path) {
            return fm.clone().filter(|fm| fm.error.is_none());
        }
        match self.text(path) {
            Text::Ready(text) => {
                let fm = self.parse_frontmatter(path, &text);
                self.frontmatters.insert(path.clone(), fm.clone());
                fm.filter(|fm| fm.error.is_none())
            }
            _ => None,
        }
    }

    /// The frontmatter of `path`'s text, where a shared snapshot writes a renamed value as a
    /// stand-in of the original's length, read as what it stands for (`Tree::set_stand_ins`).
    fn parse_frontmatter(&self, path: &VPath, text: &str) -> Option<Frontmatter> {
        let lf_retry = self
            .paths
            .rules
            .has(crate::version::Behaviour::FrontmatterLfRetry);
        let mut fm = frontmatter::parse_with(text, lf_retry)?;
        if self.tree.stand_ins().contains_key(path) {
            fm.map_strings(&|value| self.tree.stand_in_target(path, value).map(str::to_owned));
        }
        Some(fm)
    }

    // ----- reading ----------------------------------------------------------------------

    /// The bytes on disk of a read file.
    fn raw_bytes(&self, path: &VPath) -> Option<u64> {
        match &self.tree.file(path)?.contents {
            Contents::Loaded(bytes) => Some(bytes.len() as u64),
            _ => None,
        }
    }

    /// Records a file read (or a folder looked up) that is not a row, and why.
    fn source(&mut self, path: &VPath, why: ReadFor, key: Option<&VPath>) {
        let key = key.map(|k| k.as_str().to_owned());
        self.sources.insert(path.clone(), (why, key));
    }

    /// Records a file or folder looked at without reading its text (counted, matched, looked
    /// up), unless something already read it. A row's entry is dropped when the pass ends.
    fn looked_at(&mut self, path: &VPath, why: ReadFor) {
        self.sources.entry(path.clone()).or_insert((why, None));
    }

    /// Records that the growth chart read a file's modification day: besides whatever else
    /// was recorded of it (a file counted, a row), unless its text was read for a reason.
    fn dated(&mut self, path: &VPath) {
        self.sources
            .entry(path.clone())
            .and_modify(|(why, _)| {
                if !why.reads_text() {
                    *why = ReadFor::Dated;
                }
            })
            .or_insert((ReadFor::Dated, None));
    }

    /// The text of a file, or why there is none. Requests unread contents.
    fn text(&mut self, path: &VPath) -> Text {
        let Some(entry) = self.tree.file(path) else {
            return Text::Missing;
        };
        if self.is_bulk(path) {
            return Text::NotRead(NotRead::Bulk);
        }
        self.read.insert(path.clone());
        if entry.size > READ_CAP_BYTES {
            // Whatever asked (a row, a settings layer, a `.git` file), a file the analysis
            // needs and does not read is a finding.
            self.diagnostics.push(Diagnostic::new(
                Code::FileNotRead,
                Severity::Warning,
                Some(path.as_str()),
                format!(
                    "{} is {}, over the {} this page reads; only its size is shown",
                    path.file_name(),
                    format_bytes(entry.size),
                    format_bytes(READ_CAP_BYTES)
                ),
            ));
            return Text::NotRead(NotRead::TooLarge);
        }
        match &entry.contents {
            // A file whose size is pending may be over a cap: it is read once the size
            // arrives, in the same round, if under every cap it was held to (never asked for
            // before, so that what a turn asks to read never depends on a size not known).
            Contents::Unread if self.tree.is_unstatted(path) => {
                let up_to = if self.size_capped.contains(path) {
                    CLAUDE_MD_MAX_BYTES.min(READ_CAP_BYTES)
                } else {
                    READ_CAP_BYTES
                };
                self.tree.want_read_once_sized(path, up_to);
                Text::Pending
            }
            Contents::Unread => {
                self.needs.insert(path.clone());
                Text::Pending
            }
            Contents::Unreadable(message) => {
                self.diagnostics.push(Diagnostic::new(
                    Code::FileUnreadable,
                    Severity::Warning,
                    Some(path.as_str()),
                    format!("could not be read: {message}"),
                ));
                Text::NotRead(NotRead::Unreadable)
            }
            Contents::Loaded(bytes) if utf16_form(bytes).is_some() => {
                let form = utf16_form(bytes).unwrap_or_default();
                self.diagnostics.push(Diagnostic::new(
                    Code::InvalidUtf8,
                    Severity::Warning,
                    Some(path.as_str()),
                    format!(
                        "looks like UTF-16 ({form}), not UTF-8: Claude Code reads it as UTF-8, \
                         so its text arrives garbled; save it as UTF-8"
                    ),
                ));
                Text::Ready(String::from_utf8_lossy(bytes).into_owned())
            }
            Contents::Loaded(bytes) => match std::str::from_utf8(bytes) {
                // A byte order mark goes before anything else looks at the text, so it
                // cannot hide frontmatter; before 2.1.239 it stayed in the text.
                Ok(text) if self.paths.rules.has(Behaviour::BomStripped) => {
                    Text::Ready(text.strip_prefix('\u{feff}').unwrap_or(text).to_owned())
                }
                Ok(text) => Text::Ready(text.to_owned()),
                Err(_) => {
                    self.diagnostics.push(Diagnostic::new(
                        Code::InvalidUtf8,
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
            let first = rest.split('/').next().unwrap_or_default();
            if crate::limits::BULK_DATA_FOLDERS.contains(&first) {
                return true;
            }
            // Inside projects/<name>/, only memory/ holds what Claude Code loads.
            if let Some(rest) = rest.strip_prefix("projects/") {
                let mut parts = rest.split('/');
                let _project = parts.next();
                if parts.next().is_some_and(|p| p != "memory") {
                    return true;
                }
            }
        }
        false
    }
}

/// A file's text as a Read attaches it and, untrimmed, as releases before 2.1.79 sent it in
/// every session: stripped of frontmatter and comments, or before 2.1.72 of its frontmatter
/// alone.
pub(crate) fn session_text(rules: &Rules, text: &str) -> String {
    if rules.has(Behaviour::CommentsStripped) {
        as_attached(text, rules.has(Behaviour::UnstrippedTextAsWritten))
    } else {
        crate::text::measure::below_frontmatter(text).to_owned()
    }
}

/// A file's text as a Read attaches it, from its [`session_text`] `attached`: after a
/// frontmatter block, the white space that follows it goes too (blank lines and the first
/// line's indent), and the program's reserved tags are escaped (`<system-reminder>` becomes
/// `<\system-reminder>`), which the instruction block's files are not. Measured on 2.1.328
/// and 2.1.337 (`text-read-reserved-tags-escaped`).
pub(crate) fn read_text(raw: &str, attached: &str) -> String {
    let attached = if crate::text::frontmatter::locate(raw).is_some() {
        attached.trim_start_matches(crate::text::measure::is_js_space)
    } else {
        attached
    };
    crate::text::reserved::escape_reserved_tags(attached).into_owned()
}

/// `sent`, a file's [`session_text`], as an untrimmed release sent it: from 2.1.72, where
/// a comment was stripped, the program's Markdown lexer had made CRLF LF.
pub(crate) fn lexer_line_ends(rules: &Rules, text: &str, sent: String) -> String {
    if rules.has(Behaviour::CommentsStripped) && text.contains("<!--") && sent.contains("\r\n") {
        sent.replace("\r\n", "\n")
    } else {
        sent
    }
}

/// A fingerprint of `text` to tell equal texts apart from different ones: SipHash with the
/// standard library's fixed keys, the same on every run of one build.
pub(crate) fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The shortest text, in UTF-16 units, whose second copy [`Code::SentTwice`] reports: a
/// repeated word or two (`TODO`, `Run the tests.`) is not worth a finding; a sentence is.
pub(crate) const SENT_TWICE_MIN_UTF16: usize = 30;

/// The fingerprint of `text` when a second copy of it is worth a [`Code::SentTwice`]
/// finding (at least [`SENT_TWICE_MIN_UTF16`] units long), else `None`.
pub(crate) fn twice_print(text: &str) -> Option<u64> {
    text.encode_utf16()
        .nth(SENT_TWICE_MIN_UTF16 - 1)
        .map(|_| fingerprint(text))
}

/// Which earlier text each text sent in one session repeats, met in sending order: by
/// their fingerprints ([`twice_print`]), or in a shared snapshot, whose texts are
/// placeholders that cannot tell equal texts from texts of one shape, by the pairs its
/// original found ([`Tree::set_sent_twice`]).
pub(crate) struct FirstCopies<'a> {
    carried: Option<&'a BTreeMap<VPath, VPath>>,
    sent: BTreeSet<&'a str>,
    by_print: std::collections::HashMap<u64, &'a str>,
}

impl<'a> FirstCopies<'a> {
    pub(crate) fn new(tree: &'a Tree) -> FirstCopies<'a> {
        FirstCopies {
            carried: tree.sent_twice(),
            sent: BTreeSet::new(),
            by_print: std::collections::HashMap::new(),
        }
    }

    /// The file sent before `path` with the same text, if any; `print` is `path`'s text's
    /// [`twice_print`].
    pub(crate) fn earlier(&mut self, path: &'a str, print: Option<u64>) -> Option<&'a str> {
        match self.carried {
            Some(carried) => {
                self.sent.insert(path);
                let earlier = carried.get(path)?.as_str();
                (earlier != path && self.sent.contains(earlier)).then_some(earlier)
            }
            None => match self.by_print.entry(print?) {
                std::collections::hash_map::Entry::Occupied(first) => Some(*first.get()),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(path);
                    None
                }
            },
        }
    }
}

/// How a file that looks like UTF-16 says so: a byte order mark, or a NUL in every other
/// byte of its start (ASCII text saved as UTF-16). `None` for anything else.
fn utf16_form(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xff, 0xfe, ..] => return Some("little-endian, with a byte order mark"),
        [0xfe, 0xff, ..] => return Some("big-endian, with a byte order mark"),
        _ => {}
    }
    let head = &bytes[..bytes.len().min(512) & !1];
    if head.len() < 8 {
        return None;
    }
    let pairs = head.len() / 2;
    let zeros_at = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    // Nearly every unit's high byte is zero, and nearly no low byte.
    if odd * 10 >= pairs * 9 && even * 10 <= pairs {
        Some("little-endian, without a byte order mark")
    } else if even * 10 >= pairs * 9 && odd * 10 <= pairs {
        Some("big-endian, without a byte order mark")
    } else {
        None
    }
}

/// The folder a family file or rule attaches below: `<dir>` for `<dir>/CLAUDE.md` and for
/// anything under `<dir>/.claude/`.
fn family_dir(path: &VPath) -> VPath {
    let s = path.as_str();
    match s.rfind("/.claude/") {
        Some(cut) => VPath::new(&s[..cut.max(1)]).unwrap_or_else(|_| path.clone()),
        None => path.parent().unwrap_or_else(|| path.clone()),
    }
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
        size,
        ..FileRow::default()
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

fn visit(node: &Node, f: &mut impl FnMut(&FileRow)) {
    f(&node.row);
    for child in &node.children {
        visit(child, f);
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

/// `1234567` as `1,234,567`: how the report's messages, the page and the command write a
/// count, so that all three show the same figure the same way.
pub fn group_digits(n: u64) -> String {
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

/// The sum of `values`, stopping at `u64::MAX` rather than wrapping: a shared snapshot's
/// numbers are range-checked ([`crate::share::ShareLimits`]), and a sum of lengths and sizes
/// must stay sane whatever a crafted one gets past.
pub(crate) fn saturating_sum(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0, u64::saturating_add)
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

#[cfg(test)]
mod read_keys {
    /// Every key a discovery stage reads from frontmatter is in [`super::FRONTMATTER_KEYS`],
    /// and every listed key is read somewhere: sharing keeps exactly these.
    #[test]
    fn frontmatter_keys_are_the_ones_discovery_reads() {
        let sources = [
            include_str!("discover/agents.rs"),
            include_str!("discover/health.rs"),
            include_str!("discover/memory.rs"),
            include_str!("discover/references.rs"),
            include_str!("discover/rules.rs"),
            include_str!("discover/session.rs"),
            include_str!("discover/settings.rs"),
            include_str!("discover/skills.rs"),
            include_str!("discover/walk.rs"),
            include_str!("discover.rs"),
        ];
        let mut read = std::collections::BTreeSet::new();
        for source in sources {
            for call in ["fm.string(\"", "fm.boolean(\"", "fm.value(\""] {
                for (at, _) in source.match_indices(call) {
                    let rest = &source[at + call.len()..];
                    read.insert(&rest[..rest.find('"').expect("a closing quote")]);
                }
            }
        }
        let listed: std::collections::BTreeSet<&str> =
            super::FRONTMATTER_KEYS.into_iter().collect();
        assert_eq!(read, listed);
        let agents = include_str!("discover/agents.rs");
        for scope in super::AGENT_MEMORY_SCOPES {
            assert!(agents.contains(&format!("\"{scope}\" => Some(Scope::")));
        }
    }
}
