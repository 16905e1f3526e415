//! Discovery rules that need more than rendered rows to check: the report's context (which
//! lookup found the memory folder), measurements, reads, and generated inputs. The rules
//! that rows alone show live as case files in `fixtures/rules/` (see `cases.rs`).
//!
//! Rows render as `Group load path [counted] [status] (reason) scope=… paths=… skill=…`,
//! indented by reference depth, with home shown as `~`.

use std::collections::BTreeSet;

use memdiag_core::report::{Code, CutBy, DiagnosticData, LoadType, MemoryLookup, Report};
use memdiag_core::sanitize::{sanitize, SanitizeOptions};
use memdiag_tests::{assert_text, codes, render, sent_paths, Fixture};

#[test]
fn a_skill_costs_its_listing_line_with_the_description_cut_to_1536_units() {
    let long = "d".repeat(2_000);
    let mut fixture = Fixture::parse(&format!(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/.claude/skills/deploy/SKILL.md
        ---
        name: ship-it
        description: Deploys.
        when_to_use: On Fridays.
        ---
        Body text is not in the listing.
        //- /home/alice/app/.claude/skills/long/SKILL.md
        ---
        description: {long}
        ---
        "#
    ));
    let report = fixture.analyze();
    // `<folder> (<name>): <description> - <when_to_use>`; the description part is cut to
    // 1,535 units and `…`.
    let lines = [
        "deploy (ship-it): Deploys. - On Fridays.".to_owned(),
        format!("long: {}…", "d".repeat(1_535)),
    ];
    assert_eq!(report.session.skills, lines);
    let chars: u64 = lines.iter().map(|l| l.chars().count() as u64).sum();
    assert_eq!(chars, 40 + 6 + 1_536);
    let skills = &report.footprint.groups["Skills"];
    assert_eq!(skills.chars, chars);
    assert_eq!(report.session.cost.skills_listing.user, chars);
    assert_eq!(skills.files, 0, "skill listings add characters, not files");
    assert_eq!(report.footprint.files, 0);
}

fn memory_fixture(project_line: &str, extra: &str) -> String {
    format!(
        r#"
        {project_line}
        //- /home/alice/.claude/projects/-home-alice-work-app/memory/MEMORY.md
        - [Build](build.md) how to build
        //- /home/alice/.claude/projects/-home-alice-work-app/memory/build.md
        build notes
        //- /home/alice/.claude/projects/-home-alice-work-app/memory/unlinked.md
        never linked
        //- /home/alice/.claude/projects/-home-alice-work-app/0b7e.jsonl size=900000000
        {extra}
        "#
    )
}

#[test]
fn memory_folder_is_keyed_by_the_git_root() {
    let mut fixture = Fixture::parse(&memory_fixture(
        "//@ project=/home/alice/work/app/packages/web",
        "//- /home/alice/work/app/.git/HEAD\nref: refs/heads/main",
    ));
    let report = fixture.analyze();
    assert_eq!(
        report.context.git_root.as_deref(),
        Some("/home/alice/work/app")
    );
    assert_eq!(report.context.memory_found_via, Some(MemoryLookup::Path));
    assert_text(
        &render(&report),
        r#"
        Auto Memory startup ~/.claude/projects/-home-alice-work-app/memory/MEMORY.md counted lines=1/1 utf16=32/32 cut=none first_dropped=none
          Auto Memory on-demand ~/.claude/projects/-home-alice-work-app/memory/build.md
        Auto Memory on-demand ~/.claude/projects/-home-alice-work-app/memory/unlinked.md
        "#,
    );
    assert!(
        !fixture.source.reads.iter().any(|r| r.ends_with(".jsonl")),
        "a transcript was read: {:?}",
        fixture.source.reads
    );
}

#[test]
fn a_linked_worktree_uses_the_main_worktrees_memory() {
    let report = Fixture::parse(&memory_fixture(
        "//@ project=/home/alice/work/app-feature",
        "//- /home/alice/work/app-feature/.git\ngitdir: /home/alice/work/app/.git/worktrees/app-feature",
    ))
    .analyze();
    assert_eq!(
        report.context.git_root.as_deref(),
        Some("/home/alice/work/app")
    );
    assert_eq!(
        report.context.memory_found_via,
        Some(MemoryLookup::Worktree)
    );
    assert_eq!(
        report.context.memory_dir.as_deref(),
        Some("/home/alice/.claude/projects/-home-alice-work-app/memory")
    );
}

