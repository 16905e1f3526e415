//! Clean-ups planned from a report and the tree it was made from: dead index lines of a
//! `MEMORY.md`, topic files no index line links to, an index over its caps, and deleting a
//! file.
//!
//! The core plans, the edge writes. A [`Plan`] is a list of [`Change`]s, each the whole text
//! of one file before and after (either side absent for a file created or deleted), with
//! its unified diff ([`Change::diff`]) and the same plan as a POSIX `sh` script
//! ([`Plan::script`]) for sources the page cannot write to. [`Plan::reverse`] is the undo.
//! Nothing here touches a file: the page writes the `after` texts through its folder handle,
//! and a person runs the script.
//!
//! What counts as dead, orphaned or past the cap is the report's, not this module's: a
//! dead line is an index line whose link the report resolved to a path the snapshot covers
//! and does not hold, an orphan is a `memory-topic-orphan` finding, the cap is the index
//! row's [`Truncation`](crate::report::Truncation), and a compaction keeps what loads whole
//! under the caps of the release the report simulates (its `rules.release`: the size cap
//! from 2.1.83, format characters counted before 2.1.284). Only the index line format and the
//! edits are decided here: an index line is `- [<name>](<file>) — <description>`, as
//! Claude Code writes the index it backfills (`discover::memory`).

use std::fmt::{self, Write as _};

use crate::report::{Code, FileRow, FileStatus, Group, LoadType, Report, UnresolvedReason};
use crate::text::{frontmatter, memory_index};
use crate::tree::{Contents, Tree};
use crate::vpath::VPath;

/// Why a clean-up cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CleanupError {
    /// The path is not a valid virtual path.
    BadPath(String),
    /// The snapshot does not hold that file.
    NotInSnapshot(String),
    /// The file's contents were not read, so its previous text could not be kept for undo.
    NotRead(String),
    /// The file is not UTF-8 text; rewriting it would change bytes nobody asked to change.
    NotText(String),
    /// The index has no such line.
    NoSuchLine(String, u64),
    /// The index's line is not the text the person ticked: the file changed since.
    LineChanged(String, u64),
    /// The index is within its caps: nothing to compact.
    WithinCaps(String),
    /// A file the plan would create exists already.
    Exists(String),
    /// The file is not one the page offers to delete (an index, a `CLAUDE.md` that always
    /// loads, a settings file).
    NotDeletable(String),
    /// Nothing was selected.
    Nothing,
}

impl fmt::Display for CleanupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CleanupError::BadPath(p) => write!(f, "not a valid path: {p:?}"),
            CleanupError::NotInSnapshot(p) => write!(f, "{p} is not in the snapshot"),
            CleanupError::NotRead(p) => write!(f, "{p} was not read, so it cannot be undone"),
            CleanupError::NotText(p) => write!(f, "{p} is not UTF-8 text"),
            CleanupError::NoSuchLine(p, n) => write!(f, "{p} has no line {n}"),
            CleanupError::LineChanged(p, n) => write!(
                f,
                "line {n} of {p} is no longer the line that was ticked (the file changed since \
                 the list was made); nothing was planned"
            ),
            CleanupError::WithinCaps(p) => write!(f, "{p} is within its caps"),
            CleanupError::Exists(p) => write!(f, "{p} exists already"),
            CleanupError::NotDeletable(p) => write!(f, "{p} is not offered for deletion"),
            CleanupError::Nothing => write!(f, "nothing selected"),
        }
    }
}

impl std::error::Error for CleanupError {}

/// The clean-up module's result.
pub type Result<T> = std::result::Result<T, CleanupError>;

/// One line of a change: kept, removed or added, with its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Op {
    Keep(String),
    Remove(String),
    Add(String),
}

/// The change of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The absolute virtual path.
    pub path: String,
    /// One line for a person (and the script's comment): what changes and why.
    pub summary: String,
    /// The text before, or `None` when the change creates the file.
    pub before: Option<String>,
    /// The text after, or `None` when the change deletes the file.
    pub after: Option<String>,
    ops: Vec<Op>,
}

/// A clean-up: the changes of every file it touches, in the order they are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// What the plan does, for a title and the script's first comment.
    pub title: String,
    /// One change per file, no file twice.
    pub changes: Vec<Change>,
    /// What a person should know before confirming (a line that will still not load).
    pub notes: Vec<String>,
}

/// The clean-ups a memory folder with an index offers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryCleanups {
    /// The memory folder.
    pub folder: String,
    /// Its `MEMORY.md`.
    pub index: String,
    /// The agent whose folder it is, or `None` for auto memory.
    pub agent: Option<String>,
    /// Index lines whose links point to topic files that do not exist.
    pub dead_lines: Vec<DeadLine>,
    /// Topic files no index line links to.
    pub orphans: Vec<Orphan>,
    /// The index entries past the caps, when the caps cut the index.
    pub over_cap: Option<OverCap>,
}

/// An index line whose links lead nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLine {
    /// The 1-based line in the raw file.
    pub line: u64,
    /// The line as written, without its line ending.
    pub text: String,
    /// The missing targets, as resolved.
    pub missing: Vec<String>,
    /// Links of the same line that do resolve: removing the line removes them too.
    pub live_links: usize,
}

/// A topic file no index line links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orphan {
    /// The topic file.
    pub path: String,
    /// The index line that would link it, in Claude Code's format.
    pub index_line: String,
}

