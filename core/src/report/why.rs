//! Why a file loads, or does not: one answer per path, read off a finished report.
//!
//! The report already knows every rule's outcome: a row's load type and status, the findings
//! pinned to a file or to the file that imports it, the session's files and each sub-agent's.
//! [`why`] gathers those for one path into a sentence a person (or the model, through
//! `memdiag mcp`) can act on, with the exact reason when the file does not load: the
//! `claudeMdExcludes` pattern and the settings file that set it, the import that needs
//! approval, the depth an import is past, the 4 MiB cap, the `paths` no file matches, a
//! folder Claude Code never looks in, a shadowing definition, a skill one folder too deep.
//! It decides nothing itself: every fact comes from the report.

use serde::{Deserialize, Serialize};

use super::{Code, Diagnostic, FileRow, FileStatus, Group, LoadType, Report};
use crate::vpath::VPath;

/// Whether and when one file loads, and why not when it does not.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Why {
    /// The path asked about, made absolute.
    pub path: String,
    /// The answer in one word.
    pub loads: Loads,
    /// When it loads, as a sentence; or that it never does.
    pub when: String,
    /// Why it does not load, or loads only in part: one sentence per reason, the report's
    /// own words.
    pub reasons: Vec<String>,
    /// The findings about this file (or about its import of it), as the report has them.
    pub findings: Vec<Diagnostic>,
}

/// The answer of [`Why`] in one word.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Loads {
    /// In every session, whole.
    EverySession,
    /// In every session, but only in part (a `MEMORY.md` past its caps).
    Partly,
    /// Only on some event: a read below its folder, a matching file, an invocation, a
    /// sub-agent.
    Sometimes,
    /// Never.
    Never,
    /// The report does not know the file: not one Claude Code would look at.
    #[default]
    Unknown,
}

/// Whether and when the file at `path` loads in the session `report` describes. A relative
/// `path` is taken from the project; `~/` from the home folder.
pub fn why(report: &Report, path: &str) -> Why {
    let path = absolute(report, path);
    let findings: Vec<Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.path.as_deref() == Some(path.as_str()))
        .cloned()
        .collect();
    let mut answer = Why {
        path: path.clone(),
        findings,
        ..Why::default()
    };
    let rows: Vec<(usize, &FileRow)> = report
        .files
        .iter()
        .enumerate()
        .filter(|(_, row)| row.path == path)
        .collect();
    if let Some(agent) = report.health.agents.iter().find(|a| a.path == path) {
        match &agent.shadowed_by {
            Some(other) => never(
                &mut answer,
                format!(
                    "shadowed: the sub-agent {} defined in {other} is in force instead of this \
                     one",
                    agent.name
                ),
            ),
            None => {
                answer.loads = Loads::EverySession;
                answer.when = format!(
                    "the sub-agent {}'s line is in the agent listing of every session; its \
                     body is the system prompt of each {} sub-agent spawned",
                    agent.name, agent.name
                );
            }
        }
        return answer;
    }
    let Some(&(index, row)) = rows
        .iter()
        .find(|(_, row)| row.status == FileStatus::Ok)
        .or_else(|| rows.first())
    else {
        not_listed(report, &mut answer);
        return answer;
    };
    if row.status != FileStatus::Ok {
        let reason = status_reason(report, row);
        never(&mut answer, reason);
        extend_findings(report, row, &mut answer);
        return answer;
    }
    // Findings that say an Ok row still never loads, or loads in part.
    let blocking = [
        Code::RuleNeverMatches,
        Code::RulePathsInvalid,
        Code::RulePathsJoined,
        Code::SkillDuplicateName,
        Code::SkillShadowed,
        Code::CommandShadowed,
        Code::InvalidFrontmatter,
        Code::FileUnreadable,
    ];
    let in_session = report.session.files.iter().position(|f| f.row == index);
    answer.when = when(report, row, in_session);
    answer.loads = match row.load {
        _ if in_session.is_some() => Loads::EverySession,
        LoadType::Always | LoadType::Startup if row.group != Group::AgentMemory => {
            Loads::EverySession
        }
        LoadType::Link => Loads::Never,
        _ => Loads::Sometimes,
    };
    if let Some(cut) = row.truncation.as_ref().filter(|t| t.cut_by.is_some()) {
        answer.loads = Loads::Partly;
        let first = cut.first_dropped_line.unwrap_or(cut.loaded_lines + 1);
        answer.reasons.push(format!(
            "only lines 1-{} of {} load: lines {first}-{} are past the {} cap",
            first.saturating_sub(1),
            cut.total_lines,
            cut.total_lines,
            match cut.cut_by {
                Some(super::CutBy::Size) => "25,000-character",
                _ => "200-line",
            }
        ));
    }
    for finding in answer.findings.clone() {
        if blocking.contains(&finding.code) {
            if matches!(
                finding.code,
                Code::RuleNeverMatches
                    | Code::RulePathsInvalid
                    | Code::SkillShadowed
                    | Code::CommandShadowed
            ) {
                answer.loads = Loads::Never;
                answer.when = "never".to_owned();
            }
            answer.reasons.push(finding.message.clone());
        }
        if finding.code == Code::MemoryTopicOrphan {
            answer.reasons.push(finding.message.clone());
        }
    }
    answer
}

