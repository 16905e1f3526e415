//! Auto memory and agent memory.
//!
//! The memory folder is `autoMemoryDirectory` itself when a settings layer sets it (measured
//! on 2.1.328: the folder, not a base of project folders), else
//! `<config>/projects/<encoded key>/memory/`, the key being the git root (the main
//! worktree's for a linked worktree) or the project folder. Its `MEMORY.md` loads at
//! startup under the caps (`text::memory_index`); nothing it imports is followed; its topic
//! files load only when Claude reads them.

use std::collections::BTreeSet;

use super::walk::GitKey;
use super::{collect_paths, set_agent, Discovery, Node, Sent};
use crate::encode::encode_project_path;
use crate::report::{
    Code, Diagnostic, FileStatus, Group, LoadType, Measure, MemoryFolder, MemoryLookup, ReadFor,
    Scope, Severity,
};
use crate::text::measure::measure;
use crate::text::memory_index;
use crate::version::Behaviour;
use crate::vpath::VPath;

use super::health::MemoryFacts;

/// A memory folder of `projects/` that may hold the memory of a project whose own folder
/// has none: the project moved or was renamed, or was dropped under another name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryCandidate {
    /// The folder's name (an encoded path).
    pub name: String,
    /// How many of the project path's last segments the folder's path ends with.
    pub shared_segments: usize,
    /// Its `.md` files.
    pub files: u64,
}

