//! The two passes over the plan (names collected, then the snapshot written), file by
//! file; the shared text of a file is in `build/text.rs`, its references rewritten in
//! `build/references.rs`.

use super::*;

mod references;
mod text;

pub(super) use references::stand_in;

/// A range of a text and what the shared text writes there instead.
pub(super) type Edit = (Range<usize>, String);

/// What a pass of [`Builder::build`] produces.
pub(super) struct Built {
    pub(super) tree: Tree,
    pub(super) quoted: BTreeMap<String, QuotedLength>,
    pub(super) dirs: Vec<VPath>,
    pub(super) input: Input,
    pub(super) paths: BTreeMap<String, String>,
    pub(super) warnings: Vec<String>,
}

/// One pass over the plan: the first collects names, the second writes the shared snapshot.
pub(super) struct Builder<'a> {
    pub(super) plan: &'a Plan,
    pub(super) tree: &'a Tree,
    pub(super) input: &'a Input,
    pub(super) report: &'a Report,
    pub(super) options: &'a SanitizeOptions,
    pub(super) namer: &'a Namer<'a>,
    pub(super) warnings: Vec<String>,
    /// Each shared file's stand-ins ([`Tree::set_stand_ins`]), as its text is written.
    pub(super) stand_ins: BTreeMap<VPath, BTreeMap<String, String>>,
    /// The stand-ins of the frontmatter of the file being written.
    pub(super) file_stand_ins: BTreeMap<String, String>,
}

/// The message a finding made while the original tree was read carries into the share: the
/// original may quote names or paths that are not shared.
pub(super) const CARRIED_FINDING: &str =
    "found when the original snapshot was read; the details are not shared";

