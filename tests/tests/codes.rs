//! The finding codes' registry (`core/src/report/codes.rs`) against what the analysis
//! produces: every finding has its code's declared severity, every code is produced by a
//! fixture, a rule case or one of the cases below, and `docs/codes.md` is the registry's.
//!
//! `MEMDIAG_BLESS=1 cargo test -p memdiag-tests --test codes` rewrites `docs/codes.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Write};

use memdiag_core::report::{Code, Report, Severity};
use memdiag_core::{analyze_with, mount_zip, Entry, Tree, ZipLimits};
use memdiag_tests::{fixture_dirs, workspace_root, Fixture};

/// The releases every fixture is also analysed under, besides the pinned one: each era of
/// the rules that changes which findings appear.
const RELEASES: &[&str] = &["2.1.80", "2.1.120"];

/// Codes that only the `memdiag` command's native reader produces, with the test that
/// produces and checks each; the corpus here cannot reach the disk.
const PRODUCED_BY_THE_COMMAND: &[(Code, &str)] = &[(Code::ScanSkipped, "core/tests/memdiag.rs")];

/// One tree per code that no fixture or rule case produces, in the `//-` form of
/// [`Fixture::parse`]. Each must produce its code.
fn cases() -> Vec<(Code, String)> {
    let project = "//@ project=/home/alice/app\n//- /home/alice/app/.git/HEAD\nref: main\n";
    let memory = "/home/alice/.claude/projects/-home-alice-app/memory";
    let long = |chars: usize| "x".repeat(chars);
    let lines = |n: usize| (1..=n).map(|i| format!("- line {i}\n")).collect::<String>();
    vec![
        (
            Code::AgentMemoryMissing,
            "//- /home/alice/.claude/agents/rev.md\n---\nname: rev\ndescription: Reviews\n\
             memory: user\n---\nReview.\n"
                .to_owned(),
        ),
        (
            Code::AutoMemoryDisabled,
            format!("{project}//- /home/alice/.claude/settings.json\n{{\"autoMemoryEnabled\": false}}\n"),
        ),
        (
            Code::ClaudeLocalMdNeverRead,
            format!("{project}//- /home/alice/app/.claude/CLAUDE.local.md\nNever read.\n"),
        ),
        (
            Code::CommandShadowed,
            format!(
                "{project}//- /home/alice/app/.claude/commands/lint.md\nLint the code.\n\
                 //- /home/alice/.claude/commands/lint.md\nLint it my way.\n"
            ),
        ),
        (
            Code::SkillDuplicateName,
            format!(
                "{project}//- /home/alice/app/.claude/skills/lint/SKILL.md\n---\nname: lint\n\
                 description: Lint.\n---\n//- /home/alice/.claude/skills/check/SKILL.md\n---\n\
                 name: lint\ndescription: Also lint.\n---\n"
            ),
        ),
        (
            Code::SentTwice,
            format!(
                "{project}//- /home/alice/app/CLAUDE.md\n{words}\n\
                 //- /home/alice/app/CLAUDE.local.md\n{words}\n",
                words = "The same words in two files, long enough to count."
            ),
        ),
        (
            Code::ClaudeMdSkipped,
            format!("{project}//- /home/alice/app/CLAUDE.md size=5000000\n"),
        ),
        (
            Code::ClaudeMdTooLarge,
            format!("{project}//- /home/alice/app/CLAUDE.md\n{}\n", long(40_001)),
        ),
        (
            Code::FileNotRead,
            format!("{project}//- /home/alice/app/.claude/skills/big/SKILL.md size=70000000\n"),
        ),
        (
            Code::FileUnreadable,
            format!("{project}//- /home/alice/app/CLAUDE.md size=10\n"),
        ),
        (
            Code::HookMatcherUndecided,
            format!(
                "{project}//- /home/alice/.claude/settings.json\n{{\"hooks\": {{\"SessionStart\": \
                 [{{\"matcher\": \"(?<a>s)(?<a>t)\", \"hooks\": [{{\"type\": \"command\", \
                 \"command\": \"echo hi\"}}]}}]}}}}\n"
            ),
        ),
        (
            Code::ImportNeedsApproval,
            format!(
                "{project}//- /home/alice/app/CLAUDE.md\nSee @/home/alice/notes.md\n\
                 //- /home/alice/notes.md\nNotes.\n"
            ),
        ),
        (
            Code::ImportNotText,
            format!(
                "{project}//- /home/alice/app/CLAUDE.md\nSee @logo.png\n//- /home/alice/app/logo.png\nx\n"
            ),
        ),
        (
            Code::ImportTooDeep,
            format!(
                "{project}//- /home/alice/app/CLAUDE.md\n@a1.md\n//- /home/alice/app/a1.md\n@a2.md\n\
                 //- /home/alice/app/a2.md\n@a3.md\n//- /home/alice/app/a3.md\n@a4.md\n\
                 //- /home/alice/app/a4.md\n@a5.md\n//- /home/alice/app/a5.md\n@a6.md\n\
                 //- /home/alice/app/a6.md\nDeep.\n"
            ),
        ),
        (
            Code::InstructionsTooLarge,
            format!(
                "{project}//- /home/alice/.claude/CLAUDE.md\n{a}\n//- /home/alice/app/CLAUDE.md\n{a}\n\
                 //- /home/alice/app/CLAUDE.local.md\n{a}\n//- /home/alice/app/.claude/CLAUDE.md\n{a}\n",
                a = long(35_000)
            ),
        ),
        (
            Code::InvalidFrontmatter,
            format!("{project}//- /home/alice/app/.claude/rules/broken.md\n---\npaths: [\n  bad: x: y\n---\nRule.\n"),
        ),
        (
            Code::InvalidSettings,
            format!("{project}//- /home/alice/app/.claude/settings.json\n{{not json\n"),
        ),
        (
            Code::InvalidUtf8,
            // ASCII written as UTF-16LE: valid UTF-8 to the fixture, UTF-16 to the analysis.
            format!("{project}//- /home/alice/app/CLAUDE.md\nR\0u\0l\0e\0s\0 \0h\0e\0r\0e\0\n"),
        ),
        (
            Code::MemoryFileNoType,
            format!(
                "{project}//- {memory}/MEMORY.md\n- [Topic](topic.md)\n//- {memory}/topic.md\n\
                 ---\nname: topic\nmodified: 2026-11-01\n---\nA topic.\n"
            ),
        ),
        (
            Code::MemoryFolderCollision,
            "//@ project=/home/alice/my.app\n//- /home/alice/my.app/.git/HEAD\nx\n\
             //- /home/alice/my-app/README.md\nx\n\
             //- /home/alice/.claude/projects/-home-alice-my-app/memory/MEMORY.md\n- x\n"
                .to_owned(),
        ),
        (
            Code::MemoryFolderEmpty,
            format!("{project}//- {memory}/notes.txt\nNot Markdown.\n"),
        ),
        (
            Code::MemoryFolderNoGit,
            "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\nNo git here.\n".to_owned(),
        ),
        (
            Code::MemoryFolderNotFound,
            format!("{project}//- /home/alice/app/CLAUDE.md\nNo memory yet.\n"),
        ),
        (
            Code::MemoryIndexBackfilled,
            format!("{project}//- {memory}/topic.md\n---\nname: topic\ntype: user\n---\nA topic.\n"),
        ),
        (
            Code::MemoryIndexImport,
            format!(
                "{project}//- {memory}/MEMORY.md\n- @other.md\n//- {memory}/other.md\nOther.\n"
            ),
        ),
        (
            Code::MemoryIndexLongLine,
            format!("{project}//- {memory}/MEMORY.md\n- {}\n", long(250)),
        ),
        (
            Code::MemoryIndexNearLimit,
            format!("{project}//- {memory}/MEMORY.md\n{}", lines(170)),
        ),
        (
            Code::MemoryNothingSaved,
            format!("{project}//- {memory}/MEMORY.md\n# Memory\n"),
        ),
        (
            Code::MemoryTopicCutOff,
            format!(
                "{project}//- {memory}/MEMORY.md\n{}- [Late](late.md)\n//- {memory}/late.md\n\
                 ---\nname: late\ntype: user\nmodified: 2026-11-01\n---\nLate.\n",
                lines(210)
            ),
        ),
        (
            Code::RulePathsInvalid,
            format!("{project}//- /home/alice/app/.claude/rules/none.md\n---\npaths: []\n---\nRule.\n"),
        ),
        (
            Code::SkillDescriptionTruncated,
            format!(
                "{project}//- /home/alice/app/.claude/skills/wordy/SKILL.md\n---\nname: wordy\n\
                 description: {}\n---\nBody.\n",
                long(5_000)
            ),
        ),
        (
            Code::SkillNoDescription,
            format!(
                "{project}//- /home/alice/app/.claude/skills/bare/SKILL.md\n---\nname: bare\n---\nBody.\n"
            ),
        ),
        (
            Code::SkillTooDeep,
            format!(
                "{project}//- /home/alice/app/.claude/skills/group/deep/SKILL.md\n---\nname: deep\n\
                 description: Too deep\n---\nBody.\n"
            ),
        ),
    ]
}

