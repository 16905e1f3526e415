//! The text format: what a person reads in a terminal.
//!
//! The files by group with the page's load icons and what each sends, what every session
//! carries part by part, what loads later, and the most severe findings. Styles are ANSI
//! escapes; the caller's [`anstream::AutoStream`] drops them when the terminal has no colour
//! (not a terminal, `NO_COLOR`, `TERM=dumb`) or translates them on an old Windows console.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use memdiag_core::report::comparison::RowChangeKind;
use memdiag_core::report::{
    Diagnostic, FileRow, FileStatus, Group, Harm, LoadType, ReferenceKind, Report, UnresolvedReason,
};
use memdiag_core::Severity;

use crate::severity_name;

/// Findings (a folded run counts as one) listed before "and N more" unless `--verbose`.
const TOP_FINDINGS: usize = 6;

/// Rows of one kind in a row, from how many on they fold into one line unless `--verbose`.
const FOLD_FROM: usize = 4;

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();
const RED: Style = AnsiColor::Red.on_default().bold();
const YELLOW: Style = AnsiColor::Yellow.on_default().bold();
const CYAN: Style = AnsiColor::Cyan.on_default();
const GREEN: Style = AnsiColor::Green.on_default().bold();

/// The whole text output; `failures` are the gates the report fails. Unless `verbose`,
/// runs of rows or findings of one kind fold into one line each and the findings stop
/// after the most harmful few, one line each: the verdict above them names every kind.
pub(crate) fn render(report: &Report, failures: &[String], verbose: bool) -> String {
    let mut out = String::new();
    let home = Home(&report.context.home);
    header(&mut out, report, &home);
    verdict(&mut out, report, &home);
    simulated(&mut out, report, &home);
    session(&mut out, report);
    plugins(&mut out, report, &home);
    not_counted(&mut out, report, &home);
    reads(&mut out, report, &home);
    files(&mut out, report, &home, verbose);
    findings(&mut out, report, &home, verbose);
    let legend = [
        LoadType::Always,
        LoadType::Startup,
        LoadType::Conditional,
        LoadType::OnDemand,
        LoadType::Tree,
        LoadType::Import,
        LoadType::Link,
    ]
    .map(|load| format!("{} {}", load.icon(), load.label().to_lowercase()))
    .join("  ");
    let _ = writeln!(out, "{DIM}{legend}{DIM:#}");
    let _ = writeln!(
        out,
        "{DIM}figures are characters as Claude Code counts them (UTF-16 units) of the text \
         as sent; (n) loads only sometimes and is not in every session{DIM:#}"
    );
    if !failures.is_empty() {
        out.push('\n');
        for failure in failures {
            let _ = writeln!(out, "{RED}gate failed:{RED:#} {failure}");
        }
    }
    out
}

/// Writes paths under the home folder as `~/…`.
struct Home<'a>(&'a str);

impl Home<'_> {
    fn show(&self, path: &str) -> String {
        match path.strip_prefix(self.0) {
            Some(rest) if rest.starts_with('/') => format!("~{rest}"),
            Some("") => "~".to_owned(),
            _ => path.to_owned(),
        }
    }
}