impl<'a> Builder<'a> {
    pub(super) fn new(
        plan: &'a Plan,
        tree: &'a Tree,
        input: &'a Input,
        report: &'a Report,
        options: &'a SanitizeOptions,
        namer: &'a Namer<'a>,
    ) -> Builder<'a> {
        Builder {
            plan,
            tree,
            input,
            report,
            options,
            namer,
            warnings: Vec::new(),
            stand_ins: BTreeMap::new(),
            file_stand_ins: BTreeMap::new(),
        }
    }

    pub(super) fn build(mut self) -> Built {
        let mut out = Tree::new();
        let mut dirs = Vec::new();
        let mut paths = BTreeMap::new();
        for mount in &self.plan.mounts {
            if let Some(shared) = self.shared_path(mount.as_str(), false) {
                paths.insert(mount.as_str().to_owned(), shared.as_str().to_owned());
                out.add_mount(shared);
            }
        }
        for dir in &self.plan.dirs {
            if let Some(shared) = self.shared_path(dir.as_str(), false) {
                paths.insert(dir.as_str().to_owned(), shared.as_str().to_owned());
                out.add_dir(shared.clone());
                dirs.push(shared);
            }
        }
        for (path, role) in &self.plan.files {
            let Some(entry) = self.tree.file(path) else {
                continue;
            };
            let Some(shared) = self.shared_path(path.as_str(), true) else {
                continue;
            };
            let mut file = self.file(entry, *role, path, shared.as_str());
            if let Some(stand_ins) = self.stand_ins.remove(&shared) {
                out.set_stand_ins(shared.clone(), stand_ins);
            }
            // The growth chart dates a memory folder's topic file by its modification day when
            // its frontmatter names none, and discovery records which it read; no other
            // file's date is read, so no other is shared.
            if !self.plan.dated.contains(path) {
                file.modified = None;
            }
            paths.insert(path.as_str().to_owned(), shared.as_str().to_owned());
            out.insert(shared, file);
        }
        for finding in self.tree.diagnostics() {
            out.push_diagnostic(Diagnostic {
                code: finding.code,
                severity: finding.severity,
                path: finding.path.as_deref().map(|p| self.namer.name(p)),
                line: finding.line,
                message: CARRIED_FINDING.to_owned(),
                data: None,
            });
        }
        let input = Input {
            home: self.namer.name(&self.input.home),
            project: self.input.project.as_deref().map(|p| self.namer.name(p)),
            config_dir: self.input.config_dir.as_deref().map(|p| self.namer.name(p)),
            os: self.input.os,
            version: self.input.version.clone(),
            today: self.input.today.clone(),
            reads: Vec::new(),
            // Only what the analysis reads of them: whether auto memory is off, the budget.
            disable_auto_memory_env: self
                .input
                .disable_auto_memory_env
                .as_deref()
                .filter(|v| crate::input::is_truthy(v))
                .map(|_| "1".to_owned()),
            skill_listing_budget_env: self
                .input
                .skill_listing_budget_env
                .as_deref()
                .and_then(crate::discover::session::listing_budget_from_env)
                .map(|n| n.to_string()),
            session: crate::SessionKind::Interactive,
            // The `--add-dir` and `--plugin-dir` folders, renamed; the variable as a switch.
            additional_dirs: self
                .input
                .additional_dirs
                .iter()
                .map(|d| self.namer.name(d))
                .collect(),
            additional_dirs_claude_md_env: self
                .input
                .additional_dirs_claude_md_env
                .as_deref()
                .filter(|v| crate::input::is_truthy(v))
                .map(|_| "1".to_owned()),
            plugin_dirs: self
                .input
                .plugin_dirs
                .iter()
                .map(|d| self.namer.name(d))
                .collect(),
        };
        let quoted = self.quoted();
        out.set_quoted(quoted.clone());
        if self.namer.collecting() {
            // The report's paths and names go through the table too, so that
            // `Sanitized::pseudonym` maps every one of them, unresolved targets included.
            comparable(self.report, &mut |s| self.namer.name(s));
            for row in &self.report.files {
                self.namer.file(&row.path);
            }
        }
        Built {
            tree: out,
            quoted,
            dirs,
            input,
            paths,
            warnings: self.warnings,
        }
    }

    /// How long each name Claude Code quotes was before it was renamed, where its pseudonym
    /// has another length: every row's path (the instruction block and a read name each file
    /// they send), the memory folder (the memory section names it), each skill's listed name.
    /// The shared tree carries it ([`Tree::set_quoted`]) so that those figures stay.
    pub(super) fn quoted(&self) -> BTreeMap<String, QuotedLength> {
        let mut quoted = BTreeMap::new();
        if self.namer.collecting() {
            return quoted;
        }
        let mut note = |original: &str, shared: String| {
            // A snapshot shared again keeps the first original's lengths.
            let length = self
                .tree
                .quoted(original)
                .unwrap_or_else(|| length_of(original));
            if length != length_of(&shared) {
                quoted.insert(shared, length);
            }
        };
        for row in &self.report.files {
            let shared_path = self.namer.file(&row.path);
            note(&row.path, shared_path.clone());
            let (Some(name), Ok(path)) = (&row.skill_name, VPath::new(&row.path)) else {
                continue;
            };
            // A plugin's command or skill is listed by its name alone (`plugin:x`); the
            // user's and the project's commands by their path below `commands/`, renamed
            // with it.
            let in_plugin = (self.report.session.plugins.iter())
                .any(|p| VPath::new(&p.folder).is_ok_and(|folder| path.starts_with(&folder)));
            if row.group == crate::report::Group::Commands && !in_plugin {
                note(name, shared_command_name(name, &shared_path));
                continue;
            }
            if name.contains(':') || row.group == crate::report::Group::Commands {
                note(name, self.namer.name(name));
            }
            // A Read below a folder with its own skills announces each one, quoting that
            // folder relative to the project twice.
            if let Some((folder, shared_folder)) = announced_folder(
                &row.path,
                &shared_path,
                self.report.context.project.as_deref(),
            ) {
                note(&folder, shared_folder);
            }
            // As the listing shows it: `<folder>`, or `<folder> (<name>)`.
            let folder = path
                .parent()
                .map(|p| p.file_name().to_owned())
                .unwrap_or_default();
            let shown = |folder: &str, name: &str| {
                if name == folder {
                    folder.to_owned()
                } else {
                    format!("{folder} ({name})")
                }
            };
            note(
                &shown(&folder, name),
                shown(&self.namer.name(&folder), &self.namer.name(name)),
            );
        }
        // The listing of agent types names each sub-agent in force.
        for agent in self
            .report
            .health
            .agents
            .iter()
            .filter(|a| a.listed.is_some())
        {
            note(&agent.name, self.namer.name(&agent.name));
        }
        if let Some(dir) = &self.report.context.memory_dir {
            note(dir, self.namer.name(dir));
        }
        // A memory folder without an index gets one written from its files' names.
        for row in self.report.files.iter().filter(|row| row.backfilled) {
            let Some(dir) = VPath::new(&row.path).ok().and_then(|p| p.parent()) else {
                continue;
            };
            for (path, _) in self.tree.files_under(&dir) {
                let Some(file) = path.strip_prefix(&dir) else {
                    continue;
                };
                let stem = path.file_name().trim_end_matches(".md");
                note(file, self.namer.file(file));
                note(stem, self.namer.name(stem));
            }
        }
        quoted
    }

    pub(super) fn shared_path(&mut self, original: &str, file: bool) -> Option<VPath> {
        let shared = if file {
            self.namer.file(original)
        } else {
            self.namer.name(original)
        };
        match VPath::new(&shared) {
            Ok(path) => Some(path),
            Err(error) => {
                self.warnings.push(format!(
                    "a path could not be shared and is left out: {error}"
                ));
                None
            }
        }
    }

    pub(super) fn file(
        &mut self,
        entry: &FileEntry,
        role: Role,
        original: &VPath,
        shown: &str,
    ) -> FileEntry {
        let unreadable =
            || Contents::Unreadable("it could not be read when the snapshot was shared".to_owned());
        let (size, contents) = match (&entry.contents, role) {
            // Before size-only: a file that could not be read is skipped in the report, and
            // must stay unreadable rather than become one the analysis asks for.
            (Contents::Unreadable(_), _) => (entry.size, unreadable()),
            (_, Role::SizeOnly) | (Contents::Unread, _) => (entry.size, Contents::Unread),
            (Contents::Loaded(bytes), Role::Text(kind)) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.text(s, kind, original, shown));
                // Where a line could not keep its length (the sharer is warned), the size
                // follows the bytes.
                let size = (entry.size + text.len() as u64).saturating_sub(bytes.len() as u64);
                (size, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::GitFile) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.git_file(s));
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::Settings) => {
                let mut text = self.settings(bytes, shown);
                // The managed settings are a row (their inline claudeMd), whose size shows:
                // white space after the JSON keeps it.
                if shown.ends_with("/managed-settings.json") && text.len() < bytes.len() {
                    text.resize(bytes.len(), b' ');
                }
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::ClaudeJson) => {
                let text = self.claude_json(bytes);
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::McpConfig) => {
                let text = self.mcp_config(bytes);
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::PluginConfig) => {
                let text = self.plugin_config(bytes, original.file_name());
                (text.len() as u64, Contents::Loaded(text))
            }
        };
        FileEntry {
            size,
            contents,
            // The growth chart reads a file's day, no more: the time of day is not shared.
            modified: entry.modified.as_deref().and_then(day_of),
        }
    }
}