/// The path made absolute the way the command's `--read` takes it.
fn absolute(report: &Report, path: &str) -> String {
    let home = &report.context.home;
    let joined = if let Some(rest) = path.strip_prefix("~/") {
        format!("{home}/{rest}")
    } else if is_absolute(path) {
        path.to_owned()
    } else {
        match &report.context.project {
            Some(project) => format!("{project}/{path}"),
            None => format!("{home}/{path}"),
        }
    };
    VPath::new(&joined).map_or(joined, |p| p.as_str().to_owned())
}

fn is_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with('/') || (bytes.len() > 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic())
}

fn never(answer: &mut Why, reason: String) {
    answer.loads = Loads::Never;
    answer.when = "never".to_owned();
    answer.reasons.push(reason);
}

/// The findings on the file that imports `row` at the line of the import.
fn extend_findings(report: &Report, row: &FileRow, answer: &mut Why) {
    let (Some(parent), Some(site)) = (&row.parent, &row.reference) else {
        return;
    };
    for d in &report.diagnostics {
        if d.path.as_ref() == Some(parent)
            && d.line == Some(site.line)
            && !answer.findings.contains(d)
        {
            answer.findings.push(d.clone());
        }
    }
}

/// The finding's message for `code` on the file, or on the import of it, if there is one.
fn finding_on(report: &Report, row: &FileRow, code: Code) -> Option<String> {
    report
        .diagnostics
        .iter()
        .find(|d| {
            d.code == code
                && (d.path.as_ref() == Some(&row.path)
                    || (d.path == row.parent
                        && row
                            .reference
                            .as_ref()
                            .is_some_and(|s| d.line == Some(s.line))))
        })
        .map(|d| d.message.clone())
}

/// Why a row with a status other than Ok does not load.
fn status_reason(report: &Report, row: &FileRow) -> String {
    let from_finding = |code: Code, fallback: &str| {
        finding_on(report, row, code).unwrap_or_else(|| fallback.to_owned())
    };
    match row.status {
        FileStatus::Ok => String::new(),
        FileStatus::Excluded => from_finding(
            Code::ClaudeMdExcluded,
            "excluded by a claudeMdExcludes pattern; not loaded",
        ),
        FileStatus::Skipped => from_finding(
            Code::ClaudeMdSkipped,
            "over the 4 MiB Claude Code loads; it is skipped entirely",
        ),
        FileStatus::TooDeep => from_finding(
            Code::ImportTooDeep,
            "past the import depth Claude Code follows; not loaded",
        ),
        FileStatus::NeedsApproval => from_finding(
            Code::ImportNeedsApproval,
            "an import that leaves the project: it loads only after you approve external \
             imports",
        ),
        FileStatus::NotText => {
            from_finding(Code::ImportNotText, "not a text file; Claude Code skips it")
        }
        FileStatus::Disabled => {
            let from = report
                .context
                .auto_memory_setting_from
                .as_deref()
                .map_or_else(
                    || " (CLAUDE_CODE_DISABLE_AUTO_MEMORY, or a settings file)".to_owned(),
                    |from| format!(" by autoMemoryEnabled in {from}"),
                );
            format!("auto memory is switched off{from}, so no memory file loads")
        }
        FileStatus::Empty => "nothing is left once frontmatter and comments are stripped and \
                              the text trimmed: Claude Code does not send it"
            .to_owned(),
        FileStatus::Unresolved => {
            let what = match row.reference.as_ref().map(|s| s.kind) {
                Some(super::ReferenceKind::Link) => "a link",
                _ => "an import",
            };
            let parent = row.parent.as_deref().unwrap_or("a file");
            format!("{what} in {parent} names it, but there is no such file")
        }
    }
}

