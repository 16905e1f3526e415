//! The health view: why memory can look off, and how each memory folder is doing.
//!
//! The seed document `000_…` is one person's day of `ls`, `wc` and transcript parsing to
//! find five reasons auto memory looked broken. Each reason here is a check over the rows
//! discovery already built, with diagnostics as its evidence; the memory figures (line
//! lengths, timestamps, orphans, types, growth) come from the files discovery read.

use std::collections::{BTreeMap, BTreeSet};

use super::rules::RuleGlobs;
use super::{Discovery, Text};
use crate::date;
use crate::encode::{encode_project_path, seed_encode_project_path};
use crate::report::{
    AgentInfo, Code, Diagnostic, DiagnosticData, DroppedEntry, FileRow, FileStatus, Group, Growth,
    Health, LoadType, Measure, MemoryHealth, MemoryLookup, ReadFor, ReasonCheck, ReasonId, Scope,
    Severity, WeekCount,
};
use crate::text::measure::{is_js_space, strip_for_loading};
use crate::text::references;
use crate::tree::Tree;
use crate::vpath::VPath;

/// Index lines longer than this many characters: Claude Code's own warning (2.1.268 on)
/// asks for "one line under ~200 chars" (earlier releases said ~150).
const LONG_LINE_CHARS: usize = 200;
/// Long-line findings listed one by one before they are summed up.
const LONG_LINES_LISTED: usize = 10;
/// The frontmatter `type`s Claude Code writes.
pub(crate) const MEMORY_TYPES: [&str; 4] = ["user", "feedback", "project", "reference"];
/// Words that mark an index entry as a correction of an earlier one.
pub(crate) const CORRECTION_WORDS: [&str; 6] = [
    "not",
    "instead",
    "wrong",
    "actually",
    "corrected",
    "no longer",
];
/// Dropped index entries listed in a truncation finding; the rest are counted.
const DROPPED_LISTED: usize = 500;
/// The most characters of a line a finding quotes: a 50 MB single-line index must not make
/// a 50 MB report.
pub(crate) const EXCERPT_CHARS: usize = 300;
/// The growth window, in days.
const GROWTH_DAYS: i64 = 60;
/// Weeks shown in the growth chart.
const GROWTH_WEEKS: i64 = 9;
/// The most last folder names of the project a memory folder's name is compared on.
const MAX_TAIL_SEGMENTS: usize = 4;
/// Lines of `.git/config` read at most for the remote's URL.
const MAX_CONFIG_LINES: usize = 2_000;
/// Files of the project matched against rule globs at most.
pub(crate) const RULE_MATCH_FILES: usize = 200_000;