#[test]
fn lookalike_memory_folders_are_named_but_never_used() {
    // Claude Code uses the folder its encoding names and nothing else: a folder in the older
    // encoding (dots kept) or one ending with the same two folder names (case ignored) is a
    // finding, never the memory folder.
    for (tree, folder, lookalikes) in [
        (
            r#"
            //@ project=/home/alice/my.app
            //- /home/alice/.claude/projects/-home-alice-my.app/memory/MEMORY.md
            - seed encoding kept the dot
            "#,
            "/home/alice/.claude/projects/-home-alice-my-app/memory",
            &["/home/alice/.claude/projects/-home-alice-my.app/memory"][..],
        ),
        (
            r#"
            //@ home=/Users/alice project=/Users/alice/Work/App os=macos
            //- /Users/alice/.claude/projects/-a-work-app/transcript.jsonl size=10
            //- /Users/alice/.claude/projects/-Volumes-old-work-app/memory/MEMORY.md
            - moved from an old disk
            //- /Users/alice/.claude/projects/-z-work-app/memory/MEMORY.md
            - later in byte order
            "#,
            "/Users/alice/.claude/projects/-Users-alice-Work-App/memory",
            &[
                "/Users/alice/.claude/projects/-Volumes-old-work-app/memory",
                "/Users/alice/.claude/projects/-z-work-app/memory",
            ][..],
        ),
    ] {
        let report = Fixture::parse(tree).analyze();
        assert_eq!(report.context.memory_dir.as_deref(), Some(folder));
        assert_eq!(
            report.context.memory_found_via, None,
            "{folder} does not exist"
        );
        assert_eq!(
            report.session.memory_dir,
            Some(format!("{folder}/")),
            "the system prompt names the folder Claude Code will create"
        );
        assert!(
            report.session.files.is_empty(),
            "no lookalike index is sent"
        );
        assert!(codes(&report).contains(&Code::MemoryFolderNotFound));
        let named: Vec<&str> = report
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::MemoryFolderLookalike)
            .filter_map(|d| d.path.as_deref())
            .collect();
        assert_eq!(named, lookalikes);
    }
}

#[test]
fn no_memory_folder_is_a_finding_and_every_folder_is_still_listed() {
    let report = Fixture::parse(&memory_fixture("//@ project=/home/alice/other", "")).analyze();
    // The folder the project maps to, which Claude Code creates when it first saves.
    assert_eq!(
        report.context.memory_dir.as_deref(),
        Some("/home/alice/.claude/projects/-home-alice-other/memory")
    );
    assert_eq!(report.context.memory_found_via, None);
    assert!(codes(&report).contains(&Code::MemoryFolderNotFound));
    assert_eq!(report.memory_folders.len(), 1);
    let folder = &report.memory_folders[0];
    assert_eq!(folder.name, "-home-alice-work-app");
    assert_eq!(folder.decoded_guess, "/home/alice/work/app");
    assert_eq!(folder.files, 3);
    assert!(!folder.current);
}

#[test]
fn without_a_project_only_user_sources_and_the_memory_folders_are_listed() {
    let report = Fixture::parse(&memory_fixture(
        "//- /home/alice/.claude/CLAUDE.md\nuser",
        "",
    ))
    .analyze();
    assert_text(
        &render(&report),
        "User always ~/.claude/CLAUDE.md counted scope=user",
    );
    assert_eq!(report.memory_folders.len(), 1);
}

#[test]
fn auto_memory_directory_is_the_memory_folder_and_the_most_specific_layer_wins() {
    let user = r#"
        //@ project=/home/alice/app
        //- /home/alice/.claude/settings.json
        {"autoMemoryDirectory": "~/mem"}
        //- /home/alice/mem/MEMORY.md
        - the user setting's folder itself
        //- /home/alice/mem/-home-alice-app/memory/MEMORY.md
        - never: the setting is not a base of project folders
        //- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md
        - never: the default folder
        "#;
    let project = format!(
        "{user}\n//- /home/alice/app/.claude/settings.json\n{{\"autoMemoryDirectory\": \"/home/alice/pmem\"}}\n//- /home/alice/pmem/MEMORY.md\n- the project setting's folder\n"
    );
    for (tree, folder) in [
        (user, "/home/alice/mem"),
        (project.as_str(), "/home/alice/pmem"),
    ] {
        let report = Fixture::parse(tree).analyze();
        assert_eq!(report.context.memory_dir.as_deref(), Some(folder));
        // Other projects' memory folders are still listed from the config folder.
        assert_eq!(report.context.projects_base, "/home/alice/.claude/projects");
        let sent = sent_paths(&report);
        assert_eq!(sent, [format!("{folder}/MEMORY.md")]);
        assert_eq!(report.session.memory_dir, Some(format!("{folder}/")));
    }
}