fn header(out: &mut String, report: &Report, home: &Home<'_>) {
    let context = &report.context;
    let project = context
        .project
        .as_deref()
        .map_or_else(|| "no project".to_owned(), |p| home.show(p));
    let rules = if context.version == "current" {
        format!(
            "the current rules (measured on Claude Code {})",
            memdiag_core::PINNED
        )
    } else {
        format!("the rules of Claude Code {}", context.version)
    };
    let _ = writeln!(out, "{BOLD}memdiag{BOLD:#} {project}: {rules}");
    let memory = match (&context.memory_dir, context.auto_memory_enabled) {
        (_, false) => "auto memory off".to_owned(),
        (Some(dir), true) => format!("memory {}", home.show(dir)),
        (None, true) => "no memory folder yet".to_owned(),
    };
    // A folder that does not exist yet, beside folders that may be this project's memory
    // from before a move or a rename.
    let memory = match context.project.as_deref() {
        Some(project)
            if context.auto_memory_enabled && !report.memory_folders.iter().any(|f| f.current) =>
        {
            let found = memdiag_core::memory_candidates(&report.memory_folders, project);
            match found.first() {
                Some(c) => format!(
                    "{memory} (none yet; moved? {} holds {} files)",
                    c.name, c.files
                ),
                None => memory,
            }
        }
        _ => memory,
    };
    let os = serde_json::to_value(context.os)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{DIM}home {} · config {} · {os} · {memory}{DIM:#}",
        context.home,
        home.show(&context.config_dir)
    );
    out.push('\n');
}

/// The verdict first: what is lost or broken, most harmful first, one line each; or one line
/// saying nothing is, with what every session costs.
fn verdict(out: &mut String, report: &Report, home: &Home<'_>) {
    if report.verdict.is_empty() {
        let _ = writeln!(
            out,
            "{GREEN}Nothing is lost or broken.{GREEN:#} Every session carries {} characters \
             (about {} tokens) from these files.\n",
            thousands(report.session.cost.total.total()),
            thousands(report.session.cost.tokens_estimate),
        );
        return;
    }
    let _ = writeln!(out, "{BOLD}What is lost or broken{BOLD:#}");
    for line in &report.verdict {
        let (style, mark) = match line.harm {
            Harm::Cuts | Harm::Drops => (RED, "✗"),
            Harm::Wastes => (YELLOW, "!"),
            Harm::Warns => (YELLOW, "·"),
        };
        let at = line
            .path
            .as_deref()
            .map(|p| match line.line {
                Some(n) => format!("  {DIM}{}:{n}{DIM:#}", home.show(p)),
                None => format!("  {DIM}{}{DIM:#}", home.show(p)),
            })
            .unwrap_or_default();
        let _ = writeln!(out, "{style}{mark}{style:#} {}{at}", line.message);
    }
    out.push('\n');
}

/// What the simulated release does otherwise than the pinned one, from the report's
/// comparison: nothing at all when no release is simulated.
fn simulated(out: &mut String, report: &Report, home: &Home<'_>) {
    let Some(comparison) = &report.comparison else {
        return;
    };
    let release = &report.rules.release;
    let pinned = memdiag_core::PINNED;
    if comparison.is_empty() {
        let _ = writeln!(
            out,
            "Claude Code {release} loads these files exactly as {pinned} does.\n"
        );
        return;
    }
    let _ = writeln!(
        out,
        "{YELLOW}Claude Code {release} differs from {pinned} here:{YELLOW:#}"
    );
    for figure in &comparison.figures {
        let _ = writeln!(
            out,
            "  {:<40} {:>10} -> {:>10}",
            figure.name.label(),
            thousands(figure.base),
            thousands(figure.other)
        );
    }
    for change in &comparison.rows {
        let what = match change.kind() {
            RowChangeKind::Added => format!("only {release} lists it"),
            RowChangeKind::Removed => format!("only {pinned} lists it"),
            RowChangeKind::Changed => "loads differently".to_owned(),
        };
        let _ = writeln!(out, "  file    {} ({what})", home.show(&change.path));
    }
    for finding in &comparison.findings_appeared {
        let _ = writeln!(out, "  finding only in {release}: {}", finding.code);
    }
    for finding in &comparison.findings_vanished {
        let _ = writeln!(out, "  finding only in {pinned}: {}", finding.code);
    }
    if !report.rules.not_reproduced.is_empty() {
        let _ = writeln!(
            out,
            "{DIM}  measured on {release} but not reproduced (figures approximate there): {}{DIM:#}",
            report.rules.not_reproduced.join("; ")
        );
    }
    out.push('\n');
}