/// What discovery learned about the memory folder, for the first reason.
#[derive(Debug, Clone)]
pub(super) struct MemoryFacts {
    pub(super) key_path: Option<VPath>,
    pub(super) git_root: Option<VPath>,
    pub(super) memory_dir: Option<VPath>,
    pub(super) found_via: Option<MemoryLookup>,
    /// The folder Claude Code uses for the project's auto memory, found or not, and why it
    /// is that one, in words ("the project's path, encoded").
    pub(super) wanted: Option<(VPath, &'static str)>,
    pub(super) enabled: bool,
    /// Every settings file that set `autoMemoryEnabled`, in precedence order (last wins).
    pub(super) votes: Vec<(VPath, bool)>,
}

impl Discovery<'_> {
    /// Builds the health view and adds its findings to the diagnostics.
    pub(super) fn health(&mut self, rows: &[FileRow], facts: &MemoryFacts) -> Health {
        let first = self.diagnostics.len();
        let candidates = self.folder_findings(facts);
        let mut memories = Vec::new();
        if let Some(dir) = &facts.memory_dir {
            memories.push(self.memory_health(dir, None, true));
        }
        let mut agent_dirs: Vec<(VPath, String)> = rows
            .iter()
            .filter(|r| r.group == Group::AgentMemory && r.depth == 0)
            .filter_map(|r| {
                let dir = VPath::new(&r.path).ok()?.parent()?;
                Some((agent_root(&dir, r.agent.as_deref()?)?, r.agent.clone()?))
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // In the tree's order: a shared snapshot's is its original's (`Tree::set_order`).
        agent_dirs.sort_by(|a, b| self.tree.cmp_paths(&a.0, &b.0).then_with(|| a.1.cmp(&b.1)));
        for (dir, agent) in &agent_dirs {
            memories.push(self.memory_health(dir, Some(agent), false));
        }
        let agents = self.agents(&agent_dirs);
        self.rule_findings(rows);
        self.skill_findings(rows);
        let codes: BTreeSet<Code> = self.diagnostics[first..]
            .iter()
            .map(|d| d.code)
            .chain(self.diagnostics.iter().map(|d| d.code))
            .collect();
        let reasons = reasons(
            &codes,
            facts,
            &candidates,
            self.paths.project.is_some(),
            &memories,
            &agents,
        );
        Health {
            reasons,
            memories,
            agents,
        }
    }

    // ----- reason 1: a different memory folder --------------------------------------------

    /// The findings of the first reason. Returns, when the project's own memory folder is
    /// not in the snapshot, the folders that may hold its memory from before a move, a
    /// rename or a drop under another name, most likely first: a line each, in words.
    fn folder_findings(&mut self, facts: &MemoryFacts) -> Vec<String> {
        let (Some(project), Some(key)) = (self.paths.project.clone(), facts.key_path.clone())
        else {
            return Vec::new();
        };
        let missing = facts.memory_dir.is_none();
        let base = self.settings.projects_base.clone();
        let names = self.tree.child_dirs(&base);
        let encoded = encode_project_path(key.as_str());
        let current = facts
            .memory_dir
            .as_ref()
            .and_then(|d| d.parent())
            .map(|d| d.file_name().to_owned());

        if let Some(dir) = &facts.memory_dir {
            let files = self
                .tree
                .files_under(dir)
                .filter(|(p, _)| p.extension() == Some("md"))
                .count();
            if files == 0 {
                self.diagnostics.push(Diagnostic::new(
                    Code::MemoryFolderEmpty,
                    Severity::Warning,
                    Some(dir.as_str()),
                    "the memory folder exists but holds no Markdown file: nothing loads",
                ));
            } else if files == 1 && self.tree.is_file(&dir.child("MEMORY.md")) {
                // Topic files without an index are not "nothing saved": Claude Code writes
                // the index at its next start (`memory-index-backfilled`).
                let what = "an index but no topic file";
                self.diagnostics.push(Diagnostic::new(
                    Code::MemoryNothingSaved,
                    Severity::Info,
                    Some(dir.as_str()),
                    format!(
                        "the memory folder holds {what}; Claude Code does not save something \
                         every session, and short scripted runs rarely do"
                    ),
                ));
            }
            if facts
                .found_via
                .is_some_and(|via| !matches!(via, MemoryLookup::Path | MemoryLookup::Worktree))
            {
                self.diagnostics.push(Diagnostic::new(
                    Code::MemoryFolderLookalike,
                    Severity::Warning,
                    Some(dir.as_str()),
                    format!(
                        "no folder named {encoded} exists; this one was found by a fallback \
                         lookup, and Claude Code may start a new, empty {encoded} instead"
                    ),
                ));
            }
        }

        // Folders that look like the same project but are not the one it maps to.
        let seed = seed_encode_project_path(key.as_str());
        let segments: Vec<&str> = project.segments().collect();
        let suffix = (segments.len() >= 2).then(|| {
            format!(
                "-{}",
                encode_project_path(&segments[segments.len() - 2..].join("/"))
            )
            .to_lowercase()
        });
        // When the project's own folder is missing, a folder ending with its last folder
        // names (one or more), or with its git remote's repository name, may be its memory
        // from before: the project was moved, renamed, or dropped under another name.
        let tails: Vec<(String, String)> = if missing {
            (1..segments.len().min(MAX_TAIL_SEGMENTS + 1))
                .rev()
                .map(|k| {
                    let tail = segments[segments.len() - k..].join("/");
                    (
                        format!("-{}", encode_project_path(&tail)).to_lowercase(),
                        tail,
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        let remote = if missing {
            self.remote_name(facts.git_root.as_ref())
        } else {
            None
        };
        let mut lookalikes = Vec::new();
        // (rank, files, name, line) of each candidate, for the reason's summary.
        let mut candidates: Vec<(usize, usize, String, String)> = Vec::new();
        for name in &names {
            if Some(name) == current.as_ref()
                || !self.tree.is_dir(&base.child(name).child("memory"))
            {
                continue;
            }
            let lower = name.to_lowercase();
            let tail = tails.iter().find(|(t, _)| lower.ends_with(t.as_str()));
            let remote_tail = remote.as_ref().filter(|(r, _)| {
                let end = format!("-{}", encode_project_path(r)).to_lowercase();
                lower.ends_with(&end)
            });
            let (rank, why) = if lower == encoded.to_lowercase() {
                (0, "differs only in case".to_owned())
            } else if *name == seed {
                (
                    1,
                    "uses the older encoding that kept dots and underscores".to_owned(),
                )
            } else if name.starts_with(&format!("{encoded}-")) {
                (
                    2,
                    "belongs to a subfolder or worktree of this project".to_owned(),
                )
            } else if let Some((_, tail)) = tail {
                let n = tail.split('/').count();
                let what = if n == 1 {
                    format!("the same last folder name as this project ({tail})")
                } else {
                    format!("the same last {n} folder names as this project ({tail})")
                };
                (3 + MAX_TAIL_SEGMENTS - n, format!("ends with {what}"))
            } else if suffix.as_ref().is_some_and(|s| lower.ends_with(s)) {
                (3, "ends with the same two folder names".to_owned())
            } else if let Some((repo, url)) = remote_tail {
                (
                    4 + MAX_TAIL_SEGMENTS,
                    format!(
                        "ends with {repo}, the repository of this project's git remote ({url})"
                    ),
                )
            } else {
                continue;
            };
            let dir = base.child(name).child("memory");
            let files = self.markdown_files(&dir);
            if missing && files > 0 {
                let count = if files == 1 {
                    "1 file".to_owned()
                } else {
                    format!("{files} files")
                };
                candidates.push((rank, files, name.clone(), format!("{name}: {why}, {count}")));
            }
            // The remote's name is in the summary only: a shared copy holds the remote's URL
            // as placeholders, so a finding on it would not survive the share.
            if remote_tail.is_some() && rank == 4 + MAX_TAIL_SEGMENTS {
                continue;
            }
            lookalikes.push(dir.as_str().to_owned());
            self.lookalike(
                &dir,
                format!("{name} {why}; its {files} memory files do not load for this project"),
            );
        }
        candidates.sort_by(|a, b| (a.0, b.1, &a.2).cmp(&(b.0, a.1, &b.2)));
        let candidates: Vec<String> = candidates.into_iter().map(|c| c.3).collect();

        // The project is the main worktree: a linked worktree's own memory folder (older
        // releases kept one per worktree) does not load for any of them now.
        if let Some(root) = facts.git_root.clone().filter(|r| *r == project) {
            let worktrees = root.child(".git").child("worktrees");
            for name in self.tree.child_dirs(&worktrees) {
                let gitdir = worktrees.child(&name).child("gitdir");
                let Text::Ready(text) = self.text(&gitdir) else {
                    continue;
                };
                let Some(linked) = text
                    .trim()
                    .strip_suffix("/.git")
                    .and_then(|p| VPath::new(p).ok())
                else {
                    continue;
                };
                let folder = encode_project_path(linked.as_str());
                let dir = base.child(&folder).child("memory");
                if Some(&folder) == current.as_ref() || !self.tree.is_dir(&dir) {
                    continue;
                }
                if lookalikes.contains(&dir.as_str().to_owned()) {
                    continue;
                }
                let files = self.markdown_files(&dir);
                lookalikes.push(dir.as_str().to_owned());
                self.lookalike(
                    &dir,
                    format!(
                        "{folder} is the memory of the linked worktree {linked}, kept by an \
                         older release; every worktree of this repository now shares \
                         {encoded}, so its {files} memory files do not load"
                    ),
                );
            }
        }

        // Other folders of the snapshot whose path encodes to the same name.
        let collisions = self.colliding_paths(&key, &encoded);
        for folder in collisions.iter().filter_map(|p| VPath::new(p).ok()) {
            self.looked_at(&folder, ReadFor::Folder);
        }
        if !collisions.is_empty() {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::MemoryFolderCollision,
                    Severity::Warning,
                    facts.memory_dir.as_ref().map(VPath::as_str),
                    format!(
                        "{} and {} encode to the same folder name {encoded}: they share one \
                         auto memory",
                        key,
                        collisions.join(", ")
                    ),
                )
                .with_data(DiagnosticData::Paths { paths: collisions }),
            );
        }

        if facts.git_root.is_none() {
            self.diagnostics.push(Diagnostic::new(
                Code::MemoryFolderNoGit,
                Severity::Info,
                None,
                format!(
                    "{project} is not inside a git repository in this snapshot, so Claude Code \
                     keys memory by the folder itself: starting it in a subfolder opens a \
                     different, empty memory"
                ),
            ));
        }
        candidates
    }

    /// The repository name of the project's git remote (`origin` first, else the first
    /// one) and its URL, from `.git/config` of the repository's top folder: a project
    /// cloned under another folder name keeps it.
    fn remote_name(&mut self, root: Option<&VPath>) -> Option<(String, String)> {
        let config = root?.child(".git").child("config");
        if !self.tree.is_file(&config) {
            return None;
        }
        let Text::Ready(text) = self.text(&config) else {
            return None;
        };
        let mut section = "";
        let mut found: Option<(bool, &str)> = None;
        for line in text.lines().take(MAX_CONFIG_LINES) {
            let line = line.trim();
            if line.starts_with('[') {
                section = line;
                continue;
            }
            let Some(url) = line
                .strip_prefix("url")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('='))
                .map(str::trim)
            else {
                continue;
            };
            if !section.starts_with("[remote ") {
                continue;
            }
            let origin = section == "[remote \"origin\"]";
            if found.is_none_or(|(was_origin, _)| origin && !was_origin) {
                found = Some((origin, url));
            }
        }
        let url = found?.1;
        let repo = url
            .trim_end_matches('/')
            .rsplit(['/', ':', '\\'])
            .next()?
            .trim_end_matches(".git");
        (!repo.is_empty()).then(|| (repo.to_owned(), url.chars().take(EXCERPT_CHARS).collect()))
    }

    /// `.md` files under `dir`, at any depth.
    fn markdown_files(&self, dir: &VPath) -> usize {
        self.tree
            .files_under(dir)
            .filter(|(p, _)| p.extension() == Some("md"))
            .count()
    }

    /// A memory folder that looks like the project's but does not load for it.
    fn lookalike(&mut self, dir: &VPath, message: String) {
        self.diagnostics.push(
            Diagnostic::new(
                Code::MemoryFolderLookalike,
                Severity::Info,
                Some(dir.as_str()),
                message,
            )
            .with_data(DiagnosticData::Paths {
                paths: vec![dir.as_str().to_owned()],
            }),
        );
    }

    /// Folders of the tree, other than `key`, whose encoded path is `encoded`. The walk only
    /// enters folders whose encoded names still match, so it stays small.
    fn colliding_paths(&self, key: &VPath, encoded: &str) -> Vec<String> {
        let root = VPath::new(key.root()).expect("a root is a path");
        let root_encoded = encode_project_path(root.as_str());
        let Some(rest) = encoded.strip_prefix(root_encoded.as_str()) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        let mut stack = vec![(root, rest.to_owned(), true)];
        while let Some((dir, remaining, first)) = stack.pop() {
            if remaining.is_empty() {
                if dir != *key {
                    found.push(dir.as_str().to_owned());
                }
                continue;
            }
            for child in self.tree.child_dirs(&dir) {
                let piece = encode_project_path(&child);
                // Below the root each segment is preceded by an encoded `/`.
                let wanted = if first { piece } else { format!("-{piece}") };
                if let Some(next) = remaining.strip_prefix(wanted.as_str()) {
                    stack.push((dir.child(&child), next.to_owned(), false));
                }
            }
            if found.len() >= 8 {
                break;
            }
        }
        found.sort();
        found
    }

    // ----- memory figures -----------------------------------------------------------------

    fn memory_health(&mut self, dir: &VPath, agent: Option<&str>, auto: bool) -> MemoryHealth {
        let index_path = dir.child("MEMORY.md");
        let mut health = MemoryHealth {
            folder: dir.as_str().to_owned(),
            agent: agent.map(str::to_owned),
            ..MemoryHealth::default()
        };
        let mut linked = BTreeSet::new();
        let mut linked_loaded = BTreeSet::new();
        let mut index_lines_text: Vec<(u64, String)> = Vec::new();
        if let Text::Ready(text) = self.text(&index_path) {
            health.index = Some(index_path.as_str().to_owned());
            let stripped = strip_for_loading(&text);
            let trimmed = stripped.text.trim_matches(is_js_space);
            health.index_lines = if trimmed.is_empty() {
                0
            } else {
                trimmed.split('\n').count() as u64
            };
            let lines: Vec<&str> = trimmed
                .split('\n')
                .filter(|l| !l.trim().is_empty())
                .collect();
            if !lines.is_empty() {
                let chars: usize = lines.iter().map(|l| l.chars().count()).sum();
                let bytes: usize = lines.iter().map(|l| l.len()).sum();
                health.mean_line_chars = one_decimal(chars as f64 / lines.len() as f64);
                health.mean_line_bytes = one_decimal(bytes as f64 / lines.len() as f64);
            }
            for (number, line) in text.split('\n').enumerate() {
                index_lines_text.push((number as u64 + 1, line.trim_end_matches('\r').to_owned()));
            }
            let long: Vec<u64> = index_lines_text
                .iter()
                .filter(|(_, l)| l.chars().count() > LONG_LINE_CHARS)
                .map(|(n, _)| *n)
                .collect();
            health.long_lines = long.len() as u64;
            for line in long.iter().take(LONG_LINES_LISTED) {
                let chars = index_lines_text[*line as usize - 1].1.chars().count();
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::MemoryIndexLongLine,
                        Severity::Info,
                        Some(index_path.as_str()),
                        format!(
                            "index line of {chars} characters; Claude Code asks for one line \
                             under ~200 chars per entry, with detail in a topic file"
                        ),
                    )
                    .at_line(*line),
                );
            }
            if long.len() > LONG_LINES_LISTED {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::MemoryIndexLongLine,
                        Severity::Info,
                        Some(index_path.as_str()),
                        format!(
                            "{} more index lines over 200 characters",
                            long.len() - LONG_LINES_LISTED
                        ),
                    )
                    .with_data(DiagnosticData::Lines {
                        lines: long[LONG_LINES_LISTED..].to_vec(),
                    }),
                );
            }
            let cut_at = self
                .diagnostics
                .iter()
                .find(|d| {
                    d.code == Code::MemoryIndexTruncated
                        && d.path.as_deref() == Some(index_path.as_str())
                })
                .and_then(|d| d.line)
                .unwrap_or(u64::MAX);
            for reference in references::scan(&text) {
                // A shared snapshot's stand-in names its target (`Tree::set_stand_ins`).
                let written = reference.target.as_str();
                let target = self.tree.stand_in_target(&index_path, written);
                if let Ok(target) = dir.join(target.unwrap_or(written)) {
                    if reference.line < cut_at {
                        linked_loaded.insert(target.clone());
                    }
                    linked.insert(target);
                }
            }
            if auto {
                self.dropped_entries(&index_path, &index_lines_text, dir);
            }
        }

