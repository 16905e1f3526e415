//! The verdict: what an analysis found lost or broken, most harmful first, one line each.
//!
//! It is what a person reads first (the page's top block, the first lines of the command's
//! text and markdown): the one ordering of findings by harm that every reader uses, so the
//! page, the command and SARIF agree on what matters most. A code's [`Harm`] is declared
//! with the code ([`super::codes`]); what drops instructions the person wrote ranks above
//! what only wastes context or warns.

use std::collections::BTreeMap;

use super::{Code, CutBy, Diagnostic, FileRow, Harm, LoadType, Report, Severity, VerdictLine};

/// The verdict of a report: a line per kind of finding (a line per file for a cut memory
/// index), those of [`Harm::Cuts`] first, then [`Harm::Drops`], [`Harm::Wastes`] and
/// [`Harm::Warns`]; within one harm, errors before warnings, then the most findings first.
/// Info findings that only warn are left out.
pub fn verdict(report: &Report) -> Vec<VerdictLine> {
    let mut by_code: BTreeMap<Code, Vec<&Diagnostic>> = BTreeMap::new();
    for diagnostic in &report.diagnostics {
        let harm = diagnostic.code.harm();
        if diagnostic.severity == Severity::Info && matches!(harm, Harm::Warns | Harm::Wastes) {
            continue;
        }
        by_code.entry(diagnostic.code).or_default().push(diagnostic);
    }
    let mut lines = Vec::new();
    for (code, findings) in by_code {
        let severity = findings
            .iter()
            .map(|d| d.severity)
            .max_by_key(|s| severity_rank(*s))
            .unwrap_or(Severity::Info);
        if code == Code::MemoryIndexTruncated {
            // One line per index: which lines it loses is the point.
            for finding in &findings {
                lines.push(VerdictLine {
                    harm: code.harm(),
                    code,
                    severity: finding.severity,
                    count: 1,
                    message: cut_index_line(report, finding),
                    path: finding.path.clone(),
                    line: finding.line,
                });
            }
            continue;
        }
        let first = findings[0];
        let count = findings.len() as u64;
        let message = match findings.as_slice() {
            [one] => match &one.path {
                Some(path) => format!("{}: {}", file_name(path), one.message),
                None => one.message.clone(),
            },
            _ => code.many().replace("{n}", &count.to_string()),
        };
        lines.push(VerdictLine {
            harm: code.harm(),
            code,
            severity,
            count,
            message,
            path: first.path.clone(),
            line: first.line,
        });
    }
    lines.sort_by(|a, b| {
        (a.harm, severity_rank(b.severity), b.count, a.code).cmp(&(
            b.harm,
            severity_rank(a.severity),
            a.count,
            b.code,
        ))
    });
    lines
}

/// "MEMORY.md loses 30 of its 230 lines (from line 201) in every session", from the index's
/// row; the finding's own message where the row is not there.
fn cut_index_line(report: &Report, finding: &Diagnostic) -> String {
    let row: Option<&FileRow> = finding.path.as_ref().and_then(|path| {
        report
            .files
            .iter()
            .find(|r| &r.path == path && r.load == LoadType::Startup && r.truncation.is_some())
    });
    let (Some(row), Some(path)) = (row, &finding.path) else {
        return finding.message.clone();
    };
    let Some(cut) = &row.truncation else {
        return finding.message.clone();
    };
    let name = file_name(path);
    let lost = cut.total_lines.saturating_sub(cut.loaded_lines);
    let from = cut
        .first_dropped_line
        .map(|line| format!(" (from line {line})"))
        .unwrap_or_default();
    let why = match cut.cut_by {
        Some(CutBy::Size) => "the 25,000-character cap",
        _ => "the 200-line cap",
    };
    if lost == 0 {
        // The size cap cut inside the last line that loads.
        return format!(
            "{name} loses the end of line {}{from} to {why} in every session: Claude never \
             sees it",
            cut.loaded_lines
        );
    }
    format!(
        "{name} loses {lost} of its {} lines{from} to {why} in every session: Claude never \
         sees them",
        cut.total_lines
    )
}

/// Errors first.
fn severity_rank(severity: Severity) -> u8 {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
