//! The CLAUDE.md family: the managed policy, the user's files, the directory walk from the
//! filesystem root down to the project, and the folders below it.
//!
//! Measured on 2.1.328: every directory of the walk gives, in this order, `CLAUDE.md` (or
//! `AGENTS.md` when it has no `CLAUDE.md`), `.claude/CLAUDE.md`, its `.claude/rules/` without
//! `paths`, and `CLAUDE.local.md`. There is no `.claude/CLAUDE.local.md` (the documentation
//! and the seed list four names). Folders below the project have no depth limit and no skip
//! list: their files attach when Claude reads a file there.

use super::{Discovery, Node, Sent, Text};
use crate::report::{Code, Diagnostic, Group, LoadType, ReadFor, Scope, Severity};
use crate::tree::Tree;
use crate::version::Behaviour;
use crate::vpath::VPath;

/// The managed settings file; its `claudeMd` is sent as `<managed-settings>`.
pub(super) const MANAGED_SETTINGS: &str = "managed-settings.json";

/// The git facts that key auto memory and bound the walk's special cases.
#[derive(Debug, Clone)]
pub(super) struct GitKey {
    /// The folder holding `.git` (the project's own for a linked worktree).
    pub(super) top: VPath,
    /// The repository whose path keys memory: the main worktree's for a linked worktree.
    pub(super) root: VPath,
    /// True for a linked worktree.
    pub(super) linked: bool,
}