/// The reports of every fixture (pinned and under [`RELEASES`]) and every rule case.
fn corpus() -> Vec<(String, Report)> {
    let mut reports = Vec::new();
    for dir in fixture_dirs() {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for release in std::iter::once(None).chain(RELEASES.iter().copied().map(Some)) {
            let mut fixture = Fixture::load_dir(&dir);
            fixture.input.version = release.map(str::to_owned);
            let label = format!("fixtures/{name} ({})", release.unwrap_or("pinned"));
            reports.push((label, fixture.analyze()));
        }
    }
    let mut rules: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
        .expect("fixtures/rules exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    rules.sort();
    for path in rules {
        let text = std::fs::read_to_string(&path).expect("a readable case");
        let tree = text
            .split_once("//= rows\n")
            .map_or(text.as_str(), |(t, _)| t);
        // `//> path` lines are Reads to answer (tests/tests/cases.rs), not file contents.
        let reads: Vec<String> = tree
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("//> "))
            .map(|p| p.trim().to_owned())
            .collect();
        let files: String = tree
            .lines()
            .filter(|l| !l.trim_start().starts_with("//> "))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut fixture = Fixture::parse(&files);
        fixture.input.reads = reads;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        reports.push((format!("fixtures/rules/{name}"), fixture.analyze()));
    }
    for (code, tree) in cases() {
        reports.push((format!("the {code} case"), Fixture::parse(&tree).analyze()));
    }
    reports.push(("the zip cases".to_owned(), zip_report()));
    reports.push(("the invalid path case".to_owned(), invalid_path_report()));
    reports
}