        let topics = self.topic_files(dir);
        health.topic_files = topics.len() as u64;
        let mut dates = Vec::new();
        let mut dated_by_file_time = 0;
        for topic in &topics {
            let fm = self.frontmatter_of(topic);
            let kind = fm.as_ref().and_then(|fm| fm.string("type"));
            let key = match kind.as_deref().map(str::trim) {
                Some(t) if MEMORY_TYPES.contains(&t) => t.to_owned(),
                Some(_) => "unknown".to_owned(),
                None => "none".to_owned(),
            };
            if key == "none" || key == "unknown" {
                let why = match &kind {
                    Some(t) => format!("an unknown type {t:?}"),
                    None => "no type".to_owned(),
                };
                self.diagnostics.push(Diagnostic::new(
                    Code::MemoryFileNoType,
                    Severity::Info,
                    Some(topic.as_str()),
                    format!("memory file with {why}; Claude Code writes user, feedback, project or reference"),
                ));
            }
            *health.types.entry(key).or_default() += 1;
            let modified = fm.as_ref().and_then(|fm| fm.string("modified"));
            match modified.as_deref().and_then(date::parse_day) {
                Some(day) => dates.push(day),
                None => {
                    health.without_timestamp += 1;
                    self.diagnostics.push(Diagnostic::new(
                        Code::MemoryFileNoTimestamp,
                        Severity::Info,
                        Some(topic.as_str()),
                        "no modified timestamp: Claude Code's file tools stamp one, so this file \
                         was likely written through the shell, which also skips the index size check",
                    ));
                    // The one file date the analysis reads: sharing keeps its day.
                    self.dated(topic);
                    let file_time = self
                        .tree
                        .file(topic)
                        .and_then(|f| f.modified.as_deref())
                        .and_then(date::parse_day);
                    if let Some(day) = file_time {
                        dates.push(day);
                        dated_by_file_time += 1;
                    }
                }
            }
            if health.index.is_some() && !linked.contains(topic) {
                health.orphan_topics += 1;
                self.diagnostics.push(Diagnostic::new(
                    Code::MemoryTopicOrphan,
                    Severity::Warning,
                    Some(topic.as_str()),
                    "no index line links to this topic file; recall runs through MEMORY.md, so \
                     it is effectively never read",
                ));
            } else if health.index.is_some() && !linked_loaded.contains(topic) {
                health.orphan_topics += 1;
                self.diagnostics.push(Diagnostic::new(
                    Code::MemoryTopicCutOff,
                    Severity::Warning,
                    Some(topic.as_str()),
                    "only index lines past the cap link to this topic file, so Claude never \
                     sees a link to it",
                ));
            }
        }
        // Counted apart and set here: the growth view is made only after every file is dated.
        health.growth = self.paths.today.map(|today| Growth {
            dated_by_file_time,
            ..growth(today, &dates, health.index_lines)
        });
        health
    }

    /// The `memory-index-truncated` finding gains the dropped entries as evidence.
    fn dropped_entries(&mut self, index: &VPath, lines: &[(u64, String)], dir: &VPath) {
        let Some(finding) = self.diagnostics.iter_mut().find(|d| {
            d.code == Code::MemoryIndexTruncated && d.path.as_deref() == Some(index.as_str())
        }) else {
            return;
        };
        let Some(first) = finding.line else { return };
        let mut earlier_topics = BTreeSet::new();
        let mut entries = Vec::new();
        let (mut dropped, mut corrections) = (0_u64, 0_u64);
        for (number, text) in lines {
            let topics: Vec<VPath> = references::scan(text)
                .into_iter()
                .filter_map(|r| {
                    let target = self.tree.stand_in_target(index, &r.target);
                    dir.join(target.unwrap_or(&r.target)).ok()
                })
                .collect();
            if *number >= first && !text.trim().is_empty() {
                let lower = text.to_lowercase();
                let says = CORRECTION_WORDS.iter().any(|w| contains_word(&lower, w));
                let repeats = topics.iter().any(|t| earlier_topics.contains(t));
                dropped += 1;
                corrections += u64::from(says || repeats);
                // A runaway index drops thousands of lines: list the first ones, count all.
                if entries.len() < DROPPED_LISTED {
                    entries.push(DroppedEntry {
                        line: *number,
                        text: excerpt(text),
                        correction: says || repeats,
                    });
                }
            }
            earlier_topics.extend(topics);
        }
        let more = dropped - entries.len() as u64;
        if corrections > 0 {
            finding.message.push_str(&format!(
                " {corrections} of the dropped entries look like corrections of earlier ones."
            ));
        }
        finding.data = Some(DiagnosticData::DroppedEntries { entries, more });
    }

    // ----- reason 4: sub-agents -----------------------------------------------------------

    fn agents(&mut self, agent_dirs: &[(VPath, String)]) -> Vec<AgentInfo> {
        let mut agents = Vec::new();
        let mut declared = BTreeSet::new();
        for definition in self.agents.clone() {
            let (name, path, memory) = (definition.name, definition.path, definition.memory);
            {
                // A shadowed definition is never spawned: its memory folder is not its own.
                let memory_dir = memory
                    .filter(|_| definition.shadowed_by.is_none())
                    .and_then(|scope| self.agent_memory_dir(scope, &name));
                let memory_exists = memory_dir.as_ref().is_some_and(|d| self.tree.is_dir(d));
                if let Some(dir) = &memory_dir {
                    declared.insert(dir.clone());
                    if !memory_exists {
                        self.diagnostics.push(Diagnostic::new(
                            Code::AgentMemoryMissing,
                            Severity::Info,
                            Some(path.as_str()),
                            format!(
                                "agent {name} keeps {} memory in {dir}, which does not exist yet: \
                                 nothing was saved, or the snapshot leaves it out",
                                scope_name(memory)
                            ),
                        ));
                    }
                }
                let listed = definition.shadowed_by.is_none().then(|| {
                    let measured =
                        super::skills::listed_measure(self.tree, &definition.line, &name).0;
                    Measure {
                        lines: 0,
                        ..measured
                    }
                });
                agents.push(AgentInfo {
                    name,
                    path: path.as_str().to_owned(),
                    scope: Some(definition.scope),
                    listed,
                    shadowed_by: definition.shadowed_by.map(|p| p.as_str().to_owned()),
                    memory,
                    memory_dir: memory_dir.map(|d| d.as_str().to_owned()),
                    memory_exists,
                    ..AgentInfo::default()
                });
            }
        }
        for (dir, agent) in agent_dirs {
            if !declared.contains(dir) {
                self.diagnostics.push(Diagnostic::new(
                    Code::AgentMemoryOrphan,
                    Severity::Warning,
                    Some(dir.as_str()),
                    format!(
                        "no agent definition declares this memory folder for {agent}: it is \
                         never loaded (renamed agent, changed memory scope, or a deleted agent)"
                    ),
                ));
            }
        }
        agents
    }

    // ----- rules, skills, imports ---------------------------------------------------------

    fn rule_findings(&mut self, rows: &[FileRow]) {
        // Listed on the first conditional rule that needs them, borrowed from the tree.
        let tree = self.tree;
        let mut project_files: Option<Option<Vec<&str>>> = None;
        let mut matcher = FirstMatch::default();
        for row in rows
            .iter()
            .filter(|r| r.group == Group::Rules && r.depth == 0)
        {
            let Ok(path) = VPath::new(&row.path) else {
                continue;
            };
            let declared = self
                .frontmatter_of(&path)
                .and_then(|fm| fm.value("paths").cloned());
            let globs = row.paths.clone().unwrap_or_default();
            let written = declared.as_ref().map(crate::text::frontmatter::parse_paths);
            if written.as_ref().is_some_and(Vec::is_empty) {
                self.diagnostics.push(Diagnostic::new(
                    Code::RulePathsInvalid,
                    Severity::Warning,
                    Some(&row.path),
                    "paths is set but holds no glob, so the rule loads in every session",
                ));
            }
            let mut valid = 0;
            for glob in &globs {
                match RuleGlobs::check(glob) {
                    Ok(()) => valid += 1,
                    Err(error) => self.diagnostics.push(Diagnostic::new(
                        Code::RulePathsInvalid,
                        Severity::Warning,
                        Some(&row.path),
                        format!("paths glob {glob:?} is invalid: {error}"),
                    )),
                }
            }
            let Some(project) = self.paths.project.clone() else {
                continue;
            };
            // Matched once, in the turn that finishes: while listings, probes or sizes are
            // still asked for, this turn is run again and its findings thrown away.
            if row.load != LoadType::Conditional || valid == 0 || tree.has_asks_pending() {
                continue;
            }
            let Some(files) = project_files
                .get_or_insert_with(|| project_files_of(tree, &project))
                .as_deref()
            else {
                continue;
            };
            // The files as the rule's globs see them: relative to the folder that holds its
            // `.claude/` (the project for the user's and the managed rules).
            let base = self.rule_base(&path, &project);
            // The first file matched shows the rule can load; a shared snapshot keeps it.
            if let Some(witness) = matcher.first(files, &project, base, &globs) {
                if let Ok(witness) = project.join(witness) {
                    self.looked_at(&witness, ReadFor::RuleWitness);
                }
            } else {
                self.diagnostics.push(Diagnostic::new(
                    Code::RuleNeverMatches,
                    Severity::Warning,
                    Some(&row.path),
                    format!(
                        "no file of the project matches {}, so this rule never loads",
                        globs.join(", ")
                    ),
                ));
            }
        }
    }

    fn skill_findings(&mut self, rows: &[FileRow]) {
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        for row in rows
            .iter()
            .filter(|r| r.group == Group::Skills && r.depth == 0 && r.status == FileStatus::Ok)
        {
            // A skill another of its folder's name hides has its own finding.
            let hidden = VPath::new(&row.path).is_ok_and(|p| self.shadowed_skills.contains(&p));
            let Some(name) = &row.skill_name else {
                continue;
            };
            match seen.get(name) {
                _ if hidden => {}
                Some(first) => self.diagnostics.push(Diagnostic::new(
                    Code::SkillDuplicateName,
                    Severity::Warning,
                    Some(&row.path),
                    format!("another skill is also named {name} ({first}); only one can be invoked by that name"),
                )),
                None => {
                    seen.insert(name.clone(), row.path.clone());
                }
            }
            let Ok(path) = VPath::new(&row.path) else {
                continue;
            };
            let fm = self.frontmatter_of(&path);
            let declared = fm
                .as_ref()
                .and_then(|fm| fm.string("description"))
                .unwrap_or_default();
            let body = match self.text(&path) {
                Text::Ready(text) => crate::text::measure::as_sent(&text),
                _ => String::new(),
            };
            if declared.trim().is_empty() {
                self.diagnostics.push(Diagnostic::new(
                    Code::SkillNoDescription,
                    Severity::Warning,
                    Some(&row.path),
                    "no description: Claude Code lists the body's first line instead, and Claude \
                     decides when to use a skill from what is listed",
                ));
            }
            // The listing cuts the joined description (with ` - <when_to_use>`) in UTF-16
            // units, as the program counts.
            let units =
                super::skills::escape_angles(&super::skills::full_description(fm.as_ref(), &body))
                    .encode_utf16()
                    .count();
            let limit = self.description_limit();
            if units > limit {
                self.diagnostics.push(Diagnostic::new(
                    Code::SkillDescriptionTruncated,
                    Severity::Warning,
                    Some(&row.path),
                    format!(
                        "description and when_to_use are {units} characters as listed; the \
                         skill listing keeps {} and an ellipsis, so the rest never reaches \
                         Claude",
                        limit.saturating_sub(1)
                    ),
                ));
            }
        }
    }
}