/// The memory folders of `folders` that may be `project`'s own, most likely first: those
/// whose encoded path ends with the encoding of the project path's last segments (the same
/// folder name, moved; the same last two, moved higher up), the most segments shared first,
/// then the fuller folder. The project's current folder is left out, as is an empty one.
/// Claude Code itself uses only the folder the project's own path (or its git root) encodes
/// to: these are for a person to compare, not what loads. The same git remote and a linked
/// worktree's main folder are not weighed here: the snapshot's `.git` says those, and
/// `walk::GitKey` already keys a worktree by its main one.
pub fn memory_candidates(folders: &[MemoryFolder], project: &str) -> Vec<MemoryCandidate> {
    let segments: Vec<&str> = project
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && !s.ends_with(':'))
        .collect();
    let own = encode_project_path(project);
    let mut out: Vec<MemoryCandidate> = folders
        .iter()
        .filter(|f| !f.current && f.name != own && f.files > 0)
        .filter_map(|folder| {
            let shared = (1..=segments.len())
                .take_while(|&k| {
                    let tail = encode_project_path(&segments[segments.len() - k..].join("/"));
                    let name = folder.name.as_str();
                    name.len() > tail.len()
                        && name.ends_with(&tail)
                        && name.as_bytes()[name.len() - tail.len() - 1] == b'-'
                })
                .last()?;
            Some(MemoryCandidate {
                name: folder.name.clone(),
                shared_segments: shared,
                files: folder.files,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        (b.shared_segments, b.files, &a.name).cmp(&(a.shared_segments, a.files, &b.name))
    });
    out
}

/// What the auto-memory stage found.
pub(super) struct AutoMemory {
    pub(super) nodes: Vec<Node>,
    pub(super) facts: MemoryFacts,
    pub(super) folder_name: Option<String>,
}

impl Discovery<'_> {
    pub(super) fn auto_memory(&mut self, git: Option<&GitKey>) -> AutoMemory {
        let mut facts = MemoryFacts {
            key_path: None,
            git_root: git.map(|g| g.root.clone()),
            memory_dir: None,
            found_via: None,
            wanted: None,
            enabled: self.settings.auto_memory_enabled,
            votes: self.settings.votes.clone(),
        };
        let mut result = AutoMemory {
            nodes: Vec::new(),
            facts: MemoryFacts { ..facts.clone() },
            folder_name: None,
        };
        let Some(project) = self.paths.project.clone() else {
            result.facts = facts;
            return result;
        };
        // Before 2.1.63 each linked worktree kept its own memory.
        let key = match git {
            Some(g) if g.linked && !self.paths.rules.has(Behaviour::WorktreesShareMemory) => {
                project.clone()
            }
            Some(g) => g.root.clone(),
            None => project.clone(),
        };
        let encoded = encode_project_path(key.as_str());
        result.folder_name = Some(encoded.clone());
        facts.key_path = Some(key.clone());
        let (dir, via) = match &self.settings.memory_directory {
            Some((dir, _)) => (dir.clone(), MemoryLookup::Path),
            None => {
                let via = if git.is_some_and(|g| g.linked) {
                    MemoryLookup::Worktree
                } else {
                    MemoryLookup::Path
                };
                (
                    self.settings.projects_base.child(&encoded).child("memory"),
                    via,
                )
            }
        };
        let why = match (&self.settings.memory_directory, git) {
            (Some(_), _) => "autoMemoryDirectory in settings names it",
            (None, Some(g)) if g.linked && key != project => {
                "the main worktree's path, encoded: every worktree of a repository shares one \
                 memory"
            }
            (None, Some(_)) if key != project => {
                "the path of the git repository's top folder, encoded"
            }
            (None, _) => "the project's path, encoded",
        };
        facts.wanted = Some((dir.clone(), why));
        self.memory_dir = Some(dir.clone());
        if self.tree.is_dir(&dir) {
            self.looked_at(&dir, ReadFor::Folder);
            facts.memory_dir = Some(dir.clone());
            facts.found_via = Some(via);
            result.nodes = self.memory_folder(&dir, Group::AutoMemory, None, None);
        } else {
            self.diagnostics.push(Diagnostic::new(
                Code::MemoryFolderNotFound,
                Severity::Info,
                None,
                format!(
                    "no auto-memory folder for {key} in this snapshot: Claude Code uses {dir}, \
                     and creates it when it first saves something"
                ),
            ));
        }
        result.facts = facts;
        result
    }

    /// A memory folder: `MEMORY.md` (startup) with what it links to, then every topic file
    /// it does not reach (on-demand). Without a `MEMORY.md` but with topic files, the index
    /// Claude Code writes and loads at its next start.
    pub(super) fn memory_folder(
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
            let mut node = self.file_node(&index, group, LoadType::Startup, scope, true);
            self.memory_references(&mut node, dir);
            self.apply_memory_caps(&mut node.row, agent.is_none());
            collect_paths(&node, &mut claimed);
            if agent.is_none() {
                self.note_sent(&index, Sent::AtStartup);
            }
            nodes.push(node);
        }
        let topics = self.topic_files(dir);
        for path in &topics {
            if claimed.contains(path) || !self.top_level.insert(path.clone()) {
                continue;
            }
            let node = self.file_node(path, group, LoadType::OnDemand, scope, true);
            nodes.push(node);
        }
        let backfills = self.paths.rules.has(Behaviour::IndexBackfill);
        if backfills && !self.tree.is_file(&index) && !topics.is_empty() && agent.is_none() {
            let node = self.backfilled_index(dir, &topics, group, scope);
            self.top_level.insert(index.clone());
            self.note_sent(&index, Sent::AtStartup);
            nodes.insert(0, node);
        }
        if let Some(agent) = agent {
            for node in &mut nodes {
                set_agent(node, agent);
            }
        }
        nodes
    }

    /// The topic files of a memory folder: every `.md` below it but its `MEMORY.md`.
    pub(super) fn topic_files(&self, dir: &VPath) -> Vec<VPath> {
        let index = dir.child("MEMORY.md");
        self.tree
            .files_under(dir)
            .map(|(path, _)| path.clone())
            .filter(|path| path.extension() == Some("md") && *path != index)
            .collect()
    }

    /// Imports in a `MEMORY.md` are not followed (measured on 2.1.328): they become
    /// findings, and their rows go. Links stay: they point Claude at topic files.
    fn memory_references(&mut self, node: &mut Node, dir: &VPath) {
        let before = node.children.len();
        node.children
            .retain(|child| child.row.load != LoadType::Import);
        if node.children.len() < before {
            self.diagnostics.push(Diagnostic::new(
                Code::MemoryIndexImport,
                Severity::Info,
                Some(dir.child("MEMORY.md").as_str()),
                "@imports in MEMORY.md are not followed: Claude Code loads the index as it is",
            ));
        }
        for child in &mut node.children {
            if child.row.load == LoadType::Link
                && VPath::new(&child.row.path).is_ok_and(|p| p.starts_with(dir))
            {
                child.row.load = LoadType::OnDemand;
                child.row.loaded = None;
            }
        }
    }

    /// Cuts and measures an index as it is sent; `main` for the main auto memory's, the one
    /// index 2.1.337 quotes (an agent's own is sent as written: the `subagent-memory-*`
    /// captures).
    fn apply_memory_caps(&mut self, row: &mut crate::report::FileRow, main: bool) {
        let Ok(path) = VPath::new(&row.path) else {
            return;
        };
        let super::Text::Ready(text) = self.text(&path) else {
            return;
        };
        let cut = memory_index::cut_with(&text, self.paths.rules.index_caps());
        let mut sent = if main && self.paths.rules.has(Behaviour::MemoryIndexQuoted) {
            cut.as_sent_quoted()
        } else {
            cut.as_sent()
        };
        let mut quoted_or_cut = true;
        // Before 2.1.79 an index the caps left whole went untrimmed, like the other files.
        // Before 2.1.72, comments and all: an index of comments alone was sent too.
        if !self.paths.rules.has(Behaviour::InstructionFilesTrimmed)
            && cut.truncation.warning.is_none()
        {
            let whole = untrimmed_index(&self.paths.rules, &text);
            if !crate::text::measure::trimmed_for_block(&whole).is_empty() {
                sent = whole;
                quoted_or_cut = false;
            }
        }
        row.status = if sent.is_empty() {
            FileStatus::Empty
        } else {
            row.status
        };
        let sent_measure = measure(&sent);
        row.loaded = Some(sent_measure);
        // The untrimmed index of an old release is the file as written: all the user's.
        row.claude_code = quoted_or_cut
            .then(|| claude_code_part(sent_measure, &cut))
            .flatten();
        if let Some(warning) = &cut.truncation.warning {
            let t = &cut.truncation;
            let mut diagnostic = Diagnostic::new(
                Code::MemoryIndexTruncated,
                Severity::Warning,
                Some(&row.path),
                format!(
                    "{} of {} lines and {} of {} characters load; Claude Code appends: {}",
                    t.loaded_lines,
                    t.total_lines,
                    super::group_digits(t.loaded_utf16),
                    super::group_digits(t.total_utf16),
                    warning.trim_start_matches("> ")
                ),
            );
            if let Some(line) = t.first_dropped_line {
                diagnostic = diagnostic.at_line(line);
            }
            self.diagnostics.push(diagnostic);
        } else if let Some(reminder) = memory_index::near_limit_warning(&cut.truncation) {
            self.diagnostics.push(Diagnostic::new(
                Code::MemoryIndexNearLimit,
                Severity::Warning,
                Some(&row.path),
                reminder,
            ));
        }
        row.truncation = Some(cut.truncation);
    }

    /// The index Claude Code writes into a memory folder that has topic files and no
    /// `MEMORY.md`, and loads the same session: one line per topic file,
    /// `- [<file name without .md>](<file>) — <frontmatter description>` (the ` — …` part
    /// only when it has a description; a heading is not used). The program orders the
    /// lines by modification time, which a snapshot may not carry; they are in path order
    /// here.
    fn backfilled_index(
        &mut self,
        dir: &VPath,
        topics: &[VPath],
        group: Group,
        scope: Option<Scope>,
    ) -> Node {
        let mut lines = Vec::new();
        for path in topics {
            let description = self
                .frontmatter_of(path)
                .and_then(|fm| fm.string("description"))
                .map(|d| d.trim().to_owned())
                .filter(|d| !d.is_empty());
            let stem = path.file_name().trim_end_matches(".md");
            let file = path.strip_prefix(dir).unwrap_or(path.file_name());
            // A shared snapshot's pseudonyms stand for names of other lengths (`Tree::quoted`).
            let quoted = |name: &str| self.tree.quoted(name).map(|q| q.stand_in());
            let (stem, file) = (
                quoted(stem).unwrap_or_else(|| stem.to_owned()),
                quoted(file).unwrap_or_else(|| file.to_owned()),
            );
            lines.push(match description {
                Some(description) => format!("- [{stem}]({file}) — {description}"),
                None => format!("- [{stem}]({file})"),
            });
        }
        let index = dir.child("MEMORY.md");
        let mut row = super::blank_row(&index, group, LoadType::Startup, scope, None);
        let cut = memory_index::cut_with(&lines.join("\n"), self.paths.rules.index_caps());
        let sent = if self.paths.rules.has(Behaviour::MemoryIndexQuoted) {
            cut.as_sent_quoted()
        } else {
            cut.as_sent()
        };
        let sent_measure = measure(&sent);
        row.loaded = Some(sent_measure);
        row.claude_code = claude_code_part(sent_measure, &cut);
        row.truncation = Some(cut.truncation);
        row.backfilled = true;
        self.diagnostics.push(Diagnostic::new(
            Code::MemoryIndexBackfilled,
            Severity::Info,
            Some(dir.as_str()),
            format!(
                "the memory folder has {} topic files and no MEMORY.md: Claude Code writes an \
                 index of them at its next start and loads it",
                topics.len()
            ),
        ));
        Node {
            row,
            children: Vec::new(),
        }
    }

    /// Every folder of the projects base that has a `memory/` subfolder.
    /// Each folder and the files counted in it are recorded (`Report::sources`).
    pub(super) fn memory_folders(&mut self, current: Option<&VPath>) -> Vec<MemoryFolder> {
        let base = self.settings.projects_base.clone();
        let tree = self.tree;
        tree.child_dirs(&base)
            .into_iter()
            .filter_map(|name| {
                let memory = base.child(&name).child("memory");
                if !tree.is_dir(&memory) {
                    return None;
                }
                self.looked_at(&memory, ReadFor::Folder);
                let mut files = 0;
                for (path, _) in tree.files_under(&memory) {
                    if path.extension() == Some("md") {
                        self.looked_at(path, ReadFor::Counted);
                        files += 1;
                    }
                }
                Some(MemoryFolder {
                    decoded_guess: crate::encode::decode_guess(&name),
                    current: current == Some(&memory),
                    name,
                    files,
                })
            })
            .collect()
    }

    /// Every agent-memory folder of the three scopes, by agent.
    pub(super) fn agent_memory(&mut self) -> Vec<Node> {
        let mut roots = vec![(self.paths.config.child("agent-memory"), Scope::User)];
        if let Some(project) = &self.paths.project {
            let claude = project.child(".claude");
            roots.push((claude.child("agent-memory"), Scope::Project));
            roots.push((claude.child("agent-memory-local"), Scope::Local));
        }
        let mut nodes = Vec::new();
        for (root, scope) in roots {
            for agent in self.tree.child_dirs(&root) {
                let dir = root.child(&agent);
                // An agent's folder counts even with no file in it.
                self.looked_at(&dir, ReadFor::Folder);
                nodes.extend(self.memory_folder(
                    &dir,
                    Group::AgentMemory,
                    Some(scope),
                    Some(&agent),
                ));
            }
        }
        nodes
    }

    /// The memory folder a scope gives an agent.
    pub(super) fn agent_memory_dir(&self, scope: Scope, name: &str) -> Option<VPath> {
        match scope {
            Scope::User => self.paths.config.join(&format!("agent-memory/{name}")).ok(),
            Scope::Project => self
                .paths
                .project
                .as_ref()
                .and_then(|p| p.join(&format!(".claude/agent-memory/{name}")).ok()),
            Scope::Local => self
                .paths
                .project
                .as_ref()
                .and_then(|p| p.join(&format!(".claude/agent-memory-local/{name}")).ok()),
            Scope::Managed => None,
        }
    }

    /// An agent's memory index as appended to its system prompt, capped like `MEMORY.md`.
    pub(super) fn agent_index_text(&mut self, dir: &VPath) -> Option<String> {
        let index = dir.child("MEMORY.md");
        match self.text(&index) {
            super::Text::Ready(text) => {
                Some(memory_index::cut_with(&text, self.paths.rules.index_caps()).as_sent())
            }
            _ => None,
        }
    }
}