#[test]
fn auto_memory_switched_off_is_listed_but_not_counted() {
    let report = Fixture::parse(&memory_fixture(
        "//@ project=/home/alice/work/app",
        "//- /home/alice/work/app/.claude/settings.local.json\n{\"autoMemoryEnabled\": false}\n\
         //- /home/alice/work/app/.claude/settings.json\n{\"autoMemoryEnabled\": true}",
    ))
    .analyze();
    assert!(!report.context.auto_memory_enabled);
    assert_eq!(
        report.context.auto_memory_setting_from.as_deref(),
        Some("/home/alice/work/app/.claude/settings.local.json")
    );
    assert_text(
        &render(&report),
        r#"
        Auto Memory startup ~/.claude/projects/-home-alice-work-app/memory/MEMORY.md [disabled] lines=1/1 utf16=32/32 cut=none first_dropped=none
          Auto Memory on-demand ~/.claude/projects/-home-alice-work-app/memory/build.md [disabled]
        Auto Memory on-demand ~/.claude/projects/-home-alice-work-app/memory/unlinked.md [disabled]
        "#,
    );
    assert_eq!(report.footprint.files, 0);
    assert!(codes(&report).contains(&Code::AutoMemoryDisabled));
}

#[test]
fn a_claude_md_over_4_mib_is_skipped_unread_and_over_40000_characters_warns() {
    let big = "x".repeat(40_001);
    let mut fixture = Fixture::parse(&format!(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/CLAUDE.md size=4194305
        //- /home/alice/app/CLAUDE.local.md
        {big}
        "#
    ));
    let report = fixture.analyze();
    assert_text(
        &render(&report),
        r#"
        Project always ~/app/CLAUDE.md [skipped] scope=project
        Project always ~/app/CLAUDE.local.md counted scope=local
        "#,
    );
    assert!(!fixture
        .source
        .reads
        .contains(&"/home/alice/app/CLAUDE.md".to_owned()));
    let found = codes(&report);
    assert!(found.contains(&Code::ClaudeMdSkipped) && found.contains(&Code::ClaudeMdTooLarge));
}

#[test]
fn frontmatter_block_comments_and_surrounding_white_space_are_not_measured_as_loaded() {
    let rule = |paths: &str| {
        Fixture::parse(&format!(
            "//@ project=/home/alice/app\n//- /home/alice/app/.claude/rules/r.md\n---\n{paths}\n---\n<!-- why this rule exists -->\n\nUse tabs.\n\n"
        ))
        .analyze()
    };
    for (report, load) in [
        (rule("description: x"), LoadType::Always),
        (rule("paths: src/**"), LoadType::Conditional),
    ] {
        let row = &report.files[0];
        assert_eq!(row.load, load);
        assert_eq!(row.raw.expect("read").lines, 7);
        // The text as sent: stripped, then trimmed.
        let loaded = row.loaded.expect("loads");
        assert_eq!((loaded.lines, loaded.bytes), (1, "Use tabs.".len() as u64));
        // Only what every session sends is counted: a conditional rule waits for a Read.
        let counted = load == LoadType::Always;
        assert_eq!(row.counted, counted);
        assert_eq!(
            report.footprint.bytes,
            if counted { loaded.bytes } else { 0 }
        );
    }
}

