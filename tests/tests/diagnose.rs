//! Every finding of the health view: a tree where it fires and one where it must not.

use memdiag_core::report::{Code, CutBy, DiagnosticData, ReasonId, Report};
use memdiag_core::VPath;
use memdiag_tests::{codes, render, Fixture};

fn analyze(fixture: &str) -> Report {
    Fixture::parse(fixture).analyze()
}

fn analyze_as(version: &str, fixture: &str) -> Report {
    let mut fixture = Fixture::parse(fixture);
    fixture.input.version = Some(version.to_owned());
    fixture.analyze()
}

/// Asserts that `code` fires for `fires` and not for `quiet`.
#[track_caller]
fn fires(code: Code, fires: &str, quiet: &str) {
    let with = analyze(fires);
    assert!(
        codes(&with).contains(&code),
        "{code} did not fire:\n{:#?}",
        with.diagnostics
    );
    let without = analyze(quiet);
    assert!(
        !codes(&without).contains(&code),
        "{code} fired where it must not:\n{:#?}",
        without.diagnostics
    );
}

const MEMORY: &str = "/home/alice/.claude/projects/-home-alice-app/memory";

fn with_git(body: &str) -> String {
    format!("//@ project=/home/alice/app\n//- /home/alice/app/.git/HEAD\nref: main\n{body}")
}

#[test]
fn memory_folder_not_found_and_empty() {
    fires(
        Code::MemoryFolderNotFound,
        &with_git(""),
        &with_git(&format!("//- {MEMORY}/MEMORY.md\n- x\n")),
    );
    let mut empty = Fixture::parse(&with_git(&format!(
        "//- {MEMORY}/notes.txt\nnot markdown\n"
    )));
    let report = empty.analyze();
    assert!(codes(&report).contains(&Code::MemoryFolderEmpty));
    let reason = &report.health.reasons[0];
    assert_eq!(reason.id, ReasonId::DifferentFolder);
    assert!(!reason.ok);
}

#[test]
fn memory_folder_lookalikes_are_named() {
    fires(
        Code::MemoryFolderLookalike,
        &with_git(&format!(
            "//- {MEMORY}/MEMORY.md\n- x\n//- /home/alice/.claude/projects/-home-alice-app-packages-web/memory/MEMORY.md\n- started in a subfolder\n"
        )),
        &with_git(&format!(
            "//- {MEMORY}/MEMORY.md\n- x\n//- /home/alice/.claude/projects/-home-alice-other/memory/MEMORY.md\n- another project\n"
        )),
    );
    // A folder ending with the same two folder names is named too; it is never used, and the
    // folder Claude Code will create does not exist yet.
    let report = analyze(
        "//@ project=/home/alice/app\n//- /home/alice/.claude/projects/-old-disk-alice-app/memory/MEMORY.md\n- x\n",
    );
    let found = codes(&report);
    assert!(
        found.contains(&Code::MemoryFolderLookalike) && found.contains(&Code::MemoryFolderNotFound)
    );
}