/// The entries of an index past its caps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverCap {
    /// The 1-based raw line of the first line that does not load.
    pub first_dropped_line: u64,
    /// The non-blank raw lines from there on, with their numbers.
    pub entries: Vec<(u64, String)>,
    /// A topic file that does not exist yet, for the entries to move into.
    pub suggested_topic: String,
}

/// What to do with the entries past the caps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compaction {
    /// Move them into this new topic file, and link it from the index.
    MoveTo(String),
    /// Drop them.
    Drop,
}

/// The clean-ups of every memory folder of the report that has an index on disk.
pub fn memory_cleanups(report: &Report, tree: &Tree) -> Vec<MemoryCleanups> {
    let mut out = Vec::new();
    for health in &report.health.memories {
        let Some(index) = &health.index else { continue };
        let Some(row) = index_row(report, index) else {
            continue;
        };
        let Ok(folder) = VPath::new(&health.folder) else {
            continue;
        };
        let text = text_of(tree, index).ok();
        let mut cleanups = MemoryCleanups {
            folder: health.folder.clone(),
            index: index.clone(),
            agent: health.agent.clone(),
            ..MemoryCleanups::default()
        };
        if let Some(text) = &text {
            cleanups.dead_lines = dead_lines(report, row, text);
            cleanups.over_cap = over_cap(row, text, tree, &folder);
        }
        for diagnostic in &report.diagnostics {
            let Some(path) = &diagnostic.path else {
                continue;
            };
            let Ok(topic) = VPath::new(path) else {
                continue;
            };
            if diagnostic.code == Code::MemoryTopicOrphan
                && topic.parent().as_ref() == Some(&folder)
                || diagnostic.code == Code::MemoryTopicOrphan
                    && topic.starts_with(&folder)
                    && nearest_index(report, &topic).as_deref() == Some(index.as_str())
            {
                cleanups.orphans.push(Orphan {
                    index_line: index_line(tree, &folder, &topic),
                    path: path.clone(),
                });
            }
        }
        cleanups.orphans.dedup();
        out.push(cleanups);
    }
    out
}

/// True for a row the page offers to delete from its file view: a topic file, a rule, a
/// skill, a nested `CLAUDE.md`, or a file one of those links to. An index, a `CLAUDE.md`
/// that always loads and a missing file are not offered.
pub fn can_delete(row: &FileRow) -> bool {
    if row.size.is_none() || row.backfilled {
        return false;
    }
    match (row.group, row.load) {
        (_, LoadType::Startup) => false,
        (Group::Rules | Group::Skills | Group::Commands, _) => true,
        (Group::AutoMemory | Group::AgentMemory, LoadType::OnDemand | LoadType::Link) => true,
        (Group::Project, LoadType::Tree) => true,
        _ => false,
    }
}

/// A plan that removes raw lines of an index, each given by its 1-based number and the
/// text it was shown with (without its line ending): a line whose text is not that any more
/// is refused, so a list made from an older read can never remove another line.
///
/// # Errors
/// When the index was not read, is not text, has no such line, or a line's text differs.
pub fn remove_lines(tree: &Tree, index: &str, lines: &[(u64, String)]) -> Result<Plan> {
    if lines.is_empty() {
        return Err(CleanupError::Nothing);
    }
    let text = text_of(tree, index)?;
    let raw: Vec<&str> = text.split_inclusive('\n').collect();
    for (n, expected) in lines {
        let Some(line) = raw.get((*n as usize).wrapping_sub(1)) else {
            return Err(CleanupError::NoSuchLine(index.to_owned(), *n));
        };
        if line.trim_end_matches(['\n', '\r']) != expected {
            return Err(CleanupError::LineChanged(index.to_owned(), *n));
        }
    }
    let lines: Vec<u64> = lines.iter().map(|(n, _)| *n).collect();
    let ops = raw
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if lines.contains(&(i as u64 + 1)) {
                Op::Remove((*line).to_owned())
            } else {
                Op::Keep((*line).to_owned())
            }
        })
        .collect();
    let mut numbers = lines.clone();
    numbers.sort_unstable();
    numbers.dedup();
    let count = numbers.len();
    let which = numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let name = file_name(index);
    let change = Change::from_ops(
        index,
        format!(
            "remove {} from {name}: line{} {which}",
            plural(count, "dead index line"),
            if count == 1 { "" } else { "s" }
        ),
        Some(text.clone()),
        ops,
    );
    Ok(Plan {
        title: format!("Remove {} from {index}", plural(count, "dead index line")),
        changes: vec![change],
        notes: Vec::new(),
    })
}