#[test]
fn memory_index_is_cut_at_200_lines_and_at_25000_utf16_units() {
    let lines: String = (1..=210).map(|i| format!("- entry {i}\n")).collect();
    let report = Fixture::parse(&format!(
        "//@ project=/home/alice/app\n//- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md\n{lines}"
    ))
    .analyze();
    let t = report.files[0].truncation.clone().expect("an index");
    assert_eq!((t.total_lines, t.loaded_lines), (210, 200));
    assert_eq!(t.cut_by, Some(CutBy::Lines));
    assert_eq!(t.first_dropped_line, Some(201));
    // Claude Code appends its warning to the loaded text.
    let warning = "> WARNING: MEMORY.md is 210 lines (limit: 200). Only part of it was loaded: \
                   10 of 210 lines were cut off, starting at line 201 (\"- entry 201\"). Keep \
                   index entries to one line under ~200 chars; move detail into topic files.";
    assert_eq!(t.warning.as_deref(), Some(warning));
    let sent = &report.session.files[0];
    let kept: String = (1..=200).map(|i| format!("- entry {i}\n")).collect();
    // The pin (2.1.337) sends it as quoted notes: Claude Code's sentence (273 units with
    // its blank line), then `> ` before each of the 200 lines and the blank line before
    // the warning, which has its own.
    assert_eq!(
        sent.loaded.utf16,
        (273 + kept.trim_end().len() + 2 * 200 + 2 + 2 + warning.len()) as u64
    );
    // Of that, the user's text is the kept lines; the sentence, the marks and the warning
    // are Claude Code's own (issue 33), in the row, the session cost and the footprint alike.
    let own = (273 + 2 * 200 + 2 + 2 + warning.len()) as u64;
    assert_eq!(report.files[0].claude_code.map(|m| m.utf16), Some(own));
    assert_eq!(
        report.session.cost.instruction_block.user,
        kept.trim_end().len() as u64
    );
    assert_eq!(report.footprint.utf16, kept.trim_end().len() as u64);
    assert_eq!(report.footprint.chars, kept.trim_end().len() as u64);
    assert!(report.session.cost.instruction_block.claude_code > own);
    let finding = report
        .diagnostics
        .iter()
        .find(|d| d.code == Code::MemoryIndexTruncated)
        .expect("a truncation finding");
    assert!(
        finding.message.ends_with(&warning[2..]),
        "{}",
        finding.message
    );

    // Korean: three bytes a syllable, one UTF-16 unit. 100 lines of 203 load whole at about
    // 61 KB on disk; 130 lines reach the 25,000-unit cap after line 122.
    let line = "가".repeat(203);
    for (count, loaded, cut) in [(100, 100, None), (130, 122, Some(CutBy::Size))] {
        let text: String = (0..count).map(|_| format!("{line}\n")).collect();
        let report = Fixture::parse(&format!(
            "//@ project=/home/alice/app\n//- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md\n{text}"
        ))
        .analyze();
        let row = &report.files[0];
        let t = row.truncation.clone().expect("an index");
        assert_eq!(t.loaded_lines, loaded, "{count} lines");
        assert_eq!(t.cut_by, cut, "{count} lines");
        assert!(row.raw.expect("read").bytes > 60_000);
    }
}

#[test]
fn memory_index_near_the_limit_gets_the_reminder() {
    let lines: String = (1..=161).map(|i| format!("- entry {i}\n")).collect();
    let report = Fixture::parse(&format!(
        "//@ project=/home/alice/app\n//- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md\n{lines}"
    ))
    .analyze();
    let reminder = report
        .diagnostics
        .iter()
        .find(|d| d.code == Code::MemoryIndexNearLimit)
        .expect("a reminder");
    assert!(reminder
        .message
        .contains("161 lines, approaching the 200-line read limit"));
    assert!(!codes(&report).contains(&Code::MemoryIndexTruncated));
}

#[test]
fn bulk_data_is_never_read_even_when_referenced() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/CLAUDE.md
        See [the log](/home/alice/.claude/projects/-home-alice-app/0b7e.jsonl) and @~/.claude/todos/t.md
        //- /home/alice/.claude/projects/-home-alice-app/0b7e.jsonl size=2000000000
        //- /home/alice/.claude/todos/t.md size=10
        //- /home/alice/.claude/file-history/x/y.md size=10
        //- /home/alice/.claude/shell-snapshots/s.sh size=10
        //- /home/alice/.claude/debug/d.txt size=10
        "#,
    );
    let report = fixture.analyze();
    assert_eq!(fixture.source.reads, ["/home/alice/app/CLAUDE.md"]);
    assert_eq!(report.files.len(), 3);
    assert!(
        report.files[1].raw.is_none(),
        "the transcript is listed by size only"
    );
}

#[test]
fn invalid_utf8_and_broken_settings_are_findings_not_failures() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/.claude/settings.json
        {"autoMemoryEnabled": false,
        //- /home/alice/app/CLAUDE.md
        ok
        "#,
    );
    let bad = memdiag_core::VPath::new("/home/alice/app/CLAUDE.md").unwrap();
    fixture
        .tree
        .set_contents(&bad, Ok(vec![b'o', 0xff, b'k', b'\n']));
    let report = fixture.analyze();
    let found = codes(&report);
    assert!(found.contains(&Code::InvalidSettings) && found.contains(&Code::InvalidUtf8));
    assert!(
        report.context.auto_memory_enabled,
        "a broken settings file changes nothing"
    );
    assert_eq!(report.files[0].raw.expect("read").chars, 4);
}

#[test]
fn the_same_tree_gives_byte_identical_json() {
    let case = std::fs::read_to_string(
        memdiag_tests::workspace_root()
            .join("fixtures/rules/imports-links-cycles-code-and-unresolved-references.txt"),
    )
    .unwrap();
    let first = serde_json::to_string(&Fixture::parse(&case).analyze()).unwrap();
    let second = serde_json::to_string(&Fixture::parse(&case).analyze()).unwrap();
    assert_eq!(first, second);
}

