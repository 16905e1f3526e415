//! The Markdown format: a summary for a pull-request comment.
//!
//! What every session carries part by part, the files that send text, and every finding
//! (errors and warnings in a list, the rest folded away), then the gates that failed.

use std::fmt::Write as _;

use memdiag_core::report::{Report, Severity};

use crate::severity_name;
use crate::text::thousands;

/// The Markdown summary; `failures` are the gates the report fails.
pub(crate) fn render(report: &Report, failures: &[String]) -> String {
    let mut out = String::new();
    let home = &report.context.home;
    let show = |path: &str| match path.strip_prefix(home.as_str()) {
        Some(rest) if rest.starts_with('/') => format!("~{rest}"),
        _ => path.to_owned(),
    };
    let project = report
        .context
        .project
        .as_deref()
        .map_or_else(|| "no project".to_owned(), &show);
    let cost = &report.session.cost;
    let _ = writeln!(
        out,
        "## memdiag: what Claude Code loads in `{}`\n",
        code(&project)
    );
    if report.verdict.is_empty() {
        let _ = writeln!(
            out,
            "**Nothing is lost or broken.** Every session carries {} characters from these files.\n",
            crate::text::thousands(cost.total.total())
        );
    } else {
        let _ = writeln!(out, "**What is lost or broken**\n");
        for line in &report.verdict {
            let at = line
                .path
                .as_deref()
                .map(|p| format!(" (`{}`)", code(&show(p))))
                .unwrap_or_default();
            let _ = writeln!(out, "- {}{at}", escape(&line.message));
        }
        out.push('\n');
    }
    if failures.is_empty() {
        let _ = writeln!(out, "No gate failed.\n");
    } else {
        for failure in failures {
            let _ = writeln!(out, "**Gate failed:** {}  ", escape(failure));
        }
        out.push('\n');
    }
    if let Some(comparison) = &report.comparison {
        let release = &report.rules.release;
        let pinned = memdiag_core::PINNED;
        if comparison.is_empty() {
            let _ = writeln!(out, "Simulating Claude Code {release}: it loads these files exactly as {pinned} does.\n");
        } else {
            let _ = writeln!(
                out,
                "Simulating Claude Code {release}: it differs from {pinned} in {} files, {} findings more, {} findings fewer.\n",
                comparison.rows.len(),
                comparison.findings_appeared.len(),
                comparison.findings_vanished.len()
            );
            if !comparison.figures.is_empty() {
                let _ = writeln!(out, "| Figure | {pinned} | {release} |");
                let _ = writeln!(out, "| --- | ---: | ---: |");
                for figure in &comparison.figures {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} |",
                        figure.name.label(),
                        thousands(figure.base),
                        thousands(figure.other)
                    );
                }
                out.push('\n');
            }
        }
    }
    let _ = writeln!(
        out,
        "**Every session carries {} characters** (about {} tokens, estimated as characters / 4).\n",
        thousands(cost.total.total()),
        thousands(cost.tokens_estimate)
    );
    let _ = writeln!(out, "| Part | Yours | Claude Code's own text | Total |");
    let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
    for (name, part) in [
        ("Instruction block", cost.instruction_block),
        ("Skills listing", cost.skills_listing),
        ("Memory section", cost.memory_section),
        ("Sub-agents listing", cost.agents),
        ("**Every session**", cost.total),
    ] {
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} |",
            thousands(part.user),
            thousands(part.claude_code),
            thousands(part.total())
        );
    }
    out.push('\n');
    let sent = &report.session.files;
    if !sent.is_empty() {
        let _ = writeln!(out, "| | File sent in every session | Characters |");
        let _ = writeln!(out, "| --- | --- | ---: |");
        for file in sent {
            let icon = report.files.get(file.row).map_or("", |row| row.load.icon());
            let _ = writeln!(
                out,
                "| {icon} | `{}` | {} |",
                code(&show(&file.path)),
                thousands(file.loaded.utf16)
            );
        }
        out.push('\n');
    }
    if !report.session.plugins.is_empty() {
        let _ = writeln!(out, "| Plugin | Source | Loads | Folder |");
        let _ = writeln!(out, "| --- | --- | --- | --- |");
        for plugin in &report.session.plugins {
            let _ = writeln!(
                out,
                "| {} | {} | {} | `{}` |",
                escape(&plugin.name),
                plugin
                    .marketplace
                    .as_deref()
                    .map_or_else(|| "`--plugin-dir`".to_owned(), escape),
                if plugin.enabled { "yes" } else { "no" },
                code(&show(&plugin.folder))
            );
        }
        out.push('\n');
    }
    let not_counted = &report.session.not_counted;
    if !not_counted.is_empty() {
        let _ = writeln!(
            out,
            "**Not counted:** hooks and MCP servers add text that depends on running them, \
             which no file tells; the figure above leaves it out.\n"
        );
        let _ = writeln!(out, "| Hook or MCP server | Runs | When | Configured in |");
        let _ = writeln!(out, "| --- | --- | --- | --- |");
        for item in not_counted {
            let _ = writeln!(
                out,
                "| {} | {} | {} | `{}` ({}) |",
                escape(&item.describe()),
                item.program
                    .as_deref()
                    .map(|p| format!("`{}`", code(p)))
                    .unwrap_or_default(),
                item.when.label(),
                code(&show(&item.path)),
                item.layer.label()
            );
        }
        out.push('\n');
    }
    let mut serious: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    // Errors first; within a severity the report's own order stays.
    serious.sort_by_key(|d| d.severity);
    let infos: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Info)
        .collect();
    let finding = |d: &memdiag_core::Diagnostic| {
        let mark = match d.severity {
            Severity::Error => "🛑",
            Severity::Warning => "⚠️",
            Severity::Info => "ℹ️",
        };
        let place = match (&d.path, d.line) {
            (Some(path), Some(line)) => format!(" `{}:{line}`", code(&show(path))),
            (Some(path), None) => format!(" `{}`", code(&show(path))),
            (None, _) => String::new(),
        };
        format!(
            "- {mark} **{}** `{}`{place}: {}\n",
            severity_name(d.severity),
            d.code,
            escape(&d.message)
        )
    };
    if serious.is_empty() {
        let _ = writeln!(out, "No errors or warnings.\n");
    } else {
        let _ = writeln!(out, "### Findings\n");
        for d in serious {
            out.push_str(&finding(d));
        }
        out.push('\n');
    }
    if !infos.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} more worth knowing</summary>\n",
            infos.len()
        );
        for d in infos {
            out.push_str(&finding(d));
        }
        let _ = writeln!(out, "\n</details>\n");
    }
    let _ = writeln!(
        out,
        "<sub>memdiag {}, the rules measured on Claude Code {}{}. Characters are UTF-16 \
         units, as Claude Code counts them.</sub>",
        env!("CARGO_PKG_VERSION"),
        memdiag_core::PINNED,
        if report.context.version == "current" {
            String::new()
        } else {
            format!(", simulating {}", report.context.version)
        }
    );
    out
}

/// Text for inside a code span: a backtick would end it.
fn code(text: &str) -> String {
    text.replace('`', "'")
}

/// Text for a Markdown paragraph: no HTML, no accidental emphasis or links.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