/// Issue 33: a project dropped under another name (here `/home/alice/shop-copy`, cloned from
/// `shop`) finds no memory folder of its own; the folders that may be its memory are offered
/// in the first reason's summary, most likely first, with the one Claude Code uses and why.
#[test]
fn a_project_under_another_name_is_offered_its_old_memory_folders() {
    let report = analyze(
        "//@ project=/home/alice/work/shop-copy
         //- /home/alice/work/shop-copy/.git/HEAD
ref: main
         //- /home/alice/work/shop-copy/.git/config
[core]
\turl = nope
[remote \"upstream\"]
\turl = https://example.com/x/other.git
[remote \"origin\"]
\turl = git@github.com:alice/shop.git
         //- /home/alice/.claude/projects/-Users-alice-src-shop/memory/MEMORY.md
- [a](a.md)
         //- /home/alice/.claude/projects/-Users-alice-src-shop/memory/a.md
a
         //- /home/alice/.claude/projects/-mnt-old-work-shop-copy/memory/MEMORY.md
- x
         //- /home/alice/.claude/projects/-home-alice-unrelated/memory/MEMORY.md
- x
",
    );
    let reason = &report.health.reasons[0];
    assert_eq!(reason.id, ReasonId::DifferentFolder);
    assert!(!reason.ok);
    let summary = &reason.summary;
    assert!(
        summary.contains(
            "Claude Code uses /home/alice/.claude/projects/-home-alice-work-shop-copy/memory \
             (the project's path, encoded)"
        ),
        "{summary}"
    );
    // The same last two folder names first, then the remote's repository name.
    let two = summary
        .find("-mnt-old-work-shop-copy: ends with the same last 2 folder names as this project (work/shop-copy), 1 file")
        .expect(summary);
    let remote = summary
        .find("-Users-alice-src-shop: ends with shop, the repository of this project's git remote (git@github.com:alice/shop.git), 2 files")
        .expect(summary);
    assert!(two < remote, "{summary}");
    assert!(!summary.contains("unrelated"), "{summary}");
    assert!(reason.note.as_deref().is_some_and(|n| n.contains("rename")));
    // Each folder found by its name is a finding of its own, which the reason lists; the
    // remote's is in the summary only (a shared copy's remote is placeholders).
    let lookalikes = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::MemoryFolderLookalike)
        .count();
    assert_eq!(lookalikes, 1);

    // With its own folder there, nothing is offered.
    let found = analyze(
        "//@ project=/home/alice/work/shop-copy
         //- /home/alice/.claude/projects/-home-alice-work-shop-copy/memory/MEMORY.md
- x
         //- /home/alice/.claude/projects/-Users-alice-src-shop-copy/memory/MEMORY.md
- x
",
    );
    assert!(!found.health.reasons[0].summary.contains("may hold"));
}

#[test]
fn two_projects_that_encode_alike_collide() {
    fires(
        Code::MemoryFolderCollision,
        "//@ project=/home/alice/my.app\n//- /home/alice/my.app/.git/HEAD\nx\n//- /home/alice/my-app/README.md\nx\n//- /home/alice/.claude/projects/-home-alice-my-app/memory/MEMORY.md\n- x\n",
        "//@ project=/home/alice/my.app\n//- /home/alice/my.app/.git/HEAD\nx\n//- /home/alice/my-apps/README.md\nx\n//- /home/alice/.claude/projects/-home-alice-my-app/memory/MEMORY.md\n- x\n",
    );
}

#[test]
fn a_project_outside_git_is_keyed_by_its_own_folder() {
    fires(
        Code::MemoryFolderNoGit,
        "//@ project=/home/alice/app\n",
        &with_git(""),
    );
}

#[test]
fn nothing_saved_yet() {
    fires(
        Code::MemoryNothingSaved,
        &with_git(&format!("//- {MEMORY}/MEMORY.md\n- only an index\n")),
        &with_git(&format!(
            "//- {MEMORY}/MEMORY.md\n- [a](a.md)\n//- {MEMORY}/a.md\n---\ntype: user\n---\na\n"
        )),
    );
}

#[test]
fn switched_off_names_every_settings_file_and_the_winner() {
    let report = analyze(&with_git(&format!(
        "//- /home/alice/.claude/settings.json\n{{\"autoMemoryEnabled\": true}}\n//- /home/alice/app/.claude/settings.json\n{{\"autoMemoryEnabled\": false}}\n//- {MEMORY}/MEMORY.md\n- x\n"
    )));
    let reason = &report.health.reasons[2];
    assert_eq!(reason.id, ReasonId::SwitchedOff);
    assert!(!reason.ok);
    assert!(reason
        .summary
        .contains("/home/alice/.claude/settings.json says true"));
    assert!(reason
        .summary
        .contains("/home/alice/app/.claude/settings.json says false"));
    assert!(reason
        .note
        .as_deref()
        .unwrap_or_default()
        .contains("CLAUDE_CODE_DISABLE_AUTO_MEMORY"));
    fires(
        Code::AutoMemoryDisabled,
        "//- /home/alice/.claude/settings.json\n{\"autoMemoryEnabled\": false}\n",
        "//- /home/alice/.claude/settings.json\n{\"autoMemoryEnabled\": true}\n",
    );
}

#[test]
fn agents_declare_their_memory_and_orphans_are_found() {
    let agent = "//- /home/alice/.claude/agents/reviewer.md\n---\nname: reviewer\ndescription: Reviews.\nmemory: user\n---\nReview.\n";
    fires(
        Code::AgentMemoryMissing,
        agent,
        &format!("{agent}//- /home/alice/.claude/agent-memory/reviewer/MEMORY.md\n- x\n"),
    );
    fires(
        Code::AgentMemoryOrphan,
        "//- /home/alice/.claude/agent-memory/planner/MEMORY.md\n- x\n",
        &format!("{agent}//- /home/alice/.claude/agent-memory/reviewer/MEMORY.md\n- x\n"),
    );
    // Without a description the file is no agent (measured on 2.1.328), so the folder its
    // memory would use is nobody's.
    fires(
        Code::AgentMemoryOrphan,
        &format!(
            "{}//- /home/alice/.claude/agent-memory/reviewer/MEMORY.md\n- x\n",
            agent.replace("description: Reviews.\n", "")
        ),
        &format!("{agent}//- /home/alice/.claude/agent-memory/reviewer/MEMORY.md\n- x\n"),
    );
    let report = analyze(agent);
    assert_eq!(report.health.agents.len(), 1);
    assert_eq!(
        report.health.agents[0].memory_dir.as_deref(),
        Some("/home/alice/.claude/agent-memory/reviewer")
    );
    // A spawned sub-agent receives the session's files, the main MEMORY.md included, and its
    // own index; a declared folder without one gives the program's "currently empty" line.
    let session =
        format!("//- /home/alice/app/CLAUDE.md\nproject\n//- {MEMORY}/MEMORY.md\n- main\n");
    let empty =
        "Your MEMORY.md is currently empty. When you save new memories, they will appear here.";
    for (own, index) in [
        (
            "//- /home/alice/.claude/agent-memory/reviewer/MEMORY.md\n- x\n",
            "- x".len(),
        ),
        ("", empty.len()),
    ] {
        let report = analyze(&with_git(&format!("{agent}{own}{session}")));
        let reviewer = &report.health.agents[0];
        let received: Vec<&str> = reviewer.receives.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            received,
            [
                "/home/alice/app/CLAUDE.md".to_owned(),
                format!("{MEMORY}/MEMORY.md")
            ]
        );
        assert_eq!(reviewer.receives, report.session.files);
        assert_eq!(reviewer.memory_index.map(|m| m.utf16), Some(index as u64));
    }
}