#[test]
fn a_50_mb_memory_index_is_read_cut_and_measured() {
    let line = "- an entry that repeats to make a very large index file\n";
    let text = line.repeat(50 * 1024 * 1024 / line.len());
    let mut fixture = Fixture::parse("//@ project=/home/alice/app\n//- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md size=1\n");
    let index =
        memdiag_core::VPath::new("/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md")
            .unwrap();
    let size = text.len() as u64;
    fixture.tree.insert(
        index.clone(),
        memdiag_core::FileEntry {
            size,
            contents: memdiag_core::Contents::Loaded(text.into_bytes()),
            modified: None,
        },
    );
    let report = fixture.analyze();
    let row = &report.files[0];
    assert_eq!(row.raw.expect("read").bytes, size);
    let t = row.truncation.clone().expect("an index");
    assert_eq!((t.loaded_lines, t.cut_by), (200, Some(CutBy::Lines)));
    // 200 lines of 56 bytes, quoted (2.1.337: a sentence and `> ` on each line).
    assert!(
        report.footprint.bytes < 13_000,
        "only the loaded part counts"
    );
}

#[test]
fn what_loads_later_is_counted_apart_by_kind_each_file_once() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/CLAUDE.md
        every session
        //- /home/alice/app/src/CLAUDE.md
        nested @../shared.md
        //- /home/alice/app/shared.md
        imported by the nested file
        //- /home/alice/app/.claude/rules/ts.md
        ---
        paths: "src/**/*.ts"
        ---
        ts rule
        //- /home/alice/app/.claude/skills/deploy/SKILL.md
        ---
        description: Deploys.
        ---
        The body, read only when the skill runs.
        //- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md
        - [topic](topic.md)
        //- /home/alice/.claude/projects/-home-alice-app/memory/topic.md
        a topic
        //- /home/alice/.claude/agent-memory/helper/MEMORY.md
        helper index
        "#,
    );
    let report = fixture.analyze();
    let later = report.session.later;
    let units = |s: &str| s.encode_utf16().count() as u64;
    // The nested file and what it imports, as a read attaches them: untrimmed, so each
    // keeps its final newline.
    assert_eq!(later.on_read.files, 2);
    assert_eq!(
        later.on_read.utf16,
        units("nested @../shared.md\n") + units("imported by the nested file\n")
    );
    assert_eq!(
        (later.conditional_rules.files, later.conditional_rules.utf16),
        (1, units("ts rule\n"))
    );
    // The skill's whole file and the topic file, as the Read tool returns them.
    assert_eq!(later.on_demand.files, 2);
    assert_eq!(
        later.on_demand.utf16,
        units("---\ndescription: Deploys.\n---\nThe body, read only when the skill runs.\n")
            + units("a topic\n")
    );
    assert_eq!(
        (later.agent_memory.files, later.agent_memory.utf16),
        (1, units("helper index"))
    );
    // None of it is in what every session carries.
    let sent = sent_paths(&report);
    assert_eq!(
        sent,
        [
            "/home/alice/app/CLAUDE.md",
            "/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md"
        ]
    );
}

/// Discovery records what it read, counted, matched or looked up besides the rows' text
/// (`Report::sources`), and a shared snapshot keeps exactly that: the memory folders and
/// the files counted in them, an agent's memory folder, a folder a link points to, the
/// first file a conditional rule matches, the `.git` that decides the git root, the mount;
/// never a transcript or a file no rule matches.
#[test]
fn discovery_records_what_it_counted_matched_and_looked_up() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/.git/HEAD
        ref: refs/heads/main
        //- /home/alice/app/CLAUDE.md
        See [the docs](docs/).
        //- /home/alice/app/docs/guide.txt
        guide
        //- /home/alice/app/.claude/rules/ts.md
        ---
        paths: ["src/**/*.ts"]
        ---
        TypeScript rule.
        //- /home/alice/app/src/a.ts
        a
        //- /home/alice/app/src/b.ts
        b
        //- /home/alice/app/src/c.py
        c
        //- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md
        - [Topic](topic.md)
        //- /home/alice/.claude/projects/-home-alice-app/memory/topic.md
        topic
        //- /home/alice/.claude/projects/-home-alice-app/session.jsonl size=900
        //- /home/alice/.claude/projects/-home-alice-other/memory/old.md
        old
        //- /home/alice/.claude/agent-memory/reviewer/notes.txt
        not Markdown
        "#,
    );
    let report = fixture.analyze();
    let sources: Vec<String> = report
        .sources
        .iter()
        .map(|s| format!("{:?} {}", s.why, s.path))
        .collect();
    assert_eq!(
        sources,
        [
            "Mount /home/alice",
            "Folder /home/alice/.claude/agent-memory/reviewer",
            "Folder /home/alice/.claude/projects/-home-alice-app/memory",
            // A row, whose frontmatter names no day: the growth chart read its file's.
            "Dated /home/alice/.claude/projects/-home-alice-app/memory/topic.md",
            "Folder /home/alice/.claude/projects/-home-alice-other/memory",
            "Counted /home/alice/.claude/projects/-home-alice-other/memory/old.md",
            "GitDir /home/alice/app/.git",
            "Folder /home/alice/app/docs",
            "RuleWitness /home/alice/app/src/a.ts",
        ]
    );
    // The share holds the rows and those, and by default leaves the other project out.
    let rows = report.files.iter().map(|row| row.path.as_str());
    let recorded: BTreeSet<&str> = rows
        .chain(report.sources.iter().map(|s| s.path.as_str()))
        .collect();
    for (other_projects, left_out) in [(true, 0), (false, 2)] {
        let options = SanitizeOptions {
            other_projects,
            ..SanitizeOptions::default()
        };
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        let kept: BTreeSet<&str> = shared.paths.keys().map(String::as_str).collect();
        let missing: Vec<&&str> = recorded.difference(&kept).collect();
        assert_eq!(missing.len(), left_out, "{missing:?}");
        assert!(missing.iter().all(|p| p.contains("-home-alice-other")));
        assert!(kept.is_subset(&recorded));
    }
}