impl Discovery<'_> {
    /// `<managed>/CLAUDE.md` and the managed folder's `.claude/rules/`.
    pub(super) fn managed_policy(&mut self) -> Vec<Node> {
        let dir = self.managed_dir();
        let mut nodes: Vec<Node> = self
            .family_file(
                &dir.child("CLAUDE.md"),
                Group::ManagedPolicy,
                LoadType::Always,
                Scope::Managed,
                Sent::AtStartup,
            )
            .into_iter()
            .collect();
        nodes.extend(self.inline_managed_instructions(&dir));
        nodes.extend(self.rules(
            &dir.child(".claude").child("rules"),
            Scope::Managed,
            Sent::AtStartup,
        ));
        nodes
    }

    /// `claudeMd` of `managed-settings.json`: sent after the managed CLAUDE.md as the entry
    /// `<managed-settings>`; its row is the settings file. Releases before 2.1.139 ignore it.
    fn inline_managed_instructions(&mut self, dir: &VPath) -> Option<Node> {
        if !self.paths.rules.has(Behaviour::ManagedInlineInstructions) {
            return None;
        }
        let text = self.settings.managed_claude_md.clone()?;
        let path = dir.child(MANAGED_SETTINGS);
        let sent = crate::text::measure::as_sent(&text);
        let mut row = super::blank_row(
            &path,
            Group::ManagedPolicy,
            LoadType::Always,
            Some(Scope::Managed),
            self.tree.file(&path).map(|f| f.size),
        );
        row.raw = Some(crate::text::measure::measure(&text));
        if sent.is_empty() {
            row.status = crate::report::FileStatus::Empty;
        }
        row.loaded = Some(crate::text::measure::measure(&sent));
        self.top_level.insert(path.clone());
        self.note_sent(&path, Sent::AtStartup);
        Some(Node {
            row,
            children: Vec::new(),
        })
    }

    /// `<config>/CLAUDE.md`, then `<config>/rules/`.
    pub(super) fn user_files(&mut self) -> Vec<Node> {
        let config = self.paths.config.clone();
        let mut nodes: Vec<Node> = self
            .family_file(
                &config.child("CLAUDE.md"),
                Group::User,
                LoadType::Always,
                Scope::User,
                Sent::AtStartup,
            )
            .into_iter()
            .collect();
        nodes.extend(self.rules(&config.child("rules"), Scope::User, Sent::AtStartup));
        nodes
    }

    /// Every folder from the filesystem root's child down to the project, outermost first.
    pub(super) fn directory_walk(&mut self, project: &VPath, git: Option<&GitKey>) -> Vec<Node> {
        let mut dirs: Vec<VPath> = project.ancestors().filter(|d| !d.is_root()).collect();
        dirs.reverse();
        // A linked worktree inside its main repository: the main repository's folders above
        // the worktree give only their CLAUDE.local.md (from 2.1.69; before, every file).
        let main_above = git.filter(|g| {
            g.linked
                && g.top.starts_with(&g.root)
                && self.paths.rules.has(Behaviour::NestedWorktreeLocalOnly)
        });
        // AGENTS.md is a fallback for the whole walk: it loads (after each folder's own
        // files) only when no folder of the walk has a CLAUDE.md, .claude/CLAUDE.md or
        // CLAUDE.local.md.
        let candidates: Vec<VPath> = dirs
            .iter()
            .flat_map(|dir| {
                ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"]
                    .iter()
                    .filter_map(|name| dir.join(name).ok())
                    .collect::<Vec<_>>()
            })
            .collect();
        let agents_fallback = self.paths.rules.has(Behaviour::AgentsMdFallback)
            && !candidates.iter().any(|path| self.would_send(path));
        let mut nodes = Vec::new();
        for dir in dirs {
            let local_only = main_above.is_some_and(|g| dir.starts_with(&g.root) && dir != g.top);
            if !local_only {
                nodes.extend(self.project_files_and_rules(&dir));
            }
            nodes.extend(self.startup_files(&dir, &["CLAUDE.local.md"], Scope::Local));
            if agents_fallback && !local_only {
                nodes.extend(self.startup_files(
                    &dir,
                    &["AGENTS.md", ".claude/AGENTS.md"],
                    Scope::Project,
                ));
            }
        }
        nodes
    }

    /// One folder's `CLAUDE.md`, `.claude/CLAUDE.md` and the rules of its `.claude/rules/`,
    /// sent at startup under the project's label.
    fn project_files_and_rules(&mut self, dir: &VPath) -> Vec<Node> {
        let mut nodes =
            self.startup_files(dir, &["CLAUDE.md", ".claude/CLAUDE.md"], Scope::Project);
        nodes.extend(self.rules(
            &dir.child(".claude").child("rules"),
            Scope::Project,
            Sent::AtStartup,
        ));
        nodes
    }

    /// The instruction files of the `--add-dir` folders, sent after the project's when
    /// `CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD` is set: each folder's `CLAUDE.md`,
    /// `.claude/CLAUDE.md` and rules (the project's label), then its `CLAUDE.local.md` (the
    /// local label); never its parents' (measured on 2.1.328, `add-dir-*`).
    pub(super) fn additional_dirs_files(&mut self) -> Vec<Node> {
        let mut nodes = Vec::new();
        if !self.paths.additional_claude_md {
            return nodes;
        }
        for dir in self.paths.additional_dirs.clone() {
            nodes.extend(self.project_files_and_rules(&dir));
            nodes.extend(self.startup_files(&dir, &["CLAUDE.local.md"], Scope::Local));
        }
        nodes
    }

    /// The files of `dir` with these names that the walk sends at startup.
    fn startup_files(&mut self, dir: &VPath, names: &[&str], scope: Scope) -> Vec<Node> {
        let mut nodes = Vec::new();
        for name in names {
            let path = dir.join(name).expect("constant names");
            nodes.extend(self.family_file(
                &path,
                Group::Project,
                LoadType::Always,
                scope,
                Sent::AtStartup,
            ));
        }
        nodes
    }

    /// True when the walk would send this file: it exists, is not the user's own
    /// CLAUDE.md, is not excluded or too large, and has text left once stripped. A file
    /// whose contents have not arrived counts as sent until they do.
    fn would_send(&mut self, path: &VPath) -> bool {
        if !self.tree.is_file(path)
            || *path == self.paths.config.child("CLAUDE.md")
            || self.exclude_pattern(path).is_some()
            || self
                .tree
                .file(path)
                .map(|f| f.size)
                .is_some_and(|size| self.skipped_for_size(path, size))
        {
            return false;
        }
        match self.text(path) {
            Text::Ready(text) => !crate::text::measure::trimmed_for_block(&super::session_text(
                &self.paths.rules,
                &text,
            ))
            .is_empty(),
            Text::Pending => true,
            _ => false,
        }
    }

    /// The files of every folder below the project: they attach when Claude reads a file
    /// in that folder or below it.
    ///
    /// Every folder of the project is looked at (a `node_modules/` holds thousands), so each
    /// name is looked up in its folder and a path is made only for what is there.
    pub(super) fn nested(&mut self, project: &VPath) -> Vec<Node> {
        let mut nodes = Vec::new();
        // A folder with none of these names adds nothing below: no family file, no
        // `.claude/`, no note.
        let names = [".claude", "CLAUDE.md", "CLAUDE.local.md"];
        for dir in self
            .dirs_holding(project, &names)
            .into_iter()
            .chain([project.clone()])
        {
            let dot_claude = self
                .tree
                .is_dir_in(&dir, ".claude")
                .then(|| dir.child(".claude"));
            if let Some(dot_claude) = &dot_claude {
                self.never_read(dot_claude);
            }
            if dir.file_name() == ".claude" || dir == *project {
                continue;
            }
            let names = family_names(self.tree, &dir, dot_claude.as_ref());
            for (path, scope) in &names {
                nodes.extend(self.family_file(
                    path,
                    Group::Project,
                    LoadType::Tree,
                    *scope,
                    Sent::OnReadBelow,
                ));
            }
            if let Some(dot_claude) = &dot_claude {
                nodes.extend(self.rules(
                    &dot_claude.child("rules"),
                    Scope::Project,
                    Sent::OnReadBelow,
                ));
            }
            self.seed_scan_note(project, &dir, &names);
        }
        nodes
    }

    /// `.claude/CLAUDE.local.md` is documented (and in the seed's list of four names) but
    /// Claude Code 2.1.328 never reads it.
    fn never_read(&mut self, dot_claude: &VPath) {
        if self.tree.is_file_in(dot_claude, "CLAUDE.local.md") {
            let path = dot_claude.child("CLAUDE.local.md");
            self.diagnostics.push(Diagnostic::new(
                Code::ClaudeLocalMdNeverRead,
                Severity::Warning,
                Some(path.as_str()),
                "Claude Code never reads .claude/CLAUDE.local.md (measured on 2.1.328; the \
                 documentation lists it): move it to CLAUDE.local.md beside .claude/",
            ));
        }
    }

    /// The seed app's scan stops six folders down and skips `node_modules`, build output,
    /// vendored code and dot folders; Claude Code attaches files there too when it reads
    /// a file there. A note on each file the seed's scan would have missed.
    fn seed_scan_note(&mut self, project: &VPath, dir: &VPath, names: &[(VPath, Scope)]) {
        const SEED_SKIPPED: [&str; 13] = [
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
        if names.is_empty() {
            return;
        }
        let rest = dir.strip_prefix(project).unwrap_or_default();
        let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
        let skipped = parts
            .iter()
            .find(|p| p.starts_with('.') || SEED_SKIPPED.contains(p));
        let why = match skipped {
            Some(part) => format!("inside {part}/"),
            None if parts.len() > 6 => format!("{} folders below the project", parts.len()),
            None => return,
        };
        for (path, _) in names {
            self.diagnostics.push(Diagnostic::new(
                Code::SeedScanMisses,
                Severity::Info,
                Some(path.as_str()),
                format!(
                    "{why}: a scan that stops six folders down or skips such folders (the \
                     seed app's) would miss this file; Claude Code attaches it when it reads a \
                     file here"
                ),
            ));
        }
    }

    /// Every folder below `dir` that holds a file or folder named one of `names`, or is
    /// unlisted ([`Tree::folders_below_holding`]), parents before children, in byte order;
    /// iterative, so a tree thousands of folders deep cannot exhaust the stack. Every folder
    /// below is looked into: a lazily listed tree lists them in one round.
    pub(super) fn dirs_holding(&self, dir: &VPath, names: &[&str]) -> Vec<VPath> {
        // A `.claude` folder's contents are files of the folder above, not a folder of the
        // project's own.
        self.tree.folders_holding(dir, ".claude", names)
    }

    /// The git repository of the project, if it is in one: the folder with `.git`, and for
    /// a linked worktree (a `.git` file naming `<main>/.git/worktrees/<name>`) the main one.
    pub(super) fn git_key(&mut self, project: &VPath) -> Option<GitKey> {
        for dir in project.ancestors() {
            let git = dir.child(".git");
            if self.tree.is_dir(&git) {
                self.source(&git, ReadFor::GitDir, None);
                return Some(GitKey {
                    top: dir.clone(),
                    root: dir,
                    linked: false,
                });
            }
            if self.tree.is_file(&git) {
                self.source(&git, ReadFor::GitFile, None);
                let plain = GitKey {
                    top: dir.clone(),
                    root: dir.clone(),
                    linked: false,
                };
                let Text::Ready(text) = self.text(&git) else {
                    return Some(plain);
                };
                let target = text
                    .lines()
                    .find_map(|line| line.trim().strip_prefix("gitdir:"))
                    .map(str::trim)
                    .unwrap_or_default()
                    .to_owned();
                let resolved = VPath::new(&target).or_else(|_| dir.join(&target)).ok();
                let main = resolved.as_ref().and_then(|gitdir| {
                    let s = gitdir.as_str();
                    s.find("/.git/worktrees/")
                        .and_then(|cut| VPath::new(&s[..cut]).ok())
                });
                // A submodule or a detached git dir: the folder itself is the root.
                return Some(match main {
                    Some(main) => GitKey {
                        top: dir,
                        root: main,
                        linked: true,
                    },
                    None => plain,
                });
            }
        }
        None
    }
}

/// The `CLAUDE.md` family files of a folder below the project that exist, in the order the
/// program sends them: `CLAUDE.md`, `.claude/CLAUDE.md` (when the folder has a `.claude/`,
/// `dot_claude`), `CLAUDE.local.md`.
fn family_names(tree: &Tree, dir: &VPath, dot_claude: Option<&VPath>) -> Vec<(VPath, Scope)> {
    let mut found = Vec::new();
    if tree.is_file_in(dir, "CLAUDE.md") {
        found.push((dir.child("CLAUDE.md"), Scope::Project));
    }
    if let Some(dot_claude) = dot_claude {
        if tree.is_file_in(dot_claude, "CLAUDE.md") {
            found.push((dot_claude.child("CLAUDE.md"), Scope::Project));
        }
    }
    if tree.is_file_in(dir, "CLAUDE.local.md") {
        found.push((dir.child("CLAUDE.local.md"), Scope::Local));
    }
    found
}