/// Conditional rules matched over every file before the files are indexed by their
/// lower-cased start: a handful of rules costs no index.
const RULES_BEFORE_INDEX: usize = 8;

/// The first file each rule's globs match, over the project's files ([`project_files_of`]):
/// a rule whose globs all start with literal folders (`src/api/**`) looks only at the files
/// under them, and rules of the same globs and base are matched once, so that a project of
/// 100,000 rules and 100,000 files costs no 10 billion matches.
#[derive(Default)]
struct FirstMatch {
    /// Rules matched so far.
    rules: usize,
    /// Each file lower-cased, with its place in the files, in byte order; built once
    /// [`RULES_BEFORE_INDEX`] rules were matched.
    lowered: Option<Vec<(String, usize)>>,
    /// What each base and globs matched first.
    seen: BTreeMap<(VPath, Vec<String>), Option<usize>>,
}

impl FirstMatch {
    /// The first of `files` (relative to `project`) that `globs`, seen from `base`, match.
    fn first<'f>(
        &mut self,
        files: &[&'f str],
        project: &VPath,
        base: VPath,
        globs: &[String],
    ) -> Option<&'f str> {
        let key = (base, globs.to_vec());
        if let Some(first) = self.seen.get(&key) {
            return first.map(|at| files[at]);
        }
        let rule = RuleGlobs::new(globs).seen_from(project, &key.0);
        self.rules += 1;
        let first = match rule.required_leads() {
            Some(leads) if self.rules > RULES_BEFORE_INDEX => {
                let lowered = self.lowered.get_or_insert_with(|| {
                    let mut lowered: Vec<(String, usize)> = files
                        .iter()
                        .enumerate()
                        .map(|(at, file)| (file.to_lowercase(), at))
                        .collect();
                    lowered.sort_unstable();
                    lowered
                });
                let mut candidates = Vec::new();
                for lead in &leads {
                    let start = lowered.partition_point(|(file, _)| file.as_str() < lead.as_str());
                    candidates.extend(
                        lowered[start..]
                            .iter()
                            .take_while(|(file, _)| file.starts_with(lead.as_str()))
                            .map(|&(_, at)| at),
                    );
                }
                candidates.sort_unstable();
                candidates.dedup();
                candidates.into_iter().find(|&at| rule.matches(files[at]))
            }
            _ => files.iter().position(|file| rule.matches(file)),
        };
        self.seen.insert(key, first);
        first.map(|at| files[at])
    }
}