#[test]
fn sub_agents_in_subfolders_are_listed_and_a_project_agent_shadows_the_users() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/.claude/agents/team/review/reviewer.md
        ---
        name: reviewer
        description: The user's reviewer.
        memory: user
        ---
        //- /home/alice/.claude/agents/notes.md
        Notes without frontmatter: no agent.
        //- /home/alice/app/.claude/agents/reviewer.md
        ---
        name: reviewer
        description: Reviews diffs.\nOnly asked ones.
        tools: Read, Grep
        ---
        //- /home/alice/app/.claude/agents/deploy/Deployer.md
        ---
        name: Deployer
        description: Ships.
        disallowedTools: Bash
        ---
        "#,
    );
    let report = fixture.analyze();
    let lines = [
        "Deployer: Ships. (Tools: All tools except Bash)",
        "reviewer: Reviews diffs.\nOnly asked ones. (Tools: Read, Grep)",
    ];
    assert_eq!(report.session.agents, lines);
    let agents: Vec<(&str, bool)> = report
        .health
        .agents
        .iter()
        .map(|a| (a.path.as_str(), a.shadowed_by.is_some()))
        .collect();
    assert_eq!(
        agents,
        [
            ("/home/alice/app/.claude/agents/deploy/Deployer.md", false),
            ("/home/alice/app/.claude/agents/reviewer.md", false),
            ("/home/alice/.claude/agents/team/review/reviewer.md", true),
        ]
    );
    // `\n- ` before each line; Claude Code's opening, note and built-in agents besides.
    let units: u64 = lines.iter().map(|l| l.encode_utf16().count() as u64).sum();
    assert_eq!(report.session.cost.agents.user, units);
    assert_eq!(report.session.cost.agents.claude_code, 1_636 + 3 * 2);
    let cost = report.session.cost;
    assert_eq!(
        cost.total.total(),
        cost.instruction_block.total()
            + cost.skills_listing.total()
            + cost.memory_section.total()
            + cost.agents.total()
    );
}

