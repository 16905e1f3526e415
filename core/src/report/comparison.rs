//! What changes between two reports of the same snapshot: the pinned release against a
//! simulated one, so that the page and the command can mark what an older (or newer)
//! Claude Code would load differently.
//!
//! Rows are matched by their path, the path of the file that references them and, for a
//! file listed twice under the same parent, the order they appear in. Findings are matched
//! by code and file, never by message, because the words of a finding can change between
//! releases while the finding stays the same.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Code, FileRow, FileStatus, LoadType, Report, Severity};

/// Every difference between a base report and another report of the same snapshot.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Comparison {
    /// The release the base report reproduces (`context.version`).
    pub base_version: String,
    /// The release the other report reproduces.
    pub other_version: String,
    /// Rows added, removed or changed, in the order of the other report, removed rows
    /// after them in the order of the base report.
    pub rows: Vec<RowChange>,
    /// Findings the other report has and the base does not.
    pub findings_appeared: Vec<FindingKey>,
    /// Findings the base report has and the other does not.
    pub findings_vanished: Vec<FindingKey>,
    /// The headline figures that differ, in [`FigureName`] order.
    pub figures: Vec<FigureChange>,
}

impl Comparison {
    /// True when the two reports load, count and find exactly the same.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
            && self.findings_appeared.is_empty()
            && self.findings_vanished.is_empty()
            && self.figures.is_empty()
    }

    /// The change of the row at `index` of the other report's `files`, if it changed.
    pub fn row_in_other(&self, index: usize) -> Option<&RowChange> {
        self.rows.iter().find(|r| r.other_index == Some(index))
    }
}

/// How one row differs.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RowChange {
    /// The row's path.
    pub path: String,
    /// Its index in the base report's `files`, or null when the other report added it.
    pub base_index: Option<usize>,
    /// Its index in the other report's `files`, or null when the other report drops it.
    pub other_index: Option<usize>,
    /// When it loads, base then other, when that differs.
    pub load: Option<[LoadType; 2]>,
    /// What became of it, base then other, when that differs.
    pub status: Option<[FileStatus; 2]>,
    /// Whether it counts towards every session, base then other, when that differs.
    pub counted: Option<[bool; 2]>,
    /// UTF-16 units that load, base then other, when that differs.
    pub loaded_utf16: Option<[Option<u64>; 2]>,
}

impl RowChange {
    /// The kind of change, for a badge.
    pub fn kind(&self) -> RowChangeKind {
        match (self.base_index, self.other_index) {
            (None, _) => RowChangeKind::Added,
            (_, None) => RowChangeKind::Removed,
            _ => RowChangeKind::Changed,
        }
    }
}

/// Added, removed or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum RowChangeKind {
    /// Only in the other report.
    Added,
    /// Only in the base report.
    Removed,
    /// In both, loading or counting differently.
    Changed,
}

/// A finding as the comparison matches it.
#[derive(Debug, Default, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FindingKey {
    /// Its code.
    pub code: Code,
    /// Its severity in the report it is in.
    pub severity: Severity,
    /// The file it is about.
    pub path: Option<String>,
    /// Its message in the report it is in.
    pub message: String,
}

/// A headline figure of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FigureName {
    /// Every session: all characters (`session.cost.total`, user + Claude Code).
    SessionTotal,
    /// Every session: the user's characters.
    SessionUser,
    /// Every session: Claude Code's own characters.
    SessionClaudeCode,
    /// Every session: the instruction block, all characters.
    InstructionBlock,
    /// Every session: the skills listing, all characters.
    SkillsListing,
    /// Every session: the memory section of the system prompt, all characters.
    MemorySection,
    /// Every session: the listing of agent types, all characters.
    AgentTypes,
    /// Every session: files in the instruction block.
    SessionFiles,
    /// Later: what conditional rules can add.
    ConditionalRules,
    /// Later: what nested files and reads can add.
    OnRead,
    /// Later: what on-demand files can add.
    OnDemand,
    /// Later: what agent memory adds to sub-agents.
    AgentMemory,
}

impl FigureName {
    /// Its stable kebab-case name, as in JSON (`session-total`).
    pub fn id(self) -> &'static str {
        match self {
            FigureName::SessionTotal => "session-total",
            FigureName::SessionUser => "session-user",
            FigureName::SessionClaudeCode => "session-claude-code",
            FigureName::InstructionBlock => "instruction-block",
            FigureName::SkillsListing => "skills-listing",
            FigureName::MemorySection => "memory-section",
            FigureName::AgentTypes => "agent-types",
            FigureName::SessionFiles => "session-files",
            FigureName::ConditionalRules => "conditional-rules",
            FigureName::OnRead => "on-read",
            FigureName::OnDemand => "on-demand",
            FigureName::AgentMemory => "agent-memory",
        }
    }

    /// The figure's name for a person.
    pub fn label(self) -> &'static str {
        match self {
            FigureName::SessionTotal => "every session, all characters",
            FigureName::SessionUser => "every session, your files",
            FigureName::SessionClaudeCode => "every session, Claude Code's own text",
            FigureName::InstructionBlock => "instruction block",
            FigureName::SkillsListing => "skills listing",
            FigureName::MemorySection => "memory section",
            FigureName::AgentTypes => "listing of sub-agents",
            FigureName::SessionFiles => "files sent in every session",
            FigureName::ConditionalRules => "conditional rules",
            FigureName::OnRead => "when Claude reads files",
            FigureName::OnDemand => "on demand",
            FigureName::AgentMemory => "agent memory",
        }
    }
}