/// The project's files relative to it, as listed (borrowed, never copied: the health check
/// looks at each once per conditional rule), when the snapshot holds the project folder.
fn project_files_of<'t>(tree: &'t Tree, project: &VPath) -> Option<Vec<&'t str>> {
    if !tree.is_covered(project) {
        return None;
    }
    Some(
        tree.files_under(project)
            .filter_map(|(p, _)| p.strip_prefix(project))
            .filter(|rel| !rel.starts_with(".git/"))
            .take(RULE_MATCH_FILES)
            .collect(),
    )
}

/// The memory folder of an agent row: the folder named after the agent in its scope root.
fn agent_root(dir: &VPath, agent: &str) -> Option<VPath> {
    dir.ancestors().find(|d| d.file_name() == agent)
}

fn scope_name(scope: Option<Scope>) -> &'static str {
    match scope {
        Some(Scope::User) => "user",
        Some(Scope::Project) => "project",
        Some(Scope::Local) => "local",
        Some(Scope::Managed) | None => "no",
    }
}

/// The first [`EXCERPT_CHARS`] characters of a line, and `…` when there were more.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

fn contains_word(haystack: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '\'';
    haystack.match_indices(word).any(|(at, _)| {
        let before = haystack[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !is_word(c));
        let after = haystack[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_word(c));
        before && after
    })
}