/// A plan that links each topic file from the index, one line each at the end, in Claude
/// Code's format.
///
/// # Errors
/// When the index was not read or is not text, or a topic is not in the snapshot.
pub fn index_orphans(report: &Report, tree: &Tree, index: &str, topics: &[String]) -> Result<Plan> {
    if topics.is_empty() {
        return Err(CleanupError::Nothing);
    }
    let text = text_of(tree, index)?;
    let index_path = vpath(index)?;
    let folder = index_path
        .parent()
        .ok_or_else(|| CleanupError::BadPath(index.to_owned()))?;
    let mut lines = Vec::new();
    for topic in topics {
        let path = vpath(topic)?;
        if !tree.is_file(&path) {
            return Err(CleanupError::NotInSnapshot(topic.clone()));
        }
        lines.push(index_line(tree, &folder, &path));
    }
    let (ops, after) = append(&text, &lines);
    let mut notes = Vec::new();
    // The lines go at the end: when the index is cut at all, they are past the cut.
    if let Some(first) = memory_index::cut_with(&after, caps(report))
        .truncation
        .first_dropped_line
    {
        notes.push(format!(
            "{} is cut at line {first}, so lines added at its end do not load until it is \
             compacted",
            file_name(index)
        ));
    }
    let change = Change::from_ops(
        index,
        format!(
            "link {} from {}",
            plural(lines.len(), "orphaned topic file"),
            file_name(index)
        ),
        Some(text.clone()),
        ops,
    );
    Ok(Plan {
        title: format!(
            "Link {} from {index}",
            plural(lines.len(), "orphaned topic file")
        ),
        changes: vec![change],
        notes,
    })
}

/// A plan that deletes files, each kept for undo.
///
/// # Errors
/// When a file is not in the snapshot, was not read, or is not text.
pub fn delete_files(tree: &Tree, paths: &[String]) -> Result<Plan> {
    if paths.is_empty() {
        return Err(CleanupError::Nothing);
    }
    let mut changes = Vec::new();
    for path in paths {
        if changes.iter().any(|c: &Change| &c.path == path) {
            continue;
        }
        let text = text_of(tree, path)?;
        let ops = text
            .split_inclusive('\n')
            .map(|l| Op::Remove(l.to_owned()))
            .collect();
        changes.push(Change {
            path: path.clone(),
            summary: format!("delete {}", file_name(path)),
            before: Some(text),
            after: None,
            ops,
        });
    }
    let title = match changes.as_slice() {
        [one] => format!("Delete {}", one.path),
        many => format!("Delete {} files", many.len()),
    };
    Ok(Plan {
        title,
        changes,
        notes: Vec::new(),
    })
}

/// A plan that deletes one row's file, when the page offers that row for deletion.
///
/// # Errors
/// As [`delete_files`], and when [`can_delete`] says no.
pub fn delete_row(tree: &Tree, row: &FileRow) -> Result<Plan> {
    if !can_delete(row) {
        return Err(CleanupError::NotDeletable(row.path.clone()));
    }
    delete_files(tree, std::slice::from_ref(&row.path))
}

/// A plan that brings an over-cap index within its caps: the lines from the first one that
/// does not load are dropped or moved into a new topic file, which one index line then
/// links. When that line would itself be cut, more lines move until the index fits.
///
/// # Errors
/// When the index is within its caps, was not read or is not text, or the topic exists.
pub fn compact(report: &Report, tree: &Tree, index: &str, how: &Compaction) -> Result<Plan> {
    let text = text_of(tree, index)?;
    let row = index_row(report, index).ok_or_else(|| CleanupError::NotInSnapshot(index.into()))?;
    let first = row
        .truncation
        .as_ref()
        .and_then(|t| t.first_dropped_line)
        .ok_or_else(|| CleanupError::WithinCaps(index.to_owned()))?;
    let raw: Vec<&str> = text.split_inclusive('\n').collect();
    let mut keep = (first as usize).saturating_sub(1).min(raw.len());
    let index_path = vpath(index)?;
    let folder = index_path
        .parent()
        .ok_or_else(|| CleanupError::BadPath(index.to_owned()))?;
    let link = match how {
        Compaction::MoveTo(topic) => {
            let topic_path = vpath(topic)?;
            if tree.exists(&topic_path) {
                return Err(CleanupError::Exists(topic.clone()));
            }
            let rel = topic_path
                .strip_prefix(&folder)
                .unwrap_or(topic_path.file_name())
                .to_owned();
            let stem = topic_path.file_name().trim_end_matches(".md").to_owned();
            Some(format!(
                "- [{stem}]({rel}) — older index entries, moved out of MEMORY.md to keep it \
                 within its load limit"
            ))
        }
        Compaction::Drop => None,
    };
    // Move the cut back until the kept lines, with the link, load whole.
    let kept_text = |keep: usize| -> String {
        let head: String = raw[..keep].concat();
        match &link {
            Some(line) => append(&head, std::slice::from_ref(line)).1,
            None => head,
        }
    };
    while keep > 0
        && memory_index::cut_with(&kept_text(keep), caps(report))
            .truncation
            .cut_by
            .is_some()
    {
        keep -= 1;
    }
    let moved: Vec<&str> = raw[keep..].to_vec();
    let mut ops: Vec<Op> = raw[..keep].iter().map(|l| Op::Keep((*l).into())).collect();
    ops.extend(moved.iter().map(|l| Op::Remove((*l).into())));
    let eol = line_ending(&text);
    if let Some(line) = &link {
        // The last kept line may lack its line ending; it gains one before the link.
        if let Some(Op::Keep(last)) = ops.iter_mut().rev().find(|o| matches!(o, Op::Keep(_))) {
            if !last.ends_with('\n') {
                let old = std::mem::take(last);
                let position = keep - 1;
                ops[position] = Op::Remove(old.clone());
                ops.insert(position + 1, Op::Add(format!("{old}{eol}")));
            }
        }
        let at = ops
            .iter()
            .rposition(|o| !matches!(o, Op::Remove(_)))
            .map_or(0, |i| i + 1);
        ops.insert(at, Op::Add(format!("{line}{eol}")));
    }
    let count = moved.iter().filter(|l| !l.trim().is_empty()).count();
    let name = file_name(index);
    let mut changes = vec![Change::from_ops(
        index,
        match how {
            Compaction::MoveTo(topic) => format!(
                "move {} (from line {}) of {name} into {} and link it",
                plural(count, "entry"),
                keep + 1,
                file_name(topic)
            ),
            Compaction::Drop => format!(
                "drop {} (from line {}) of {name}",
                plural(count, "entry"),
                keep + 1
            ),
        },
        Some(text.clone()),
        ops,
    )];
    if let Compaction::MoveTo(topic) = how {
        let mut body = format!(
            "---{eol}description: older index entries, moved out of MEMORY.md{eol}type: \
             reference{eol}---{eol}"
        );
        for line in &moved {
            body.push_str(line);
        }
        if !body.ends_with('\n') {
            body.push_str(eol);
        }
        let ops = body
            .split_inclusive('\n')
            .map(|l| Op::Add(l.to_owned()))
            .collect();
        changes.push(Change {
            path: topic.clone(),
            summary: format!(
                "create {} with the {} moved out of {name}",
                file_name(topic),
                plural(count, "entry")
            ),
            before: None,
            after: Some(body),
            ops,
        });
    }
    Ok(Plan {
        title: match how {
            Compaction::MoveTo(topic) => format!(
                "Move {} past the cap of {index} into {topic}",
                plural(count, "entry")
            ),
            Compaction::Drop => {
                format!("Drop {} past the cap of {index}", plural(count, "entry"))
            }
        },
        changes,
        notes: Vec::new(),
    })
}