/// A whole `MEMORY.md` as releases before 2.1.79 sent it: the session text of the other
/// files, but the blank lines after its frontmatter go with the frontmatter, and from 2.1.72
/// CRLF is LF where a comment was stripped (measured on `memory-md-frontmatter-comments-and-leading-blank-lines` and
/// `memory-md-crlf-control-and-format-characters`).
fn untrimmed_index(rules: &crate::version::Rules, text: &str) -> String {
    let mut whole = super::session_text(rules, text);
    if crate::text::frontmatter::locate(text).is_some() {
        let mut start = 0;
        while let Some(end) = whole[start..].find('\n') {
            if !whole[start..start + end].trim().is_empty() {
                break;
            }
            start += end + 1;
        }
        whole.drain(..start);
    }
    super::lexer_line_ends(rules, text, whole)
}

/// What Claude Code writes itself in an index it sends (`all` measures what it sends):
/// everything but the index's own kept lines (the quoted-notes sentence, the `> ` marks, the
/// warning after a cut), or none when it adds nothing. The kept lines are at most the
/// 25,000-unit cap, so this measures little even when the warning quotes a huge line.
fn claude_code_part(all: Measure, cut: &memory_index::IndexCut) -> Option<Measure> {
    let own = measure(&cut.own_lines());
    let part = Measure {
        bytes: all.bytes.saturating_sub(own.bytes),
        chars: all.chars.saturating_sub(own.chars),
        utf16: all.utf16.saturating_sub(own.utf16),
        lines: all.lines.saturating_sub(own.lines),
    };
    (part.utf16 > 0).then_some(part)
}