fn one_decimal(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// Files per week over the last 60 days and when the index reaches 160 and 200 lines at that
/// rate (each saved file adds one index line).
fn growth(today: i64, dates: &[i64], index_lines: u64) -> Growth {
    let recent = dates
        .iter()
        .filter(|d| **d > today - GROWTH_DAYS && **d <= today)
        .count();
    let per_week = recent as f64 * 7.0 / GROWTH_DAYS as f64;
    let mut weeks = Vec::new();
    let mut history = Vec::new();
    for k in 0..GROWTH_WEEKS {
        let end = today - 7 * (GROWTH_WEEKS - 1 - k);
        let start = end - 6;
        let count = dates.iter().filter(|d| (start..=end).contains(*d)).count() as u64;
        weeks.push(WeekCount {
            start: date::format_day(start),
            count,
        });
        let later = dates.iter().filter(|d| **d > end).count() as u64;
        history.push(WeekCount {
            start: date::format_day(start),
            count: index_lines.saturating_sub(later),
        });
    }
    let project = |target: u64| -> Option<String> {
        if index_lines >= target || recent == 0 {
            return None;
        }
        // Integer arithmetic, so the date does not wobble with float rounding.
        let days = ((target - index_lines) * GROWTH_DAYS as u64).div_ceil(recent as u64) as i64;
        Some(date::format_day(today + days))
    };
    Growth {
        today: date::format_day(today),
        weeks,
        files_per_week: one_decimal(per_week),
        history,
        reaches_80_percent: project(160),
        reaches_limit: project(200),
        dated_by_file_time: 0,
    }
}

/// The five reasons, each checked against the findings.
fn reasons(
    codes: &BTreeSet<Code>,
    facts: &MemoryFacts,
    candidates: &[String],
    has_project: bool,
    memories: &[MemoryHealth],
    agents: &[AgentInfo],
) -> Vec<ReasonCheck> {
    let found = |list: &[Code]| -> Vec<Code> {
        list.iter().copied().filter(|c| codes.contains(c)).collect()
    };
    let folder_codes = found(&[
        Code::MemoryFolderNotFound,
        Code::MemoryFolderEmpty,
        Code::MemoryFolderLookalike,
        Code::MemoryFolderCollision,
        Code::MemoryFolderNoGit,
    ]);
    let folder_summary = match (&facts.memory_dir, has_project) {
        (_, false) => {
            "No project chosen: pick one to see which memory folder it maps to.".to_owned()
        }
        (None, true) => {
            let uses = match &facts.wanted {
                Some((dir, why)) => format!(
                    "Claude Code uses {dir} ({why}), which is not in this snapshot: it starts \
                     an empty memory there."
                ),
                None => "The project maps to no memory folder in this snapshot.".to_owned(),
            };
            match candidates {
                [] => uses,
                [one] => format!(
                    "{uses} One folder of projects/ may hold this project's memory from before \
                     a move, a rename or a copy under another name, and does not load for it: \
                     {one}."
                ),
                more => format!(
                    "{uses} {} folders of projects/ may hold this project's memory from before \
                     a move, a rename or a copy under another name, most likely first, and none \
                     loads for it: {}.",
                    more.len(),
                    more.join("; ")
                ),
            }
        }
        (Some(dir), true) => format!(
            "The project maps to {} (found by {}).",
            dir,
            match facts.found_via {
                Some(MemoryLookup::Path) | None => "its encoded path",
                Some(MemoryLookup::Worktree) => "the main worktree's path",
                Some(MemoryLookup::SeedEncoding) => "the older encoding",
                Some(MemoryLookup::Suffix) => "a folder ending with its last two folder names",
            }
        ),
    };
    let saved_codes = found(&[Code::MemoryNothingSaved, Code::MemoryFolderEmpty]);
    let auto = memories.iter().find(|m| m.agent.is_none());
    let saved_summary = match auto {
        Some(m) if saved_codes.is_empty() => format!(
            "{} topic files and an index of {} lines.",
            m.topic_files, m.index_lines
        ),
        Some(_) => "The memory folder has little or nothing in it yet.".to_owned(),
        None => "No memory folder to look in.".to_owned(),
    };
    let off_summary = if facts.enabled {
        match facts.votes.last() {
            Some((path, true)) => format!("On: {path} sets autoMemoryEnabled: true."),
            _ => "On: no settings file switches it off.".to_owned(),
        }
    } else {
        let says: Vec<String> = facts
            .votes
            .iter()
            .map(|(p, v)| format!("{p} says {v}"))
            .collect();
        format!("Off: {}; the last one wins.", says.join(", "))
    };
    let agent_codes = found(&[Code::AgentMemoryMissing, Code::AgentMemoryOrphan]);
    let with_memory = agents.iter().filter(|a| a.memory.is_some()).count();
    let agent_summary = format!(
        "{} sub-agents defined, {with_memory} with their own memory. A spawned sub-agent \
         receives the project's CLAUDE.md files and the main MEMORY.md too (measured on \
         Claude Code 2.1.328), plus its own memory when its definition declares one.",
        agents.len()
    );
    let truncated_codes = found(&[Code::MemoryIndexTruncated, Code::MemoryIndexNearLimit]);
    let truncated_summary = match auto {
        Some(m) if codes.contains(&Code::MemoryIndexTruncated) => format!(
            "The index is {} lines; only part of it loads, and the newest entries go first.",
            m.index_lines
        ),
        Some(m) if codes.contains(&Code::MemoryIndexNearLimit) => {
            format!(
                "The index is {} lines, near the 200-line cap.",
                m.index_lines
            )
        }
        Some(m) => format!("The index loads whole ({} of 200 lines).", m.index_lines),
        None => "No index to load.".to_owned(),
    };
    vec![
        ReasonCheck {
            id: ReasonId::DifferentFolder,
            title: "Is this the memory folder you think it is?".to_owned(),
            ok: has_project && facts.memory_dir.is_some() && folder_codes.iter().all(|c| *c == Code::MemoryFolderNoGit),
            summary: folder_summary,
            codes: folder_codes,
            note: (facts.memory_dir.is_none() && !candidates.is_empty()).then(|| {
                "To keep using one, start Claude Code in the folder it was made for, or rename \
                 that folder of projects/ to the name Claude Code uses now. Claude Code never \
                 looks at the others: it finds memory by the project's path alone."
                    .to_owned()
            }),
        },
        ReasonCheck {
            id: ReasonId::NothingSaved,
            title: "Was anything worth saving?".to_owned(),
            ok: auto.is_some() && saved_codes.is_empty(),
            summary: saved_summary,
            codes: saved_codes,
            note: None,
        },
        ReasonCheck {
            id: ReasonId::SwitchedOff,
            title: "Is auto memory switched off?".to_owned(),
            ok: facts.enabled,
            summary: off_summary,
            codes: found(&[Code::AutoMemoryDisabled]),
            note: Some(
                "CLAUDE_CODE_DISABLE_AUTO_MEMORY=1, the --bare flag and /pause-memory also turn it \
                 off, and none of them leaves a trace in these files."
                    .to_owned(),
            ),
        },
        ReasonCheck {
            id: ReasonId::SubAgent,
            title: "Are you asking a sub-agent?".to_owned(),
            ok: agent_codes.is_empty(),
            summary: agent_summary,
            codes: agent_codes,
            note: Some("The documentation says sub-agents do not get the main auto memory; Claude Code 2.1.328 sends them the main MEMORY.md (public issues 87613 and 92750).".to_owned()),
        },
        ReasonCheck {
            id: ReasonId::Truncated,
            title: "Did it load, but not all of it?".to_owned(),
            ok: !codes.contains(&Code::MemoryIndexTruncated),
            summary: truncated_summary,
            codes: truncated_codes,
            note: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index by leads and the memo answer as matching every file in order does: the
    /// same first file, for globs with and without leads, negations, a base below the
    /// project, and rules asked again.
    #[test]
    fn first_match_answers_as_the_full_scan() {
        let project = VPath::new("/p/app").unwrap();
        let files = [
            "README.md",
            "src/M1/deep/x.ts",
            "src/m1/a.ts",
            "src/m10/b.ts",
            "src/m2/c.js",
            "sub/.claude/rules/r.md",
            "sub/src/m3/d.ts",
            "ÉTÉ/x.ts",
        ];
        let rules: Vec<(&str, Vec<&str>)> = vec![
            ("/p/app", vec!["src/m1/**/*.ts"]),
            ("/p/app", vec!["src/m1"]),
            ("/p/app", vec!["src/m2/**/*.ts"]),
            ("/p/app", vec!["*.ts"]),
            ("/p/app", vec!["{src/m10,src/m2}/*"]),
            ("/p/app", vec!["src/**", "!src/m1/**"]),
            ("/p/app", vec!["été/*.ts"]),
            ("/p/app/sub", vec!["src/m3/*.ts"]),
            ("/p/app/sub", vec!["src/m1/*.ts"]),
            ("/p", vec!["app/src/m2/*"]),
            ("/p/app", vec!["/readme.md"]),
            ("/p/app", vec!["nowhere/**"]),
        ];
        // Indexed from the first rule, then only past the first few; each rule twice, so
        // that the memo answers too.
        for before in [RULES_BEFORE_INDEX, 0] {
            let mut matcher = FirstMatch {
                rules: before,
                ..FirstMatch::default()
            };
            for (base, globs) in rules.iter().chain(&rules) {
                let globs: Vec<String> = globs.iter().map(|g| (*g).to_owned()).collect();
                let base = VPath::new(base).unwrap();
                let rule = RuleGlobs::new(&globs).seen_from(&project, &base);
                let full = files.iter().find(|file| rule.matches(file)).copied();
                assert_eq!(
                    matcher.first(&files, &project, base, &globs),
                    full,
                    "{globs:?}"
                );
            }
            assert!(matcher.lowered.is_some());
        }
    }

    #[test]
    fn correction_words_match_whole_words() {
        assert!(contains_word("this is not right", "not"));
        assert!(contains_word("no longer flaky", "no longer"));
        assert!(!contains_word("a note about knots", "not"));
        assert!(contains_word("actually, it's pnpm", "actually"));
    }

    #[test]
    fn growth_projects_from_the_recent_rate() {
        let today = date::parse_day("2026-11-30").unwrap();
        // Six files in the last 60 days: 0.7 a week, from an index of 150 lines.
        let dates: Vec<i64> = (0..6).map(|i| today - i * 10).collect();
        let g = growth(today, &dates, 150);
        assert_eq!(g.files_per_week, 0.7);
        assert_eq!(g.reaches_80_percent.as_deref(), Some("2027-03-10"));
        assert_eq!(g.reaches_limit.as_deref(), Some("2028-04-13"));
        assert_eq!(g.weeks.len(), 9);
        assert_eq!(g.history.last().unwrap().count, 150);
        assert_eq!(g.weeks.iter().map(|w| w.count).sum::<u64>(), 6);
        let none = growth(today, &[], 10);
        assert_eq!(none.reaches_80_percent, None);
    }
}