#[test]
fn a_truncated_index_lists_what_it_drops_and_flags_corrections() {
    let mut lines: String = (1..=200)
        .map(|i| format!("- [entry {i}](t{}.md)\n", i % 5))
        .collect();
    lines.push_str("- the build is not npm\n- [again](t1.md) revisited\n- plain new entry\n");
    let report = analyze(&with_git(&format!("//- {MEMORY}/MEMORY.md\n{lines}")));
    let finding = report
        .diagnostics
        .iter()
        .find(|d| d.code == Code::MemoryIndexTruncated)
        .expect("truncated");
    assert_eq!(finding.line, Some(201));
    let Some(DiagnosticData::DroppedEntries { entries, more: 0 }) = &finding.data else {
        panic!("no dropped entries: {finding:?}");
    };
    let flags: Vec<(u64, bool)> = entries.iter().map(|e| (e.line, e.correction)).collect();
    assert_eq!(flags, [(201, true), (202, true), (203, false)]);
    assert!(finding
        .message
        .contains("2 of the dropped entries look like corrections"));
    assert!(!report.health.reasons[4].ok);

    let fine = analyze(&with_git(&format!("//- {MEMORY}/MEMORY.md\n- one entry\n")));
    assert!(fine.health.reasons[4].ok);
}

#[test]
fn memory_health_figures() {
    // Claude Code's warning asks for "one line under ~200 chars": 201 is long, 200 is not.
    let line = |chars: usize| format!("- [a](a.md) {}", "x".repeat(chars - 12));
    let long = line(201);
    let report = analyze(&with_git(&format!(
        "//- {MEMORY}/MEMORY.md\n{long}\n- [gone](gone.md)\n- 한국어\n\
         //- {MEMORY}/a.md\n---\ntype: feedback\nmodified: 2026-11-20T10:00:00Z\n---\na\n\
         //- {MEMORY}/b.md\n---\ntype: opinion\n---\nb\n\
         //- {MEMORY}/c.md\nno frontmatter\n"
    )));
    let found = codes(&report);
    for code in [
        Code::MemoryIndexLongLine,
        Code::MemoryFileNoTimestamp,
        Code::MemoryTopicOrphan,
        Code::MemoryFileNoType,
        Code::UnresolvedReference,
    ] {
        assert!(found.contains(&code), "{code} missing: {found:?}");
    }
    let m = &report.health.memories[0];
    assert_eq!((m.index_lines, m.long_lines, m.topic_files), (3, 1, 3));
    assert_eq!((m.without_timestamp, m.orphan_topics), (2, 2));
    assert_eq!(m.types.get("feedback"), Some(&1));
    assert_eq!(m.types.get("unknown"), Some(&1));
    assert_eq!(m.types.get("none"), Some(&1));
    // "- 한국어" is 5 characters and 11 bytes: bytes run ahead of characters.
    assert!(m.mean_line_bytes > m.mean_line_chars);

    let quiet = analyze(&with_git(&format!(
        "//- {MEMORY}/MEMORY.md\n{}\n//- {MEMORY}/a.md\n---\ntype: user\nmodified: 2026-11-20\n---\na\n",
        line(200)
    )));
    let found = codes(&quiet);
    for code in [
        Code::MemoryIndexLongLine,
        Code::MemoryFileNoTimestamp,
        Code::MemoryTopicOrphan,
        Code::MemoryFileNoType,
    ] {
        assert!(!found.contains(&code), "{code} fired: {found:?}");
    }
}