/// Rules of one folder load in the order the source listed its entries, depth first
/// (measured on 2.1.328 and 2.1.337: `rules-order-follows-the-directory-listing`); where no
/// order was recorded (a dropped folder, a shared snapshot) they come by name with a
/// `rule-order-unknown` finding for the rules folder.
#[test]
fn rules_load_in_the_recorded_listing_order_or_say_it_is_unknown() {
    let text = r#"
        //@ project=/home/alice/app
        //- /home/alice/app/.claude/rules/b.md
        bee
        //- /home/alice/app/.claude/rules/a.md
        ay
        //- /home/alice/app/.claude/rules/sub/z.md
        zed
        //- /home/alice/app/.claude/rules/sub/y.md
        why
        //- /home/alice/app/.claude/rules/only/one.md
        one
    "#;
    let rules = |report: &memdiag_core::Report| -> Vec<String> {
        sent_paths(report)
            .into_iter()
            .filter_map(|p| p.strip_prefix("/home/alice/app/.claude/rules/"))
            .map(str::to_owned)
            .collect()
    };
    let mut fixture = Fixture::parse(text);
    let report = fixture.analyze();
    assert_eq!(
        rules(&report),
        ["a.md", "b.md", "only/one.md", "sub/y.md", "sub/z.md"]
    );
    let unknown: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::RuleOrderUnknown)
        .map(|d| d.path.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(unknown, ["/home/alice/app/.claude/rules"]);

    let mut fixture = Fixture::parse(text);
    let dir = |p: &str| memdiag_core::VPath::new(p).expect("absolute");
    let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    fixture.tree.set_listing_order(
        dir("/home/alice/app/.claude/rules"),
        names(&["sub", "b.md", "only", "a.md"]),
    );
    fixture.tree.set_listing_order(
        dir("/home/alice/app/.claude/rules/sub"),
        names(&["z.md", "y.md"]),
    );
    let report = fixture.analyze();
    assert_eq!(
        rules(&report),
        ["sub/z.md", "sub/y.md", "b.md", "only/one.md", "a.md"]
    );
    assert!(!codes(&report).contains(&Code::RuleOrderUnknown));

    // One subfolder left unrecorded is enough to make the order unknown.
    let mut fixture = Fixture::parse(text);
    fixture.tree.set_listing_order(
        dir("/home/alice/app/.claude/rules"),
        names(&["sub", "b.md", "only", "a.md"]),
    );
    let report = fixture.analyze();
    assert_eq!(
        rules(&report),
        ["sub/y.md", "sub/z.md", "b.md", "only/one.md", "a.md"]
    );
    assert!(codes(&report).contains(&Code::RuleOrderUnknown));
}

/// The same text sent twice in every session is a `sent-twice` finding with what the second
/// copy costs (measured on 2.1.328 and 2.1.337:
/// `sent-twice-links-copies-imports-and-listings`): two instruction files with the same words,
/// a skill and a command with the same description. A rule also imported is sent once, and
/// is no finding; neither are two texts of one shape, nor a repeated text under 30 units.
#[test]
fn text_sent_twice_is_a_finding_with_its_cost() {
    let tree = |local: &str| {
        format!(
            r#"
        //@ project=/home/alice/app
        //- /home/alice/CLAUDE.md
        The same words in two files, long enough to count.
        //- /home/alice/app/CLAUDE.md
        Own text.
        @.claude/rules/r.md
        //- /home/alice/app/.claude/rules/r.md
        Imported and loading as a rule, long enough to count.
        //- /home/alice/app/.claude/rules/short.md
        Run the tests.
        //- /home/alice/app/.claude/rules/shape.md
        Tha sama wards in twa filas, lang anaugh ta caunt.
        //- /home/alice/app/CLAUDE.local.md
        {local}
        //- /home/alice/app/.claude/skills/fmt/SKILL.md
        ---
        description: Formats the code with the house style, tabs first.
        ---
        //- /home/alice/app/.claude/skills/lint/SKILL.md
        ---
        description: Run the tests.
        ---
        //- /home/alice/app/.claude/commands/format.md
        ---
        description: Formats the code with the house style, tabs first.
        ---
        //- /home/alice/app/.claude/commands/check.md
        ---
        description: Run the tests.
        ---
        "#
        )
    };
    let findings = |report: &Report| -> Vec<(String, String, Vec<String>)> {
        report
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::SentTwice)
            .map(|d| {
                let earlier = match &d.data {
                    Some(DiagnosticData::Paths { paths }) => paths.clone(),
                    _ => Vec::new(),
                };
                let path = d.path.clone().unwrap_or_default();
                (path, d.message.clone(), earlier)
            })
            .collect()
    };
    // `CLAUDE.local.md` holds one more line than the parent's file: it is no copy.
    let report = Fixture::parse(&tree(
        "The same words in two files, long enough to count.\n        Run the tests.",
    ))
    .analyze();
    let twice = findings(&report);
    assert_eq!(twice.len(), 1, "{twice:#?}");
    let (path, listed, earlier) = &twice[0];
    assert_eq!(path, "/home/alice/app/.claude/commands/format.md");
    assert_eq!(earlier, &["/home/alice/app/.claude/skills/fmt/SKILL.md"]);
    assert!(
        listed.starts_with("format is listed with the same description as fmt ("),
        "{listed}"
    );
    assert!(
        listed.contains("costs 50 characters (UTF-16 units"),
        "{listed}"
    );

    // Without the extra line the local file is a copy of the parent's; the rule of the same
    // shape and the short repeats stay quiet.
    let report =
        Fixture::parse(&tree("The same words in two files, long enough to count.")).analyze();
    let twice = findings(&report);
    assert_eq!(twice.len(), 2, "{twice:#?}");
    let (_, copy, earlier) = twice
        .iter()
        .find(|(path, _, _)| path == "/home/alice/app/CLAUDE.local.md")
        .expect("the local file's copy is a finding");
    assert_eq!(earlier, &["/home/alice/CLAUDE.md"]);
    assert!(
        copy.starts_with("sends the same text as /home/alice/CLAUDE.md, ")
            && copy.contains("costs 50 characters (UTF-16 units"),
        "{copy}"
    );
    let sent = sent_paths(&report);
    assert_eq!(
        sent.iter().filter(|p| p.ends_with("/r.md")).count(),
        1,
        "a rule also imported is sent once"
    );
    assert!(report.verdict.iter().any(
        |line| line.code == Code::SentTwice && line.harm == memdiag_core::report::Harm::Wastes
    ));
}