fn session(out: &mut String, report: &Report) {
    let cost = &report.session.cost;
    let _ = writeln!(
        out,
        "{BOLD}Every session carries {} characters{BOLD:#}, about {} tokens \
         (estimated: characters / 4)",
        thousands(cost.total.total()),
        thousands(cost.tokens_estimate)
    );
    for (name, part) in [
        ("instruction block", cost.instruction_block),
        ("skills listing", cost.skills_listing),
        ("memory section", cost.memory_section),
        ("sub-agents listing", cost.agents),
    ] {
        let _ = writeln!(
            out,
            "  {name:<18} {:>9}   {DIM}yours {} · Claude Code's own text {}{DIM:#}",
            thousands(part.total()),
            thousands(part.user),
            thousands(part.claude_code)
        );
    }
    let later = &report.session.later;
    let figures: Vec<String> = [
        ("on a read below a folder", later.on_read),
        ("conditional rules", later.conditional_rules),
        ("on demand", later.on_demand),
        ("sub-agents' memory", later.agent_memory),
    ]
    .iter()
    .filter(|(_, figure)| figure.files > 0)
    .map(|(name, figure)| {
        format!(
            "{name} {} ({})",
            plural(figure.files, "file"),
            thousands(figure.utf16)
        )
    })
    .collect();
    if !figures.is_empty() {
        let _ = writeln!(
            out,
            "  later, not in every session: {}",
            figures.join(" · ")
        );
    }
    out.push('\n');
}

/// Plugins: each with its source and whether it loads.
fn plugins(out: &mut String, report: &Report, home: &Home<'_>) {
    let found = &report.session.plugins;
    if found.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{BOLD}Plugins:{BOLD:#} {} (their skills, commands and agents are listed as plugin:name)",
        plural(found.len() as u64, "plugin")
    );
    for plugin in found {
        let source = plugin
            .marketplace
            .as_deref()
            .map_or_else(|| "--plugin-dir".to_owned(), |m| format!("marketplace {m}"));
        let state = if plugin.enabled {
            "enabled"
        } else {
            "not enabled"
        };
        let _ = writeln!(
            out,
            "  {} {DIM}· {state} · {source} · {}{DIM:#}",
            plugin.name,
            home.show(&plugin.folder)
        );
    }
    out.push('\n');
}