#[test]
fn growth_is_projected_from_a_pinned_date() {
    let topics: String = (0..12)
        .map(|i| {
            format!(
                "//- {MEMORY}/t{i}.md\n---\ntype: project\nmodified: 2026-11-{:02}\n---\nx\n",
                1 + i * 2
            )
        })
        .collect();
    let index: String = (0..150)
        .map(|i| format!("- [t](t{}.md)\n", i % 12))
        .collect();
    let mut fixture = Fixture::parse(&with_git(&format!(
        "//- {MEMORY}/MEMORY.md\n{index}{topics}"
    )));
    fixture.input.today = Some("2026-11-30".to_owned());
    let report = fixture.analyze();
    assert_eq!(report.context.today.as_deref(), Some("2026-11-30"));
    let growth = report.health.memories[0]
        .growth
        .clone()
        .expect("a date was given");
    // Twelve files in 60 days is 1.4 a week: 10 lines to 160 take 50 days, 50 to 200 take 250.
    assert_eq!(growth.files_per_week, 1.4);
    assert_eq!(growth.reaches_80_percent.as_deref(), Some("2027-01-19"));
    assert_eq!(growth.reaches_limit.as_deref(), Some("2027-08-07"));
    assert_eq!(growth.history.last().map(|w| w.count), Some(150));
    assert!(Fixture::parse(&with_git(""))
        .analyze()
        .health
        .memories
        .is_empty());
}

/// A topic file without a `modified` stamp is dated by its file time when the source gave
/// one, and the growth view counts how many were (its note under the chart says so).
#[test]
fn growth_counts_the_files_dated_by_their_file_time() {
    let mut fixture = Fixture::parse(&with_git(&format!(
        "//- {MEMORY}/MEMORY.md\n- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n\
         //- {MEMORY}/a.md\n---\ntype: project\nmodified: 2026-11-20\n---\na\n\
         //- {MEMORY}/b.md\nno stamp, a file time\n\
         //- {MEMORY}/c.md\nno stamp, no file time\n"
    )));
    let stamped = VPath::new(&format!("{MEMORY}/b.md")).unwrap();
    let mut entry = fixture.tree.file(&stamped).unwrap().clone();
    entry.modified = Some("2026-11-25T08:00:00Z".to_owned());
    fixture.tree.insert(stamped, entry);
    fixture.input.today = Some("2026-11-30".to_owned());
    let report = fixture.analyze();
    let memory = &report.health.memories[0];
    assert_eq!(memory.without_timestamp, 2);
    let growth = memory.growth.as_ref().expect("a date was given");
    assert_eq!(growth.dated_by_file_time, 1);
}

