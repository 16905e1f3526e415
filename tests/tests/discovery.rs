//! Discovery rules that need more than rendered rows to check: the report's context (which
//! lookup found the memory folder), measurements, reads, and generated inputs. The rules
//! that rows alone show live as case files in `fixtures/rules/` (see `cases.rs`).
//!
//! Rows render as `Group load path [counted] [status] (reason) scope=… paths=… skill=…`,
//! indented by reference depth, with home shown as `~`.

use memdiag_core::report::{CutBy, LoadType, MemoryLookup};
use memdiag_tests::{assert_text, codes, render, Fixture};

#[test]
fn a_skill_costs_its_name_and_description_capped_at_1536_characters() {
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
    let skills = &report.footprint.groups["Skills"];
    // "ship-it" + "Deploys." + "On Fridays." and "long" + 1,536 of the 2,000 d's.
    assert_eq!(skills.chars, 7 + 8 + 11 + 4 + 1_536);
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
fn the_older_seed_encoding_is_tried_second() {
    let report = Fixture::parse(
        r#"
        //@ project=/home/alice/my.app
        //- /home/alice/.claude/projects/-home-alice-my.app/memory/MEMORY.md
        - seed encoding kept the dot
        "#,
    )
    .analyze();
    assert_eq!(
        report.context.memory_found_via,
        Some(MemoryLookup::SeedEncoding)
    );
    assert_eq!(
        report.context.memory_folder_name.as_deref(),
        Some("-home-alice-my-app")
    );
}

#[test]
fn a_folder_ending_with_the_last_two_segments_is_tried_last_ignoring_case() {
    let report = Fixture::parse(
        r#"
        //@ home=/Users/alice project=/Users/alice/Work/App os=macos
        //- /Users/alice/.claude/projects/-a-work-app/transcript.jsonl size=10
        //- /Users/alice/.claude/projects/-Volumes-old-work-app/memory/MEMORY.md
        - moved from an old disk
        //- /Users/alice/.claude/projects/-z-work-app/memory/MEMORY.md
        - later in byte order
        "#,
    )
    .analyze();
    assert_eq!(report.context.memory_found_via, Some(MemoryLookup::Suffix));
    assert_eq!(
        report.context.memory_dir.as_deref(),
        Some("/Users/alice/.claude/projects/-Volumes-old-work-app/memory")
    );
}

#[test]
fn no_memory_folder_is_a_finding_and_every_folder_is_still_listed() {
    let report = Fixture::parse(&memory_fixture("//@ project=/home/alice/other", "")).analyze();
    assert_eq!(report.context.memory_dir, None);
    assert!(codes(&report).contains("memory-folder-not-found"));
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
fn auto_memory_directory_comes_from_user_settings_only() {
    let report = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/.claude/settings.json
        {"autoMemoryDirectory": "~/mem"}
        //- /home/alice/app/.claude/settings.json
        {"autoMemoryDirectory": "/elsewhere"}
        //- /home/alice/mem/-home-alice-app/memory/MEMORY.md
        - moved
        "#,
    )
    .analyze();
    assert_eq!(report.context.projects_base, "/home/alice/mem");
    assert_eq!(
        report.context.memory_dir.as_deref(),
        Some("/home/alice/mem/-home-alice-app/memory")
    );
    assert!(codes(&report).contains("auto-memory-directory-ignored"));
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
    assert!(codes(&report).contains("auto-memory-disabled"));
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
    assert!(found.contains("claude-md-skipped") && found.contains("claude-md-too-large"));
}

#[test]
fn frontmatter_and_block_comments_are_not_measured_as_loaded() {
    let report = Fixture::parse(
        "//@ project=/home/alice/app\n//- /home/alice/app/.claude/rules/r.md\n---\npaths: src/**\n---\n<!-- why this rule exists -->\nUse tabs.\n",
    )
    .analyze();
    let row = &report.files[0];
    let raw = row.raw.expect("read");
    let loaded = row.loaded.expect("loads");
    assert_eq!(raw.lines, 5);
    assert_eq!(loaded.lines, 1);
    assert_eq!(loaded.bytes, "Use tabs.\n".len() as u64);
    assert_eq!(report.footprint.bytes, loaded.bytes);
    assert_eq!(row.load, LoadType::Conditional);
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
    let warning = report
        .diagnostics
        .iter()
        .find(|d| d.code == "memory-index-truncated")
        .expect("a truncation warning");
    assert!(warning
        .message
        .starts_with("WARNING: MEMORY.md is 210 lines (limit: 200). Only part of it was loaded"));

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
        .find(|d| d.code == "memory-index-near-limit")
        .expect("a reminder");
    assert!(reminder
        .message
        .contains("161 lines, approaching the 200-line read limit"));
    assert!(!codes(&report).contains("memory-index-truncated"));
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
    assert!(found.contains("invalid-settings") && found.contains("invalid-utf8"));
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
    assert!(
        report.footprint.bytes < 12_000,
        "only the loaded part counts"
    );
}