/// A source that lists a relative path and a mount that is no absolute path.
fn invalid_path_report() -> Report {
    let mut fixture = Fixture::parse("//@ home=/home/alice\n");
    let entry = Entry {
        path: "relative/CLAUDE.md".to_owned(),
        size: 1,
        bytes: None,
        modified: None,
    };
    let mut tree = Tree::from_entries(&["/home/alice", "not/absolute"], [entry]);
    analyze_with(&mut tree, &fixture.input, &mut fixture.source).expect("the analysis runs")
}

/// A zip with an entry that escapes its root and more entries than the limits mount.
fn zip_report() -> Report {
    let mut bytes = Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut bytes);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for (name, text) in [
            ("CLAUDE.md", "Hello.\n"),
            ("../escape.md", "Out.\n"),
            ("rules/a.md", "A rule.\n"),
            ("rules/b.md", "Past the cap.\n"),
        ] {
            zip.start_file(name, options).expect("an entry starts");
            zip.write_all(text.as_bytes()).expect("an entry is written");
        }
        zip.finish().expect("the archive is finished");
    }
    let fixture = Fixture::parse("//@ home=/home/alice\n");
    let mut tree = Tree::new();
    let limits = ZipLimits {
        max_entries: 3,
        ..ZipLimits::default()
    };
    let mut source = mount_zip(&mut tree, "/home/alice/.claude", bytes.into_inner(), limits)
        .expect("the archive mounts");
    analyze_with(&mut tree, &fixture.input, &mut source).expect("the analysis runs")
}