#[test]
fn rule_findings() {
    let project = "//@ project=/home/alice/app mounts=/home/alice\n//- /home/alice/app/src/main.go\npackage main\n";
    fires(
        Code::RulePathsInvalid,
        &format!(
            "{project}//- /home/alice/app/.claude/rules/r.md\n---\npaths: \"src/[a\"\n---\nx\n"
        ),
        &format!(
            "{project}//- /home/alice/app/.claude/rules/r.md\n---\npaths: \"src/*.go\"\n---\nx\n"
        ),
    );
    fires(
        Code::RulePathsInvalid,
        &format!("{project}//- /home/alice/app/.claude/rules/r.md\n---\npaths: \"\"\n---\nx\n"),
        &format!("{project}//- /home/alice/app/.claude/rules/r.md\nno frontmatter\n"),
    );
    fires(
        Code::RuleNeverMatches,
        &format!(
            "{project}//- /home/alice/app/.claude/rules/r.md\n---\npaths: \"**/*.py\"\n---\nx\n"
        ),
        &format!(
            "{project}//- /home/alice/app/.claude/rules/r.md\n---\npaths: \"**/*.go\"\n---\nx\n"
        ),
    );
    // Without the project folder in the snapshot nothing can be said about matches.
    let unknown = analyze(
        "//@ project=/home/alice/app mounts=/home/alice/.claude\n//- /home/alice/app/.claude/rules/r.md\n---\npaths: \"**/*.py\"\n---\nx\n",
    );
    assert!(!codes(&unknown).contains(&Code::RuleNeverMatches));
    // A user rule's paths work, relative to the project (measured on 2.1.328; public issue
    // 22170 had reported them unreliable): it attaches on a matching Read, and is judged
    // against the project's files like the project's own.
    let user_rule = |glob: &str| {
        let mut fixture = Fixture::parse(&format!(
            "{project}//- /home/alice/.claude/rules/r.md\n---\npaths: \"{glob}\"\n---\nx\n"
        ));
        fixture.input.reads = vec!["src/main.go".to_owned()];
        fixture.analyze()
    };
    let attached = |report: &Report| -> Vec<String> {
        report.reads[0]
            .files
            .iter()
            .map(|f| f.path.clone())
            .collect()
    };
    let go = user_rule("src/*.go");
    assert_eq!(attached(&go), ["/home/alice/.claude/rules/r.md"]);
    assert!(!codes(&go).contains(&Code::RuleNeverMatches));
    let py = user_rule("src/*.py");
    assert!(attached(&py).is_empty());
    assert!(codes(&py).contains(&Code::RuleNeverMatches));
}

#[test]
fn skill_findings() {
    let skill = |dir: &str, front: &str| format!("//- {dir}/SKILL.md\n---\n{front}\n---\nbody\n");
    let project = "//@ project=/home/alice/app\n";
    // Two folders that declare one `name`; one folder's name twice is `skill-shadowed`.
    fires(
        Code::SkillDuplicateName,
        &format!(
            "{project}{}{}",
            skill(
                "/home/alice/app/.claude/skills/lint",
                "name: lint\ndescription: Lint."
            ),
            skill(
                "/home/alice/.claude/skills/check",
                "name: lint\ndescription: Also lint."
            )
        ),
        &format!(
            "{project}{}{}",
            skill("/home/alice/app/.claude/skills/lint", "description: Lint."),
            skill("/home/alice/.claude/skills/lint", "description: Also lint.")
        ),
    );
    fires(
        Code::SkillShadowed,
        &format!(
            "{project}{}{}",
            skill("/home/alice/app/.claude/skills/lint", "description: Lint."),
            skill("/home/alice/.claude/skills/lint", "description: Also lint.")
        ),
        &format!(
            "{project}{}{}",
            skill("/home/alice/app/.claude/skills/lint", "description: Lint."),
            skill("/home/alice/.claude/skills/format", "description: Format.")
        ),
    );
    fires(
        Code::SkillNoDescription,
        &format!(
            "{project}{}",
            skill("/home/alice/app/.claude/skills/x", "name: x")
        ),
        &format!(
            "{project}{}",
            skill("/home/alice/app/.claude/skills/x", "description: Does x.")
        ),
    );
    let over = format!(
        "description: {}\nwhen_to_use: {}",
        "d".repeat(1_000),
        "w".repeat(600)
    );
    let at_cap = format!("description: {}", "d".repeat(1_536));
    fires(
        Code::SkillDescriptionTruncated,
        &format!(
            "{project}{}",
            skill("/home/alice/app/.claude/skills/x", &over)
        ),
        &format!(
            "{project}{}",
            skill("/home/alice/app/.claude/skills/x", &at_cap)
        ),
    );
}