impl Change {
    fn from_ops(path: &str, summary: String, before: Option<String>, ops: Vec<Op>) -> Change {
        let after: String = ops
            .iter()
            .filter_map(|op| match op {
                Op::Keep(l) | Op::Add(l) => Some(l.as_str()),
                Op::Remove(_) => None,
            })
            .collect();
        Change {
            path: path.to_owned(),
            summary,
            before,
            after: Some(after),
            ops,
        }
    }

    /// The change as a unified diff with three lines of context (`--- /dev/null` for a file
    /// created, `+++ /dev/null` for one deleted).
    pub fn diff(&self) -> String {
        let mut out = String::new();
        let old = if self.before.is_some() {
            self.path.as_str()
        } else {
            "/dev/null"
        };
        let new = if self.after.is_some() {
            self.path.as_str()
        } else {
            "/dev/null"
        };
        let _ = writeln!(out, "--- {old}\n+++ {new}");
        const CONTEXT: usize = 3;
        let changed: Vec<usize> = (0..self.ops.len())
            .filter(|&i| !matches!(self.ops[i], Op::Keep(_)))
            .collect();
        let mut hunks: Vec<(usize, usize)> = Vec::new();
        for &i in &changed {
            let start = i.saturating_sub(CONTEXT);
            let end = (i + CONTEXT + 1).min(self.ops.len());
            match hunks.last_mut() {
                Some(last) if start <= last.1 => last.1 = end,
                _ => hunks.push((start, end)),
            }
        }
        // Line numbers of each op in the old and new file, 1-based.
        let (mut old_line, mut new_line) = (1usize, 1usize);
        let mut starts = Vec::with_capacity(self.ops.len());
        for op in &self.ops {
            starts.push((old_line, new_line));
            match op {
                Op::Keep(_) => {
                    old_line += 1;
                    new_line += 1;
                }
                Op::Remove(_) => old_line += 1,
                Op::Add(_) => new_line += 1,
            }
        }
        for (start, end) in hunks {
            let ops = &self.ops[start..end];
            let old_count = ops.iter().filter(|o| !matches!(o, Op::Add(_))).count();
            let new_count = ops.iter().filter(|o| !matches!(o, Op::Remove(_))).count();
            let (old_start, new_start) = starts[start];
            let range = |start: usize, count: usize| match count {
                0 => format!("{},0", start - 1),
                1 => start.to_string(),
                n => format!("{start},{n}"),
            };
            let _ = writeln!(
                out,
                "@@ -{} +{} @@",
                range(old_start, old_count),
                range(new_start, new_count)
            );
            for op in ops {
                let (mark, line) = match op {
                    Op::Keep(l) => (' ', l),
                    Op::Remove(l) => ('-', l),
                    Op::Add(l) => ('+', l),
                };
                out.push(mark);
                match line.strip_suffix('\n') {
                    Some(body) => {
                        out.push_str(body);
                        out.push('\n');
                    }
                    None => {
                        out.push_str(line);
                        out.push_str("\n\\ No newline at end of file\n");
                    }
                }
            }
        }
        out
    }

    /// The change's lines, each with its mark: `' '` kept, `'-'` removed, `'+'` added. With
    /// [`Change::from_lines`] it carries a plan between the page's two wasm modules (the
    /// analysis worker plans, the page reviews and writes).
    pub fn lines(&self) -> Vec<(char, &str)> {
        self.ops
            .iter()
            .map(|op| match op {
                Op::Keep(l) => (' ', l.as_str()),
                Op::Remove(l) => ('-', l.as_str()),
                Op::Add(l) => ('+', l.as_str()),
            })
            .collect()
    }