/// When an Ok row loads.
fn when(report: &Report, row: &FileRow, in_session: Option<usize>) -> String {
    if let Some(place) = in_session {
        let count = report.session.files.len();
        return format!(
            "at startup, in every session: file {} of the {count} in the instruction block",
            place + 1
        );
    }
    let folder = row
        .path
        .rsplit_once('/')
        .map_or(row.path.as_str(), |(dir, _)| dir);
    match (row.group, row.load) {
        (Group::AgentMemory, _) => format!(
            "only in sub-agent {}'s own sessions, appended to its system prompt",
            row.agent.as_deref().unwrap_or("?")
        ),
        (_, LoadType::Always) => "at startup, in every session".to_owned(),
        (_, LoadType::Startup) => "at startup, in every session (the memory index)".to_owned(),
        (_, LoadType::Conditional) => format!(
            "when Claude reads a file that matches its paths ({})",
            row.paths.as_deref().unwrap_or_default().join(", ")
        ),
        (Group::Rules, LoadType::Tree) => {
            let base = folder
                .strip_suffix("/.claude/rules")
                .or_else(|| folder.split("/.claude/rules/").next())
                .unwrap_or(folder);
            format!("when Claude reads a file in {base} or below (the rules of that folder)")
        }
        (_, LoadType::Tree) => format!("when Claude reads a file in {folder} or below"),
        (Group::Skills, LoadType::OnDemand) => format!(
            "its listing line ({}) is in every session; the body loads when the skill is \
             invoked",
            row.skill_name.as_deref().unwrap_or("?")
        ),
        (_, LoadType::OnDemand) => "only when Claude reads it".to_owned(),
        (_, LoadType::Import) => {
            let parent = row.parent.as_deref().unwrap_or("?");
            let parent_when = row
                .parent_index
                .and_then(|i| Some((i, report.files.get(i)?)))
                .map(|(i, p)| {
                    let place = report.session.files.iter().position(|f| f.row == i);
                    when(report, p, place)
                })
                .unwrap_or_default();
            format!("with {parent}, which imports it: {parent_when}")
        }
        (_, LoadType::Link) => {
            "never by itself: a Markdown link only points to it (Claude may read it)".to_owned()
        }
    }
}

/// A path with no row: a finding may still explain it (a skill too deep, a
/// `.claude/CLAUDE.local.md`), or it lies where Claude Code never looks.
fn not_listed(report: &Report, answer: &mut Why) {
    let explaining = [
        Code::SkillTooDeep,
        Code::ClaudeLocalMdNeverRead,
        Code::AgentMemoryOrphan,
    ];
    if let Some(finding) = answer
        .findings
        .iter()
        .find(|d| explaining.contains(&d.code))
        .cloned()
    {
        never(answer, finding.message);
        return;
    }
    let path = answer.path.clone();
    let under = |dir: &str| path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'));
    let project = report.context.project.as_deref();
    let config = report.context.config_dir.as_str();
    let in_project = project.is_some_and(under);
    let in_config = under(config);
    let ancestor_of_project = project.is_some_and(|p| {
        path.rsplit_once('/').is_some_and(|(dir, _)| {
            p == dir || p.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
        })
    });
    let name = path.rsplit('/').next().unwrap_or_default();
    let reason = if !in_project && !in_config && !ancestor_of_project {
        match project {
            Some(project) => format!(
                "outside the working directory ({project}), its parent folders and the config \
                 folder ({config}): Claude Code never looks there for instructions"
            ),
            None => format!(
                "outside the config folder ({config}), and no project was given: Claude Code \
                 never looks there for instructions"
            ),
        }
    } else if !report.files.is_empty() && !is_instruction_name(name, &path) {
        "not a file Claude Code loads by itself: not a CLAUDE.md, CLAUDE.local.md, rule, \
         memory file or skill (Claude may still read it)"
            .to_owned()
    } else {
        "memdiag found no such file where Claude Code looks (it may not exist)".to_owned()
    };
    never(answer, reason);
    answer.loads = Loads::Unknown;
}

fn is_instruction_name(name: &str, path: &str) -> bool {
    matches!(
        name,
        "CLAUDE.md" | "CLAUDE.local.md" | "MEMORY.md" | "SKILL.md"
    ) || (name.ends_with(".md") && (path.contains("/.claude/rules/") || path.contains("/memory/")))
}