/// How a name measures where Claude Code quotes it.
/// The name a command is listed by in the shared snapshot: as many folders (and the file's
/// stem) of its shared path as its original name has `:`-parts; a folder-form command's
/// `SKILL.md` names nothing.
fn shared_command_name(name: &str, shared_path: &str) -> String {
    let parts = name.split(':').count();
    let mut components: Vec<&str> = shared_path.split('/').collect();
    if components
        .last()
        .is_some_and(|f| f.eq_ignore_ascii_case("SKILL.md"))
    {
        components.pop();
    }
    let start = components.len().saturating_sub(parts);
    let mut out: Vec<&str> = components[start..].to_vec();
    if let Some(last) = out.last_mut() {
        *last = last.strip_suffix(".md").unwrap_or(last);
    }
    out.join(":")
}

pub(super) fn length_of(name: &str) -> QuotedLength {
    QuotedLength {
        bytes: name.len() as u64,
        chars: name.chars().count() as u64,
        utf16: name.encode_utf16().count() as u64,
        columns: unicode_width::UnicodeWidthStr::width(name) as u64,
    }
}

/// The day (`YYYY-MM-DD`) of a modification time, when it names one.
pub(super) fn day_of(modified: &str) -> Option<String> {
    crate::date::parse_day(modified)?;
    modified.trim().get(..10).map(str::to_owned)
}

/// For a skill below the project (`<project>/<folder>/.claude/skills/<name>/SKILL.md`): the
/// folder as a Read's announcement quotes it, relative to the project, and the same segments
/// of its shared path (renaming keeps every `/`).
fn announced_folder(
    path: &str,
    shared_path: &str,
    project: Option<&str>,
) -> Option<(String, String)> {
    let project = project?.trim_end_matches('/');
    let owner = &path[..path.rfind("/.claude/skills/")?];
    let folder = owner.strip_prefix(project)?.strip_prefix('/')?;
    if folder.is_empty() {
        return None;
    }
    let skip = project.split('/').count();
    let take = folder.split('/').count();
    let shared_folder: Vec<&str> = shared_path.split('/').skip(skip).take(take).collect();
    (shared_folder.len() == take).then(|| (folder.to_owned(), shared_folder.join("/")))
}