    /// The change [`Change::lines`] and its fields describe.
    pub fn from_lines(
        path: String,
        summary: String,
        before: Option<String>,
        after: Option<String>,
        lines: Vec<(char, String)>,
    ) -> Change {
        let ops = lines
            .into_iter()
            .map(|(mark, l)| match mark {
                '-' => Op::Remove(l),
                '+' => Op::Add(l),
                _ => Op::Keep(l),
            })
            .collect();
        Change {
            path,
            summary,
            before,
            after,
            ops,
        }
    }

    /// The change that undoes this one.
    pub fn reverse(&self) -> Change {
        Change {
            path: self.path.clone(),
            summary: format!("undo: {}", self.summary),
            before: self.after.clone(),
            after: self.before.clone(),
            ops: self
                .ops
                .iter()
                .map(|op| match op {
                    Op::Keep(l) => Op::Keep(l.clone()),
                    Op::Remove(l) => Op::Add(l.clone()),
                    Op::Add(l) => Op::Remove(l.clone()),
                })
                .collect(),
        }
    }
}

impl Plan {
    /// Every change's diff, one after the other.
    pub fn diff(&self) -> String {
        self.changes.iter().map(Change::diff).collect()
    }

    /// The paths the plan touches, in order.
    pub fn paths(&self) -> Vec<&str> {
        self.changes.iter().map(|c| c.path.as_str()).collect()
    }

    /// The changes in the order they are made, by the page and by the script: files created
    /// first (so that nothing existing changes before they are in place), then files
    /// rewritten, deletions last; each kind in the plan's order.
    pub fn in_safe_order(&self) -> Vec<&Change> {
        let rank = |change: &Change| match (&change.before, &change.after) {
            (None, _) => 0,
            (Some(_), Some(_)) => 1,
            (Some(_), None) => 2,
        };
        // Three passes, not a sort: the page's wasm runs this, and a sort of its own type
        // costs it kilobytes.
        (0..3)
            .flat_map(|kind| self.changes.iter().filter(move |c| rank(c) == kind))
            .collect()
    }

    /// The plan that undoes this one: each change reversed, last first.
    pub fn reverse(&self) -> Plan {
        Plan {
            title: format!("Undo: {}", self.title),
            changes: self.changes.iter().rev().map(Change::reverse).collect(),
            notes: Vec::new(),
        }
    }

    /// The plan as a POSIX `sh` script: every file is checked first (its POSIX `cksum` as
    /// the page read it, or its absence for a file to create), so that nothing is written
    /// when one changed since; then one commented command per change. Paths are single-quoted
    /// (`'` written as `'\''`); comments never hold a line break or control character; texts
    /// are written by a quoted here-document, whose delimiter no line of the text equals, or
    /// by `printf '%s'` when the text does not end with a line break.
    pub fn script(&self) -> String {
        let mut out = String::from("#!/bin/sh\n");
        let _ = writeln!(out, "# {}", comment(&self.title));
        out.push_str(
            "# Planned by the Claude Code Memory Diagnoser. Run it with sh on the machine the\n\
             # files came from. It first checks that every file is as the page read it and\n\
             # stops before writing anything if one is not; then it copies every file it\n\
             # changes to ~/.memdiag-backup/<time>/ (MEMDIAG_BACKUP_DIR in place of\n\
             # ~/.memdiag-backup), each under its full path, before the first write.\n",
        );
        for note in &self.notes {
            let _ = writeln!(out, "# Note: {}", comment(note));
        }
        out.push_str("set -eu\n\n");
        out.push_str(
            "sum_of() {\n  cksum -- \"$1\" | { read -r crc len rest; printf '%s %s' \"${crc#\\\\}\" \"$len\"; }\n}\n\
             unchanged() {\n  [ -f \"$1\" ] && [ \"$(sum_of \"$1\")\" = \"$2\" ] || {\n    printf '%s changed since the page read it; nothing was changed\\n' \"$1\" >&2\n    exit 1\n  }\n}\n\
             absent() {\n  [ ! -e \"$1\" ] || {\n    printf '%s exists already; nothing was changed\\n' \"$1\" >&2\n    exit 1\n  }\n}\n\
             backup=\"${MEMDIAG_BACKUP_DIR:-$HOME/.memdiag-backup}/$(date +%Y%m%dT%H%M%S)-$$\"\n\
             keep() {\n  copy=\"$backup/$(printf '%s' \"$1\" | sed 's|^/||; s|:||')\"\n  mkdir -p \"$(dirname \"$copy\")\"\n  cp -p -- \"$1\" \"$copy\"\n}\n\
             again() {\n  [ -f \"$1\" ] && [ \"$(sum_of \"$1\")\" = \"$2\" ] || {\n    printf '%s changed while the script ran; it stopped here, and the backup is in %s\\n' \"$1\" \"$backup\" >&2\n    exit 1\n  }\n}\n\
             written() {\n  [ -f \"$1\" ] && [ \"$(sum_of \"$1\")\" = \"$2\" ] || {\n    printf '%s does not hold what was written; it stopped here, and the backup is in %s\\n' \"$1\" \"$backup\" >&2\n    exit 1\n  }\n}\n\n",
        );
        for change in &self.changes {
            if change.after.as_deref().is_some_and(|t| t.contains('\0')) {
                let _ = writeln!(
                    out,
                    "printf '%s\\n' 'a text holds a NUL character, which sh cannot write' >&2\nexit 1"
                );
                return out;
            }
        }
        let changes = self.in_safe_order();
        for change in &changes {
            holds(
                &mut out,
                "unchanged",
                &change.path,
                change.before.as_deref(),
            );
        }
        out.push_str("\nmkdir -p \"$backup\"\n");
        for change in changes.iter().filter(|c| c.before.is_some()) {
            let _ = writeln!(out, "keep {}", quote(&change.path));
        }
        let _ = writeln!(out, "printf 'Backup: %s\\n' \"$backup\"");
        for (n, change) in changes.iter().enumerate() {
            let _ = writeln!(out, "\n# {}. {}", n + 1, comment(&change.summary));
            // Checked once more right before its own write.
            holds(&mut out, "again", &change.path, change.before.as_deref());
            match &change.after {
                None => {
                    let _ = writeln!(out, "rm -f -- {}", quote(&change.path));
                }
                Some(text) if text.ends_with('\n') => {
                    let mut delimiter = "MEMDIAG_END".to_owned();
                    while text.lines().any(|l| l == delimiter) {
                        delimiter.push('_');
                    }
                    let _ = write!(
                        out,
                        "cat > {} <<'{delimiter}'\n{text}{delimiter}\n",
                        quote(&change.path)
                    );
                }
                Some(text) => {
                    let _ = writeln!(out, "printf '%s' {} > {}", quote(text), quote(&change.path));
                }
            }
            // Read back: the file holds what was written, or is gone.
            match &change.after {
                Some(_) => holds(&mut out, "written", &change.path, change.after.as_deref()),
                None => {
                    let _ = writeln!(
                        out,
                        "[ ! -e {0} ] || {{ printf '%s is still there\\n' {0} >&2; exit 1; }}",
                        quote(&change.path)
                    );
                }
            }
        }
        out
    }
}