#[test]
fn every_case_produces_its_code() {
    let mut failures = Vec::new();
    for (code, tree) in cases() {
        let report = Fixture::parse(&tree).analyze();
        if !report.diagnostics.iter().any(|d| d.code == code) {
            let found: BTreeSet<Code> = report.diagnostics.iter().map(|d| d.code).collect();
            failures.push(format!("the {code} case produces {found:?}"));
        }
    }
    let zip = zip_report();
    for code in [Code::ZipEntryRejected, Code::ZipTooManyEntries] {
        if !zip.diagnostics.iter().any(|d| d.code == code) {
            failures.push(format!("the zip cases do not produce {code}"));
        }
    }
    let invalid = invalid_path_report();
    if !invalid
        .diagnostics
        .iter()
        .any(|d| d.code == Code::InvalidPath)
    {
        failures.push("the invalid path case does not produce invalid-path".to_owned());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_finding_has_its_codes_severity() {
    let mut failures = Vec::new();
    for (label, report) in corpus() {
        for d in &report.diagnostics {
            if !d.code.severity_varies() && d.severity != d.code.severity() {
                failures.push(format!(
                    "{label}: {} is {:?}, but the registry declares {:?} ({})",
                    d.code,
                    d.severity,
                    d.code.severity(),
                    d.message
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "a finding's severity differs from its code's (core/src/report/codes.rs): declare \
         the code `varies`, or use the declared severity:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_code_is_produced_by_a_fixture_or_a_case() {
    let mut produced: BTreeMap<Code, String> = BTreeMap::new();
    for (label, report) in corpus() {
        for d in &report.diagnostics {
            produced.entry(d.code).or_insert_with(|| label.clone());
        }
    }
    let mut missing = Vec::new();
    for code in Code::ALL {
        if produced.contains_key(&code) {
            continue;
        }
        match PRODUCED_BY_THE_COMMAND.iter().find(|(c, _)| *c == code) {
            Some((_, test)) => {
                let text = std::fs::read_to_string(workspace_root().join(test))
                    .unwrap_or_else(|e| panic!("cannot read {test}: {e}"));
                if !text.contains(&format!("\"{}\"", code.as_str())) {
                    missing.push(format!("{code} (its test, {test}, no longer checks it)"));
                }
            }
            None => missing.push(code.to_string()),
        }
    }
    assert!(
        missing.is_empty(),
        "no fixture or case produces these codes; add a tree to `cases()` in \
         tests/tests/codes.rs (or remove a code nothing can produce):\n{}",
        missing.join("\n")
    );
}

/// `docs/codes.md`, generated from the registry.
fn codes_markdown() -> String {
    let mut out = String::from(
        "# Finding codes\n\n\
         <!-- Generated from core/src/report/codes.rs by tests/tests/codes.rs; do not edit.\n\
         \x20    Regenerate: MEMDIAG_BLESS=1 cargo test -p memdiag-tests --test codes -->\n\n\
         Every finding the report, the page and the `memdiag` command show carries one of these\n\
         codes. The code is the `code` of a finding in the JSON report and the rule id in SARIF.\n\
         The severity is the code's own; a code marked *varies* is produced at more than one.\n\n\
         | Code | Severity | Summary |\n| --- | --- | --- |\n",
    );
    for code in Code::ALL {
        out.push_str(&format!(
            "| [`{name}`](#{name}) | {severity} | {summary} |\n",
            name = code.as_str(),
            severity = severity_label(code),
            summary = code.summary().replace('\n', " ").replace('|', "\\|"),
        ));
    }
    for code in Code::ALL {
        out.push_str(&format!(
            "\n## {name}\n\n*{severity}.* {doc}\n",
            name = code.as_str(),
            severity = severity_label(code),
            doc = code.doc(),
        ));
    }
    out
}

fn severity_label(code: Code) -> String {
    let name = match code.severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    if code.severity_varies() {
        format!("{name} (varies)")
    } else {
        name.to_owned()
    }
}

#[test]
fn the_codes_document_is_generated_from_the_registry() {
    let path = workspace_root().join("docs/codes.md");
    let expected = codes_markdown();
    if std::env::var_os("MEMDIAG_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("docs/codes.md is writable");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/codes.md is stale: regenerate it with\n  \
         MEMDIAG_BLESS=1 cargo test -p memdiag-tests --test codes\nand commit the result"
    );
}