/// One figure that differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FigureChange {
    /// Which figure.
    pub name: FigureName,
    /// Its value in the base report.
    pub base: u64,
    /// Its value in the other report.
    pub other: u64,
}

/// Compares `other` with `base`, two reports of the same snapshot.
pub fn compare(base: &Report, other: &Report) -> Comparison {
    Comparison {
        base_version: base.context.version.clone(),
        other_version: other.context.version.clone(),
        rows: compare_rows(&base.files, &other.files),
        findings_appeared: findings_only_in(other, base),
        findings_vanished: findings_only_in(base, other),
        figures: compare_figures(base, other),
    }
}

/// A row's identity across two reports: path, parent path, and its rank among rows with
/// the same two.
type RowKey<'a> = (&'a str, Option<&'a str>, usize);

fn row_keys(files: &[FileRow]) -> Vec<RowKey<'_>> {
    let mut seen: BTreeMap<(&str, Option<&str>), usize> = BTreeMap::new();
    files
        .iter()
        .map(|row| {
            let pair = (row.path.as_str(), row.parent.as_deref());
            let rank = seen.entry(pair).or_insert(0);
            let key = (pair.0, pair.1, *rank);
            *rank += 1;
            key
        })
        .collect()
}

fn compare_rows(base: &[FileRow], other: &[FileRow]) -> Vec<RowChange> {
    let base_keys = row_keys(base);
    let other_keys = row_keys(other);
    let base_at: BTreeMap<RowKey<'_>, usize> =
        base_keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let other_at: BTreeMap<RowKey<'_>, usize> = other_keys
        .iter()
        .enumerate()
        .map(|(i, k)| (*k, i))
        .collect();

    let mut changes = Vec::new();
    for (other_index, key) in other_keys.iter().enumerate() {
        let theirs = &other[other_index];
        let Some(&base_index) = base_at.get(key) else {
            changes.push(RowChange {
                path: theirs.path.clone(),
                base_index: None,
                other_index: Some(other_index),
                ..RowChange::default()
            });
            continue;
        };
        let ours = &base[base_index];
        let change = RowChange {
            path: theirs.path.clone(),
            base_index: Some(base_index),
            other_index: Some(other_index),
            load: differs(ours.load, theirs.load),
            status: differs(ours.status, theirs.status),
            counted: differs(ours.counted, theirs.counted),
            loaded_utf16: differs(ours.loaded.map(|m| m.utf16), theirs.loaded.map(|m| m.utf16)),
        };
        if change.load.is_some()
            || change.status.is_some()
            || change.counted.is_some()
            || change.loaded_utf16.is_some()
        {
            changes.push(change);
        }
    }
    for (base_index, key) in base_keys.iter().enumerate() {
        if !other_at.contains_key(key) {
            changes.push(RowChange {
                path: base[base_index].path.clone(),
                base_index: Some(base_index),
                other_index: None,
                ..RowChange::default()
            });
        }
    }
    changes
}

/// `Some([base, other])` when the two differ.
fn differs<T: PartialEq>(base: T, other: T) -> Option<[T; 2]> {
    if base == other {
        None
    } else {
        Some([base, other])
    }
}

/// The findings of `report` that `against` does not have, matched as a multiset by code
/// and file.
fn findings_only_in(report: &Report, against: &Report) -> Vec<FindingKey> {
    let mut available: BTreeMap<(Code, Option<&str>), usize> = BTreeMap::new();
    for d in &against.diagnostics {
        *available.entry((d.code, d.path.as_deref())).or_insert(0) += 1;
    }
    let mut only = Vec::new();
    for d in &report.diagnostics {
        match available.get_mut(&(d.code, d.path.as_deref())) {
            Some(left) if *left > 0 => *left -= 1,
            _ => only.push(FindingKey {
                code: d.code,
                severity: d.severity,
                path: d.path.clone(),
                message: d.message.clone(),
            }),
        }
    }
    only
}

fn figures_of(report: &Report) -> [(FigureName, u64); 12] {
    let cost = &report.session.cost;
    let later = &report.session.later;
    [
        (FigureName::SessionTotal, cost.total.total()),
        (FigureName::SessionUser, cost.total.user),
        (FigureName::SessionClaudeCode, cost.total.claude_code),
        (FigureName::InstructionBlock, cost.instruction_block.total()),
        (FigureName::SkillsListing, cost.skills_listing.total()),
        (FigureName::MemorySection, cost.memory_section.total()),
        (FigureName::AgentTypes, cost.agents.total()),
        (FigureName::SessionFiles, report.session.files.len() as u64),
        (FigureName::ConditionalRules, later.conditional_rules.utf16),
        (FigureName::OnRead, later.on_read.utf16),
        (FigureName::OnDemand, later.on_demand.utf16),
        (FigureName::AgentMemory, later.agent_memory.utf16),
    ]
}

fn compare_figures(base: &Report, other: &Report) -> Vec<FigureChange> {
    figures_of(base)
        .into_iter()
        .zip(figures_of(other))
        .filter(|((_, a), (_, b))| a != b)
        .map(|((name, base), (_, other))| FigureChange { name, base, other })
        .collect()
}