#[test]
fn an_import_leaving_the_project_needs_approval() {
    fires(
        Code::ImportNeedsApproval,
        "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n@../shared/notes.md\n//- /home/alice/shared/notes.md\nx\n",
        "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n@docs/notes.md\n//- /home/alice/app/docs/notes.md\nx\n",
    );
}

#[test]
fn versions_before_2_1_83_cut_lines_only() {
    let line = "가".repeat(203);
    let text: String = (0..130).map(|_| format!("{line}\n")).collect();
    let fixture = format!("//@ project=/home/alice/app\n//- {MEMORY}/MEMORY.md\n{text}");
    let current = analyze(&fixture);
    // 2.1.81 is the last release before the cap (2.1.82 was never published).
    let old = analyze_as("2.1.81", &fixture);
    assert_eq!(
        current.files[0].truncation.as_ref().unwrap().cut_by,
        Some(CutBy::Size)
    );
    assert_eq!(old.files[0].truncation.as_ref().unwrap().cut_by, None);
    assert_eq!(old.context.version, "2.1.81");
    assert_eq!(current.context.version, "current");
    // The report says which caps it applied, so that a reader draws only those.
    assert_eq!(old.rules.memory_max_utf16, None);
    assert_eq!(current.rules.memory_max_utf16, Some(25_000));
    assert_eq!(
        (old.rules.memory_max_lines, current.rules.memory_max_lines),
        (200, 200)
    );
    let applies = |report: &Report, id: &str| {
        report
            .rules
            .behaviours
            .iter()
            .find(|b| b.id == id)
            .map(|b| (b.applies, b.since.clone()))
    };
    assert_eq!(
        applies(&old, "memory-size-cap"),
        Some((false, "2.1.83".to_owned()))
    );
    assert_eq!(
        applies(&current, "memory-size-cap"),
        Some((true, "2.1.83".to_owned()))
    );
    assert_eq!(old.rules.release, "2.1.81");
}

#[test]
fn versions_before_2_1_84_join_a_paths_list() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/.claude/rules/r.md\n---\npaths:\n  - src/*.ts\n  - lib/*.ts\n---\nx\n";
    let old = analyze_as("2.1.83", fixture);
    assert_eq!(
        old.files[0].paths.as_deref(),
        Some(&["src/*.tslib/*.ts".to_owned()][..])
    );
    assert!(codes(&old).contains(&Code::RulePathsJoined));
    let current = analyze(fixture);
    assert_eq!(current.files[0].paths.as_ref().map(Vec::len), Some(2));
    assert!(!codes(&current).contains(&Code::RulePathsJoined));
}

// Measured on every release recorded from 2.1.59 on (fixtures/conformance/*/releases/): the
// index is measured after frontmatter and comments are stripped. The changelog line for
// 2.1.211 changed nothing measurable, so no release simulates otherwise.
#[test]
fn every_simulated_release_measures_memory_md_after_stripping() {
    let body: String = (0..199).map(|i| format!("- entry {i}\n")).collect();
    let fixture = format!("//@ project=/home/alice/app\n//- {MEMORY}/MEMORY.md\n---\ntype: index\n---\n<!-- a note -->\n{body}");
    for version in ["2.1.81", "2.1.210", "2.1.211"] {
        let report = analyze_as(version, &fixture);
        assert_eq!(
            report.files[0].truncation.as_ref().unwrap().cut_by,
            None,
            "{version}"
        );
    }
}