/// Hooks and MCP servers: listed with where they are configured, never run, not counted.
fn not_counted(out: &mut String, report: &Report, home: &Home<'_>) {
    let found = &report.session.not_counted;
    if found.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{BOLD}Not counted:{BOLD:#} {} {} text that depends on running them; the \
         figure above leaves it out",
        found.len(),
        if found.len() == 1 {
            "hook or MCP server adds"
        } else {
            "hooks and MCP servers add"
        }
    );
    for item in found {
        let program = item
            .program
            .as_deref()
            .map(|p| format!(" runs {p}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}{program} {DIM}· {} · {} ({}){DIM:#}",
            item.describe(),
            item.when.label(),
            home.show(&item.path),
            item.layer.label()
        );
    }
    out.push('\n');
}

/// What each `--read` attaches, in the order asked.
fn reads(out: &mut String, report: &Report, home: &Home<'_>) {
    for read in &report.reads {
        let _ = write!(out, "{BOLD}A Read of {}{BOLD:#} ", home.show(&read.path));
        if let Some(note) = &read.note {
            let _ = writeln!(out, "attaches nothing: {note}");
            continue;
        }
        let _ = writeln!(
            out,
            "attaches {} and {} ({} characters)",
            plural(read.files.len() as u64, "file"),
            plural(read.skills.len() as u64, "announced skill"),
            thousands(read.cost.total())
        );
        for file in &read.files {
            let _ = writeln!(
                out,
                "  {:>9}  {}",
                thousands(file.loaded.utf16),
                home.show(&file.path)
            );
        }
    }
    if !report.reads.is_empty() {
        out.push('\n');
    }
}

fn files(out: &mut String, report: &Report, home: &Home<'_>, verbose: bool) {
    for group in Group::ALL {
        let rows: Vec<&FileRow> = report.files.iter().filter(|r| r.group == group).collect();
        let top = rows.iter().filter(|r| r.depth == 0).count();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{BOLD}{}{BOLD:#} ({top})", group.name());
        let mut at = 0;
        while at < rows.len() {
            let row = rows[at];
            let run = if verbose {
                1
            } else {
                rows[at..].iter().take_while(|r| same_kind(r, row)).count()
            };
            let fold = run >= FOLD_FROM;
            at += if fold { run } else { 1 };
            let indent = "  ".repeat(row.depth as usize);
            if fold {
                let last = rows[at - 1];
                let (_, status) = figure(row);
                let _ = writeln!(
                    out,
                    "{}  {indent}{DIM}{} {}: {} … {}{DIM:#}{status}",
                    " ".repeat(9),
                    row.load.icon(),
                    run_noun(row, run),
                    file_name(&row.path),
                    file_name(&last.path)
                );
                continue;
            }
            let style = if row.counted {
                Style::new()
            } else if row.load.is_muted() || row.status != FileStatus::Ok {
                DIM
            } else {
                Style::new()
            };
            let (number, status) = figure(row);
            let _ = writeln!(
                out,
                "{number}  {indent}{style}{} {}{style:#}{status}",
                row.load.icon(),
                home.show(&row.path)
            );
        }
    }
    out.push('\n');
}

/// True when `row` is of the kind of `first`: a sibling (the same parent and depth) that
/// loads the same way and came to the same end, with no figure of its own.
fn same_kind(row: &FileRow, first: &FileRow) -> bool {
    row.parent_index == first.parent_index
        && row.depth == first.depth
        && row.load == first.load
        && row.status == first.status
        && row.unresolved_reason == first.unresolved_reason
        && row.reference.as_ref().map(|r| r.kind) == first.reference.as_ref().map(|r| r.kind)
        && row.loaded.is_none()
        && row.skill_listing.is_none()
        && first.loaded.is_none()
        && first.skill_listing.is_none()
}

/// "230 index links lead nowhere", "20 topic files": what a folded run of rows is.
fn run_noun(row: &FileRow, run: usize) -> String {
    let noun = match row.reference.as_ref().map(|r| r.kind) {
        Some(ReferenceKind::Link) if row.group == Group::AutoMemory => "index links",
        Some(ReferenceKind::Link) => "links",
        Some(ReferenceKind::Import) => "imports",
        _ => "files",
    };
    match row.status {
        FileStatus::Unresolved => format!("{run} {noun} lead nowhere"),
        _ => format!("{run} {noun}"),
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The row's figure column (what it sends: plain when every session carries it, in
/// parentheses when only sometimes), and what became of it when that is not `ok`.
fn figure(row: &FileRow) -> (String, String) {
    let status = match row.status {
        FileStatus::Ok => String::new(),
        FileStatus::Unresolved => match row.unresolved_reason {
            Some(UnresolvedReason::OutsideSnapshot) => {
                "unresolved: outside what was read".to_owned()
            }
            Some(UnresolvedReason::NotLookedAt) => "unresolved: not looked at".to_owned(),
            _ => "unresolved: no such file".to_owned(),
        },
        other => status_word(other),
    };
    let status = if status.is_empty() {
        status
    } else {
        format!("  {YELLOW}{status}{YELLOW:#}")
    };
    // A skill sends its listing line in every session, not its body.
    let sent = row.loaded.or(row.skill_listing);
    let number = match (sent, row.counted) {
        (Some(sent), true) => format!("{:>9}", thousands(sent.utf16)),
        (Some(sent), false) => {
            format!("{DIM}{:>9}{DIM:#}", format!("({})", thousands(sent.utf16)))
        }
        (None, _) => " ".repeat(9),
    };
    (number, status)
}

/// The kebab-case word the report writes for a status (`too-deep`).
fn status_word(status: FileStatus) -> String {
    serde_json::to_value(status)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn findings(out: &mut String, report: &Report, home: &Home<'_>, verbose: bool) {
    let count = |severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count() as u64
    };
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    if report.diagnostics.is_empty() {
        let _ = writeln!(out, "{GREEN}No findings.{GREEN:#}\n");
        return;
    }
    let _ = writeln!(
        out,
        "{BOLD}Findings{BOLD:#}: {}, {}, {} info",
        plural(errors, "error"),
        plural(warnings, "warning"),
        infos
    );
    let mut sorted: Vec<_> = report.diagnostics.iter().collect();
    // The verdict's order: what drops instructions first, then by severity. Stable: within
    // both the report's own order stays.
    sorted.sort_by_key(|d| (d.code.harm(), d.severity));
    let place = |diagnostic: &Diagnostic| match (&diagnostic.path, diagnostic.line) {
        (Some(path), Some(line)) => format!(" {}:{line}", home.show(path)),
        (Some(path), None) => format!(" {}", home.show(path)),
        (None, _) => String::new(),
    };
    let style = |severity| match severity {
        Severity::Error => RED,
        Severity::Warning => YELLOW,
        Severity::Info => CYAN,
    };
    if verbose {
        // Every finding, with its message on a line of its own.
        for diagnostic in &sorted {
            let style = style(diagnostic.severity);
            let _ = writeln!(
                out,
                "  {style}{:<7}{style:#} {}{DIM}{}{DIM:#}",
                severity_name(diagnostic.severity),
                diagnostic.code,
                place(diagnostic)
            );
            let _ = writeln!(out, "          {}", diagnostic.message);
        }
        out.push('\n');
        return;
    }
    // One line each, the findings of one code (and severity) folded into one where the
    // first of them stands, as the verdict folds them.
    let mut runs: Vec<Vec<&Diagnostic>> = Vec::new();
    for diagnostic in &sorted {
        let same = |run: &&mut Vec<&Diagnostic>| {
            run[0].code == diagnostic.code && run[0].severity == diagnostic.severity
        };
        match runs.iter_mut().find(same) {
            Some(run) => run.push(diagnostic),
            None => runs.push(vec![diagnostic]),
        }
    }
    for run in runs.iter().take(TOP_FINDINGS) {
        let first = run[0];
        let style = style(first.severity);
        let (what, place) = match run.as_slice() {
            [one] => (one.message.clone(), place(one)),
            _ => {
                // The last place as short as it can be: its line alone in the same file,
                // else its file's name ("MEMORY.md:9 … line 230").
                let last = run[run.len() - 1];
                let last = match (&last.path, last.line) {
                    (Some(_), Some(line)) if last.path == first.path => format!(" line {line}"),
                    (Some(path), _) => format!(" {}", file_name(path)),
                    (None, _) => String::new(),
                };
                (
                    first.code.many().replace("{n}", &run.len().to_string()),
                    format!("{} …{last}", place(first)),
                )
            }
        };
        let _ = writeln!(
            out,
            "  {style}{:<7}{style:#} {}: {what}{DIM}{place}{DIM:#}",
            severity_name(first.severity),
            first.code
        );
    }
    let more: usize = runs.iter().skip(TOP_FINDINGS).map(|run| run.len()).sum();
    if more > 0 {
        let _ = writeln!(
            out,
            "  {DIM}and {more} more (--verbose lists every finding){DIM:#}"
        );
    }
    out.push('\n');
}

/// `n` and the noun, `s` added unless `n` is 1.
fn plural(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `12345` as `12,345`, as the page writes it.
pub(crate) fn thousands(n: u64) -> String {
    memdiag_core::group_digits(n)
}