/// One line of a plan's script that checks `path` holds `text` with the shell function
/// `check` (`unchanged`, `again`, `written`: the same test, each with its own message), or,
/// for no text, that nothing is there (`absent`).
fn holds(out: &mut String, check: &str, path: &str, text: Option<&str>) {
    let _ = match text {
        Some(text) => writeln!(out, "{check} {} '{}'", quote(path), cksum(text.as_bytes())),
        None => writeln!(out, "absent {}", quote(path)),
    };
}

/// The POSIX `cksum` of some bytes, as the command prints it for standard input: the CRC
/// and the length.
pub fn cksum(bytes: &[u8]) -> String {
    const POLY: u32 = 0x04C1_1DB7;
    let step = |crc: u32, byte: u8| -> u32 {
        let mut c = crc ^ (u32::from(byte) << 24);
        for _ in 0..8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ POLY
            } else {
                c << 1
            };
        }
        c
    };
    let mut crc = bytes.iter().fold(0u32, |crc, &b| step(crc, b));
    let mut length = bytes.len() as u64;
    while length != 0 {
        crc = step(crc, (length & 0xff) as u8);
        length >>= 8;
    }
    format!("{} {}", !crc, bytes.len())
}

/// A string as one single-quoted shell word.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

// ----- helpers ------------------------------------------------------------------------

fn vpath(path: &str) -> Result<VPath> {
    VPath::new(path).map_err(|_| CleanupError::BadPath(path.to_owned()))
}

fn text_of(tree: &Tree, path: &str) -> Result<String> {
    let p = vpath(path)?;
    let entry = tree
        .file(&p)
        .ok_or_else(|| CleanupError::NotInSnapshot(path.to_owned()))?;
    match &entry.contents {
        Contents::Loaded(bytes) => {
            String::from_utf8(bytes.clone()).map_err(|_| CleanupError::NotText(path.to_owned()))
        }
        Contents::Unread | Contents::Unreadable(_) => Err(CleanupError::NotRead(path.to_owned())),
    }
}

fn index_row<'a>(report: &'a Report, index: &str) -> Option<&'a FileRow> {
    report
        .files
        .iter()
        .find(|r| r.path == index && r.parent.is_none() && r.load == LoadType::Startup)
}

/// The index of the memory folder holding `topic` most closely, among the report's.
fn nearest_index(report: &Report, topic: &VPath) -> Option<String> {
    report
        .health
        .memories
        .iter()
        .filter(|m| VPath::new(&m.folder).is_ok_and(|f| topic.starts_with(&f)))
        .max_by_key(|m| m.folder.len())
        .and_then(|m| m.index.clone())
}

/// The index lines whose links the report found missing: looked for and not there
/// ([`UnresolvedReason::Missing`]), never a target outside the snapshot or one the source
/// did not look at, which may exist.
fn dead_lines(report: &Report, row: &FileRow, text: &str) -> Vec<DeadLine> {
    let raw: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out: Vec<DeadLine> = Vec::new();
    let missing: std::collections::BTreeSet<&str> = report
        .files
        .iter()
        .filter(|r| {
            r.status == FileStatus::Unresolved
                && r.unresolved_reason == Some(UnresolvedReason::Missing)
        })
        .map(|r| r.path.as_str())
        .collect();
    let missing = |path: &str| missing.contains(path);
    for reference in &row.references {
        let Some(resolved) = &reference.resolved else {
            continue;
        };
        if reference.exists || !missing(resolved) {
            continue;
        }
        let Some(line) = raw.get(reference.line.saturating_sub(1) as usize) else {
            continue;
        };
        match out.iter_mut().find(|d| d.line == reference.line) {
            Some(existing) => existing.missing.push(resolved.clone()),
            None => out.push(DeadLine {
                line: reference.line,
                text: line.trim_end_matches(['\n', '\r']).to_owned(),
                missing: vec![resolved.clone()],
                live_links: 0,
            }),
        }
    }
    for dead in &mut out {
        dead.live_links = row
            .references
            .iter()
            .filter(|r| r.line == dead.line && r.exists)
            .count();
    }
    out.sort_by_key(|d| d.line);
    out
}