// Four hops in every release measured (the documentation's "five hops" never matched the
// program): the root and four imports load, the fifth does not.
#[test]
fn every_simulated_release_loads_four_import_hops() {
    let chain: String = (0..6)
        .map(|i| {
            let file = if i == 0 {
                "CLAUDE.md".to_owned()
            } else {
                format!("{i}.md")
            };
            format!("//- /home/alice/app/{file}\n@{}.md\n", i + 1)
        })
        .collect();
    let fixture = format!("//@ project=/home/alice/app\n{chain}//- /home/alice/app/6.md\nend\n");
    let count = |report: &Report| report.files.iter().filter(|r| r.counted).count();
    assert_eq!(
        count(&analyze(&fixture)),
        5,
        "{}",
        render(&analyze(&fixture))
    );
    for version in ["2.1.59", "2.1.100", "2.1.211"] {
        let report = analyze_as(version, &fixture);
        assert_eq!(count(&report), 5, "{version}");
        assert_eq!(report.rules.import_max_hops, 4);
    }
}

#[test]
fn versions_before_2_1_59_are_refused_and_before_2_1_63_no_shared_worktrees() {
    let fixture = format!(
        "//@ project=/home/alice/app-wt\n//- /home/alice/app-wt/.git\ngitdir: /home/alice/app/.git/worktrees/app-wt\n//- {MEMORY}/MEMORY.md\n- x\n"
    );
    let folder = |report: Report| report.context.memory_dir;
    assert_eq!(folder(analyze(&fixture)), Some(MEMORY.to_owned()));
    // Before 2.1.63 the worktree keys its own folder, which this snapshot does not hold.
    let old = analyze_as("2.1.62", &fixture);
    assert!(codes(&old).contains(&Code::MemoryFolderNotFound));
    assert_eq!(
        folder(old),
        Some("/home/alice/.claude/projects/-home-alice-app-wt/memory".to_owned())
    );
    // Older than the first release measured: refused, not guessed.
    let mut ancient = Fixture::parse(&fixture);
    ancient.input.version = Some("2.1.58".to_owned());
    let refused = memdiag_core::analyze(&ancient.tree, &ancient.input).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("older than the first release simulated (2.1.59)"),
        "{refused}"
    );
}

#[test]
fn a_bad_version_or_date_is_an_input_error() {
    let mut fixture = Fixture::parse("//- /home/alice/.claude/CLAUDE.md\nx\n");
    fixture.input.version = Some("latest".to_owned());
    assert!(memdiag_core::analyze(&fixture.tree, &fixture.input).is_err());
    fixture.input.version = None;
    fixture.input.today = Some("soon".to_owned());
    assert!(memdiag_core::analyze(&fixture.tree, &fixture.input).is_err());
}

#[test]
fn a_topic_linked_only_past_the_cap_is_cut_off() {
    let index: String = (1..=200).map(|i| format!("- entry {i}\n")).collect();
    fires(
        Code::MemoryTopicCutOff,
        &with_git(&format!(
            "//- {MEMORY}/MEMORY.md\n{index}- [late](late.md)\n//- {MEMORY}/late.md\n---\ntype: user\nmodified: 2026-11-01\n---\nx\n"
        )),
        &with_git(&format!(
            "//- {MEMORY}/MEMORY.md\n- [late](late.md)\n{index}//- {MEMORY}/late.md\n---\ntype: user\nmodified: 2026-11-01\n---\nx\n"
        )),
    );
}

#[test]
fn claude_md_family_findings() {
    let project = "//@ project=/home/alice/app\n";
    // Measured on the text as sent (trimmed): 40,001 characters warn, 40,000 do not.
    let big = "x".repeat(40_001);
    let fits = "x".repeat(40_000);
    fires(
        Code::ClaudeMdTooLarge,
        &format!("{project}//- /home/alice/app/CLAUDE.md\n{big}\n"),
        &format!("{project}//- /home/alice/app/CLAUDE.md\n\n{fits}\n\n"),
    );
    fires(
        Code::ClaudeMdSkipped,
        &format!("{project}//- /home/alice/app/CLAUDE.md size=4194305\n"),
        &format!("{project}//- /home/alice/app/CLAUDE.md\nsmall\n"),
    );
    let excludes =
        "//- /home/alice/.claude/settings.json\n{\"claudeMdExcludes\": [\"**/team/CLAUDE.md\"]}\n";
    fires(
        Code::ClaudeMdExcluded,
        &format!("{project}{excludes}//- /home/alice/app/team/CLAUDE.md\nx\n"),
        &format!("{project}{excludes}//- /home/alice/app/teams/CLAUDE.md\nx\n"),
    );
}