#[cfg(test)]
mod candidate_tests {
    use super::*;

    fn folder(name: &str, files: u64) -> MemoryFolder {
        MemoryFolder {
            name: name.to_owned(),
            decoded_guess: crate::encode::decode_guess(name),
            files,
            current: false,
        }
    }

    fn check(folders: &[(&str, u64)], project: &str, expect: &[(&str, usize)]) {
        let folders: Vec<MemoryFolder> = folders.iter().map(|(n, f)| folder(n, *f)).collect();
        let got: Vec<(String, usize)> = memory_candidates(&folders, project)
            .into_iter()
            .map(|c| (c.name, c.shared_segments))
            .collect();
        let expect: Vec<(String, usize)> =
            expect.iter().map(|(n, k)| ((*n).to_owned(), *k)).collect();
        assert_eq!(got, expect, "{project}");
    }

    #[test]
    fn a_moved_project_finds_the_folders_that_end_as_it_does() {
        check(
            &[
                ("-home-erin-old-app", 12),
                ("-home-erin-work-app", 3),
                ("-home-erin-other", 5),
                ("-srv-app", 0),
            ],
            "/home/erin/code/app",
            &[("-home-erin-old-app", 1), ("-home-erin-work-app", 1)],
        );
        // Two segments shared rank above one, whatever the files.
        check(
            &[("-home-erin-app", 40), ("-mnt-old-shop-app", 2)],
            "/home/erin/shop/app",
            &[("-mnt-old-shop-app", 2), ("-home-erin-app", 1)],
        );
    }

    #[test]
    fn the_own_folder_an_empty_one_and_a_partial_name_are_left_out() {
        check(
            &[
                ("-home-erin-app", 4),
                ("-home-erin-webapp", 9),
                ("-x-app", 0),
            ],
            "/home/erin/app",
            &[],
        );
        // Windows paths encode their drive and backslashes alike.
        check(
            &[("C--Users-erin-old-app", 2)],
            r"C:\Users\erin\app",
            &[("C--Users-erin-old-app", 1)],
        );
        check(&[("-home-erin-app", 1)], "", &[]);
    }
}