fn over_cap(row: &FileRow, text: &str, tree: &Tree, folder: &VPath) -> Option<OverCap> {
    let first = row.truncation.as_ref()?.first_dropped_line?;
    let entries = text
        .split_inclusive('\n')
        .enumerate()
        .skip(first.saturating_sub(1) as usize)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i as u64 + 1, l.trim_end_matches(['\n', '\r']).to_owned()))
        .collect();
    let mut n = 1;
    let suggested_topic = loop {
        let name = if n == 1 {
            "index-archive.md".to_owned()
        } else {
            format!("index-archive-{n}.md")
        };
        let path = folder.child(&name);
        if !tree.exists(&path) {
            break path.as_str().to_owned();
        }
        n += 1;
    };
    Some(OverCap {
        first_dropped_line: first,
        entries,
        suggested_topic,
    })
}

/// `- [<name>](<file>) — <description>`: the line Claude Code writes for a topic file when it
/// backfills an index (the ` — …` part only when the frontmatter has a description).
fn index_line(tree: &Tree, folder: &VPath, topic: &VPath) -> String {
    let description = tree
        .file(topic)
        .and_then(|entry| match &entry.contents {
            Contents::Loaded(bytes) => std::str::from_utf8(bytes).ok().map(str::to_owned),
            _ => None,
        })
        .and_then(|text| frontmatter::parse(&text))
        .filter(|fm| fm.error.is_none())
        .and_then(|fm| fm.string("description"))
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty());
    let stem = topic.file_name().trim_end_matches(".md");
    let file = topic.strip_prefix(folder).unwrap_or(topic.file_name());
    let target = if file.contains([' ', '(', ')', '<', '>']) {
        format!("<{file}>")
    } else {
        file.to_owned()
    };
    match description {
        Some(description) => format!("- [{stem}]({target}) — {description}"),
        None => format!("- [{stem}]({target})"),
    }
}

/// Appends lines to a text, giving its last line a line ending first if it lacks one.
fn append(text: &str, lines: &[String]) -> (Vec<Op>, String) {
    let eol = line_ending(text);
    let mut ops: Vec<Op> = text
        .split_inclusive('\n')
        .map(|l| Op::Keep(l.to_owned()))
        .collect();
    if let Some(Op::Keep(last)) = ops.last() {
        if !last.ends_with('\n') {
            let last = last.clone();
            ops.pop();
            ops.push(Op::Remove(last.clone()));
            ops.push(Op::Add(format!("{last}{eol}")));
        }
    }
    ops.extend(lines.iter().map(|l| Op::Add(format!("{l}{eol}"))));
    let after = ops
        .iter()
        .filter_map(|op| match op {
            Op::Keep(l) | Op::Add(l) => Some(l.as_str()),
            Op::Remove(_) => None,
        })
        .collect();
    (ops, after)
}

/// `\r\n` when the text's first line ends so, else `\n`.
fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn plural(count: usize, what: &str) -> String {
    match (count, what) {
        (1, _) => format!("1 {what}"),
        (n, "entry") => format!("{n} entries"),
        (n, _) => format!("{n} {what}s"),
    }
}

/// The caps of the release the report simulates (`rules.release`: `current` or a release
/// number), as the analysis applied them: whether the 25,000-unit cap applies and whether
/// control characters (a CRLF file's carriage returns among them) are removed before the
/// index is measured. A report whose release cannot be read back is planned with the current
/// rules.
fn caps(report: &Report) -> memory_index::Caps {
    let release = match report.rules.release.trim() {
        "" | "current" => None,
        text => crate::version::ClaudeVersion::parse(text).ok(),
    };
    crate::version::Rules::of(release)
        .unwrap_or_else(|_| crate::version::Rules::of(None).expect("the current rules"))
        .index_caps()
}