#[test]
fn truncation_and_the_reminder_fire_at_their_thresholds() {
    let index = |n: usize| -> String {
        let lines: String = (1..=n).map(|i| format!("- entry {i}\n")).collect();
        with_git(&format!("//- {MEMORY}/MEMORY.md\n{lines}"))
    };
    fires(Code::MemoryIndexTruncated, &index(201), &index(200));
    fires(Code::MemoryIndexNearLimit, &index(160), &index(159));
}

#[test]
fn a_parent_folders_rule_is_judged_from_its_own_folder() {
    // ~/work/.claude/rules/ matches relative to ~/work (measured on 2.1.328: the capture
    // walk-parent-rule-paths-relative-to-its-folder), so app/src/*.go matches the project's
    // src/main.go and the rule is not one that never loads.
    let project = "//@ project=/home/alice/work/app mounts=/home/alice\n//- /home/alice/work/app/src/main.go\npackage main\n";
    fires(
        Code::RuleNeverMatches,
        &format!("{project}//- /home/alice/work/.claude/rules/r.md\n---\npaths: \"src/*.go\"\n---\nx\n"),
        &format!("{project}//- /home/alice/work/.claude/rules/r.md\n---\npaths: \"app/src/*.go\"\n---\nx\n"),
    );
    // A rule below the project matches relative to its own folder too.
    fires(
        Code::RuleNeverMatches,
        &format!("{project}//- /home/alice/work/app/src/.claude/rules/r.md\n---\npaths: \"src/*.go\"\n---\nx\n"),
        &format!("{project}//- /home/alice/work/app/src/.claude/rules/r.md\n---\npaths: \"*.go\"\n---\nx\n"),
    );
}

#[test]
fn a_skill_description_is_cut_in_utf16_units_after_when_to_use_is_joined() {
    let skill = |description: &str, when: &str| {
        format!(
            "//@ project=/p mounts=/p\n//- /p/.claude/skills/s/SKILL.md\n---\ndescription: {description}\nwhen_to_use: {when}\n---\nbody\n"
        )
    };
    // 1,534 + " - " + 1 = 1,538 units: cut, though description and when_to_use alone are
    // 1,535 characters.
    fires(
        Code::SkillDescriptionTruncated,
        &skill(&"d".repeat(1_534), "w"),
        &skill(&"d".repeat(1_530), "w"),
    );
    // 700 Korean syllables (one unit each) and 420 emoji (two each): 1,540 units + 3.
    fires(
        Code::SkillDescriptionTruncated,
        &skill(&format!("{}{}", "한".repeat(700), "🎉".repeat(420)), "w"),
        &skill(&"한".repeat(700), "w"),
    );
}

#[test]
fn a_linked_worktrees_old_memory_folder_is_named_when_the_project_is_the_main_worktree() {
    // Before 2.1.63 a linked worktree kept its own memory folder; every worktree now shares
    // the main one's, so that folder no longer loads for any of them. The main worktree's
    // .git/worktrees/<name>/gitdir says where each linked worktree is.
    let main = "//@ project=/home/alice/repo mounts=/home/alice\n//- /home/alice/repo/.git/HEAD\nref: refs/heads/main\n//- /home/alice/.claude/projects/-home-alice-repo/memory/MEMORY.md\n- x\n//- /home/alice/.claude/projects/-home-alice-wt-feature/memory/MEMORY.md\n- kept by an older release\n";
    let with_worktree = format!(
        "{main}//- /home/alice/repo/.git/worktrees/feature/gitdir\n/home/alice/wt/feature/.git\n"
    );
    fires(Code::MemoryFolderLookalike, &with_worktree, main);
    let report = analyze(&with_worktree);
    let finding = report
        .diagnostics
        .iter()
        .find(|d| d.code == Code::MemoryFolderLookalike)
        .expect("the finding");
    assert_eq!(
        finding.path.as_deref(),
        Some("/home/alice/.claude/projects/-home-alice-wt-feature/memory")
    );
    assert!(
        finding
            .message
            .contains("linked worktree /home/alice/wt/feature"),
        "{}",
        finding.message
    );
}