/// A skill or command that another of its name hides is a finding that names the winner and
/// what the hidden one's listing line would have cost (measured on 2.1.328: the user's skill
/// beats the project's of its folder's name, a skill beats a command of its name, the user's
/// command beats the project's; `agents-managed-policy-agents-skills-and-precedence`,
/// `commands-listing-order-and-precedence`). The hidden ones are not counted.
#[test]
fn a_hidden_skill_or_command_is_a_finding_that_names_the_winner_and_its_cost() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/.claude/skills/deploy/SKILL.md
        ---
        description: Deploys my way.
        ---
        //- /home/alice/app/.claude/skills/deploy/SKILL.md
        ---
        description: Deploys the shop to production.
        ---
        //- /home/alice/app/.claude/skills/fmt/SKILL.md
        ---
        description: Formats.
        ---
        //- /home/alice/app/.claude/commands/fmt.md
        Formats everything.
        //- /home/alice/.claude/commands/lint.md
        Lint it my way.
        //- /home/alice/app/.claude/commands/lint.md
        Lint the code.
        "#,
    );
    let report = fixture.analyze();
    let finding = |code: Code, path: &str| -> String {
        let found: Vec<&str> = report
            .diagnostics
            .iter()
            .filter(|d| d.code == code && d.path.as_deref() == Some(path))
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            found.len(),
            1,
            "{code} on {path}: {:#?}",
            report.diagnostics
        );
        found[0].to_owned()
    };
    let skill = finding(
        Code::SkillShadowed,
        "/home/alice/app/.claude/skills/deploy/SKILL.md",
    );
    assert!(
        skill.starts_with("hidden by /home/alice/.claude/skills/deploy/SKILL.md, ")
            && skill.contains("invoking deploy runs that one")
            // `deploy: Deploys the shop to production.`
            && skill.contains("would have cost 39 characters (UTF-16 units)"),
        "{skill}"
    );
    let by_skill = finding(
        Code::CommandShadowed,
        "/home/alice/app/.claude/commands/fmt.md",
    );
    assert!(
        by_skill.starts_with(
            "hidden by the skill /home/alice/app/.claude/skills/fmt/SKILL.md of the same name"
        ) && by_skill.contains("/fmt runs the skill")
            // `fmt: Formats everything.`
            && by_skill.contains("would have cost 24 characters"),
        "{by_skill}"
    );
    let by_user = finding(
        Code::CommandShadowed,
        "/home/alice/app/.claude/commands/lint.md",
    );
    assert!(
        by_user.starts_with(
            "hidden by /home/alice/.claude/commands/lint.md, the user's command of the same name"
        ) && by_user.contains("would have cost 20 characters"),
        "{by_user}"
    );
    // No duplicate-name finding besides; the winners have none; the hidden are not counted.
    assert!(!codes(&report).contains(&Code::SkillDuplicateName));
    let hidden = [
        "/home/alice/app/.claude/skills/deploy/SKILL.md",
        "/home/alice/app/.claude/commands/fmt.md",
        "/home/alice/app/.claude/commands/lint.md",
    ];
    let shadow_findings = report
        .diagnostics
        .iter()
        .filter(|d| matches!(d.code, Code::SkillShadowed | Code::CommandShadowed))
        .count();
    assert_eq!(shadow_findings, hidden.len());
    for row in report
        .files
        .iter()
        .filter(|r| hidden.contains(&r.path.as_str()))
    {
        assert!(!row.counted && row.skill_listing.is_none(), "{}", row.path);
    }
    assert_eq!(
        report.session.skills,
        [
            "deploy: Deploys my way.",
            "fmt: Formats.",
            "lint: Lint it my way."
        ]
    );
    assert!(report
        .verdict
        .iter()
        .any(|line| line.code == Code::SkillShadowed
            && line.harm == memdiag_core::report::Harm::Drops));
}