/// A text fit for one comment line: control characters (line breaks among them) become `?`.
fn comment(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Entry;

    fn tree(files: &[(&str, &str)]) -> Tree {
        Tree::from_entries(
            &["/h"],
            files.iter().map(|(path, text)| Entry {
                path: (*path).to_owned(),
                size: text.len() as u64,
                bytes: Some(text.as_bytes().to_vec()),
                modified: None,
            }),
        )
    }

    fn numbered(lines: &[(u64, &str)]) -> Vec<(u64, String)> {
        lines.iter().map(|(n, t)| (*n, (*t).to_owned())).collect()
    }

    #[test]
    fn cksum_matches_posix() {
        // Values printed by GNU coreutils' `cksum` for the same standard input.
        assert_eq!(cksum(b""), "4294967295 0");
        assert_eq!(cksum(b"a"), "1220704766 1");
        assert_eq!(cksum(b"hello\n"), "3015617425 6");
    }

    #[test]
    fn quoting_keeps_every_character_literal() {
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote("$(x)`y`\n"), "'$(x)`y`\n'");
        assert_eq!(comment("a\nb\rc\u{7}"), "a?b?c?");
    }

    #[test]
    fn removing_lines_diffs_with_context() {
        let text = "- a\n- b\n- c\n- d\n- e\n- f\n- g\n- h\n- i\n- j\n- k\n- l\n";
        let t = tree(&[("/h/m/MEMORY.md", text)]);
        let plan = remove_lines(&t, "/h/m/MEMORY.md", &numbered(&[(2, "- b"), (12, "- l")]))
            .expect("plan");
        assert_eq!(
            plan.changes[0].after.as_deref(),
            Some("- a\n- c\n- d\n- e\n- f\n- g\n- h\n- i\n- j\n- k\n")
        );
        // As `diff -u` prints it; six unchanged lines between two changes make one hunk.
        assert_eq!(
            plan.diff(),
            "--- /h/m/MEMORY.md\n+++ /h/m/MEMORY.md\n@@ -1,5 +1,4 @@\n - a\n-- b\n - c\n - d\n - e\n@@ -9,4 +8,3 @@\n - i\n - j\n - k\n-- l\n"
        );
        let merged =
            remove_lines(&t, "/h/m/MEMORY.md", &numbered(&[(2, "- b"), (9, "- i")])).expect("plan");
        assert!(merged.diff().contains("@@ -1,12 +1,10 @@\n"));
        assert_eq!(
            remove_lines(&t, "/h/m/MEMORY.md", &numbered(&[(13, "- m")])),
            Err(CleanupError::NoSuchLine("/h/m/MEMORY.md".into(), 13))
        );
        // A line shown with other text (the file changed since) is never removed.
        assert_eq!(
            remove_lines(&t, "/h/m/MEMORY.md", &numbered(&[(2, "- b"), (3, "- b")])),
            Err(CleanupError::LineChanged("/h/m/MEMORY.md".into(), 3))
        );
        assert_eq!(
            remove_lines(&t, "/h/m/MEMORY.md", &numbered(&[(0, "")])),
            Err(CleanupError::NoSuchLine("/h/m/MEMORY.md".into(), 0))
        );
        let undo = plan.reverse();
        assert_eq!(undo.changes[0].after, plan.changes[0].before);
    }

    #[test]
    fn a_change_rebuilt_from_its_lines_is_the_same_change() {
        let text = "- a\n- b\n- c\n";
        let t = tree(&[("/h/m/MEMORY.md", text), ("/h/m/gone.md", "x\n")]);
        let removed = remove_lines(&t, "/h/m/MEMORY.md", &numbered(&[(2, "- b")])).expect("plan");
        let deleted = delete_files(&t, &["/h/m/gone.md".to_owned()]).expect("plan");
        for change in removed.changes.iter().chain(&deleted.changes) {
            let lines = change
                .lines()
                .into_iter()
                .map(|(mark, line)| (mark, line.to_owned()))
                .collect();
            let rebuilt = Change::from_lines(
                change.path.clone(),
                change.summary.clone(),
                change.before.clone(),
                change.after.clone(),
                lines,
            );
            assert_eq!(&rebuilt, change);
            assert_eq!(rebuilt.diff(), change.diff());
        }
        assert!(removed.changes[0].lines().contains(&('-', "- b\n")));
    }

    #[test]
    fn appending_to_a_text_without_a_final_line_break() {
        let (ops, after) = append("a\r\nb", &["c".to_owned()]);
        assert_eq!(after, "a\r\nb\r\nc\r\n");
        assert_eq!(ops.len(), 4);
        let change = Change::from_ops("/h/x.md", String::new(), Some("a\r\nb".into()), ops);
        assert!(change
            .diff()
            .contains("-b\n\\ No newline at end of file\n+b\r\n+c\r\n"));
    }

    #[test]
    fn deletion_and_creation_diff_against_dev_null() {
        let t = tree(&[("/h/r.md", "one\ntwo\n")]);
        let plan = delete_files(&t, &["/h/r.md".to_owned()]).expect("plan");
        assert_eq!(
            plan.diff(),
            "--- /h/r.md\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n"
        );
        assert_eq!(
            plan.reverse().diff(),
            "--- /dev/null\n+++ /h/r.md\n@@ -0,0 +1,2 @@\n+one\n+two\n"
        );
        let unread = Tree::from_entries(
            &["/h"],
            [Entry {
                path: "/h/u.md".into(),
                size: 3,
                bytes: None,
                modified: None,
            }],
        );
        assert_eq!(
            delete_files(&unread, &["/h/u.md".into()]),
            Err(CleanupError::NotRead("/h/u.md".into()))
        );
    }

    #[test]
    fn index_lines_follow_the_backfill_format() {
        let t = tree(&[
            (
                "/h/m/a.md",
                "---\ndescription: the  a\n  topic\n---\nbody\n",
            ),
            ("/h/m/b c.md", "no frontmatter\n"),
        ]);
        let folder = VPath::new("/h/m").expect("path");
        let line = |p: &str| index_line(&t, &folder, &VPath::new(p).expect("path"));
        assert_eq!(line("/h/m/a.md"), "- [a](a.md) — the a topic");
        assert_eq!(line("/h/m/b c.md"), "- [b c](<b c.md>)");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "dead index line"), "1 dead index line");
        assert_eq!(plural(2, "dead index line"), "2 dead index lines");
        assert_eq!(plural(3, "entry"), "3 entries");
        assert_eq!(plural(2, "orphaned topic file"), "2 orphaned topic files");
    }
}
